//! The traits a game implements to be searched: [`Game`], [`Playout`], [`Prior`], and their
//! plain-data companions [`Rewards`], [`PlayoutResult`], [`Trace`] and [`PriorValue`].

use std::fmt::Debug;
use std::marker::PhantomData;

use rand::{Rng, RngExt};

use crate::MctsError;

/// A player: `0` (the first player) or `1` (the second).
///
/// Functions that take a player read any value other than `0` as player `1`, so they never panic.
pub type Player = usize;

/// The result of a finished game: one reward in `[0, 1]` per player.
///
/// A win is `1` for the winner and `0` for the loser, a draw is `0.5` for both. Other values are
/// allowed (e.g. a score margin mapped to `[0, 1]`); the MCTS-solver only proves results whose
/// rewards are exactly a win, a loss or a draw.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Rewards {
    rewards: [f32; 2],
}

impl Rewards {
    /// A draw: `0.5` for both players.
    pub const DRAW: Rewards = Rewards {
        rewards: [0.5, 0.5],
    };

    /// A win for `player` (`1`) and a loss for the other (`0`).
    pub fn win(player: Player) -> Self {
        if player == 0 {
            Rewards {
                rewards: [1.0, 0.0],
            }
        } else {
            Rewards {
                rewards: [0.0, 1.0],
            }
        }
    }

    /// Rewards given explicitly for player 0 and player 1.
    ///
    /// # Errors
    /// [`MctsError::InvalidReward`] if a reward is not a number in `[0, 1]`.
    pub fn from_rewards(reward0: f32, reward1: f32) -> Result<Self, MctsError> {
        for r in [reward0, reward1] {
            if !(0.0..=1.0).contains(&r) {
                return Err(MctsError::InvalidReward(r));
            }
        }
        Ok(Rewards {
            rewards: [reward0, reward1],
        })
    }

    /// The reward of `player` (in `[0, 1]`).
    #[inline]
    pub fn reward(&self, player: Player) -> f32 {
        self.rewards[usize::from(player != 0)]
    }

    /// The winner, if one player got `1` and the other `0`.
    pub fn winner(&self) -> Option<Player> {
        match self.rewards {
            [1.0, 0.0] => Some(0),
            [0.0, 1.0] => Some(1),
            _ => None,
        }
    }

    /// Whether some player won outright (see [`Rewards::winner`]).
    #[inline]
    pub fn is_decisive(&self) -> bool {
        self.winner().is_some()
    }
}

/// A two-player, perfect-information, turn-based game that the search can explore.
///
/// The search clones the root state once per simulation (with [`Clone::clone_from`], so a game
/// that owns heap buffers can implement `clone_from` to reuse them), plays moves with
/// [`Game::play`] and asks [`Game::result`] at the leaves. Nothing here needs to be fast except
/// `clone_from`, `play`, `to_move`, `result` and `move_index`, which run on every simulation.
pub trait Game: Clone + Send + Sync {
    /// A move. Kept in every tree node, so small is better: with a move of at most 4 bytes a
    /// node takes 32 bytes.
    type Move: Copy + Eq + Debug + Send + Sync;

    /// The player to move, `0` or `1`. Players need not alternate: a game may split a move
    /// in two, with the same player to move again (the solver, GRAVE and
    /// [`Mcts::advance`](crate::Mcts::advance) take it into account).
    fn to_move(&self) -> Player;

    /// Appends the legal moves to `moves`. The search clears the buffer before calling.
    ///
    /// A state that is not over must have at least one legal move (a state without legal moves
    /// and without a [`Game::result`] is scored as a draw). The order must be deterministic: it
    /// fixes the order of the children and thus the search's tie-breaking.
    fn legal_moves(&self, moves: &mut Vec<Self::Move>);

    /// Plays a legal move for the side to move.
    fn play(&mut self, mv: Self::Move);

    /// The result if the game is over, `None` otherwise.
    fn result(&self) -> Option<Rewards>;

    /// A dense index of a move, below [`Game::move_bound`]. It must not depend on the state
    /// (the same move always has the same index): the AMAF statistics are keyed by it.
    fn move_index(&self, mv: Self::Move) -> usize;

    /// One more than the largest [`Game::move_index`]. Must not change during a game.
    fn move_bound(&self) -> usize;
}

