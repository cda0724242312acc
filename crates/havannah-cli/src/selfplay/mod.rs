//! Plays a match between two players and writes the games, the last position and a results
//! table.
//!
//! ```sh
//! havannah selfplay [--size 6] [--games 20] [--simulations N] \
//!     [--time-per-move SECONDS] [--threads N] [--seed N] [--opening PLIES | --openings FILE] \
//!     [--pie] \
//!     [--out selfplay-out] [--player-a random] [--player-b random] [--gtp-setup CMD]... \
//!     [--gtp-timeout SECONDS] [--gtp-stderr FILE] [--shard K/N]
//! havannah selfplay --merge DIR... [--out DIR]
//! ```
//!
//! Either player may be another program speaking GTP, for example morat-havannah:
//!
//! ```sh
//! havannah selfplay --size 8 --games 100 --opening 2 \
//!     --time-per-move 0.5 --player-a best --player-b gtp:/path/to/morat-havannah \
//!     --gtp-setup "time -m 0.5 -g 0 -f 0" --gtp-setup "params -t 1"
//! ```
//!
//! `--gtp-setup` commands are sent to external programs after `boardsize`, `clear_board` and
//! (for programs that know it, as our own `havannah gtp`) `havannah-pie on|off` at
//! the start of every game (give them their time control there: our clock is not sent). Our
//! rules judge every move; a program that resigns, dies, answers an error, names an illegal
//! cell or gives no answer within `--gtp-timeout` seconds forfeits the game (the reason goes
//! into `results.txt`) and is restarted for the next one. `--gtp-stderr FILE` keeps the
//! programs' standard error (discarded by default).
//!
//! `--openings openings/havannah-8.txt` plays a suite of balanced openings (see
//! `havannah openings`): pair k (games 2k and 2k + 1) starts from opening k mod N, and
//! `--games` defaults to twice the number of openings, every opening once with each player
//! moving first.
//!
//! Player A moves first in the odd-numbered games (1, 3, ...), B in the others. The output
//! folder gets `games.txt` (one record per line, with the result), `games.sgf`,
//! `results.txt`, `match.tsv` (the games for `--merge`) and, when a game was played,
//! `last_game.svg`.
//!
//! The match is played by the generic runner of [`game_harness::runner`] (paired openings,
//! alternating sides, reseeding per game, forfeits) and its shard files by
//! [`game_harness::shard`]; this module adds what is Havannah's: the players, the board and
//! the random opening ([`setup`]), and the table with colours and winning figures, the
//! records, SGF and the picture of the last game ([`outputs`]).

pub mod outputs;
pub mod setup;

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use clap::Parser;
use game_harness::Shard;
use game_harness::openings::Openings;
use game_harness::output::exit_status;
use game_harness::record::MatchResult;
use game_harness::MatchSettings;
use game_harness::runner::run_match;
use game_harness::shard::{self, SHARD_FILE};
use game_harness::{Agent, Clock, ErrorOutput, GtpAgent, GtpError, Launch, PlayerId};
use havannah::{Engine, RandomAgent};
use havannah_rules::GameState;

use outputs::{OutputFiles, Table, write_outputs};
use setup::Setup;

