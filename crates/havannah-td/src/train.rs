//! Self-play TD(lambda) training with Gibbs exploration and symmetry augmentation.

use havannah_board::{Board, Cell};
use havannah_rules::{Colour, Position, RingDetection};
use rand::{Rng, RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;

use crate::augment::{Augmentation, encode_sparse, for_each_image};
use crate::gradient::{Gradient, accumulate_gradient, apply};
use havannah::td::SparseInput;
use havannah::td::{TdError, ValueNet};

/// Settings of a training run. [`TrainConfig::new`] gives the defaults; set the fields that
/// differ on it (more settings may come):
///
/// ```
/// use havannah_td::TrainConfig;
///
/// let mut config = TrainConfig::new(4);
/// config.hidden = 32;
/// config.threads = 2;
/// assert_eq!(config.batch, 8);
/// ```
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct TrainConfig {
    /// Board size (cells per side), `2..=13`.
    pub size: u8,
    /// Hidden units (150 in the study this crate reproduces).
    pub hidden: usize,
    /// Learning rate of the TD update (per position, before the mean over its images).
    pub learning_rate: f32,
    /// TD(lambda) trace decay in `[0, 1]`: `0` bootstraps on the next position only, `1`
    /// learns the discounted final result (Monte Carlo).
    pub lambda: f32,
    /// Discount per move, in `(0, 1]` (about `0.99` in the study this crate reproduces).
    pub gamma: f32,
    /// Gibbs exploration temperature: a move is chosen with probability proportional to
    /// `exp(value for the mover / temperature)`; `0` plays greedily.
    pub temperature: f32,
    /// Symmetries and colour swap used to multiply each position.
    pub augmentation: Augmentation,
    /// Games per update: the games of a batch are played with the same weights and their
    /// updates are summed, in game order. Results do not depend on `threads`.
    pub batch: usize,
    /// Threads playing the games of a batch (at most `batch` are used).
    pub threads: usize,
    /// Seed of the initial weights and of every game.
    pub seed: u64,
}

impl TrainConfig {
    /// The defaults for boards of `size`: 150 hidden units, learning rate 0.01, lambda 0.8,
    /// gamma 0.99, temperature 0.1, all 24 images, batches of 8 games, one thread, seed 1.
    #[must_use]
    pub fn new(size: u8) -> Self {
        TrainConfig {
            size,
            hidden: 150,
            learning_rate: 0.01,
            lambda: 0.8,
            gamma: 0.99,
            temperature: 0.1,
            augmentation: Augmentation::ALL,
            batch: 8,
            threads: 1,
            seed: 1,
        }
    }

    fn validate(&self) -> Result<(), TdError> {
        let invalid = |name, value: String, reason| {
            Err(TdError::InvalidConfig {
                name,
                value,
                reason,
            })
        };
        if !(self.learning_rate.is_finite() && self.learning_rate > 0.0) {
            return invalid(
                "learning_rate",
                self.learning_rate.to_string(),
                "must be positive",
            );
        }
        if !(0.0..=1.0).contains(&self.lambda) {
            return invalid("lambda", self.lambda.to_string(), "must be in [0, 1]");
        }
        if !(self.gamma > 0.0 && self.gamma <= 1.0) {
            return invalid("gamma", self.gamma.to_string(), "must be in (0, 1]");
        }
        if !(self.temperature.is_finite() && self.temperature >= 0.0) {
            return invalid(
                "temperature",
                self.temperature.to_string(),
                "must be zero or positive",
            );
        }
        if self.batch == 0 {
            return invalid("batch", "0".into(), "must be at least 1");
        }
        if self.threads == 0 {
            return invalid("threads", "0".into(), "must be at least 1");
        }
        Ok(())
    }
}

/// Counts over the games trained so far.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct TrainStats {
    /// Self-play games played.
    pub games: u64,
    /// Games White won.
    pub white_wins: u64,
    /// Games Black won.
    pub black_wins: u64,
    /// Games that filled the board without a win.
    pub draws: u64,
    /// Moves played in all games.
    pub moves: u64,
    /// Positions trained on, images included.
    pub samples: u64,
}

