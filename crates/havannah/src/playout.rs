//! Playout policies for Havannah: uniform random and the paper's weighted playout, with the
//! knowledge strong engines use, each switchable.

use havannah_board::{Board, Cell};
use havannah_rules::{Colour, Kinds, Move, Position, RingDetection, RingFinder};
use rand::{Rng, RngExt};
use rave_mcts::{Playout, PlayoutResult, Rewards, Trace};
use weighted_sampler::BlockSampler;

use crate::bridge::bridge_saves;
use crate::game::HavannahGame;

/// How a playout picks the moves no knowledge rule chose.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Policy {
    /// Every empty cell equally likely.
    #[default]
    Uniform,
    /// Könnecke & Waldmann, section 6: weights over the empty cells, starting with weight 1
    /// everywhere and [`PlayoutConfig::centre_weight`] on the centre; after the move of ply n
    /// its empty neighbours get weight n³ (if that is more than they have), so play stays near
    /// the recent moves.
    Weighted,
}

/// How a playout finds rings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum RingCheck {
    /// The incremental finder on every move: the playout stops at the first win of any kind.
    #[default]
    Online,
    /// Bridges and forks on every move, rings once at the end with the off-line
    /// (max,min)-semiring finder; the earliest figure decides.
    Offline,
}

/// The settings of a [`HavannahPlayout`]. Start from [`PlayoutConfig::default`] or
/// [`PlayoutConfig::strong`] and set the fields that differ (more may come).
///
/// ```
/// use havannah::{PlayoutConfig, Policy};
///
/// let mut config = PlayoutConfig::strong();
/// config.policy = Policy::Weighted;
/// config.knowledge_moves = 10;
/// assert!(config.decisive && config.save_bridge);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct PlayoutConfig {
    /// How free moves are drawn.
    pub policy: Policy,
    /// How rings are found.
    pub rings: RingCheck,
    /// Play a move that wins at once, looked for among the empty neighbours of the mover's own
    /// last stone (the only stone that can have made a new such move).
    pub decisive: bool,
    /// Otherwise block a cell where the opponent would win at once, looked for among the empty
    /// neighbours of the opponent's last stone.
    pub anti_decisive: bool,
    /// Otherwise answer an intrusion into a two-bridge (the opponent played one of the two
    /// common neighbours of two of our stones) by playing the other.
    pub save_bridge: bool,
    /// Otherwise play the last good reply to the opponent's move, if its cell is empty
    /// (LGRF-1: replies of the playout's winner are stored, the loser's forgotten).
    pub last_good_reply: bool,
    /// The initial weight of the centre cell for [`Policy::Weighted`] (others start at 1).
    pub centre_weight: u32,
    /// The knowledge rules above apply to the first this many moves of a playout only (0: to
    /// every move). They cost more than a random move, and near the tree is where they
    /// matter (morat's instant-win rule stops after 10 moves for the same reason).
    pub knowledge_moves: u32,
    /// Moves the knowledge rules chose count in the AMAF statistics like random ones (`true`);
    /// `false` leaves them out of the trace. A forced reply says little of the move as a
    /// move to play now: a bridge saved in a playout credits the bridge's own carrier cell,
    /// a move that wastes a tempo in the tree. Serialized settings without it read `true`.
    #[cfg_attr(feature = "serde", serde(default = "always"))]
    pub amaf_rule_moves: bool,
}

/// `true`: the value of settings that older serialized configurations lack.
#[cfg(feature = "serde")]
fn always() -> bool {
    true
}

impl Default for PlayoutConfig {
    /// Uniform, on-line rings, no knowledge.
    fn default() -> PlayoutConfig {
        PlayoutConfig {
            policy: Policy::Uniform,
            rings: RingCheck::Online,
            decisive: false,
            anti_decisive: false,
            save_bridge: false,
            last_good_reply: false,
            centre_weight: 8,
            knowledge_moves: 0,
            amaf_rule_moves: true,
        }
    }
}

impl PlayoutConfig {
    /// Uniform moves, but an intrusion into one of the mover's two-bridges is answered by
    /// saving the bridge; on-line rings (the playouts of [`EngineConfig::best`]). In a
    /// uniform playout a bridge the opponent intrudes into is lost half the time, although
    /// any player would save it: the playouts then judge a position by connections that
    /// are not really there. The rule costs little (only the last move's neighbours are looked
    /// at) and gained more than the other playout rules (`docs/strength.md`).
    ///
    /// ```
    /// use havannah::PlayoutConfig;
    ///
    /// let bridges = PlayoutConfig::bridges();
    /// assert!(bridges.save_bridge && !bridges.decisive && !bridges.last_good_reply);
    /// assert_eq!(bridges.knowledge_moves, 0, "every move of the playout");
    /// ```
    ///
    /// [`EngineConfig::best`]: crate::EngineConfig::best
    #[must_use]
    pub fn bridges() -> PlayoutConfig {
        PlayoutConfig {
            save_bridge: true,
            ..PlayoutConfig::default()
        }
    }

