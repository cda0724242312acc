//! The rules of Blackhole (CodeCup 2018): positions, moves, scoring and dead cells.

use std::fmt;
use std::str::FromStr;

use crate::board::{ALL_CELLS, CELLS, Cell, NEIGHBOURS, cells_of};
use crate::error::BlackholeError;

/// Red, who moves first.
pub const RED: usize = 0;
/// Blue.
pub const BLUE: usize = 1;
/// Stones per player (values 1..=15).
pub const STONES: u8 = 15;
/// Moves in a game.
pub const GAME_MOVES: u8 = 30;
/// Blocked (brown) cells.
pub const BLOCKED: usize = 5;
/// The score of a draw.
pub const DRAW_SCORE: i16 = 75;

/// The name of a player.
pub fn player_name(p: usize) -> &'static str {
    if p == RED { "Red" } else { "Blue" }
}

/// A move: a stone `value` (1..=15) of the player to move on `cell`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// The cell.
    pub cell: Cell,
    /// The stone, 1..=15.
    pub value: u8,
}

/// Number of dense move indices: `cell * 15 + value - 1`.
pub const MOVE_BOUND: usize = CELLS * STONES as usize;

impl Move {
    /// A move (not checked).
    pub fn new(cell: Cell, value: u8) -> Self {
        Move { cell, value }
    }

    /// The dense index `cell * 15 + value - 1`, below [`MOVE_BOUND`].
    #[inline]
    pub fn index(self) -> usize {
        self.cell.index() * STONES as usize + usize::from(self.value.max(1) - 1)
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}={}", self.cell, self.value)
    }
}

impl FromStr for Move {
    type Err = BlackholeError;

    /// Parses `<cell>=<value>`, e.g. `A3=6` (surrounding white space is ignored).
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let t = text.trim();
        let (cell, value) = t
            .split_once('=')
            .ok_or_else(|| BlackholeError::MalformedMove(t.to_string()))?;
        let cell = Cell::parse(cell)?;
        let value: u8 = value
            .parse()
            .map_err(|_| BlackholeError::BadValue(value.to_string()))?;
        if !(1..=STONES).contains(&value) {
            return Err(BlackholeError::BadValue(value.to_string()));
        }
        Ok(Move { cell, value })
    }
}

const BROWN: i8 = i8::MAX;

/// A position: blocked cells, stones, used values and, per cell, the sum of the adjacent red
/// stones minus the adjacent blue stones. `Copy`, 128 bytes: a playout copies it.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Position {
    /// Per cell: 0 empty, `BROWN` blocked, `+v` a red stone v, `-v` a blue stone v.
    stones: [i8; CELLS],
    /// Per cell: adjacent red stones minus adjacent blue stones.
    delta: [i16; CELLS],
    /// Empty cells.
    empty: u64,
    /// Per player: bit `v` set when stone `v` was used.
    used: [u16; 2],
    /// Moves played.
    moves: u8,
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position(")?;
        for c in Cell::all() {
            match self.stones[c.index()] {
                0 => {}
                BROWN => write!(f, "{c}# ")?,
                v if v > 0 => write!(f, "{c}=r{v} ")?,
                v => write!(f, "{c}=b{} ", -v)?,
            }
        }
        write!(f, ")")
    }
}

impl Position {
    /// The start position with these five distinct blocked cells.
    ///
    /// # Errors
    /// [`BlackholeError::BadBlocked`] unless `blocked` holds five distinct cells.
    pub fn new(blocked: &[Cell]) -> Result<Self, BlackholeError> {
        let mut mask = 0u64;
        for c in blocked {
            mask |= 1 << c.index();
        }
        if blocked.len() != BLOCKED || mask.count_ones() as usize != BLOCKED {
            let names: Vec<String> = blocked.iter().map(|c| c.to_string()).collect();
            return Err(BlackholeError::BadBlocked(format!(
                "need {BLOCKED} distinct cells, got [{}]",
                names.join(", ")
            )));
        }
        let mut stones = [0i8; CELLS];
        for c in cells_of(mask) {
            stones[c.index()] = BROWN;
        }
        Ok(Position {
            stones,
            delta: [0; CELLS],
            empty: ALL_CELLS & !mask,
            used: [0; 2],
            moves: 0,
        })
    }

