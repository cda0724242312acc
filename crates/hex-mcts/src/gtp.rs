//! A GTP engine for Hex, with the commands HexGui and match tools send.
//!
//! The protocol (ids, `=`/`?` replies, comments, `list_commands`, `known_command`, `quit`, the
//! end of input) is the generic loop of [`game_harness::gtp`], and the clock is
//! [`game_harness::time`]'s; this module holds the Hex commands. Colours are `b`/`w` (or
//! `black`/`white`); moves are `c4` or `swap-pieces`. Bad commands, arguments and moves get a
//! `?` reply; nothing a controller sends ends the engine except `quit` or the end of input.

use std::io::{self, BufRead, Write};
use std::time::Duration;

use game_harness::gtp::{GtpEngine, count, seconds};
use game_harness::time::{TimeControl, TimeSettings};

use crate::board::{Colour, HexError, HexMove, MAX_SIZE};
use crate::engine::{Algorithm, Engine, Settings};
use crate::game::HexGame;

/// The commands answered, as `list_commands` prints them.
pub const COMMANDS: &[&str] = &[
    "boardsize",
    "clear_board",
    "final_score",
    "genmove",
    "hex-param",
    "hex-stats",
    "hexgui-analyze_commands",
    "known_command",
    "list_commands",
    "name",
    "play",
    "protocol_version",
    "quit",
    "showboard",
    "time_left",
    "time_settings",
    "undo",
    "version",
];

/// The GTP clock (`time_settings` and `time_left`, kept by the harness) and how Hex spends it.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
struct Clock {
    control: TimeControl,
}

impl Clock {
    /// The time the engine may spend on this move, if the clock limits it: the time left spread
    /// over half the empty cells (at least 8 moves), plus one byo-yomi period over its stones in
    /// main time, or the byo-yomi period over its stones, less 10% and 50 ms for the
    /// controller's overhead.
    fn cap(&self, colour: Colour, empty_cells: usize) -> Option<Duration> {
        let settings = self.control.settings()?;
        if settings.main_time.is_zero() && settings.byo_yomi_time.is_zero() {
            return None;
        }
        let moves = u32::try_from((empty_cells / 2).max(8)).unwrap_or(u32::MAX);
        let allowance = self
            .control
            .clock_for(colour.index(), None, Duration::ZERO, moves)
            .allowance()?;
        Some(Duration::from_secs_f64(
            (allowance.as_secs_f64() * 0.9 - 0.05).max(0.01),
        ))
    }
}

/// One GTP session: the game, its history (for `undo`) and the engine.
pub struct Gtp {
    start: HexGame,
    game: HexGame,
    history: Vec<(Colour, HexMove)>,
    engine: Engine,
    clock: Clock,
    /// The statistics of the last `genmove`'s search (`hex-stats`).
    last_search: Option<String>,
    /// Whether `genmove` writes its statistics to standard error.
    search_log: bool,
}

/// An error unless `command` has at least `n` arguments.
fn need(command: &str, args: &[&str], n: usize) -> Result<(), String> {
    if args.len() < n {
        Err(format!("{command} needs {n} argument(s)"))
    } else {
        Ok(())
    }
}

fn parse_number<T: std::str::FromStr>(text: &str, what: &str) -> Result<T, String> {
    text.parse()
        .map_err(|_| format!("{what} `{text}` is not a valid number"))
}

fn on_off(text: &str) -> Result<bool, String> {
    match text.to_ascii_lowercase().as_str() {
        "on" | "true" | "1" | "yes" => Ok(true),
        "off" | "false" | "0" | "no" => Ok(false),
        _ => Err(format!("`{text}` is not on or off")),
    }
}

impl Gtp {
    /// A session on an empty board of `size`, with or without the swap rule.
    pub fn new(size: usize, swap: bool, settings: Settings, seed: u64) -> Result<Gtp, String> {
        let start = HexGame::new(size, swap).map_err(|e| e.to_string())?;
        let engine = Engine::new(&start, settings, seed).map_err(|e| e.to_string())?;
        Ok(Gtp {
            game: start.clone(),
            start,
            history: Vec::new(),
            engine,
            clock: Clock::default(),
            last_search: None,
            search_log: false,
        })
    }

