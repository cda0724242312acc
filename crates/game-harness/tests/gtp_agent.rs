//! `GtpAgent` against a real GTP engine in a child process: this test binary itself, started
//! with `--serve`, answers GTP with the generic session over the tiny pile game.
//!
//! The binary has its own `main` (no test harness), so that the child's standard output holds
//! nothing but GTP replies. Every check panics on failure, which fails the test.
//!
//! The child's own commands: `pile-sleep MS` answers after `MS` milliseconds, `pile-answer
//! TEXT` makes every later `genmove` answer `TEXT` without playing, `pile-exit` ends the
//! program without an answer, `pile-colours` lists the colours of every `play` and `genmove`. With `--no-pass` its game refuses `pass`.

mod pile;

use std::io::{self, BufWriter};
use std::time::Duration;

use game_harness::gtp::{CommandError, GtpExtension, GtpGame, GtpSession};
use game_harness::gtp_agent::{DEFAULT_TIMEOUT, GtpAgent};
use game_harness::{Agent, AgentFailure, Clock, GtpError, Launch, MatchGame};
use pile::{Greedy, Pile, Take};

/// The child's extra commands.
struct ChildCommands {
    answer: Option<String>,
    colours: Vec<String>,
}

impl GtpExtension<Pile, Greedy> for ChildCommands {
    fn commands(&self) -> &[&'static str] {
        &["pile-sleep", "pile-answer", "pile-exit", "pile-colours"]
    }

    fn execute(
        &mut self,
        _session: &mut GtpSession<Pile, Greedy>,
        command: &str,
        args: &[&str],
    ) -> Option<Result<String, CommandError>> {
        if let ("play", [colour, _]) | ("genmove", [colour]) = (command, args) {
            self.colours.push(format!("{command} {colour}"));
        }
        match (command, args) {
            ("pile-colours", []) => Some(Ok(self.colours.join(", "))),
            ("pile-sleep", [ms]) => {
                let ms: u64 = ms.parse().unwrap_or(0);
                std::thread::sleep(Duration::from_millis(ms));
                Some(Ok(String::new()))
            }
            ("pile-answer", [text]) => {
                self.answer = Some((*text).to_string());
                Some(Ok(String::new()))
            }
            ("pile-exit", []) => std::process::exit(0),
            ("genmove", _) => self.answer.clone().map(Ok),
            _ => None,
        }
    }
}

/// The child: a GTP engine on standard input and output.
fn serve(passes: bool) {
    let mut session = GtpSession::new(Pile::new(5, passes), Box::new(Greedy::default()))
        .with_name("pile")
        .with_extension(ChildCommands {
            answer: None,
            colours: Vec::new(),
        });
    let stdin = io::stdin();
    session
        .run(stdin.lock(), BufWriter::new(io::stdout().lock()))
        .expect("standard input and output work");
}

/// A `GtpAgent` of this binary as the child, with `args`.
fn child(args: &str, setup: &[&str]) -> GtpAgent<Pile> {
    let exe = std::env::current_exe().expect("the test binary's path");
    let command = format!("exec '{}' --serve {args}", exe.display());
    let setup: Vec<String> = setup.iter().map(|s| (*s).to_string()).collect();
    GtpAgent::start(Launch::shell(command), &setup).expect("the child starts")
}

/// Plays `game` to its end: the agent moves at even plies if `agent_plays_first`, else at odd
/// ones, and a local greedy player at the others; every move is observed by both.
fn play_out(agent: &mut GtpAgent<Pile>, game: &mut Pile, agent_plays_first: bool) {
    let mut local = Greedy::default();
    local.reset(game);
    while game.verdict().is_none() {
        let agents_turn = game.moves().len().is_multiple_of(2) == agent_plays_first;
        let mv = if agents_turn {
            agent.choose(game, &Clock::unlimited())
        } else {
            local.choose(game, &Clock::unlimited())
        };
        let mv = mv.unwrap_or_else(|| panic!("no move: {:?}", agent.failure()));
        game.try_play(mv).expect("a legal move");
        agent.observe(game, mv);
        local.observe(game, mv);
    }
}

