//! `y`: a GTP engine and self-play matches for the game of Y, all from `game-harness`.

use std::io;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Parser, Subcommand};
use game_harness::gtp::GtpSession;
use game_harness::gtp_agent::GtpAgent;
use game_harness::MatchSettings;
use game_harness::runner::{opening_seed, run_match};
use game_harness::{Agent, Clock, MatchGame};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;
use rave_mcts::{Config, RaveSchedule};
use y_mcts::{SearchAgent, Y, YError};

/// The game of Y: a GTP engine and self-play matches.
#[derive(Parser)]
#[command(name = "y", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// A GTP engine on standard input and output.
    Gtp {
        /// Board size at start (`boardsize` changes it).
        #[arg(long, default_value_t = 10)]
        size: usize,
        /// Seconds a move when the controller sets no time.
        #[arg(long)]
        time_per_move: Option<f64>,
        /// Simulations a move when no time is set at all.
        #[arg(long, default_value_t = 20_000)]
        simulations: u64,
    },
    /// A match between two players, paired openings, each played once with each colour.
    Selfplay {
        #[arg(long, default_value_t = 10)]
        size: usize,
        #[arg(long, default_value_t = 10)]
        games: usize,
        /// Random stones played before the players take over.
        #[arg(long, default_value_t = 0)]
        opening: usize,
        #[arg(long)]
        time_per_move: Option<f64>,
        #[arg(long, default_value_t = 2_000)]
        simulations: u64,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// `rave`, `uct` or `gtp:COMMAND` (an external GTP program).
        #[arg(long, default_value = "rave")]
        player_a: String,
        #[arg(long, default_value = "uct")]
        player_b: String,
        /// A GTP command sent to external programs before every game (repeatable).
        #[arg(long)]
        gtp_setup: Vec<String>,
    },
}

/// A player from its name: our search with RAVE or plain UCT, or an external GTP program.
fn player(
    spec: &str,
    size: usize,
    simulations: u64,
    setup: &[String],
) -> Result<Box<dyn Agent<Y>>, String> {
    let start = Y::new(size).map_err(|e| e.to_string())?;
    match spec {
        "rave" | "uct" => {
            let builder = Config::builder();
            let builder = if spec == "rave" {
                builder.rave(RaveSchedule::default())
            } else {
                builder.uct()
            };
            let config = builder.build().map_err(|e| e.to_string())?;
            Ok(Box::new(SearchAgent::new(spec, start, config, simulations)))
        }
        _ => match spec.strip_prefix("gtp:") {
            Some(command) => GtpAgent::spawn(command, setup)
                .map(|a| Box::new(a) as Box<dyn Agent<Y>>)
                .map_err(|e| e.to_string()),
            None => Err(format!("unknown player {spec:?}: rave, uct or gtp:COMMAND")),
        },
    }
}

/// Game `index`'s start: `plies` random stones, the same for both games of a pair.
fn opening(size: usize, plies: usize, seed: u64, index: usize) -> Result<Y, YError> {
    let mut game = Y::new(size)?;
    let mut rng = Pcg64Mcg::seed_from_u64(opening_seed(seed, index));
    for _ in 0..plies {
        let empty: Vec<u8> = game.cells().filter(|&c| game.stone(c).is_none()).collect();
        MatchGame::play(&mut game, empty[rng.random_range(0..empty.len())])?;
    }
    Ok(game)
}

fn clock(time_per_move: Option<f64>) -> Clock {
    time_per_move.map_or(Clock::unlimited(), |s| {
        Clock::per_move(Duration::from_secs_f64(s))
    })
}

fn run(cli: Cli) -> Result<(), String> {
    match cli.command {
        Command::Gtp {
            size,
            time_per_move,
            simulations,
        } => {
            let agent = player("rave", size, simulations, &[])?;
            let game = Y::new(size).map_err(|e| e.to_string())?;
            let per_move = time_per_move.map(Duration::from_secs_f64);
            let mut session = GtpSession::new(game, agent)
                .with_name("y-mcts")
                .with_time_per_move(per_move);
            session
                .run(io::stdin().lock(), io::stdout().lock())
                .map_err(|e| e.to_string())
        }
        Command::Selfplay {
            size,
            games,
            opening: plies,
            time_per_move,
            simulations,
            seed,
            player_a,
            player_b,
            gtp_setup,
        } => {
            let mut a = player(&player_a, size, simulations, &gtp_setup)?;
            let mut b = player(&player_b, size, simulations, &gtp_setup)?;
            let settings = MatchSettings::new(games)
                .clock(clock(time_per_move))
                .seed(seed);
            let result = run_match(
                [&mut *a, &mut *b],
                &settings,
                |index| opening(size, plies, seed, index),
                |record| {
                    eprintln!(
                        "game {}: {} moves, winner {:?}",
                        record.index,
                        record.plies(),
                        record.winner
                    )
                },
            )
            .map_err(|e| e.to_string())?;
            println!("{result}");
            Ok(())
        }
    }
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("y: {e}");
            ExitCode::FAILURE
        }
    }
}
