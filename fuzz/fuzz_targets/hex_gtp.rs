//! The Hex GTP session: a byte stream of command lines answered one by one by the engine with
//! a budget of 16 simulations per move. Every command gets a well-formed reply. Board sizes
//! above 11 are skipped to keep each input fast.
#![no_main]

use game_harness::gtp::is_one_response;
use hex_mcts::engine::{Algorithm, Engine, Settings};
use hex_mcts::gtp::session;
use hex_mcts::harness::Hex;
use libfuzzer_sys::fuzz_target;

#[path = "gtp_common.rs"]
mod gtp_common;

fuzz_target!(|data: &[u8]| {
    let settings = Settings {
        algorithm: Algorithm::Rave,
        simulations: Some(16),
        time: None,
        threads: 1,
        bridge_save: true,
    };
    let game = Hex::new(7, true).expect("size 7 is valid");
    let engine = Engine::new(game.position(), settings, 3).expect("valid settings");
    let mut gtp = session(game, engine);
    let text = String::from_utf8_lossy(data);
    for line in text.split('\n').take(200) {
        if gtp_common::too_big(line, 11) {
            continue;
        }
        if let Some(reply) = gtp.handle(line) {
            let reply = reply.to_string();
            assert!(is_one_response(&reply), "{reply:?}");
            if gtp.has_quit() {
                break;
            }
        }
    }
});
