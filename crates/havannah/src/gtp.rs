//! Havannah's GTP (Go Text Protocol, version 2) engine: the harness's generic
//! [`GtpSession`] over [`GameState`], played by any [`Agent`], with Havannah's own commands.
//!
//! The session owns the authoritative [`GameState`] (pie rule on by default, as LittleGolem and
//! HavannahGui play), checks every move, tells the player about every move and asks it for
//! moves on `genmove`. It never panics on input: every bad command or argument is answered with
//! `? message`.
//!
//! The protocol itself (ids, `=`/`?` replies ending with an empty line, comments, control
//! characters, case-insensitive command names, `list_commands`, `known_command`, `quit`, end of
//! input) is the loop of [`game_harness::gtp`], the standard commands are [`GtpSession`]'s,
//! and the clocks are [`game_harness::time`]'s; this module adds Havannah's commands
//! ([`HavannahCommands`]) and the session's Havannah defaults ([`session`]).
//!
//! Commands: `protocol_version`, `name`, `version`, `known_command`, `list_commands`, `quit`,
//! `boardsize N` (2 to 13; clears the board), `clear_board`, `play COLOUR MOVE`, `genmove COLOUR`,
//! `reg_genmove COLOUR`, `undo`, `showboard`, `time_settings MAIN BYO_TIME BYO_STONES`,
//! `time_left COLOUR TIME STONES`, `final_score`, and the Havannah-specific `havannah-winner`,
//! `havannah-record` and `havannah-pie [on|off]`; the harness's `stats` gives the last search's
//! statistics.
//!
//! `play` and `genmove` must name the side to move: a controller that sends a move out of turn
//! gets an error naming the move and the side to move, and the game is unchanged. `swap` is
//! played by Black as the second move; the swapped stone stays White and Black moves next, so
//! after `play b swap` the next move is Black's again (see [`havannah_rules::Move::Swap`]).
//!
//! ```
//! use havannah::RandomAgent;
//! use havannah::gtp::session;
//!
//! let mut gtp = session(Box::new(RandomAgent::new(1)));
//! assert_eq!(gtp.handle("1 boardsize 4").unwrap().to_string(), "=1\n\n");
//! assert_eq!(gtp.handle("play w d4").unwrap().to_string(), "=\n\n");
//! assert!(gtp.handle("play w c3").unwrap().to_string().starts_with("? "));
//! let reply = gtp.handle("genmove b").unwrap();
//! assert!(reply.is_success());
//! assert_eq!(gtp.game().moves().len(), 2);
//! assert!(gtp.handle("# a comment").is_none());
//! ```

use game_harness::gtp::{CommandError, GtpExtension, GtpGame, switch};
pub use game_harness::gtp::{GtpSession, PROTOCOL_VERSION, Response};
pub use game_harness::time::{PlayerClock, TimeSettings};
use havannah_rules::{GameState, Outcome, Record, Rules};

use game_harness::Agent;

/// Havannah's own commands, which `list_commands` gives after the harness's
/// [`STANDARD_COMMANDS`](game_harness::gtp::STANDARD_COMMANDS) ([`HavannahCommands`] answers
/// them).
pub const HAVANNAH_COMMANDS: &[&str] = &["havannah-winner", "havannah-record", "havannah-pie"];

/// The board size a new session starts with.
pub const DEFAULT_SIZE: u8 = 8;

/// A Havannah GTP session played by any boxed [`Agent`], as [`session`] makes it.
pub type HavannahSession = GtpSession<GameState, dyn Agent<GameState>>;

/// An estimate of the moves the side to move still has to make: half the empty cells, but
/// Havannah games rarely fill the board, so at most `max(10, empty/4)`, and at least 1
/// (Havannah's [`GtpGame::moves_to_go`]).
#[must_use]
pub fn estimate_moves_to_go(game: &GameState) -> u32 {
    game.moves_to_go()
}

/// A Havannah session played by `player`: a board of [`DEFAULT_SIZE`] with the pie rule on,
/// named `havannah` with this crate's version, with [`HavannahCommands`].
pub fn session(player: Box<dyn Agent<GameState>>) -> HavannahSession {
    let game = GameState::new(DEFAULT_SIZE, Rules::default()).expect("the default size is valid");
    GtpSession::new(game, player)
        .with_name("havannah")
        .with_version(env!("CARGO_PKG_VERSION"))
        .with_extension(HavannahCommands)
}

