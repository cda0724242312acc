//! The CodeCup protocol reader of Blackhole: any byte stream from the arbiter either plays a
//! game (every answer we send is a legal move of the game) or ends with a protocol error.
#![no_main]

use std::time::Duration;

use blackhole::engine::RandomBot;
use blackhole::protocol::play;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut bot = RandomBot::new(5);
    let mut out = Vec::new();
    if let Ok(log) = play(data, &mut out, &mut bot, Duration::from_secs(5)) {
        let text = String::from_utf8(out).expect("we write text");
        // Every line we wrote is one of the game's moves.
        let ours: Vec<&str> = text.lines().collect();
        assert!(ours.len() <= log.moves.len());
        for line in ours {
            let mv: blackhole::rules::Move = line.parse().expect("we write moves");
            assert!(log.moves.contains(&mv), "{line}");
        }
    }
});
