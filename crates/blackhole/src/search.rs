//! Blackhole as a [`rave_mcts::Game`] with a target score, and the lottery playout policy.
//!
//! A search for target `alpha` is a win/loss game: `player` wins when its final score is at
//! least `alpha`. The dead-cell declaration ([`declared`]), or near the end the solver's static
//! bounds ([`static_verdict`](crate::solver::static_verdict)), end a simulation early, and the
//! move list is pruned by [`reasonable_moves`].

use rand::{Rng, RngExt};
use rave_mcts::{Game, Outcome, Playout, PlayoutResult, Prior, PriorValue, Trace};

use crate::board::{CELLS, Cell, NEIGHBOURS, cells_of};
use crate::rules::{
    DRAW_SCORE, GAME_MOVES, MOVE_BOUND, Move, Position, RED, declared, reasonable_moves,
};
use crate::solver::{static_score_bounds, static_verdicts, target_moves};

/// Blackhole seen as "does `player` score at least `alpha`?".
#[derive(Clone, Copy, Debug)]
pub struct AlphaGame {
    /// The position.
    pub pos: Position,
    /// The player whose score is targeted.
    pub player: usize,
    /// The target score (75 is a draw, 76 a win by one point).
    pub alpha: i16,
    /// Stones tried per live cell in the tree: the least valuable and the `width - 1` most
    /// valuable ones (0: every stone). A heuristic cut of the branching factor, not exact.
    pub width: u8,
    /// With at most this many empty cells, a simulation also ends when the solver's static
    /// bounds decide the target ([`static_verdict`](crate::solver::static_verdict)); above,
    /// only the dead-cell declaration is checked (0: never).
    pub static_empty: u32,
    /// Prune the moves for the target as the exact solver does ([`target_moves`]) instead of
    /// by the value-sense rules alone ([`reasonable_moves`]).
    pub target_pruning: bool,
    /// Reward the score instead of reaching `alpha` (see [`AlphaGame::with_score_reward`]):
    /// `player`'s reward is `0.5 + (score - 75) / (2 * scale)`, clamped to `[0, 1]`.
    pub score_scale: Option<f32>,
    /// Key the AMAF statistics by the cell alone, not by the cell and the stone: a child's
    /// AMAF value is then how the games went in which its player took its cell, with any
    /// stone (see [`AlphaGame::with_amaf_by_cell`]).
    pub amaf_by_cell: bool,
    /// Moves grouped by place: the mover first chooses a cell (a move with stone 0), then, in
    /// a second move of its own, the stone (see [`AlphaGame::with_grouping`]).
    pub grouped: bool,
    /// With grouping, the cell chosen for the stone still to come.
    pub placed: Option<Cell>,
    /// `player`'s stones in the first `opening_plies` plies of the game are at most
    /// `opening_cap` (see [`AlphaGame::with_opening_cap`]; 0 plies: no cap).
    pub opening_plies: u32,
    /// The most valuable stone `player` may play in the opening.
    pub opening_cap: u8,
    /// The opening cap also holds in the playouts (see [`AlphaGame::with_capped_playouts`]).
    pub capped_playouts: bool,
    /// The opening cap rises by one every two plies (see [`AlphaGame::with_opening_ramp`]).
    pub opening_ramp: bool,
    /// Playouts ask the static bounds only from about where they start to decide the target
    /// (see [`AlphaGame::with_lazy_playout_bounds`]).
    pub lazy_playout_bounds: bool,
    /// Reward a win, a draw and a loss of `player` with 1, 1/2 and 0 instead of reaching
    /// `alpha` (see [`AlphaGame::with_wdl_reward`]).
    pub wdl: bool,
    /// In the win-draw-loss game, the reward of a loss by one point; a win by one point earns
    /// `1 - margin` (see [`AlphaGame::with_wdl_margin`]; 0: plain win-draw-loss).
    pub margin: f32,
    /// In the win-draw-loss game, `player`'s reward for a draw (see
    /// [`AlphaGame::with_draw_reward`]; 1/2: plain win-draw-loss).
    pub draw: f32,
}

impl AlphaGame {
    /// The target game of `player` reaching `alpha` from `pos`.
    pub fn new(pos: Position, player: usize, alpha: i16) -> Self {
        AlphaGame {
            pos,
            player,
            alpha,
            width: 0,
            static_empty: 0,
            target_pruning: false,
            score_scale: None,
            amaf_by_cell: false,
            grouped: false,
            placed: None,
            opening_plies: 0,
            opening_cap: 15,
            capped_playouts: false,
            opening_ramp: false,
            lazy_playout_bounds: false,
            wdl: false,
            margin: 0.0,
            draw: 0.5,
        }
    }

    /// The same game in which `player` keeps its stones above `cap` for later: in the first
    /// `plies` plies of the game its moves use only stones up to `cap` (the opponent's moves
    /// are not capped). The stones spent early go with lost games, both ours and our
    /// opponents' (`docs/blackhole.md`).
    pub fn with_opening_cap(mut self, plies: u32, cap: u8) -> Self {
        self.opening_plies = plies;
        self.opening_cap = cap;
        self
    }

    /// The same game in which the opening cap also holds in the playouts (or not): there
    /// `player`'s stone above the cap is replaced by its most valuable one up to the cap, so
    /// that the simulations play the opening as the tree does.
    pub fn with_capped_playouts(mut self, on: bool) -> Self {
        self.capped_playouts = on;
        self
    }

    /// The same game in which the opening cap rises by one every two plies (or stays): at
    /// ply `k` of the opening it is `opening_cap + k / 2`, so the earliest moves are held
    /// back the most. In the recorded games the big stones of the first plies go with lost
    /// games more than those of later ones (`docs/blackhole.md`).
    pub fn with_opening_ramp(mut self, on: bool) -> Self {
        self.opening_ramp = on;
        self
    }

    /// The most valuable stone the mover may play now, if the opening cap holds for it.
    #[inline]
    fn cap(&self) -> Option<u8> {
        let ply = self.pos.moves_played();
        if self.pos.mover() != self.player || ply >= self.opening_plies as usize {
            return None;
        }
        let rise = if self.opening_ramp { ply / 2 } else { 0 };
        Some((usize::from(self.opening_cap) + rise).min(15) as u8)
    }

    /// `mv` with the opening cap applied where it holds: `player`'s stone above the cap in
    /// the opening becomes its most valuable stone up to the cap (if it holds one).
    fn capped(&self, mv: Move) -> Move {
        let Some(cap) = self.cap().filter(|&cap| mv.value > cap) else {
            return mv;
        };
        match self.pos.highest_stone_up_to(self.player, cap) {
            0 => mv,
            v => Move::new(mv.cell, v),
        }
    }

    /// The same game with its moves grouped by place (or not), as wormhole's tree does: the
    /// mover chooses a cell ([`AlphaGame::place`], a move with stone 0), then moves again to
    /// choose the stone. A cell's node then gathers the simulations of all its stones.
    pub fn with_grouping(mut self, on: bool) -> Self {
        self.grouped = on;
        self
    }

    /// The move that chooses `cell` in a grouped game.
    pub fn place(cell: Cell) -> Move {
        Move::new(cell, 0)
    }

    /// The same game with the AMAF statistics keyed by the cell alone (or by the cell and the
    /// stone). Each cell is filled once a game, so the statistic pools, over the stones, the
    /// games in which the player took the cell: fifteen times the samples, and the stones
    /// told apart by their own visits only.
    pub fn with_amaf_by_cell(mut self, on: bool) -> Self {
        self.amaf_by_cell = on;
        self
    }

    /// The same game rewarding `player`'s final score rather than reaching `alpha`: the
    /// reward grows linearly with the score, from 0 at `75 - scale` points to 1 at
    /// `75 + scale` (a search for the best mean score, as the CodeCup counts it). A simulation
    /// ends early only where the static bounds fix the exact score; `alpha` and the target
    /// pruning are not used.
    pub fn with_score_reward(mut self, scale: f32) -> Self {
        self.score_scale = Some(scale);
        self.target_pruning = false;
        self
    }

    /// The same game rewarding `player`'s win, draw and loss with 1, 1/2 and 0 (a draw is
    /// 75 points): the mean score, as the CodeCup counts it, where the scores are within a
    /// point of a draw, as most are against wormhole. The static bounds end a simulation
    /// where they decide both "does `player` reach 76?" and "does it reach 75?" (a win alone
    /// by the first); `alpha` and the target pruning are not used.
    pub fn with_wdl_reward(mut self) -> Self {
        self.wdl = true;
        self.target_pruning = false;
        self
    }

    /// The win-draw-loss game with a second point told apart: a loss by one point earns
    /// `margin` instead of 0 and a win by one point `1 - margin` instead of 1, so the search
    /// prefers the larger win and the smaller loss where the win, draw or loss is the same.
    /// Only the rewards 0, 1/2 and 1 are proven by the MCTS-solver, and a simulation ends
    /// where the static bounds decide its reward (0 for a loss by two points or more, 1 for a
    /// win by two or more). `margin` must be in `[0, 1/2)`; 0 is [`AlphaGame::with_wdl_reward`].
    pub fn with_wdl_margin(mut self, margin: f32) -> Self {
        self.margin = margin;
        self
    }