/// Sets the rules and starts a new game on the current board size.
pub fn set_rules<A>(session: &mut GtpSession<GameState, A>, rules: Rules)
where
    A: Agent<GameState> + ?Sized,
{
    let game = GameState::on_board(session.game().board(), rules);
    session.set_game(game);
}

/// Havannah's own GTP commands, after the standard ones: `havannah-winner` (`none`, `draw`, or
/// the winner and the figures), `havannah-record` (the game as a record line)
/// and `havannah-pie [on|off]` (the pie rule; changing it starts a new game).
#[derive(Debug, Clone, Copy, Default)]
pub struct HavannahCommands;

impl<A> GtpExtension<GameState, A> for HavannahCommands
where
    A: Agent<GameState> + ?Sized,
{
    fn commands(&self) -> &[&'static str] {
        HAVANNAH_COMMANDS
    }

    fn execute(
        &mut self,
        session: &mut GtpSession<GameState, A>,
        command: &str,
        args: &[&str],
    ) -> Option<Result<String, CommandError>> {
        Some(match command {
            "havannah-winner" => Ok(match session.game().outcome() {
                Outcome::Ongoing => "none".to_string(),
                Outcome::Draw => "draw".to_string(),
                Outcome::Win { winner, kinds, .. } => format!("{winner} {kinds}"),
            }),
            "havannah-record" => Ok(Record::to_fixture_line(session.game())),
            "havannah-pie" => pie(session, args),
            _ => return None,
        })
    }
}

/// `havannah-pie [on|off]`: the pie rule, switched first if an argument is given.
fn pie<A>(session: &mut GtpSession<GameState, A>, args: &[&str]) -> Result<String, CommandError>
where
    A: Agent<GameState> + ?Sized,
{
    if let Some(&arg) = args.first() {
        let pie = switch(arg)?;
        if pie != session.game().rules().pie {
            set_rules(session, Rules { pie });
        }
    }
    Ok(if session.game().rules().pie {
        "on"
    } else {
        "off"
    }
    .to_string())
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use game_harness::Clock;
    use game_harness::gtp::GtpColour;
    use game_harness::gtp::STANDARD_COMMANDS;

    use super::*;
    use crate::RandomAgent;

    fn random() -> HavannahSession {
        session(Box::new(RandomAgent::new(7)))
    }

    #[test]
    fn havannah_commands_follow_the_standard_ones() {
        assert!(
            HAVANNAH_COMMANDS
                .iter()
                .all(|c| !STANDARD_COMMANDS.contains(c))
        );
        let extra = GtpExtension::<GameState, dyn Agent<GameState>>::commands(&HavannahCommands);
        assert_eq!(
            extra,
            ["havannah-winner", "havannah-record", "havannah-pie"]
        );
    }

    #[test]
    fn clock_for_the_player() {
        let mut s = random()
            .with_time_per_move(Some(Duration::from_secs(2)))
            .with_safety_margin(Duration::from_millis(100));
        assert_eq!(
            s.clock_for(GtpColour::White),
            Clock::per_move(Duration::from_secs(2))
        );
        assert!(s.handle("time_settings 60 10 5").unwrap().is_success());
        let c = s.clock_for(GtpColour::White);
        // Main time plus one period, less the margin.
        assert_eq!(c.remaining, Some(Duration::from_millis(69_900)));
        let fresh = GameState::new(DEFAULT_SIZE, Rules::default()).unwrap();
        assert_eq!(c.moves_to_go, Some(estimate_moves_to_go(&fresh) + 5));
        assert!(s.handle("time_left b 7.5 2").unwrap().is_success());
        let c = s.clock_for(GtpColour::Black);
        assert_eq!(c.remaining, Some(Duration::from_millis(7_400)));
        assert_eq!(c.moves_to_go, Some(2));
        assert_eq!(c.per_move, Some(Duration::from_secs(2)));
        assert!(s.handle("time_settings 0 1 0").unwrap().is_success());
        assert_eq!(s.clock_for(GtpColour::Black).remaining, None);
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

    #[test]
    fn set_rules_starts_a_new_game_on_the_same_board() {
        let mut s = random();
        assert!(s.handle("boardsize 5").unwrap().is_success());
        assert!(s.handle("play w a1").unwrap().is_success());
        set_rules(&mut s, Rules { pie: false });
        assert!(s.game().moves().is_empty());
        assert_eq!((s.game().board().size(), s.game().rules().pie), (5, false));
    }
}
