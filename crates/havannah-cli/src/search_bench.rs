//! `search-bench`: how fast the engine searches. From the empty board it plays `k` seeded
//! random legal moves for `k = 0, 2, 4, ...`, runs one search of a fixed number of
//! simulations on one thread from a fixed seed at each of these positions, and prints the
//! simulations a second per position and a fingerprint of what the searches found (each
//! chosen move and the root children's visit counts). The same fingerprint before and after
//! a change means the change kept every choice of the search, so only its speed can differ.
//! With `--threads N` (N > 1) the searches share one tree between N threads: the speed is
//! what they reach together, and the fingerprint differs from run to run.
//!
//! Before the totals it prints where a simulation's time goes: copying the root position,
//! selection, expansion (with the prior's knowledge), the playout and backpropagation (with
//! the AMAF update), from the search's own phase clock (`rave_mcts::PhaseTimes`: one
//! simulation in 64 timed).
//!
//! ```sh
//! havannah search-bench                                 # size 8, 10 positions, 20000 simulations
//! havannah search-bench --size 6 --positions 4 --simulations 5000 --seed 3 --config uct
//! havannah search-bench --size 10 --threads 2           # two threads on one tree
//! ```

use std::process::ExitCode;
use std::time::Instant;

use clap::Parser;
use game_harness::Clock;
use game_harness::fingerprint::Fingerprint;
use game_harness::output::exit_status;
use havannah::{Agent, Engine, RandomAgent};
use rave_mcts::{Phase, PhaseTimes};

use crate::config_spec::engine_config;
use havannah_rules::{GameState, Rules};

/// Searches seeded positions for a fixed number of simulations and prints their speed and a
/// fingerprint of the searches' results.
#[derive(Parser, Debug)]
#[command(
    name = "search_bench",
    version,
    about = "Searches seeded positions for a fixed number of simulations; prints simulations/s and a fingerprint of the results"
)]
pub struct Opts {
    /// Board size (cells per side).
    #[arg(long, default_value_t = 8)]
    pub size: u8,
    /// Positions searched: the empty board, then 2, 4, ... random moves into a game.
    #[arg(long, default_value_t = 10)]
    pub positions: usize,
    /// Simulations a search.
    #[arg(long, default_value_t = 20_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub simulations: u64,
    /// The random seed of the moves played and of the searches.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The engine configuration: a preset's name, with parameters (see
    /// [`config_spec`](crate::config_spec)).
    #[arg(long, default_value = "best")]
    pub config: String,
    /// Threads searching one shared tree (above 1 the fingerprint is not reproducible).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
}

/// The totals of a bench: positions searched, simulations, seconds and the fingerprint.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Totals {
    /// Positions searched.
    pub positions: usize,
    /// Simulations run.
    pub simulations: u64,
    /// Seconds the searches took.
    pub seconds: f64,
    /// FNV-1a over each search's chosen move and root children's moves and visits, in order.
    pub fingerprint: u64,
    /// Where the sampled simulations' time went, all searches together.
    pub phases: PhaseTimes,
}

/// The game after `plies` random legal moves from the empty board of `size`, drawn by a
/// generator seeded `seed`; `None` when the game ends before.
pub(crate) fn position(size: u8, plies: usize, seed: u64) -> Result<Option<GameState>, String> {
    let mut game = GameState::new(size, Rules::default()).map_err(|e| e.to_string())?;
    let mut random = RandomAgent::new(seed);
    random.reset(&game);
    for _ in 0..plies {
        let Some(mv) = random.choose(&game, &Clock::unlimited()) else {
            return Ok(None);
        };
        game.play(mv).map_err(|e| e.to_string())?;
    }
    Ok((!game.outcome().is_over()).then_some(game))
}

/// Runs the bench of `opts`, printing one line per position and the totals' line.
///
/// # Errors
/// A message naming the value when the size or the configuration is refused.
pub fn bench(opts: &Opts) -> Result<Totals, String> {
    let mut config = engine_config(&opts.config)
        .map_err(|e| format!("--config {:?}: {e}", opts.config))?
        .with_threads(opts.threads)
        .map_err(|e| format!("--threads {}: {e}", opts.threads))?
        .with_simulations(opts.simulations)
        .map_err(|e| e.to_string())?;
    // The bench measures the search: the empty board (pie rule on) is searched too, not
    // answered from the first-stone table.
    config.pie_table = false;
    GameState::new(opts.size, Rules::default())
        .map_err(|e| format!("--size {}: {e}", opts.size))?;
    let mut fnv = Fingerprint::new();
    let mut totals = Totals {
        positions: 0,
        simulations: 0,
        seconds: 0.0,
        fingerprint: 0,
        phases: PhaseTimes::default(),
    };
    for k in 0..opts.positions {
        let plies = 2 * k;
        let seed = opts.seed.wrapping_add(k as u64);
        let Some(game) = position(opts.size, plies, seed)? else {
            game_harness::outln!("position {k}: {plies} moves: the game is over, skipped");
            continue;
        };
        let mut engine = Engine::new(config.clone(), seed);
        engine.reset(&game);
        let start = Instant::now();
        let chosen = engine.choose(&game, &Clock::unlimited());
        let seconds = start.elapsed().as_secs_f64();
        let (Some(mv), Some(result)) = (chosen, engine.last_result()) else {
            return Err(format!("position {k}: the search found no move"));
        };
        let board = game.board();
        let notation = mv.to_notation(board);
        fnv.add(notation.as_bytes());
        for child in &result.children {
            fnv.add(child.mv.to_notation(board).as_bytes());
            fnv.add(&child.visits.to_le_bytes());
        }
        totals.positions += 1;
        totals.simulations += result.simulations;
        totals.seconds += seconds;
        totals.phases.merge(&result.phases);
        game_harness::outln!(
            "position {k}: {plies} moves, chose {notation}, {} simulations in {seconds:.2} s, {:.0} simulations/s",
            result.simulations,
            rate(result.simulations, seconds)
        );
    }
    totals.fingerprint = fnv.value();
    Ok(totals)
}

/// Simulations a second (0 without time).
fn rate(simulations: u64, seconds: f64) -> f64 {
    if seconds > 0.0 {
        simulations as f64 / seconds
    } else {
        0.0
    }
}

/// The phase clock's table: each phase's mean time in a simulation and its share.
fn phase_table(phases: &PhaseTimes) -> String {
    let mut table = format!(
        "where a simulation's time goes ({} simulations timed):",
        phases.sampled
    );
    for phase in Phase::ALL {
        table += &format!(
            "\n  {:<8} {:>8.2} µs {:>5.1}%",
            phase.name(),
            phases.per_simulation(phase).as_secs_f64() * 1e6,
            100.0 * phases.share(phase)
        );
    }
    table
}

/// Runs the bench and prints the totals' line; exit status 2 when an option is refused.
pub fn run(opts: &Opts) -> ExitCode {
    match bench(opts) {
        Ok(t) => {
            game_harness::outln!("{}", phase_table(&t.phases));
            game_harness::outln!(
                "all: {} positions, {} simulations in {:.2} s, {:.0} simulations/s; fingerprint {:016x}",
                t.positions,
                t.simulations,
                t.seconds,
                rate(t.simulations, t.seconds),
                t.fingerprint
            );
            exit_status(ExitCode::SUCCESS)
        }
        Err(e) => {
            eprintln!("search-bench: {e}");
            ExitCode::from(2)
        }
    }
}
