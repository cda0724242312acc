//! The playouts' moves: Ansell's lottery from the α-dead cells, this crate's own lottery of
//! block and grow tickets, the greedy moves that spread early and fill late (with stones drawn
//! by value, or seeing the α-dead cells), and uniformly random moves.

use rand::{Rng, RngExt};

use crate::board::{Cell, NEIGHBOURS, cells_of};
use crate::rules::{GAME_MOVES, Move, Position, RED};

/// The hole values (Red's delta) a cell can still end with: its delta plus the `k` least
/// (`low[k]`) or most (`high[k]`) valuable stones of both hands together (Blue's counted
/// negative), `k` its empty neighbours.
struct HoleRange {
    low: [i16; 7],
    high: [i16; 7],
}

impl HoleRange {
    fn of(pos: &Position) -> Self {
        // Both hands as values in ascending order: Blue's from -15 up, then Red's.
        let mut values = [0i16; 30];
        let mut n = 0;
        let blue = pos.stones_left_mask(crate::rules::BLUE);
        for v in (1..=15).rev().filter(|v| blue & (1 << v) != 0) {
            values[n] = -v;
            n += 1;
        }
        let red = pos.stones_left_mask(RED);
        for v in (1..=15).filter(|v| red & (1 << v) != 0) {
            values[n] = v;
            n += 1;
        }
        let (mut low, mut high) = ([0i16; 7], [0i16; 7]);
        for k in 1..7 {
            low[k] = low[k - 1] + values.get(k - 1).filter(|_| k <= n).copied().unwrap_or(0);
            high[k] = high[k - 1] + if k <= n { values[n - k] } else { 0 };
        }
        HoleRange { low, high }
    }
}

/// Ansell's lottery (EventHorizon, section 4.2), for the question whether `player` reaches
/// `alpha`. A cell is *α-dead* in a player's favour when every way of filling its empty
/// neighbours leaves it on that player's side of `alpha`, and *α-stale* when it and all its
/// empty neighbours are α-dead. Each empty cell gets one ticket per empty neighbour that is not
/// α-dead, one less if it is α-dead in the mover's favour and one more if in the opponent's;
/// the stone is the least valuable on an α-stale cell, else drawn with one ticket per point of
/// its value.
pub fn ansell_move<R: Rng + ?Sized>(
    pos: &Position,
    player: usize,
    alpha: i16,
    rng: &mut R,
) -> Move {
    let mover = pos.mover();
    let empty = pos.empty();
    let dead = alpha_dead(pos, player, alpha);
    let mine: i8 = if mover == RED { 1 } else { -1 };
    let mut tickets = [0u32; 32];
    let mut cells = [0u8; 32];
    let mut n = 0;
    let mut total = 0;
    for c in cells_of(empty) {
        let live = cells_of(NEIGHBOURS[c.index()] & empty)
            .filter(|nb| dead[nb.index()] == 0)
            .count() as i32;
        let own = i32::from(dead[c.index()] * mine);
        let t = (live - own).max(0) as u32;
        cells[n] = c.0;
        tickets[n] = t;
        total += t;
        n += 1;
    }
    let pick = if total == 0 {
        rng.random_range(0..n)
    } else {
        let mut draw = rng.random_range(0..total);
        tickets[..n]
            .iter()
            .position(|&t| {
                let hit = draw < t;
                draw = draw.saturating_sub(t);
                hit
            })
            .unwrap_or(0)
    };
    let cell = Cell(cells[pick]);
    let stale = dead[cell.index()] != 0
        && cells_of(NEIGHBOURS[cell.index()] & empty).all(|nb| dead[nb.index()] != 0);
    let value = if stale {
        pos.lowest_stone(mover)
    } else {
        value_weighted_stone(pos, mover, rng)
    };
    Move::new(cell, value)
}

/// Per cell, whose side of the question "does `player` score at least `alpha`?" the cell
/// stays on whatever stones fill its empty neighbours: `1` Red's (a hole there gives Red a
/// hole value at or above what settles the question in Red's favour), `-1` Blue's, `0` still
/// open (and for cells that are not empty).
pub(crate) fn alpha_dead(pos: &Position, player: usize, alpha: i16) -> [i8; 64] {
    let empty = pos.empty();
    let range = HoleRange::of(pos);
    // Hole values (Red's delta) at or above this settle the question in Red's favour: Red
    // reaching `alpha`, or Blue missing it (75 - d < alpha).
    let red_side = if player == RED {
        alpha - 75
    } else {
        76 - alpha
    };
    let mut dead = [0i8; 64];
    for c in cells_of(empty) {
        let k = (NEIGHBOURS[c.index()] & empty).count_ones() as usize;
        let d = pos.delta(c);
        dead[c.index()] = if d + range.low[k] >= red_side {
            1
        } else if d + range.high[k] < red_side {
            -1
        } else {
            0
        };
    }
    dead
}

