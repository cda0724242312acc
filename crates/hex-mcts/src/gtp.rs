//! Hex's GTP engine: `game_harness`'s session over [`Hex`] played by the [`Engine`], plus
//! Hex's own commands ([`HexCommands`]).
//!
//! The session answers the protocol and the standard commands (`boardsize`, `clear_board`,
//! `play`, `genmove`, `reg_genmove`, `undo`, `showboard`, `final_score`, `time_settings`,
//! `time_left`, `stats`); a controller may play a colour twice and ask `genmove` for the colour
//! not to move. Hex adds `boardsize N N` (HexGui's form; square boards only), `hex-param` (list
//! or change the settings) and `hexgui-analyze_commands` (none). Colours are `b`/`w` (or `black`/`white`); moves are `c4`
//! or `swap-pieces`. Bad commands, arguments and moves get a `?` reply.

use game_harness::gtp::{CommandError, GtpExtension, GtpSession, seconds};

use crate::board::HexError;
use crate::engine::{Engine, HexSearch};
use crate::harness::Hex;

/// Hex's own commands, listed after the standard ones.
pub const HEX_COMMANDS: &[&str] = &["hex-param", "hexgui-analyze_commands"];

/// A GTP session of Hex played by the [`Engine`].
pub type HexSession = GtpSession<Hex, Engine>;

/// A session on `game` (normally an empty board) played by `engine`, with Hex's commands;
/// `name` answers `rave-mcts-hex`.
pub fn session(game: Hex, engine: Engine) -> HexSession {
    GtpSession::new(game, Box::new(engine))
        .with_name("rave-mcts-hex")
        .with_version(env!("CARGO_PKG_VERSION"))
        .with_extension(HexCommands)
}

/// Why one of Hex's commands was refused; every message names the bad value.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
enum HexCommandError {
    #[error("board {0}x{1}: only square boards are supported")]
    NotSquare(String, String),
    #[error("usage: hex-param [NAME VALUE]")]
    ParamUsage,
    #[error("unknown parameter `{0}`")]
    UnknownParam(String),
    #[error("{0} `{1}` is not valid: {2}")]
    BadValue(&'static str, String, &'static str),
    #[error("bad setting: {0}")]
    Refused(String),
    #[error(transparent)]
    Hex(#[from] HexError),
}

/// Hex's own commands, added to the session.
pub struct HexCommands;

impl GtpExtension<Hex, Engine> for HexCommands {
    fn commands(&self) -> &[&'static str] {
        HEX_COMMANDS
    }

