//! A GTP (Go Text Protocol, version 2) engine session for Havannah, generic over an [`Agent`].
//!
//! The session owns the authoritative [`GameState`] (pie rule on by default, as LittleGolem and
//! HavannahGui play), checks every move, tells the player about every move and asks it for
//! moves on `genmove`. It never panics on input: every bad command or argument is answered with
//! `? message`.
//!
//! The protocol itself (ids, `=`/`?` replies ending with an empty line, comments, control
//! characters, case-insensitive command names, `list_commands`, `known_command`, `quit`, end of
//! input) is the generic loop of [`game_harness::gtp`]; the session is its [`GtpEngine`], and
//! the clocks are [`game_harness::time`]'s.
//!
//! Commands: `protocol_version`, `name`, `version`, `known_command`, `list_commands`, `quit`,
//! `boardsize N` (2 to 13; clears the board), `clear_board`, `play COLOUR MOVE`, `genmove COLOUR`,
//! `reg_genmove COLOUR`, `undo`, `showboard`, `time_settings MAIN BYO_TIME BYO_STONES`,
//! `time_left COLOUR TIME STONES`, `final_score`, and the Havannah-specific `havannah-winner`,
//! `havannah-record`, `havannah-pie [on|off]` and `havannah-stats` (the last search's statistics).
//!
//! `play` and `genmove` must name the side to move: a controller that sends a move out of turn
//! gets an error naming the move and the side to move, and the game is unchanged. `swap` is
//! played by Black as the second move; the swapped stone stays White and Black moves next, so
//! after `play b swap` the next move is Black's again (see [`havannah_rules::Move::Swap`]).
//!
//! ```
//! use havannah::RandomAgent;
//! use havannah::gtp::GtpSession;
//!
//! let mut gtp = GtpSession::new(Box::new(RandomAgent::new(1)));
//! assert_eq!(gtp.handle("1 boardsize 4").unwrap().to_string(), "=1\n\n");
//! assert_eq!(gtp.handle("play w d4").unwrap().to_string(), "=\n\n");
//! assert!(gtp.handle("play w c3").unwrap().to_string().starts_with("? "));
//! let reply = gtp.handle("genmove b").unwrap();
//! assert!(reply.is_success());
//! assert_eq!(gtp.game().moves().len(), 2);
//! assert!(gtp.handle("# a comment").is_none());
//! ```

use std::fmt;
use std::io::{self, BufRead, Write};
use std::time::{Duration, Instant};

use havannah_rules::{Colour, GameState, Move, Outcome, Record, Rules};

use game_harness::gtp::{GtpEngine, count, seconds, shorten};
pub use game_harness::gtp::{PROTOCOL_VERSION, Response};
use game_harness::time::{Clock, TimeControl};
pub use game_harness::time::{PlayerClock, TimeSettings};

use crate::error::ConfigError;
use game_harness::Agent;

/// The commands the session knows, in the order `list_commands` gives them.
pub const COMMANDS: &[&str] = &[
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
    "havannah-winner",
    "havannah-record",
    "havannah-pie",
    "havannah-stats",
];

/// An estimate of the moves the side to move still has to make: half the empty cells, but
/// Havannah games rarely fill the board, so at most `max(10, empty/4)`, and at least 1.
#[must_use]
pub fn estimate_moves_to_go(game: &GameState) -> u32 {
    let empty = (game.board().num_cells() - game.position().num_stones()) as u32;
    let all = empty.div_ceil(2);
    all.min((empty / 4).max(10)).max(1)
}

/// A GTP session: the authoritative game, the player, the clocks.
///
/// `A` is the agent type; the default `dyn Agent` takes any boxed agent.
pub struct GtpSession<A: Agent<GameState> + ?Sized = dyn Agent<GameState>> {
    player: Box<A>,
    game: GameState,
    rules: Rules,
    name: String,
    version: String,
    per_move: Option<Duration>,
    safety_margin: Duration,
    time: TimeControl,
    quit: bool,
    search_log: bool,
}

impl<A: Agent<GameState> + ?Sized> fmt::Debug for GtpSession<A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GtpSession")
            .field("player", &self.player.name())
            .field("moves", &Record::of_game(&self.game).to_line())
            .field("rules", &self.rules)
            .field("per_move", &self.per_move)
            .field("time", &self.time)
            .finish_non_exhaustive()
    }
}

/// The board size a new session starts with.
pub const DEFAULT_SIZE: u8 = 8;