/// A stone `player` holds, drawn with one ticket per point of its value.
fn value_weighted_stone<R: Rng + ?Sized>(pos: &Position, player: usize, rng: &mut R) -> u8 {
    let m = pos.stones_left_mask(player);
    let total: u32 = (1..=15u32).filter(|v| m & (1 << v) != 0).sum();
    let mut draw = rng.random_range(0..total.max(1));
    for v in 1..=15u8 {
        if m & (1 << v) != 0 {
            if draw < u32::from(v) {
                return v;
            }
            draw -= u32::from(v);
        }
    }
    pos.lowest_stone(player)
}

/// This crate's own lottery: every empty cell holds tickets for two kinds of move, and one
/// ticket is drawn per move.
///
/// * *Block* tickets: the least valuable stone on the cell, taking it away as a possible hole.
///   `1 + max(0, -d)` tickets where `d` is the cell's hole value for the mover (adjacent own
///   stones minus the opponent's), so holes that are bad for the mover get filled.
/// * *Grow* tickets (only cells with `e > 0` empty neighbours): a valuable stone (the highest
///   with probability 1/2, else a random one held) on the cell, whose value counts for every
///   neighbour that may end as the hole. `2 + 2 e^2` tickets, plus the positive hole values of
///   the empty neighbours for the mover (a big stone next to a hole that is already good).
///
/// Draws one such move for the player to move (the game must not be over).
pub fn lottery_move<R: Rng + ?Sized>(pos: &Position, rng: &mut R) -> Move {
    let mover = pos.mover();
    let sign: i32 = if mover == RED { 1 } else { -1 };
    let empty = pos.empty();
    // Up to 31 empty cells, two kinds each.
    let mut tickets = [0u32; 64];
    let mut cells = [0u8; 32];
    let mut n = 0;
    let mut total = 0u32;
    for c in cells_of(empty) {
        let d = sign * i32::from(pos.delta(c));
        let e = (NEIGHBOURS[c.index()] & empty).count_ones();
        let block = 1 + (-d).max(0) as u32;
        let grow = if e == 0 {
            0
        } else {
            let mut g = 2 + 2 * e * e;
            for nb in cells_of(NEIGHBOURS[c.index()] & empty) {
                g += (sign * i32::from(pos.delta(nb))).max(0) as u32;
            }
            g
        };
        cells[n] = c.0;
        tickets[2 * n] = block;
        tickets[2 * n + 1] = grow;
        total += block + grow;
        n += 1;
    }
    let mut draw = rng.random_range(0..total.max(1));
    let mut pick = 0;
    for (k, &t) in tickets[..2 * n].iter().enumerate() {
        if draw < t {
            pick = k;
            break;
        }
        draw -= t;
    }
    let cell = Cell(cells[pick / 2]);
    let value = if pick % 2 == 0 {
        pos.lowest_stone(mover)
    } else if rng.random_bool(0.5) {
        pos.highest_stone(mover)
    } else {
        random_stone(pos, mover, rng)
    };
    Move::new(cell, value)
}

fn random_stone<R: Rng + ?Sized>(pos: &Position, player: usize, rng: &mut R) -> u8 {
    let mut m = pos.stones_left_mask(player);
    let k = rng.random_range(0..m.count_ones());
    for _ in 0..k {
        m &= m - 1;
    }
    m.trailing_zeros() as u8
}

/// A greedy move, after the description of the CodeCup 2018 winner's playout. Early in the game
/// the mover mostly *spreads*: the cell with the most empty neighbours (ties: the worst hole for
/// the mover). Late it mostly *fills*: the worst hole for the mover (ties: the most empty
/// neighbours). The chance of spreading falls linearly from 1 at the first move to 1/30 at the
/// last. The stone is the most valuable one held, or the least valuable where the cell has no
/// empty neighbour (it can then change no hole's value). Ties between cells are drawn at
/// random. The game must not be over.
pub fn greedy_move<R: Rng + ?Sized>(pos: &Position, rng: &mut R) -> Move {
    let empty = pos.empty();
    greedy_pick(
        pos,
        |c| (NEIGHBOURS[c.index()] & empty).count_ones() as i32,
        |c| touches_no_empty_cell(pos, c),
        rng,
    )
}

