//! The match program every game shares (feature `cli`): [`selfplay`] plays a match between two
//! players from the options of [`MatchArgs`], or merges its parts, prints the results table
//! and writes the match file; a game supplies what is its own through [`MatchProgram`] (its
//! rules, its players, a random opening, its record files).
//!
//! - Players: `gtp:COMMAND` starts an external GTP program (with `--gtp-setup`,
//!   `--gtp-timeout`, `--gtp-stderr`); any other [`PlayerSpec`] is the game's
//!   ([`MatchProgram::player`]).
//! - Openings: `--opening N` random moves ([`MatchProgram::random_opening`], the same for
//!   both games of a pair) or `--openings FILE` ([`Openings`]), where `--games` defaults to
//!   two games an opening.
//! - Parts: `--shard K/N` plays a part, `--merge DIR...` joins parts (pooling runs with
//!   different seeds); the match file's description ([`Description`]) names the game, the
//!   size, the rules and the opening, so that parts of different matches never merge.
//! - Statistics: the results table by games and by pairs, and `--sprt ELO0,ELO1` stops the
//!   match at a decision.
//!
//! Bad options are errors that name the value ([`ProgramError`]); [`exit_code`] turns the
//! outcome into the exit status (2 for bad options, 1 when the files cannot be written).

use std::io;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use crate::cli::{MatchArgs, PlayerSpec};
use crate::gtp::GtpGame;
use crate::gtp_agent::GtpAgent;
use crate::gtp_client::GtpError;
use crate::match_file::{self, Description, SHARD_FILE};
use crate::matches::{MatchSettings, PlayerId, print_above, progress_bar};
use crate::openings::Openings;
use crate::process::{ErrorOutput, Launch};
use crate::record::{GameRecord, MatchResult};
use crate::runner::{opening_seed, run_match};
use crate::{Agent, MatchGame};

/// What a game brings to the match program.
pub trait MatchProgram {
    /// The game.
    type Game: GtpGame<Move: Send> + 'static;

    /// The game's name: the first word of its match files' descriptions (`havannah`).
    const NAME: &'static str;
    /// The board size without `--size`.
    const SIZE: usize;
    /// Players A and B without `--player-a` and `--player-b`.
    const PLAYERS: [&'static str; 2];
    /// The clock of a move when neither `--time-per-move` nor `--simulations` is given
    /// (`None`: unlimited, the players' own budgets).
    const TIME: Option<Duration> = None;
    /// The output folder without `--out` (`None`: nothing is written).
    const OUT: Option<&'static str> = None;

    /// The program's rules as settings of the description, besides `size` and `opening`
    /// (`[("pie", "1")]`).
    fn rules(&self) -> Vec<(&'static str, String)>;

    /// The empty game of `size` under the rules `description` gives (this program's own, or
    /// a match file's for `--merge`).
    ///
    /// # Errors
    /// A message naming the size or the rule the game cannot take.
    fn new_game(&self, size: usize, description: &Description) -> Result<Self::Game, String>;

    /// The player a request names (never an external program).
    ///
    /// # Errors
    /// A message naming the unknown player or the bad parameter.
    fn player(
        &self,
        request: &PlayerRequest<'_, Self::Game>,
    ) -> Result<BoxedAgent<Self::Game>, String>;

    /// `start` with `plies` random moves drawn from `seed` (fewer if the game ends).
    ///
    /// # Errors
    /// A message when the game refuses a move.
    fn random_opening(
        &self,
        start: &Self::Game,
        plies: usize,
        seed: u64,
    ) -> Result<Self::Game, String>;

    /// Prepares an external program after it starts (tells it the match's rules where it
    /// knows the command); nothing by default.
    ///
    /// # Errors
    /// The program died or hung.
    fn prepare_program(&self, _program: &mut GtpAgent<Self::Game>) -> Result<(), GtpError> {
        Ok(())
    }

    /// The results table printed after the match; the harness's by default.
    fn table(&self, result: &MatchResult<Self::Game>, _description: &Description) -> String {
        result.to_string()
    }

    /// Writes the game's own files (records, SGF, a picture) to `dir` beside the match file
    /// and returns their names; none by default.
    ///
    /// # Errors
    /// The file that cannot be written.
    fn write_files(
        &self,
        _result: &MatchResult<Self::Game>,
        _description: &Description,
        _dir: &Path,
    ) -> io::Result<Vec<String>> {
        Ok(Vec::new())
    }
}

/// An agent of `G` in a box, as the match program holds its players.
pub type BoxedAgent<G> = Box<dyn Agent<G>>;

/// What the match program asks of [`MatchProgram::player`]: one of the game's own players.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct PlayerRequest<'a, G> {
    /// The player's specification (`best:c=0.3`), never `gtp:COMMAND`.
    pub spec: &'a PlayerSpec,
    /// The match options (threads, simulations, ...).
    pub args: &'a MatchArgs,
    /// The empty game of the match.
    pub start: &'a G,
    /// A seed for the player, different for A and B (the runner reseeds players per game).
    pub seed: u64,
}

/// Why a match program stopped.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ProgramError {
    /// A bad option or a match that cannot be played (exit status 2).
    #[error("{0}")]
    Usage(String),
    /// The output files cannot be written (exit status 1).
    #[error("cannot write to {}: {source}", dir.display())]
    Write {
        /// The output folder.
        dir: PathBuf,
        /// What went wrong.
        source: io::Error,
    },
}