    /// The win-draw-loss game in which a draw earns `player` `draw` instead of 1/2 (and the
    /// opponent the rest). Above 1/2 the search prefers a sure draw to a gamble that wins and
    /// loses as often, for an opponent against whom a loss costs more points than a win
    /// earns; against wormhole 1/2 scores more than 0.6 or 0.4 (`docs/blackhole.md`). Only
    /// wins and losses are proven by the MCTS-solver then, not draws. `draw` must be in `(0, 1)`,
    /// above the margin and below one less it ([`AlphaGame::with_wdl_margin`]).
    pub fn with_draw_reward(mut self, draw: f32) -> Self {
        self.draw = draw;
        self
    }

    /// The same game with the moves pruned for the target ([`target_moves`]) or not.
    pub fn with_target_pruning(mut self, on: bool) -> Self {
        self.target_pruning = on;
        self
    }

    /// The same game with the static verdict from `empty` empty cells on (0: never).
    pub fn with_static_verdict(mut self, empty: u32) -> Self {
        self.static_empty = empty;
        self
    }

    /// The same game with `width` stones per live cell (0: all).
    pub fn with_width(mut self, width: u8) -> Self {
        self.width = width;
        self
    }

    /// The same game whose playouts ask the static bounds only from
    /// [`AlphaGame::playout_bounds_from`] empty cells on, about where they start to decide the
    /// target; above, only the dead-cell declaration. The bounds give the outcome of best play
    /// from a position, so where they would have decided above that range (rarely) a lazy
    /// playout plays on and ends with the outcome of its own moves instead. The tree's nodes
    /// still ask them from `static_empty` on, to be proven.
    pub fn with_lazy_playout_bounds(mut self, on: bool) -> Self {
        self.lazy_playout_bounds = on;
        self
    }

    /// The empty cells from which playouts ask the static bounds: `static_empty`, or with
    /// lazy bounds at most [`lazy_bounds_from`] of the target.
    pub fn playout_bounds_from(&self) -> u32 {
        if !self.lazy_playout_bounds || self.score_scale.is_some() {
            return self.static_empty;
        }
        self.static_empty.min(lazy_bounds_from(self.alpha))
    }

    /// The result, with the static bounds asked from `bounds_from` empty cells on.
    #[inline]
    fn result_with_bounds_from(&self, bounds_from: u32) -> Option<Outcome> {
        if self.placed.is_some() {
            // A cell is chosen: its stone is still to come.
            return None;
        }
        if let Some(scale) = self.score_scale {
            return self.score_result(scale);
        }
        let bounds = self.pos.empty_count() <= bounds_from;
        if self.wdl {
            return self.wdl_result(bounds);
        }
        target_verdict(&self.pos, self.player, self.alpha, bounds).map(|win| {
            if win {
                Outcome::win(self.player)
            } else {
                Outcome::win(1 - self.player)
            }
        })
    }
}

/// How far the target `alpha` is from the line between a draw and a win: 0 for 75 and 76, 1
/// for 74 and 77, and so on. The same for either player: reaching `alpha` is the opponent
/// missing `151 - alpha`.
pub fn target_distance(alpha: i16) -> u32 {
    let above = i32::from(alpha) - i32::from(DRAW_SCORE + 1);
    if above >= 0 { above } else { -above - 1 }.unsigned_abs()
}

/// The empty cells from which lazy playouts ask the static bounds: 18 at a target next to a
/// draw, one more every two points of [`target_distance`], about where the bounds start to
/// decide (`docs/blackhole.md`, the example `playout_bounds`).
pub fn lazy_bounds_from(alpha: i16) -> u32 {
    18 + target_distance(alpha) / 2
}

/// Whether `player` reaches `alpha` when it is already decided: by the static bounds
/// ([`static_verdict`](crate::solver::static_verdict)) when `bounds` is set, else by the
/// dead-cell declaration ([`declared`]) alone. The one rule for the searches and for the
/// engine's targets.
pub fn target_verdict(pos: &Position, player: usize, alpha: i16, bounds: bool) -> Option<bool> {
    let [v] = target_verdicts(pos, player, [alpha], bounds);
    v
}

/// [`target_verdict`] for several targets at once (the static bounds are cheaper that way).
pub fn target_verdicts<const N: usize>(
    pos: &Position,
    player: usize,
    alphas: [i16; N],
    bounds: bool,
) -> [Option<bool>; N] {
    if bounds {
        static_verdicts(pos, player, alphas)
    } else {
        alphas.map(|alpha| declared(pos, player, alpha))
    }
}

impl Game for AlphaGame {
    type Move = Move;

    #[inline]
    fn to_move(&self) -> usize {
        self.pos.mover()
    }

    fn legal_moves(&self, moves: &mut Vec<Move>) {
        if self.target_pruning {
            target_moves(&self.pos, self.player, self.alpha, moves);
        } else {
            reasonable_moves(&self.pos, moves);
        }
        let mover = self.pos.mover();
        let held = self.pos.stones_left_mask(mover).count_ones();
        if self.width > 0 && held > u32::from(self.width) {
            let lowest = self.pos.lowest_stone(mover);
            // The width - 1 most valuable stones held: those at or above this one.
            let mut m = self.pos.stones_left_mask(mover);
            for _ in 0..(held - u32::from(self.width) + 1) {
                m &= m - 1;
            }
            let threshold = m.trailing_zeros() as u8;
            moves.retain(|mv| mv.value == lowest || mv.value >= threshold);
        }
        if let Some(cap) = self.cap()
            && moves.iter().any(|mv| mv.value <= cap)
        {
            moves.retain(|mv| mv.value <= cap);
        }
        if self.grouped {
            match self.placed {
                Some(cell) => moves.retain(|mv| mv.cell == cell),
                None => {
                    // One move per cell, in the order of the cells' first moves.
                    let mut seen = 0u64;
                    moves.retain(|mv| {
                        let bit = 1u64 << mv.cell.index();
                        let first = seen & bit == 0;
                        seen |= bit;
                        first
                    });
                    for mv in moves.iter_mut() {
                        *mv = AlphaGame::place(mv.cell);
                    }
                }
            }
        }
    }

    #[inline]
    fn play(&mut self, mv: Move) {
        if mv.value == 0 {
            debug_assert!(self.grouped, "a place move in a game without grouping");
            self.placed = Some(mv.cell);
        } else {
            self.pos.play(mv);
            self.placed = None;
        }
    }

    #[inline]
    fn result(&self) -> Option<Outcome> {
        self.result_with_bounds_from(self.static_empty)
    }

    #[inline]
    fn move_index(&self, mv: Move) -> usize {
        if mv.value == 0 {
            // A place (grouped games only): after the stones' indices.
            MOVE_BOUND + mv.cell.index()
        } else if self.amaf_by_cell {
            mv.cell.index()
        } else {
            mv.index()
        }
    }

    fn move_bound(&self) -> usize {
        if self.grouped {
            MOVE_BOUND + CELLS
        } else {
            MOVE_BOUND
        }
    }
}

impl AlphaGame {
    /// The win-draw-loss result ([`AlphaGame::with_wdl_reward`]) where it is decided, by the
    /// static bounds when `bounds` is set, else by the dead-cell declaration.
    fn wdl_result(&self, bounds: bool) -> Option<Outcome> {
        let reaches = |alpha| target_verdict(&self.pos, self.player, alpha, bounds);
        if self.margin > 0.0 {
            return self.margin_result(reaches);
        }
        // Both questions in one pass over the cells (the draw's answer unused after a win).
        let [wins, draws] =
            target_verdicts(&self.pos, self.player, [DRAW_SCORE + 1, DRAW_SCORE], bounds);
        if wins == Some(true) {
            return Some(Outcome::win(self.player));
        }
        match (wins, draws) {
            (_, Some(false)) => Some(Outcome::win(1 - self.player)),
            (Some(false), Some(true)) => self.outcome_with_reward(self.draw),
            _ => None,
        }
    }

    /// The win-draw-loss result with a margin ([`AlphaGame::with_wdl_margin`]), where the
    /// verdicts `reaches` decide it: the two scores around the player's own decide each level.
    fn margin_result(&self, reaches: impl Fn(i16) -> Option<bool>) -> Option<Outcome> {
        let m = self.margin;
        let wins = reaches(DRAW_SCORE + 1);
        let reward = if wins == Some(true) {
            if reaches(DRAW_SCORE + 2)? {
                1.0
            } else {
                1.0 - m
            }
        } else if reaches(DRAW_SCORE)? {
            // At least a draw: exactly one where the win is decided lost.
            (wins == Some(false)).then_some(self.draw)?
        } else if reaches(DRAW_SCORE - 1)? {
            m
        } else {
            0.0
        };
        self.outcome_with_reward(reward)
    }

