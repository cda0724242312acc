//! The Hex GTP session, as the `hex_gtp` fuzz target drives it, checked on stable with
//! proptest: arbitrary bytes and random command sequences, answered by the engine with 16
//! simulations a move. Every command gets one well-formed reply (`=` or `?`, ended by an
//! empty line), and only `quit` ends the session.

use game_harness::gtp::{is_one_response, too_slow_to_fuzz};
use hex_mcts::engine::{Algorithm, Settings};
use hex_mcts::gtp::{HexSession, session};
use hex_mcts::harness::Hex;
use proptest::prelude::*;
use proptest::test_runner::RngSeed;

fn new_session() -> HexSession {
    let settings = Settings {
        algorithm: Algorithm::Rave,
        simulations: Some(16),
        time: None,
        threads: 1,
        knowledge: connection_kit::Knowledge {
            bridge_save: true,
            ..Default::default()
        },
        search: Default::default(),
    };
    let game = Hex::new(5, true).expect("size 5 is valid");
    let engine = hex_mcts::engine::engine(settings, 9).expect("valid settings");
    session(game, engine)
}

/// Feeds the lines of `bytes` (non-UTF-8 replaced; board sizes above 7 and clock commands
/// skipped to keep cases fast) and checks every reply.
fn check_stream(bytes: &[u8]) -> Result<(), TestCaseError> {
    let mut gtp = new_session();
    let text = String::from_utf8_lossy(bytes);
    for line in text.split('\n') {
        if too_slow_to_fuzz(line, 7) {
            continue;
        }
        let lower = line.to_ascii_lowercase();
        if let Some(reply) = gtp.handle(line) {
            let reply = reply.to_string();
            prop_assert!(is_one_response(&reply), "{:?}", reply);
            if gtp.has_quit() {
                prop_assert!(lower.contains("quit"), "{:?} ended the session", line);
                break;
            }
        }
    }
    Ok(())
}

fn command_line() -> impl Strategy<Value = String> {
    let command = prop::sample::select(vec![
        "boardsize",
        "clear_board",
        "play",
        "genmove",
        "undo",
        "showboard",
        "final_score",
        "hex-param",
        "known_command",
        "list_commands",
        "quit",
        "bogus",
    ]);
    let arg = prop::sample::select(vec![
        "b",
        "w",
        "black",
        "x",
        "a1",
        "c3",
        "e5",
        "swap-pieces",
        "z99",
        "0",
        "3",
        "5",
        "99",
        "simulations",
        "algorithm",
        "uct",
        "swap",
        "on",
        "",
    ]);
    (
        proptest::option::of(0u64..100),
        command,
        prop::collection::vec(arg, 0..3),
    )
        .prop_map(|(id, command, args)| game_harness::gtp::command_line(id, command, &args))
}

#[test]
fn a_scripted_stream_is_answered() {
    let mut gtp = new_session();
    let mut replies = Vec::new();
    for line in "boardsize 3\nplay b b2\ngenmove w\n\u{fffd}\nundo\nundo\nundo\nquit\n".lines() {
        replies.push(gtp.handle(line).expect("a reply").to_string());
    }
    assert!(replies[..3].iter().all(|r| r.starts_with('=')));
    assert!(replies[3].starts_with('?'));
    assert!(replies[4].starts_with('=') && replies[5].starts_with('='));
    assert!(
        replies[6].starts_with('?'),
        "undo past the start: {:?}",
        replies[6]
    );
    assert!(gtp.has_quit(), "quit ends the session");
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 128,
        rng_seed: RngSeed::Fixed(0x6865_7867),
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn arbitrary_bytes(bytes in prop::collection::vec(any::<u8>(), 0..300)) {
        check_stream(&bytes)?;
    }

    #[test]
    fn command_sequences(lines in prop::collection::vec(command_line(), 1..40)) {
        check_stream(lines.join("\n").as_bytes())?;
    }
}