/// [`greedy_move`]'s cell with a stone drawn by Ansell's lottery (tickets equal to the stone's
/// value) instead of the most valuable one, where the cell has empty neighbours: the players
/// of recorded games keep their big stones longer than the greedy playout does (the least
/// valuable stone still goes where it can change no hole's value).
pub fn greedy_lottery_move<R: Rng + ?Sized>(pos: &Position, rng: &mut R) -> Move {
    let mv = greedy_move(pos, rng);
    if touches_no_empty_cell(pos, mv.cell) {
        return mv;
    }
    Move::new(mv.cell, value_weighted_stone(pos, pos.mover(), rng))
}

/// [`greedy_move`] that sees the α-dead cells of the question whether `player` reaches `alpha`
/// as Ansell's lottery does ([`ansell_move`]): a cell's openness counts only its empty
/// neighbours that are not α-dead, one less if the cell is α-dead in the mover's favour and one
/// more if in the opponent's, and the least valuable stone goes on α-stale cells.
pub fn greedy_alpha_move<R: Rng + ?Sized>(
    pos: &Position,
    player: usize,
    alpha: i16,
    rng: &mut R,
) -> Move {
    let empty = pos.empty();
    let dead = alpha_dead(pos, player, alpha);
    let mine: i8 = if pos.mover() == RED { 1 } else { -1 };
    let live = |c: Cell| {
        cells_of(NEIGHBOURS[c.index()] & empty)
            .filter(|nb| dead[nb.index()] == 0)
            .count() as i32
    };
    greedy_pick(
        pos,
        |c| live(c) - i32::from(dead[c.index()] * mine),
        |c| dead[c.index()] != 0 && live(c) == 0,
        rng,
    )
}

/// The greedy choice of [`greedy_move`] with a cell's openness and the cells that get the
/// least valuable stone given.
fn greedy_pick<R: Rng + ?Sized>(
    pos: &Position,
    open: impl Fn(Cell) -> i32,
    settled: impl Fn(Cell) -> bool,
    rng: &mut R,
) -> Move {
    let mover = pos.mover();
    let sign: i32 = if mover == RED { 1 } else { -1 };
    let spread = rng.random_range(0..usize::from(GAME_MOVES)) >= pos.moves_played();
    let (mut best, mut cell, mut ties) = (i32::MIN, 0u8, 0u32);
    for c in cells_of(pos.empty()) {
        // How bad the cell is for the mover as the hole: |delta| <= 90 < 128.
        let bad = -sign * i32::from(pos.delta(c));
        let key = if spread {
            open(c) * 256 + bad
        } else {
            bad * 8 + open(c)
        };
        if key > best {
            (best, cell, ties) = (key, c.0, 1);
        } else if key == best {
            ties += 1;
            if rng.random_range(0..ties) == 0 {
                cell = c.0;
            }
        }
    }
    let cell = Cell(cell);
    let value = if settled(cell) {
        pos.lowest_stone(mover)
    } else {
        pos.highest_stone(mover)
    };
    Move::new(cell, value)
}

/// The greedy playout's stone for `cell`: the least valuable one held where the cell has no
/// empty neighbour (it can then change no hole's value), else the most valuable. A grouped
/// game's playout gives it to the cell the tree chose, whatever the playout policy.
pub fn stone_for(pos: &Position, cell: Cell) -> u8 {
    if touches_no_empty_cell(pos, cell) {
        pos.lowest_stone(pos.mover())
    } else {
        pos.highest_stone(pos.mover())
    }
}

/// Whether `cell` has no empty neighbour: a stone there changes no hole's value, so the
/// greedy playouts put their least valuable stone on it.
fn touches_no_empty_cell(pos: &Position, cell: Cell) -> bool {
    NEIGHBOURS[cell.index()] & pos.empty() == 0
}

/// A uniformly random legal move (the game must not be over).
pub fn uniform_move<R: Rng + ?Sized>(pos: &Position, rng: &mut R) -> Move {
    let empty = pos.empty();
    let k = rng.random_range(0..empty.count_ones());
    let mut m = empty;
    for _ in 0..k {
        m &= m - 1;
    }
    let cell = Cell(m.trailing_zeros() as u8);
    Move::new(cell, random_stone(pos, pos.mover(), rng))
}

#[cfg(test)]
mod tests {
    use super::super::tests::start;
    use super::*;
    use crate::rules::BLUE;
    use rand::SeedableRng;
    use rand_pcg::Pcg64Mcg;

