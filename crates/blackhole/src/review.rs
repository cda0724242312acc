//! Game records and their review. A [`RecordedGame`] is one line naming a game's blocked cells
//! and moves (`blackhole referee --record FILE` writes one per game). [`review_game`] replays
//! a record and asks the exact solver for the value of the position before each move from a
//! given number of empty cells on, so that every move's cost is known: the points its mover
//! gave away against perfect play. [`Review`] sums this up over many games, per empty count
//! and per side: where a player loses its points to an opponent.
//!
//! ```
//! use blackhole::review::RecordedGame;
//!
//! let line = "game 1 A Red blocked A1 B2 C3 D4 E4 moves A2=15 A3=15";
//! let record: RecordedGame = line.parse()?;
//! assert!(record.a_is_red);
//! assert_eq!(record.moves.len(), 2);
//! assert_eq!(record.to_string(), line);
//! # Ok::<(), blackhole::error::BlackholeError>(())
//! ```

use std::fmt;
use std::str::FromStr;
use std::time::{Duration, Instant};

use crate::board::Cell;
use crate::error::BlackholeError;
use crate::rules::{BLUE, GAME_MOVES, Move, Position, RED};
use crate::solver::Solver;

/// One game as the referee played it: its number in the match (from 1), A's colour, the
/// blocked cells and the moves (fewer than 30 if a program forfeited).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordedGame {
    /// The game's number in its match, from 1.
    pub game: usize,
    /// Whether program A played Red.
    pub a_is_red: bool,
    /// The five blocked cells.
    pub blocked: Vec<Cell>,
    /// The moves, Red's first.
    pub moves: Vec<Move>,
}

impl fmt::Display for RecordedGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let colour = if self.a_is_red { "Red" } else { "Blue" };
        write!(f, "game {} A {colour} blocked", self.game)?;
        for c in &self.blocked {
            write!(f, " {c}")?;
        }
        write!(f, " moves")?;
        for m in &self.moves {
            write!(f, " {m}")?;
        }
        Ok(())
    }
}

impl FromStr for RecordedGame {
    type Err = BlackholeError;

    /// Parses `game N A Red|Blue blocked C C C C C moves M M ...` and checks that the moves
    /// are legal on that board.
    fn from_str(line: &str) -> Result<Self, Self::Err> {
        let bad = |why: &str| BlackholeError::BadRecord(format!("{why} in `{}`", line.trim()));
        let words: Vec<&str> = line.split_whitespace().collect();
        let blocked_at = words.iter().position(|w| *w == "blocked");
        let moves_at = words.iter().position(|w| *w == "moves");
        let (Some(b), Some(m)) = (blocked_at, moves_at) else {
            return Err(bad("no `blocked` or no `moves`"));
        };
        let (game, a_is_red) = match words[..b] {
            ["game", n, "A", colour] => {
                let n = n.parse().map_err(|_| bad("a bad game number"))?;
                match colour {
                    "Red" => (n, true),
                    "Blue" => (n, false),
                    _ => return Err(bad("A's colour is neither Red nor Blue")),
                }
            }
            _ => return Err(bad("no `game N A Red|Blue` at the start")),
        };
        if m < b {
            return Err(bad("`moves` before `blocked`"));
        }
        let blocked = words[b + 1..m]
            .iter()
            .map(|w| Cell::parse(w))
            .collect::<Result<Vec<_>, _>>()?;
        let mut pos = Position::new(&blocked)?;
        let mut moves = Vec::new();
        for (k, w) in words[m + 1..].iter().enumerate() {
            let mv = w
                .parse::<Move>()
                .and_then(|mv| pos.try_play(mv).map(|()| mv))
                .map_err(|e| bad(&format!("move {} `{w}`: {e}", k + 1)))?;
            moves.push(mv);
        }
        Ok(RecordedGame {
            game,
            a_is_red,
            blocked,
            moves,
        })
    }
}

impl RecordedGame {
    /// The position after all the moves (an error names the first illegal one).
    pub fn final_position(&self) -> Result<Position, BlackholeError> {
        let positions = self.positions()?;
        Ok(*positions.last().expect("the start position at least"))
    }