    /// Uniform moves with the decisive, anti-decisive and bridge-saving rules on and on-line
    /// rings (the `knowledge` [`Preset`](crate::engine::Preset); see `docs/strength.md` for
    /// what the rules are worth).
    #[must_use]
    pub fn strong() -> PlayoutConfig {
        PlayoutConfig {
            decisive: true,
            anti_decisive: true,
            save_bridge: true,
            last_good_reply: false,
            ..PlayoutConfig::default()
        }
    }
}

const NO_CELL: u16 = u16::MAX;

/// A Havannah playout policy for [`rave_mcts`]: it finishes a game from a tree state.
///
/// It keeps its buffers (the list of empty cells, the sampler, the ring finder, the reply
/// table) between playouts, so a playout does not allocate.
#[derive(Debug, Clone)]
pub struct HavannahPlayout {
    config: PlayoutConfig,
    /// Empty cells, and the slot of each cell in that list.
    empties: Vec<u16>,
    slot: Vec<u16>,
    /// The weights of [`Policy::Weighted`]: block sums rather than the paper's sum tree, as
    /// each move changes up to seven weights (O(1) each here) for one draw. It draws exactly
    /// as the sum tree would.
    sampler: BlockSampler,
    base: Option<(usize, BlockSampler)>,
    finder: RingFinder,
    /// Last good replies: `reply[colour * bound + previous cell]`.
    reply: Vec<u16>,
    /// The cells played in the current playout (kept for the last good replies only).
    played: Vec<u16>,
    /// The last anti-decisive scan, which the next move's decisive scan repeats.
    threat: Option<Threat>,
    /// The scan of the stone just placed for its colour
    /// ([`Position::place_and_scan`]), which is the next move's anti-decisive scan.
    scanned: Option<Threat>,
}

/// The result of a scan for a colour's winning cells next to its stone `around`:
/// `win_next_to(around, colour)` found `found`. It stays the answer while only stones of the
/// other colour are added: those can fill a winning cell, never make a new one (a colour's
/// figures depend on its own stones only).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Threat {
    around: u16,
    colour: Colour,
    found: Option<u16>,
}

impl HavannahPlayout {
    /// A playout policy with these settings.
    #[must_use]
    pub fn new(config: PlayoutConfig) -> HavannahPlayout {
        HavannahPlayout {
            config,
            empties: Vec::new(),
            slot: Vec::new(),
            sampler: BlockSampler::default(),
            base: None,
            finder: RingFinder::new(),
            reply: Vec::new(),
            played: Vec::new(),
            threat: None,
            scanned: None,
        }
    }

    /// The settings.
    #[must_use]
    pub fn config(&self) -> &PlayoutConfig {
        &self.config
    }

    fn prepare(&mut self, pos: &Position) {
        let board = pos.board();
        let n = board.num_cells();
        self.empties.clear();
        if self.slot.len() != n {
            self.slot.clear();
            self.slot.resize(n, NO_CELL);
            self.reply.clear();
            self.reply.resize(2 * n, NO_CELL);
        }
        // Branch-free: every cell is written at the end of the list, which only grows past
        // empty cells (an occupied cell's slot is never read).
        self.empties.resize(n, 0);
        let mut len = 0;
        for cell in board.cells() {
            let i = cell.index();
            self.empties[len] = i as u16;
            self.slot[i] = len as u16;
            len += usize::from(pos.is_empty(cell));
        }
        self.empties.truncate(len);
        if self.config.policy == Policy::Weighted {
            self.prepare_sampler(pos);
        }
    }

    /// Copies the all-cells sampler for this board size and zeroes the occupied cells.
    fn prepare_sampler(&mut self, pos: &Position) {
        let board = pos.board();
        let n = board.num_cells();
        if self.base.as_ref().is_none_or(|(size, _)| *size != n) {
            let centre = board.centre().index();
            let weights = (0..n).map(|i| {
                if i == centre {
                    u64::from(self.config.centre_weight.max(1))
                } else {
                    1
                }
            });
            // Weights are small and at most 469 keys: building cannot fail.
            let base = BlockSampler::from_weights(weights).unwrap_or_default();
            self.base = Some((n, base));
        }
        if let Some((_, base)) = &self.base {
            self.sampler.clone_from(base);
        }
        for cell in board.cells() {
            if !pos.is_empty(cell) {
                let _ = self.sampler.set(cell.index(), 0);
            }
        }
    }