impl From<String> for ProgramError {
    fn from(message: String) -> ProgramError {
        ProgramError::Usage(message)
    }
}

/// The exit status of a program's outcome, the error printed on standard error after
/// `program: `: 0, 2 for [`ProgramError::Usage`], 1 for [`ProgramError::Write`].
#[must_use]
pub fn exit_code(program: &str, outcome: Result<(), ProgramError>) -> ExitCode {
    match outcome {
        Ok(()) => crate::output::exit_status(ExitCode::SUCCESS),
        Err(e) => {
            eprintln!("{program}: {e}");
            ExitCode::from(match e {
                ProgramError::Usage(_) => 2,
                ProgramError::Write { .. } => 1,
            })
        }
    }
}

/// Plays the match `args` describe (or merges its parts), prints the results table and
/// writes the match file and the game's files to the output folder.
///
/// # Errors
/// [`ProgramError::Usage`] naming a bad option, a player that cannot be made, an opening
/// file that cannot be read or a part that cannot be merged; [`ProgramError::Write`] when the
/// files cannot be written.
pub fn selfplay<P: MatchProgram>(program: &P, args: &MatchArgs) -> Result<(), ProgramError> {
    let Merged {
        result,
        description,
        seeds,
    } = if args.merge.is_empty() {
        let description = description(program, args);
        Merged {
            result: play(program, args, &description)?,
            description,
            seeds: vec![args.seed],
        }
    } else {
        merge(program, &args.merge)?
    };
    crate::outln!("Game: {description}");
    crate::outln!("{}", program.table(&result, &description));
    let pooled = match_file::pooled_line(&seeds);
    if let Some(line) = &pooled {
        crate::outln!("{line}");
    }
    let Some(dir) = args.out.clone().or_else(|| P::OUT.map(PathBuf::from)) else {
        return Ok(());
    };
    let write = |dir: &Path| -> io::Result<Vec<String>> {
        let mut names = program.write_files(&result, &description, dir)?;
        // A pool of runs with different seeds is not one match: no match file.
        if pooled.is_none() {
            match_file::write(&result, &description, dir)?;
            names.push(SHARD_FILE.to_string());
        }
        Ok(names)
    };
    let names = write(&dir).map_err(|source| ProgramError::Write {
        dir: dir.clone(),
        source,
    })?;
    if !names.is_empty() {
        crate::outln!("Wrote {} to {}", names.join(", "), dir.display());
    }
    Ok(())
}

/// The description of the match `args` set up: the game, the size, the rules, the opening.
fn description<P: MatchProgram>(program: &P, args: &MatchArgs) -> Description {
    let size = args.size.unwrap_or(P::SIZE);
    let mut description = Description::new(P::NAME).with("size", size);
    for (key, value) in program.rules() {
        description = description.with(key, value);
    }
    description.with("opening", args.opening)
}

/// The empty game a description stands for.
fn game_of<P: MatchProgram>(program: &P, description: &Description) -> Result<P::Game, String> {
    if description.game() != P::NAME {
        return Err(format!(
            "{:?} is not a match of {}",
            description.to_string(),
            P::NAME
        ));
    }
    let size = description.number("size").map_err(|e| e.to_string())?;
    program.new_game(size, description)
}

