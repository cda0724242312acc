//! Self-play matches between two configurations, with a progress bar and a results table, on
//! the generic match runner of [`game_harness::matches`].
//!
//! Player A is Black (moves first) in games 0, 2, 4, ... and White in the others, so both
//! players get the first-move advantage equally often. Each game starts from a fresh tree; each player's
//! generator is seeded from the match seed and the game number, so a match with a simulation
//! budget is reproducible.

use std::fmt;
use std::time::{Duration, Instant};

use crate::board::{Colour, HexMove};
use crate::engine::{Engine, Settings};
use crate::game::HexGame;
use game_harness::matches::{PlayerId, Tally, first_player, play_games, progress_bar};

/// One finished game.
#[derive(Debug, Clone, PartialEq)]
pub struct GameRecord {
    /// Whether player A had Black.
    pub a_black: bool,
    /// The winning colour.
    pub winner: Colour,
    /// The moves, Black first.
    pub moves: Vec<HexMove>,
    /// Search time and simulations of A and B.
    pub time: [Duration; 2],
    /// Simulations of A and B.
    pub simulations: [u64; 2],
    /// Moves made by A and B.
    pub searches: [u32; 2],
}

impl GameRecord {
    /// Whether A won.
    pub fn a_won(&self) -> bool {
        (self.winner == Colour::Black) == self.a_black
    }

    /// The player who moved first (had Black).
    pub fn first(&self) -> PlayerId {
        if self.a_black {
            PlayerId::A
        } else {
            PlayerId::B
        }
    }

    /// The player who won.
    pub fn winner_player(&self) -> PlayerId {
        if self.a_won() {
            PlayerId::A
        } else {
            PlayerId::B
        }
    }
}

/// The settings of a match.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Match {
    /// Board size.
    pub size: usize,
    /// Number of games.
    pub games: usize,
    /// Whether the swap rule is on.
    pub swap: bool,
    /// Player A.
    pub a: Settings,
    /// Player B.
    pub b: Settings,
    /// The match seed.
    pub seed: u64,
}

/// A finished (or interrupted) match.
#[derive(Debug, Clone, PartialEq)]
pub struct MatchResult {
    /// The settings.
    pub config: Match,
    /// The games, in order.
    pub games: Vec<GameRecord>,
    /// Wall time of the match.
    pub elapsed: Duration,
}

