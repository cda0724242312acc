//! A GTP engine for any [`GtpGame`] played by any [`Agent`]: the standard commands once, and
//! a game's own commands added by a [`GtpExtension`].
//!
//! The session owns the authoritative game, checks every move, tells the player about every
//! move and asks it for moves on `genmove`, under the clock that `time_settings` and
//! `time_left` keep (and a fixed time per move, if set). It never panics on input: every bad
//! command or argument is answered with `? message`.
//!
//! Commands: the loop's own (`protocol_version`, `name`, `version`, `known_command`,
//! `list_commands`, `quit`), then `boardsize N`, `clear_board`, `play COLOUR MOVE`,
//! `genmove COLOUR`, `reg_genmove COLOUR` (a move without playing it), `undo`, `showboard`,
//! `time_settings MAIN BYO_TIME BYO_STONES`, `time_left COLOUR TIME STONES`, `final_score`
//! and `stats` (the player's report of its last search, [`Agent::search_report`])
//! ([`STANDARD_COMMANDS`]), then the extension's.

use std::fmt;
use std::io::{self, BufRead, Write};
use std::time::{Duration, Instant};

use crate::agent::{Agent, Verdict};
use crate::gtp::{
    ArgumentError, CommandError, GtpColour, GtpEngine, GtpGame, Response, count, seconds,
};
use crate::time::{Clock, PlayerClock, TimeControl, TimeSettings};

/// The commands every [`GtpSession`] knows, in the order `list_commands` gives them; an
/// extension's commands follow.
pub const STANDARD_COMMANDS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "boardsize",
    "clear_board",
    "play",
    "genmove",
    "reg_genmove",
    "undo",
    "showboard",
    "time_settings",
    "time_left",
    "final_score",
    "stats",
];

/// The safety margin a new session keeps back from the GTP clock for transmission lag
/// ([`GtpSession::with_safety_margin`]).
pub const DEFAULT_SAFETY_MARGIN: Duration = Duration::from_millis(50);

/// A game's own GTP commands, added to a [`GtpSession`] by [`GtpSession::with_extension`].
///
/// The extension sees every command before the session's standard ones, so it may also answer
/// a standard command in its own way (a second argument to `boardsize`, say) and leave the
/// rest to [`GtpSession::standard_command`].
pub trait GtpExtension<G: GtpGame, A: Agent<G> + ?Sized> {
    /// The extension's commands, listed by `list_commands` after [`STANDARD_COMMANDS`].
    fn commands(&self) -> &[&'static str];

    /// Runs `command` (lower case) with `args` if the extension answers it: `Some(Ok(text))`
    /// for `=`, `Some(Err(error))` for `?` (the error's message is the reply's text); `None`
    /// leaves it to the session.
    fn execute(
        &mut self,
        session: &mut GtpSession<G, A>,
        command: &str,
        args: &[&str],
    ) -> Option<Result<String, CommandError>>;
}

/// Why a [`GtpSession`] setting was refused. Every message names the bad value.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum GtpSessionError<E: std::error::Error> {
    /// A board size outside [`GtpGame::sizes`].
    #[error("unacceptable size {size}: sizes {min} to {max} are supported")]
    BoardSize {
        /// The size asked for.
        size: usize,
        /// The smallest size supported.
        min: usize,
        /// The largest size supported.
        max: usize,
    },
    /// The game could not start a new game of the size ([`GtpGame::with_size`]).
    #[error(transparent)]
    Game(E),
}