/// Trains a [`ValueNet`] by self-play TD(lambda).
///
/// Each game starts from the empty board. At every move the side to move values every
/// empty cell: a move that wins is worth `+1` to the mover, a move that fills the board
/// without a win `0`, any other the net's value of the next position (negated for Black);
/// the move is drawn from the Gibbs distribution `exp(value / temperature)`. At the end of
/// the game each position `s_t` gets the lambda-return target (for White)
/// `G_t = gamma * ((1 - lambda) * V(s_{t+1}) + lambda * G_{t+1})`, with `G_{T-1} = r` the
/// result (`+1` White won, `-1` Black won, `0` draw), and the update
/// `lr * (G_t - V(s_t)) * grad V(s_t)` is averaged over the position's images (12
/// symmetries times the colour swap, whose target is `-G_t`). This is the forward view of
/// offline TD(lambda): the same update as accumulating eligibility traces during the game
/// and applying them at its end. The updates of the games of a batch are summed.
///
/// Training is deterministic for a seed, whatever the number of threads: game `k` uses a
/// generator seeded from `(seed, k)` and the updates are summed in game order.
#[derive(Clone, Debug)]
pub struct Trainer {
    config: TrainConfig,
    net: ValueNet,
    stats: TrainStats,
    slots: Vec<Gradient>,
}

impl Trainer {
    /// A trainer with a freshly initialised net (seeded by `config.seed`).
    ///
    /// # Errors
    ///
    /// [`TdError::Board`] or [`TdError::InvalidConfig`] for a setting out of range.
    pub fn new(config: TrainConfig) -> Result<Self, TdError> {
        config.validate()?;
        let mut rng = Pcg64Mcg::seed_from_u64(config.seed);
        let net = ValueNet::new(config.size, config.hidden, &mut rng)?;
        Ok(Trainer {
            config,
            net,
            stats: TrainStats::default(),
            slots: Vec::new(),
        })
    }

    /// A trainer that goes on training `net` (e.g. loaded from a file); `config.size` and
    /// `config.hidden` are taken from the net.
    ///
    /// # Errors
    ///
    /// [`TdError::InvalidConfig`] for a setting out of range.
    pub fn with_net(mut config: TrainConfig, net: ValueNet) -> Result<Self, TdError> {
        config.size = net.size();
        config.hidden = net.hidden();
        config.validate()?;
        Ok(Trainer {
            config,
            net,
            stats: TrainStats::default(),
            slots: Vec::new(),
        })
    }

    /// The settings.
    #[must_use]
    pub fn config(&self) -> &TrainConfig {
        &self.config
    }

    /// The net being trained.
    #[must_use]
    pub fn net(&self) -> &ValueNet {
        &self.net
    }

    /// Gives the net up.
    #[must_use]
    pub fn into_net(self) -> ValueNet {
        self.net
    }

    /// Counts over the games played so far.
    #[must_use]
    pub fn stats(&self) -> TrainStats {
        self.stats
    }

    /// Sets the exploration temperature for the games to come (e.g. to anneal it).
    ///
    /// # Errors
    ///
    /// [`TdError::InvalidConfig`] if it is negative or not finite.
    pub fn set_temperature(&mut self, temperature: f32) -> Result<(), TdError> {
        let mut config = self.config.clone();
        config.temperature = temperature;
        config.validate()?;
        self.config = config;
        Ok(())
    }

    /// Plays and learns from `games` self-play games, calling `on_batch(games so far)` after
    /// every batch.
    pub fn train(&mut self, games: u64, mut on_batch: impl FnMut(u64)) {
        let mut left = games;
        while left > 0 {
            let k = left.min(self.config.batch as u64) as usize;
            self.train_batch(k);
            left -= k as u64;
            on_batch(self.stats.games);
        }
    }