    /// The score game's result: the final score, or the exact score the static bounds fix.
    fn score_result(&self, scale: f32) -> Option<Outcome> {
        let red = match self.pos.red_score() {
            Some(r) => r,
            None if self.pos.empty_count() <= self.static_empty => {
                let (lo, hi) = static_score_bounds(&self.pos);
                (lo == hi).then_some(lo)?
            }
            None => return None,
        };
        let mine = if self.player == RED { red } else { 150 - red };
        let reward = (0.5 + f32::from(mine - 75) / (2.0 * scale)).clamp(0.0, 1.0);
        self.outcome_with_reward(reward)
    }

    /// The outcome in which `player` earns `reward` (in `[0, 1]`) and the opponent the rest.
    fn outcome_with_reward(&self, reward: f32) -> Option<Outcome> {
        let other = 1.0 - reward;
        let (red, blue) = if self.player == RED {
            (reward, other)
        } else {
            (other, reward)
        };
        Outcome::from_rewards(red, blue).ok()
    }
}

/// How playouts choose their moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PlayoutPolicy {
    /// Ansell's lottery ([`ansell_move`]): tickets from the α-dead cells, stones by value
    /// (it scores more than [`Lottery`](Self::Lottery) against wormhole).
    Ansell,
    /// This crate's own lottery ([`lottery_move`]): block and grow tickets.
    Lottery,
    /// Uniformly random legal moves ([`uniform_move`]), for comparison.
    Uniform,
    /// Greedy moves that spread early and fill late ([`greedy_move`]); the default: it scores
    /// more than [`Ansell`](Self::Ansell) against wormhole (`docs/blackhole.md`).
    #[default]
    Greedy,
    /// Each move a coin decides: a greedy move or one of Ansell's lottery.
    Mixed,
    /// Greedy cells with stones drawn by value ([`greedy_lottery_move`]).
    GreedyLottery,
    /// Greedy moves that see the α-dead cells ([`greedy_alpha_move`]).
    GreedyAlpha,
    /// The searching player's moves by [`greedy_alpha_move`], the opponent's by
    /// [`greedy_move`]: the opponent modelled as a greedy player that knows no target.
    SplitGreedyAlpha,
    /// The searching player's moves by Ansell's lottery ([`ansell_move`]), the opponent's by
    /// [`greedy_move`].
    SplitAnsell,
}

/// The playout of the searches: moves by its [`PlayoutPolicy`] until the game's result is
/// known.
#[derive(Clone, Debug, Default)]
pub struct LotteryPlayout {
    /// How moves are chosen.
    pub policy: PlayoutPolicy,
}

/// The hole values (Red's delta) a cell can still end with: its delta plus the `k` least
/// (`low[k]`) or most (`high[k]`) valuable stones of both hands together (Blue's counted
/// negative), `k` its empty neighbours.
struct HoleRange {
    low: [i16; 7],
    high: [i16; 7],
}

impl HoleRange {
    fn of(pos: &Position) -> Self {
        // Both hands as values in ascending order: Blue's from -15 up, then Red's.
        let mut values = [0i16; 30];
        let mut n = 0;
        let blue = pos.stones_left_mask(crate::rules::BLUE);
        for v in (1..=15).rev().filter(|v| blue & (1 << v) != 0) {
            values[n] = -v;
            n += 1;
        }
        let red = pos.stones_left_mask(RED);
        for v in (1..=15).filter(|v| red & (1 << v) != 0) {
            values[n] = v;
            n += 1;
        }
        let (mut low, mut high) = ([0i16; 7], [0i16; 7]);
        for k in 1..7 {
            low[k] = low[k - 1] + values.get(k - 1).filter(|_| k <= n).copied().unwrap_or(0);
            high[k] = high[k - 1] + if k <= n { values[n - k] } else { 0 };
        }
        HoleRange { low, high }
    }
}

/// Ansell's lottery (EventHorizon, section 4.2), for the question whether `player` reaches
/// `alpha`. A cell is *α-dead* in a player's favour when every way of filling its empty
/// neighbours leaves it on that player's side of `alpha`, and *α-stale* when it and all its
/// empty neighbours are α-dead. Each empty cell gets one ticket per empty neighbour that is not
/// α-dead, one less if it is α-dead in the mover's favour and one more if in the opponent's;
/// the stone is the least valuable on an α-stale cell, else drawn with one ticket per point of
/// its value.
pub fn ansell_move<R: Rng + ?Sized>(
    pos: &Position,
    player: usize,
    alpha: i16,
    rng: &mut R,
) -> Move {
    let mover = pos.mover();
    let empty = pos.empty();
    let dead = alpha_dead(pos, player, alpha);
    let mine: i8 = if mover == RED { 1 } else { -1 };
    let mut tickets = [0u32; 32];
    let mut cells = [0u8; 32];
    let mut n = 0;
    let mut total = 0;
    for c in cells_of(empty) {
        let live = cells_of(NEIGHBOURS[c.index()] & empty)
            .filter(|nb| dead[nb.index()] == 0)
            .count() as i32;
        let own = i32::from(dead[c.index()] * mine);
        let t = (live - own).max(0) as u32;
        cells[n] = c.0;
        tickets[n] = t;
        total += t;
        n += 1;
    }
    let pick = if total == 0 {
        rng.random_range(0..n)
    } else {
        let mut draw = rng.random_range(0..total);
        tickets[..n]
            .iter()
            .position(|&t| {
                let hit = draw < t;
                draw = draw.saturating_sub(t);
                hit
            })
            .unwrap_or(0)
    };
    let cell = Cell(cells[pick]);
    let stale = dead[cell.index()] != 0
        && cells_of(NEIGHBOURS[cell.index()] & empty).all(|nb| dead[nb.index()] != 0);
    let value = if stale {
        pos.lowest_stone(mover)
    } else {
        value_weighted_stone(pos, mover, rng)
    };
    Move::new(cell, value)
}

/// Per cell, whose side of the question "does `player` score at least `alpha`?" the cell
/// stays on whatever stones fill its empty neighbours: `1` Red's (a hole there gives Red a
/// hole value at or above what settles the question in Red's favour), `-1` Blue's, `0` still
/// open (and for cells that are not empty).
pub(crate) fn alpha_dead(pos: &Position, player: usize, alpha: i16) -> [i8; 64] {
    let empty = pos.empty();
    let range = HoleRange::of(pos);
    // Hole values (Red's delta) at or above this settle the question in Red's favour: Red
    // reaching `alpha`, or Blue missing it (75 - d < alpha).
    let red_side = if player == RED {
        alpha - 75
    } else {
        76 - alpha
    };
    let mut dead = [0i8; 64];
    for c in cells_of(empty) {
        let k = (NEIGHBOURS[c.index()] & empty).count_ones() as usize;
        let d = pos.delta(c);
        dead[c.index()] = if d + range.low[k] >= red_side {
            1
        } else if d + range.high[k] < red_side {
            -1
        } else {
            0
        };
    }
    dead
}

/// A stone `player` holds, drawn with one ticket per point of its value.
fn value_weighted_stone<R: Rng + ?Sized>(pos: &Position, player: usize, rng: &mut R) -> u8 {
    let m = pos.stones_left_mask(player);
    let total: u32 = (1..=15u32).filter(|v| m & (1 << v) != 0).sum();
    let mut draw = rng.random_range(0..total.max(1));
    for v in 1..=15u8 {
        if m & (1 << v) != 0 {
            if draw < u32::from(v) {
                return v;
            }
            draw -= u32::from(v);
        }
    }
    pos.lowest_stone(player)
}

/// This crate's own lottery: every empty cell holds tickets for two kinds of move, and one
/// ticket is drawn per move.
///
/// * *Block* tickets: the least valuable stone on the cell, taking it away as a possible hole.
///   `1 + max(0, -d)` tickets where `d` is the cell's hole value for the mover (adjacent own
///   stones minus the opponent's), so holes that are bad for the mover get filled.
/// * *Grow* tickets (only cells with `e > 0` empty neighbours): a valuable stone (the highest
///   with probability 1/2, else a random one held) on the cell, whose value counts for every
///   neighbour that may end as the hole. `2 + 2 e^2` tickets, plus the positive hole values of
///   the empty neighbours for the mover (a big stone next to a hole that is already good).
///
/// Draws one such move for the player to move (the game must not be over).
pub fn lottery_move<R: Rng + ?Sized>(pos: &Position, rng: &mut R) -> Move {
    let mover = pos.mover();
    let sign: i32 = if mover == RED { 1 } else { -1 };
    let empty = pos.empty();
    // Up to 31 empty cells, two kinds each.
    let mut tickets = [0u32; 64];
    let mut cells = [0u8; 32];
    let mut n = 0;
    let mut total = 0u32;
    for c in cells_of(empty) {
        let d = sign * i32::from(pos.delta(c));
        let e = (NEIGHBOURS[c.index()] & empty).count_ones();
        let block = 1 + (-d).max(0) as u32;
        let grow = if e == 0 {
            0
        } else {
            let mut g = 2 + 2 * e * e;
            for nb in cells_of(NEIGHBOURS[c.index()] & empty) {
                g += (sign * i32::from(pos.delta(nb))).max(0) as u32;
            }
            g
        };
        cells[n] = c.0;
        tickets[2 * n] = block;
        tickets[2 * n + 1] = grow;
        total += block + grow;
        n += 1;
    }
    let mut draw = rng.random_range(0..total.max(1));
    let mut pick = 0;
    for (k, &t) in tickets[..2 * n].iter().enumerate() {
        if draw < t {
            pick = k;
            break;
        }
        draw -= t;
    }
    let cell = Cell(cells[pick / 2]);
    let value = if pick % 2 == 0 {
        pos.lowest_stone(mover)
    } else if rng.random_bool(0.5) {
        pos.highest_stone(mover)
    } else {
        random_stone(pos, mover, rng)
    };
    Move::new(cell, value)
}