/// Command-line options.
#[derive(Debug, Parser)]
#[command(
    name = "selfplay",
    version,
    about = "Plays a Havannah match between two players"
)]
pub struct Opts {
    /// Cells per side.
    #[arg(long, default_value_t = 6)]
    pub size: u8,
    /// Number of games (colours alternate); 20 by default, or with --openings twice the
    /// number of openings (each played once with each player moving first).
    #[arg(long)]
    pub games: Option<usize>,
    /// Simulations per move for search players.
    #[arg(long)]
    pub simulations: Option<u64>,
    /// Time per move in seconds (given to the players as their clock). Without it and without
    /// --simulations, players get 0.05 s per move.
    #[arg(long)]
    pub time_per_move: Option<f64>,
    /// Search threads for both players; without it each configuration's own (1 unless its
    /// parameters say `threads=N`, as in `--player-a best:threads=2`).
    #[arg(long)]
    pub threads: Option<usize>,
    /// The random seed (players and openings).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Random opening moves before the players take over (the same for both games of a pair).
    #[arg(long, default_value_t = 0)]
    pub opening: usize,
    /// A suite of openings (a file with one opening a line, moves separated by spaces, `#`
    /// comments, as `openings/havannah-8.txt`): game pair k starts from opening k mod N.
    #[arg(long, value_name = "FILE", conflicts_with = "opening")]
    pub openings: Option<PathBuf>,
    /// Allow the pie rule (`swap`).
    #[arg(long)]
    pub pie: bool,
    /// The output folder.
    #[arg(long, default_value = "selfplay-out")]
    pub out: PathBuf,
    /// Player A's configuration ([`player_help`]).
    #[arg(long, default_value = "best", help = player_help())]
    pub player_a: String,
    /// Player B's configuration (as player A's).
    #[arg(long, default_value = "uct")]
    pub player_b: String,
    /// GTP commands sent to external players (`gtp:COMMAND`) after each new game, e.g.
    /// `--gtp-setup "time -m 0.5 -g 0 -f 0" --gtp-setup "params -t 1"` for morat-havannah.
    #[arg(long)]
    pub gtp_setup: Vec<String>,
    /// Seconds an external program may take to answer one command before it forfeits the game
    /// as hung (it is then restarted); 0 waits for ever.
    #[arg(long, default_value_t = 60.0)]
    pub gtp_timeout: f64,
    /// A file that collects the standard error of external programs (appended); without it,
    /// their standard error is discarded.
    #[arg(long)]
    pub gtp_stderr: Option<PathBuf>,
    /// A value network (weights file from `td_train`) for configurations ending in `+td`.
    #[arg(long)]
    pub value_net: Option<PathBuf>,
    /// The weight of the value network in the prior, in [0, 1].
    #[arg(long, default_value_t = 0.5)]
    pub value_weight: f32,
    /// Play only part K of N of the match (`0/4` to `3/4`): the game pairs p with p mod N = K.
    /// The parts together play the same games as one run; join them with --merge.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<Shard>,
    /// Join the parts of a match instead of playing: the output folders of its --shard runs
    /// (each holds a `match.tsv`). Prints the table of the whole match and writes its files
    /// to --out. Runs of the match with different --seed values are pooled into one table
    /// (no `match.tsv` is written for a pool: it is not one match).
    #[arg(long, value_name = "DIR", num_args = 1.., conflicts_with = "shard")]
    pub merge: Vec<PathBuf>,
}

// ---------------------------------------------------------------------------------------------
// The player factory: add configurations here.
// ---------------------------------------------------------------------------------------------

/// The help text of `--player-a`: the kinds of player, the presets and
/// [`PARAMETER_HELP`](crate::config_spec::PARAMETER_HELP).
#[must_use]
pub fn player_help() -> String {
    format!(
        "Player A's configuration: random, `gtp:COMMAND` (an external GTP program, see \
         --gtp-setup), or an engine configuration ({}), optionally with parameters ({}), with \
         `+td` to mix in the value network of --value-net",
        crate::config_spec::preset_names(),
        crate::config_spec::PARAMETER_HELP
    )
}

/// Starts an external GTP program as a player: `setup` is sent after every new game, after
/// `havannah-pie on|off` (the match's pie rule) where the program knows that command (this
/// program's own engines, which would otherwise play with the pie rule on and could forfeit
/// a game with `swap`).
///
/// # Errors
/// The program cannot be started, or it dies or hangs at `known_command` (a program that
/// refuses the command, as morat-havannah does, is started without the rule).
pub fn external_player(
    launch: Launch,
    pie: bool,
    setup: &[String],
) -> Result<GtpAgent<GameState>, GtpError> {
    let mut program = GtpAgent::<GameState>::start(launch, setup)?;
    if program.knows("havannah-pie")? {
        let rule = format!("havannah-pie {}", if pie { "on" } else { "off" });
        program.set_setup(std::iter::once(rule).chain(setup.iter().cloned()).collect());
    }
    Ok(program)
}