    #[inline]
    fn take(&mut self, cell: u16) {
        let s = usize::from(self.slot[usize::from(cell)]);
        let last = self.empties.len() - 1;
        let moved = self.empties[last];
        self.empties[s] = moved;
        self.slot[usize::from(moved)] = s as u16;
        self.empties.pop();
        self.slot[usize::from(cell)] = NO_CELL;
        if self.config.policy == Policy::Weighted {
            let _ = self.sampler.set(usize::from(cell), 0);
        }
    }

    /// [`knowledge`](Self::knowledge), reusing the previous move's anti-decisive scan for this
    /// move's decisive one (the same stone and colour, with only an opponent stone added
    /// since): the answer is the same, at the cost of one scan per move instead of two.
    #[inline]
    fn knowledge_cached(&mut self, pos: &Position, last: u16, last2: u16) -> Option<u16> {
        let c = self.config;
        let me = pos.to_move();
        let previous = self.threat.take();
        let scanned = self.scanned.take();
        if c.decisive {
            let win = match previous {
                Some(t) if t.around == last2 && t.colour == me => still_winning(pos, t),
                _ => win_next_to(pos, last2, me),
            };
            if win.is_some() {
                return win;
            }
        }
        if c.anti_decisive {
            let found = match scanned {
                Some(t) if t.around == last && t.colour == me.other() => t.found,
                _ => win_next_to(pos, last, me.other()),
            };
            self.threat = Some(Threat {
                around: last,
                colour: me.other(),
                found,
            });
            if found.is_some() {
                return found;
            }
        }
        knowledge_rest(&c, &self.reply, pos, last, me)
    }

    /// A move chosen by the knowledge rules, if any applies.
    #[inline]
    fn knowledge(&self, pos: &Position, last: u16, last2: u16) -> Option<u16> {
        let c = &self.config;
        let me = pos.to_move();
        // Only the stone just placed can have given its owner a new win at once, and only next
        // to itself (almost always): so the mover's wins are looked for around the mover's
        // own last stone (`last2`), the opponent's around the opponent's last stone (`last`).
        if c.decisive
            && let Some(win) = win_next_to(pos, last2, me)
        {
            return Some(win);
        }
        if c.anti_decisive
            && let Some(block) = win_next_to(pos, last, me.other())
        {
            return Some(block);
        }
        knowledge_rest(c, &self.reply, pos, last, me)
    }

    /// The end of a playout of `length` moves: the winner, the replies learnt from it (last
    /// good reply) and the result (`swapped`: the pie rule was used, colours trade players).
    fn finish(
        &mut self,
        pos: &Position,
        first_colour: Colour,
        swapped: bool,
        length: usize,
    ) -> PlayoutResult {
        let winner = self.winner(pos);
        if self.config.last_good_reply {
            self.learn_replies(first_colour, winner, pos.board().num_cells());
        }
        let outcome = match winner {
            Some(colour) => Rewards::win(colour.index() ^ usize::from(swapped)),
            None => Rewards::DRAW,
        };
        PlayoutResult::finished(outcome, length)
    }

    fn learn_replies(&mut self, first_colour: Colour, winner: Option<Colour>, n: usize) {
        // played[i] was placed by first_colour for even i.
        for i in 1..self.played.len() {
            let mover = if i % 2 == 0 {
                first_colour
            } else {
                first_colour.other()
            };
            let slot = mover.index() * n + usize::from(self.played[i - 1]);
            if winner == Some(mover) {
                self.reply[slot] = self.played[i];
            } else if self.reply[slot] == self.played[i] {
                self.reply[slot] = NO_CELL;
            }
        }
    }
}

/// The knowledge rules after the decisive and anti-decisive ones: bridge saving, then the last
/// good reply.
#[inline]
fn knowledge_rest(
    c: &PlayoutConfig,
    reply: &[u16],
    pos: &Position,
    last: u16,
    me: Colour,
) -> Option<u16> {
    let board = pos.board();
    if c.save_bridge
        && last != NO_CELL
        && let Some(save) = bridge_save(pos, board, last, me)
    {
        return Some(save);
    }
    if c.last_good_reply && last != NO_CELL {
        let r = reply[me.index() * board.num_cells() + usize::from(last)];
        if r != NO_CELL && pos.is_empty(Cell::from_index(usize::from(r))) {
            return Some(r);
        }
    }
    None
}