    #[test]
    fn alpha_dead_cells_agree_with_every_filling_of_their_neighbours() {
        // Brute force: every way to put stones held (by either player) on a cell's empty
        // neighbours, the resulting score of `player` with that cell as the hole.
        let mut rng = Pcg64Mcg::seed_from_u64(13);
        let mut settled = 0;
        for _ in 0..60 {
            let mut p = start();
            while p.empty_count() > 9 {
                p.play(lottery_move(&p, &mut rng));
            }
            let mut held: Vec<i16> = Vec::new();
            for v in 1..=15u8 {
                if p.has_stone(RED, v) {
                    held.push(i16::from(v));
                }
                if p.has_stone(BLUE, v) {
                    held.push(-i16::from(v));
                }
            }
            for player in [RED, BLUE] {
                for alpha in [66, 72, 76, 80, 86] {
                    let dead = alpha_dead(&p, player, alpha);
                    for c in cells_of(p.empty()) {
                        let k = (NEIGHBOURS[c.index()] & p.empty()).count_ones() as usize;
                        let reaches = |sum: i16| {
                            let d = p.delta(c) + sum;
                            let score = if player == RED { 75 + d } else { 75 - d };
                            score >= alpha
                        };
                        let sums = subset_sums(&held, k);
                        let always = sums.iter().all(|&s| reaches(s));
                        let never = sums.iter().all(|&s| !reaches(s));
                        // Red's side is `player` reaching alpha for Red, missing it for Blue.
                        let red_side = |r: bool| r == (player == RED);
                        let expected = if always {
                            if red_side(true) { 1 } else { -1 }
                        } else if never {
                            if red_side(false) { 1 } else { -1 }
                        } else {
                            0
                        };
                        assert_eq!(dead[c.index()], expected, "{c:?} {player} {alpha} {p:?}");
                        settled += usize::from(expected != 0);
                    }
                }
            }
        }
        assert!(settled > 100, "only {settled} settled cells");
    }

    /// The sums of every `k` of `values` (all of them if there are fewer).
    fn subset_sums(values: &[i16], k: usize) -> Vec<i16> {
        if k == 0 || values.len() <= k {
            return vec![values.iter().take(k).sum()];
        }
        let mut out = subset_sums(&values[1..], k - 1);
        for s in &mut out {
            *s += values[0];
        }
        out.extend(subset_sums(&values[1..], k));
        out
    }

    #[test]
    fn ansell_moves_are_legal_to_the_end_and_favour_open_cells() {
        let mut rng = Pcg64Mcg::seed_from_u64(9);
        for alpha in [60, 76, 90] {
            for _ in 0..100 {
                let mut p = start();
                while !p.is_over() {
                    let mv = ansell_move(&p, BLUE, alpha, &mut rng);
                    p.try_play(mv).unwrap();
                }
            }
        }
        // On the empty board no cell is dead: tickets are the empty neighbours, so an interior
        // cell (six) is drawn about three times as often as a corner (two), and the stones by
        // their values.
        let p = start();
        let (corner, inner) = (Cell::parse("A1").unwrap(), Cell::parse("C3").unwrap());
        let (mut at_corner, mut at_inner, mut fifteens, mut ones) = (0, 0, 0, 0);
        for _ in 0..20_000 {
            let mv = ansell_move(&p, RED, 76, &mut rng);
            at_corner += usize::from(mv.cell == corner);
            at_inner += usize::from(mv.cell == inner);
            fifteens += usize::from(mv.value == 15);
            ones += usize::from(mv.value == 1);
        }
        assert!(
            at_inner > 2 * at_corner && at_inner < 4 * at_corner,
            "{at_inner} {at_corner}"
        );
        assert!(fifteens > 10 * ones, "{fifteens} {ones}");
    }

    #[test]
    fn greedy_lottery_moves_take_the_greedy_cell_and_draw_the_stone_by_value() {
        let mut rng = Pcg64Mcg::seed_from_u64(21);
        let p = start();
        let (mut fifteens, mut ones) = (0, 0);
        for _ in 0..3000 {
            let mv = greedy_lottery_move(&p, &mut rng);
            // On the first move the greedy playout always spreads: a most open cell.
            let open = |c: Cell| (NEIGHBOURS[c.index()] & p.empty()).count_ones();
            assert_eq!(open(mv.cell), cells_of(p.empty()).map(open).max().unwrap());
            fifteens += usize::from(mv.value == 15);
            ones += usize::from(mv.value == 1);
        }
        // Tickets 15 against 1 among 120: about 375 and 25 of 3,000.
        assert!((250..500).contains(&fifteens), "{fifteens}");
        assert!((5..60).contains(&ones), "{ones}");
    }

