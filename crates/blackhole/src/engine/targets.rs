//! The targets: which scores to search for, one search per target (or Ansell's drifting
//! target), and the move and the next estimate taken from their results; and the swindle, a
//! search for one point more than the solver proved.

use std::time::{Duration, Instant};

use rave_mcts::{Budget, Game, Mcts, Proof};

use super::{Decision, Drift, EventHorizon, Objective, SCORE_KEY};
use crate::rules::{Move, Position, reasonable_moves};
use crate::search::{AlphaGame, LotteryPlayout, stone_for, target_verdict};
use crate::solver::static_score_bounds;

impl EventHorizon {
    /// The targets to search this move: by the setting, and (where the static verdict runs)
    /// none above the best score the static bounds still allow, since a target they already
    /// lose gives the search nothing to do.
    pub(super) fn targets_for(&self, pos: &Position) -> Vec<i16> {
        let alphas: Vec<i16> = match self.config.objective {
            Objective::WinOnly => vec![76],
            Objective::Adaptive { step: s, floor, .. } => {
                let floor = floor.clamp(1, 150);
                let mut v: Vec<i16> = [self.center - s, self.center, self.center + s]
                    .into_iter()
                    .map(|a| a.clamp(floor, 150))
                    .collect();
                v.dedup();
                v
            }
            Objective::Single { .. } | Objective::Drift(_) => vec![self.center],
            // The score game has no target; one tree, kept under this key.
            Objective::Score { .. } | Objective::Wdl { .. } => return vec![SCORE_KEY],
        };
        let best = self.best_possible(pos);
        let mut v: Vec<i16> = alphas.into_iter().map(|a| a.min(best)).collect();
        v.dedup();
        v
    }

    /// The best score the mover can still reach by the static bounds (where they run; else
    /// 150).
    pub(super) fn best_possible(&self, pos: &Position) -> i16 {
        if !self.by_verdict(pos) {
            return 150;
        }
        let (lo, hi) = static_score_bounds(pos);
        if pos.mover() == crate::rules::RED {
            hi
        } else {
            150 - lo
        }
    }

    /// Whether targets are decided by the static verdict here (else by the dead-cell
    /// declaration alone), the way the searches decide them.
    pub(super) fn by_verdict(&self, pos: &Position) -> bool {
        pos.empty_count() <= self.config.tree.static_empty
    }

    /// The static verdict on a target of the mover of `pos`, in `pos` and in the positions
    /// after it (`by_verdict` as at `pos`).
    fn verdict_for(&self, pos: &Position) -> impl Fn(&Position, i16) -> Option<bool> + use<> {
        let (me, by_verdict) = (pos.mover(), self.by_verdict(pos));
        move |p: &Position, alpha: i16| target_verdict(p, me, alpha, by_verdict)
    }

    /// One search per target, each within `per_target`; targets the verdict already decides
    /// take no search. Only the trees of these targets are kept.
    pub(super) fn search_targets(
        &mut self,
        pos: &Position,
        history: &[Move],
        alphas: &[i16],
        per_target: Budget,
    ) -> Vec<TargetSearch> {
        self.trees.retain(|(a, _, _)| alphas.contains(a));
        alphas
            .iter()
            .map(|&alpha| self.evaluate_target(pos, history, alpha, per_target))
            .collect()
    }

    /// The searches of [`EventHorizon::decide`] alone, each with `simulations` simulations:
    /// no solver, no time, so that a seeded player searches the same way every time (for
    /// speed measurements, `blackhole search-bench`). With the drifting target, its current
    /// target is searched once, without drifting. `None` if the game is over.
    pub fn search_only(&mut self, pos: &Position, simulations: u64) -> Option<Decision> {
        self.simulations = Some(0);
        let mut moves = Vec::new();
        reasonable_moves(pos, &mut moves);
        let first = *moves.first()?;
        let alphas = self.targets_for(pos);
        let results = self.search_targets(pos, &[], &alphas, Budget::simulations(simulations));
        let mv = self.choose_and_recenter(&results).unwrap_or(first);
        Some(self.searched(mv, &results, None))
    }

    /// A target's verdict when the static bounds (or the dead cells) decide it, else a
    /// search within `budget`.
    pub(super) fn evaluate_target(
        &mut self,
        pos: &Position,
        history: &[Move],
        alpha: i16,
        budget: Budget,
    ) -> TargetSearch {
        if self.config.objective.is_score_game() {
            return match self.fixed_score_reward(pos) {
                Some(reward) => {
                    TargetSearch::decided(alpha, reward, self.keep_fixed_reward(pos, reward))
                }
                None => self.search_target(pos, history, alpha, budget),
            };
        }
        let verdict = self.verdict_for(pos);
        match verdict(pos, alpha) {
            Some(true) => TargetSearch::decided(alpha, 1.0, keep_win(pos, alpha, verdict)),
            Some(false) => TargetSearch::decided(alpha, 0.0, None),
            None => self.search_target(pos, history, alpha, budget),
        }
    }