    /// Writes each `genmove`'s search statistics to standard error (off by default): the
    /// simulations and their rate, the time, the win rate or proof, the principal variation,
    /// the tree's size and depth, why the search stopped. `hex-stats` returns the same.
    #[must_use]
    pub fn with_search_log(mut self, on: bool) -> Gtp {
        self.search_log = on;
        self
    }

    /// Answers one input line: `None` for a line to ignore, else the reply (with its trailing
    /// empty line) and whether the session ends.
    pub fn handle_line(&mut self, line: &str) -> Option<(String, bool)> {
        game_harness::gtp::handle(self, line).map(|(reply, quit)| (reply.to_string(), quit))
    }

    fn command(&mut self, command: &str, args: &[&str]) -> Result<String, String> {
        let want = |n: usize| need(command, args, n);
        match command {
            "hexgui-analyze_commands" => Ok(String::new()),
            "boardsize" => want(1).and_then(|()| self.boardsize(args)),
            "clear_board" => {
                self.clear();
                Ok(String::new())
            }
            "play" => want(2).and_then(|()| self.play(args)),
            "genmove" => want(1).and_then(|()| self.genmove(args)),
            "undo" => {
                if self.history.pop().is_none() {
                    return Err("cannot undo: no move played".into());
                }
                self.replay();
                Ok(String::new())
            }
            "showboard" => Ok(format!("\n{}", self.game.render())),
            "final_score" => match self.game.winner() {
                Some(Colour::Black) => Ok("B+".into()),
                Some(Colour::White) => Ok("W+".into()),
                None => Err("the game is not over".into()),
            },
            "time_settings" => want(3).and_then(|()| self.time_settings(args)),
            "time_left" => want(3).and_then(|()| self.time_left(args)),
            "hex-param" => self.param(args),
            "hex-stats" => self
                .last_search
                .clone()
                .map(|stats| format!("\n{stats}"))
                .ok_or_else(|| "no search yet: send genmove first".to_string()),
            _ => Err(format!("unknown command `{command}`")),
        }
    }

    /// `boardsize N [N]`: a new empty board of that size (square boards only).
    fn boardsize(&mut self, args: &[&str]) -> Result<String, String> {
        let n: usize = parse_number(args[0], "board size")?;
        if let Some(m) = args.get(1) {
            let m: usize = parse_number(m, "board size")?;
            if m != n {
                return Err(format!("board {n}x{m}: only square boards are supported"));
            }
        }
        if !(1..=MAX_SIZE).contains(&n) {
            return Err(format!("unacceptable size {n}: sizes are 1 to {MAX_SIZE}"));
        }
        self.start = HexGame::new(n, self.start.swap_rule()).map_err(|e| e.to_string())?;
        self.clear();
        Ok(String::new())
    }

    /// `play COLOUR MOVE`.
    fn play(&mut self, args: &[&str]) -> Result<String, String> {
        let colour = Colour::parse(args[0]).map_err(|e| e.to_string())?;
        let mv = self.read_move(args[1])?;
        self.game
            .try_play_as(colour, mv)
            .map_err(|e| format!("illegal move: {e}"))?;
        self.history.push((colour, mv));
        Ok(String::new())
    }

    /// `genmove COLOUR`: the engine's move within the clock's cap, played.
    fn genmove(&mut self, args: &[&str]) -> Result<String, String> {
        let colour = Colour::parse(args[0]).map_err(|e| e.to_string())?;
        if let Some(w) = self.game.winner() {
            return Err(format!("the game is over: {w} has won"));
        }
        if colour != self.game.colour_to_move() {
            // GTP lets a colour move out of turn: start the position over with that colour
            // to move (the engine's tree is rebuilt).
            self.game.set_to_move(colour);
        }
        let empties = self.game.stones().iter().filter(|&&s| s == 0).count();
        let cap = self.clock.cap(colour, empties);
        let result = self
            .engine
            .search(&self.start, &self.history, &self.game, cap)
            .map_err(|e| format!("search failed: {e}"))?;
        let stats = result.report(ToString::to_string);
        if self.search_log {
            eprintln!("{stats}");
        }
        self.last_search = Some(stats);
        let mv = result.best_move;
        self.game
            .try_play_as(colour, mv)
            .map_err(|e| format!("engine chose an illegal move: {e}"))?;
        self.history.push((colour, mv));
        Ok(mv.to_string())
    }