impl<A: Agent<GameState> + ?Sized> GtpSession<A> {
    /// A session on a board of [`DEFAULT_SIZE`] with the pie rule on.
    pub fn new(player: Box<A>) -> GtpSession<A> {
        let rules = Rules::default();
        let game = GameState::new(DEFAULT_SIZE, rules).expect("the default size is valid");
        let mut session = GtpSession {
            player,
            game,
            rules,
            name: "havannah".to_string(),
            version: env!("CARGO_PKG_VERSION").to_string(),
            per_move: None,
            safety_margin: Duration::from_millis(50),
            time: TimeControl::default(),
            quit: false,
            search_log: false,
        };
        session.player.reset(&session.game);
        session
    }

    /// Sets the name `name` answers (default `havannah`).
    #[must_use]
    pub fn with_name(mut self, name: impl Into<String>) -> Self {
        let name: String = name.into();
        self.name = name
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
        self
    }

    /// Sets a fixed time per move passed to the player as [`Clock::per_move`] (the player
    /// uses the tightest of this and the GTP clock).
    #[must_use]
    pub fn with_time_per_move(mut self, per_move: Option<Duration>) -> Self {
        self.per_move = per_move;
        self
    }

    /// Sets the time kept back from the GTP clock for transmission lag (default 50 ms).
    #[must_use]
    pub fn with_safety_margin(mut self, margin: Duration) -> Self {
        self.safety_margin = margin;
        self
    }

    /// Writes the player's [`Agent::search_report`] to standard error after every
    /// `genmove` (default off; the `gtp` example turns it on unless `--quiet`).
    #[must_use]
    pub fn with_search_log(mut self, on: bool) -> Self {
        self.search_log = on;
        self
    }

    /// Sets the rules and starts a new game on the current board size.
    #[must_use]
    pub fn with_rules(mut self, rules: Rules) -> Self {
        self.rules = rules;
        self.new_game(self.game.board().size());
        self
    }

    /// Starts a new game of `size` (with the board size given). Errors name the size.
    ///
    /// # Errors
    /// [`ConfigError::BoardSize`] for an unsupported size.
    pub fn with_size(mut self, size: u8) -> Result<Self, ConfigError> {
        self.set_size(size)?;
        Ok(self)
    }

    /// The authoritative game.
    #[must_use]
    pub fn game(&self) -> &GameState {
        &self.game
    }

    /// The player.
    #[must_use]
    pub fn player(&self) -> &A {
        &self.player
    }

    /// The time settings, if `time_settings` set limits.
    #[must_use]
    pub fn time_settings(&self) -> Option<TimeSettings> {
        self.time.settings()
    }