fn random_stone<R: Rng + ?Sized>(pos: &Position, player: usize, rng: &mut R) -> u8 {
    let mut m = pos.stones_left_mask(player);
    let k = rng.random_range(0..m.count_ones());
    for _ in 0..k {
        m &= m - 1;
    }
    m.trailing_zeros() as u8
}

/// A greedy move, after the description of the CodeCup 2018 winner's playout. Early in the game
/// the mover mostly *spreads*: the cell with the most empty neighbours (ties: the worst hole for
/// the mover). Late it mostly *fills*: the worst hole for the mover (ties: the most empty
/// neighbours). The chance of spreading falls linearly from 1 at the first move to 1/30 at the
/// last. The stone is the most valuable one held, or the least valuable where the cell has no
/// empty neighbour (it can then change no hole's value). Ties between cells are drawn at
/// random. The game must not be over.
pub fn greedy_move<R: Rng + ?Sized>(pos: &Position, rng: &mut R) -> Move {
    let empty = pos.empty();
    greedy_pick(
        pos,
        |c| (NEIGHBOURS[c.index()] & empty).count_ones() as i32,
        |c| touches_no_empty_cell(pos, c),
        rng,
    )
}

/// [`greedy_move`]'s cell with a stone drawn by Ansell's lottery (tickets equal to the stone's
/// value) instead of the most valuable one, where the cell has empty neighbours: the players
/// of recorded games keep their big stones longer than the greedy playout does (the least
/// valuable stone still goes where it can change no hole's value).
pub fn greedy_lottery_move<R: Rng + ?Sized>(pos: &Position, rng: &mut R) -> Move {
    let mv = greedy_move(pos, rng);
    if touches_no_empty_cell(pos, mv.cell) {
        return mv;
    }
    Move::new(mv.cell, value_weighted_stone(pos, pos.mover(), rng))
}

/// [`greedy_move`] that sees the α-dead cells of the question whether `player` reaches `alpha`
/// as Ansell's lottery does ([`ansell_move`]): a cell's openness counts only its empty
/// neighbours that are not α-dead, one less if the cell is α-dead in the mover's favour and one
/// more if in the opponent's, and the least valuable stone goes on α-stale cells.
pub fn greedy_alpha_move<R: Rng + ?Sized>(
    pos: &Position,
    player: usize,
    alpha: i16,
    rng: &mut R,
) -> Move {
    let empty = pos.empty();
    let dead = alpha_dead(pos, player, alpha);
    let mine: i8 = if pos.mover() == RED { 1 } else { -1 };
    let live = |c: Cell| {
        cells_of(NEIGHBOURS[c.index()] & empty)
            .filter(|nb| dead[nb.index()] == 0)
            .count() as i32
    };
    greedy_pick(
        pos,
        |c| live(c) - i32::from(dead[c.index()] * mine),
        |c| dead[c.index()] != 0 && live(c) == 0,
        rng,
    )
}

/// The greedy choice of [`greedy_move`] with a cell's openness and the cells that get the
/// least valuable stone given.
fn greedy_pick<R: Rng + ?Sized>(
    pos: &Position,
    open: impl Fn(Cell) -> i32,
    settled: impl Fn(Cell) -> bool,
    rng: &mut R,
) -> Move {
    let mover = pos.mover();
    let sign: i32 = if mover == RED { 1 } else { -1 };
    let spread = rng.random_range(0..usize::from(GAME_MOVES)) >= pos.moves_played();
    let (mut best, mut cell, mut ties) = (i32::MIN, 0u8, 0u32);
    for c in cells_of(pos.empty()) {
        // How bad the cell is for the mover as the hole: |delta| <= 90 < 128.
        let bad = -sign * i32::from(pos.delta(c));
        let key = if spread {
            open(c) * 256 + bad
        } else {
            bad * 8 + open(c)
        };
        if key > best {
            (best, cell, ties) = (key, c.0, 1);
        } else if key == best {
            ties += 1;
            if rng.random_range(0..ties) == 0 {
                cell = c.0;
            }
        }
    }
    let cell = Cell(cell);
    let value = if settled(cell) {
        pos.lowest_stone(mover)
    } else {
        pos.highest_stone(mover)
    };
    Move::new(cell, value)
}

/// A progressive bias towards the moves the greedy playout favours ([`greedy_move`]): each
/// move's bias is `bias` times a quality in `[0, 1]` that blends, as the greedy playout's
/// chance of spreading falls over the game, *spreading* (the cell's share of six empty
/// neighbours times the stone's share of the most valuable one held) and *filling* (how bad
/// the cell is for the mover as the hole, up to 30 points). Grouped trees get none.
#[derive(Clone, Copy, Debug, Default)]
pub struct GreedyPrior {
    /// The bias of a move of quality 1, in `[0, MAX_BIAS]` (0: no prior).
    pub bias: f32,
}

impl GreedyPrior {
    /// The largest bias `rave_mcts` keeps ([`PriorValue::bias`]).
    pub const MAX_BIAS: f32 = 2.55;

    /// The quality of `mv` in `pos` (see [`GreedyPrior`]).
    fn quality(pos: &Position, mv: Move) -> f32 {
        let mover = pos.mover();
        let sign: i32 = if mover == RED { 1 } else { -1 };
        let open = (NEIGHBOURS[mv.cell.index()] & pos.empty()).count_ones() as f32;
        let stone = f32::from(mv.value) / f32::from(pos.highest_stone(mover));
        let bad = (-sign * i32::from(pos.delta(mv.cell))).clamp(0, 30) as f32;
        let spread = 1.0 - pos.moves_played() as f32 / f32::from(GAME_MOVES);
        spread * open / 6.0 * stone + (1.0 - spread) * bad / 30.0
    }
}

impl Prior<AlphaGame> for GreedyPrior {
    fn priors(&self, game: &AlphaGame, moves: &[Move], out: &mut [PriorValue]) {
        if game.grouped {
            return;
        }
        for (mv, p) in moves.iter().zip(out) {
            p.bias = self.bias * Self::quality(&game.pos, *mv);
        }
    }

    fn is_active(&self) -> bool {
        self.bias > 0.0
    }
}

/// The greedy playout's stone for `cell`: the least valuable one held where the cell has no
/// empty neighbour (it can then change no hole's value), else the most valuable. A grouped
/// game's playout gives it to the cell the tree chose, whatever the playout policy.
pub fn stone_for(pos: &Position, cell: Cell) -> u8 {
    if touches_no_empty_cell(pos, cell) {
        pos.lowest_stone(pos.mover())
    } else {
        pos.highest_stone(pos.mover())
    }
}

/// Whether `cell` has no empty neighbour: a stone there changes no hole's value, so the
/// greedy playouts put their least valuable stone on it.
fn touches_no_empty_cell(pos: &Position, cell: Cell) -> bool {
    NEIGHBOURS[cell.index()] & pos.empty() == 0
}

/// A uniformly random legal move (the game must not be over).
pub fn uniform_move<R: Rng + ?Sized>(pos: &Position, rng: &mut R) -> Move {
    let empty = pos.empty();
    let k = rng.random_range(0..empty.count_ones());
    let mut m = empty;
    for _ in 0..k {
        m &= m - 1;
    }
    let cell = Cell(m.trailing_zeros() as u8);
    Move::new(cell, random_stone(pos, pos.mover(), rng))
}

