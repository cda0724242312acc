//! Priors for new tree nodes: Havannah knowledge as virtual wins and visits.

use std::sync::Arc;

use connection_kit::Threats;
use havannah_board::{Board, Cell};
use havannah_rules::{Colour, Move, Position};
use rave_mcts::{Narrowing, Prior, PriorValue};

use crate::bridge::bridge_saves;
use crate::game::HavannahGame;
use crate::patterns::PatternWeights;
use crate::td::ValueNet;

/// The weights of the prior's features. A child starts with `visits` virtual visits at a value
/// of 0.5 plus the bonuses of the features its cell has (clamped to `[0.05, 0.95]`).
///
/// Start from [`PriorConfig::default`], [`PriorConfig::off`] or [`PriorConfig::tree`] and set
/// the fields that differ (more features may come):
///
/// ```
/// use havannah::PriorConfig;
///
/// let mut config = PriorConfig::tree();
/// config.reach = 0.3;
/// assert!(config.threats && config.visits == 0);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct PriorConfig {
    /// Virtual visits given to every child (0 turns the prior off).
    pub visits: u32,
    /// Bonus for a cell next to a stone of the player to move (connection).
    pub own_neighbour: f32,
    /// Bonus for a cell next to an opponent stone (contact, blocking).
    pub opponent_neighbour: f32,
    /// Bonus for a cell making a two-bridge with an own stone (both carrier cells empty).
    pub bridge: f32,
    /// Bonus for a cell that joins an own chain to a corner or side it did not touch, or
    /// joins own chains into one touching more corners and sides than any of them.
    pub edge_connection: f32,
    /// Bonus for a cell within distance 2 of the last move (locality).
    pub near_last: f32,
    /// Penalty for an edge cell (corner or side) with no stone within distance 2.
    pub lonely_edge: f32,
    /// Penalty for a cell with no stone within distance 2 once the board has stones.
    pub far: f32,
    /// Progressive bias per corner and side that the chain of the new stone would touch
    /// (the cell's own included): moves that connect towards a bridge or a fork first.
    pub reach: f32,
    /// Progressive bias for the reply that saves a two-bridge the opponent's last stone
    /// intruded into (a bridge to a board edge counts).
    pub bridge_reply: f32,
    /// Narrow every new node by immediate threats: a move that wins at once proves the node
    /// won; a single cell where the opponent would win at once is the only move; two or
    /// more prove the node lost (see [`rave_mcts::Prior::narrow`]).
    pub threats: bool,
    /// Progressive bias from the learned patterns ([`crate::patterns`]): a move's bias is
    /// this weight times its share of the pattern strengths of all legal moves (0: off).
    #[cfg_attr(feature = "serde", serde(default))]
    pub patterns: f32,
}

