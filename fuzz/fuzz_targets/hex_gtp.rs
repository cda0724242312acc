//! The Hex GTP session: a byte stream of command lines answered one by one by the engine with
//! a budget of 16 simulations per move. Every command gets a well-formed reply. Board sizes
//! above 11 are skipped to keep each input fast.
#![no_main]

use hex::engine::{Algorithm, Settings};
use hex::gtp::Gtp;
use libfuzzer_sys::fuzz_target;

fn too_big(line: &str) -> bool {
    let mut words = line.split_whitespace();
    while let Some(w) = words.next() {
        if w.eq_ignore_ascii_case("boardsize") {
            return words
                .next()
                .and_then(|n| n.trim_start_matches('+').parse::<u64>().ok())
                .is_some_and(|n| n > 11);
        }
    }
    false
}

fuzz_target!(|data: &[u8]| {
    let settings = Settings {
        algorithm: Algorithm::Rave,
        simulations: Some(16),
        time: None,
        threads: 1,
        bridge_save: true,
    };
    let mut gtp = Gtp::new(7, true, settings, 3).expect("size 7 is valid");
    let text = String::from_utf8_lossy(data);
    for line in text.split('\n').take(200) {
        if too_big(line) {
            continue;
        }
        if let Some((reply, quit)) = gtp.handle_line(line) {
            assert!(
                reply.starts_with('=') || reply.starts_with('?'),
                "{reply:?}"
            );
            assert!(reply.ends_with("\n\n"), "{reply:?}");
            assert!(!reply[..reply.len() - 2].contains("\n\n"), "{reply:?}");
            if quit {
                break;
            }
        }
    }
});