    /// The score game's reward for the mover where the static bounds already fix it.
    fn fixed_score_reward(&self, pos: &Position) -> Option<f64> {
        let game = AlphaGame::new(*pos, pos.mover(), 76);
        let game = self
            .scored(game)
            .with_static_verdict(self.config.tree.static_empty);
        game.result().map(|o| f64::from(o.reward(pos.mover())))
    }

    /// A move that keeps the score game's reward where the static bounds fix it: in the
    /// win-draw-loss game a move after which the verdict still gives the win (76) or the draw
    /// (75) it gave before, where one exists; else the move the static bounds judge best
    /// (which keeps an exact score they fix, not always a win they decide).
    fn keep_fixed_reward(&self, pos: &Position, reward: f64) -> Option<Move> {
        if let Objective::Wdl { draw, .. } = self.config.objective
            && reward >= f64::from(draw)
        {
            let verdict = self.verdict_for(pos);
            // Above a draw's reward is a win (by one point at least).
            let kept = if reward > f64::from(draw) { 76 } else { 75 };
            if let Some(mv) = keep_win(pos, kept, verdict) {
                return Some(mv);
            }
        }
        keep_score(pos)
    }

    /// `game` with the score game's reward: win-draw-loss or the score.
    fn scored(&self, game: AlphaGame) -> AlphaGame {
        game.with_reward(self.config.objective.reward())
    }

    /// Ansell's target selection ([`Objective::Drift`]): the searches of the targets visited
    /// (the last result of each) and the move of the target finally searched.
    pub(super) fn search_drifting(
        &mut self,
        pos: &Position,
        history: &[Move],
        budget: Duration,
        drift: Drift,
    ) -> (Vec<TargetSearch>, Option<Move>) {
        const BATCH: u64 = 256;
        const KEPT: i16 = 4;
        let start = Instant::now();
        let drift_end = start + budget.mul_f64(drift.share);
        let ceiling = self.best_possible(pos);
        let floor = drift.floor.clamp(1, ceiling.max(1));
        let mut alpha = self.center.clamp(floor, ceiling.max(floor));
        self.trees.retain(|(a, _, _)| (a - alpha).abs() <= KEPT);
        let mut results: Vec<TargetSearch> = Vec::new();
        loop {
            let now = Instant::now();
            if now >= drift_end {
                break;
            }
            let b = Budget::simulations(BATCH).with_time(drift_end - now);
            let r = self.evaluate_target(pos, history, alpha, b);
            let (reach, certain) = (r.reach, r.certain);
            record(&mut results, r);
            let next = if reach >= drift.gamma_up && alpha < ceiling {
                alpha + 1
            } else if reach <= drift.gamma_down && alpha > floor {
                alpha - 1
            } else {
                alpha
            };
            // A certain target next to a certain one (or at the end of the range): the
            // boundary between the targets won and lost is found, more batches add nothing.
            let next_certain = results.iter().any(|s| s.alpha == next && s.certain);
            if certain && (next == alpha || next_certain) {
                break;
            }
            alpha = next;
        }
        let gamma = drift.gamma;
        let chosen = results
            .iter()
            .filter(|r| r.reach >= gamma)
            .map(|r| r.alpha)
            .max()
            .or_else(|| results.iter().map(|r| r.alpha).min())
            .unwrap_or(alpha);
        let left = (start + budget).saturating_duration_since(Instant::now());
        let r = self.evaluate_target(pos, history, chosen, Budget::time(left));
        let mv = r
            .best
            .or_else(|| results.iter().find(|s| s.alpha == chosen)?.best);
        record(&mut results, r);
        self.center = chosen;
        (results, mv)
    }

    /// One search for `alpha` within `budget`, in the tree kept for it (or a new one).
    pub(super) fn search_target(
        &mut self,
        pos: &Position,
        history: &[Move],
        alpha: i16,
        budget: Budget,
    ) -> TargetSearch {
        let b = match budget.time {
            Some(t) => budget.with_time(t.max(Duration::from_millis(1))),
            None => budget,
        }
        .with_nodes(self.config.search.max_nodes);
        let k = self.tree_for(pos, history, alpha);
        let tree = &mut self.trees[k].2;
        match tree.search(&b, &mut self.rng) {
            Ok(r) => {
                self.count_simulations(r.simulations);
                TargetSearch {
                    alpha,
                    // A proven root's value is its proof, not the mean of its simulations.
                    reach: match r.proven {
                        Some(Proof::Win) => 1.0,
                        Some(Proof::Loss) => 0.0,
                        Some(Proof::Draw) => 0.5,
                        None => r.value,
                    },
                    simulations: r.simulations,
                    best: Some(played_move(pos, &r.best_move, &r.principal_variation)),
                    certain: r.proven.is_some(),
                }
            }
            Err(_) => {
                // The game is over for the search (no move) or the node budget cannot hold
                // the root: start afresh next time.
                tree.clear_tree();
                TargetSearch::decided(alpha, 0.0, None)
            }
        }
    }

