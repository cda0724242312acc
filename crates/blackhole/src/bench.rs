//! `solver-bench`: how far the exact solver reaches. Builds reproducible endings at each empty
//! count (from a seeded self-play of a small win-target search, from lottery playouts or from
//! recorded games) and prints, per empty count, the share solved within 1 s and within the limit
//! and the median time and nodes.

use std::io::Write;
use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;
use rave_mcts::{Budget, Config, Mcts, NoPrior, RaveSchedule};

use crate::board::Cell;
use crate::review::RecordedGame;
use crate::rules::Position;
use crate::search::{AlphaGame, LotteryPlayout, lottery_move};
use crate::solver::Solver;

/// Where the endings come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// Self-play of one win-target UCT-RAVE search per move with a simulation budget.
    SelfPlay,
    /// Lottery playouts.
    Lottery,
}

/// Five distinct blocked cells from the generator.
fn blocked_cells(rng: &mut Pcg64Mcg) -> Position {
    use rand::Rng;
    let mut cells: Vec<Cell> = Cell::all().collect();
    for i in 0..5 {
        let j = i + (rng.next_u64() as usize) % (cells.len() - i);
        cells.swap(i, j);
    }
    Position::new(&cells[..5]).expect("five distinct cells")
}

/// One game of seeded play from a random start down to `lowest` empty cells; the positions at
/// every empty count from `highest` down to `lowest`, highest first.
pub fn endings_of_game(
    seed: u64,
    source: Source,
    simulations: u64,
    highest: u32,
    lowest: u32,
) -> Vec<Position> {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut p = blocked_cells(&mut rng);
    let mut out = Vec::new();
    let config = Config::builder()
        .rave(RaveSchedule::MinimumMse { bias: 0.05 })
        .exploration(0.15)
        .amaf_horizon(Some(12))
        .expand_threshold(4)
        .grave(40)
        .build()
        .expect("valid search settings");
    while p.empty_count() >= lowest && !p.is_over() {
        let e = p.empty_count();
        if e <= highest {
            out.push(p);
        }
        if e == lowest {
            break;
        }
        let mv = match source {
            Source::Lottery => lottery_move(&p, &mut rng),
            Source::SelfPlay => {
                let game = AlphaGame::new(p, p.mover(), 76).with_width(4);
                let mut tree =
                    Mcts::with_policies(game, config.clone(), LotteryPlayout::default(), NoPrior);
                match tree.search(&Budget::simulations(simulations), &mut rng) {
                    Ok(r) => r.best_move,
                    Err(_) => lottery_move(&p, &mut rng),
                }
            }
        };
        p.play(mv);
    }
    out
}

/// One row of the table.
#[derive(Clone, Debug)]
pub struct Row {
    /// Empty cells.
    pub empty: u32,
    /// Endings tried.
    pub count: usize,
    /// Solved within a tenth of a second (the time Ansell reports for many endings of 19
    /// empty cells).
    pub within_tenth: usize,
    /// Solved within one second.
    pub within_1s: usize,
    /// Solved within the limit.
    pub within_limit: usize,
    /// Median time (`None`: more than half unsolved).
    pub median_time: Option<Duration>,
    /// Median nodes (unsolved endings count as more than any solved one).
    pub median_nodes: Option<u64>,
}

fn median<T: Copy + Ord>(mut v: Vec<Option<T>>) -> Option<T> {
    // `None` (unsolved) sorts above every value.
    v.sort_by(|a, b| match (a, b) {
        (Some(x), Some(y)) => x.cmp(y),
        (Some(_), None) => std::cmp::Ordering::Less,
        (None, Some(_)) => std::cmp::Ordering::Greater,
        (None, None) => std::cmp::Ordering::Equal,
    });
    v.get(v.len() / 2).copied().flatten()
}

/// What the bench runs.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Games played to build endings (one ending per game at each empty count).
    pub games: usize,
    /// Seed of the first game (game `k` uses `seed + k`).
    pub seed: u64,
    /// Where the endings come from.
    pub source: Source,
    /// Simulations per move of the self-play search.
    pub simulations: u64,
    /// Fewest empty cells.
    pub lowest: u32,
    /// Most empty cells.
    pub highest: u32,
    /// Time per solve.
    pub limit: Duration,
    /// Only ask whether the player to move wins (one null window) instead of solving
    /// exactly.
    pub win_only: bool,
}