    fn execute(
        &mut self,
        session: &mut HexSession,
        command: &str,
        args: &[&str],
    ) -> Option<Result<String, CommandError>> {
        let answer = match (command, args) {
            ("boardsize", [n, m]) if n == m => {
                return Some(session.standard_command(command, &args[..1]));
            }
            ("boardsize", [n, m]) => Err(HexCommandError::NotSquare(n.to_string(), m.to_string())),
            ("hexgui-analyze_commands", _) => Ok(String::new()),
            ("hex-param", []) => Ok(listing(session)),
            ("hex-param", [name, value]) => param(session, name, value).map(|()| String::new()),
            ("hex-param", _) => Err(HexCommandError::ParamUsage),
            _ => return None,
        };
        // The one place where Hex's errors become reply texts.
        Some(answer.map_err(|e| CommandError::Failed(e.to_string())))
    }
}

/// `hex-param`: the settings, one a line.
fn listing(session: &HexSession) -> String {
    let s = session.player().setup().settings();
    let on = |b: bool| if b { "on" } else { "off" };
    format!(
        "algorithm {}\nsimulations {}\ntime {}\nthreads {}\nbridge-save {}\nthreats {}\nswap {}",
        s.algorithm.name(),
        s.simulations.unwrap_or(0),
        s.time.map_or(0.0, |t| t.as_secs_f64()),
        s.threads,
        on(s.knowledge.bridge_save),
        on(s.knowledge.prior.threats),
        on(session.game().position().swap_rule()),
    )
}

fn on_off(text: &str) -> Result<bool, HexCommandError> {
    match text.to_ascii_lowercase().as_str() {
        "on" | "true" | "1" | "yes" => Ok(true),
        "off" | "false" | "0" | "no" => Ok(false),
        _ => Err(HexCommandError::BadValue(
            "switch",
            text.to_string(),
            "on or off",
        )),
    }
}

/// `hex-param NAME VALUE`: `simulations N` (0: no limit), `time SECONDS` per move (0: no
/// limit), `threads N`, `algorithm uct|rave|grave`, `bridge-save on|off`, `threats on|off`, `swap on|off`
/// (a new game).
fn param(session: &mut HexSession, name: &str, value: &str) -> Result<(), HexCommandError> {
    let bad = |what, why| HexCommandError::BadValue(what, value.to_string(), why);
    let mut s = session.player().setup().settings();
    match name {
        "simulations" => {
            let n: u64 = value.parse().map_err(|_| bad("simulations", "a number"))?;
            s.simulations = (n > 0).then_some(n);
        }
        "time" => {
            let t = seconds(value).map_err(|_| bad("time", "seconds"))?;
            s.time = (!t.is_zero()).then_some(t);
        }
        "threads" => {
            s.threads = value
                .parse()
                .ok()
                .filter(|n| (1..=256).contains(n))
                .ok_or_else(|| bad("threads", "1 to 256"))?;
        }
        "algorithm" => {
            s.algorithm = clap::ValueEnum::from_str(value, true)
                .map_err(|_: String| bad("algorithm", "uct, rave or grave"))?;
        }
        "bridge-save" => s.knowledge.bridge_save = on_off(value)?,
        "threats" => s.knowledge.prior.threats = on_off(value)?,
        "swap" => {
            let game = Hex::new(session.game().position().size(), on_off(value)?)?;
            session.set_game(game);
            return Ok(());
        }
        _ => return Err(HexCommandError::UnknownParam(name.to_string())),
    }
    let search = HexSearch::new(s).map_err(|e| HexCommandError::Refused(e.to_string()))?;
    *session.player_mut().setup_mut() = search;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::HexMove;
    use crate::engine::{Algorithm, Settings};
    use game_harness::MatchGame;

    fn new_session() -> HexSession {
        let settings = Settings {
            algorithm: Algorithm::Rave,
            simulations: Some(300),
            time: None,
            threads: 1,
            knowledge: connection_kit::Knowledge::default(),
            search: Default::default(),
        };
        let game = Hex::new(5, true).unwrap();
        session(game.clone(), crate::engine::engine(settings, 1).unwrap())
    }

    fn reply(gtp: &mut HexSession, line: &str) -> String {
        gtp.handle(line).expect("a reply").to_string()
    }

    #[test]
    fn basic_commands_and_ids() {
        let mut g = new_session();
        assert_eq!(reply(&mut g, "protocol_version"), "= 2\n\n");
        assert_eq!(reply(&mut g, "12 name"), "=12 rave-mcts-hex\n\n");
        assert_eq!(reply(&mut g, "known_command hex-param"), "= true\n\n");
        assert_eq!(reply(&mut g, "known_command fly"), "= false\n\n");
        let list = reply(&mut g, "list_commands");
        assert!(list.contains("showboard\n") && list.ends_with("hexgui-analyze_commands\n\n"));
        assert_eq!(reply(&mut g, "hexgui-analyze_commands"), "=\n\n");
        assert!(g.handle("   # just a comment").is_none());
        assert_eq!(reply(&mut g, "3\tquit"), "=3\n\n");
        assert!(g.has_quit());
    }

    #[test]
    fn errors_are_replies_not_crashes() {
        let mut g = new_session();
        for bad in [
            "frobnicate",
            "boardsize",
            "boardsize 0",
            "boardsize 20",
            "boardsize 7 9",
            "boardsize x x",
            "play b",
            "play red a1",
            "play b z9",
            "play b f1",
            "play w swap-pieces",
            "genmove purple",
            "undo",
            "final_score",
            "time_settings -1 0 0",
            "hex-param threads 0",
            "hex-param algorithm alphabeta",
            "hex-param colour blue",
            "hex-param simulations -5",
            "hex-param swap maybe",
            "hex-param time",
            "stats",
        ] {
            let r = reply(&mut g, bad);
            assert!(r.starts_with("? ") && r.ends_with("\n\n"), "{bad}: {r:?}");
        }
        assert_eq!(
            reply(&mut g, "boardsize 7 9"),
            "? board 7x9: only square boards are supported\n\n"
        );
        assert_eq!(
            reply(&mut g, "hex-param threads 0"),
            "? threads `0` is not valid: 1 to 256\n\n"
        );
        reply(&mut g, "play b c3");
        assert!(reply(&mut g, "play w c3").starts_with("? illegal move white c3"));
    }

    #[test]
    fn play_twice_swap_undo_and_showboard() {
        let mut g = new_session();
        assert_eq!(reply(&mut g, "play b b1"), "=\n\n");
        assert_eq!(reply(&mut g, "play w swap-pieces"), "=\n\n");
        let board = reply(&mut g, "showboard");
        // The White stone sits on a2, the mirror of b1; b1 is empty again.
        let row2 = board.lines().find(|l| l.trim_start().starts_with("2 "));
        assert!(row2.unwrap().contains("2 O . . . ."), "{board}");
        assert!(board.contains("black to move"));
        assert_eq!(reply(&mut g, "undo"), "=\n\n");
        assert!(reply(&mut g, "showboard").contains("white to move"));
        // Black plays twice: a set-up, then White is to move.
        assert_eq!(reply(&mut g, "play b c3"), "=\n\n");
        assert!(reply(&mut g, "showboard").contains("white to move"));
        assert!(reply(&mut g, "genmove b").starts_with("= "));
        assert_eq!(g.game().moves().len(), 3);
        assert_eq!(reply(&mut g, "boardsize 3 3"), "=\n\n");
        assert!(reply(&mut g, "undo").starts_with("? "));
        assert!(reply(&mut g, "play b d4").starts_with("? "));
    }

    #[test]
    fn genmove_answers_a_legal_move_and_finishes_games() {
        let mut g = new_session();
        reply(&mut g, "boardsize 3");
        reply(&mut g, "hex-param swap off");
        let mut moves = 0;
        while !reply(&mut g, "showboard").contains("has won") {
            let colour = if moves % 2 == 0 { "b" } else { "w" };
            let r = reply(&mut g, &format!("genmove {colour}"));
            assert!(r.starts_with("= "), "{r}");
            assert!(!HexMove::parse(r[2..].trim()).unwrap().is_swap());
            moves += 1;
            assert!(moves <= 9);
        }
        let score = reply(&mut g, "final_score");
        assert!(score == "= B+\n\n" || score == "= W+\n\n");
        assert!(reply(&mut g, "genmove b").starts_with("? the game is over"));
        assert_eq!(reply(&mut g, "clear_board"), "=\n\n");
        assert!(reply(&mut g, "genmove w").starts_with("= "));
    }

    #[test]
    fn stats_reports_the_last_search() {
        let mut g = new_session();
        assert!(reply(&mut g, "stats").starts_with("? no search yet"));
        let mv = reply(&mut g, "genmove b");
        let stats = reply(&mut g, "stats");
        assert!(stats.starts_with("= \nsimulations "), "{stats}");
        // The principal variation starts with the move played.
        let pv = stats.lines().find(|l| l.starts_with("pv ")).unwrap();
        assert_eq!(pv.split(' ').nth(1), Some(mv[2..].trim()), "{stats}");
    }

    #[test]
    fn params_and_clock() {
        let mut g = new_session();
        assert_eq!(reply(&mut g, "hex-param algorithm GRAVE"), "=\n\n");
        assert_eq!(reply(&mut g, "hex-param threads 2"), "=\n\n");
        assert_eq!(reply(&mut g, "hex-param bridge-save on"), "=\n\n");
        assert_eq!(reply(&mut g, "hex-param time 0.5"), "=\n\n");
        let listing = reply(&mut g, "hex-param");
        assert!(listing.contains("algorithm grave") && listing.contains("threads 2"));
        assert!(listing.contains("bridge-save on") && listing.contains("swap on"));
        assert!(listing.contains("time 0.5"), "{listing}");
        assert_eq!(reply(&mut g, "hex-param swap off"), "=\n\n");
        assert!(reply(&mut g, "hex-param").contains("swap off"));
        assert_eq!(reply(&mut g, "time_settings 60 0 0"), "=\n\n");
        assert_eq!(reply(&mut g, "time_left b 10 0"), "=\n\n");
        // 10 s less the 50 ms margin over max(25 / 2, 8) = 12 moves.
        let clock = g.clock_for(game_harness::GtpColour::Black);
        assert_eq!(clock.moves_to_go, Some(12));
        assert!(reply(&mut g, "genmove b").starts_with("= "));
    }
}
