//! The generic GTP session over a tiny game (a pile of stones): the standard commands, their
//! errors, the clock handed to the player, and a game's extension.

mod pile;

use std::time::Duration;

use game_harness::gtp::{
    ArgumentError, CommandError, GtpColour, GtpExtension, GtpSession, GtpSessionError,
    STANDARD_COMMANDS,
};
use game_harness::{Agent, AgentFailure, Clock, MatchGame};
use pile::{Greedy, Pile, Take};

type Session = GtpSession<Pile, Greedy>;

fn session(size: usize) -> Session {
    GtpSession::new(Pile::new(size, false), Box::new(Greedy::default()))
}

fn reply(s: &mut Session, line: &str) -> String {
    s.handle(line)
        .unwrap_or_else(|| panic!("no reply to {line:?}"))
        .to_string()
}

#[test]
fn the_loop_and_the_names() {
    let mut s = session(5);
    assert_eq!(reply(&mut s, "name"), "= greedy\n\n");
    assert_eq!(
        reply(&mut s, "version"),
        format!("= {}\n\n", env!("CARGO_PKG_VERSION"))
    );
    let mut s = s.with_name("pile\tgame").with_version("3");
    assert_eq!(reply(&mut s, "1 name"), "=1 pile game\n\n");
    assert_eq!(reply(&mut s, "version"), "= 3\n\n");
    let list = reply(&mut s, "list_commands");
    assert_eq!(
        list.trim_start_matches("= ")
            .trim_end()
            .lines()
            .collect::<Vec<_>>(),
        STANDARD_COMMANDS
    );
    assert_eq!(reply(&mut s, "known_command reg_genmove"), "= true\n\n");
    assert_eq!(reply(&mut s, "known_command komi"), "= false\n\n");
    assert_eq!(reply(&mut s, "komi 6.5"), "? unknown command komi\n\n");
    assert!(!s.has_quit());
    assert_eq!(reply(&mut s, "quit"), "=\n\n");
    assert!(s.has_quit());
}

#[test]
fn boardsize_and_clear_board_start_new_games() {
    let mut s = session(5);
    assert_eq!(s.player().resets, 1);
    assert_eq!(
        reply(&mut s, "boardsize 31"),
        "? unacceptable size 31: sizes 1 to 30 are supported\n\n"
    );
    assert_eq!(
        reply(&mut s, "boardsize 300"),
        "? unacceptable size 300\n\n"
    );
    assert_eq!(reply(&mut s, "boardsize x"), "? unacceptable size x\n\n");
    assert_eq!(reply(&mut s, "boardsize"), "? syntax: boardsize SIZE\n\n");
    assert_eq!(
        reply(&mut s, "boardsize 3 3"),
        "? syntax: boardsize SIZE\n\n"
    );
    assert_eq!(s.game().size, 5);
    assert_eq!(reply(&mut s, "play b 2"), "=\n\n");
    assert_eq!(reply(&mut s, "boardsize 7"), "=\n\n");
    assert_eq!((s.game().size, s.game().moves.len()), (7, 0));
    assert_eq!(reply(&mut s, "play b 1"), "=\n\n");
    assert_eq!(reply(&mut s, "clear_board"), "=\n\n");
    assert_eq!((s.game().size, s.game().moves.len()), (7, 0));
    assert_eq!(s.player().resets, 3);
    assert!(matches!(
        s.set_size(0),
        Err(GtpSessionError::BoardSize {
            size: 0,
            min: 1,
            max: 30
        })
    ));
}

#[test]
fn play_checks_colour_turn_and_legality() {
    let mut s = session(4);
    assert_eq!(
        reply(&mut s, "play w 1"),
        "? illegal move white 1: black is to move\n\n"
    );
    assert_eq!(
        reply(&mut s, "play red 1"),
        "? invalid colour red: expected w, white, b or black\n\n"
    );
    assert_eq!(reply(&mut s, "play b 3"), "? illegal move 3\n\n");
    assert_eq!(
        reply(&mut s, "play b pass"),
        "? illegal move black pass: cannot play pass here\n\n"
    );
    assert_eq!(reply(&mut s, "play b"), "? syntax: play COLOUR MOVE\n\n");
    assert_eq!(reply(&mut s, "play B 2"), "=\n\n");
    assert_eq!(reply(&mut s, "play white 2"), "=\n\n");
    assert_eq!(
        reply(&mut s, "play b 1"),
        "? illegal move black 1: the game is over\n\n"
    );
    assert_eq!(s.player().observed, [Take::Stones(2), Take::Stones(2)]);
    assert_eq!(reply(&mut s, "final_score"), "= W+\n\n");
    assert_eq!(reply(&mut s, "showboard"), "= \npile 0 of 4\n\n");
}