    /// `time_settings MAIN BYO_YOMI_TIME BYO_YOMI_STONES`.
    fn time_settings(&mut self, args: &[&str]) -> Result<String, String> {
        self.clock.control.set_settings(TimeSettings {
            main_time: seconds(args[0]).map_err(|e| e.to_string())?,
            byo_yomi_time: seconds(args[1]).map_err(|e| e.to_string())?,
            byo_yomi_stones: count(args[2]).map_err(|e| e.to_string())?,
        });
        Ok(String::new())
    }

    /// `time_left COLOUR SECONDS STONES`.
    fn time_left(&mut self, args: &[&str]) -> Result<String, String> {
        let colour = Colour::parse(args[0]).map_err(|e| e.to_string())?;
        let left = seconds(args[1]).map_err(|e| e.to_string())?;
        let stones = count(args[2]).map_err(|e| e.to_string())?;
        self.clock.control.set_left(colour.index(), left, stones);
        Ok(String::new())
    }

    /// `hex-param` lists the settings; `hex-param NAME VALUE` changes one: `simulations N`
    /// (0: no limit), `time SECONDS` per move (0: no limit), `threads N`,
    /// `algorithm uct|rave|grave`, `bridge-save on|off`, `swap on|off` (clears the board).
    fn param(&mut self, args: &[&str]) -> Result<String, String> {
        let mut s = self.engine.settings();
        if args.is_empty() {
            return Ok(format!(
                "algorithm {}\nsimulations {}\ntime {}\nthreads {}\nbridge-save {}\nswap {}",
                s.algorithm.name(),
                s.simulations.unwrap_or(0),
                s.time.map_or(0.0, |t| t.as_secs_f64()),
                s.threads,
                if s.bridge_save { "on" } else { "off" },
                if self.start.swap_rule() { "on" } else { "off" },
            ));
        }
        let [name, value] = args else {
            return Err("usage: hex-param [NAME VALUE]".into());
        };
        match *name {
            "simulations" => {
                let n: u64 = parse_number(value, "simulations")?;
                s.simulations = (n > 0).then_some(n);
            }
            "time" => {
                let t = seconds(value).map_err(|e| e.to_string())?;
                s.time = (!t.is_zero()).then_some(t);
            }
            "threads" => {
                let n: usize = parse_number(value, "threads")?;
                if !(1..=256).contains(&n) {
                    return Err(format!("threads {n}: use 1 to 256"));
                }
                s.threads = n;
            }
            "algorithm" => {
                s.algorithm = match value.to_ascii_lowercase().as_str() {
                    "uct" => Algorithm::Uct,
                    "rave" => Algorithm::Rave,
                    "grave" => Algorithm::Grave,
                    _ => return Err(format!("unknown algorithm `{value}`: uct, rave or grave")),
                };
            }
            "bridge-save" => s.bridge_save = on_off(value)?,
            "swap" => {
                let swap = on_off(value)?;
                self.start = HexGame::new(self.start.size(), swap).map_err(|e| e.to_string())?;
                self.clear();
                return Ok(String::new());
            }
            _ => return Err(format!("unknown parameter `{name}`")),
        }
        self.engine
            .set_settings(s)
            .map_err(|e| format!("bad setting: {e}"))?;
        Ok(String::new())
    }

    fn read_move(&self, text: &str) -> Result<HexMove, String> {
        let mv = HexMove::parse(text).map_err(|e| e.to_string())?;
        if !mv.is_swap() {
            self.game
                .geometry()
                .index(mv)
                .map_err(|e: HexError| e.to_string())?;
        }
        Ok(mv)
    }

