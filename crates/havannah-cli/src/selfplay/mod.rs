//! Plays a match between two players and writes the games, the last position and a results
//! table.
//!
//! ```sh
//! havannah selfplay [--size 6] [--games 20] [--simulations N] \
//!     [--time-per-move SECONDS] [--threads N] [--seed N] [--opening PLIES | --openings FILE] \
//!     [--pie] [--sprt ELO0,ELO1] \
//!     [--out selfplay-out] [--player-a random] [--player-b random] [--gtp-setup CMD]... \
//!     [--gtp-timeout SECONDS | --gtp-no-timeout] [--gtp-stderr FILE] [--shard K/N]
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
//! The match is the harness's match program ([`game_harness::program::selfplay`]: the
//! options of [`MatchArgs`], paired openings, shards, merge, the table by games and by pairs,
//! `--sprt`); this module adds what is Havannah's: the pie rule, the players, the random
//! opening ([`setup`]), and the table with colours and winning figures, the records, SGF and
//! the picture of the last game ([`outputs`]).

pub mod outputs;
pub mod setup;

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use clap::Parser;
use game_harness::cli::{MatchArgs, PlayerSpec};
use game_harness::program::{MatchProgram, exit_code};
use game_harness::shard::Description;
use game_harness::{Agent, GtpAgent, GtpError, Launch};
use havannah::{Engine, RandomAgent};
use havannah_rules::{GameState, Rules};

use outputs::{Table, write_outputs};
use setup::Setup;

/// Command-line options: the harness's match options and Havannah's own.
#[derive(Debug, Parser)]
#[command(
    name = "selfplay",
    version,
    about = "Plays a Havannah match between two players",
    after_help = player_help()
)]
pub struct Opts {
    /// The match options every game's selfplay takes.
    #[command(flatten)]
    pub matches: MatchArgs,
    /// Allow the pie rule (`swap`).
    #[arg(long)]
    pub pie: bool,
    /// A value network (weights file from `td_train`) for configurations ending in `+td`.
    #[arg(long)]
    pub value_net: Option<PathBuf>,
    /// The weight of the value network in the prior, in [0, 1].
    #[arg(long, default_value_t = 0.5)]
    pub value_weight: f32,
}

/// The players `--player-a` and `--player-b` name: random, `gtp:COMMAND`, or an engine
/// configuration with optional parameters and `+td`.
#[must_use]
pub fn player_help() -> String {
    format!(
        "Players (--player-a, --player-b; best and uct by default): random, `gtp:COMMAND` (an \
         external GTP program, see --gtp-setup), or an engine configuration ({}), optionally \
         with parameters ({}), with `+td` to mix in the value network of --value-net",
        crate::config_spec::preset_names(),
        crate::config_spec::PARAMETER_HELP
    )
}

/// Tells an external program the match's pie rule (`havannah-pie on|off`, sent before
/// `setup` after every new game) where it knows that command: this program's own engines,
/// which would otherwise play with the pie rule on and could forfeit a game with `swap`.
///
/// # Errors
/// The program dies or hangs at `known_command` (a program that refuses the command, as
/// morat-havannah does, keeps its setup).
pub fn tell_pie_rule(
    program: &mut GtpAgent<GameState>,
    pie: bool,
    setup: &[String],
) -> Result<(), GtpError> {
    if program.knows("havannah-pie")? {
        let rule = format!("havannah-pie {}", if pie { "on" } else { "off" });
        program.set_setup(std::iter::once(rule).chain(setup.iter().cloned()).collect());
    }
    Ok(())
}

/// Starts an external GTP program as a player, `setup` sent after every new game, and
/// [`tell_pie_rule`].
///
/// # Errors
/// The program cannot be started, or it dies or hangs at `known_command`.
pub fn external_player(
    launch: Launch,
    pie: bool,
    setup: &[String],
) -> Result<GtpAgent<GameState>, GtpError> {
    let mut program = GtpAgent::<GameState>::start(launch, setup)?;
    tell_pie_rule(&mut program, pie, setup)?;
    Ok(program)
}