/// The moves of one simulation, with who played them, in order.
///
/// The search pushes the moves of the tree phase; a [`Playout`] pushes the moves it plays. The
/// buffer is reused across simulations, so pushing never allocates once it has grown.
#[derive(Clone, Debug)]
pub struct Trace<M> {
    moves: Vec<(M, u8)>,
}

impl<M: Copy> Trace<M> {
    /// An empty trace.
    pub fn new() -> Self {
        Trace { moves: Vec::new() }
    }

    /// Records that `player` played `mv`.
    #[inline]
    pub fn push(&mut self, player: Player, mv: M) {
        self.moves.push((mv, u8::from(player != 0)));
    }

    /// Number of moves recorded.
    #[inline]
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// Whether no move is recorded.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// The `i`-th move and its player, if any.
    #[inline]
    pub fn get(&self, i: usize) -> Option<(Player, M)> {
        self.moves.get(i).map(|&(m, p)| (p as Player, m))
    }

    /// The moves and their players, in order.
    pub fn iter(&self) -> impl Iterator<Item = (Player, M)> + '_ {
        self.moves.iter().map(|&(m, p)| (p as Player, m))
    }

    /// Forgets all moves (keeps the allocation).
    #[inline]
    pub fn clear(&mut self) {
        self.moves.clear();
    }

    #[inline]
    pub(crate) fn raw(&self) -> &[(M, u8)] {
        &self.moves
    }
}

impl<M: Copy> Default for Trace<M> {
    fn default() -> Self {
        Self::new()
    }
}

/// What a [`Playout`] reports.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub struct PlayoutResult {
    /// The result of the game, or the playout's estimate when it stopped early.
    pub outcome: Rewards,
    /// Number of moves the playout played.
    pub length: usize,
    /// Whether the playout stopped before the game ended (at the horizon it was given, or by its
    /// own rule). With the playout horizon enabled such a playout is discarded.
    pub stopped_early: bool,
    /// Weight of this playout for weighted AMAF (see
    /// [`AmafWeighting::Playout`](crate::AmafWeighting::Playout)); `1 / length` by default.
    pub weight: f32,
}

impl PlayoutResult {
    /// A playout that reached the end of the game after `length` moves (weight `1 / length`).
    pub fn finished(outcome: Rewards, length: usize) -> Self {
        PlayoutResult {
            outcome,
            length,
            stopped_early: false,
            weight: 1.0 / length.max(1) as f32,
        }
    }

    /// A playout that stopped after `length` moves before the end, with an estimated outcome
    /// (weight `1 / length`).
    pub fn stopped(estimate: Rewards, length: usize) -> Self {
        PlayoutResult {
            outcome: estimate,
            length,
            stopped_early: true,
            weight: 1.0 / length.max(1) as f32,
        }
    }

    /// The same result with another AMAF weight (must be positive and finite to count).
    pub fn with_weight(mut self, weight: f32) -> Self {
        self.weight = weight;
        self
    }
}

/// A playout policy: finishes a game from a state.
///
/// Each search thread owns a clone, so a policy can keep buffers in `self`.
pub trait Playout<G: Game>: Clone + Send {
    /// Plays `game` to its end (or at most `max_moves` moves; `usize::MAX` means no limit)
    /// with `rng`, pushes the moves it plays onto `trace` in order with the players who played
    /// them, and reports the result. It is called only on states that are not over.
    ///
    /// The trace feeds the AMAF statistics and nothing else: a policy may leave out moves that
    /// should not count there (forced replies, say; the AMAF horizon then counts the moves
    /// recorded).
    fn playout<R: Rng + ?Sized>(
        &mut self,
        game: &mut G,
        rng: &mut R,
        max_moves: usize,
        trace: &mut Trace<G::Move>,
    ) -> PlayoutResult;

    /// Moves the tree rates best, given before each playout when the search has a playout
    /// pool ([`ConfigBuilder::playout_pool`](crate::ConfigBuilder::playout_pool); empty
    /// where no node on the path has enough visits). A policy may play them in place of
    /// random moves (PoolRAVE); the default ignores them.
    fn set_pool(&mut self, pool: &[G::Move]) {
        let _ = pool;
    }
}

/// The uniform random playout: every move is drawn uniformly from [`Game::legal_moves`].
///
/// It works for any game but asks for the legal moves after every move; real engines write a
/// faster policy for their game. Stopped at `max_moves`, it estimates a draw.
#[derive(Debug)]
pub struct UniformPlayout<G: Game> {
    buffer: Vec<G::Move>,
    _game: PhantomData<fn() -> G>,
}