/// A GTP session: the authoritative game, the player, the clocks, and a game's extension.
///
/// `A` is the player's type; the default `dyn Agent<G>` takes any boxed agent.
///
/// ```
/// use game_harness::gtp::{GtpGame, GtpSession};
/// # use game_harness::{Agent, Clock, MatchGame, Side};
/// # use game_harness::gtp::GtpColour;
/// # /// A pile of stones; a move takes one or two; who takes the last one wins.
/// # #[derive(Clone, Debug)]
/// # struct Pile { size: usize, moves: Vec<u8> }
/// # #[derive(Debug, thiserror::Error)]
/// # #[error("cannot take {0}")]
/// # struct Bad(String);
/// # impl Pile { fn left(&self) -> usize { self.size - self.moves.iter().map(|&m| usize::from(m)).sum::<usize>() } }
/// # impl MatchGame for Pile {
/// #     type Move = u8;
/// #     type Error = Bad;
/// #     fn moves(&self) -> &[u8] { &self.moves }
/// #     fn try_play(&mut self, mv: u8) -> Result<(), Bad> {
/// #         if !(1..=2).contains(&mv) || usize::from(mv) > self.left() { return Err(Bad(mv.to_string())); }
/// #         self.moves.push(mv);
/// #         Ok(())
/// #     }
/// #     fn verdict(&self) -> Option<game_harness::Verdict> {
/// #         (self.left() == 0).then(|| game_harness::Verdict::Win(Side::of_ply(self.moves.len() - 1)))
/// #     }
/// #     fn move_name(&self, mv: u8) -> String { mv.to_string() }
/// #     fn parse_move(&self, text: &str) -> Result<u8, Bad> { text.parse().map_err(|_| Bad(text.into())) }
/// # }
/// # impl GtpGame for Pile {
/// #     fn size(&self) -> usize { self.size }
/// #     fn sizes(&self) -> std::ops::RangeInclusive<usize> { 1..=20 }
/// #     fn with_size(&self, size: usize) -> Result<Pile, Bad> { Ok(Pile { size, moves: Vec::new() }) }
/// #     fn colour_of(&self, side: Side) -> GtpColour { if side == Side::First { GtpColour::Black } else { GtpColour::White } }
/// #     fn undo(&mut self) -> Option<u8> { self.moves.pop() }
/// #     fn board_text(&self) -> String { format!("\n{} left", self.left()) }
/// #     fn moves_to_go(&self) -> u32 { 1 }
/// # }
/// # /// Takes one stone.
/// # struct One;
/// # impl Agent<Pile> for One {
/// #     fn name(&self) -> String { "one".into() }
/// #     fn reset(&mut self, _: &Pile) {}
/// #     fn observe(&mut self, _: &Pile, _: u8) {}
/// #     fn choose(&mut self, _: &Pile, _: &Clock) -> Option<u8> { Some(1) }
/// # }
/// // `Pile` is a game (a pile of stones, take one or two), `One` an agent that takes one.
/// let game = Pile { size: 5, moves: Vec::new() };
/// let mut gtp = GtpSession::new(game, Box::new(One)).with_name("pile");
/// assert_eq!(gtp.handle("1 name").unwrap().to_string(), "=1 pile\n\n");
/// assert_eq!(gtp.handle("play b 2").unwrap().to_string(), "=\n\n");
/// assert_eq!(
///     gtp.handle("play b 1").unwrap().to_string(),
///     "? illegal move black 1: white is to move\n\n"
/// );
/// assert_eq!(gtp.handle("genmove w").unwrap().to_string(), "= 1\n\n");
/// assert_eq!(gtp.handle("showboard").unwrap().to_string(), "= \n2 left\n\n");
/// assert_eq!(gtp.game().moves(), [2, 1]);
/// ```
pub struct GtpSession<G: GtpGame, A: Agent<G> + ?Sized = dyn Agent<G>> {
    player: Box<A>,
    game: G,
    name: String,
    version: String,
    per_move: Option<Duration>,
    safety_margin: Duration,
    time: TimeControl,
    quit: bool,
    search_log: bool,
    commands: Vec<&'static str>,
    /// Taken out while it runs a command, so that it can borrow the session.
    extension: Option<Box<dyn GtpExtension<G, A> + Send>>,
}

impl<G: GtpGame, A: Agent<G> + ?Sized> fmt::Debug for GtpSession<G, A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let moves: Vec<String> = self
            .game
            .moves()
            .iter()
            .map(|&mv| self.game.move_name(mv))
            .collect();
        f.debug_struct("GtpSession")
            .field("name", &self.name)
            .field("player", &self.player.name())
            .field("size", &self.game.size())
            .field("moves", &moves)
            .field("per_move", &self.per_move)
            .field("time", &self.time)
            .field("commands", &self.commands)
            .finish_non_exhaustive()
    }
}