/// A player from its spec: an external program, or the game's.
fn player<P: MatchProgram>(
    program: &P,
    spec: &PlayerSpec,
    args: &MatchArgs,
    start: &P::Game,
    seed: u64,
) -> Result<BoxedAgent<P::Game>, String> {
    let PlayerSpec::Program(command) = spec else {
        let request = PlayerRequest {
            spec,
            args,
            start,
            seed,
        };
        return program.player(&request);
    };
    let stderr = args
        .gtp_stderr
        .clone()
        .map_or(ErrorOutput::Discard, ErrorOutput::Append);
    let launch = Launch::words(command.as_str()).stderr(stderr);
    let started = GtpAgent::start(launch, &args.gtp_setup).and_then(|mut agent| {
        program.prepare_program(&mut agent)?;
        Ok(agent
            .with_timeout(args.gtp_timeout())
            .with_colours_swapped(args.gtp_swap_colours))
    });
    started
        .map(|agent| Box::new(agent) as Box<dyn Agent<P::Game>>)
        .map_err(|e| format!("player {spec}: {e}"))
}

/// Plays the match (or the part of it of `--shard`) with a progress bar showing A's score.
fn play<P: MatchProgram>(
    program: &P,
    args: &MatchArgs,
    description: &Description,
) -> Result<MatchResult<P::Game>, ProgramError> {
    let start = game_of(program, description)?;
    let agent = |i: usize, spec: &Option<PlayerSpec>| -> Result<BoxedAgent<P::Game>, String> {
        let spec = match spec {
            Some(spec) => spec.clone(),
            None => P::PLAYERS[i].parse().map_err(|e| format!("{e}"))?,
        };
        let seed = args.seed.wrapping_mul(2).wrapping_add(1 + i as u64);
        player(program, &spec, args, &start, seed)
    };
    let (mut a, mut b) = (agent(0, &args.player_a)?, agent(1, &args.player_b)?);
    let suite = match &args.openings {
        Some(path) => Some(Openings::read(path, &start).map_err(|e| e.to_string())?),
        None => None,
    };
    let games = args.games.map_or_else(
        || suite.as_ref().map_or(20, Openings::games),
        std::num::NonZeroUsize::get,
    );
    let mut settings = MatchSettings::new(games)
        .clock(args.clock(P::TIME))
        .seed(args.seed)
        .shard(args.shard.unwrap_or_default());
    settings.sprt = args.sprt;
    let bar = progress_bar(settings.shard.games(games).count(), args.quiet);
    let (mut points, mut played) = (0.0f64, 0u32);
    let result = run_match(
        [a.as_mut(), b.as_mut()],
        &settings,
        |index| match &suite {
            Some(suite) => Ok(suite.game(index)),
            None => program.random_opening(&start, args.opening, opening_seed(args.seed, index)),
        },
        |game| {
            played += 1;
            points += match game.winner {
                Some(PlayerId::A) => 1.0,
                Some(PlayerId::B) => 0.0,
                None => 0.5,
            };
            if args.verbose {
                print_above(&bar, &game_line(game));
            }
            bar.set_message(format!(
                "A {:.1}% after {played}",
                100.0 * points / f64::from(played)
            ));
            bar.inc(1);
        },
    );
    bar.finish_and_clear();
    Ok(result?)
}

/// `game 3: A won: e5 d4 ...` for `--verbose`.
fn game_line<G: MatchGame>(game: &GameRecord<G>) -> String {
    let moves: Vec<String> = game
        .moves()
        .iter()
        .map(|&m| game.game.move_name(m))
        .collect();
    let winner = game.winner.map_or("nobody", |w| match w {
        PlayerId::A => "A",
        PlayerId::B => "B",
    });
    format!("game {}: {winner} won: {}", game.index, moves.join(" "))
}

/// Reads the match file of each folder and joins the parts into the whole match, pooling
/// runs with different seeds.
fn merge<P: MatchProgram>(program: &P, dirs: &[PathBuf]) -> Result<Merged<P::Game>, ProgramError> {
    let new_game = |description: &Description| game_of(program, description);
    let pooled = match_file::pool_dirs(dirs, new_game).map_err(|e| e.to_string())?;
    Ok(Merged {
        result: pooled.file.result,
        description: pooled.file.description,
        seeds: pooled.seeds,
    })
}

/// A match played, its parts joined or runs pooled: the result, its description and the
/// seeds of its runs.
struct Merged<G> {
    result: MatchResult<G>,
    description: Description,
    seeds: Vec<u64>,
}