impl Opts {
    /// The engine a configuration name stands for, optionally with a value network: `best+td`.
    fn engine(&self, name: &str, args: &MatchArgs, size: u8, seed: u64) -> Result<Engine, String> {
        let (config_name, with_net) = match name.strip_suffix("+td") {
            Some(base) => (base, true),
            None => (name, false),
        };
        let mut config = crate::config_spec::engine_config(config_name)
            .map_err(|e| format!("{e}, random (add +td to use --value-net)"))?;
        if let Some(threads) = args.threads {
            config = config
                .with_threads(threads.get())
                .map_err(|e| e.to_string())?;
        }
        if let Some(n) = args.simulations {
            config = config
                .with_simulations(n.get())
                .map_err(|e| e.to_string())?;
        }
        if with_net {
            let path = self
                .value_net
                .as_ref()
                .ok_or_else(|| format!("{name} needs --value-net PATH"))?;
            config = config
                .with_value_net_file(path, size, self.value_weight)
                .map_err(|e| e.to_string())?;
            config.name = name.to_string();
        }
        Ok(Engine::new(config, seed))
    }
}

impl MatchProgram for Opts {
    type Game = GameState;

    fn name(&self) -> &'static str {
        "havannah"
    }
    fn default_size(&self) -> usize {
        6
    }
    fn default_players(&self) -> [&'static str; 2] {
        ["best", "uct"]
    }
    fn default_time(&self) -> Option<Duration> {
        Some(Duration::from_millis(50))
    }
    fn default_out(&self) -> Option<PathBuf> {
        Some(PathBuf::from("selfplay-out"))
    }
    fn rules(&self) -> Vec<(&'static str, String)> {
        vec![("pie", u8::from(self.pie).to_string())]
    }

    fn new_game(&self, size: usize, description: &Description) -> Result<GameState, String> {
        let pie = description.number::<u8>("pie").map_err(|e| e.to_string())?;
        let size8 = u8::try_from(size).unwrap_or(u8::MAX);
        GameState::new(size8, Rules { pie: pie == 1 }).map_err(|e| format!("--size {size}: {e}"))
    }

    fn player(
        &self,
        spec: &PlayerSpec,
        args: &MatchArgs,
        start: &GameState,
        seed: u64,
    ) -> Result<Box<dyn Agent<GameState>>, String> {
        if spec.name() == Some("random") {
            return Ok(Box::new(RandomAgent::new(seed)));
        }
        let size = start.board().size();
        Ok(Box::new(self.engine(
            &spec.to_string(),
            args,
            size,
            seed,
        )?))
    }

    fn random_opening(
        &self,
        start: &GameState,
        plies: usize,
        seed: u64,
    ) -> Result<GameState, String> {
        setup::random_opening(start.clone(), plies, seed).map_err(|e| e.to_string())
    }

    fn prepare_program(&self, program: &mut GtpAgent<GameState>) -> Result<(), GtpError> {
        tell_pie_rule(program, self.pie, &self.matches.gtp_setup)
    }

    fn table(&self, result: &game_harness::MatchResult<GameState>, d: &Description) -> String {
        match Setup::of(d) {
            Ok(setup) => Table {
                result,
                setup: &setup,
            }
            .to_string(),
            Err(e) => e,
        }
    }

    fn write_files(
        &self,
        result: &game_harness::MatchResult<GameState>,
        d: &Description,
        dir: &Path,
    ) -> std::io::Result<Vec<String>> {
        let setup = Setup::of(d).map_err(std::io::Error::other)?;
        let files = write_outputs(result, &setup, dir)?;
        let names = [
            Some(&files.games_txt),
            Some(&files.games_sgf),
            files.last_game_svg.as_ref(),
        ];
        Ok(names
            .into_iter()
            .flatten()
            .chain([&files.results_txt])
            .filter_map(|p| p.file_name())
            .map(|n| n.to_string_lossy().into_owned())
            .collect())
    }
}

/// Plays the match (or merges its parts) and writes its files; the exit status is 0, 1 when
/// the files cannot be written and 2 for bad options or a failed match.
pub fn run(opts: &Opts) -> ExitCode {
    exit_code(
        "selfplay",
        game_harness::program::selfplay(opts, &opts.matches),
    )
}