fn seed_for(seed: u64, game: usize, player: u64) -> u64 {
    // SplitMix64 of the match seed, game and player: independent streams per game.
    let mut z = seed
        .wrapping_add((game as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15))
        .wrapping_add(player.wrapping_mul(0xd1b5_4a32_d192_ed03));
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Plays game number `index` of the match.
pub fn play_game(config: &Match, index: usize) -> Result<GameRecord, String> {
    let start = HexGame::new(config.size, config.swap).map_err(|e| e.to_string())?;
    let a_black = first_player(index) == PlayerId::A;
    let mut players = [
        Engine::new(&start, config.a, seed_for(config.seed, index, 0))
            .map_err(|e| e.to_string())?,
        Engine::new(&start, config.b, seed_for(config.seed, index, 1))
            .map_err(|e| e.to_string())?,
    ];
    let mut game = start.clone();
    let mut history: Vec<(Colour, HexMove)> = Vec::new();
    let mut record = GameRecord {
        a_black,
        winner: Colour::Black,
        moves: Vec::new(),
        time: [Duration::ZERO; 2],
        simulations: [0; 2],
        searches: [0; 2],
    };
    while game.winner().is_none() {
        let colour = game.colour_to_move();
        let who = usize::from((colour == Colour::Black) != a_black);
        let t = Instant::now();
        let result = players[who]
            .search(&start, &history, &game, None)
            .map_err(|e| format!("game {index}: search failed: {e}"))?;
        record.time[who] += t.elapsed();
        record.simulations[who] += result.simulations;
        record.searches[who] += 1;
        game.try_play(result.best_move)
            .map_err(|e| format!("game {index}: engine chose an illegal move: {e}"))?;
        history.push((colour, result.best_move));
        record.moves.push(result.best_move);
    }
    record.winner = game.winner().unwrap_or(Colour::Black);
    Ok(record)
}

/// Plays the match, showing a progress bar (hidden when `quiet`); with `verbose` each game's
/// moves are printed above the bar.
pub fn run_match(config: &Match, quiet: bool, verbose: bool) -> Result<MatchResult, String> {
    let bar = progress_bar(config.games, quiet);
    let started = Instant::now();
    let mut tally = Tally::default();
    let games = play_games(
        config.games,
        |index| play_game(config, index),
        |index, record| {
            tally.add(record.first(), Some(record.winner_player()));
            if verbose {
                let moves: Vec<String> = record.moves.iter().map(|m| m.to_string()).collect();
                let line = format!(
                    "game {index}: A {} B {}, {} wins: {} {}",
                    if record.a_black { "black" } else { "white" },
                    if record.a_black { "white" } else { "black" },
                    record.winner,
                    config.size,
                    moves.join(" ")
                );
                game_harness::matches::print_above(&bar, &line);
            }
            let score = tally.score(PlayerId::A);
            bar.set_message(format!(
                "A {} {} : {} B {}",
                config.a.algorithm.name(),
                score.wins,
                score.losses,
                config.b.algorithm.name()
            ));
            bar.inc(1);
        },
    )?;
    bar.finish_and_clear();
    Ok(MatchResult {
        config: *config,
        games,
        elapsed: started.elapsed(),
    })
}

fn budget_words(s: &Settings) -> String {
    let mut parts = Vec::new();
    if let Some(t) = s.time {
        parts.push(format!("{} ms", t.as_millis()));
    }
    if let Some(n) = s.simulations {
        parts.push(format!("{n} simulations"));
    }
    if parts.is_empty() {
        parts.push("10000 simulations".into());
    }
    format!(
        "{} per move, {} thread{}{}",
        parts.join(" or "),
        s.threads,
        if s.threads == 1 { "" } else { "s" },
        if s.bridge_save { ", bridge-save" } else { "" }
    )
}

impl MatchResult {
    /// A's results by who moved first (the harness's [`Tally`]).
    pub fn tally(&self) -> Tally {
        Tally::of_games(
            self.games
                .iter()
                .map(|g| (g.first(), Some(g.winner_player()))),
        )
    }
}

impl fmt::Display for MatchResult {
    /// The results table.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = &self.config;
        let n = self.games.len();
        let (a, b) = (c.a.algorithm.name(), c.b.algorithm.name());
        writeln!(
            f,
            "Hex {size}x{size}: A = {a} ({}), B = {b} ({}); {n} games, swap {}, seed {}, {:.0} s",
            budget_words(&c.a),
            budget_words(&c.b),
            if c.swap { "on" } else { "off" },
            c.seed,
            self.elapsed.as_secs_f64(),
            size = c.size,
        )?;
        let tally = self.tally();
        f.write_str(&tally.table())?;
        // Black moves first: Black's wins are the first movers' wins.
        let black = (tally.score_moving(PlayerId::A, true).wins
            + tally.score_moving(PlayerId::B, true).wins) as usize;
        let pct = |k: usize| {
            if n == 0 {
                0.0
            } else {
                100.0 * k as f64 / n as f64
            }
        };
        writeln!(
            f,
            "By colour: Black {black} ({:.1}%), White {} ({:.1}%)",
            pct(black),
            n - black,
            pct(n - black)
        )?;
        let lengths: Vec<usize> = self.games.iter().map(|g| g.moves.len()).collect();
        let mean_len = if n == 0 {
            0.0
        } else {
            lengths.iter().sum::<usize>() as f64 / n as f64
        };
        writeln!(
            f,
            "Mean game length: {mean_len:.1} moves (min {}, max {})",
            lengths.iter().min().unwrap_or(&0),
            lengths.iter().max().unwrap_or(&0)
        )?;
        for (who, name) in [(0, "A"), (1, "B")] {
            let time: Duration = self.games.iter().map(|g| g.time[who]).sum();
            let sims: u64 = self.games.iter().map(|g| g.simulations[who]).sum();
            let moves: u32 = self.games.iter().map(|g| g.searches[who]).sum();
            let per_move = if moves == 0 {
                0.0
            } else {
                time.as_secs_f64() * 1000.0 / f64::from(moves)
            };
            let rate = if time.is_zero() {
                0.0
            } else {
                sims as f64 / time.as_secs_f64()
            };
            writeln!(
                f,
                "{name}: {per_move:.1} ms and {:.0} simulations per move ({:.0} simulations/s)",
                if moves == 0 {
                    0.0
                } else {
                    sims as f64 / f64::from(moves)
                },
                rate
            )?;
        }
        f.write_str(&tally.summary())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Algorithm;

    #[test]
    fn a_small_match_alternates_colours_and_counts_every_game() {
        let settings = |algorithm| Settings {
            algorithm,
            simulations: Some(200),
            time: None,
            threads: 1,
            bridge_save: true,
        };
        let config = Match {
            size: 4,
            games: 4,
            swap: true,
            a: settings(Algorithm::Grave),
            b: settings(Algorithm::Uct),
            seed: 3,
        };
        let result = run_match(&config, true, false).unwrap();
        assert_eq!(result.games.len(), 4);
        for (i, g) in result.games.iter().enumerate() {
            assert_eq!(g.a_black, i % 2 == 0);
            // Replaying the moves gives the recorded winner.
            let mut game = HexGame::new(4, true).unwrap();
            for &mv in &g.moves {
                game.try_play(mv).unwrap();
            }
            assert_eq!(game.winner(), Some(g.winner));
            assert_eq!(
                g.searches[0] + g.searches[1],
                u32::try_from(g.moves.len()).unwrap()
            );
        }
        let table = result.to_string();
        assert!(table.contains("Score of A"), "{table}");
        assert!(table.contains("Elo A - B"), "{table}");
        // Reproducible with a simulation budget.
        assert_eq!(
            run_match(&config, true, false).unwrap().games[1].moves,
            result.games[1].moves
        );
    }
}
