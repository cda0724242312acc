//! Where the solver's static bounds start to decide a target, and what asking them only from
//! there (`--lazy-playout-bounds`) saves the search.
//!
//! ```text
//! cargo run --release -p blackhole --example playout_bounds
//! ```
//!
//! First, over random openings followed by greedy moves, the most empty cells at which the
//! bounds decided "does the player reach alpha?", by the target's distance from the line
//! between a draw and a win (`target_distance`: 0 for 75 and 76), beside where the lazy
//! playouts start to ask. Then the simulations a second of searches of a fixed
//! size from random positions, with the bounds asked at every playout move and lazily, in
//! alternating runs (the mean and the best of the runs: other work on the machine only slows
//! a run down).

use std::time::Instant;

use blackhole::referee::random_blocked;
use blackhole::rules::{BLUE, Position, RED};
use blackhole::search::{
    AlphaGame, LotteryPlayout, greedy_move, lazy_bounds_from, target_distance, uniform_move,
};
use blackhole::solver::static_verdict;
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;
use rave_mcts::{Budget, Config, Mcts, NoPrior, RaveSchedule, Shortlist};

/// Games of the survey.
const SURVEY_GAMES: usize = 400_000;
/// The survey's largest distance of a target from a draw.
const MAX_DISTANCE: u32 = 12;
/// Runs of each speed measurement.
const RUNS: usize = 5;

fn main() {
    survey();
    for plies in [0, 6] {
        speed(plies);
    }
}

/// The survey: games from random blocked cells, a random or greedy opening of up to 13 plies,
/// then greedy moves to 15 empty cells, every target asked at every position.
fn survey() {
    let mut rng = Pcg64Mcg::seed_from_u64(11);
    let mut most = [0u32; MAX_DISTANCE as usize + 1];
    for game in 0..SURVEY_GAMES {
        let mut pos = Position::new(&random_blocked(&mut rng)).expect("five blocked cells");
        for _ in 0..rng.random_range(0..14) {
            let mv = if game % 2 == 0 {
                uniform_move(&pos, &mut rng)
            } else {
                greedy_move(&pos, &mut rng)
            };
            pos.play(mv);
        }
        while !pos.is_over() && pos.empty_count() > 15 {
            record_decided(&pos, &mut most);
            pos.play(greedy_move(&pos, &mut rng));
        }
    }
    println!("the static bounds in {SURVEY_GAMES} games: the most empty cells where they decided");
    println!("| target's distance | targets | most empty cells decided | lazy playouts ask from |");
    println!("|---:|---|---:|---:|");
    for (distance, most) in (0i16..).zip(most) {
        let (high, low) = (76 + distance, 75 - distance);
        let from = lazy_bounds_from(high);
        println!("| {distance} | {high}, {low} | {most} | {from} |");
    }
}

/// Raises `most[d]` to the empty cells of `pos` where the bounds decide a target at distance
/// `d` for either player.
fn record_decided(pos: &Position, most: &mut [u32; MAX_DISTANCE as usize + 1]) {
    let empty = pos.empty_count();
    for alpha in 60..=90 {
        let distance = target_distance(alpha);
        if distance > MAX_DISTANCE || empty <= most[distance as usize] {
            continue;
        }
        if [RED, BLUE]
            .into_iter()
            .any(|player| static_verdict(pos, player, alpha).is_some())
        {
            most[distance as usize] = empty;
        }
    }
}

/// Simulations a second after `plies` greedy plies, eager and lazy in alternating runs.
fn speed(plies: usize) {
    let mut rates: [Vec<f64>; 2] = [Vec::new(), Vec::new()];
    for _ in 0..RUNS {
        for (lazy, rate) in [false, true].into_iter().zip(rates.iter_mut()) {
            rate.push(simulations_a_second(plies, lazy));
        }
    }
    println!("\nsearches of 20,000 simulations from 10 positions after {plies} plies, {RUNS} runs");
    for (name, rate) in ["every move", "lazily"].iter().zip(&rates) {
        let mean = rate.iter().sum::<f64>() / rate.len() as f64;
        let best = rate.iter().copied().fold(0.0, f64::max);
        println!("bounds asked {name:10}: mean {mean:8.0}, best {best:8.0} simulations a second");
    }
}

/// One run: GRAVE searches with the player's constants and a shortlist, for targets 75 to 77.
fn simulations_a_second(plies: usize, lazy: bool) -> f64 {
    let config = Config::builder()
        .rave(RaveSchedule::MinimumMse { bias: 0.05 })
        .grave(40)
        .exploration(0.15)
        .amaf_horizon(Some(12))
        .expand_threshold(4)
        .shortlist(Some(Shortlist {
            size: 8,
            rescan_every: 8,
        }))
        .build()
        .expect("valid settings");
    let mut rng = Pcg64Mcg::seed_from_u64(5);
    let (mut simulations, start) = (0, Instant::now());
    for _ in 0..10 {
        let mut pos = Position::new(&random_blocked(&mut rng)).expect("five blocked cells");
        for _ in 0..plies {
            pos.play(greedy_move(&pos, &mut rng));
        }
        for alpha in [75, 76, 77] {
            let game = AlphaGame::new(pos, pos.mover(), alpha)
                .with_static_verdict(31)
                .with_target_pruning(true)
                .with_lazy_playout_bounds(lazy);
            let mut tree =
                Mcts::with_policies(game, config.clone(), LotteryPlayout::default(), NoPrior);
            let result = tree
                .search(&Budget::simulations(20_000), &mut rng)
                .expect("a search of an open position");
            simulations += result.simulations;
        }
    }
    simulations as f64 / start.elapsed().as_secs_f64()
}