#[test]
fn genmove_asks_the_player_and_plays_its_move() {
    let mut s = session(5);
    assert_eq!(
        reply(&mut s, "genmove w"),
        "? cannot move for white: black is to move\n\n"
    );
    assert_eq!(reply(&mut s, "genmove"), "? syntax: genmove COLOUR\n\n");
    assert_eq!(reply(&mut s, "reg_genmove b"), "= 2\n\n");
    assert!(s.game().moves.is_empty());
    assert_eq!(reply(&mut s, "final_score"), "? the game is not over\n\n");
    assert_eq!(reply(&mut s, "genmove b"), "= 2\n\n");
    assert_eq!(reply(&mut s, "play w 1"), "=\n\n");
    assert_eq!(reply(&mut s, "genmove b"), "= 2\n\n");
    assert_eq!(
        s.game().moves,
        [Take::Stones(2), Take::Stones(1), Take::Stones(2)]
    );
    assert_eq!(
        s.player().observed,
        [Take::Stones(2), Take::Stones(1), Take::Stones(2)]
    );
    assert_eq!(reply(&mut s, "genmove w"), "? the game is over (black)\n\n");
    assert_eq!(reply(&mut s, "final_score"), "= B+\n\n");
    assert_eq!(reply(&mut s, "undo"), "=\n\n");
    assert_eq!(reply(&mut s, "showboard"), "= \npile 2 of 5\n\n");
    assert_eq!(reply(&mut s, "undo"), "=\n\n");
    assert_eq!(reply(&mut s, "undo"), "=\n\n");
    assert_eq!(
        reply(&mut s, "undo"),
        "? cannot undo: no move has been played\n\n"
    );
    // The player is reset after every undo and sees the position.
    assert_eq!(s.player().resets, 4);
    assert!(s.player().observed.is_empty());
}

/// An agent that never finds a move and says why.
struct Stuck;

impl Agent<Pile> for Stuck {
    fn name(&self) -> String {
        "stuck".into()
    }
    fn reset(&mut self, _game: &Pile) {}
    fn observe(&mut self, _game: &Pile, _mv: Take) {}
    fn choose(&mut self, _game: &Pile, _clock: &Clock) -> Option<Take> {
        None
    }
    fn failure(&self) -> Option<AgentFailure> {
        Some(AgentFailure::Program("out of ideas".into()))
    }
}

#[test]
fn a_player_without_a_move_gets_an_error_reply() {
    let mut s: GtpSession<Pile> = GtpSession::new(Pile::new(3, false), Box::new(Stuck));
    assert_eq!(
        s.handle("genmove b").unwrap().to_string(),
        "? the player found no move: out of ideas\n\n"
    );
    assert!(s.game().moves().is_empty());
}

#[test]
fn the_clock_reaches_the_player() {
    let mut s = session(20)
        .with_safety_margin(Duration::ZERO)
        .with_time_per_move(Some(Duration::from_secs(3)));
    assert_eq!(reply(&mut s, "genmove b"), "= 2\n\n");
    assert_eq!(reply(&mut s, "time_settings 60 10 2"), "=\n\n");
    assert_eq!(reply(&mut s, "time_left w 30 0"), "=\n\n");
    assert_eq!(reply(&mut s, "genmove w"), "= 1\n\n");
    assert_eq!(reply(&mut s, "time_left b 8 1"), "=\n\n");
    assert_eq!(reply(&mut s, "genmove b"), "= 2\n\n");
    let clocks = &s.player().clocks;
    assert_eq!(clocks[0], Clock::per_move(Duration::from_secs(3)));
    // Main time 30 s plus one period of 10 s, over the game's estimate (18 left: 9 moves)
    // plus the period's 2 stones.
    assert_eq!(clocks[1].remaining, Some(Duration::from_secs(40)));
    assert_eq!(clocks[1].moves_to_go, Some(11));
    assert_eq!(clocks[1].per_move, Some(Duration::from_secs(3)));
    // In byo-yomi: the period's time and stones.
    assert_eq!(clocks[2].remaining, Some(Duration::from_secs(8)));
    assert_eq!(clocks[2].moves_to_go, Some(1));
    assert_eq!(s.time_settings().unwrap().byo_yomi_stones, 2);
    // Black made the stone of its period, which starts again.
    assert_eq!(s.player_clock(GtpColour::Black).stones_left, 2);
    for bad in [
        "time_settings 1 2",
        "time_settings x 1 1",
        "time_left w 5",
        "time_left green 5 0",
        "time_left w -1 0",
    ] {
        assert!(reply(&mut s, bad).starts_with("? "), "{bad}");
    }
    assert_eq!(
        reply(&mut s, "time_left green 5 0"),
        "? invalid colour green: expected w, white, b or black\n\n"
    );
}

/// `pile-left` answers the stones left, `pile-report` the player's report, `pile-passes`
/// allows passes (a new game); `boardsize N N` is accepted for a square board.
struct PileCommands;

impl GtpExtension<Pile, Greedy> for PileCommands {
    fn commands(&self) -> &[&'static str] {
        &["pile-left", "pile-report", "pile-passes"]
    }

