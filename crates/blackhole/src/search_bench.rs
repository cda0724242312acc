//! `search-bench`: how fast the player searches. Runs the player's searches
//! ([`EventHorizon::search_only`]: no solver, no clock) for a fixed number of simulations from
//! a fixed seed on positions at each empty count, and prints the simulations a second per
//! empty count and a fingerprint of what the searches found (their moves, values and
//! simulations). The same fingerprint before and after a change means the change kept every
//! choice of the search, so only its speed can differ.

use std::io::Write;
use std::time::Instant;

use game_harness::fingerprint::Fingerprint;

use crate::engine::{EngineConfig, EventHorizon};
use crate::error::BlackholeError;
use crate::rules::Position;

/// One row of the table: the searches of one empty count.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// Empty cells.
    pub empty: u32,
    /// Positions searched.
    pub positions: usize,
    /// Simulations run.
    pub simulations: u64,
    /// Seconds the searches took.
    pub seconds: f64,
}

impl Row {
    /// Simulations a second (0 without time).
    pub fn rate(&self) -> f64 {
        if self.seconds > 0.0 {
            self.simulations as f64 / self.seconds
        } else {
            0.0
        }
    }
}

/// The bench's result: its rows and the fingerprint of every search's result.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// One row per empty count with positions, fewest empty cells first.
    pub rows: Vec<Row>,
    /// FNV-1a over each search's move, values and simulations, in order.
    pub fingerprint: u64,
}

/// Searches each position of `by_empty` (positions by their number of empty cells, as
/// [`crate::bench::endings_of_records`] gives them) with a fresh player of `config`, seeded
/// `seed + k` for the `k`-th position, `simulations` simulations a target, and prints the
/// table as it goes.
///
/// # Errors
/// The player's error if it refuses `config` (a setting out of its range).
pub fn run(
    by_empty: &[Vec<Position>],
    config: &EngineConfig,
    simulations: u64,
    seed: u64,
    mut out: impl Write,
) -> Result<Report, BlackholeError> {
    let _ = writeln!(
        out,
        "| empty | positions | simulations | seconds | simulations/s |"
    );
    let _ = writeln!(out, "|---|---|---|---|---|");
    let mut fnv = Fingerprint::new();
    let mut rows = Vec::new();
    let mut k = 0;
    for (empty, positions) in by_empty.iter().enumerate() {
        if positions.is_empty() {
            continue;
        }
        let mut row = Row {
            empty: empty as u32,
            positions: 0,
            simulations: 0,
            seconds: 0.0,
        };
        for pos in positions {
            let mut player = EventHorizon::new(config.clone(), seed + k)?;
            k += 1;
            let start = Instant::now();
            let Some(d) = player.search_only(pos, simulations) else {
                continue;
            };
            row.seconds += start.elapsed().as_secs_f64();
            row.positions += 1;
            fnv.add(d.mv.to_string().as_bytes());
            for (alpha, reach, n) in d.targets {
                row.simulations += n;
                fnv.add(&alpha.to_le_bytes());
                fnv.add(&reach.to_bits().to_le_bytes());
                fnv.add(&n.to_le_bytes());
            }
        }
        let _ = writeln!(
            out,
            "| {} | {} | {} | {:.2} | {:.0} |",
            row.empty,
            row.positions,
            row.simulations,
            row.seconds,
            row.rate()
        );
        rows.push(row);
    }
    let total = Row {
        empty: 0,
        positions: rows.iter().map(|r| r.positions).sum(),
        simulations: rows.iter().map(|r| r.simulations).sum(),
        seconds: rows.iter().fold(0.0, |t, r| t + r.seconds),
    };
    let _ = writeln!(
        out,
        "all: {} positions, {} simulations in {:.2} s, {:.0} simulations/s; fingerprint {:016x}",
        total.positions,
        total.simulations,
        total.seconds,
        total.rate(),
        fnv.value()
    );
    Ok(Report {
        rows,
        fingerprint: fnv.value(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::{Source, endings_of_game};
    use crate::engine::Objective;

    fn positions() -> Vec<Vec<Position>> {
        let mut by_empty = vec![Vec::new(); 32];
        for seed in 1..=2 {
            for p in endings_of_game(seed, Source::Lottery, 0, 28, 24) {
                by_empty[p.empty_count() as usize].push(p);
            }
        }
        by_empty
    }

    fn report(seed: u64, simulations: u64) -> Report {
        let config = EngineConfig::default();
        run(&positions(), &config, simulations, seed, std::io::sink()).unwrap()
    }

    #[test]
    fn a_seeded_bench_repeats_its_searches_and_another_seed_does_not() {
        let a = report(1, 300);
        assert_eq!(a.rows.len(), 5);
        assert!(a.rows.iter().all(|r| r.positions == 2 && r.simulations > 0));
        assert_eq!(a.fingerprint, report(1, 300).fingerprint);
        assert_ne!(a.fingerprint, report(2, 300).fingerprint);
        assert_ne!(a.fingerprint, report(1, 301).fingerprint);
    }

    #[test]
    fn a_refused_setting_is_an_error_naming_its_value() {
        let config = EngineConfig {
            objective: Objective::Single {
                step: 4,
                gamma: 1.5,
            },
            ..EngineConfig::default()
        };
        let e = run(&positions(), &config, 10, 1, std::io::sink()).unwrap_err();
        assert!(e.to_string().contains("gamma 1.5"), "{e}");
    }
}
