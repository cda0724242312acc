//! Blackhole as a [`rave_mcts::Game`] for a target score: the game, its settings (the opening
//! cap, the width, the grouping of moves by place, the static verdict's range, the target
//! pruning, the AMAF key) and its results for a target, for the score, or for a win, a draw or
//! a loss.

use rave_mcts::{Game, Rewards};

use super::{lazy_bounds_from, target_verdict, target_verdicts};
use crate::board::{CELLS, Cell};
use crate::rules::{DRAW_SCORE, MOVE_BOUND, Move, Position, RED, reasonable_moves};
use crate::solver::{static_score_bounds, target_moves};

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
    /// by the value-sense rules alone ([`reasonable_moves`]); only with [`Reward::Target`].
    pub target_pruning: bool,
    /// What a finished simulation earns `player` (see [`AlphaGame::with_reward`]).
    pub reward: Reward,
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
}

/// What a finished simulation of an [`AlphaGame`] earns its `player` (the opponent earns the
/// rest): reaching the target, a reward growing with the score, or a win, a draw or a loss.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum Reward {
    /// 1 for reaching `alpha`, else 0.
    Target,
    /// The final score: the reward grows linearly with it, from 0 at `75 - scale` points to 1
    /// at `75 + scale` (`0.5 + (score - 75) / (2 * scale)`, clamped to `[0, 1]`): a search for
    /// the best mean score, as the CodeCup counts it. A simulation ends early only where the
    /// static bounds fix the exact score; `alpha` and the target pruning are not used.
    Score {
        /// The points above (below) a draw that earn the whole (no) reward; positive.
        scale: f32,
    },
    /// A win, a draw and a loss (a draw is 75 points) earn 1, `draw` and 0: the mean score,
    /// as the CodeCup counts it, where the scores are within a point of a draw, as most are
    /// against wormhole. The static bounds end a simulation where they decide both "does
    /// `player` reach 76?" and "does it reach 75?" (a win alone by the first); `alpha` and
    /// the target pruning are not used.
    ///
    /// With a `margin`, a second point is told apart: a loss by one point earns `margin`
    /// instead of 0 and a win by one point `1 - margin` instead of 1, so the search prefers
    /// the larger win and the smaller loss where the win, draw or loss is the same, and a
    /// simulation ends where the static bounds decide its reward (0 for a loss by two points
    /// or more, 1 for a win by two or more). A `draw` above 1/2 makes the search prefer a
    /// sure draw to a gamble that wins and loses as often, for an opponent against whom a
    /// loss costs more points than a win earns; against wormhole 1/2 scores more than 0.6 or
    /// 0.4 (`docs/blackhole.md`). Only the rewards 0, 1/2 and 1 are proven by the
    /// MCTS-solver.
    Wdl {
        /// The reward of a loss by one point, in `[0, 1/2)` (0: plain win-draw-loss).
        margin: f32,
        /// The reward of a draw, in `(0, 1)`, above `margin` and below one less it (1/2:
        /// plain win-draw-loss).
        draw: f32,
    },
}

impl Reward {
    /// Plain win-draw-loss: 1, 1/2 and 0.
    pub const WDL: Reward = Reward::Wdl {
        margin: 0.0,
        draw: 0.5,
    };
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
            reward: Reward::Target,
            amaf_by_cell: false,
            grouped: false,
            placed: None,
            opening_plies: 0,
            opening_cap: 15,
            capped_playouts: false,
            opening_ramp: false,
            lazy_playout_bounds: false,
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
    pub(super) fn capped(&self, mv: Move) -> Move {
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

    /// The same game with `reward` instead of reaching `alpha` (see [`Reward`]).
    pub fn with_reward(mut self, reward: Reward) -> Self {
        self.reward = reward;
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
        if !self.lazy_playout_bounds || matches!(self.reward, Reward::Score { .. }) {
            return self.static_empty;
        }
        self.static_empty.min(lazy_bounds_from(self.alpha))
    }

    /// The result, with the static bounds asked from `bounds_from` empty cells on.
    #[inline]
    pub(super) fn result_with_bounds_from(&self, bounds_from: u32) -> Option<Rewards> {
        if self.placed.is_some() {
            // A cell is chosen: its stone is still to come.
            return None;
        }
        let bounds = self.pos.empty_count() <= bounds_from;
        match self.reward {
            Reward::Target => {}
            Reward::Score { scale } => return self.score_result(scale),
            Reward::Wdl { margin, draw } => return self.wdl_result(bounds, margin, draw),
        }
        target_verdict(&self.pos, self.player, self.alpha, bounds).map(|win| {
            if win {
                Rewards::win(self.player)
            } else {
                Rewards::win(1 - self.player)
            }
        })
    }
}

impl Game for AlphaGame {
    type Move = Move;

