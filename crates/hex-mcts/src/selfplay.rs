//! `hex selfplay`: a match between two players on `game_harness`'s runner, with a progress
//! bar and the harness's results table; its parts (`--shard K/N`) write `match.tsv` files that
//! `--merge` joins into the whole match.
//!
//! Player A is Black (moves first) in games 0, 2, 4, ... and White in the others, so both
//! players get the first move equally often. Both players are reseeded before every game from
//! the match seed and the game's number ([`game_harness::matches::game_seed`]), so a match
//! with a simulation budget plays the same games in one piece or in parts. A player is one of
//! the search configurations (`uct`, `rave`, `grave`) or `gtp:COMMAND`, an external program
//! speaking GTP that forfeits a game when it fails.

use std::path::PathBuf;

use clap::{Args, ValueEnum};
use game_harness::Shard;
use game_harness::matches::{print_above, progress_bar};
use game_harness::record::MatchResult;
use game_harness::MatchSettings;
use game_harness::runner::run_match;
use game_harness::shard;
use game_harness::{Agent, Clock, GtpAgent, PlayerId};

use crate::cli::SearchArgs;
use crate::engine::{Algorithm, Engine};
use crate::harness::Hex;

/// The options of `hex selfplay`.
#[derive(Args, Debug)]
pub struct SelfplayArgs {
    /// Board size.
    #[arg(long, default_value_t = 9)]
    pub(crate) size: usize,
    /// Number of games (A is Black in the even ones).
    #[arg(long, default_value_t = 20)]
    pub(crate) games: usize,
    /// Player A: uct, rave, grave, or gtp:COMMAND (an external GTP program).
    #[arg(long, default_value = "rave")]
    pub(crate) a: String,
    /// Player B (as player A).
    #[arg(long, default_value = "uct")]
    pub(crate) b: String,
    /// The swap rule (swap-pieces): true or false.
    #[arg(long, default_value_t = false, action = clap::ArgAction::Set)]
    pub(crate) swap: bool,
    /// GTP commands sent to external players after each new game (repeatable).
    #[arg(long)]
    gtp_setup: Vec<String>,
    /// Print every game's moves.
    #[arg(long)]
    verbose: bool,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
    /// A folder for the match file (`match.tsv`) of this match or part.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Play only part K of N (`0/4` to `3/4`): the game pairs p with p mod N = K. The parts
    /// together play the same games as one run; join their --out folders with --merge.
    #[arg(long, value_name = "K/N", requires = "out")]
    shard: Option<Shard>,
    /// Join the parts of a match instead of playing: the --out folders of its --shard runs.
    /// Runs with different --seed values are pooled into one table (and no match file).
    #[arg(long, value_name = "DIR", num_args = 1.., conflicts_with = "shard")]
    merge: Vec<PathBuf>,
    #[command(flatten)]
    pub(crate) search: SearchArgs,
}

/// A player of the match: the search (whose simulations the table reports) or a program.
enum Player {
    Search(Box<Engine>),
    Program(Box<GtpAgent<Hex>>),
}

impl Player {
    fn agent(&mut self) -> &mut dyn Agent<Hex> {
        match self {
            Player::Search(engine) => engine.as_mut(),
            Player::Program(program) => program.as_mut(),
        }
    }
}

/// The player `spec` names.
fn player(spec: &str, args: &SelfplayArgs, start: &Hex) -> Result<Player, String> {
    if let Some(command) = spec.strip_prefix("gtp:") {
        let program = GtpAgent::spawn(command, &args.gtp_setup).map_err(|e| e.to_string())?;
        return Ok(Player::Program(Box::new(program)));
    }
    let algorithm = Algorithm::from_str(spec, true)
        .map_err(|_| format!("unknown player {spec:?}: uct, rave, grave or gtp:COMMAND"))?;
    let engine = Engine::new(start.position(), args.search.settings(algorithm)?, 0)
        .map_err(|e| e.to_string())?;
    Ok(Player::Search(Box::new(engine)))
}

/// The description of the game in a match file: `hex size=9 swap=0`.
fn description(size: usize, swap: bool) -> String {
    format!("hex size={size} swap={}", u8::from(swap))
}