    /// The player to move (Red first).
    #[inline]
    pub fn mover(&self) -> usize {
        usize::from(self.moves & 1)
    }

    /// Moves played so far.
    #[inline]
    pub fn moves_played(&self) -> usize {
        usize::from(self.moves)
    }

    /// Empty cells left: 31 at the start (36 cells less the 5 blocked), one fewer per move.
    /// The same as `empty().count_ones()`, but from the move count: playouts and the solver
    /// ask at every step.
    #[inline]
    pub fn empty_count(&self) -> u32 {
        (CELLS - BLOCKED) as u32 - u32::from(self.moves)
    }

    /// Whether all 30 stones are placed.
    #[inline]
    pub fn is_over(&self) -> bool {
        self.moves >= GAME_MOVES
    }

    /// The empty cells.
    #[inline]
    pub fn empty(&self) -> u64 {
        self.empty
    }

    /// Adjacent red stones minus adjacent blue stones of a cell.
    #[inline]
    pub fn delta(&self, c: Cell) -> i16 {
        self.delta[c.index()]
    }

    /// The score `player` gets if `c` ends as the black hole: `75 ± delta`.
    #[inline]
    pub fn hole_score(&self, c: Cell, player: usize) -> i16 {
        let d = self.delta[c.index()];
        if player == RED {
            DRAW_SCORE + d
        } else {
            DRAW_SCORE - d
        }
    }

    /// Whether `player` still holds stone `value`.
    #[inline]
    pub fn has_stone(&self, player: usize, value: u8) -> bool {
        self.used[player & 1] & (1 << value) == 0
    }

    /// The stones `player` still holds, as a bit mask over values (bit `v`).
    #[inline]
    pub fn stones_left_mask(&self, player: usize) -> u16 {
        !self.used[player & 1] & 0xfffe
    }

    /// How many stones `player` still holds.
    #[inline]
    pub fn stones_left(&self, player: usize) -> u32 {
        self.stones_left_mask(player).count_ones()
    }

    /// The least valuable stone `player` holds (0 if none).
    #[inline]
    pub fn lowest_stone(&self, player: usize) -> u8 {
        let m = self.stones_left_mask(player);
        if m == 0 { 0 } else { m.trailing_zeros() as u8 }
    }

    /// The most valuable stone `player` holds (0 if none).
    #[inline]
    pub fn highest_stone(&self, player: usize) -> u8 {
        self.highest_stone_up_to(player, 15)
    }

    /// The most valuable stone `player` holds that is at most `cap` (0 if none).
    #[inline]
    pub fn highest_stone_up_to(&self, player: usize, cap: u8) -> u8 {
        let m = self.stones_left_mask(player) & (u16::MAX >> (15 - cap.min(15)));
        if m == 0 {
            0
        } else {
            15 - m.leading_zeros() as u8
        }
    }

    /// Plays a move without checking it (the hot path). The move must be legal.
    #[inline]
    pub fn play(&mut self, mv: Move) {
        let p = self.mover();
        let i = mv.cell.index();
        let signed = if p == RED {
            mv.value as i8
        } else {
            -(mv.value as i8)
        };
        self.stones[i] = signed;
        self.empty &= !(1u64 << i);
        self.used[p] |= 1 << mv.value;
        self.moves += 1;
        let d = i16::from(signed);
        let mut n = NEIGHBOURS[i];
        while n != 0 {
            let j = n.trailing_zeros() as usize;
            n &= n - 1;
            self.delta[j] += d;
        }
    }

    /// Plays `mv` but takes stone `paid` (held, not above `mv.value`) out of the mover's hand
    /// in place of `mv.value`, which the mover keeps: a position the rules cannot reach, at
    /// least as good for the mover as playing `mv.value` with any held stone from `paid` up
    /// to it (the solver's cell relaxation).
    #[inline]
    pub(crate) fn play_paying(&mut self, mv: Move, paid: u8) {
        debug_assert!(paid <= mv.value && self.has_stone(self.mover(), paid));
        let p = self.mover();
        self.play(mv);
        self.used[p] ^= (1 << mv.value) | (1 << paid);
    }