/// What `win_next_to(pos, t.around, t.colour)` is now, given that it was `t.found` when only
/// stones of the other colour have been added since: the same cell if it is still empty;
/// if it was filled, the next winning cell after it in neighbour order (those before it did
/// not win then and cannot now); none if there was none.
#[inline]
fn still_winning(pos: &Position, t: Threat) -> Option<u16> {
    let found = t.found?;
    if pos.is_empty(Cell::from_index(usize::from(found))) {
        return Some(found);
    }
    next_winning(pos, t, found)
}

/// [`still_winning`] when the cell `found` was filled: the next winning cell after it.
#[cold]
#[inline(never)]
fn next_winning(pos: &Position, t: Threat, found: u16) -> Option<u16> {
    let around = Cell::from_index(usize::from(t.around));
    pos.board()
        .neighbours(around)
        .iter()
        .skip_while(|nb| nb.index() != usize::from(found))
        .skip(1)
        .find(|&&nb| pos.is_empty(nb) && !pos.winning_kinds(nb, t.colour).is_empty())
        .map(|nb| nb.index() as u16)
}

/// An empty neighbour of `around` where a stone of `colour` would win at once, if any
/// (`around` must hold a stone of `colour`).
#[inline]
fn win_next_to(pos: &Position, around: u16, colour: Colour) -> Option<u16> {
    if around == NO_CELL {
        return None;
    }
    pos.win_next_to_of(Cell::from_index(usize::from(around)), colour)
        .map(|c| c.index() as u16)
}

/// The first cell that saves a two-bridge the opponent's stone `last` intruded into, if any
/// (see [`bridge_saves`]).
#[inline]
fn bridge_save(pos: &Position, board: &Board, last: u16, me: Colour) -> Option<u16> {
    let intruder = Cell::from_index(usize::from(last));
    let saves = bridge_saves(pos, intruder, me);
    (saves != 0)
        .then(|| board.neighbours6(intruder)[saves.trailing_zeros() as usize].index() as u16)
}

impl HavannahPlayout {
    /// Whether any playout rule is on.
    fn has_rules(&self) -> bool {
        let c = &self.config;
        c.decisive || c.anti_decisive || c.save_bridge || c.last_good_reply
    }

    /// The move the playout rules choose, if any, while they apply (`active`: some rule is on
    /// and the playout is within its first `knowledge_moves` moves, or that is 0).
    #[inline]
    fn knowledge_move(
        &mut self,
        pos: &Position,
        last: u16,
        last2: u16,
        active: bool,
    ) -> Option<u16> {
        if active {
            let chosen = self.knowledge_cached(pos, last, last2);
            debug_assert_eq!(chosen, self.knowledge(pos, last, last2));
            chosen
        } else {
            self.threat = None;
            self.scanned = None;
            None
        }
    }

    /// A cell drawn by the policy: uniform over the empty cells, or by the weights.
    #[inline]
    fn random_cell<R: Rng + ?Sized>(&mut self, rng: &mut R) -> u16 {
        let uniform = |empties: &[u16], rng: &mut R| empties[rng.random_range(0..empties.len())];
        match self.config.policy {
            Policy::Uniform => uniform(&self.empties, rng),
            Policy::Weighted => match self.sampler.sample(rng) {
                Some(k) => k as u16,
                None => uniform(&self.empties, rng),
            },
        }
    }

    /// The weighted policy's update after a stone on `cell`: its empty neighbours get weight
    /// n³ for the move of ply n, if that is more than they had.
    #[inline]
    fn raise_neighbours(&mut self, pos: &Position, cell: u16) {
        let ply = pos.plies() as u64;
        let w = ply * ply * ply;
        // Occupied cells have weight 0 and keep it. The weights stay far below u64::MAX (469
        // cells of at most 469³): `raise` cannot fail.
        let neighbours = pos.board().neighbours(Cell::from_index(usize::from(cell)));
        let _ = self
            .sampler
            .raise_all(neighbours.iter().map(|nb| nb.index()), w);
    }

    /// The playout's winner (see [`HavannahPlayout::ending`]).
    fn winner(&mut self, pos: &Position) -> Option<Colour> {
        self.ending(pos).map(|(colour, _)| colour)
    }