    fn execute(
        &mut self,
        session: &mut Session,
        command: &str,
        args: &[&str],
    ) -> Option<Result<String, CommandError>> {
        Some(match (command, args) {
            ("pile-left", []) => Ok(session.game().left().to_string()),
            ("pile-report", []) => session
                .player()
                .search_report()
                .ok_or_else(|| CommandError::Failed("no report".to_string())),
            ("pile-passes", []) => {
                let game = Pile::new(session.game().size, true);
                session.set_game(game);
                Ok(String::new())
            }
            ("boardsize", [n, m]) if n == m => session.standard_command("boardsize", &[n]),
            _ => return None,
        })
    }
}

#[test]
fn an_extension_adds_commands_and_may_answer_standard_ones() {
    let mut s = session(6).with_extension(PileCommands);
    let list = reply(&mut s, "list_commands");
    let names: Vec<&str> = list.trim_start_matches("= ").trim_end().lines().collect();
    assert_eq!(&names[..STANDARD_COMMANDS.len()], STANDARD_COMMANDS);
    assert_eq!(
        &names[STANDARD_COMMANDS.len()..],
        ["pile-left", "pile-report", "pile-passes"]
    );
    assert_eq!(reply(&mut s, "known_command PILE-LEFT"), "= true\n\n");
    assert_eq!(reply(&mut s, "3 pile-left"), "=3 6\n\n");
    assert_eq!(reply(&mut s, "pile-report"), "= chose 0 times\n\n");
    assert_eq!(reply(&mut s, "genmove b"), "= 1\n\n");
    assert_eq!(reply(&mut s, "pile-report"), "= chose 1 times\n\n");
    assert_eq!(
        reply(&mut s, "pile-left x"),
        "? unknown command pile-left\n\n"
    );
    // The extension's form of a standard command, and the standard form still works.
    assert_eq!(reply(&mut s, "boardsize 9 9"), "=\n\n");
    assert_eq!(reply(&mut s, "pile-left"), "= 9\n\n");
    assert_eq!(
        reply(&mut s, "boardsize 9 8"),
        "? syntax: boardsize SIZE\n\n"
    );
    assert_eq!(reply(&mut s, "boardsize 4"), "=\n\n");
    // A game with other rules, through the extension.
    assert_eq!(
        reply(&mut s, "play b pass"),
        "? illegal move black pass: cannot play pass here\n\n"
    );
    assert_eq!(reply(&mut s, "pile-passes"), "=\n\n");
    assert_eq!(reply(&mut s, "play b pass"), "=\n\n");
    assert_eq!(reply(&mut s, "pile-left"), "= 4\n\n");
    assert!(format!("{s:?}").contains("pile-left"));
}

/// The error of the reply to `line`.
fn error(s: &mut Session, line: &str) -> CommandError {
    match s.handle(line).map(|r| r.result) {
        Some(Err(e)) => e,
        other => panic!("{line:?} did not fail: {other:?}"),
    }
}

#[test]
fn failures_are_typed_and_their_messages_are_the_replies() {
    let mut s = session(5);
    assert_eq!(error(&mut s, "fly"), CommandError::unknown("fly"));
    assert_eq!(error(&mut s, "7"), CommandError::MissingCommand);
    assert_eq!(error(&mut s, "undo"), CommandError::NothingToUndo);
    assert_eq!(error(&mut s, "final_score"), CommandError::NotOver);
    assert_eq!(
        error(&mut s, "play b"),
        CommandError::syntax("play COLOUR MOVE")
    );
    assert_eq!(
        error(&mut s, "boardsize 31"),
        CommandError::BoardSize {
            size: 31,
            min: 1,
            max: 30
        }
    );
    assert!(matches!(
        error(&mut s, "play red 1"),
        CommandError::Argument(ArgumentError::NotColour { text }) if text == "red"
    ));
    assert!(matches!(
        error(&mut s, "time_left b x 0"),
        CommandError::Argument(ArgumentError::NotSeconds { text }) if text == "x"
    ));
    assert_eq!(
        error(&mut s, "play w 1"),
        CommandError::IllegalMove {
            colour: GtpColour::White,
            mv: "1".into(),
            reason: "black is to move".into()
        }
    );
    assert_eq!(
        error(&mut s, "genmove w"),
        CommandError::OutOfTurn {
            colour: GtpColour::White,
            to_move: GtpColour::Black
        }
    );
    // What the extension leaves to the session fails as a standard command does.
    let mut s = session(5).with_extension(PileCommands);
    assert_eq!(
        error(&mut s, "pile-left 3"),
        CommandError::unknown("pile-left")
    );
    let e = error(&mut s, "boardsize 40 40");
    assert_eq!(
        format!("? {e}\n\n"),
        reply(&mut s, "boardsize 40 40"),
        "the message is the reply"
    );
}