    /// Checks a move for the player to move.
    ///
    /// # Errors
    /// [`BlackholeError::GameOver`], [`BlackholeError::BadValue`], [`BlackholeError::Occupied`]
    /// or [`BlackholeError::ValueUsed`].
    pub fn check(&self, mv: Move) -> Result<(), BlackholeError> {
        if self.is_over() {
            return Err(BlackholeError::GameOver(mv.to_string()));
        }
        if !(1..=STONES).contains(&mv.value) {
            return Err(BlackholeError::BadValue(mv.value.to_string()));
        }
        if self.empty & (1 << mv.cell.index()) == 0 {
            return Err(BlackholeError::Occupied(mv.cell.to_string()));
        }
        let p = self.mover();
        if !self.has_stone(p, mv.value) {
            return Err(BlackholeError::ValueUsed {
                value: mv.value,
                player: player_name(p),
            });
        }
        Ok(())
    }

    /// Plays a move after [`Position::check`].
    ///
    /// # Errors
    /// As [`Position::check`]; the position is unchanged on error.
    pub fn try_play(&mut self, mv: Move) -> Result<(), BlackholeError> {
        self.check(mv)?;
        self.play(mv);
        Ok(())
    }

    /// Every legal move, cells in index order, values ascending.
    #[cfg(test)]
    pub fn legal_moves(&self, out: &mut Vec<Move>) {
        if self.is_over() {
            return;
        }
        let stones = self.stones_left_mask(self.mover());
        for c in cells_of(self.empty) {
            let mut s = stones;
            while s != 0 {
                let v = s.trailing_zeros() as u8;
                s &= s - 1;
                out.push(Move::new(c, v));
            }
        }
    }

    /// The black hole once the game is over (the one empty cell), if exactly one is empty.
    pub fn hole(&self) -> Option<Cell> {
        (self.empty.count_ones() == 1).then(|| Cell(self.empty.trailing_zeros() as u8))
    }

    /// Red's final score `75 + R - B` (the game must be over).
    pub fn red_score(&self) -> Option<i16> {
        if !self.is_over() {
            return None;
        }
        self.hole().map(|h| self.hole_score(h, RED))
    }

    /// The final score of `player` (the game must be over).
    pub fn score(&self, player: usize) -> Option<i16> {
        self.red_score()
            .map(|r| if player == RED { r } else { 150 - r })
    }

    /// Dead cells: empty cells without an empty neighbour. No stone can be placed next to them
    /// any more, so their value as a black hole is fixed.
    #[inline]
    pub fn dead_cells(&self) -> u64 {
        let mut dead = 0;
        let mut e = self.empty;
        while e != 0 {
            let i = e.trailing_zeros() as usize;
            e &= e - 1;
            if NEIGHBOURS[i] & self.empty == 0 {
                dead |= 1 << i;
            }
        }
        dead
    }
}

/// What the dead cells already decide for a target: does `player` reach `alpha` or not?
///
/// Call a dead cell *good* for `player` when its fixed score for `player` is at least `alpha`.
/// If `player` has more good dead cells than the opponent has stones left, the opponent cannot
/// fill them all and `player` never needs to (it can always play elsewhere, or everything left
/// is good), so the hole ends on a good cell: a win. Symmetrically for the bad dead cells.
/// Returns `Some(true)` for a declared win of `player`, `Some(false)` for a declared loss.
#[inline]
pub fn declared(pos: &Position, player: usize, alpha: i16) -> Option<bool> {
    if pos.is_over() {
        return pos.score(player).map(|s| s >= alpha);
    }
    let dead = pos.dead_cells();
    if dead == 0 {
        return None;
    }
    let mut good = 0u32;
    let mut bad = 0u32;
    for c in cells_of(dead) {
        if pos.hole_score(c, player) >= alpha {
            good += 1;
        } else {
            bad += 1;
        }
    }
    if good > pos.stones_left(1 - player) {
        Some(true)
    } else if bad > pos.stones_left(player) {
        Some(false)
    } else {
        None
    }
}