impl PlayoutPolicy {
    /// The playout move of this policy in `game` (which must not be over).
    pub fn choose<R: Rng + ?Sized>(self, game: &AlphaGame, rng: &mut R) -> Move {
        match self {
            PlayoutPolicy::Ansell => ansell_move(&game.pos, game.player, game.alpha, rng),
            PlayoutPolicy::Lottery => lottery_move(&game.pos, rng),
            PlayoutPolicy::Uniform => uniform_move(&game.pos, rng),
            PlayoutPolicy::Greedy => greedy_move(&game.pos, rng),
            PlayoutPolicy::GreedyLottery => greedy_lottery_move(&game.pos, rng),
            PlayoutPolicy::Mixed if rng.random_bool(0.5) => greedy_move(&game.pos, rng),
            PlayoutPolicy::Mixed => ansell_move(&game.pos, game.player, game.alpha, rng),
            PlayoutPolicy::GreedyAlpha => {
                greedy_alpha_move(&game.pos, game.player, game.alpha, rng)
            }
            PlayoutPolicy::SplitGreedyAlpha | PlayoutPolicy::SplitAnsell
                if game.pos.mover() != game.player =>
            {
                greedy_move(&game.pos, rng)
            }
            PlayoutPolicy::SplitGreedyAlpha => {
                greedy_alpha_move(&game.pos, game.player, game.alpha, rng)
            }
            PlayoutPolicy::SplitAnsell => ansell_move(&game.pos, game.player, game.alpha, rng),
        }
    }
}