/// Builds the player a configuration name stands for; `seed` differs between A and B.
fn make_player(name: &str, opts: &Opts, seed: u64) -> Result<Box<dyn Agent<GameState>>, String> {
    if name == "random" {
        return Ok(Box::new(RandomAgent::new(seed)));
    }
    if let Some(command) = name.strip_prefix("gtp:") {
        let timeout = gtp_timeout(opts.gtp_timeout)?;
        let stderr = opts
            .gtp_stderr
            .clone()
            .map_or(ErrorOutput::Discard, ErrorOutput::Append);
        let launch = Launch::words(command).stderr(stderr);
        let program =
            external_player(launch, opts.pie, &opts.gtp_setup).map_err(|e| e.to_string())?;
        return Ok(Box::new(program.with_timeout(timeout)));
    }
    // A configuration name of the engine, optionally with a value network: `best+td`.
    let (config_name, with_net) = match name.strip_suffix("+td") {
        Some(base) => (base, true),
        None => (name, false),
    };
    let mut config = crate::config_spec::engine_config(config_name)
        .map_err(|e| format!("{e}, random (add +td to use --value-net)"))?;
    if let Some(threads) = opts.threads {
        config = config.with_threads(threads).map_err(|e| e.to_string())?;
    }
    if let Some(n) = opts.simulations {
        config = config.with_simulations(n).map_err(|e| e.to_string())?;
    }
    if with_net {
        let path = opts
            .value_net
            .as_ref()
            .ok_or_else(|| format!("{name} needs --value-net PATH"))?;
        config = config
            .with_value_net_file(path, opts.size, opts.value_weight)
            .map_err(|e| e.to_string())?;
        config.name = name.to_string();
    }
    Ok(Box::new(Engine::new(config, seed)))
}

/// The answer timeout of external programs: `None` for 0 (no limit).
fn gtp_timeout(seconds: f64) -> Result<Option<Duration>, String> {
    match seconds {
        0.0 => Ok(None),
        s if s.is_finite() && s > 0.0 => Ok(Some(Duration::from_secs_f64(s))),
        s => Err(format!(
            "--gtp-timeout must be 0 or a positive number of seconds, not {s}"
        )),
    }
}

/// Names the files `write_outputs` wrote (and the shard file, when written).
fn announce(files: &OutputFiles, dir: &Path, shard_file: bool) {
    let mut names = vec!["games.txt", "games.sgf"];
    if files.last_game_svg.is_some() {
        names.push("last_game.svg");
    }
    names.push("results.txt");
    if shard_file {
        names.push(SHARD_FILE);
    }
    let last = names.pop().unwrap_or_default();
    game_harness::outln!("Wrote {} and {last} to {}", names.join(", "), dir.display());
}

/// Reads the `match.tsv` of each folder and joins the parts into the whole match, pooling
/// runs with different seeds; also returns the seeds.
fn merge(dirs: &[PathBuf]) -> Result<(MatchResult<GameState>, Setup, Vec<u64>), String> {
    let new_game = |description: &str| {
        Setup::from_description(description)?
            .empty_game()
            .map_err(|e| e.to_string())
    };
    let pooled = shard::pool_dirs(dirs, new_game).map_err(|e| e.to_string())?;
    let setup = Setup::from_description(&pooled.file.description)?;
    Ok((pooled.file.result, setup, pooled.seeds))
}

