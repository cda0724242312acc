//! Measures how often UCT-RAVE and GRAVE beat plain UCT at equal simulations on small Hex.
//!
//! `cargo run --release -p rave-mcts --example rave_vs_uct -- [games] [simulations] [size] [seed]`
//! (defaults 200 games, 300 simulations per move, 5x5, seed 1). Colours alternate. The Hex
//! played is the worked example `examples/small_hex/game.rs`.

#[path = "../tests/common/mod.rs"]
mod common;

use rave_mcts::{Config, RaveSchedule};

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("numbers: games simulations size seed"))
        .collect();
    let games = args.first().copied().unwrap_or(200) as usize;
    let sims = args.get(1).copied().unwrap_or(300);
    let size = args.get(2).copied().unwrap_or(5) as usize;
    let seed = args.get(3).copied().unwrap_or(1);
    let uct = Config::default();
    let contenders = [
        (
            "UCT-RAVE (default schedule)",
            Config::builder().rave(RaveSchedule::default()).build(),
        ),
        ("GRAVE (r = 20)", Config::builder().grave(20).build()),
        (
            "RAVE + weighted AMAF",
            Config::builder()
                .rave(RaveSchedule::default())
                .amaf_weighting(rave_mcts::AmafWeighting::Playout)
                .build(),
        ),
    ];
    println!("{size}x{size} Hex, {sims} simulations per move, {games} games per pair, seed {seed}");
    for (name, config) in contenders {
        let config = config.expect("valid configuration");
        let start = std::time::Instant::now();
        let wins = common::hex_match(size, &config, &uct, games, sims, seed);
        let rate = wins as f64 / games as f64;
        let se = (rate * (1.0 - rate) / games as f64).sqrt();
        println!(
            "{name:<28} vs UCT: {wins:>4}/{games} = {:5.1}% (+- {:.1}%)  [{:.1?}]",
            100.0 * rate,
            100.0 * se,
            start.elapsed()
        );
    }
}
