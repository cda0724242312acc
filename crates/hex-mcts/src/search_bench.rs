//! `hex search-bench`: how fast the player searches, and a fingerprint of what it finds. From
//! the empty board it plays `k` seeded random legal moves for `k = 0, 2, 4, ...`, runs one
//! search of a fixed number of simulations on one thread from a fixed seed at each of these
//! positions, and prints the simulations a second per position and a fingerprint of the
//! searches' results (each chosen move, and the root children's moves and visit counts). The
//! same fingerprint before and after a change means the change kept every choice of the search.
//!
//! ```text
//! hex search-bench                       # 11x11, 10 positions, 20000 simulations, rave
//! hex search-bench --size 7 --positions 3 --simulations 300 --algorithm grave --bridge-save true
//! ```

use clap::Args;
use game_harness::fingerprint::Fingerprint;
use game_harness::{Agent, Clock, MatchGame};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;
use rave_mcts::Game;

use crate::board::HexError;
use crate::engine::{Algorithm, Settings, engine};
use crate::harness::Hex;

/// The options of `hex search-bench`.
#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Board size.
    #[arg(long, default_value_t = 11)]
    size: usize,
    /// Positions searched: the empty board, then 2, 4, ... random moves into a game.
    #[arg(long, default_value_t = 10)]
    positions: usize,
    /// Simulations a search.
    #[arg(long, default_value_t = 20_000, value_parser = clap::value_parser!(u64).range(1..))]
    simulations: u64,
    /// The random seed of the moves played and of the searches.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The search algorithm.
    #[arg(long, value_enum, default_value_t = Algorithm::Rave)]
    algorithm: Algorithm,
    /// Bridge-save replies in the playouts: true or false (off in the bench, so that its
    /// fingerprint stays the uniform playout's).
    #[arg(long, default_value_t = false, action = clap::ArgAction::Set)]
    bridge_save: bool,
    /// The threats at expansion.
    #[arg(long)]
    threats: bool,
    /// The swap rule (swap-pieces) in the positions and the searches: true or false.
    #[arg(long, default_value_t = false, action = clap::ArgAction::Set)]
    swap: bool,
}

/// The game after `plies` random legal moves from the empty board, drawn by a generator
/// seeded `seed`; `None` when the game ends before.
fn position(args: &BenchArgs, plies: usize, seed: u64) -> Result<Option<Hex>, HexError> {
    let mut game = Hex::new(args.size, args.swap)?;
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut moves = Vec::new();
    for _ in 0..plies {
        moves.clear();
        game.position().legal_moves(&mut moves);
        if moves.is_empty() {
            return Ok(None);
        }
        game.try_play(moves[rng.random_range(0..moves.len())])?;
    }
    Ok(game.verdict().is_none().then_some(game))
}

/// Runs the bench, printing one line per position and the totals' line with the fingerprint.
///
/// # Errors
/// A message naming the value when the size is refused or a search fails.
pub fn run(args: &BenchArgs) -> Result<(), String> {
    Hex::new(args.size, args.swap).map_err(|e| format!("--size {}: {e}", args.size))?;
    let settings = Settings {
        algorithm: args.algorithm,
        simulations: Some(args.simulations),
        time: None,
        threads: 1,
        knowledge: crate::engine::knowledge(args.bridge_save, args.threats),
        search: Default::default(),
    };
    let mut fnv = Fingerprint::new();
    let (mut positions, mut simulations, mut seconds) = (0, 0, 0.0);
    for k in 0..args.positions {
        let plies = 2 * k;
        let seed = args.seed.wrapping_add(k as u64);
        let Some(game) = position(args, plies, seed).map_err(|e| e.to_string())? else {
            game_harness::outln!("position {k}: {plies} moves: the game is over, skipped");
            continue;
        };
        let mut engine = engine(settings, seed).map_err(|e| e.to_string())?;
        let chosen = engine.choose(&game, &Clock::unlimited());
        let (Some(_), Some(result)) = (chosen, engine.last_result()) else {
            let why = engine.failure().map(|f| f.to_string()).unwrap_or_default();
            return Err(format!("position {k}: the search found no move: {why}"));
        };
        let chosen = result.best_move.to_string();
        fnv.add(chosen.as_bytes());
        for child in &result.children {
            fnv.add(child.mv.to_string().as_bytes());
            fnv.add(&child.visits.to_le_bytes());
        }
        positions += 1;
        simulations += result.simulations;
        seconds += result.elapsed.as_secs_f64();
        game_harness::outln!(
            "position {k}: {plies} moves, chose {chosen}, {} simulations in {:.2} s, {:.0} simulations/s",
            result.simulations,
            result.elapsed.as_secs_f64(),
            result.simulations_per_second
        );
    }
    game_harness::outln!(
        "all: {positions} positions, {simulations} simulations in {seconds:.2} s, {:.0} simulations/s; fingerprint {:016x}",
        simulations as f64 / seconds.max(1e-9),
        fnv.value()
    );
    Ok(())
}