/// The legal moves with the unreasonable ones pruned (sound for every target score).
///
/// * A stone on a dead cell touches no cell that can still become the hole, so its value does
///   not matter: only the least valuable stone is tried there (the stone is *isolated*; such a
///   cell is *stale* for placing).
/// * For the target, dead cells only count as good or bad for `player` and never interact with
///   the rest of the board, so filling any dead cell of a class is as good as filling another
///   of the same class, and filling one of the mover's bad dead cells is at least as good as
///   filling one of its good ones: one dead-cell move is kept, on the mover's worst dead cell
///   (it is in the mover's bad class whenever that class is non-empty, whatever the target).
/// * Live cells (with an empty neighbour) get every stone.
pub fn reasonable_moves(pos: &Position, out: &mut Vec<Move>) {
    if pos.is_over() {
        return;
    }
    let mover = pos.mover();
    let dead = pos.dead_cells();
    if dead != 0 {
        // The mover's worst dead cell: lowest score for the mover.
        let mut worst = None;
        let mut worst_score = i16::MAX;
        for c in cells_of(dead) {
            let s = pos.hole_score(c, mover);
            if s < worst_score {
                worst_score = s;
                worst = Some(c);
            }
        }
        if let Some(c) = worst {
            out.push(Move::new(c, pos.lowest_stone(mover)));
        }
    }
    let stones = pos.stones_left_mask(mover);
    for c in cells_of(pos.empty & !dead) {
        let mut s = stones;
        while s != 0 {
            let v = s.trailing_zeros() as u8;
            s &= s - 1;
            out.push(Move::new(c, v));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(crate) fn cell(name: &str) -> Cell {
        Cell::parse(name).unwrap()
    }

    pub(crate) fn start(blocked: [&str; 5]) -> Position {
        Position::new(&blocked.map(cell)).unwrap()
    }

    fn mv(text: &str) -> Move {
        text.parse().unwrap()
    }

    #[test]
    fn the_highest_stone_up_to_a_cap_skips_the_stones_played_and_above() {
        let mut p = start(["B2", "C5", "E1", "F3", "A8"]);
        p.play(mv("A1=15"));
        p.play(mv("A2=1"));
        p.play(mv("A3=12"));
        assert_eq!(p.highest_stone(RED), 14);
        assert_eq!(p.highest_stone_up_to(RED, 15), 14);
        assert_eq!(p.highest_stone_up_to(RED, 12), 11);
        assert_eq!(p.highest_stone_up_to(RED, 1), 1);
        assert_eq!(p.highest_stone_up_to(1 - RED, 1), 0);
        assert_eq!(p.highest_stone_up_to(RED, 0), 0);
    }

    #[test]
    fn playing_while_paying_a_smaller_stone_keeps_the_played_one() {
        let mut p = start(["B2", "C5", "E1", "F3", "A8"]);
        p.play(mv("A1=15"));
        let mut paying = p;
        paying.play_paying(mv("A3=9"), 2);
        let mut plain = p;
        plain.play(mv("A3=9"));
        // The board is that of the plain move: the cell taken, Blue's 9 on its neighbours.
        for c in Cell::all() {
            assert_eq!(paying.delta(c), plain.delta(c), "{c}");
        }
        assert_eq!(paying.empty(), plain.empty());
        assert_eq!(paying.mover(), RED);
        // Blue keeps its 9 and has paid its 2.
        assert!(paying.has_stone(1 - RED, 9));
        assert!(!paying.has_stone(1 - RED, 2));
        assert_eq!(paying.stones_left(1 - RED), 14);
        assert_eq!(paying.stones_left_mask(RED), p.stones_left_mask(RED));
        assert_eq!(paying.delta(cell("A2")), 15 - 9);
    }

    #[test]
    fn moves_parse_and_print() {
        assert_eq!(mv("A3=6"), Move::new(cell("A3"), 6));
        assert_eq!(mv("H1=15").to_string(), "H1=15");
        for bad in ["A3", "A3=", "A3=0", "A3=16", "Z3=1", "A3=x", "=4", "A3=6=1"] {
            assert!(bad.parse::<Move>().is_err(), "{bad} parsed");
        }
        let mut seen = [false; MOVE_BOUND];
        for c in Cell::all() {
            for v in 1..=15 {
                let i = Move::new(c, v).index();
                assert!(!seen[i]);
                seen[i] = true;
            }
        }
    }

    #[test]
    fn the_rules_example_scores_87_to_63() {
        // The hole C3 has neighbours B3, B4, C2, C4, D2, D3 (see board tests). Red 4, 7, 14 and
        // Blue 2, 11 around it, one neighbour blocked: R = 25, B = 13.
        let mut p = start(["D3", "A1", "A2", "A3", "A4"]);
        let around = [("B3", 4), ("C2", 2), ("B4", 7), ("C4", 11), ("D2", 14)];
        for (name, v) in around {
            p.try_play(Move::new(cell(name), v)).unwrap();
        }
        assert_eq!(p.delta(cell("C3")), 25 - 13);
        assert_eq!(p.hole_score(cell("C3"), RED), 87);
        assert_eq!(p.hole_score(cell("C3"), BLUE), 63);
        // Fill every other cell with stones far from C3 and check the final score.
        let mut red = (1..=15).filter(|v| ![4, 7, 14].contains(v));
        let mut blue = (1..=15).filter(|v| ![2, 11].contains(v));
        let others: Vec<Cell> = cells_of(p.empty() & !(1 << cell("C3").index())).collect();
        for c in others {
            let v = if p.mover() == RED {
                red.next()
            } else {
                blue.next()
            };
            p.try_play(Move::new(c, v.unwrap())).unwrap();
        }
        assert!(p.is_over());
        assert_eq!(p.hole(), Some(cell("C3")));
        assert_eq!(p.red_score(), Some(87));
        assert_eq!(p.score(BLUE), Some(63));
    }

    #[test]
    fn illegal_moves_are_refused() {
        let mut p = start(["A1", "A2", "A3", "A4", "A5"]);
        assert!(matches!(
            p.try_play(mv("A1=3")),
            Err(BlackholeError::Occupied(_))
        ));
        p.try_play(mv("B1=3")).unwrap();
        assert!(matches!(
            p.try_play(mv("B1=4")),
            Err(BlackholeError::Occupied(_))
        ));
        p.try_play(mv("B2=3")).unwrap(); // Blue may use 3 too.
        assert!(matches!(
            p.try_play(mv("B3=3")),
            Err(BlackholeError::ValueUsed { value: 3, .. })
        ));
        assert_eq!(p.moves_played(), 2);
        assert!(Position::new(&[cell("A1"); 5]).is_err());
        assert!(Position::new(&[cell("A1"), cell("A2")]).is_err());
    }

    #[test]
    fn the_empty_count_is_the_number_of_empty_cells() {
        let mut p = start(["A1", "A2", "A3", "A4", "A5"]);
        let mut legal = Vec::new();
        while !p.is_over() {
            assert_eq!(p.empty_count(), p.empty().count_ones());
            legal.clear();
            p.legal_moves(&mut legal);
            p.play(legal[0]);
        }
        assert_eq!(p.empty_count(), 1);
    }

    #[test]
    fn dead_cells_and_declarations() {
        // A1's neighbours are A2 and B1: fill them and A1 is dead with a fixed value.
        let mut p = start(["H1", "G1", "G2", "F1", "F2"]);
        p.play(mv("A2=15")); // red
        p.play(mv("B1=1")); // blue
        assert_eq!(p.dead_cells(), 1 << cell("A1").index());
        assert_eq!(p.hole_score(cell("A1"), RED), 75 + 14);
        // One good dead cell for Red, Blue has 14 stones: nothing declared.
        assert_eq!(declared(&p, RED, 80), None);
        let mut out = Vec::new();
        reasonable_moves(&p, &mut out);
        // Red to move: one dead-cell move with the lowest red stone (1), then live cells.
        assert_eq!(out[0], Move::new(cell("A1"), 1));
        assert_eq!(out.iter().filter(|m| m.cell == cell("A1")).count(), 1);
        assert_eq!(out.len(), 1 + 28 * 14);
    }
}