    /// The start position, then the position after each move: one more than the moves (an
    /// error names the first illegal move).
    pub fn positions(&self) -> Result<Vec<Position>, BlackholeError> {
        let mut positions = vec![Position::new(&self.blocked)?];
        for &m in &self.moves {
            let mut p = *positions.last().expect("the start position at least");
            p.try_play(m)?;
            positions.push(p);
        }
        Ok(positions)
    }

    /// Whether the game was played to its end (no forfeit).
    pub fn is_complete(&self) -> bool {
        self.moves.len() == usize::from(GAME_MOVES)
    }

    /// A's score, `None` if the game did not end.
    pub fn a_score(&self) -> Option<i16> {
        let red = self.final_position().ok()?.red_score()?;
        Some(if self.a_is_red { red } else { 150 - red })
    }
}

/// A's exact score before each move of a complete game from `from` empty cells on, then the
/// final score: entry `i` is the value with `from - i` empty cells, the last one (one empty
/// cell, the hole) the final score (`None` where the solver ran past `limit`). The positions
/// are solved from the end back, each with the value after it as the first guess and the
/// table of the solves after it.
pub fn review_game(
    record: &RecordedGame,
    solver: &mut Solver,
    from: u32,
    limit: Duration,
) -> Result<Vec<Option<i16>>, BlackholeError> {
    if !record.is_complete() {
        return Err(BlackholeError::BadRecord(format!(
            "game {} has {} moves, not {GAME_MOVES}: nothing to review",
            record.game,
            record.moves.len()
        )));
    }
    let positions = record.positions()?;
    let mut values = Vec::new();
    let mut next = positions.last().and_then(Position::red_score);
    values.push(next);
    for p in positions.iter().rev().skip(1) {
        if p.empty_count() > from {
            break;
        }
        let deadline = Instant::now() + limit;
        next = solver
            .solve_from(p, Some(deadline), next)
            .map(|s| s.red_score);
        values.push(next);
    }
    values.reverse();
    Ok(values
        .into_iter()
        .map(|v| v.map(|red| if record.a_is_red { red } else { 150 - red }))
        .collect())
}

/// The points one side gave away at one empty count, summed over games.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Losses {
    /// Moves reviewed.
    pub moves: usize,
    /// Points given away by them in all (each move's loss is at least 0).
    pub points: i64,
    /// Moves that gave away at least a point.
    pub errors: usize,
}

impl Losses {
    fn add(&mut self, loss: i16) {
        self.moves += 1;
        self.points += i64::from(loss);
        self.errors += usize::from(loss > 0);
    }

    /// Mean points given away a move.
    pub fn mean(&self) -> f64 {
        self.points as f64 / self.moves.max(1) as f64
    }
}

/// The review of many games: per empty count, A's mean value and what each side's moves
/// gave away.
#[derive(Clone, Debug, PartialEq)]
pub struct Review {
    /// The most empty cells reviewed.
    pub from: u32,
    /// Per empty count (index), the sum and number of A's known exact values.
    pub value_sums: Vec<(i64, usize)>,
    /// Per empty count (index), the losses of A's moves from that count.
    pub a_losses: Vec<Losses>,
    /// Per empty count (index), the losses of B's moves from that count.
    pub b_losses: Vec<Losses>,
    /// Games reviewed.
    pub games: usize,
}

impl Review {
    /// An empty review of the moves from `from` empty cells on.
    pub fn new(from: u32) -> Self {
        let n = from as usize + 1;
        Review {
            from,
            value_sums: vec![(0, 0); n],
            a_losses: vec![Losses::default(); n],
            b_losses: vec![Losses::default(); n],
            games: 0,
        }
    }

