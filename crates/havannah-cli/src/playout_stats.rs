//! `playout-stats`: how a configuration's playouts end. From the positions `search-bench`
//! searches (the empty board, then 2, 4, ... seeded random moves into a game), it runs seeded
//! playouts with the configuration's playout settings and prints, for each ending (the
//! figures of the winning move: `bridge`, `fork`, `ring`, or several joined by `+`; `-` for a
//! full board without a figure), its share of the playouts and their mean length in moves.
//!
//! Random stones enclose cells far more often than players let them: from positions 10 to 18
//! moves into a size-8 game, most playouts of `best` end in a ring.
//!
//! ```sh
//! havannah playout-stats                                   # size 8, best, 10 positions
//! havannah playout-stats --config offline --first 10
//! ```

use std::collections::BTreeMap;
use std::process::ExitCode;

use clap::Parser;
use game_harness::output::exit_status;
use havannah::mcts::{Playout as _, Trace};
use havannah::rules::Kinds;
use havannah::{HavannahGame, HavannahPlayout};
use rand::SeedableRng;

use crate::config_spec::engine_config;
use crate::search_bench::position;

/// Runs seeded playouts from seeded positions and prints how they end.
#[derive(Parser, Debug)]
#[command(
    name = "playout_stats",
    version,
    about = "Runs seeded playouts of a configuration and prints how they end: the share of each winning figure and the mean playout length"
)]
pub struct Opts {
    /// Board size (cells per side).
    #[arg(long, default_value_t = 8)]
    pub size: u8,
    /// The first position: this many pairs of random moves into a game.
    #[arg(long, default_value_t = 0)]
    pub first: usize,
    /// Positions: the first, then each two random moves further.
    #[arg(long, default_value_t = 10)]
    pub positions: usize,
    /// Playouts from each position.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..))]
    pub playouts: u64,
    /// The random seed of the moves played and of the playouts.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The engine configuration whose playout settings run: a preset's name, with parameters
    /// (see [`config_spec`](crate::config_spec)).
    #[arg(long, default_value = "best")]
    pub config: String,
}

/// The playouts that ended one way: how many, and their moves together.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Ending {
    /// Playouts.
    pub playouts: u64,
    /// Their moves, added up.
    pub moves: u64,
}

/// The endings of all playouts, by the figures of the winning move (`-`: none).
pub type Endings = BTreeMap<String, Ending>;

/// Runs the playouts of `opts` and counts how they end.
///
/// # Errors
/// A message naming the value when the size or the configuration is refused.
pub fn count(opts: &Opts) -> Result<Endings, String> {
    let config =
        engine_config(&opts.config).map_err(|e| format!("--config {:?}: {e}", opts.config))?;
    havannah::rules::GameState::new(opts.size, havannah::rules::Rules::default())
        .map_err(|e| format!("--size {}: {e}", opts.size))?;
    let mut playout = HavannahPlayout::new(config.playout);
    let mut trace = Trace::new();
    let mut endings = Endings::new();
    for k in opts.first..opts.first + opts.positions {
        let seed = opts.seed.wrapping_add(k as u64);
        let Some(game) = position(opts.size, 2 * k, seed)? else {
            continue;
        };
        let start = HavannahGame::from_game(&game);
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(seed);
        for _ in 0..opts.playouts {
            let mut g = start.clone();
            trace.clear();
            let result = playout.playout(&mut g, &mut rng, usize::MAX, &mut trace);
            let kinds = playout
                .ending(g.position())
                .map_or(Kinds::NONE, |(_, kinds)| kinds);
            let ending = endings.entry(kinds.to_string()).or_default();
            ending.playouts += 1;
            ending.moves += result.length as u64;
        }
    }
    Ok(endings)
}

/// Runs the playouts and prints one line per ending and the totals' line; exit status 2 when
/// an option is refused.
pub fn run(opts: &Opts) -> ExitCode {
    match count(opts) {
        Ok(endings) => {
            let total: u64 = endings.values().map(|e| e.playouts).sum();
            for (kinds, e) in &endings {
                game_harness::outln!(
                    "{kinds}: {} playouts, {:.1}%, mean length {:.1} moves",
                    e.playouts,
                    100.0 * e.playouts as f64 / total.max(1) as f64,
                    e.moves as f64 / e.playouts as f64
                );
            }
            game_harness::outln!("all: {total} playouts");
            exit_status(ExitCode::SUCCESS)
        }
        Err(e) => {
            eprintln!("playout-stats: {e}");
            ExitCode::from(2)
        }
    }
}