    #[inline]
    fn to_move(&self) -> usize {
        self.pos.mover()
    }

    fn legal_moves(&self, moves: &mut Vec<Move>) {
        if self.target_pruning && self.reward == Reward::Target {
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
    fn result(&self) -> Option<Rewards> {
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
    /// The win-draw-loss result ([`Reward::Wdl`]) where it is decided, by the static bounds
    /// when `bounds` is set, else by the dead-cell declaration.
    fn wdl_result(&self, bounds: bool, margin: f32, draw: f32) -> Option<Rewards> {
        let reaches = |alpha| target_verdict(&self.pos, self.player, alpha, bounds);
        if margin > 0.0 {
            return self.margin_result(reaches, margin, draw);
        }
        // Both questions in one pass over the cells (the draw's answer unused after a win).
        let [wins, draws] =
            target_verdicts(&self.pos, self.player, [DRAW_SCORE + 1, DRAW_SCORE], bounds);
        if wins == Some(true) {
            return Some(Rewards::win(self.player));
        }
        match (wins, draws) {
            (_, Some(false)) => Some(Rewards::win(1 - self.player)),
            (Some(false), Some(true)) => self.outcome_with_reward(draw),
            _ => None,
        }
    }

    /// The win-draw-loss result with a margin `m` (and a draw worth `draw`), where the
    /// verdicts `reaches` decide it: the two scores around the player's own decide each level.
    fn margin_result(
        &self,
        reaches: impl Fn(i16) -> Option<bool>,
        m: f32,
        draw: f32,
    ) -> Option<Rewards> {
        let wins = reaches(DRAW_SCORE + 1);
        let reward = if wins == Some(true) {
            if reaches(DRAW_SCORE + 2)? {
                1.0
            } else {
                1.0 - m
            }
        } else if reaches(DRAW_SCORE)? {
            // At least a draw: exactly one where the win is decided lost.
            (wins == Some(false)).then_some(draw)?
        } else if reaches(DRAW_SCORE - 1)? {
            m
        } else {
            0.0
        };
        self.outcome_with_reward(reward)
    }

    /// The score game's result: the final score, or the exact score the static bounds fix.
    fn score_result(&self, scale: f32) -> Option<Rewards> {
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
    fn outcome_with_reward(&self, reward: f32) -> Option<Rewards> {
        let other = 1.0 - reward;
        let (red, blue) = if self.player == RED {
            (reward, other)
        } else {
            (other, reward)
        };
        Rewards::from_rewards(red, blue).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::start;
    use super::*;
    use crate::board::cells_of;
    use crate::rules::BLUE;
    use crate::search::{greedy_move, lottery_move, target_distance, uniform_move};
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

    #[test]
    fn the_score_reward_grows_with_the_score_and_sums_to_one() {
        let mut rng = Pcg64Mcg::seed_from_u64(3);
        let mut seen = Vec::new();
        for _ in 0..200 {
            let mut p = start();
            while !p.is_over() {
                p.play(lottery_move(&p, &mut rng));
            }
            let red = AlphaGame::new(p, RED, 76).with_reward(Reward::Score { scale: 10.0 });
            let blue = AlphaGame::new(p, BLUE, 76).with_reward(Reward::Score { scale: 10.0 });
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
                    76.. => Rewards::win(player),
                    75 => Rewards::DRAW,
                    _ => Rewards::win(1 - player),
                };
                let game = AlphaGame::new(p, player, 90)
                    .with_static_verdict(31)
                    .with_reward(Reward::WDL);
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
                    .with_reward(Reward::Wdl { margin: m, draw: d });
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
                    .with_reward(Reward::Score { scale: 20.0 })
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
}