impl<G: Game> UniformPlayout<G> {
    /// A new uniform playout policy.
    pub fn new() -> Self {
        UniformPlayout {
            buffer: Vec::new(),
            _game: PhantomData,
        }
    }
}

impl<G: Game> Default for UniformPlayout<G> {
    fn default() -> Self {
        Self::new()
    }
}

impl<G: Game> Clone for UniformPlayout<G> {
    fn clone(&self) -> Self {
        Self::new()
    }
}

impl<G: Game> Playout<G> for UniformPlayout<G> {
    fn playout<R: Rng + ?Sized>(
        &mut self,
        game: &mut G,
        rng: &mut R,
        max_moves: usize,
        trace: &mut Trace<G::Move>,
    ) -> PlayoutResult {
        let mut length = 0;
        loop {
            if let Some(outcome) = game.result() {
                return PlayoutResult::finished(outcome, length);
            }
            if length >= max_moves {
                return PlayoutResult::stopped(Rewards::DRAW, length);
            }
            self.buffer.clear();
            game.legal_moves(&mut self.buffer);
            if self.buffer.is_empty() {
                return PlayoutResult::finished(Rewards::DRAW, length);
            }
            let mv = self.buffer[rng.random_range(0..self.buffer.len())];
            trace.push(game.to_move(), mv);
            game.play(mv);
            length += 1;
        }
    }
}

/// What a [`Prior`] gives a new child: `visits` virtual simulations of which the player
/// making the move won `wins` (`0 <= wins <= visits`), and a progressive bias.
///
/// The virtual statistics go into the child's UCT statistics, its AMAF statistics or both (see
/// [`PriorTarget`](crate::PriorTarget)). The bias is added to the child's selection value
/// divided by the square root of its visits, so it steers the first visits and fades (as in
/// Chaslot et al.'s progressive bias).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PriorValue {
    /// Virtual wins (rewards summed) for the player making the move.
    pub wins: f32,
    /// Virtual visits.
    pub visits: u32,
    /// The progressive bias, in `[0, 2.55]` (kept to two decimals).
    pub bias: f32,
}

/// What a [`Prior`] proved about a node while narrowing its moves (see [`Prior::narrow`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Narrowing {
    /// Nothing proven: the moves kept are the ones worth searching.
    #[default]
    Open,
    /// The player to move wins at once with the first move kept.
    Win,
    /// The player to move loses whatever it plays; the moves kept are its best tries.
    Loss,
}

/// Domain knowledge for new nodes: priors for the children of a node being expanded.
///
/// Shared by all search threads (hence `Sync`).
pub trait Prior<G: Game>: Sync {
    /// Fills `out[i]` with the prior of `moves[i]` (the moves of `game`, the state of the
    /// node being expanded, as left by [`Prior::narrow`]). `out` has the same length as `moves`
    /// and holds zeros on entry.
    fn priors(&self, game: &G, moves: &[G::Move], out: &mut [PriorValue]);

    /// Narrows the legal moves of a node being expanded to those worth searching, and says
    /// whether that proves the node. Called at every expansion, whatever
    /// [`Prior::is_active`] says, before [`Prior::priors`].
    ///
    /// It may only remove moves and must keep at least one: with [`Narrowing::Win`] the
    /// winning move first, with [`Narrowing::Loss`] the move to try. It must be sound: remove
    /// a move only when a kept one is at least as good (for example, when the opponent
    /// threatens to win at one cell, blocking there is the only move that does not lose at
    /// once). The MCTS-solver turns `Win` and `Loss` into proofs. The default keeps every
    /// move.
    fn narrow(&self, game: &G, moves: &mut Vec<G::Move>) -> Narrowing {
        let _ = (game, moves);
        Narrowing::Open
    }

    /// Whether this prior does anything; `false` lets the search skip the call.
    fn is_active(&self) -> bool {
        true
    }
}

/// No domain knowledge: every child starts with zero statistics.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoPrior;

impl<G: Game> Prior<G> for NoPrior {
    fn priors(&self, _game: &G, _moves: &[G::Move], _out: &mut [PriorValue]) {}

    fn is_active(&self) -> bool {
        false
    }
}
