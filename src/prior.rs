//! Priors for new tree nodes: Havannah knowledge as virtual wins and visits.

use havannah_board::{Board, Cell};
use havannah_rules::{Colour, Position};
use rave_mcts::{Prior, PriorValue};

use crate::game::{HMove, HavannahGame};

/// The weights of the prior's features. A child starts with `visits` virtual visits at a value
/// of 0.5 plus the bonuses of the features its cell has (clamped to `[0.05, 0.95]`).
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PriorConfig {
    /// Virtual visits given to every child (0 turns the prior off).
    pub visits: u32,
    /// Bonus for a cell next to a stone of the player to move (connection).
    pub own_neighbour: f32,
    /// Bonus for a cell next to an opponent stone (contact, blocking).
    pub opponent_neighbour: f32,
    /// Bonus for a cell making a two-bridge with an own stone (both carrier cells empty).
    pub bridge: f32,
    /// Bonus for a cell within distance 2 of the last move (locality).
    pub near_last: f32,
    /// Penalty for an edge cell (corner or side) with no stone within distance 2.
    pub lonely_edge: f32,
    /// Penalty for a cell with no stone within distance 2 once the board has stones.
    pub far: f32,
}

impl Default for PriorConfig {
    fn default() -> PriorConfig {
        PriorConfig {
            visits: 20,
            own_neighbour: 0.08,
            opponent_neighbour: 0.04,
            bridge: 0.10,
            near_last: 0.06,
            lonely_edge: 0.15,
            far: 0.08,
        }
    }
}

impl PriorConfig {
    /// No prior: every child starts empty.
    #[must_use]
    pub fn off() -> PriorConfig {
        PriorConfig {
            visits: 0,
            ..PriorConfig::default()
        }
    }
}

/// The Havannah prior for [`rave_mcts`]: connection to own stones, two-bridges, contact,
/// locality around the last move, and a penalty for lonely edge cells.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HavannahPrior {
    config: PriorConfig,
}

impl HavannahPrior {
    /// A prior with these weights.
    #[must_use]
    pub fn new(config: PriorConfig) -> HavannahPrior {
        HavannahPrior { config }
    }

    /// The weights.
    #[must_use]
    pub fn config(&self) -> &PriorConfig {
        &self.config
    }

    /// The prior value in `[0.05, 0.95]` of a stone of `me` on the empty `cell`.
    #[must_use]
    pub fn value(&self, pos: &Position, cell: Cell, me: Colour, last: Option<Cell>) -> f32 {
        let c = &self.config;
        let board = pos.board();
        let mut v = 0.5f32;
        let mut own = false;
        let mut opp = false;
        for &nb in board.neighbours(cell) {
            match pos.stone(nb) {
                Some(s) if s == me => own = true,
                Some(_) => opp = true,
                None => {}
            }
        }
        if own {
            v += c.own_neighbour;
        }
        if opp {
            v += c.opponent_neighbour;
        }
        if makes_bridge(pos, board, cell, me) {
            v += c.bridge;
        }
        if let Some(last) = last
            && board.distance(cell, last) <= 2
        {
            v += c.near_last;
        }
        if pos.num_stones() > 0 && !stone_within_two(pos, board, cell) {
            v -= c.far;
            if board.edge_mask(cell) != 0 {
                v -= c.lonely_edge;
            }
        }
        v.clamp(0.05, 0.95)
    }
}

/// Whether a stone of `me` on `cell` forms a two-bridge with an own stone: the cell two steps
/// away (directions d and d+1) is own and both common neighbours are empty.
fn makes_bridge(pos: &Position, board: &Board, cell: Cell, me: Colour) -> bool {
    let nbs = board.neighbours6(cell);
    let n = board.num_cells();
    (0..6).any(|d| {
        let a = nbs[d];
        let b = nbs[(d + 1) % 6];
        if a.index() >= n || b.index() >= n {
            return false;
        }
        let far = board.neighbours6(a)[(d + 1) % 6];
        far.index() < n && pos.stone(far) == Some(me) && pos.is_empty(a) && pos.is_empty(b)
    })
}

fn stone_within_two(pos: &Position, board: &Board, cell: Cell) -> bool {
    board
        .neighbours(cell)
        .iter()
        .any(|&nb| !pos.is_empty(nb) || board.neighbours(nb).iter().any(|&x| !pos.is_empty(x)))
}

impl Prior<HavannahGame> for HavannahPrior {
    fn priors(&self, game: &HavannahGame, moves: &[HMove], out: &mut [PriorValue]) {
        if self.config.visits == 0 {
            return;
        }
        let pos = game.position();
        let board = pos.board();
        let me = pos.to_move();
        let (last, _) = game.last_cells();
        let last =
            (usize::from(last) < board.num_cells()).then(|| Cell::from_index(usize::from(last)));
        let visits = self.config.visits;
        for (mv, slot) in moves.iter().zip(out.iter_mut()) {
            let value = if usize::from(mv.0) >= board.num_cells() {
                0.5
            } else {
                self.value(pos, Cell::from_index(usize::from(mv.0)), me, last)
            };
            *slot = PriorValue {
                wins: value * visits as f32,
                visits,
            };
        }
    }

    fn is_active(&self) -> bool {
        self.config.visits > 0
    }
}