/// Runs the bench on the endings of its seeded games and prints the table as it goes.
pub fn run(settings: &Settings, out: impl Write) -> Vec<Row> {
    run_endings(&endings_by_empty(settings), settings, out)
}

/// The positions of recorded games (complete or not) at every empty count from `highest` down
/// to `lowest`, by their number of empty cells (index): endings from real play. A record with
/// an illegal move is left out.
pub fn endings_of_records(
    records: &[RecordedGame],
    highest: u32,
    lowest: u32,
) -> Vec<Vec<Position>> {
    let mut by_empty: Vec<Vec<Position>> = vec![Vec::new(); highest as usize + 1];
    for r in records {
        let Ok(positions) = r.positions() else {
            continue;
        };
        // The positions a move was played from (not the last).
        for &p in &positions[..r.moves.len()] {
            let e = p.empty_count();
            if (lowest..=highest).contains(&e) {
                by_empty[e as usize].push(p);
            }
        }
    }
    by_empty
}

/// Runs the bench on `by_empty` (the endings by their number of empty cells, as
/// [`endings_of_records`] gives them) and prints the table as it goes.
pub fn run_endings(
    by_empty: &[Vec<Position>],
    settings: &Settings,
    mut out: impl Write,
) -> Vec<Row> {
    let _ = writeln!(
        out,
        "| empty | endings | solved <= 0.1 s | solved <= 1 s | solved <= {:.0} s | median time | median nodes |",
        settings.limit.as_secs_f64()
    );
    let _ = writeln!(out, "|---|---|---|---|---|---|---|");
    let mut rows = Vec::new();
    let mut solver = Solver::new();
    for empty in settings.lowest..=settings.highest {
        let endings = by_empty.get(empty as usize).map_or(&[][..], Vec::as_slice);
        let row = solve_endings(&mut solver, empty, endings, settings);
        write_row(&mut out, &row, settings.limit);
        rows.push(row);
    }
    rows
}

/// The endings of the bench's games, by their number of empty cells (index).
fn endings_by_empty(settings: &Settings) -> Vec<Vec<Position>> {
    let Settings {
        games,
        seed,
        source,
        simulations,
        lowest,
        highest,
        ..
    } = *settings;
    let mut by_empty: Vec<Vec<Position>> = vec![Vec::new(); highest as usize + 1];
    for g in 0..games {
        for p in endings_of_game(seed + g as u64, source, simulations, highest, lowest) {
            by_empty[p.empty_count() as usize].push(p);
        }
    }
    by_empty
}

/// Solves each of `endings` (with `empty` empty cells) from an empty table and sums up its
/// times and nodes; the totals go to stderr.
fn solve_endings(
    solver: &mut Solver,
    empty: u32,
    endings: &[Position],
    settings: &Settings,
) -> Row {
    let limit = settings.limit;
    let mut times = Vec::new();
    let mut nodes = Vec::new();
    let (mut w01, mut w1, mut wl) = (0, 0, 0);
    for p in endings {
        let (dt, r) = solve_timed(solver, p, limit, settings.win_only);
        if std::env::var_os("BH_EACH").is_some() {
            eprintln!("  {empty} empty: {:.3} s, {:?} nodes", dt.as_secs_f64(), r);
        }
        if r.is_some() {
            wl += 1;
            if dt <= Duration::from_secs(1) {
                w1 += 1;
            }
            if dt <= Duration::from_millis(100) {
                w01 += 1;
            }
        }
        times.push(r.map(|_| dt));
        nodes.push(r);
    }
    // Totals on stderr (unsolved endings count with the limit and their nodes so far are not
    // known): a finer comparison of two solvers than the medians.
    let total: f64 = times.iter().map(|t| t.unwrap_or(limit).as_secs_f64()).sum();
    let total_nodes: u64 = nodes.iter().flatten().sum();
    eprintln!(
        "empty {empty}: {} endings, total time {total:.3} s, nodes of the solved ones {total_nodes}",
        endings.len()
    );
    Row {
        empty,
        count: endings.len(),
        within_tenth: w01,
        within_1s: w1,
        within_limit: wl,
        median_time: median(times),
        median_nodes: median(nodes),
    }
}