fn reset_sends_the_game_and_a_whole_game_is_played() {
    let mut agent = child("", &["time_settings 10 0 0"]);
    assert_eq!(agent.name(), format!("gtp:{}", agent.command()));
    let mut game = Pile::new(9, true);
    game.try_play(Take::Stones(2)).unwrap();
    game.try_play(Take::Pass).unwrap();
    agent.reset(&game);
    assert_eq!(agent.failure(), None);
    assert_eq!(agent.send("name").unwrap(), "pile");
    assert_eq!(agent.send("showboard").unwrap(), "pile 7 of 9");
    play_out(&mut agent, &mut game, true);
    assert_eq!(agent.failure(), None);
    assert_eq!(agent.send("showboard").unwrap(), "pile 0 of 9");
    assert_eq!(agent.send("final_score").ok(), game.final_score());
    // Nothing to choose in a finished game.
    assert_eq!(agent.choose(&game, &Clock::unlimited()), None);
    agent.reset(&Pile::new(4, true));
    assert_eq!(agent.send("showboard").unwrap(), "pile 4 of 4");
    let mut game = Pile::new(4, true);
    play_out(&mut agent, &mut game, false);
    assert_eq!(agent.send("showboard").unwrap(), "pile 0 of 4");
}

fn a_refused_optional_move_is_no_failure_but_other_refusals_are() {
    // The child's game has no passes; the referee's has, and a pass leaves Black to move.
    let mut agent = child("--no-pass", &[]);
    let mut game = Pile::new(6, true);
    agent.reset(&game);
    game.try_play(Take::Pass).unwrap();
    agent.observe(&game, Take::Pass);
    assert_eq!(agent.failure(), None);
    play_out(&mut agent, &mut game, false);
    assert_eq!(agent.failure(), None);
    assert_eq!(agent.send("showboard").unwrap(), "pile 0 of 6");
    // The same, the pass sent again at the next game.
    agent.reset(&Pile {
        size: 6,
        passes: true,
        moves: vec![Take::Pass, Take::Stones(2)],
    });
    assert_eq!(agent.failure(), None);
    assert_eq!(agent.send("showboard").unwrap(), "pile 4 of 6");
    // A refused move that is not optional is a failure naming the command.
    let mut agent = child("", &["boardsize 2"]);
    let mut game = Pile::new(6, true);
    agent.reset(&game);
    for _ in 0..2 {
        game.try_play(Take::Stones(1)).unwrap();
        agent.observe(&game, Take::Stones(1));
    }
    assert_eq!(agent.failure(), None);
    game.try_play(Take::Stones(1)).unwrap();
    agent.observe(&game, Take::Stones(1));
    let failure = agent.failure().expect("a failure").to_string();
    assert!(
        failure.contains("\"play black 1\"") && failure.contains("the game is over"),
        "{failure}"
    );
    assert_eq!(agent.choose(&game, &Clock::unlimited()), None);
    // A bad setup command is a failure too.
    let mut agent = child("", &["bogus"]);
    agent.reset(&Pile::new(3, true));
    let failure = agent.error().expect("a failure").to_string();
    assert!(failure.contains("unknown command bogus"), "{failure}");
}

fn swapped_colours_name_each_side_by_the_other_colour() {
    // Black moves first in the pile game; a swapped agent asks for White's move...
    let mut agent = child("", &[]).with_colours_swapped(true);
    let mut game = Pile::new(3, true);
    agent.reset(&game);
    let _ = agent.choose(&game, &Clock::unlimited());
    assert_eq!(agent.send("pile-colours").unwrap(), "genmove white");
    // ...and tells Black's move as White's, which this child, a standard program, refuses.
    let mut agent = child("", &[]).with_colours_swapped(true);
    agent.reset(&game);
    game.try_play(Take::Stones(1)).unwrap();
    agent.observe(&game, Take::Stones(1));
    let failure = agent.failure().expect("a refusal").to_string();
    assert!(failure.contains("\"play white 1\""), "{failure}");
    // Unswapped, the same move is Black's and accepted.
    let mut agent = child("", &[]);
    agent.reset(&Pile::new(3, true));
    agent.observe(&game, Take::Stones(1));
    assert_eq!(agent.failure(), None);
    assert_eq!(agent.send("pile-colours").unwrap(), "play black");
}