impl Playout<AlphaGame> for LotteryPlayout {
    fn playout<R: Rng + ?Sized>(
        &mut self,
        game: &mut AlphaGame,
        rng: &mut R,
        max_moves: usize,
        trace: &mut Trace<Move>,
    ) -> PlayoutResult {
        let mut length = 0;
        let bounds_from = game.playout_bounds_from();
        loop {
            if let Some(outcome) = game.result_with_bounds_from(bounds_from) {
                return PlayoutResult::finished(outcome, length);
            }
            if length >= max_moves {
                return PlayoutResult::stopped(Outcome::DRAW, length);
            }
            let mover = game.pos.mover();
            let mv = match game.placed.take() {
                // The tree chose the cell (and its place is in the trace): the stone.
                Some(cell) => Move::new(cell, stone_for(&game.pos, cell)),
                None => {
                    let mut mv = self.policy.choose(game, rng);
                    if game.capped_playouts {
                        mv = game.capped(mv);
                    }
                    if game.grouped {
                        trace.push(mover, AlphaGame::place(mv.cell));
                    }
                    mv
                }
            };
            trace.push(mover, mv);
            game.pos.play(mv);
            length += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::BLUE;
    use crate::solver::brute_force;
    use rand::SeedableRng;
    use rand_pcg::Pcg64Mcg;

    #[test]
    fn grouped_moves_choose_a_cell_then_its_stone() {
        let plain = AlphaGame::new(start(), RED, 76);
        let mut grouped = plain.with_grouping(true);
        let mut all = Vec::new();
        plain.legal_moves(&mut all);
        let mut places = Vec::new();
        grouped.legal_moves(&mut places);
        // One place per cell of the plain moves, each once.
        let mut cells: Vec<Cell> = all.iter().map(|m| m.cell).collect();
        cells.dedup();
        assert_eq!(
            places,
            cells
                .iter()
                .map(|&c| AlphaGame::place(c))
                .collect::<Vec<_>>()
        );
        let place = places[3];
        grouped.play(place);
        assert_eq!(grouped.pos, plain.pos, "a place leaves the position alone");
        assert_eq!(
            grouped.to_move(),
            plain.to_move(),
            "the same player moves again"
        );
        assert_eq!(grouped.result(), None);
        let mut stones = Vec::new();
        grouped.legal_moves(&mut stones);
        let expected: Vec<Move> = all
            .iter()
            .copied()
            .filter(|m| m.cell == place.cell)
            .collect();
        assert_eq!(stones, expected);
        grouped.play(stones[0]);
        let mut after = plain;
        after.play(stones[0]);
        assert_eq!((grouped.pos, grouped.placed), (after.pos, None));
        // Places and stones have indices of their own, below the bound.
        let mut indices: Vec<usize> = places
            .iter()
            .chain(&all)
            .map(|&m| grouped.move_index(m))
            .collect();
        assert!(indices.iter().all(|&i| i < grouped.move_bound()));
        indices.sort_unstable();
        indices.dedup();
        assert_eq!(indices.len(), places.len() + all.len());
    }

    #[test]
    fn a_grouped_playout_plays_the_chosen_cell_first_and_traces_each_place() {
        let mut g = AlphaGame::new(start(), RED, 76).with_grouping(true);
        let mut places = Vec::new();
        g.legal_moves(&mut places);
        let cell = places[0].cell;
        g.play(places[0]);
        let mut trace = Trace::new();
        let mut rng = Pcg64Mcg::seed_from_u64(1);
        let mut playout = LotteryPlayout::default();
        let r = playout.playout(&mut g, &mut rng, usize::MAX, &mut trace);
        assert!(!r.stopped_early && g.result().is_some());
        assert_eq!(trace.len(), 2 * r.length - 1);
        let (first_player, first) = trace.get(0).unwrap();
        assert_eq!((first_player, first.cell), (RED, cell));
        assert_ne!(first.value, 0, "the chosen cell gets its stone at once");
        // Every later move is traced as its place, then the move itself.
        for k in (1..trace.len()).step_by(2) {
            let (p, place) = trace.get(k).unwrap();
            let (q, mv) = trace.get(k + 1).unwrap();
            assert_eq!((p, place), (q, AlphaGame::place(mv.cell)));
            assert_ne!(mv.value, 0);
        }
    }

    #[test]
    fn amaf_by_cell_gives_the_stones_of_a_cell_one_index() {
        let by_cell = AlphaGame::new(start(), RED, 76).with_amaf_by_cell(true);
        let by_move = AlphaGame::new(start(), RED, 76);
        let mut moves = Vec::new();
        by_cell.legal_moves(&mut moves);
        for a in &moves {
            for b in &moves {
                let same_cell = a.cell == b.cell;
                assert_eq!(by_cell.move_index(*a) == by_cell.move_index(*b), same_cell);
                assert_eq!(by_move.move_index(*a) == by_move.move_index(*b), a == b);
            }
            assert!(by_cell.move_index(*a) < by_cell.move_bound());
        }
    }

    #[test]
    fn the_opening_cap_holds_back_only_the_players_big_stones_and_only_early() {
        let most_valuable = |g: &AlphaGame| {
            let mut moves = Vec::new();
            g.legal_moves(&mut moves);
            moves.iter().map(|m| m.value).max().unwrap()
        };
        let mut g = AlphaGame::new(start(), RED, 76).with_opening_cap(3, 12);
        assert_eq!(most_valuable(&g), 12);
        g.play(Move::new(Cell(0), 1));
        // Blue's moves are not capped, nor Red's from the fourth ply on.
        assert_eq!(most_valuable(&g), 15);
        g.play(Move::new(Cell(1), 1));
        assert_eq!(most_valuable(&g), 12);
        g.play(Move::new(Cell(2), 2));
        g.play(Move::new(Cell(3), 2));
        assert_eq!(most_valuable(&g), 15);
    }

    #[test]
    fn the_opening_ramp_raises_the_cap_by_one_every_two_plies() {
        let mut g = AlphaGame::new(start(), RED, 76)
            .with_opening_cap(6, 10)
            .with_opening_ramp(true);
        let mut caps = Vec::new();
        for ply in 0..8u8 {
            caps.push(g.cap());
            let cell = cells_of(g.pos.empty()).next().unwrap();
            g.play(Move::new(cell, 1 + ply / 2));
        }
        // Red moves on the even plies; the cap ends with the opening.
        assert_eq!(
            caps,
            [Some(10), None, Some(11), None, Some(12), None, None, None]
        );
    }

    #[test]
    fn capped_playouts_keep_red_under_the_cap_in_the_opening_only() {
        let mut g = AlphaGame::new(start(), RED, 76)
            .with_opening_cap(4, 12)
            .with_capped_playouts(true);
        let mut rng = Pcg64Mcg::seed_from_u64(7);
        let mut trace = Trace::new();
        LotteryPlayout {
            policy: PlayoutPolicy::Greedy,
        }
        .playout(&mut g, &mut rng, 30, &mut trace);
        let stones: Vec<u8> = (0..5).map(|i| trace.get(i).unwrap().1.value).collect();
        // Red's first two stones are 12 and 11 (the greedy 15 and 14, capped); Blue is not
        // capped, and Red's third stone, after the opening, is its 15 again.
        assert_eq!(stones, [12, 15, 11, 14, 15]);
        // Holding no stone up to the cap, Red keeps the greedy stone.
        let mut low = AlphaGame::new(start(), RED, 76).with_opening_cap(4, 12);
        for v in 1..=12 {
            for _ in 0..2 {
                let cell = cells_of(low.pos.empty()).next().unwrap();
                low.pos.play(Move::new(cell, v));
            }
        }
        let big = Move::new(cells_of(low.pos.empty()).next().unwrap(), 15);
        low.opening_plies = 30;
        assert_eq!(low.capped(big), big);
    }

    #[test]
    fn width_keeps_the_lowest_and_the_most_valuable_stones() {
        let p = start();
        let g = AlphaGame::new(p, RED, 76).with_width(3);
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        let c = moves[0].cell;
        let values: Vec<u8> = moves
            .iter()
            .filter(|m| m.cell == c)
            .map(|m| m.value)
            .collect();
        assert_eq!(values, [1, 14, 15]);
        assert_eq!(moves.len(), 31 * 3);
        let mut all = Vec::new();
        AlphaGame::new(p, RED, 76).legal_moves(&mut all);
        assert_eq!(all.len(), 31 * 15);
    }

    fn start() -> Position {
        let blocked = ["B2", "C5", "E1", "F3", "A8"].map(|c| Cell::parse(c).unwrap());
        Position::new(&blocked).unwrap()
    }

    /// The greedy prior's bias of each move, by move.
    fn biases(game: &AlphaGame, bias: f32) -> Vec<(Move, f32)> {
        let mut moves = Vec::new();
        game.pos.legal_moves(&mut moves);
        let mut out = vec![PriorValue::default(); moves.len()];
        GreedyPrior { bias }.priors(game, &moves, &mut out);
        moves.into_iter().zip(out.iter().map(|p| p.bias)).collect()
    }

    #[test]
    fn the_greedy_prior_spreads_big_stones_early_and_fills_bad_holes_late() {
        let cell = |c: &str| Cell::parse(c).unwrap();
        let bias_of = |b: &[(Move, f32)], c: &str, v: u8| {
            b.iter()
                .find(|(m, _)| *m == Move::new(cell(c), v))
                .unwrap()
                .1
        };
        // First move: the 15 on an open interior cell (six empty neighbours) gets the whole
        // bias; the 1 there, or the 15 on a corner (two), much less.
        let b = biases(&AlphaGame::new(start(), RED, 76), 1.0);
        assert!((bias_of(&b, "B4", 15) - 1.0).abs() < 1e-6);
        assert!(bias_of(&b, "B4", 1) < 0.1);
        assert!(bias_of(&b, "A1", 15) < 0.4);
        assert!(b.iter().all(|(_, x)| (0.0..=1.0).contains(x)));
        // Late: a hole bad for the mover is worth filling, one good for it is not.
        let mut rng = Pcg64Mcg::seed_from_u64(8);
        let mut p = start();
        while p.moves_played() < 22 {
            p.try_play(greedy_move(&p, &mut rng)).unwrap();
        }
        let game = AlphaGame::new(p, p.mover(), 76);
        let sign = if p.mover() == RED { 1 } else { -1 };
        // The same stone on both cells, so that only the fill term tells them apart.
        let lowest = p.lowest_stone(p.mover());
        let b: Vec<_> = biases(&game, 1.0)
            .into_iter()
            .filter(|(m, _)| m.value == lowest)
            .collect();
        let badness = |m: &Move| -sign * i32::from(p.delta(m.cell));
        let worst = b.iter().max_by_key(|(m, _)| badness(m)).unwrap();
        let best = b.iter().min_by_key(|(m, _)| badness(m)).unwrap();
        assert!(badness(&worst.0) > badness(&best.0), "{p:?}");
        assert!(worst.1 > best.1, "{worst:?} {best:?} {p:?}");
        // No bias, no prior; grouped trees get none.
        assert!(!GreedyPrior { bias: 0.0 }.is_active());
        let grouped = AlphaGame::new(start(), RED, 76).with_grouping(true);
        assert!(biases(&grouped, 1.0).iter().all(|(_, x)| *x == 0.0));
    }

    #[test]
    fn the_score_reward_grows_with_the_score_and_sums_to_one() {
        let mut rng = Pcg64Mcg::seed_from_u64(3);
        let mut seen = Vec::new();
        for _ in 0..200 {
            let mut p = start();
            while !p.is_over() {
                p.play(lottery_move(&p, &mut rng));
            }
            let red = AlphaGame::new(p, RED, 76).with_score_reward(10.0);
            let blue = AlphaGame::new(p, BLUE, 76).with_score_reward(10.0);
            let (r, b) = (red.result().unwrap(), blue.result().unwrap());
            // The same outcome whichever player's game it is, and the rewards sum to one.
            assert!((r.reward(RED) - b.reward(RED)).abs() < 1e-6);
            assert!((r.reward(RED) + r.reward(BLUE) - 1.0).abs() < 1e-6);
            seen.push((p.red_score().unwrap(), r.reward(RED)));
        }
        seen.sort_by_key(|s| s.0);
        assert!(
            seen.windows(2).all(|w| w[0].1 <= w[1].1),
            "not monotone: {seen:?}"
        );
        for (score, reward) in seen {
            match score {
                ..=65 => assert_eq!(reward, 0.0),
                75 => assert!((reward - 0.5).abs() < 1e-6),
                85.. => assert_eq!(reward, 1.0),
                _ => assert!(reward > 0.0 && reward < 1.0),
            }
        }
    }

    /// An ending of 1 (the game over) to 5 empty cells, after greedy (even rounds) or random
    /// moves.
    fn small_ending(round: u32, rng: &mut Pcg64Mcg) -> Position {
        let mut p = start();
        while p.empty_count() > 1 + round % 5 {
            p.play(if round.is_multiple_of(2) {
                greedy_move(&p, rng)
            } else {
                uniform_move(&p, rng)
            });
        }
        p
    }

    #[test]
    fn the_wdl_game_decides_as_the_exact_score_says() {
        let mut rng = Pcg64Mcg::seed_from_u64(13);
        let mut decided_early = [0; 3];
        for round in 0..400 {
            let p = small_ending(round, &mut rng);
            let red = brute_force(&p);
            for player in [RED, BLUE] {
                let exact = if player == RED { red } else { 150 - red };
                let expected = match exact {
                    76.. => Outcome::win(player),
                    75 => Outcome::DRAW,
                    _ => Outcome::win(1 - player),
                };
                let game = AlphaGame::new(p, player, 90)
                    .with_static_verdict(31)
                    .with_wdl_reward();
                match game.result() {
                    Some(outcome) => {
                        assert_eq!(outcome, expected, "{player}, exact {exact}, {p:?}");
                        if !p.is_over() {
                            decided_early[(exact - 74).clamp(0, 2) as usize] += 1;
                        }
                    }
                    None => assert!(!p.is_over()),
                }
            }
        }
        // Losses, draws and wins are each decided before the end by the static bounds.
        assert!(decided_early.iter().all(|&n| n > 0), "{decided_early:?}");
    }

    #[test]
    fn the_wdl_game_with_a_margin_rewards_the_exact_score_level() {
        the_wdl_game_rewards_the_exact_score_level(0.15, 0.5);
    }

    #[test]
    fn the_wdl_game_with_a_draw_reward_rewards_the_exact_score_level() {
        the_wdl_game_rewards_the_exact_score_level(0.0, 0.6);
        the_wdl_game_rewards_the_exact_score_level(0.1, 0.6);
    }

    /// The win-draw-loss game with margin `m` and draw reward `d`, against brute force.
    fn the_wdl_game_rewards_the_exact_score_level(m: f32, d: f32) {
        let mut rng = Pcg64Mcg::seed_from_u64(17);
        let mut decided_early = [0; 5];
        for round in 0..600 {
            let p = small_ending(round, &mut rng);
            let red = brute_force(&p);
            for player in [RED, BLUE] {
                let exact = if player == RED { red } else { 150 - red };
                let expected = match exact {
                    77.. => 1.0,
                    76 => 1.0 - m,
                    75 => d,
                    74 => m,
                    _ => 0.0,
                };
                let game = AlphaGame::new(p, player, 90)
                    .with_static_verdict(31)
                    .with_wdl_reward()
                    .with_wdl_margin(m)
                    .with_draw_reward(d);
                match game.result() {
                    Some(outcome) => {
                        let reward = outcome.reward(player);
                        assert_eq!(reward, expected, "{player}, exact {exact}, {p:?}");
                        assert_eq!(outcome.reward(1 - player), 1.0 - expected);
                        if !p.is_over() {
                            decided_early[(exact - 73).clamp(0, 4) as usize] += 1;
                        }
                    }
                    None => assert!(!p.is_over()),
                }
            }
        }
        // Every level is decided before the end by the static bounds somewhere.
        assert!(decided_early.iter().all(|&n| n > 0), "{decided_early:?}");
    }

    #[test]
    fn the_score_game_ends_early_only_at_the_exact_score() {
        // Where the static bounds end the score game early, the score they fix is the one
        // the exact solver finds (the score under best play from both sides).
        let mut rng = Pcg64Mcg::seed_from_u64(5);
        let mut solver = crate::solver::Solver::new();
        let mut checked = 0;
        for _ in 0..200 {
            let mut p = start();
            while !p.is_over() && checked < 20 {
                let g = AlphaGame::new(p, RED, 76)
                    .with_score_reward(20.0)
                    .with_static_verdict(31);
                if let Some(o) = g.result() {
                    if p.empty_count() <= 10 {
                        let b = solver.bounds(&p, None, None).unwrap();
                        assert_eq!(b.lo, b.hi);
                        let expected = 0.5 + f32::from(b.lo - 75) / 40.0;
                        assert!((o.reward(RED) - expected.clamp(0.0, 1.0)).abs() < 1e-5);
                        checked += 1;
                    }
                    break;
                }
                p.play(lottery_move(&p, &mut rng));
            }
        }
        assert!(checked > 0, "the static bounds never fixed a score early");
    }

    #[test]
    fn alpha_dead_cells_agree_with_every_filling_of_their_neighbours() {
        // Brute force: every way to put stones held (by either player) on a cell's empty
        // neighbours, the resulting score of `player` with that cell as the hole.
        let mut rng = Pcg64Mcg::seed_from_u64(13);
        let mut settled = 0;
        for _ in 0..60 {
            let mut p = start();
            while p.empty_count() > 9 {
                p.play(lottery_move(&p, &mut rng));
            }
            let mut held: Vec<i16> = Vec::new();
            for v in 1..=15u8 {
                if p.has_stone(RED, v) {
                    held.push(i16::from(v));
                }
                if p.has_stone(BLUE, v) {
                    held.push(-i16::from(v));
                }
            }
            for player in [RED, BLUE] {
                for alpha in [66, 72, 76, 80, 86] {
                    let dead = alpha_dead(&p, player, alpha);
                    for c in cells_of(p.empty()) {
                        let k = (NEIGHBOURS[c.index()] & p.empty()).count_ones() as usize;
                        let reaches = |sum: i16| {
                            let d = p.delta(c) + sum;
                            let score = if player == RED { 75 + d } else { 75 - d };
                            score >= alpha
                        };
                        let sums = subset_sums(&held, k);
                        let always = sums.iter().all(|&s| reaches(s));
                        let never = sums.iter().all(|&s| !reaches(s));
                        // Red's side is `player` reaching alpha for Red, missing it for Blue.
                        let red_side = |r: bool| r == (player == RED);
                        let expected = if always {
                            if red_side(true) { 1 } else { -1 }
                        } else if never {
                            if red_side(false) { 1 } else { -1 }
                        } else {
                            0
                        };
                        assert_eq!(dead[c.index()], expected, "{c:?} {player} {alpha} {p:?}");
                        settled += usize::from(expected != 0);
                    }
                }
            }
        }
        assert!(settled > 100, "only {settled} settled cells");
    }

    /// The sums of every `k` of `values` (all of them if there are fewer).
    fn subset_sums(values: &[i16], k: usize) -> Vec<i16> {
        if k == 0 || values.len() <= k {
            return vec![values.iter().take(k).sum()];
        }
        let mut out = subset_sums(&values[1..], k - 1);
        for s in &mut out {
            *s += values[0];
        }
        out.extend(subset_sums(&values[1..], k));
        out
    }

    #[test]
    fn ansell_moves_are_legal_to_the_end_and_favour_open_cells() {
        let mut rng = Pcg64Mcg::seed_from_u64(9);
        for alpha in [60, 76, 90] {
            for _ in 0..100 {
                let mut p = start();
                while !p.is_over() {
                    let mv = ansell_move(&p, BLUE, alpha, &mut rng);
                    p.try_play(mv).unwrap();
                }
            }
        }
        // On the empty board no cell is dead: tickets are the empty neighbours, so an interior
        // cell (six) is drawn about three times as often as a corner (two), and the stones by
        // their values.
        let p = start();
        let (corner, inner) = (Cell::parse("A1").unwrap(), Cell::parse("C3").unwrap());
        let (mut at_corner, mut at_inner, mut fifteens, mut ones) = (0, 0, 0, 0);
        for _ in 0..20_000 {
            let mv = ansell_move(&p, RED, 76, &mut rng);
            at_corner += usize::from(mv.cell == corner);
            at_inner += usize::from(mv.cell == inner);
            fifteens += usize::from(mv.value == 15);
            ones += usize::from(mv.value == 1);
        }
        assert!(
            at_inner > 2 * at_corner && at_inner < 4 * at_corner,
            "{at_inner} {at_corner}"
        );
        assert!(fifteens > 10 * ones, "{fifteens} {ones}");
    }

    #[test]
    fn greedy_lottery_moves_take_the_greedy_cell_and_draw_the_stone_by_value() {
        let mut rng = Pcg64Mcg::seed_from_u64(21);
        let p = start();
        let (mut fifteens, mut ones) = (0, 0);
        for _ in 0..3000 {
            let mv = greedy_lottery_move(&p, &mut rng);
            // On the first move the greedy playout always spreads: a most open cell.
            let open = |c: Cell| (NEIGHBOURS[c.index()] & p.empty()).count_ones();
            assert_eq!(open(mv.cell), cells_of(p.empty()).map(open).max().unwrap());
            fifteens += usize::from(mv.value == 15);
            ones += usize::from(mv.value == 1);
        }
        // Tickets 15 against 1 among 120: about 375 and 25 of 3,000.
        assert!((250..500).contains(&fifteens), "{fifteens}");
        assert!((5..60).contains(&ones), "{ones}");
    }

    #[test]
    fn greedy_moves_spread_or_fill_with_the_right_stone() {
        let mut rng = Pcg64Mcg::seed_from_u64(13);
        let (mut spread_only, mut fill_only) = ([0; 2], [0; 2]);
        for _ in 0..200 {
            let mut p = start();
            while !p.is_over() {
                let mv = greedy_move(&p, &mut rng);
                let sign = if p.mover() == RED { 1 } else { -1 };
                let empty = p.empty();
                let open = |c: Cell| (NEIGHBOURS[c.index()] & empty).count_ones() as i32;
                let bad = |c: Cell| -sign * i32::from(p.delta(c));
                let most_open = cells_of(empty).map(|c| (open(c), bad(c))).max().unwrap();
                let worst = cells_of(empty).map(|c| (bad(c), open(c))).max().unwrap();
                let c = mv.cell;
                let (spreads, fills) = ((open(c), bad(c)) == most_open, (bad(c), open(c)) == worst);
                assert!(
                    spreads || fills,
                    "{mv:?} neither spreads nor fills at {p:?}"
                );
                let late = usize::from(p.moves_played() >= 15);
                spread_only[late] += usize::from(spreads && !fills);
                fill_only[late] += usize::from(fills && !spreads);
                let stone = if open(c) == 0 {
                    p.lowest_stone(p.mover())
                } else {
                    p.highest_stone(p.mover())
                };
                assert_eq!(mv.value, stone);
                p.try_play(mv).unwrap();
            }
        }
        // Spreading dominates the first half of the game, filling the second.
        assert!(
            spread_only[0] > 2 * fill_only[0],
            "{spread_only:?} {fill_only:?}"
        );
        assert!(
            fill_only[1] > spread_only[1],
            "{spread_only:?} {fill_only:?}"
        );
        // The first move always spreads: the highest stone on a cell with six empty neighbours.
        let p = start();
        let mv = greedy_move(&p, &mut rng);
        assert_eq!((NEIGHBOURS[mv.cell.index()] & p.empty()).count_ones(), 6);
        assert_eq!(mv.value, 15);
    }

    #[test]
    fn greedy_alpha_moves_count_only_live_neighbours() {
        let mut rng = Pcg64Mcg::seed_from_u64(19);
        let mut differed = 0;
        for game in 0..100 {
            let (player, alpha) = (game % 2, 66 + (game % 5) as i16 * 5);
            let mut p = start();
            while !p.is_over() {
                let dead = alpha_dead(&p, player, alpha);
                let empty = p.empty();
                let sign = if p.mover() == RED { 1 } else { -1 };
                let live = |c: Cell| {
                    let n = NEIGHBOURS[c.index()] & empty;
                    cells_of(n).filter(|x| dead[x.index()] == 0).count() as i32
                };
                let open = |c: Cell| live(c) - i32::from(dead[c.index()]) * sign;
                let bad = |c: Cell| -sign * i32::from(p.delta(c));
                let mut twin = rng.clone();
                let mv = greedy_alpha_move(&p, player, alpha, &mut rng);
                let c = mv.cell;
                let most_open = cells_of(empty).map(|c| (open(c), bad(c))).max().unwrap();
                let worst = cells_of(empty).map(|c| (bad(c), open(c))).max().unwrap();
                assert!(
                    (open(c), bad(c)) == most_open || (bad(c), open(c)) == worst,
                    "{mv:?} neither spreads nor fills at {p:?}"
                );
                let stale = dead[c.index()] != 0 && live(c) == 0;
                let stone = if stale {
                    p.lowest_stone(p.mover())
                } else {
                    p.highest_stone(p.mover())
                };
                assert_eq!(mv.value, stone);
                // Where nothing is α-dead, it is the plain greedy move.
                if dead.iter().all(|&d| d == 0) {
                    assert_eq!(greedy_move(&p, &mut twin), mv);
                } else {
                    differed += usize::from(greedy_move(&p, &mut twin) != mv);
                }
                p.try_play(mv).unwrap();
            }
        }
        assert!(differed > 100, "{differed}");
    }

    #[test]
    fn every_playout_policy_plays_legal_moves_to_a_result() {
        let mut rng = Pcg64Mcg::seed_from_u64(17);
        let policies = [
            PlayoutPolicy::Ansell,
            PlayoutPolicy::Lottery,
            PlayoutPolicy::Uniform,
            PlayoutPolicy::Greedy,
            PlayoutPolicy::GreedyLottery,
            PlayoutPolicy::Mixed,
            PlayoutPolicy::GreedyAlpha,
            PlayoutPolicy::SplitGreedyAlpha,
            PlayoutPolicy::SplitAnsell,
        ];
        for policy in policies {
            let mut playout = LotteryPlayout { policy };
            for alpha in [70, 76, 82] {
                let mut game = AlphaGame::new(start(), BLUE, alpha);
                let mut trace = Trace::new();
                let r = playout.playout(&mut game, &mut rng, usize::MAX, &mut trace);
                assert!(!r.stopped_early, "{policy:?}");
                assert_eq!(Some(r.outcome), game.result(), "{policy:?}");
                assert_eq!(r.length, trace.len());
                let mut replay = start();
                for (player, mv) in trace.iter() {
                    assert_eq!(player, replay.mover());
                    replay.try_play(mv).unwrap();
                }
                assert_eq!(replay, game.pos, "{policy:?}");
            }
        }
    }

    #[test]
    fn lazy_playouts_play_the_same_moves_and_perhaps_more() {
        let mut rng = Pcg64Mcg::seed_from_u64(41);
        for round in 0..800 {
            // From the start or a few random moves in, for targets near and far from a draw.
            let mut pos = start();
            for _ in 0..round % 13 {
                pos.play(uniform_move(&pos, &mut rng));
            }
            let alpha = [60, 66, 72, 75, 76, 79, 86, 92][round % 8];
            let eager = AlphaGame::new(pos, round % 2, alpha).with_static_verdict(31);
            let (eager_outcome, eager_moves) = seeded_playout(eager, round as u64);
            let lazy = eager.with_lazy_playout_bounds(true);
            let (lazy_outcome, lazy_moves) = seeded_playout(lazy, round as u64);
            // The greedy draws do not depend on the bounds: the same moves, then perhaps
            // more, and where both stop at the same position, the same verdict there.
            assert!(lazy_moves.starts_with(&eager_moves), "round {round}");
            if lazy_moves.len() == eager_moves.len() {
                assert_eq!(lazy_outcome, eager_outcome, "round {round}");
            }
        }
    }

    #[test]
    fn a_lazy_playout_plays_on_where_the_bounds_decide_early() {
        // One of the rare positions found where the bounds decide above the lazy range: at 19
        // empty cells Red cannot reach 76 with best play (Blue reaches 75).
        let blocked = ["H1", "E2", "E1", "G2", "B1"].map(|c| Cell::parse(c).unwrap());
        let mut pos = Position::new(&blocked).unwrap();
        let moves = [
            ("B3", 15),
            ("C5", 15),
            ("B5", 14),
            ("C2", 14),
            ("D4", 13),
            ("B4", 13),
            ("C6", 12),
            ("D3", 12),
            ("A7", 11),
            ("F2", 11),
            ("A2", 10),
            ("E4", 10),
        ];
        for (cell, value) in moves {
            pos.try_play(Move::new(Cell::parse(cell).unwrap(), value))
                .unwrap();
        }
        let eager = AlphaGame::new(pos, BLUE, 75).with_static_verdict(31);
        let lazy = eager.with_lazy_playout_bounds(true);
        assert_eq!(pos.empty_count(), 19);
        assert_eq!(lazy.playout_bounds_from(), 18);
        let (eager_outcome, eager_moves) = seeded_playout(eager, 3);
        assert_eq!(eager_outcome, Outcome::win(BLUE));
        assert!(eager_moves.is_empty());
        // The lazy playout plays its own moves instead of taking the best-play verdict.
        let (_, lazy_moves) = seeded_playout(lazy, 3);
        assert!(!lazy_moves.is_empty());
        // The tree's node is still decided there.
        assert_eq!(lazy.result(), Some(Outcome::win(BLUE)));
    }

    /// A greedy playout of `game` from a seeded generator: its outcome and moves.
    fn seeded_playout(mut game: AlphaGame, seed: u64) -> (Outcome, Vec<(usize, Move)>) {
        let mut trace = Trace::new();
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        let r = LotteryPlayout::default().playout(&mut game, &mut rng, usize::MAX, &mut trace);
        (r.outcome, trace.iter().collect())
    }

    #[test]
    fn lazy_playout_bounds_start_nearer_the_end_for_targets_near_a_draw() {
        // 75 and 76 are next to the line between a draw and a win, for either player.
        for (alpha, distance) in [
            (76, 0),
            (75, 0),
            (77, 1),
            (74, 1),
            (80, 4),
            (71, 4),
            (60, 15),
        ] {
            assert_eq!(target_distance(alpha), distance, "alpha {alpha}");
        }
        let from = |player, alpha, lazy| {
            AlphaGame::new(start(), player, alpha)
                .with_static_verdict(31)
                .with_lazy_playout_bounds(lazy)
                .playout_bounds_from()
        };
        assert_eq!(from(RED, 76, false), 31);
        for player in [RED, BLUE] {
            assert_eq!(from(player, 76, true), 18);
            assert_eq!(from(player, 74, true), 18);
            assert_eq!(from(player, 78, true), 19);
            assert_eq!(from(player, 71, true), 20);
            assert_eq!(from(player, 60, true), 25);
        }
        // Never above the tree's own range.
        let game = AlphaGame::new(start(), RED, 76).with_static_verdict(10);
        assert_eq!(
            game.with_lazy_playout_bounds(true).playout_bounds_from(),
            10
        );
    }

    #[test]
    fn split_playouts_model_only_the_opponent_as_greedy() {
        let mut rng = Pcg64Mcg::seed_from_u64(29);
        for (policy, ours) in [
            (PlayoutPolicy::SplitGreedyAlpha, PlayoutPolicy::GreedyAlpha),
            (PlayoutPolicy::SplitAnsell, PlayoutPolicy::Ansell),
        ] {
            for player in [RED, BLUE] {
                let mut game = AlphaGame::new(start(), player, 76);
                while !game.pos.is_over() {
                    // The same random stream must give the move of the policy modelled.
                    let model = if game.pos.mover() == player {
                        ours
                    } else {
                        PlayoutPolicy::Greedy
                    };
                    let mut twin = rng.clone();
                    let mv = policy.choose(&game, &mut rng);
                    assert_eq!(mv, model.choose(&game, &mut twin), "{policy:?}");
                    game.pos.play(mv);
                }
            }
        }
    }

    #[test]
    fn lottery_and_uniform_moves_are_legal_to_the_end() {
        let mut rng = Pcg64Mcg::seed_from_u64(7);
        for uniform in [false, true] {
            for _ in 0..200 {
                let mut p = start();
                while !p.is_over() {
                    let mv = if uniform {
                        uniform_move(&p, &mut rng)
                    } else {
                        lottery_move(&p, &mut rng)
                    };
                    p.try_play(mv).unwrap();
                }
                let r = p.red_score().unwrap();
                assert_eq!(r + p.score(BLUE).unwrap(), 150);
            }
        }
    }

    #[test]
    fn declared_results_agree_with_the_end_of_the_game() {
        // Whenever the dead cells declare a result, every continuation ends that way.
        let mut rng = Pcg64Mcg::seed_from_u64(11);
        let mut checked = 0;
        for _ in 0..300 {
            let mut p = start();
            while !p.is_over() {
                let mv = lottery_move(&p, &mut rng);
                p.play(mv);
                let alpha = 70 + (rng.random_range(0..12u8) as i16);
                for player in [RED, BLUE] {
                    if let Some(win) = declared(&p, player, alpha) {
                        if p.is_over() {
                            continue;
                        }
                        checked += 1;
                        let winner = if win { player } else { 1 - player };
                        for _ in 0..10 {
                            let mut q = p;
                            while !q.is_over() {
                                // Random continuations, but the declared winner keeps off its
                                // good dead cells whenever it can (the declared strategy).
                                let mut moves = Vec::new();
                                q.legal_moves(&mut moves);
                                let keep: Vec<Move> = moves
                                    .iter()
                                    .copied()
                                    .filter(|m| {
                                        q.mover() != winner
                                            || q.dead_cells() & (1 << m.cell.index()) == 0
                                            || (q.hole_score(m.cell, player) >= alpha) != win
                                    })
                                    .collect();
                                let pool = if keep.is_empty() { &moves } else { &keep };
                                let m = pool[rng.random_range(0..pool.len())];
                                q.play(m);
                            }
                            assert_eq!(q.score(player).unwrap() >= alpha, win, "{p:?}");
                        }
                    }
                }
            }
        }
        assert!(checked > 100, "only {checked} declarations");
    }
}
