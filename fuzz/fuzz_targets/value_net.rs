//! Value network weight files (`--value-net`, `td_train`): any text either loads as a net that
//! evaluates positions of its board to a finite value in [-1, 1], or gets an error.
#![no_main]

use havannah::td::ValueNet;
use havannah_rules::{GameState, Rules};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(net) = ValueNet::from_json(text, "fuzz.json") else {
        return;
    };
    let mut game = GameState::new(net.size(), Rules::default()).expect("the net's size is valid");
    let v = net.evaluate(game.position());
    assert!(v.is_finite(), "{v}");
    let cell = game.board().centre();
    game.play(havannah_rules::Move::Cell(cell))
        .expect("the centre is empty");
    let v = net.evaluate(game.position());
    assert!(v.is_finite(), "{v}");
});