/// One solve (or win question) of `p` from an empty table within `limit`: the time it took
/// and its nodes, `None` if it gave up.
fn solve_timed(
    solver: &mut Solver,
    p: &Position,
    limit: Duration,
    win_only: bool,
) -> (Duration, Option<u64>) {
    solver.clear();
    let t = Instant::now();
    let r = if win_only {
        solver
            .mover_wins(p, Some(t + limit))
            .map(|_| solver.nodes())
    } else {
        solver.solve(p, Some(t + limit)).map(|s| s.nodes)
    };
    (t.elapsed(), r)
}

/// One line of the table.
fn write_row(out: &mut impl Write, row: &Row, limit: Duration) {
    let pct = |k: usize| 100.0 * k as f64 / row.count.max(1) as f64;
    let _ = writeln!(
        out,
        "| {} | {} | {:.0}% | {:.0}% | {:.0}% | {} | {} |",
        row.empty,
        row.count,
        pct(row.within_tenth),
        pct(row.within_1s),
        pct(row.within_limit),
        row.median_time
            .map(|d| format!("{:.3} s", d.as_secs_f64()))
            .unwrap_or_else(|| format!("> {:.0} s", limit.as_secs_f64())),
        row.median_nodes
            .map(|n| n.to_string())
            .unwrap_or_else(|| "-".to_string()),
    );
    let _ = out.flush();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endings_are_reproducible_and_have_every_count() {
        for source in [Source::Lottery, Source::SelfPlay] {
            let a = endings_of_game(3, source, 50, 12, 8);
            let b = endings_of_game(3, source, 50, 12, 8);
            assert_eq!(a, b);
            let counts: Vec<u32> = a.iter().map(|p| p.empty_count()).collect();
            assert_eq!(counts, [12, 11, 10, 9, 8]);
        }
    }

    #[test]
    fn recorded_games_give_their_positions_by_empty_count() {
        let record: RecordedGame = "game 1 A Red blocked A1 B2 C3 D4 E4 moves A2=15 A3=15 B1=1"
            .parse()
            .unwrap();
        let by_empty = endings_of_records(std::slice::from_ref(&record), 31, 29);
        let counts: Vec<usize> = by_empty.iter().map(Vec::len).collect();
        assert_eq!(counts[29..], [1, 1, 1]);
        assert_eq!(counts[..29].iter().sum::<usize>(), 0);
        let mut p = Position::new(&record.blocked).unwrap();
        assert_eq!(by_empty[31][0], p);
        p.play(record.moves[0]);
        assert_eq!(by_empty[30][0], p);
    }

    #[test]
    fn a_record_with_an_illegal_move_is_left_out_whole() {
        // A record built by hand that plays B1 twice (parsing would refuse it): none of its
        // positions count, not even those before the bad move; the good record's still do.
        let good: RecordedGame = "game 1 A Red blocked A1 B2 C3 D4 E4 moves A2=15 A3=15"
            .parse()
            .unwrap();
        let mut bad: RecordedGame = "game 2 A Red blocked A1 B2 C3 D4 E4 moves B1=1"
            .parse()
            .unwrap();
        bad.moves.push("B1=2".parse().unwrap());
        assert!(bad.positions().is_err());
        let by_empty = endings_of_records(&[bad, good], 31, 29);
        let counts: Vec<usize> = by_empty.iter().map(Vec::len).collect();
        assert_eq!(counts[29..], [0, 1, 1]);
    }

    #[test]
    fn the_median_puts_unsolved_last() {
        assert_eq!(median(vec![Some(3), None, Some(1)]), Some(3));
        assert_eq!(median(vec![None, None, Some(1)]), None);
        assert_eq!(median(vec![Some(2)]), Some(2));
    }
}