    #[test]
    fn greedy_moves_spread_or_fill_with_the_right_stone() {
        let mut rng = Pcg64Mcg::seed_from_u64(13);
        let (mut spread_only, mut fill_only) = ([0; 2], [0; 2]);
        for _ in 0..200 {
            let mut p = start();
            while !p.is_over() {
                let mv = greedy_move(&p, &mut rng);
                let sign = if p.mover() == RED { 1 } else { -1 };
                let empty = p.empty();
                let open = |c: Cell| (NEIGHBOURS[c.index()] & empty).count_ones() as i32;
                let bad = |c: Cell| -sign * i32::from(p.delta(c));
                let most_open = cells_of(empty).map(|c| (open(c), bad(c))).max().unwrap();
                let worst = cells_of(empty).map(|c| (bad(c), open(c))).max().unwrap();
                let c = mv.cell;
                let (spreads, fills) = ((open(c), bad(c)) == most_open, (bad(c), open(c)) == worst);
                assert!(
                    spreads || fills,
                    "{mv:?} neither spreads nor fills at {p:?}"
                );
                let late = usize::from(p.moves_played() >= 15);
                spread_only[late] += usize::from(spreads && !fills);
                fill_only[late] += usize::from(fills && !spreads);
                let stone = if open(c) == 0 {
                    p.lowest_stone(p.mover())
                } else {
                    p.highest_stone(p.mover())
                };
                assert_eq!(mv.value, stone);
                p.try_play(mv).unwrap();
            }
        }
        // Spreading dominates the first half of the game, filling the second.
        assert!(
            spread_only[0] > 2 * fill_only[0],
            "{spread_only:?} {fill_only:?}"
        );
        assert!(
            fill_only[1] > spread_only[1],
            "{spread_only:?} {fill_only:?}"
        );
        // The first move always spreads: the highest stone on a cell with six empty neighbours.
        let p = start();
        let mv = greedy_move(&p, &mut rng);
        assert_eq!((NEIGHBOURS[mv.cell.index()] & p.empty()).count_ones(), 6);
        assert_eq!(mv.value, 15);
    }

    #[test]
    fn greedy_alpha_moves_count_only_live_neighbours() {
        let mut rng = Pcg64Mcg::seed_from_u64(19);
        let mut differed = 0;
        for game in 0..100 {
            let (player, alpha) = (game % 2, 66 + (game % 5) as i16 * 5);
            let mut p = start();
            while !p.is_over() {
                let dead = alpha_dead(&p, player, alpha);
                let empty = p.empty();
                let sign = if p.mover() == RED { 1 } else { -1 };
                let live = |c: Cell| {
                    let n = NEIGHBOURS[c.index()] & empty;
                    cells_of(n).filter(|x| dead[x.index()] == 0).count() as i32
                };
                let open = |c: Cell| live(c) - i32::from(dead[c.index()]) * sign;
                let bad = |c: Cell| -sign * i32::from(p.delta(c));
                let mut twin = rng.clone();
                let mv = greedy_alpha_move(&p, player, alpha, &mut rng);
                let c = mv.cell;
                let most_open = cells_of(empty).map(|c| (open(c), bad(c))).max().unwrap();
                let worst = cells_of(empty).map(|c| (bad(c), open(c))).max().unwrap();
                assert!(
                    (open(c), bad(c)) == most_open || (bad(c), open(c)) == worst,
                    "{mv:?} neither spreads nor fills at {p:?}"
                );
                let stale = dead[c.index()] != 0 && live(c) == 0;
                let stone = if stale {
                    p.lowest_stone(p.mover())
                } else {
                    p.highest_stone(p.mover())
                };
                assert_eq!(mv.value, stone);
                // Where nothing is α-dead, it is the plain greedy move.
                if dead.iter().all(|&d| d == 0) {
                    assert_eq!(greedy_move(&p, &mut twin), mv);
                } else {
                    differed += usize::from(greedy_move(&p, &mut twin) != mv);
                }
                p.try_play(mv).unwrap();
            }
        }
        assert!(differed > 100, "{differed}");
    }

    #[test]
    fn lottery_and_uniform_moves_are_legal_to_the_end() {
        let mut rng = Pcg64Mcg::seed_from_u64(7);
        for uniform in [false, true] {
            for _ in 0..200 {
                let mut p = start();
                while !p.is_over() {
                    let mv = if uniform {
                        uniform_move(&p, &mut rng)
                    } else {
                        lottery_move(&p, &mut rng)
                    };
                    p.try_play(mv).unwrap();
                }
                let r = p.red_score().unwrap();
                assert_eq!(r + p.score(BLUE).unwrap(), 150);
            }
        }
    }
}