    /// Adds one game's values (as [`review_game`] returns them, the last with one empty
    /// cell). A's colour decides who moved at each empty count ([`mover_with`]). Values from
    /// more empty cells than this review's `from` are left out.
    pub fn add(&mut self, record: &RecordedGame, values: &[Option<i16>]) {
        self.games += 1;
        for (i, v) in values.iter().enumerate() {
            let empty = values.len() - i;
            if let (true, Some(v)) = (empty <= self.from as usize, v) {
                let s = &mut self.value_sums[empty];
                s.0 += i64::from(*v);
                s.1 += 1;
            }
        }
        for m in reviewed_moves(record, values) {
            if m.empty > self.from {
                continue;
            }
            let losses = if m.by_a {
                &mut self.a_losses
            } else {
                &mut self.b_losses
            };
            losses[m.empty as usize].add(m.loss());
        }
    }

    /// A's mean exact value with `empty` empty cells (1: the final score), if any is known.
    pub fn mean_value(&self, empty: u32) -> Option<f64> {
        let (sum, n) = *self.value_sums.get(empty as usize)?;
        (n > 0).then(|| sum as f64 / n as f64)
    }

    /// The review as a Markdown table, most empty cells first, and a line of totals.
    pub fn table(&self) -> String {
        let mut s = String::from(
            "| empty | A's mean value | A's moves | A's points lost a move | A's errors | \
             B's moves | B's points lost a move | B's errors |\n|---|---|---|---|---|---|---|---|\n",
        );
        let cell = |v: Option<f64>| v.map_or("-".to_string(), |v| format!("{v:.2}"));
        for empty in (1..=self.from).rev() {
            let (a, b) = (self.a_losses[empty as usize], self.b_losses[empty as usize]);
            let lost = |l: Losses| {
                if l.moves == 0 {
                    ("-".to_string(), "-".to_string())
                } else {
                    (format!("{:.3}", l.mean()), l.errors.to_string())
                }
            };
            let ((al, ae), (bl, be)) = (lost(a), lost(b));
            s += &format!(
                "| {empty} | {} | {} | {al} | {ae} | {} | {bl} | {be} |\n",
                cell(self.mean_value(empty)),
                a.moves,
                b.moves,
            );
        }
        let per_game = |l: &[Losses]| {
            l.iter().map(|x| x.points).sum::<i64>() as f64 / self.games.max(1) as f64
        };
        s += &format!(
            "\n{} games: A lost {:.2} points a game from {} empty cells on, B {:.2}.\n",
            self.games,
            per_game(&self.a_losses),
            self.from,
            per_game(&self.b_losses),
        );
        s
    }
}

/// A reviewed move with A's value known before and after it; one that gave away points
/// against perfect play is listed by `blackhole review --list`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CostlyMove {
    /// The game's number in its match.
    pub game: usize,
    /// Empty cells before the move.
    pub empty: u32,
    /// Whether program A played it.
    pub by_a: bool,
    /// The move.
    pub mv: Move,
    /// A's exact value before the move.
    pub before: i16,
    /// A's exact value after it.
    pub after: i16,
}

impl CostlyMove {
    /// The points its mover gave away (0 or more).
    pub fn loss(&self) -> i16 {
        if self.by_a {
            self.before - self.after
        } else {
            self.after - self.before
        }
    }
}

impl fmt::Display for CostlyMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let who = if self.by_a { "A" } else { "B" };
        write!(
            f,
            "game {} at {} empty: {who} played {}, A's value {} -> {} ({} given away)",
            self.game,
            self.empty,
            self.mv,
            self.before,
            self.after,
            self.loss()
        )
    }
}

/// The moves of a reviewed game (its values as [`review_game`] returns them) that gave away
/// points, most empty cells first; moves next to an unsolved position are left out.
pub fn costly_moves(record: &RecordedGame, values: &[Option<i16>]) -> Vec<CostlyMove> {
    reviewed_moves(record, values)
        .filter(|m| m.loss() > 0)
        .collect()
}

/// The moves of a reviewed game with both values known, most empty cells first (`values`
/// as [`review_game`] returns them, the last with one empty cell).
fn reviewed_moves<'a>(
    record: &'a RecordedGame,
    values: &'a [Option<i16>],
) -> impl Iterator<Item = CostlyMove> + 'a {
    values.windows(2).enumerate().filter_map(move |(i, pair)| {
        let empty = (values.len() - i) as u32;
        // Move k is played with 31 - k empty cells (30 moves).
        let k = record.moves.len().checked_sub(empty as usize - 1)?;
        Some(CostlyMove {
            game: record.game,
            empty,
            by_a: (mover_with(empty) == RED) == record.a_is_red,
            mv: *record.moves.get(k)?,
            before: pair[0]?,
            after: pair[1]?,
        })
    })
}