    /// The index in `trees` of the tree kept for `alpha` (a new one if none), brought to `pos`:
    /// it follows the moves played since it last searched (tree reuse), or starts afresh.
    pub(super) fn tree_for(&mut self, pos: &Position, history: &[Move], alpha: i16) -> usize {
        // The score game has no target; its playouts see the win threshold as one.
        let game_alpha = if alpha == SCORE_KEY { 76 } else { alpha };
        let (t, playout) = (self.config.tree, self.config.playout);
        let mut game = AlphaGame::new(*pos, pos.mover(), game_alpha)
            .with_width(t.width)
            .with_opening_cap(t.opening.plies, t.opening.cap)
            .with_capped_playouts(playout.capped)
            .with_opening_ramp(t.opening.ramp)
            .with_amaf_by_cell(t.amaf_by_cell)
            .with_grouping(t.grouped)
            .with_static_verdict(t.static_empty)
            .with_lazy_playout_bounds(playout.lazy_bounds)
            .with_target_pruning(t.target_pruning);
        // Only the score game's own tree: the swindle's targets stay "one point more".
        if self.config.objective.is_score_game() && alpha == SCORE_KEY {
            game = self.scored(game);
        }
        let k = match self.trees.iter().position(|(a, _, _)| *a == alpha) {
            Some(k) => k,
            None => {
                let playout = LotteryPlayout {
                    policy: playout.policy,
                };
                let tree =
                    Mcts::with_policies(game, self.mcts_config.clone(), playout, self.config.prior);
                self.trees.push((alpha, history.len(), tree));
                self.trees.len() - 1
            }
        };
        let (_, seen, tree) = &mut self.trees[k];
        let grouped = t.grouped;
        // The moves since the tree's last search, followed with one compaction of the tree.
        let followed = *seen <= history.len() && {
            let mut moves = Vec::with_capacity(2 * (history.len() - *seen));
            for &mv in &history[*seen..] {
                if grouped {
                    moves.push(AlphaGame::place(mv.cell));
                }
                moves.push(mv);
            }
            tree.advance_all(&moves).is_ok()
        };
        if !followed || tree.game().pos != *pos {
            tree.set_position(game);
        }
        *seen = history.len();
        k
    }

    /// The move of the most optimistic target reached with probability at least gamma (else
    /// of the least target searched), and the running estimate moved for the next decision.
    pub(super) fn choose_and_recenter(&mut self, results: &[TargetSearch]) -> Option<Move> {
        // A mode of one target plays its move whatever the probability of reaching it.
        let gamma = self.config.objective.gamma().unwrap_or(0.0);
        let chosen = results
            .iter()
            .filter(|r| r.best.is_some() && r.reach >= gamma)
            .max_by_key(|r| r.alpha)
            .or_else(|| {
                results
                    .iter()
                    .filter(|r| r.best.is_some())
                    .min_by_key(|r| r.alpha)
            })?;
        let (alpha, mv) = (chosen.alpha, chosen.best?);
        let best_reached = results
            .iter()
            .filter(|r| r.reach >= gamma)
            .map(|r| r.alpha)
            .max();
        match self.config.objective {
            Objective::Adaptive { step: s, .. } => {
                self.center = best_reached.unwrap_or(alpha - s).clamp(1 + s, 150 - s);
            }
            Objective::Single { step: s, .. } => {
                let next = if best_reached.is_some() {
                    alpha + s
                } else {
                    alpha - s
                };
                self.center = next.clamp(1, 150);
            }
            // The drifting target recentres itself (`search_drifting`).
            Objective::WinOnly
            | Objective::Drift(_)
            | Objective::Score { .. }
            | Objective::Wdl { .. } => {}
        }
        Some(mv)
    }
}

/// How many of the search's moves the swindle has the solver check.
const SWINDLE_CHECKS: usize = 4;

impl EventHorizon {
    /// In the win question's range, where the mover does not win: if the solver proves within
    /// three quarters of the share that the mover holds the draw, the swindle's move for it
    /// (the draw is then the exact score).
    pub(super) fn swindle_for_the_draw(
        &mut self,
        pos: &Position,
        history: &[Move],
        start: Instant,
        share: Duration,
    ) -> Option<Move> {
        let draw = crate::rules::DRAW_SCORE;
        let (holds, mv) =
            self.solver
                .mover_reaches(pos, draw, Some(start + share.mul_f64(0.75)))?;
        let mv = mv.filter(|_| holds)?;
        self.last_solved = Some((pos.moves_played(), draw));
        Some(self.swindle(pos, history, start + share, draw, mv))
    }

