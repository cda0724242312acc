//! Fitting pattern weights to the moves of game records by minorization–maximization.

use std::collections::HashMap;

use havannah_board::Cell;
use havannah_rules::{GameState, Move, Record, Rules, RulesError};

use super::shape::{canonical, shape};
use super::weights::{DISTANCE_CLASSES, PatternWeights};

/// One move choice of a record: the candidates (every empty cell) and the one played.
#[derive(Debug, Clone, Copy)]
struct Choice {
    /// The first candidate in [`PatternDataset::candidates`].
    start: u32,
    /// The number of candidates.
    len: u32,
    /// The index of the move played among them.
    chosen: u32,
}

/// A candidate move: its shape class (an index into [`PatternDataset::classes`]) and its
/// distance class.
#[derive(Debug, Clone, Copy)]
struct Candidate {
    shape: u32,
    distance: u8,
}

/// What one iteration of [`PatternDataset::fit`] reached.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FitProgress {
    /// The iteration, from 1.
    pub iteration: usize,
    /// The mean log-likelihood of the moves played, per move, before the iteration.
    pub log_likelihood: f64,
}

/// The move choices of a set of game records, as the competitions of a generalized
/// Bradley–Terry model: at every position each empty cell competes, with the strength of its
/// shape times that of its distance to the previous move, and the move played wins.
///
/// ```
/// use havannah::patterns::PatternDataset;
///
/// let mut data = PatternDataset::new(0);
/// data.add_record("5 c3 d4 c4 d5 c5 d6 c6")?;
/// let weights = data.fit(20, |_| {});
/// // Every move here was played next to the previous one.
/// assert!(weights.distance_gamma(0) > weights.distance_gamma(3));
/// assert!(data.prediction_rate(&weights) > 0.0);
/// # Ok::<(), havannah::rules::RulesError>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct PatternDataset {
    skip: usize,
    classes: Vec<u32>,
    index: HashMap<u32, u32>,
    candidates: Vec<Candidate>,
    choices: Vec<Choice>,
}

impl PatternDataset {
    /// An empty dataset that will skip the first `skip` moves of every record (the opening,
    /// often chosen at random).
    #[must_use]
    pub fn new(skip: usize) -> PatternDataset {
        PatternDataset {
            skip,
            ..PatternDataset::default()
        }
    }

    /// The number of move choices.
    #[must_use]
    pub fn len(&self) -> usize {
        self.choices.len()
    }