fn resignations_and_bad_answers_are_failures() {
    let mut agent = child("", &[]);
    let game = Pile::new(5, true);
    agent.reset(&game);
    agent.send("pile-answer RESIGN").unwrap();
    assert_eq!(agent.choose(&game, &Clock::unlimited()), None);
    assert_eq!(agent.failure(), Some(AgentFailure::Resigned));
    agent.reset(&game);
    assert_eq!(agent.failure(), None);
    agent.send("pile-answer seven").unwrap();
    assert_eq!(agent.choose(&game, &Clock::unlimited()), None);
    assert_eq!(
        agent.failure(),
        Some(AgentFailure::BadAnswer(
            "genmove answer: no such move seven".into()
        ))
    );
}

fn a_dead_or_hung_program_is_started_again_at_the_next_game() {
    let mut agent = child("", &[]);
    let mut game = Pile::new(5, true);
    agent.reset(&game);
    assert!(matches!(
        agent.send("pile-exit"),
        Err(GtpError::Pipe { .. })
    ));
    assert_eq!(agent.choose(&game, &Clock::unlimited()), None);
    let failure = agent.failure().expect("a failure");
    assert!(
        matches!(&failure, AgentFailure::Program(why) if why.contains("died or hung")),
        "{failure}"
    );
    agent.reset(&game);
    assert_eq!(agent.failure(), None);
    assert_eq!(
        agent.choose(&game, &Clock::unlimited()),
        Some(Take::Stones(2))
    );
    // A hung program is killed after the timeout and started again at the next game.
    let mut agent = child("", &[]).with_timeout(Some(Duration::from_millis(300)));
    agent.reset(&game);
    let error = agent.send("pile-sleep 20000").unwrap_err();
    assert!(matches!(error, GtpError::TimedOut { .. }), "{error}");
    game.try_play(Take::Stones(1)).unwrap();
    agent.observe(&game, Take::Stones(1));
    assert!(agent.failure().is_some());
    agent.reset(&game);
    assert_eq!(agent.failure(), None);
    assert_eq!(agent.send("showboard").unwrap(), "pile 4 of 5");
    assert_eq!(
        agent.choose(&game, &Clock::unlimited()),
        Some(Take::Stones(1))
    );
}

fn a_program_that_cannot_start_is_an_error() {
    let error = GtpAgent::<Pile>::spawn("/nonexistent/gtp-engine --gtp", &[]).unwrap_err();
    assert!(matches!(error, GtpError::Start(_)), "{error}");
    assert!(
        error.to_string().contains("/nonexistent/gtp-engine"),
        "{error}"
    );
    assert_eq!(DEFAULT_TIMEOUT, Duration::from_secs(60));
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.iter().any(|a| a == "--serve") {
        serve(!args.iter().any(|a| a == "--no-pass"));
        return;
    }
    let checks: [(&str, fn()); 6] = [
        (
            "swapped_colours_name_each_side_by_the_other_colour",
            swapped_colours_name_each_side_by_the_other_colour,
        ),
        (
            "reset_sends_the_game_and_a_whole_game_is_played",
            reset_sends_the_game_and_a_whole_game_is_played,
        ),
        (
            "a_refused_optional_move_is_no_failure_but_other_refusals_are",
            a_refused_optional_move_is_no_failure_but_other_refusals_are,
        ),
        (
            "resignations_and_bad_answers_are_failures",
            resignations_and_bad_answers_are_failures,
        ),
        (
            "a_dead_or_hung_program_is_started_again_at_the_next_game",
            a_dead_or_hung_program_is_started_again_at_the_next_game,
        ),
        (
            "a_program_that_cannot_start_is_an_error",
            a_program_that_cannot_start_is_an_error,
        ),
    ];
    for (name, check) in checks {
        check();
        println!("test {name} ... ok");
    }
}
