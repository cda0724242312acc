//! RAVE and GRAVE against plain UCT at equal simulations on 5x5 Hex, where AMAF helps.
//!
//! Measured with `cargo run --release -p rave-mcts --example rave_vs_uct -- 200 300 5 1`:
//! UCT-RAVE 86.5% and GRAVE 87.0% against UCT (see docs/mcts.md). The thresholds here are far
//! below those figures (about six standard errors for 120 games).

mod common;

use rave_mcts::{Config, RaveSchedule};

const GAMES: usize = 120;
const SIMULATIONS: u64 = 300;
const THRESHOLD: f64 = 0.62;

fn win_rate(config: &Config, seed: u64) -> f64 {
    let wins = common::hex_match(5, config, &Config::default(), GAMES, SIMULATIONS, seed);
    let rate = wins as f64 / GAMES as f64;
    println!(
        "{:?} vs UCT: {wins}/{GAMES} = {:.1}%",
        config.selection(),
        100.0 * rate
    );
    rate
}

#[test]
fn rave_beats_uct_on_small_hex() {
    let rave = Config::builder()
        .rave(RaveSchedule::default())
        .build()
        .unwrap();
    let rate = win_rate(&rave, 1000);
    assert!(rate >= THRESHOLD, "RAVE won only {:.1}%", 100.0 * rate);
}

#[test]
fn grave_beats_uct_on_small_hex() {
    let grave = Config::builder().grave(20).build().unwrap();
    let rate = win_rate(&grave, 2000);
    assert!(rate >= THRESHOLD, "GRAVE won only {:.1}%", 100.0 * rate);
}

#[test]
fn uct_against_itself_is_even() {
    // A control for the match code: equal players share the games (colours alternate).
    let rate = win_rate(&Config::default(), 3000);
    assert!(
        (0.3..=0.7).contains(&rate),
        "UCT vs UCT {:.1}%",
        100.0 * rate
    );
}