/// Prints the result and writes its files (with the shard file, unless the result pools
/// several `seeds`: it is then not one match) to `dir`; exit status 1 when they cannot be
/// written.
fn finish(result: &MatchResult<GameState>, setup: &Setup, dir: &Path, seeds: &[u64]) -> ExitCode {
    game_harness::outln!("{}", Table { result, setup });
    let pooled = shard::pooled_line(seeds);
    let one_match = pooled.is_none();
    if let Some(line) = pooled {
        game_harness::outln!("{line}");
    }
    match write_outputs(result, setup, dir).and_then(|files| {
        if one_match {
            shard::write(result, &setup.description(), dir)?;
        }
        Ok(files)
    }) {
        Ok(files) => {
            announce(&files, dir, one_match);
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("selfplay: cannot write to {}: {e}", dir.display());
            ExitCode::from(1)
        }
    }
}

/// The clock of every move: `--time-per-move`, or 0.05 s when no budget is given at all.
fn clock_of(opts: &Opts) -> Result<Clock, String> {
    let default = opts.simulations.is_none().then_some(0.05);
    match opts.time_per_move.or(default) {
        None => Ok(Clock::unlimited()),
        Some(t) if t.is_finite() && t > 0.0 => Ok(Clock::per_move(Duration::from_secs_f64(t))),
        Some(t) => Err(format!(
            "--time-per-move must be a positive number of seconds, not {t}"
        )),
    }
}

/// Plays the match (or this shard of it) with a progress bar showing A's score.
fn play(opts: &Opts) -> Result<(MatchResult<GameState>, Setup), String> {
    let mut a = make_player(
        &opts.player_a,
        opts,
        opts.seed.wrapping_mul(2).wrapping_add(1),
    )?;
    let mut b = make_player(
        &opts.player_b,
        opts,
        opts.seed.wrapping_mul(2).wrapping_add(2),
    )?;
    let setup = Setup::new(opts.size, opts.pie, opts.opening).map_err(|e| e.to_string())?;
    let suite = match &opts.openings {
        Some(path) => Some(
            Openings::read(path, &setup.empty_game().map_err(|e| e.to_string())?)
                .map_err(|e| e.to_string())?,
        ),
        None => None,
    };
    let games = opts
        .games
        .unwrap_or_else(|| suite.as_ref().map_or(20, Openings::games));
    let settings = MatchSettings::new(games)
        .clock(clock_of(opts)?)
        .seed(opts.seed)
        .shard(opts.shard.unwrap_or_default());
    let bar = game_harness::matches::progress_bar(settings.shard.games(games).count(), false);
    let (mut a_points, mut played) = (0.0f64, 0u32);
    let result = run_match(
        [a.as_mut(), b.as_mut()],
        &settings,
        |index| match &suite {
            Some(suite) => Ok(suite.game(index)),
            None => setup.opening(opts.seed, index),
        },
        |game| {
            played += 1;
            a_points += match game.winner {
                Some(PlayerId::A) => 1.0,
                Some(PlayerId::B) => 0.0,
                None => 0.5,
            };
            bar.set_message(format!(
                "A {:.1}% after {played}",
                100.0 * a_points / f64::from(played)
            ));
            bar.inc(1);
        },
    );
    bar.finish_and_clear();
    result.map(|r| (r, setup)).map_err(|e| e.to_string())
}

/// Plays the match (or merges its parts) and writes its files; the exit status is 0, 1 when
/// the files cannot be written and 2 for bad options or a failed match.
pub fn run(opts: &Opts) -> ExitCode {
    let result = if opts.merge.is_empty() {
        play(opts).map(|(result, setup)| (result, setup, vec![opts.seed]))
    } else {
        merge(&opts.merge)
    };
    match result {
        Ok((result, setup, seeds)) => exit_status(finish(&result, &setup, &opts.out, &seeds)),
        Err(e) => {
            eprintln!("selfplay: {e}");
            ExitCode::from(2)
        }
    }
}