/// The empty game a match file's description stands for.
fn from_description(text: &str) -> Result<Hex, String> {
    let bad = || format!("not a Hex match: {text:?}");
    let fields: Vec<&str> = text.split(' ').collect();
    let ["hex", size, swap] = fields[..] else {
        return Err(bad());
    };
    let size = size.strip_prefix("size=").and_then(|n| n.parse().ok());
    let swap = ["swap=0", "swap=1"].iter().position(|&s| s == swap);
    match (size, swap) {
        (Some(size), Some(swap)) => Hex::new(size, swap == 1).map_err(|e| e.to_string()),
        _ => Err(bad()),
    }
}

/// Plays the match (or the part of it of --shard); also the mean simulations a search of
/// each search player.
fn play(args: &SelfplayArgs) -> Result<(MatchResult<Hex>, [Option<f64>; 2]), String> {
    if args.games == 0 {
        return Err("--games must be positive".into());
    }
    let start = Hex::new(args.size, args.swap).map_err(|e| format!("--size {}: {e}", args.size))?;
    let mut players = [
        player(&args.a, args, &start)?,
        player(&args.b, args, &start)?,
    ];
    let clock = args
        .search
        .time()?
        .map_or(Clock::unlimited(), Clock::per_move);
    let settings = MatchSettings::new(args.games)
        .clock(clock)
        .seed(args.search.seed)
        .shard(args.shard.unwrap_or_default());
    let bar = progress_bar(settings.shard.games(args.games).count(), args.quiet);
    let [a, b] = &mut players;
    let result = run_match(
        [a.agent(), b.agent()],
        &settings,
        |_| Ok::<_, String>(start.clone()),
        |game| {
            if args.verbose {
                let moves: Vec<String> = game.moves().iter().map(ToString::to_string).collect();
                let winner = game
                    .winner
                    .map_or("nobody", |w| if w == PlayerId::A { "A" } else { "B" });
                print_above(
                    &bar,
                    &format!("game {}: {winner} won: {}", game.index, moves.join(" ")),
                );
            }
            bar.inc(1);
        },
    )?;
    bar.finish_and_clear();
    let simulations = players.map(|p| match p {
        Player::Search(engine) => Some(engine.simulations_per_search()),
        Player::Program(_) => None,
    });
    Ok((result, simulations))
}

/// Reads the match file of each folder and joins the parts into the whole match, pooling
/// runs with different seeds; also returns the seeds.
fn merge(dirs: &[PathBuf]) -> Result<(MatchResult<Hex>, String, Vec<u64>), String> {
    let pooled = shard::pool_dirs(dirs, from_description).map_err(|e| e.to_string())?;
    Ok((pooled.file.result, pooled.file.description, pooled.seeds))
}

/// Plays the match (or merges its parts), prints the table and writes the match file to
/// --out if given (not for a pool of runs with different seeds: it is not one match).
///
/// # Errors
/// A message naming the bad option or the file that cannot be read or written.
pub fn run(args: &SelfplayArgs) -> Result<(), String> {
    let (result, description, simulations, seeds) = if args.merge.is_empty() {
        let (result, simulations) = play(args)?;
        let description = description(args.size, args.swap);
        (result, description, simulations, vec![args.search.seed])
    } else {
        let (result, description, seeds) = merge(&args.merge)?;
        (result, description, [None, None], seeds)
    };
    game_harness::outln!("Game: {description}");
    game_harness::outln!("{result}");
    for (name, sims) in ["A", "B"].iter().zip(simulations) {
        if let Some(sims) = sims {
            game_harness::outln!("{name}: {sims:.0} simulations a move");
        }
    }
    if let Some(line) = shard::pooled_line(&seeds) {
        game_harness::outln!("{line}");
    } else if let Some(dir) = &args.out {
        shard::write(&result, &description, dir)
            .map_err(|e| format!("cannot write to {}: {e}", dir.display()))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn descriptions_name_size_and_rule_and_read_back() {
        let text = description(7, true);
        assert_eq!(text, "hex size=7 swap=1");
        let game = from_description(&text).unwrap();
        assert_eq!(game.position().size(), 7);
        assert!(game.position().swap_rule());
        for bad in [
            "havannah size=8 pie=1",
            "hex size=20 swap=0",
            "hex size=7 swap=2",
            "hex size=x swap=0",
        ] {
            assert!(from_description(bad).is_err(), "{bad}");
        }
    }
}