impl<G: GtpGame, A: Agent<G> + ?Sized> GtpSession<G, A> {
    /// A session starting from `game` (normally a game with no move played), played by
    /// `player`. `name` answers the player's name and `version` this crate's version until
    /// [`GtpSession::with_name`] and [`GtpSession::with_version`] say otherwise.
    pub fn new(game: G, player: Box<A>) -> GtpSession<G, A> {
        let mut session = GtpSession {
            name: one_line(&player.name()),
            version: env!("CARGO_PKG_VERSION").to_string(),
            player,
            game,
            per_move: None,
            safety_margin: DEFAULT_SAFETY_MARGIN,
            time: TimeControl::default(),
            quit: false,
            search_log: false,
            commands: STANDARD_COMMANDS.to_vec(),
            extension: None,
        };
        session.player.reset(&session.game);
        session
    }

    /// Sets what `name` answers (control characters become spaces).
    #[must_use]
    pub fn with_name(mut self, name: &str) -> Self {
        self.name = one_line(name);
        self
    }

    /// Sets what `version` answers (control characters become spaces).
    #[must_use]
    pub fn with_version(mut self, version: &str) -> Self {
        self.version = one_line(version);
        self
    }

    /// Adds a game's own commands; `list_commands` gives them after the standard ones.
    #[must_use]
    pub fn with_extension(mut self, extension: impl GtpExtension<G, A> + Send + 'static) -> Self {
        self.commands = STANDARD_COMMANDS.to_vec();
        self.commands.extend_from_slice(extension.commands());
        self.extension = Some(Box::new(extension));
        self
    }

    /// Sets a fixed time per move passed to the player as [`Clock::per_move`] (the player
    /// uses the tightest of this and the GTP clock).
    #[must_use]
    pub fn with_time_per_move(mut self, per_move: Option<Duration>) -> Self {
        self.per_move = per_move;
        self
    }

    /// Sets the time kept back from the GTP clock for transmission lag (default
    /// [`DEFAULT_SAFETY_MARGIN`]).
    #[must_use]
    pub fn with_safety_margin(mut self, margin: Duration) -> Self {
        self.safety_margin = margin;
        self
    }

    /// Writes the player's [`Agent::search_report`] to standard error after every `genmove`
    /// (default off).
    #[must_use]
    pub fn with_search_log(mut self, on: bool) -> Self {
        self.search_log = on;
        self
    }

    /// Starts a new game of `size` under the same rules.
    ///
    /// # Errors
    /// [`GtpSessionError::BoardSize`] for a size outside [`GtpGame::sizes`], or the game's
    /// own refusal; both name the size.
    pub fn with_size(mut self, size: usize) -> Result<Self, GtpSessionError<G::Error>> {
        self.set_size(size)?;
        Ok(self)
    }

    /// Starts from `game` instead ([`GtpSession::set_game`]).
    #[must_use]
    pub fn with_game(mut self, game: G) -> Self {
        self.set_game(game);
        self
    }

    /// The authoritative game.
    #[must_use]
    pub fn game(&self) -> &G {
        &self.game
    }

    /// The player.
    #[must_use]
    pub fn player(&self) -> &A {
        &self.player
    }

    /// The player, to change its settings (the game is the session's).
    pub fn player_mut(&mut self) -> &mut A {
        &mut self.player
    }

    /// The time settings, if `time_settings` set limits.
    #[must_use]
    pub fn time_settings(&self) -> Option<TimeSettings> {
        self.time.settings()
    }

    /// The clock of a colour as the session tracks it.
    #[must_use]
    pub fn player_clock(&self, colour: GtpColour) -> PlayerClock {
        self.time.player_clock(colour.index())
    }

    /// Whether `quit` has been received.
    #[must_use]
    pub fn has_quit(&self) -> bool {
        self.quit
    }