    /// The clock of a colour as the session tracks it.
    #[must_use]
    pub fn player_clock(&self, colour: Colour) -> PlayerClock {
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
    /// there is byo-yomi) less the safety margin, `moves_to_go` the estimate
    /// [`estimate_moves_to_go`] (plus the period's stones). In byo-yomi: the period's time left
    /// less the margin, and the stones left in it.
    #[must_use]
    pub fn clock_for(&self, colour: Colour) -> Clock {
        self.time.clock_for(
            colour.index(),
            self.per_move,
            self.safety_margin,
            estimate_moves_to_go(&self.game),
        )
    }

    fn new_game(&mut self, size: u8) {
        match GameState::new(size, self.rules) {
            Ok(game) => self.game = game,
            Err(_) => self.game = GameState::on_board(self.game.board(), self.rules),
        }
        self.time.restart();
        self.player.reset(&self.game);
    }

    fn set_size(&mut self, size: u8) -> Result<(), ConfigError> {
        if !(havannah_board::MIN_SIZE..=havannah_board::MAX_SIZE).contains(&size) {
            return Err(ConfigError::BoardSize(size));
        }
        self.new_game(size);
        Ok(())
    }

    /// Handles one line of input; `None` for a line to ignore (empty or a comment).
    pub fn handle(&mut self, line: &str) -> Option<Response> {
        game_harness::gtp::handle(self, line).map(|(response, _)| response)
    }

    /// Reads commands from `input` and writes the replies to `output` until `quit` or the end
    /// of the input. Invalid UTF-8 is replaced, never fatal.
    ///
    /// # Errors
    /// Only errors of reading `input` or writing `output`.
    pub fn run(&mut self, input: impl BufRead, output: impl Write) -> io::Result<()> {
        game_harness::gtp::run(self, input, output)
    }

    fn command(&mut self, command: &str, args: &[&str]) -> Result<String, String> {
        match command {
            "boardsize" => {
                let text = one_arg(args, "boardsize SIZE")?;
                let size: u8 = text
                    .parse()
                    .map_err(|_| format!("unacceptable size {}", shorten(text)))?;
                self.set_size(size)
                    .map(|()| String::new())
                    .map_err(|e| e.to_string())
            }
            "clear_board" => {
                self.new_game(self.game.board().size());
                Ok(String::new())
            }
            "play" => self.play(args),
            "genmove" => self.genmove(args, true),
            "reg_genmove" => self.genmove(args, false),
            "undo" => {
                self.game
                    .undo()
                    .map_err(|_| "cannot undo: no move has been played".to_string())?;
                self.player.reset(&self.game);
                Ok(String::new())
            }
            "showboard" => Ok(self.showboard()),
            "havannah-stats" => self
                .player
                .search_report()
                .ok_or_else(|| "no search yet".to_string()),
            "time_settings" => self.cmd_time_settings(args),
            "time_left" => self.cmd_time_left(args),
            "final_score" => match self.game.outcome() {
                Outcome::Ongoing => Err("the game is not over".to_string()),
                Outcome::Draw => Ok("0".to_string()),
                Outcome::Win { winner, .. } => Ok(match winner {
                    Colour::White => "W+".to_string(),
                    Colour::Black => "B+".to_string(),
                }),
            },
            "havannah-winner" => Ok(match self.game.outcome() {
                Outcome::Ongoing => "none".to_string(),
                Outcome::Draw => "draw".to_string(),
                Outcome::Win { winner, kinds, .. } => format!("{winner} {kinds}"),
            }),
            "havannah-record" => Ok(Record::to_fixture_line(&self.game)),
            "havannah-pie" => {
                if let Some(&arg) = args.first() {
                    let pie = match arg.to_ascii_lowercase().as_str() {
                        "on" | "true" | "1" => true,
                        "off" | "false" | "0" => false,
                        _ => return Err(format!("expected on or off, not {}", shorten(arg))),
                    };
                    if pie != self.rules.pie {
                        self.rules.pie = pie;
                        self.new_game(self.game.board().size());
                    }
                }
                Ok(if self.rules.pie { "on" } else { "off" }.to_string())
            }
            _ => Err(format!("unknown command {}", shorten(command))),
        }
    }

    fn colour_arg(&self, text: &str) -> Result<Colour, String> {
        text.parse::<Colour>().map_err(|_| {
            format!(
                "invalid colour {}: expected w, white, b or black",
                shorten(text)
            )
        })
    }

    fn play(&mut self, args: &[&str]) -> Result<String, String> {
        let [colour, mv] = args else {
            return Err("syntax: play COLOUR MOVE".to_string());
        };
        let colour = self.colour_arg(colour)?;
        let board = self.game.board();
        let parsed = Move::parse(board, mv).map_err(|_| format!("illegal move {}", shorten(mv)))?;
        let name = parsed.to_notation(board);
        if self.game.outcome().is_over() {
            return Err(format!("illegal move {colour} {name}: the game is over"));
        }
        if colour != self.game.to_move() {
            return Err(format!(
                "illegal move {colour} {name}: {} is to move",
                self.game.to_move()
            ));
        }
        self.game
            .play(parsed)
            .map_err(|e| format!("illegal move {colour} {name}: {e}"))?;
        self.player.observe(&self.game, parsed);
        Ok(String::new())
    }

    fn genmove(&mut self, args: &[&str], commit: bool) -> Result<String, String> {
        let [colour] = args else {
            return Err("syntax: genmove COLOUR".to_string());
        };
        let colour = self.colour_arg(colour)?;
        if self.game.outcome().is_over() {
            return Err(format!(
                "the game is over ({})",
                self.game.outcome().result_name()
            ));
        }
        if colour != self.game.to_move() {
            return Err(format!(
                "cannot move for {colour}: {} is to move",
                self.game.to_move()
            ));
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
        let board = self.game.board();
        let mv = chosen.ok_or_else(|| "the player found no move".to_string())?;
        let name = mv.to_notation(board);
        self.game
            .check(mv)
            .map_err(|e| format!("the player chose an illegal move {name}: {e}"))?;
        if commit {
            // Checked just above, so this cannot fail.
            self.game
                .play(mv)
                .map_err(|e| format!("the player chose an illegal move {name}: {e}"))?;
            self.player.observe(&self.game, mv);
        }
        Ok(name)
    }

    fn showboard(&self) -> String {
        let game = &self.game;
        let board = game.board().render(|c| match game.stone(c) {
            Some(Colour::White) => 'W',
            Some(Colour::Black) => 'B',
            None => '.',
        });
        let last = game
            .last_move()
            .map_or_else(|| "none".to_string(), |m| m.to_notation(game.board()));
        let state = match game.outcome() {
            Outcome::Ongoing => format!("{} to move", game.to_move()),
            Outcome::Draw => "draw".to_string(),
            Outcome::Win { winner, kinds, .. } => format!("{winner} wins ({kinds})"),
        };
        format!(
            "\n{board}moves {}, last {last}, {state}, pie {}",
            game.moves().len(),
            if self.rules.pie { "on" } else { "off" }
        )
    }

    fn cmd_time_settings(&mut self, args: &[&str]) -> Result<String, String> {
        let [main, byo, stones] = args else {
            return Err(
                "syntax: time_settings MAIN_TIME BYO_YOMI_TIME BYO_YOMI_STONES".to_string(),
            );
        };
        self.time.set_settings(TimeSettings {
            main_time: seconds(main).map_err(|e| e.to_string())?,
            byo_yomi_time: seconds(byo).map_err(|e| e.to_string())?,
            byo_yomi_stones: count(stones).map_err(|e| e.to_string())?,
        });
        Ok(String::new())
    }

    fn cmd_time_left(&mut self, args: &[&str]) -> Result<String, String> {
        let [colour, time, stones] = args else {
            return Err("syntax: time_left COLOUR TIME STONES".to_string());
        };
        let colour = self.colour_arg(colour)?;
        let time = seconds(time).map_err(|e| e.to_string())?;
        let stones = count(stones).map_err(|e| e.to_string())?;
        self.time.set_left(colour.index(), time, stones);
        Ok(String::new())
    }
}

fn one_arg<'a>(args: &[&'a str], syntax: &str) -> Result<&'a str, String> {
    match args {
        [one] => Ok(one),
        _ => Err(format!("syntax: {syntax}")),
    }
}