impl Default for PriorConfig {
    fn default() -> PriorConfig {
        PriorConfig {
            visits: 20,
            own_neighbour: 0.08,
            opponent_neighbour: 0.04,
            bridge: 0.10,
            edge_connection: 0.08,
            near_last: 0.06,
            lonely_edge: 0.15,
            far: 0.08,
            reach: 0.0,
            bridge_reply: 0.0,
            threats: false,
            patterns: 0.0,
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

    /// Knowledge in the tree only, as strong programs such as morat use it: immediate wins
    /// and threats narrow every new node, and a progressive bias for reaching corners and
    /// sides (0.2 each) and for saving an intruded bridge (0.25); no virtual visits.
    #[must_use]
    pub fn tree() -> PriorConfig {
        PriorConfig {
            visits: 0,
            reach: 0.2,
            bridge_reply: 0.25,
            threats: true,
            ..PriorConfig::default()
        }
    }
}

/// The Havannah prior for [`rave_mcts`]: connection to own stones, to corners and sides,
/// two-bridges, contact, locality around the last move, and a penalty for lonely edge cells;
/// optionally mixed with a learned value network ([`HavannahPrior::with_value_net`]).
#[derive(Debug, Clone)]
pub struct HavannahPrior {
    config: PriorConfig,
    net: Option<(Arc<ValueNet>, f32)>,
    patterns: Option<Arc<PatternWeights>>,
}

impl HavannahPrior {
    /// A prior with these weights; with [`PriorConfig::patterns`] above 0, it uses the
    /// built-in pattern weights ([`PatternWeights::builtin`]).
    #[must_use]
    pub fn new(config: PriorConfig) -> HavannahPrior {
        let patterns = (config.patterns > 0.0).then(PatternWeights::builtin);
        HavannahPrior {
            config,
            net: None,
            patterns,
        }
    }

    /// Uses these pattern weights instead of the built-in ones (when
    /// [`PriorConfig::patterns`] is above 0).
    #[must_use]
    pub fn with_patterns(mut self, weights: Arc<PatternWeights>) -> HavannahPrior {
        if self.config.patterns > 0.0 {
            self.patterns = Some(weights);
        }
        self
    }

    /// Mixes a value network into the prior: a child's value becomes
    /// `(1 - weight) * pattern value + weight * (1 + v) / 2`, where `v` in `[-1, 1]` is the
    /// network's value of the position after the move for the player making it. The network
    /// must be for the board size of the games searched (see
    /// [`ValueNet::load_for`](crate::td::ValueNet::load_for)); on another size it is not used.
    #[must_use]
    pub fn with_value_net(mut self, net: Arc<ValueNet>, weight: f32) -> HavannahPrior {
        self.net = Some((net, weight.clamp(0.0, 1.0)));
        self
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
        let mut best_before = 0;
        let mut joined = board.edge_mask(cell);
        for &nb in board.neighbours(cell) {
            match pos.stone(nb) {
                Some(s) if s == me => {
                    own = true;
                    let m = pos.chain_mask(nb);
                    best_before = best_before.max(m.count_ones());
                    joined |= m;
                }
                Some(_) => opp = true,
                None => {}
            }
        }
        if own {
            v += c.own_neighbour;
            if joined.count_ones() > best_before {
                v += c.edge_connection;
            }
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

/// The number of corners and sides the chain of a stone of `me` on `cell` would touch.
fn reach(pos: &Position, cell: Cell, me: Colour) -> u32 {
    let board = pos.board();
    let mut mask = board.edge_mask(cell);
    // The neighbours holding a stone of `me`, one load; most cells have none.
    let mut mine = pos.neighbour_set(cell, Some(me));
    let nbs = board.neighbours6(cell);
    while mine != 0 {
        mask |= pos.chain_mask(nbs[mine.trailing_zeros() as usize]);
        mine &= mine - 1;
    }
    mask.count_ones()
}

/// What immediate threats say about the position (connection-kit's [`Threats`], cells by
/// index): the first cell where the player to move wins at once, or else the cells where the
/// opponent would (the first one and how many, up to two).
fn threats(pos: &Position) -> Threats {
    let board = pos.board();
    let me = pos.to_move();
    let opp = me.other();
    let (mut first, mut count) = (None, 0);
    for cell in board.cells().filter(|&c| pos.is_empty(c)) {
        // Whether a neighbour holds a stone of either colour: one load each.
        let mine = pos.neighbour_set(cell, Some(me)) != 0;
        let theirs = pos.neighbour_set(cell, Some(opp)) != 0;
        // A lone stone touches at most one corner or side: only a neighbour can help it win.
        if mine && !pos.winning_kinds(cell, me).is_empty() {
            return Threats::Win(cell.index());
        }
        if theirs && count < 2 && !pos.winning_kinds(cell, opp).is_empty() {
            first.get_or_insert(cell.index());
            count += 1;
        }
    }
    Threats::Against { first, count }
}

impl Prior<HavannahGame> for HavannahPrior {
    fn narrow(&self, game: &HavannahGame, moves: &mut Vec<Move>) -> Narrowing {
        if !self.config.threats {
            return Narrowing::Open;
        }
        let pos = game.position();
        // The fewest stones of one colour that can win: a bridge along a side, or a ring.
        let fewest = usize::from(pos.board().size()).min(6);
        if pos.num_stones() / 2 + 1 < fewest {
            return Narrowing::Open;
        }
        threats(pos).narrow(moves, |cell| Move::Cell(Cell::from_index(cell)))
    }

    fn priors(&self, game: &HavannahGame, moves: &[Move], out: &mut [PriorValue]) {
        self.add_bias(game, moves, out);
        if self.config.visits == 0 {
            return;
        }
        let pos = game.position();
        let board = pos.board();
        let me = pos.to_move();
        let last = game.last_cell();
        let visits = self.config.visits;
        for (&mv, slot) in moves.iter().zip(out.iter_mut()) {
            let value = match mv {
                Move::Cell(cell) => self.value(pos, cell, me, last),
                Move::Swap => 0.5,
            };
            slot.wins = value * visits as f32;
            slot.visits = visits;
        }
        if let Some((net, weight)) = &self.net
            && net.size() == board.size()
        {
            let cells: Vec<Cell> = moves
                .iter()
                .filter_map(|&m| match m {
                    Move::Cell(cell) => Some(cell),
                    Move::Swap => None,
                })
                .collect();
            let mut values = vec![0.0f32; cells.len()];
            net.evaluate_moves(pos, &cells, &mut values);
            let sign = if me == Colour::White { 1.0 } else { -1.0 };
            let mut k = 0;
            for (mv, slot) in moves.iter().zip(out.iter_mut()) {
                if *mv == Move::Swap {
                    continue;
                }
                let learned = (1.0 + sign * values[k]) / 2.0;
                k += 1;
                let pattern = slot.wins / visits as f32;
                let mixed = (1.0 - weight) * pattern + weight * learned;
                slot.wins = mixed.clamp(0.0, 1.0) * visits as f32;
            }
        }
    }

    fn is_active(&self) -> bool {
        let c = &self.config;
        c.visits > 0 || c.reach > 0.0 || c.bridge_reply > 0.0 || c.patterns > 0.0
    }
}

impl HavannahPrior {
    /// Sets the progressive bias of every move (see [`PriorConfig::reach`],
    /// [`PriorConfig::bridge_reply`] and [`PriorConfig::patterns`]).
    fn add_bias(&self, game: &HavannahGame, moves: &[Move], out: &mut [PriorValue]) {
        let c = &self.config;
        if let Some(weights) = &self.patterns {
            pattern_bias(weights, c.patterns, game, moves, out);
        }
        if c.reach <= 0.0 && c.bridge_reply <= 0.0 {
            return;
        }
        let pos = game.position();
        let board = pos.board();
        let me = pos.to_move();
        let mut replies = [board.sentinel(); 6];
        if let Some(intruder) = game.last_cell()
            && c.bridge_reply > 0.0
        {
            let saves = bridge_saves(pos, intruder, me);
            for (d, (slot, &nb)) in replies
                .iter_mut()
                .zip(board.neighbours6(intruder))
                .enumerate()
            {
                if saves & (1 << d) != 0 {
                    *slot = nb;
                }
            }
        }
        for (&mv, slot) in moves.iter().zip(out.iter_mut()) {
            let Move::Cell(cell) = mv else {
                continue;
            };
            let mut bias = c.reach * reach(pos, cell, me) as f32;
            if replies.contains(&cell) {
                bias += c.bridge_reply;
            }
            slot.bias += bias;
        }
    }
}

/// Adds to each move's bias `weight` times its share of the pattern strengths of `moves`.
fn pattern_bias(
    weights: &PatternWeights,
    weight: f32,
    game: &HavannahGame,
    moves: &[Move],
    out: &mut [PriorValue],
) {
    let pos = game.position();
    let last = game.last_cell();
    let mut total = 0.0f32;
    for (&mv, slot) in moves.iter().zip(out.iter_mut()) {
        if let Move::Cell(cell) = mv {
            let gamma = weights.gamma(pos, cell, last);
            slot.bias = gamma;
            total += gamma;
        }
    }
    if total > 0.0 {
        for slot in out.iter_mut() {
            slot.bias *= weight / total;
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use havannah_rules::{GameState, Rules};

    /// A size-8 game without the pie rule after `moves`.
    pub(crate) fn game(moves: &[&str]) -> GameState {
        let mut g = GameState::new(8, Rules { pie: false }).unwrap();
        for m in moves {
            g.play_str(m).unwrap();
        }
        g
    }

    #[test]
    fn two_bridge_is_recognised() {
        // White h8; f6/g7 region: the cell i9+... (h8 + (1,0) + (1,1)) = j9 bridges with h8.
        let g = game(&["h8", "a1"]);
        let b = g.board();
        let pos = g.position();
        let j9 = b.parse_cell("j9").unwrap();
        let i10 = b.parse_cell("i10").unwrap();
        let k8 = b.parse_cell("k8").unwrap();
        assert!(makes_bridge(pos, b, j9, Colour::White));
        assert!(makes_bridge(pos, b, i10, Colour::White));
        assert!(!makes_bridge(pos, b, k8, Colour::White));
        assert!(!makes_bridge(pos, b, j9, Colour::Black));
    }

    #[test]
    fn features_move_the_value() {
        let g = game(&["h8", "g7"]);
        let b = g.board();
        let pos = g.position();
        let prior = HavannahPrior::new(PriorConfig::default());
        let last = Some(b.parse_cell("g7").unwrap());
        let near = prior.value(pos, b.parse_cell("i8").unwrap(), Colour::White, last);
        let far_edge = prior.value(pos, b.parse_cell("o15").unwrap(), Colour::White, last);
        let far_inner = prior.value(pos, b.parse_cell("l12").unwrap(), Colour::White, last);
        assert!(near > 0.5, "{near}");
        assert!(
            far_edge < far_inner && far_inner < 0.5,
            "{far_edge} {far_inner}"
        );
    }

    #[test]
    fn connecting_to_a_side_is_rewarded() {
        // White b2 (inner, next to the edge); a2 joins it to side 5, c3 does not.
        let g = game(&["b2", "o15"]);
        let b = g.board();
        let prior = HavannahPrior::new(PriorConfig {
            near_last: 0.0,
            ..PriorConfig::default()
        });
        let to_side = prior.value(
            g.position(),
            b.parse_cell("a2").unwrap(),
            Colour::White,
            None,
        );
        let inward = prior.value(
            g.position(),
            b.parse_cell("c3").unwrap(),
            Colour::White,
            None,
        );
        assert!(to_side > inward, "{to_side} {inward}");
    }

    /// The cells where the player to move wins by placing a stone, by playing each one.
    fn wins_by_playing(pos: &Position) -> Vec<Cell> {
        pos.board()
            .cells()
            .filter(|&c| pos.is_empty(c))
            .filter(|&c| {
                let mut after = pos.clone();
                after.place(c);
                after.win().is_some()
            })
            .collect()
    }

    /// The cells where the opponent of the player to move would win at once: the mover's
    /// stone on an empty cell `x` changes no opponent threat but the one on `x` (rings may
    /// enclose anything), so two different such cells show them all.
    fn opponent_wins_by_playing(pos: &Position) -> Vec<Cell> {
        let empty: Vec<Cell> = pos.board().cells().filter(|&c| pos.is_empty(c)).collect();
        let mut found = Vec::new();
        for &x in empty.iter().take(2) {
            let mut after = pos.clone();
            after.place(x);
            if after.win().is_some() {
                continue;
            }
            found.extend(wins_by_playing(&after));
        }
        found.sort();
        found.dedup();
        found
    }

    #[test]
    fn narrowing_agrees_with_playing_every_cell() {
        use rand::{RngExt, SeedableRng};
        use rave_mcts::Game as _;
        let prior = HavannahPrior::new(PriorConfig::tree());
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(17);
        let (mut wins, mut blocks, mut losses) = (0, 0, 0);
        for size in [4u8, 5, 6] {
            for _ in 0..60 {
                let mut state = HavannahGame::new(Board::new(size).unwrap(), false);
                loop {
                    let mut legal = Vec::new();
                    state.legal_moves(&mut legal);
                    if state.result().is_some() || legal.is_empty() {
                        break;
                    }
                    let pos = state.position();
                    let mut moves = legal.clone();
                    let narrowing = prior.narrow(&state, &mut moves);
                    let mine = wins_by_playing(pos);
                    let theirs = opponent_wins_by_playing(pos);
                    let enough = pos.num_stones() / 2 + 1 >= usize::from(size).min(6);
                    let kept = |cells: &[Cell]| cells.iter().any(|&c| moves[0] == Move::Cell(c));
                    if !enough {
                        assert!(mine.is_empty() && theirs.is_empty());
                        assert_eq!(moves, legal);
                    } else if !mine.is_empty() {
                        assert_eq!(narrowing, Narrowing::Win);
                        assert!(moves.len() == 1 && kept(&mine));
                        wins += 1;
                    } else if theirs.len() >= 2 {
                        assert_eq!(narrowing, Narrowing::Loss);
                        assert!(moves.len() == 1 && kept(&theirs));
                        losses += 1;
                    } else if theirs.len() == 1 {
                        assert_eq!(narrowing, Narrowing::Open);
                        assert_eq!(moves, vec![Move::Cell(theirs[0])]);
                        blocks += 1;
                    } else {
                        assert_eq!(narrowing, Narrowing::Open);
                        assert_eq!(moves, legal);
                    }
                    let mv = legal[rng.random_range(0..legal.len())];
                    state.play(mv);
                }
            }
        }
        assert!(
            wins > 20 && blocks > 20 && losses > 5,
            "{wins} {blocks} {losses}"
        );
    }

    #[test]
    fn bridge_replies_save_the_intruded_bridge() {
        // White h8 and i10 form a bridge through i9 and h9; Black intrudes at i9.
        let g = game(&["h8", "a1", "i10", "i9"]);
        let b = g.board();
        // The bias goes to the reply that saves White's bridge only.
        let prior = HavannahPrior::new(PriorConfig {
            reach: 0.0,
            ..PriorConfig::tree()
        });
        let state = HavannahGame::from_game(&g);
        let moves = [
            Move::Cell(b.parse_cell("h9").unwrap()),
            Move::Cell(b.parse_cell("j9").unwrap()),
        ];
        let mut out = [PriorValue::default(); 2];
        prior.priors(&state, &moves, &mut out);
        assert_eq!(out[0].bias, 0.25);
        assert_eq!(out[1].bias, 0.0);
    }

    #[test]
    fn reach_counts_the_corners_and_sides_of_the_joined_chain() {
        // White a1 (a corner) and b1 (on the side between corners a1 and h1); c1 joins them:
        // one corner and one side, plus c1's own side (the same one).
        let g = game(&["a1", "o15", "b1", "o14"]);
        let b = g.board();
        let pos = g.position();
        assert_eq!(reach(pos, b.parse_cell("c1").unwrap(), Colour::White), 2);
        // An inner cell away from everything touches nothing.
        assert_eq!(reach(pos, b.parse_cell("h8").unwrap(), Colour::White), 0);
        // A side cell alone touches its side.
        assert_eq!(reach(pos, b.parse_cell("a5").unwrap(), Colour::White), 1);
    }

    #[test]
    fn value_net_mixes_in_for_the_mover() {
        use rand::SeedableRng;
        use rave_mcts::Game as _;
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(5);
        let net = Arc::new(ValueNet::new(4, 16, &mut rng).unwrap());
        let prior =
            HavannahPrior::new(PriorConfig::default()).with_value_net(Arc::clone(&net), 1.0);
        for moves in [&["d4"][..], &["d4", "c3"][..]] {
            let mut g = GameState::new(4, Rules { pie: false }).unwrap();
            for m in moves {
                g.play_str(m).unwrap();
            }
            let state = HavannahGame::from_game(&g);
            let mut legal = Vec::new();
            state.legal_moves(&mut legal);
            let mut out = vec![PriorValue::default(); legal.len()];
            prior.priors(&state, &legal, &mut out);
            let me = g.to_move();
            for (&mv, pv) in legal.iter().zip(&out) {
                let Move::Cell(cell) = mv else {
                    panic!("no swap without the pie rule");
                };
                let mut after = g.position().clone();
                after.place(cell);
                let white = net.evaluate(&after);
                let mine = if me == Colour::White { white } else { -white };
                let want = (1.0 + mine) / 2.0;
                let got = pv.wins / pv.visits as f32;
                assert!((got - want).abs() < 1e-4, "{mv:?}: {got} vs {want}");
            }
        }
        // A network for another size is ignored.
        let other = Arc::new(ValueNet::new(5, 8, &mut rng).unwrap());
        let plain = HavannahPrior::new(PriorConfig::default());
        let mixed = plain.clone().with_value_net(other, 1.0);
        let state = HavannahGame::new(Board::new(4).unwrap(), false);
        let mut legal = Vec::new();
        state.legal_moves(&mut legal);
        let mut a = vec![PriorValue::default(); legal.len()];
        let mut b = a.clone();
        plain.priors(&state, &legal, &mut a);
        mixed.priors(&state, &legal, &mut b);
        assert_eq!(a, b);
    }

    #[test]
    fn pattern_bias_is_the_weighted_share_of_the_strengths() {
        use crate::patterns::{DISTANCE_CLASSES, PatternWeights};
        use rave_mcts::Game as _;
        let g = game(&["h8"]);
        let state = HavannahGame::from_game(&g);
        let mut legal = Vec::new();
        state.legal_moves(&mut legal);
        let b = g.board();
        let h8 = b.parse_cell("h8").unwrap();
        // Contact with the last stone is 8 times as strong as anything else.
        let mut distance = [1.0; DISTANCE_CLASSES];
        distance[0] = 8.0;
        let weights = Arc::new(PatternWeights::new(distance, &[]));
        let config = PriorConfig {
            patterns: 1.5,
            ..PriorConfig::tree()
        };
        let with = HavannahPrior::new(config).with_patterns(weights);
        let without = HavannahPrior::new(PriorConfig::tree());
        let mut a = vec![PriorValue::default(); legal.len()];
        let mut c = a.clone();
        with.priors(&state, &legal, &mut a);
        without.priors(&state, &legal, &mut c);
        // 6 contact cells of strength 8 and the rest of strength 1.
        let total = 6.0 * 8.0 + (legal.len() - 6) as f32;
        for ((&mv, pa), pc) in legal.iter().zip(&a).zip(&c) {
            let Move::Cell(cell) = mv else {
                panic!("no swap without the pie rule");
            };
            let gamma = if b.adjacent(cell, h8) { 8.0 } else { 1.0 };
            let want = pc.bias + 1.5 * gamma / total;
            assert!(
                (pa.bias - want).abs() < 1e-6,
                "{}: {} vs {want}",
                b.cell_name(cell),
                pa.bias
            );
        }
        // Off (weight 0): the weights given are not used.
        let off = HavannahPrior::new(PriorConfig::tree())
            .with_patterns(Arc::new(PatternWeights::new(distance, &[])));
        let mut d = vec![PriorValue::default(); legal.len()];
        off.priors(&state, &legal, &mut d);
        assert_eq!(c, d);
    }
}