    /// The [`Clock`] the player gets for its next move as `colour`.
    ///
    /// Without time settings (or with GTP's "no limit" settings) only the fixed per-move time
    /// applies. In main time: `remaining` is the main time left (plus one byo-yomi period when
    /// there is byo-yomi) less the safety margin, `moves_to_go` the game's estimate
    /// [`GtpGame::moves_to_go`] (plus the period's stones). In byo-yomi: the period's time
    /// left less the margin, and the stones left in it.
    #[must_use]
    pub fn clock_for(&self, colour: GtpColour) -> Clock {
        self.time.clock_for(
            colour.index(),
            self.per_move,
            self.safety_margin,
            self.game.moves_to_go(),
        )
    }

    /// Starts from `game` (a new game, or one with the rules changed): the clocks start again
    /// and the player is reset.
    pub fn set_game(&mut self, game: G) {
        self.game = game;
        self.time.restart();
        self.player.reset(&self.game);
    }

    /// Starts a new game of `size` under the same rules (GTP's `boardsize`).
    ///
    /// # Errors
    /// [`GtpSessionError::BoardSize`] for a size outside [`GtpGame::sizes`], or the game's
    /// own refusal; the game is then unchanged.
    pub fn set_size(&mut self, size: usize) -> Result<(), GtpSessionError<G::Error>> {
        let sizes = self.game.sizes();
        if !sizes.contains(&size) {
            return Err(GtpSessionError::BoardSize {
                size,
                min: *sizes.start(),
                max: *sizes.end(),
            });
        }
        let game = self.game.with_size(size).map_err(GtpSessionError::Game)?;
        self.set_game(game);
        Ok(())
    }

    /// Handles one line of input; `None` for a line to ignore (empty or a comment).
    pub fn handle(&mut self, line: &str) -> Option<Response> {
        crate::gtp::handle(self, line).map(|(response, _)| response)
    }

    /// Reads commands from `input` and writes the replies to `output` until `quit` or the end
    /// of the input. Invalid UTF-8 is replaced, never fatal.
    ///
    /// # Errors
    /// Only errors of reading `input` or writing `output`.
    pub fn run(&mut self, input: impl BufRead, output: impl Write) -> io::Result<()> {
        crate::gtp::run(self, input, output)
    }

    /// Runs one of the [`STANDARD_COMMANDS`] other than the loop's own (`command` lower case),
    /// as the session does when its extension leaves a command to it: `Ok(text)` for `=`,
    /// `Err(error)` for `?`.
    ///
    /// # Errors
    /// Why the command failed: [`CommandError::UnknownCommand`], [`CommandError::Syntax`], a
    /// bad argument ([`CommandError::Argument`]), an illegal move, ...
    pub fn standard_command(
        &mut self,
        command: &str,
        args: &[&str],
    ) -> Result<String, CommandError> {
        match command {
            "boardsize" => self.cmd_boardsize(args),
            "clear_board" => {
                let game = self
                    .game
                    .with_size(self.game.size())
                    .map_err(|e| CommandError::Failed(e.to_string()))?;
                self.set_game(game);
                Ok(String::new())
            }
            "play" => self.cmd_play(args),
            "genmove" => self.cmd_genmove(args, true),
            "reg_genmove" => self.cmd_genmove(args, false),
            "undo" => {
                self.game.undo().ok_or(CommandError::NothingToUndo)?;
                self.player.reset(&self.game);
                Ok(String::new())
            }
            "showboard" => Ok(self.game.board_text()),
            "time_settings" => self.cmd_time_settings(args),
            "time_left" => self.cmd_time_left(args),
            "final_score" => self.game.final_score().ok_or(CommandError::NotOver),
            "stats" => (self.player.search_report())
                .map(|report| format!("\n{report}"))
                .ok_or(CommandError::NoSearch),
            _ => Err(CommandError::unknown(command)),
        }
    }

    fn cmd_boardsize(&mut self, args: &[&str]) -> Result<String, CommandError> {
        let [text] = args else {
            return Err(CommandError::syntax("boardsize SIZE"));
        };
        let size: u8 = text.parse().map_err(|_| ArgumentError::not_size(text))?;
        self.set_size(usize::from(size))?;
        Ok(String::new())
    }

