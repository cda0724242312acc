//! A playout for any connection game played by placing stones: uniform random moves, each
//! drawn from an array of the empty cells in constant time, with the bridge-saving reply
//! ([`Ring::saves`]) switched on or off.

use rand::{Rng, RngExt};
use rave_mcts::{Game, Playout, PlayoutResult, Rewards, Trace};

use crate::bridge::{Ring, nth_direction};

/// A connection game played by placing stones, as the bridge-saving playout and
/// [`ConnectionPrior`](crate::ConnectionPrior) see it: moves onto cells, the last stone, and
/// the ring of neighbours around a cell. The game's legal moves must be its empty cells (and
/// moves that are no cell, such as a swap, which the playout never plays), every empty cell
/// legal until the game ends (no captures).
pub trait Placement: Game {
    /// The cell of the last stone played, `None` before the first.
    fn last_cell(&self) -> Option<usize>;

    /// The six neighbours of `cell` in circular order, as the player to move sees them.
    fn ring(&self, cell: usize) -> Ring;

    /// The neighbour of `cell` in `direction` (0 to 5, the order of [`Placement::ring`]), if
    /// it is on the board.
    fn neighbour(&self, cell: usize, direction: usize) -> Option<usize>;

    /// The move that puts a stone on `cell`.
    fn move_onto(&self, cell: usize) -> Self::Move;

    /// The cell a move puts a stone on; `None` for a move that places none.
    fn cell_of(&self, mv: Self::Move) -> Option<usize>;
}

/// The playout: while the game goes on, the player to move saves a two-bridge that the
/// opponent's last stone intruded into (one at random when there are several; only when
/// `bridge_save` is on), else plays a uniformly random empty cell.
///
/// ```
/// use connection_kit::BridgePlayout;
/// # #[derive(Clone)] struct Tiny;
/// # impl rave_mcts::Game for Tiny {
/// #     type Move = u8;
/// #     fn to_move(&self) -> usize { 0 }
/// #     fn legal_moves(&self, _: &mut Vec<u8>) {}
/// #     fn play(&mut self, _: u8) {}
/// #     fn result(&self) -> Option<rave_mcts::Rewards> { None }
/// #     fn move_index(&self, mv: u8) -> usize { usize::from(mv) }
/// #     fn move_bound(&self) -> usize { 1 }
/// # }
/// # impl connection_kit::Placement for Tiny {
/// #     fn last_cell(&self) -> Option<usize> { None }
/// #     fn ring(&self, _: usize) -> connection_kit::bridge::Ring { Default::default() }
/// #     fn neighbour(&self, _: usize, _: usize) -> Option<usize> { None }
/// #     fn move_onto(&self, cell: usize) -> u8 { cell as u8 }
/// #     fn cell_of(&self, mv: u8) -> Option<usize> { Some(usize::from(mv)) }
/// # }
/// // Any game implementing `Placement` (Y does) gets the playout with one line.
/// let playout: BridgePlayout<Tiny> = BridgePlayout::new(true);
/// assert!(playout.saves_bridges());
/// ```
#[derive(Debug)]
pub struct BridgePlayout<G: Game> {
    bridge_save: bool,
    /// The empty cells' moves, in no order.
    moves: Vec<G::Move>,
    /// The place of each move in `moves`, by [`Game::move_index`].
    slot: Vec<u32>,
}

impl<G: Game> BridgePlayout<G> {
    /// The playout, saving bridges when `bridge_save` is on.
    #[must_use]
    pub fn new(bridge_save: bool) -> BridgePlayout<G> {
        BridgePlayout {
            bridge_save,
            moves: Vec::new(),
            slot: Vec::new(),
        }
    }

    /// Whether the playout saves bridges.
    #[must_use]
    pub fn saves_bridges(&self) -> bool {
        self.bridge_save
    }
}

impl<G: Game> Default for BridgePlayout<G> {
    /// Saving bridges.
    fn default() -> Self {
        BridgePlayout::new(true)
    }
}

impl<G: Game> Clone for BridgePlayout<G> {
    fn clone(&self) -> Self {
        BridgePlayout::new(self.bridge_save)
    }
}

impl<G: Placement> BridgePlayout<G> {
    /// The place in `moves` of the reply that saves a bridge the last stone intruded into.
    #[inline]
    fn reply<R: Rng + ?Sized>(&self, game: &G, rng: &mut R) -> Option<usize> {
        let last = game.last_cell()?;
        let saves = game.ring(last).saves();
        let count = saves.count_ones() as usize;
        let k = match count {
            0 => return None,
            1 => 0,
            _ => rng.random_range(0..count),
        };
        let cell = game.neighbour(last, nth_direction(saves, k)?)?;
        Some(self.slot[game.move_index(game.move_onto(cell))] as usize)
    }
}

impl<G: Placement> Playout<G> for BridgePlayout<G> {
    fn playout<R: Rng + ?Sized>(
        &mut self,
        game: &mut G,
        rng: &mut R,
        max_moves: usize,
        trace: &mut Trace<G::Move>,
    ) -> PlayoutResult {
        self.moves.clear();
        game.legal_moves(&mut self.moves);
        self.moves.retain(|&mv| game.cell_of(mv).is_some());
        self.slot.resize(game.move_bound(), 0);
        for (i, &mv) in self.moves.iter().enumerate() {
            self.slot[game.move_index(mv)] = i as u32;
        }
        let mut length = 0;
        loop {
            if let Some(outcome) = game.result() {
                return PlayoutResult::finished(outcome, length);
            }
            if length >= max_moves {
                return PlayoutResult::stopped(Rewards::DRAW, length);
            }
            if self.moves.is_empty() {
                return PlayoutResult::finished(Rewards::DRAW, length);
            }
            let saved = if self.bridge_save {
                self.reply(game, rng)
            } else {
                None
            };
            let i = saved.unwrap_or_else(|| rng.random_range(0..self.moves.len()));
            let mv = self.moves.swap_remove(i);
            if let Some(&moved) = self.moves.get(i) {
                self.slot[game.move_index(moved)] = i as u32;
            }
            trace.push(game.to_move(), mv);
            game.play(mv);
            length += 1;
        }
    }
}
