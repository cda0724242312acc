//! The Havannah GTP session, as a GUI or tournament manager drives it: the input is a byte
//! stream of command lines answered one by one by a real search engine with a tiny budget.
//! Every command gets a well-formed reply, and the session's game always replays from its
//! record.
//!
//! To keep each input fast, the engine gets at most 2 ms per move and 5 ms of remaining time
//! whatever the GTP clock says (the clock itself is computed from the fuzzed `time_settings`
//! and `time_left` as usual), and 24 simulations otherwise; board sizes above 8 are refused
//! before the session sees them.
#![no_main]

use std::time::Duration;

use game_harness::Clock;
use game_harness::gtp::is_one_response;
use havannah::gtp::session as new_session;
use havannah::{Agent, Engine, EngineConfig};
use havannah_rules::{GameState, Move, Record};
use libfuzzer_sys::fuzz_target;

/// The engine with its clock capped.
struct Cheap(Engine);

const PER_MOVE: Duration = Duration::from_millis(2);
const REMAINING: Duration = Duration::from_millis(5);

impl Agent<GameState> for Cheap {
    fn name(&self) -> String {
        self.0.name()
    }
    fn reset(&mut self, game: &GameState) {
        self.0.reset(game);
    }
    fn observe(&mut self, game: &GameState, mv: Move) {
        self.0.observe(game, mv);
    }
    fn choose(&mut self, game: &GameState, clock: &Clock) -> Option<Move> {
        let capped = Clock {
            per_move: clock.per_move.map(|t| t.min(PER_MOVE)),
            remaining: clock.remaining.map(|t| t.min(REMAINING)),
            moves_to_go: clock.moves_to_go,
        };
        self.0.choose(game, &capped)
    }
    fn search_report(&self) -> Option<String> {
        self.0.search_report()
    }
}

#[path = "gtp_common.rs"]
mod gtp_common;

fuzz_target!(|data: &[u8]| {
    let mut config = EngineConfig::best();
    config.simulations = 24;
    let engine = Engine::new(config, 7);
    let mut session = new_session(Box::new(Cheap(engine)) as Box<dyn Agent<GameState>>);
    // Non-UTF-8 bytes are replaced, as a line reader over a GUI's pipe would see them.
    let text = String::from_utf8_lossy(data);
    for line in text.split('\n').take(200) {
        if gtp_common::too_big(line, 8) {
            continue;
        }
        if let Some(reply) = session.handle(line) {
            let s = reply.to_string();
            assert!(is_one_response(&s), "{s:?}");
        }
        if session.has_quit() {
            break;
        }
    }
    let record = Record::of_game(session.game());
    let replayed = record.replay().expect("the session's game replays");
    assert_eq!(replayed.moves(), session.game().moves());
    assert_eq!(replayed.outcome(), session.game().outcome());
});