    fn cmd_play(&mut self, args: &[&str]) -> Result<String, CommandError> {
        let [colour, mv] = args else {
            return Err(CommandError::syntax("play COLOUR MOVE"));
        };
        let colour: GtpColour = colour.parse()?;
        let parsed = self
            .game
            .parse_move(mv)
            .map_err(|_| ArgumentError::not_move(mv))?;
        let name = self.game.move_name(parsed);
        self.game
            .play_as(colour, parsed)
            .map_err(|e| CommandError::IllegalMove {
                colour,
                mv: name,
                reason: e.to_string(),
            })?;
        self.player.observe(&self.game, parsed);
        Ok(String::new())
    }

    /// `genmove` (`commit`) or `reg_genmove`: the player's move for `colour` under its clock.
    fn cmd_genmove(&mut self, args: &[&str], commit: bool) -> Result<String, CommandError> {
        let [colour] = args else {
            return Err(CommandError::syntax("genmove COLOUR"));
        };
        let colour: GtpColour = colour.parse()?;
        if let Some(verdict) = self.game.verdict() {
            let result = match verdict {
                Verdict::Win(side) => self.game.colour_of(side).name(),
                Verdict::Draw => "draw",
            };
            return Err(CommandError::GameOver {
                result: result.to_string(),
            });
        }
        let to_move = self.game.colour_to_move();
        if colour != to_move {
            if !self.game.turn_to(colour) {
                return Err(CommandError::OutOfTurn { colour, to_move });
            }
            self.player.reset(&self.game);
        }
        let clock = self.clock_for(colour);
        let start = Instant::now();
        let chosen = self.player.choose(&self.game, &clock);
        let spent = start.elapsed();
        if self.search_log
            && let Some(report) = self.player.search_report()
        {
            eprintln!("{report}");
        }
        self.time.charge(colour.index(), spent);
        let mv = chosen.ok_or_else(|| CommandError::NoMove {
            reason: self.player.failure(),
        })?;
        let name = self.game.move_name(mv);
        let illegal = |e: G::Error| CommandError::PlayerChoseIllegal {
            mv: name.clone(),
            reason: e.to_string(),
        };
        self.game.check(mv).map_err(illegal)?;
        if commit {
            // Checked just above, so this cannot fail.
            self.game.try_play(mv).map_err(illegal)?;
            self.player.observe(&self.game, mv);
        }
        Ok(name)
    }

    fn cmd_time_settings(&mut self, args: &[&str]) -> Result<String, CommandError> {
        let [main, byo, stones] = args else {
            return Err(CommandError::syntax(
                "time_settings MAIN_TIME BYO_YOMI_TIME BYO_YOMI_STONES",
            ));
        };
        self.time.set_settings(TimeSettings {
            main_time: seconds(main)?,
            byo_yomi_time: seconds(byo)?,
            byo_yomi_stones: count(stones)?,
        });
        Ok(String::new())
    }

    fn cmd_time_left(&mut self, args: &[&str]) -> Result<String, CommandError> {
        let [colour, time, stones] = args else {
            return Err(CommandError::syntax("time_left COLOUR TIME STONES"));
        };
        let colour: GtpColour = colour.parse()?;
        let time = seconds(time)?;
        let stones = count(stones)?;
        self.time.set_left(colour.index(), time, stones);
        Ok(String::new())
    }
}

/// `text` with control characters replaced by spaces.
fn one_line(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

impl<G: GtpGame, A: Agent<G> + ?Sized> GtpEngine for GtpSession<G, A> {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn version(&self) -> String {
        self.version.clone()
    }

    fn commands(&self) -> &[&str] {
        &self.commands
    }

    fn execute(&mut self, command: &str, args: &[&str]) -> Result<String, CommandError> {
        if let Some(mut extension) = self.extension.take() {
            let answer = extension.execute(self, command, args);
            self.extension = Some(extension);
            if let Some(answer) = answer {
                return answer;
            }
        }
        self.standard_command(command, args)
    }

    fn quit(&mut self) {
        self.quit = true;
    }
}