    /// Where the solver found Red's exact score `red_value` (or, from the win question, the
    /// least score that is a win for the mover) and the move `solved` that keeps it: a search
    /// for one point more (for the mover) within half the time to `deadline`, and the first
    /// of its most visited moves that the solver proves keeps `red_value` (checked until
    /// `deadline`). Every such move is as good as `solved` against perfect play; the search's
    /// favourite is the one its playouts, which model the opponent, expect to go wrong most
    /// often. `solved` when no checked move keeps the value in time.
    pub(super) fn swindle(
        &mut self,
        pos: &Position,
        history: &[Move],
        deadline: Instant,
        red_value: i16,
        solved: Move,
    ) -> Move {
        let red = pos.mover() == crate::rules::RED;
        let target = if red { red_value } else { 150 - red_value } + 1;
        let left = deadline.saturating_duration_since(Instant::now());
        if self.config.tree.grouped || target > 150 || left < Duration::from_millis(2) {
            return solved;
        }
        let k = self.tree_for(pos, history, target);
        let b = Budget::time(left / 2).with_nodes(self.config.search.max_nodes);
        // Against perfect play an exact value's target is lost, and the search may prove it;
        // its visits still rank the moves by how long the proof took.
        let Ok(result) = self.trees[k].2.search(&b, &mut self.rng) else {
            return solved;
        };
        self.count_simulations(result.simulations);
        for c in result.children.iter().take(SWINDLE_CHECKS) {
            if c.mv == solved {
                return solved;
            }
            match self.solver.move_keeps(pos, c.mv, red_value, Some(deadline)) {
                Some(true) => {
                    if self.config.verbose {
                        eprintln!(
                            "swindle: {} instead of {solved} (target {target}, reach {:.2})",
                            c.mv, c.value
                        );
                    }
                    return c.mv;
                }
                Some(false) => {}
                None => break,
            }
        }
        solved
    }
}

/// The move to play from a search's best move: itself, or in a grouped tree (where it is a
/// place) the place with the most visited stone below it (the principal variation's second
/// move), else the greedy playout's stone for the cell.
fn played_move(pos: &Position, best: &Move, principal_variation: &[Move]) -> Move {
    if best.value != 0 {
        return *best;
    }
    match principal_variation.get(1) {
        Some(mv) if mv.cell == best.cell && mv.value != 0 => *mv,
        _ => Move::new(best.cell, stone_for(pos, best.cell)),
    }
}

/// Keeps the latest result per target, summing the simulations of its searches.
fn record(results: &mut Vec<TargetSearch>, r: TargetSearch) {
    match results.iter_mut().find(|s| s.alpha == r.alpha) {
        Some(s) => {
            let simulations = s.simulations + r.simulations;
            *s = r;
            s.simulations = simulations;
        }
        None => results.push(r),
    }
}

/// What one target's search (or its static verdict) found.
pub(super) struct TargetSearch {
    pub(super) alpha: i16,
    /// The probability of reaching `alpha`.
    pub(super) reach: f64,
    pub(super) simulations: u64,
    /// The search's move (none when the target is lost before any search, or the search
    /// failed).
    pub(super) best: Option<Move>,
    /// Whether `reach` is certain (a verdict, or a root the search proved), not an estimate.
    pub(super) certain: bool,
}

impl TargetSearch {
    /// A target decided without a search.
    fn decided(alpha: i16, reach: f64, best: Option<Move>) -> Self {
        TargetSearch {
            alpha,
            reach,
            simulations: 0,
            best,
            certain: true,
        }
    }
}

/// The reasonable move whose position the static bounds judge best for the mover (Red: the
/// highest lower bound of Red's score, Blue: the lowest upper bound): where they fix the
/// score, a move that keeps it.
fn keep_score(pos: &Position) -> Option<Move> {
    let mut moves = Vec::new();
    reasonable_moves(pos, &mut moves);
    let red = pos.mover() == crate::rules::RED;
    moves.into_iter().max_by_key(|&mv| {
        let mut p = *pos;
        p.play(mv);
        let (lo, hi) = static_score_bounds(&p);
        if red { lo } else { -hi }
    })
}

/// A move after which `verdict` still gives the win for `alpha`, if one exists.
fn keep_win(
    pos: &Position,
    alpha: i16,
    verdict: impl Fn(&Position, i16) -> Option<bool>,
) -> Option<Move> {
    let mut moves = Vec::new();
    reasonable_moves(pos, &mut moves);
    moves.into_iter().find(|&mv| {
        let mut p = *pos;
        p.play(mv);
        verdict(&p, alpha) == Some(true)
    })
}