    /// Whether there are no move choices.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.choices.is_empty()
    }

    /// The number of shape classes seen among the candidates.
    #[must_use]
    pub fn shape_classes(&self) -> usize {
        self.classes.len()
    }

    /// Adds the moves of one record line (`havannah replay`'s formats: `<size> <moves...>` or
    /// `<size> <result> <kinds> <moves...>`), up to the end of the game. A swap is not a
    /// choice between cells and is skipped.
    ///
    /// # Errors
    ///
    /// The [`RulesError`] of a line that is not a record or has an illegal move.
    pub fn add_record(&mut self, line: &str) -> Result<(), RulesError> {
        let record = Record::parse_line(line, 1)?;
        let mut game = GameState::new(record.size, Rules { pie: true })?;
        let mut last: Option<Cell> = None;
        for (ply, &mv) in record.moves.iter().enumerate() {
            if game.outcome().is_over() {
                break;
            }
            if let Move::Cell(cell) = mv
                && ply >= self.skip
            {
                self.add_choice(&game, cell, last);
            }
            game.play(mv).map_err(|e| RulesError::Record {
                line: 1,
                token: mv.to_notation(game.board()),
                reason: format!("move {}: {e}", ply + 1),
            })?;
            if let Move::Cell(cell) = mv {
                last = Some(cell);
            }
        }
        Ok(())
    }

    fn add_choice(&mut self, game: &GameState, played: Cell, last: Option<Cell>) {
        let pos = game.position();
        let start = self.candidates.len();
        let mut chosen = None;
        for cell in game.board().cells().filter(|&c| pos.is_empty(c)) {
            if cell == played {
                chosen = Some(self.candidates.len() - start);
            }
            let code = canonical(shape(pos, cell));
            let next = self.classes.len() as u32;
            let shape = *self.index.entry(code).or_insert(next);
            if shape == next {
                self.classes.push(code);
            }
            let distance = PatternWeights::distance_class(pos, cell, last) as u8;
            self.candidates.push(Candidate { shape, distance });
        }
        match chosen {
            Some(chosen) => self.choices.push(Choice {
                start: start as u32,
                len: (self.candidates.len() - start) as u32,
                chosen: chosen as u32,
            }),
            None => self.candidates.truncate(start),
        }
    }

    /// Fits the weights by `iterations` rounds of Hunter's minorization–maximization (as
    /// Coulom fitted move patterns in Go), each round updating the shape factors and then the
    /// distance factors. Every factor has a prior of one win and one loss against a factor
    /// of 1, so that rare shapes stay near 1. `progress` is called after each round.
    pub fn fit(&self, iterations: usize, mut progress: impl FnMut(FitProgress)) -> PatternWeights {
        let mut shapes = vec![1.0f64; self.classes.len()];
        let mut distance = [1.0f64; DISTANCE_CLASSES];
        let mut shape_wins = vec![0.0f64; self.classes.len()];
        let mut distance_wins = [0.0f64; DISTANCE_CLASSES];
        for choice in &self.choices {
            let c = self.candidates[(choice.start + choice.chosen) as usize];
            shape_wins[c.shape as usize] += 1.0;
            distance_wins[usize::from(c.distance)] += 1.0;
        }
        for iteration in 1..=iterations {
            let (sums, log_likelihood) = self.strength_sums(&shapes, &distance);
            let mut denominators = vec![0.0f64; shapes.len()];
            self.each_candidate(&sums, |cand, share| {
                denominators[cand.shape as usize] += distance[usize::from(cand.distance)] * share;
            });
            for (k, gamma) in shapes.iter_mut().enumerate() {
                *gamma = (shape_wins[k] + 1.0) / (denominators[k] + 2.0 / (1.0 + *gamma));
            }
            let (sums, _) = self.strength_sums(&shapes, &distance);
            let mut denominators = [0.0f64; DISTANCE_CLASSES];
            self.each_candidate(&sums, |cand, share| {
                denominators[usize::from(cand.distance)] += shapes[cand.shape as usize] * share;
            });
            for (k, gamma) in distance.iter_mut().enumerate() {
                *gamma = (distance_wins[k] + 1.0) / (denominators[k] + 2.0 / (1.0 + *gamma));
            }
            progress(FitProgress {
                iteration,
                log_likelihood,
            });
        }
        let pairs: Vec<(u32, f32)> = self
            .classes
            .iter()
            .zip(&shapes)
            .map(|(&code, &g)| (code, g as f32))
            .collect();
        PatternWeights::new(distance.map(|g| g as f32), &pairs)
    }

    /// Each choice's sum of candidate strengths, and the mean log-likelihood of the moves
    /// played.
    fn strength_sums(&self, shapes: &[f64], distance: &[f64]) -> (Vec<f64>, f64) {
        let strength = |c: &Candidate| shapes[c.shape as usize] * distance[usize::from(c.distance)];
        let mut log_likelihood = 0.0;
        let sums = self
            .choices
            .iter()
            .map(|choice| {
                let range = choice.start as usize..(choice.start + choice.len) as usize;
                let sum: f64 = self.candidates[range].iter().map(strength).sum();
                let played = strength(&self.candidates[(choice.start + choice.chosen) as usize]);
                log_likelihood += (played / sum).ln();
                sum
            })
            .collect();
        (sums, log_likelihood / self.choices.len().max(1) as f64)
    }

    /// Calls `f(candidate, 1 / sum of its choice's strengths)` for every candidate.
    fn each_candidate(&self, sums: &[f64], mut f: impl FnMut(&Candidate, f64)) {
        for (choice, &sum) in self.choices.iter().zip(sums) {
            let range = choice.start as usize..(choice.start + choice.len) as usize;
            for cand in &self.candidates[range] {
                f(cand, 1.0 / sum);
            }
        }
    }

    /// `weights` without the shapes seen as candidates fewer than `min_count` times in this
    /// dataset (they then count 1): a smaller file with the shapes the fit could judge.
    #[must_use]
    pub fn frequent(&self, weights: &PatternWeights, min_count: u32) -> PatternWeights {
        let mut counts = vec![0u32; self.classes.len()];
        for c in &self.candidates {
            counts[c.shape as usize] += 1;
        }
        let kept: Vec<(u32, f32)> = self
            .classes
            .iter()
            .zip(&counts)
            .filter(|&(_, &n)| n >= min_count)
            .map(|(&code, _)| (code, weights.shape_gamma(code)))
            .collect();
        PatternWeights::new(std::array::from_fn(|k| weights.distance_gamma(k)), &kept)
    }

    /// The share of move choices where the move played has the largest strength under
    /// `weights` (a tie for the largest among `k` moves counts `1 / k`).
    #[must_use]
    pub fn prediction_rate(&self, weights: &PatternWeights) -> f64 {
        let shape_gamma: Vec<f32> = self
            .classes
            .iter()
            .map(|&code| weights.shape_gamma(code))
            .collect();
        let strength = |c: &Candidate| {
            shape_gamma[c.shape as usize] * weights.distance_gamma(usize::from(c.distance))
        };
        let mut hits = 0.0;
        for choice in &self.choices {
            let range = choice.start as usize..(choice.start + choice.len) as usize;
            let all = &self.candidates[range];
            let best = all.iter().map(strength).fold(0.0f32, f32::max);
            let played = strength(&all[choice.chosen as usize]);
            if played >= best {
                let ties = all.iter().filter(|c| strength(c) >= best).count();
                hits += 1.0 / ties as f64;
            }
        }
        hits / self.choices.len().max(1) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shape_always_played_outweighs_the_rest() {
        // White always plays next to its own last stone, in a line: the shape with one own
        // neighbour wins every choice it is in.
        let mut data = PatternDataset::new(2);
        data.add_record("8 h8 a1 h9 b1 h10 c1 h11 d1 h12 e1")
            .unwrap();
        assert_eq!(data.len(), 8);
        let weights = data.fit(30, |_| {});
        let g = GameState::new(8, Rules::default()).unwrap();
        let mut g2 = g.clone();
        for m in ["h8", "a1"] {
            g2.play_str(m).unwrap();
        }
        let b = g2.board();
        let next_to_own = weights.gamma(g2.position(), b.parse_cell("h9").unwrap(), None);
        let far = weights.gamma(g2.position(), b.parse_cell("l12").unwrap(), None);
        assert!(next_to_own > 2.0 * far, "{next_to_own} {far}");
    }

    #[test]
    fn the_fit_raises_the_likelihood_and_the_prediction_rate() {
        let mut data = PatternDataset::new(0);
        for line in [
            "6 f6 e5 f7 e6 f8 e7 g8 d5 g9",
            "6 c3 d4 c4 d5 c5 d6 c6 d7",
            "6 k10 j9 k9 j8 k8 j7",
        ] {
            data.add_record(line).unwrap();
        }
        let mut curve = Vec::new();
        let weights = data.fit(10, |p| curve.push(p.log_likelihood));
        assert_eq!(curve.len(), 10);
        assert!(curve.windows(2).all(|w| w[1] >= w[0] - 1e-9), "{curve:?}");
        let uniform = PatternWeights::new([1.0; DISTANCE_CLASSES], &[]);
        assert!(data.prediction_rate(&weights) > 2.0 * data.prediction_rate(&uniform));
    }

    #[test]
    fn bad_records_are_errors_naming_the_move() {
        let mut data = PatternDataset::new(0);
        let err = data.add_record("5 c3 c3").unwrap_err().to_string();
        assert!(err.contains("c3"), "{err}");
        assert!(data.add_record("five c3").is_err());
    }
}