    fn clear(&mut self) {
        self.game = self.start.clone();
        self.history.clear();
    }

    /// Rebuilds the game from the start and the history (after `undo`).
    fn replay(&mut self) {
        let mut game = self.start.clone();
        let mut kept = Vec::with_capacity(self.history.len());
        for &(colour, mv) in &self.history {
            if game.try_play_as(colour, mv).is_err() {
                break;
            }
            kept.push((colour, mv));
        }
        self.game = game;
        self.history = kept;
    }
}

/// Runs a session on `input` until `quit` or the end of input (the harness's GTP loop).
pub fn run(gtp: &mut Gtp, input: impl BufRead, output: impl Write) -> io::Result<()> {
    game_harness::gtp::run(gtp, input, output)
}

impl GtpEngine for Gtp {
    fn name(&self) -> String {
        "rave-mcts-hex".into()
    }

    fn version(&self) -> String {
        env!("CARGO_PKG_VERSION").into()
    }

    fn commands(&self) -> &[&str] {
        COMMANDS
    }

    fn execute(
        &mut self,
        command: &str,
        args: &[&str],
    ) -> Result<String, game_harness::gtp::CommandError> {
        self.command(command, args)
            .map_err(game_harness::gtp::CommandError::Failed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session() -> Gtp {
        let settings = Settings {
            algorithm: Algorithm::Rave,
            simulations: Some(300),
            time: None,
            threads: 1,
            bridge_save: false,
        };
        Gtp::new(5, true, settings, 1).unwrap()
    }

    fn reply(gtp: &mut Gtp, line: &str) -> String {
        gtp.handle_line(line).expect("a reply").0
    }

    #[test]
    fn basic_commands_and_ids() {
        let mut g = session();
        assert_eq!(reply(&mut g, "protocol_version"), "= 2\n\n");
        assert_eq!(reply(&mut g, "12 name"), "=12 rave-mcts-hex\n\n");
        assert_eq!(reply(&mut g, "known_command genmove"), "= true\n\n");
        assert_eq!(reply(&mut g, "known_command fly"), "= false\n\n");
        assert!(reply(&mut g, "list_commands").contains("showboard"));
        assert!(g.handle_line("").is_none());
        assert!(g.handle_line("   # just a comment").is_none());
        assert_eq!(
            reply(&mut g, "name # trailing comment"),
            "= rave-mcts-hex\n\n"
        );
        assert_eq!(reply(&mut g, "3\tquit"), "=3\n\n");
        assert!(g.handle_line("quit").unwrap().1);
    }

    #[test]
    fn errors_are_replies_not_crashes() {
        let mut g = session();
        for bad in [
            "frobnicate",
            "boardsize",
            "boardsize 0",
            "boardsize 20",
            "boardsize 7 9",
            "boardsize x",
            "play",
            "play b",
            "play red a1",
            "play b z9",
            "play b f1",
            "play b 1a",
            "play w swap-pieces",
            "genmove purple",
            "undo",
            "final_score",
            "time_settings 1 2",
            "time_settings -1 0 0",
            "time_left b x 0",
            "hex-param threads 0",
            "hex-param algorithm alphabeta",
            "hex-param colour blue",
            "hex-param simulations -5",
        ] {
            let r = reply(&mut g, bad);
            assert!(r.starts_with("? ") && r.ends_with("\n\n"), "{bad}: {r:?}");
        }
        assert_eq!(
            reply(&mut g, "7 frobnicate"),
            "?7 unknown command `frobnicate`\n\n"
        );
        reply(&mut g, "play b c3");
        assert!(reply(&mut g, "play w c3").starts_with("? illegal move"));
    }

    #[test]
    fn play_swap_undo_and_showboard() {
        let mut g = session();
        assert_eq!(reply(&mut g, "play b b1"), "=\n\n");
        assert_eq!(reply(&mut g, "play w swap-pieces"), "=\n\n");
        let board = reply(&mut g, "showboard");
        // The White stone sits on a2, the mirror of b1; b1 is empty again.
        let row2 = board
            .lines()
            .find(|l| l.trim_start().starts_with("2 "))
            .unwrap();
        assert!(row2.contains("2 O . . . ."), "{board}");
        assert!(board.contains("black to move"));
        assert_eq!(reply(&mut g, "undo"), "=\n\n");
        assert!(reply(&mut g, "showboard").contains("white to move"));
        assert_eq!(reply(&mut g, "undo"), "=\n\n");
        assert!(reply(&mut g, "undo").starts_with("? "));
        assert_eq!(reply(&mut g, "boardsize 3 3"), "=\n\n");
        assert!(reply(&mut g, "play b d4").starts_with("? "));
    }

    #[test]
    fn genmove_answers_a_legal_move_and_finishes_games() {
        let mut g = session();
        reply(&mut g, "boardsize 3");
        reply(&mut g, "hex-param swap off");
        let mut moves = 0;
        while !reply(&mut g, "showboard").contains("has won") {
            let colour = if moves % 2 == 0 { "b" } else { "w" };
            let r = reply(&mut g, &format!("genmove {colour}"));
            assert!(r.starts_with("= "), "{r}");
            let mv = HexMove::parse(r[2..].trim()).unwrap();
            assert!(!mv.is_swap());
            moves += 1;
            assert!(moves <= 9);
        }
        // With perfect play Black wins 3x3; the engine at least ends the game with a winner.
        let score = reply(&mut g, "final_score");
        assert!(score == "= B+\n\n" || score == "= W+\n\n");
        assert!(reply(&mut g, "genmove b").starts_with("? the game is over"));
        assert_eq!(reply(&mut g, "clear_board"), "=\n\n");
        assert!(reply(&mut g, "genmove w").starts_with("= "));
    }

    #[test]
    fn hex_stats_reports_the_last_search() {
        let mut g = session();
        reply(&mut g, "boardsize 5");
        assert!(reply(&mut g, "hex-stats").starts_with("? no search yet"));
        let mv = reply(&mut g, "genmove b");
        let stats = reply(&mut g, "hex-stats");
        assert!(stats.starts_with("= \nsimulations "), "{stats}");
        // The principal variation starts with the move played.
        let pv = stats.lines().find(|l| l.starts_with("pv ")).unwrap();
        assert_eq!(pv.split(' ').nth(1), Some(mv[2..].trim()), "{stats}");
        assert!(stats.contains("nodes, depth"), "{stats}");
    }

    #[test]
    fn params_and_clock() {
        let mut g = session();
        assert_eq!(reply(&mut g, "hex-param algorithm grave"), "=\n\n");
        assert_eq!(reply(&mut g, "hex-param threads 2"), "=\n\n");
        assert_eq!(reply(&mut g, "hex-param bridge-save on"), "=\n\n");
        let listing = reply(&mut g, "hex-param");
        assert!(listing.contains("algorithm grave") && listing.contains("threads 2"));
        assert!(listing.contains("bridge-save on") && listing.contains("swap on"));
        assert_eq!(reply(&mut g, "time_settings 60 0 0"), "=\n\n");
        assert_eq!(reply(&mut g, "time_left b 10 0"), "=\n\n");
        let cap = g.clock.cap(Colour::Black, 24).unwrap();
        // 10 s over max(12, 8) moves, less 10% and 50 ms.
        assert!((cap.as_secs_f64() - (10.0 / 12.0 * 0.9 - 0.05)).abs() < 1e-9);
        assert_eq!(reply(&mut g, "time_settings 0 0 0"), "=\n\n");
        assert_eq!(g.clock.cap(Colour::Black, 24), None);
        assert!(reply(&mut g, "genmove b").starts_with("= "));
    }

    #[test]
    fn run_loop_stops_at_quit() {
        let mut g = session();
        let input = b"1 name\n\n# c\nquit\nname\n";
        let mut out = Vec::new();
        run(&mut g, &input[..], &mut out).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), "=1 rave-mcts-hex\n\n=\n\n");
    }
}