impl<A: Agent<GameState> + ?Sized> GtpEngine for GtpSession<A> {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn version(&self) -> String {
        self.version.clone()
    }

    fn commands(&self) -> &[&str] {
        COMMANDS
    }

    fn execute(&mut self, command: &str, args: &[&str]) -> Result<String, String> {
        self.command(command, args)
    }

    fn quit(&mut self) {
        self.quit = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::RandomAgent;

    fn session() -> GtpSession {
        GtpSession::new(Box::new(RandomAgent::new(7)))
    }

    #[test]
    fn clock_for_the_player() {
        let mut s = session()
            .with_time_per_move(Some(Duration::from_secs(2)))
            .with_safety_margin(Duration::from_millis(100));
        assert_eq!(
            s.clock_for(Colour::White),
            Clock::per_move(Duration::from_secs(2))
        );
        assert!(s.handle("time_settings 60 10 5").unwrap().is_success());
        let c = s.clock_for(Colour::White);
        // Main time plus one period, less the margin.
        assert_eq!(c.remaining, Some(Duration::from_millis(69_900)));
        let fresh = GameState::new(DEFAULT_SIZE, Rules::default()).unwrap();
        assert_eq!(c.moves_to_go, Some(estimate_moves_to_go(&fresh) + 5));
        assert!(s.handle("time_left b 7.5 2").unwrap().is_success());
        let c = s.clock_for(Colour::Black);
        assert_eq!(c.remaining, Some(Duration::from_millis(7_400)));
        assert_eq!(c.moves_to_go, Some(2));
        assert_eq!(c.per_move, Some(Duration::from_secs(2)));
        assert!(s.handle("time_settings 0 1 0").unwrap().is_success());
        assert_eq!(s.clock_for(Colour::Black).remaining, None);
        assert!(!s.handle("time_settings -1 0 0").unwrap().is_success());
        assert!(!s.handle("time_left x 1 0").unwrap().is_success());
    }

    #[test]
    fn moves_to_go_estimate() {
        // Size 8: 169 empty cells: min(85, max(10, 42)) = 42.
        let g = GameState::new(8, Rules::default()).unwrap();
        assert_eq!(estimate_moves_to_go(&g), 42);
        // Size 2: 7 cells: min(4, 10) = 4.
        let g = GameState::new(2, Rules::default()).unwrap();
        assert_eq!(estimate_moves_to_go(&g), 4);
    }
}