/// Whose move it is with `empty` empty cells: Red with an odd number (31 empty at the start).
pub fn mover_with(empty: u32) -> usize {
    if empty % 2 == 1 { RED } else { BLUE }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::random_blocked;
    use crate::solver::alpha_beta;
    use rand::{RngExt, SeedableRng};
    use rand_pcg::Pcg64Mcg;

    /// A complete random game.
    fn random_record(seed: u64, a_is_red: bool) -> RecordedGame {
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        let blocked = random_blocked(&mut rng);
        let mut pos = Position::new(&blocked).unwrap();
        let mut moves = Vec::new();
        let mut legal = Vec::new();
        while !pos.is_over() {
            legal.clear();
            pos.legal_moves(&mut legal);
            let m = legal[rng.random_range(0..legal.len())];
            pos.play(m);
            moves.push(m);
        }
        RecordedGame {
            game: seed as usize,
            a_is_red,
            blocked,
            moves,
        }
    }

    #[test]
    fn a_record_reads_back_what_it_wrote() {
        for seed in 0..20 {
            let r = random_record(seed, seed % 2 == 0);
            assert_eq!(r.to_string().parse::<RecordedGame>().unwrap(), r);
            assert!(r.is_complete());
        }
    }

    #[test]
    fn a_bad_record_is_refused_with_a_reason() {
        let r = random_record(1, true).to_string();
        let cases = [
            ("", "no `blocked`"),
            (&r.replace(" A Red ", " A Green "), "neither Red nor Blue"),
            (&r.replace("game 1", "game x"), "bad game number"),
            (
                &r.replacen(" moves ", " moves Z9=3 ", 1),
                "unknown cell `Z9`",
            ),
            (&r.replacen(" moves ", " moves A1=99 ", 1), "move 1 `A1=99`"),
        ];
        for (line, why) in cases {
            let e = line.parse::<RecordedGame>().unwrap_err().to_string();
            assert!(e.contains(why), "{e:?} should say {why:?}");
        }
        // The first move played twice: the second is illegal, and named.
        let words: Vec<&str> = r.split(' ').collect();
        let first = words.iter().position(|w| *w == "moves").unwrap() + 1;
        let twice = r.replacen(" moves ", &format!(" moves {} ", words[first]), 1);
        let e = twice.parse::<RecordedGame>().unwrap_err().to_string();
        assert!(e.contains(&format!("move 2 `{}`", words[first])), "{e}");
    }

    #[test]
    fn a_reviewed_move_costs_what_alpha_beta_says() {
        let mut solver = Solver::new();
        for seed in 0..12 {
            let r = random_record(100 + seed, seed % 2 == 1);
            let values = review_game(&r, &mut solver, 7, Duration::from_secs(60)).unwrap();
            assert_eq!(values.len(), 7);
            assert_eq!(*values.last().unwrap(), r.a_score());
            // Independent values: full-window alpha-beta over every legal move.
            let mut pos = Position::new(&r.blocked).unwrap();
            for (i, &m) in r.moves.iter().enumerate() {
                let empty = pos.empty_count();
                if empty <= 7 {
                    let red = alpha_beta(&pos, i16::MIN, i16::MAX);
                    let a = if r.a_is_red { red } else { 150 - red };
                    assert_eq!(values[7 - empty as usize], Some(a), "game {seed} move {i}");
                }
                pos.play(m);
            }
        }
    }

    #[test]
    fn the_losses_account_for_the_score() {
        let mut solver = Solver::new();
        let mut review = Review::new(8);
        for seed in 0..10 {
            let r = random_record(200 + seed, seed % 3 == 0);
            let values = review_game(&r, &mut solver, 8, Duration::from_secs(60)).unwrap();
            let mut one = Review::new(8);
            one.add(&r, &values);
            review.add(&r, &values);
            // Start value, less what A gave away, plus what B gave away: the final score.
            let a: i64 = one.a_losses.iter().map(|l| l.points).sum();
            let b: i64 = one.b_losses.iter().map(|l| l.points).sum();
            let start = i64::from(values[0].unwrap());
            assert_eq!(start - a + b, i64::from(r.a_score().unwrap()));
            assert!(
                one.a_losses
                    .iter()
                    .chain(&one.b_losses)
                    .all(|l| l.points >= 0)
            );
            // The side charged at each empty count is the one the replayed game has to move.
            let mut pos = Position::new(&r.blocked).unwrap();
            for &m in &r.moves {
                let empty = pos.empty_count() as usize;
                if empty <= 8 {
                    let a_to_move = (pos.mover() == RED) == r.a_is_red;
                    assert_eq!(
                        one.a_losses[empty].moves,
                        usize::from(a_to_move),
                        "empty {empty}"
                    );
                    assert_eq!(
                        one.b_losses[empty].moves,
                        usize::from(!a_to_move),
                        "empty {empty}"
                    );
                }
                pos.play(m);
            }
        }
        assert_eq!(review.games, 10);
        assert_eq!(review.value_sums[1].1, 10);
        assert_eq!(review.value_sums[8].1, 10);
        assert!(review.table().contains("10 games: A lost"));
    }

    #[test]
    fn the_costly_moves_are_the_moves_that_alpha_beta_says_gave_points_away() {
        let mut solver = Solver::new();
        let mut listed = 0;
        for seed in 0..12 {
            let r = random_record(400 + seed, seed % 2 == 0);
            let values = review_game(&r, &mut solver, 8, Duration::from_secs(60)).unwrap();
            let costly = costly_moves(&r, &values);
            // Independent values: full-window alpha-beta before and after each move.
            let a_value = |p: &Position| {
                let red = alpha_beta(p, i16::MIN, i16::MAX);
                if r.a_is_red { red } else { 150 - red }
            };
            let mut expected = Vec::new();
            let mut pos = Position::new(&r.blocked).unwrap();
            for &m in &r.moves {
                let empty = pos.empty_count();
                let by_a = (pos.mover() == RED) == r.a_is_red;
                let mut next = pos;
                next.play(m);
                if empty <= 8 {
                    let (before, after) = (a_value(&pos), a_value(&next));
                    if (by_a && after < before) || (!by_a && after > before) {
                        expected.push((empty, by_a, m, before, after));
                    }
                }
                pos = next;
            }
            let got: Vec<_> = costly
                .iter()
                .map(|c| (c.empty, c.by_a, c.mv, c.before, c.after))
                .collect();
            assert_eq!(got, expected, "game {seed}");
            assert!(costly.iter().all(|c| c.game == r.game && c.loss() > 0));
            listed += costly.len();
        }
        assert!(listed > 0, "random games give points away");
    }

    #[test]
    fn the_positions_follow_the_moves_one_by_one() {
        for seed in 0..6 {
            let mut r = random_record(300 + seed, seed % 2 == 0);
            r.moves.truncate(10 * seed as usize);
            let positions = r.positions().unwrap();
            assert_eq!(positions.len(), r.moves.len() + 1);
            assert_eq!(positions[0].empty().count_ones(), 36 - 5);
            for (k, (p, next)) in positions.iter().zip(&positions[1..]).enumerate() {
                assert_eq!(next.moves_played(), k + 1);
                assert_eq!(p.empty() & !next.empty(), 1 << r.moves[k].cell.index());
            }
            assert_eq!(r.final_position().unwrap(), *positions.last().unwrap());
        }
    }

    #[test]
    fn an_unfinished_game_is_not_reviewed() {
        let mut r = random_record(7, true);
        r.moves.truncate(20);
        let e = review_game(&r, &mut Solver::new(), 8, Duration::from_secs(1)).unwrap_err();
        assert!(e.to_string().contains("20 moves"), "{e}");
    }
}