    /// How the playout that left `pos` ended under these settings: the winner and the figures
    /// of the winning move. With on-line rings, the first win found during play; with
    /// off-line rings, the earlier of the first bridge or fork and each colour's earliest
    /// ring (a ring alone: [`Kinds::RING`]). `None`: a full board without a figure, or a
    /// playout stopped before its end.
    pub fn ending(&mut self, pos: &Position) -> Option<(Colour, Kinds)> {
        match self.config.rings {
            RingCheck::Online => pos.win().map(|w| (w.winner, w.kinds)),
            RingCheck::Offline => {
                let mut best = pos.win().map(|w| (w.ply, w.winner, w.kinds));
                let rings = self.finder.earliest_rings(pos);
                for colour in [Colour::White, Colour::Black] {
                    if let Some(ring) = rings[colour.index()]
                        && best.is_none_or(|(ply, _, _)| ring.ply < ply)
                    {
                        best = Some((ring.ply, colour, Kinds::RING));
                    }
                }
                best.map(|(_, colour, kinds)| (colour, kinds))
            }
        }
    }
}

impl Playout<HavannahGame> for HavannahPlayout {
    fn playout<R: Rng + ?Sized>(
        &mut self,
        game: &mut HavannahGame,
        rng: &mut R,
        max_moves: usize,
        trace: &mut Trace<Move>,
    ) -> PlayoutResult {
        let (last0, last1) = game.last_cells();
        let swapped = game.swapped();
        let pos = game.position_mut();
        if self.config.rings == RingCheck::Offline {
            pos.set_ring_detection(RingDetection::Offline);
        }
        self.prepare(pos);
        self.played.clear();
        self.threat = None;
        self.scanned = None;
        let first_colour = pos.to_move();
        let rules = self.has_rules();
        let limit = self.config.knowledge_moves as usize;
        let scan = rules && self.config.anti_decisive;
        let mut last = last0;
        let mut last2 = last1;
        let mut length = 0usize;
        while pos.win().is_none() && !self.empties.is_empty() {
            if length >= max_moves {
                return PlayoutResult::stopped(Rewards::DRAW, length);
            }
            let active = rules && (limit == 0 || length < limit);
            let (cell, ruled) = match self.knowledge_move(pos, last, last2, active) {
                Some(c) => (c, true),
                None => (self.random_cell(rng), false),
            };
            self.take(cell);
            if !ruled || self.config.amaf_rule_moves {
                let player = pos.plies() & 1;
                trace.push(player, Move::Cell(Cell::from_raw(cell)));
            }
            if self.config.last_good_reply {
                self.played.push(cell);
            }
            let mover = pos.to_move();
            length += 1;
            // When the next move's rules scan around this stone for its colour, the scan is
            // done as it is placed.
            let scan_next = scan && (limit == 0 || length < limit);
            if scan_next {
                let (_, found) = pos.place_and_scan(Cell::from_index(usize::from(cell)));
                self.scanned = Some(Threat {
                    around: cell,
                    colour: mover,
                    found: found.map(|f| f.index() as u16),
                });
            } else {
                pos.place(Cell::from_index(usize::from(cell)));
            }
            if self.config.policy == Policy::Weighted {
                self.raise_neighbours(pos, cell);
            }
            last2 = last;
            last = cell;
        }
        self.finish(pos, first_colour, swapped, length)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use havannah_rules::{GameState, Rules};
    use rand::SeedableRng;
    use rave_mcts::Game as _;

    fn state(size: u8, moves: &[&str]) -> HavannahGame {
        let mut g = GameState::new(size, Rules { pie: false }).unwrap();
        for m in moves {
            g.play_str(m).unwrap();
        }
        HavannahGame::from_game(&g)
    }

    #[test]
    fn bridge_intrusion_is_answered() {
        // White h8 and i10 form a two-bridge through i9 and h9; Black intrudes at i9.
        let g = state(8, &["h8", "a1", "i10", "i9"]);
        let board = g.board();
        let last = board.parse_cell("i9").unwrap().index() as u16;
        let save = bridge_save(g.position(), board, last, Colour::White);
        assert_eq!(save, Some(board.parse_cell("h9").unwrap().index() as u16));
        // No bridge of Black's around White's last move.
        let last_white = board.parse_cell("i10").unwrap().index() as u16;
        assert_eq!(
            bridge_save(g.position(), board, last_white, Colour::Black),
            None
        );
    }

    #[test]
    fn rule_moves_leave_the_trace_when_asked() {
        // Black's i9 intrudes into White's h8-i10 bridge: the playout's first move is h9.
        let start = state(8, &["h8", "a1", "i10", "i9"]);
        let h9 = Move::Cell(start.board().parse_cell("h9").unwrap());
        let mut traces = Vec::new();
        for amaf_rule_moves in [true, false] {
            let mut p = HavannahPlayout::new(PlayoutConfig {
                amaf_rule_moves,
                ..PlayoutConfig::bridges()
            });
            let mut g = start.clone();
            let mut trace = Trace::new();
            let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(3);
            let result = p.playout(&mut g, &mut rng, usize::MAX, &mut trace);
            let moves: Vec<Move> = trace.iter().map(|(_, m)| m).collect();
            traces.push((moves, result.length));
        }
        let (with, length) = &traces[0];
        let (without, same_length) = &traces[1];
        assert_eq!(with[0], h9, "the save is the first move");
        assert!(!without.contains(&h9), "the save is not recorded");
        assert_eq!(length, same_length, "the same playout either way");
        assert!(without.len() < with.len());
        assert!(without.iter().all(|m| with.contains(m)));
    }

    #[test]
    fn knowledge_wins_and_blocks() {
        // Size 4: White a1 b1 c1 threatens d1; Black to move must block, White to move wins.
        let config = PlayoutConfig::strong();
        let p = HavannahPlayout::new(config);
        let white_to_move = state(4, &["a1", "g7", "b1", "g5", "c1", "e7"]);
        let (l1, l2) = white_to_move.last_cells();
        let d1 = white_to_move.board().parse_cell("d1").unwrap().index() as u16;
        assert_eq!(p.knowledge(white_to_move.position(), l1, l2), Some(d1));
        let black_to_move = state(4, &["a1", "g7", "b1", "g5", "c1"]);
        let (l1, l2) = black_to_move.last_cells();
        assert_eq!(p.knowledge(black_to_move.position(), l1, l2), Some(d1));
    }

    #[test]
    fn knowledge_stops_after_its_moves() {
        // Black to move; White threatens d1. With the decisive rule on the first two playout
        // moves, White's first playout move wins unless Black's random move took d1; with
        // the rule on the first move only, White's move is random and some playouts go on.
        let start = state(4, &["a1", "g7", "b1", "g5", "c1"]);
        let d1 = start.board().parse_cell("d1").unwrap().index() as u16;
        let lengths = |knowledge_moves: u32| {
            let config = PlayoutConfig {
                decisive: true,
                knowledge_moves,
                ..PlayoutConfig::default()
            };
            let mut p = HavannahPlayout::new(config);
            let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(5);
            (0..100)
                .map(|_| {
                    let mut g = start.clone();
                    let mut trace = Trace::new();
                    let r = p.playout(&mut g, &mut rng, usize::MAX, &mut trace);
                    let blocked = trace
                        .iter()
                        .next()
                        .is_some_and(|(_, mv)| mv == Move::Cell(Cell::from_raw(d1)));
                    (r.length, blocked)
                })
                .collect::<Vec<_>>()
        };
        assert!(lengths(2).iter().all(|&(len, blocked)| blocked || len == 2));
        assert!(lengths(1).iter().any(|&(len, blocked)| !blocked && len > 2));
    }

    #[test]
    fn playouts_end_in_a_result_for_every_policy() {
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(3);
        for policy in [Policy::Uniform, Policy::Weighted] {
            for rings in [RingCheck::Online, RingCheck::Offline] {
                let config = PlayoutConfig {
                    policy,
                    rings,
                    last_good_reply: true,
                    ..PlayoutConfig::strong()
                };
                let mut p = HavannahPlayout::new(config);
                let start = state(6, &["f6"]);
                for _ in 0..50 {
                    let mut g = start.clone();
                    let mut trace = Trace::new();
                    let r = p.playout(&mut g, &mut rng, usize::MAX, &mut trace);
                    assert!(!r.stopped_early);
                    assert_eq!(r.length, trace.len());
                    // Every traced move was legal: replaying them from the start works, up to
                    // the end of the game (off-line rings let a playout run past a ring).
                    let mut replay = GameState::new(6, Rules { pie: false }).unwrap();
                    replay.play_str("f6").unwrap();
                    for (k, (_, mv)) in trace.iter().enumerate() {
                        if replay.outcome().is_over() {
                            assert_eq!(rings, RingCheck::Offline, "game over before move {k}");
                            break;
                        }
                        replay.play(mv).unwrap();
                    }
                    // The playout's winner is the rules' winner (rings found on- or off-line).
                    let want = replay.outcome().winner().map(|c| c.index());
                    assert_eq!(r.outcome.winner(), want, "{policy:?} {rings:?}");
                    assert!(g.result().is_some() || rings == RingCheck::Offline);
                }
            }
        }
    }

    #[test]
    fn cached_scans_choose_as_fresh_ones() {
        // Along random games (a rule's move when one applies, else a random one), the move the
        // cached scans choose is the one the full rules choose from scratch.
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(6);
        let mut rule_moves = 0;
        for size in [4u8, 5, 6, 8] {
            let mut p = HavannahPlayout::new(PlayoutConfig::strong());
            for _ in 0..40 {
                let mut g = state(size, &[]);
                p.threat = None;
                let (mut last, mut last2) = (NO_CELL, NO_CELL);
                while g.result().is_none() && !g.position().is_full() {
                    let pos = g.position();
                    let cached = p.knowledge_cached(pos, last, last2);
                    assert_eq!(cached, p.knowledge(pos, last, last2));
                    rule_moves += usize::from(cached.is_some());
                    let cell = cached.unwrap_or_else(|| {
                        let empty: Vec<u16> = pos
                            .board()
                            .cells()
                            .filter(|&c| pos.is_empty(c))
                            .map(|c| c.index() as u16)
                            .collect();
                        empty[rng.random_range(0..empty.len())]
                    });
                    g.position_mut().place(Cell::from_index(usize::from(cell)));
                    (last2, last) = (last, cell);
                }
            }
        }
        assert!(rule_moves > 100, "the rules chose only {rule_moves} moves");
    }

    #[test]
    fn weighted_playouts_keep_the_papers_weights() {
        // After some moves of a weighted playout (from a position with two stones), the
        // sampler holds the paper's weights, worked out here from the moves alone: 1 for
        // every empty cell and 8 for the centre at the start, 0 once taken, and after the
        // move of ply n its empty neighbours at least n³.
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(8);
        let config = PlayoutConfig {
            policy: Policy::Weighted,
            ..PlayoutConfig::default()
        };
        let mut p = HavannahPlayout::new(config);
        for moves in [1, 5, 30, 60] {
            let mut g = state(6, &["a1", "k11"]);
            let board = g.board();
            let mut trace = Trace::new();
            let r = p.playout(&mut g, &mut rng, moves, &mut trace);
            assert_eq!(r.length, trace.len());
            let mut want: Vec<u64> = board
                .cells()
                .map(|c| if c == board.centre() { 8 } else { 1 })
                .collect();
            for name in ["a1", "k11"] {
                want[board.parse_cell(name).unwrap().index()] = 0;
            }
            for (k, (_, mv)) in trace.iter().enumerate() {
                let n = (2 + k + 1) as u64;
                let Move::Cell(cell) = mv else {
                    panic!("a playout plays no swap");
                };
                want[cell.index()] = 0;
                for nb in board.neighbours(cell) {
                    let w = &mut want[nb.index()];
                    if *w != 0 {
                        *w = (*w).max(n * n * n);
                    }
                }
            }
            let got: Vec<u64> = board
                .cells()
                .map(|c| p.sampler.get(c.index()).unwrap())
                .collect();
            assert_eq!(got, want, "after {} moves", trace.len());
        }
    }

    /// The knowledge playout as plainly as it can be written: every rule from scratch on
    /// every move ([`HavannahPlayout::knowledge`]: `Position::win_next_to` around both last
    /// stones, then the bridge saves, then the reply table), the stone placed with `place`;
    /// no reused scan, no scan done by `place_and_scan`.
    fn reference_playout<R: Rng + ?Sized>(
        p: &mut HavannahPlayout,
        game: &mut HavannahGame,
        rng: &mut R,
        max_moves: usize,
        trace: &mut Trace<Move>,
    ) -> PlayoutResult {
        let (mut last, mut last2) = game.last_cells();
        let swapped = game.swapped();
        let pos = game.position_mut();
        if p.config.rings == RingCheck::Offline {
            pos.set_ring_detection(RingDetection::Offline);
        }
        p.prepare(pos);
        p.played.clear();
        let first_colour = pos.to_move();
        let limit = p.config.knowledge_moves as usize;
        let mut length = 0;
        while pos.win().is_none() && !p.empties.is_empty() {
            if length >= max_moves {
                return PlayoutResult::stopped(Rewards::DRAW, length);
            }
            let active = p.has_rules() && (limit == 0 || length < limit);
            let rule = if active {
                p.knowledge(pos, last, last2)
            } else {
                None
            };
            let cell = rule.unwrap_or_else(|| p.random_cell(rng));
            p.take(cell);
            trace.push(pos.plies() & 1, Move::Cell(Cell::from_raw(cell)));
            p.played.push(cell);
            pos.place(Cell::from_index(usize::from(cell)));
            length += 1;
            if p.config.policy == Policy::Weighted {
                p.raise_neighbours(pos, cell);
            }
            (last2, last) = (last, cell);
        }
        p.finish(pos, first_colour, swapped, length)
    }

    /// The mixes of playout rules checked against the reference playout.
    fn rule_mixes() -> [PlayoutConfig; 9] {
        let strong = PlayoutConfig::strong();
        [
            strong,
            PlayoutConfig {
                last_good_reply: true,
                ..strong
            },
            PlayoutConfig {
                decisive: true,
                ..PlayoutConfig::default()
            },
            PlayoutConfig {
                anti_decisive: true,
                ..PlayoutConfig::default()
            },
            PlayoutConfig {
                anti_decisive: true,
                save_bridge: true,
                ..PlayoutConfig::default()
            },
            PlayoutConfig {
                knowledge_moves: 1,
                ..strong
            },
            PlayoutConfig {
                knowledge_moves: 6,
                ..strong
            },
            PlayoutConfig {
                policy: Policy::Weighted,
                ..strong
            },
            PlayoutConfig {
                rings: RingCheck::Offline,
                ..strong
            },
        ]
    }

    /// Empty boards of sizes 4, 6 and 10, boards of sizes 5 and 8 twenty random moves in, and
    /// a size-6 position after `swap`.
    fn playout_starts() -> Vec<HavannahGame> {
        let mut starts = vec![state(4, &[]), state(6, &[]), state(10, &[])];
        for size in [5u8, 8] {
            let mut g = GameState::new(size, Rules { pie: false }).unwrap();
            let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(u64::from(size));
            for _ in 0..20 {
                let empty: Vec<Cell> = g
                    .board()
                    .cells()
                    .filter(|&c| g.position().is_empty(c))
                    .collect();
                g.play(Move::Cell(empty[rng.random_range(0..empty.len())]))
                    .unwrap();
            }
            starts.push(HavannahGame::from_game(&g));
        }
        let mut pie = GameState::new(6, Rules { pie: true }).unwrap();
        for m in ["c3", "swap", "f6", "d5"] {
            pie.play_str(m).unwrap();
        }
        starts.push(HavannahGame::from_game(&pie));
        starts
    }

    #[test]
    fn playouts_play_as_the_plain_rules() {
        // The same random stream gives the same moves and results as the reference, for
        // every mix of rules, from empty boards and from positions in the middle of a game
        // (one after `swap`), with the rules on every move or on the first few only.
        let configs = rule_mixes();
        let starts = playout_starts();
        let mut rule_games = 0;
        for (k, config) in configs.into_iter().enumerate() {
            let mut fast = HavannahPlayout::new(config);
            let mut plain = HavannahPlayout::new(config);
            for (s, start) in starts.iter().enumerate() {
                let seed = (100 * k + s) as u64;
                let mut rng_fast = rand_pcg::Pcg64Mcg::seed_from_u64(seed);
                let mut rng_plain = rand_pcg::Pcg64Mcg::seed_from_u64(seed);
                for round in 0..60 {
                    let (mut a, mut b) = (start.clone(), start.clone());
                    let (mut ta, mut tb) = (Trace::new(), Trace::new());
                    let max = if round % 10 == 9 { 7 } else { usize::MAX };
                    let ra = fast.playout(&mut a, &mut rng_fast, max, &mut ta);
                    let rb = reference_playout(&mut plain, &mut b, &mut rng_plain, max, &mut tb);
                    let moves = |t: &Trace<Move>| t.iter().collect::<Vec<_>>();
                    assert_eq!(moves(&ta), moves(&tb), "config {k} start {s} round {round}");
                    assert_eq!(ra, rb, "config {k} start {s} round {round}");
                    assert_eq!(a.position().win(), b.position().win());
                    rule_games += usize::from(ra.length > 0);
                }
            }
        }
        assert!(rule_games > 3000, "{rule_games}");
    }

    #[test]
    fn horizon_stops_early() {
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(4);
        let mut p = HavannahPlayout::new(PlayoutConfig::default());
        let mut g = state(8, &[]);
        let mut trace = Trace::new();
        let r = p.playout(&mut g, &mut rng, 5, &mut trace);
        assert!(r.stopped_early);
        assert_eq!(r.length, 5);
    }
}