    fn train_batch(&mut self, k: usize) {
        while self.slots.len() < k {
            self.slots.push(Gradient::zeros(&self.net));
        }
        let first = self.stats.games;
        let net = &self.net;
        let config = &self.config;
        let slots = &mut self.slots[..k];
        let threads = config.threads.min(k);
        let mut outcomes = vec![GameSummary::default(); k];
        if threads <= 1 {
            let mut scratch = Scratch::new(net);
            for (j, (slot, out)) in slots.iter_mut().zip(outcomes.iter_mut()).enumerate() {
                *out = learn_game(net, config, first + j as u64, slot, &mut scratch);
            }
        } else {
            let per = k.div_ceil(threads);
            std::thread::scope(|s| {
                for (c, (slot_chunk, out_chunk)) in slots
                    .chunks_mut(per)
                    .zip(outcomes.chunks_mut(per))
                    .enumerate()
                {
                    s.spawn(move || {
                        let mut scratch = Scratch::new(net);
                        for (j, (slot, out)) in
                            slot_chunk.iter_mut().zip(out_chunk.iter_mut()).enumerate()
                        {
                            let index = first + (c * per + j) as u64;
                            *out = learn_game(net, config, index, slot, &mut scratch);
                        }
                    });
                }
            });
        }
        let (head, rest) = self.slots.split_at_mut(1);
        for g in &rest[..k - 1] {
            head[0].add(g);
        }
        apply(&mut self.net, &head[0], self.config.learning_rate);
        for o in outcomes {
            self.stats.games += 1;
            match o.winner {
                Some(Colour::White) => self.stats.white_wins += 1,
                Some(Colour::Black) => self.stats.black_wins += 1,
                None => self.stats.draws += 1,
            }
            self.stats.moves += o.moves;
            self.stats.samples += o.samples;
        }
    }
}

#[derive(Clone, Copy, Debug, Default)]
struct GameSummary {
    winner: Option<Colour>,
    moves: u64,
    samples: u64,
}

/// Buffers of one training thread, reused from game to game.
struct Scratch {
    pos: Position,
    moves: Vec<Cell>,
    values: Vec<f32>,
    /// Sparse inputs of every position of the game, back to back.
    inputs: Vec<SparseInput>,
    /// Start of each position's inputs in `inputs` (one more entry than positions).
    starts: Vec<usize>,
    /// `V(s_{t+1})` as valued when the move from `s_t` was chosen (the result if it ended
    /// the game).
    next_values: Vec<f32>,
    targets: Vec<f32>,
    position_inputs: Vec<SparseInput>,
    image: Vec<SparseInput>,
    hidden: Vec<f32>,
}

impl Scratch {
    fn new(net: &ValueNet) -> Self {
        Scratch {
            pos: Position::new(net.board(), RingDetection::Online),
            moves: Vec::new(),
            values: Vec::new(),
            inputs: Vec::new(),
            starts: Vec::new(),
            next_values: Vec::new(),
            targets: Vec::new(),
            position_inputs: Vec::new(),
            image: Vec::new(),
            hidden: vec![0.0; net.hidden()],
        }
    }
}

/// A generator for game `index` of a run seeded with `seed`.
pub(crate) fn game_rng(seed: u64, index: u64) -> Pcg64Mcg {
    Pcg64Mcg::seed_from_u64(splitmix(seed ^ splitmix(index.wrapping_add(0x5851_F42D))))
}

fn splitmix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The empty cells of `pos` in `moves` and their values for White in `values`: `+1`/`-1`
/// for a move that wins for White/Black, `0` for a move that fills the board without a
/// win, the net's value of the next position otherwise.
pub(crate) fn value_moves(
    net: &ValueNet,
    pos: &Position,
    moves: &mut Vec<Cell>,
    values: &mut Vec<f32>,
) {
    moves.clear();
    moves.extend(pos.board().cells().filter(|&c| pos.is_empty(c)));
    values.clear();
    values.resize(moves.len(), 0.0);
    net.evaluate_moves(pos, moves, values);
    let mover = pos.to_move();
    let win = match mover {
        Colour::White => 1.0,
        Colour::Black => -1.0,
    };
    let last = moves.len() == 1;
    for (m, v) in moves.iter().zip(values.iter_mut()) {
        if !pos.winning_kinds(*m, mover).is_empty() {
            *v = win;
        } else if last {
            *v = 0.0;
        }
    }
}

fn sign_of(colour: Colour) -> f32 {
    match colour {
        Colour::White => 1.0,
        Colour::Black => -1.0,
    }
}

/// The index of the first of the best values for `mover` (`0` if `values` is empty).
pub(crate) fn best_index(values: &[f32], mover: Colour) -> usize {
    let sign = sign_of(mover);
    let mut best = 0;
    let mut best_score = f32::NEG_INFINITY;
    for (i, v) in values.iter().enumerate() {
        if sign * v > best_score {
            best_score = sign * v;
            best = i;
        }
    }
    best
}

/// The index of the move to play: Gibbs choice over the mover's values at `temperature`,
/// or the first best move at temperature 0.
pub(crate) fn choose<R: Rng + ?Sized>(
    values: &[f32],
    mover: Colour,
    temperature: f32,
    rng: &mut R,
) -> usize {
    let sign = sign_of(mover);
    let best = best_index(values, mover);
    if temperature <= 0.0 {
        return best;
    }
    let best_score = sign * values[best];
    let inv = 1.0 / temperature;
    let total: f32 = values
        .iter()
        .map(|v| ((sign * v - best_score) * inv).exp())
        .sum();
    let mut x = rng.random::<f32>() * total;
    for (i, v) in values.iter().enumerate() {
        x -= ((sign * v - best_score) * inv).exp();
        if x < 0.0 {
            return i;
        }
    }
    best
}

/// Plays game `index` by self-play and adds its TD update to `grad` (cleared first).
fn learn_game(
    net: &ValueNet,
    config: &TrainConfig,
    index: u64,
    grad: &mut Gradient,
    s: &mut Scratch,
) -> GameSummary {
    let board: &Board = net.board();
    let mut rng = game_rng(config.seed, index);
    s.pos
        .clone_from(&Position::new(board, RingDetection::Online));
    s.inputs.clear();
    s.starts.clear();
    s.next_values.clear();
    let winner = loop {
        s.starts.push(s.inputs.len());
        encode_sparse(&s.pos, &mut s.position_inputs);
        s.inputs.extend_from_slice(&s.position_inputs);
        value_moves(net, &s.pos, &mut s.moves, &mut s.values);
        let mover = s.pos.to_move();
        let i = choose(&s.values, mover, config.temperature, &mut rng);
        s.next_values.push(s.values[i]);
        let kinds = s.pos.place(s.moves[i]);
        if !kinds.is_empty() {
            break Some(mover);
        }
        if s.pos.is_full() {
            break None;
        }
    };
    s.starts.push(s.inputs.len());
    let result = match winner {
        Some(Colour::White) => 1.0,
        Some(Colour::Black) => -1.0,
        None => 0.0,
    };
    // Lambda-returns, backwards.
    let t_end = s.next_values.len();
    s.targets.clear();
    s.targets.resize(t_end, 0.0);
    let mut g = result;
    s.targets[t_end - 1] = g;
    for t in (0..t_end - 1).rev() {
        g = config.gamma * ((1.0 - config.lambda) * s.next_values[t] + config.lambda * g);
        s.targets[t] = g;
    }
    grad.clear();
    let scale = 1.0 / config.augmentation.images() as f32;
    let mut samples = 0;
    for t in 0..t_end {
        let inputs = &s.inputs[s.starts[t]..s.starts[t + 1]];
        let hidden = &mut s.hidden;
        for_each_image(
            board,
            inputs,
            s.targets[t],
            config.augmentation,
            &mut s.image,
            |image, target| {
                accumulate_gradient(net, image, target, scale, grad, hidden);
                samples += 1;
            },
        );
    }
    GameSummary {
        winner,
        moves: t_end as u64,
        samples,
    }
}
