//! The EventHorizon-style player: by default one UCT-RAVE search a move for a win, a draw or a
//! loss, or as the paper does one search per target score `alpha`, the move taken from the
//! most optimistic target reached with probability at least `gamma`; the exact solver in the
//! end-game; plus the random player. Both are the harness's [`Agent`]s of [`BlackholeGame`], so
//! the CodeCup protocol, the referee and the match runner play them alike. Its settings are [`EngineConfig`], in parts (`config`);
//! the searches and the swindle are in `targets`.

mod config;
mod targets;

use std::time::{Duration, Instant};

use game_harness::{Agent, Clock, MatchGame};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;
use rave_mcts::{Budget, Config, Mcts};

use crate::error::BlackholeError;
use crate::referee::BlackholeGame;
use crate::rules::{Move, Position, reasonable_moves};
use crate::search::{AlphaGame, GreedyPrior, LotteryPlayout, lottery_move, uniform_move};
use crate::solver::Solver;
pub use config::{
    Drift, EngineConfig, Objective, OpeningCap, PlayoutConfig, SearchConfig, SolverConfig,
    TimeConfig, TreeConfig,
};
use targets::TargetSearch;

/// The thinking time a player assumes for the rest of the game when the clock sets none: the
/// CodeCup's 30 s a game.
pub const GAME_TIME: Duration = Duration::from_secs(30);

/// The time left to a player under `clock`: the time remaining, else the time per move, else
/// [`GAME_TIME`].
#[must_use]
pub fn time_left(clock: &Clock) -> Duration {
    clock.remaining.or(clock.per_move).unwrap_or(GAME_TIME)
}

/// The uniformly random player.
pub struct RandomBot {
    rng: Pcg64Mcg,
}

impl RandomBot {
    /// A random player with this seed.
    pub fn new(seed: u64) -> Self {
        RandomBot {
            rng: Pcg64Mcg::seed_from_u64(seed),
        }
    }
}

impl Agent<BlackholeGame> for RandomBot {
    fn name(&self) -> String {
        "random".to_string()
    }
    fn reset(&mut self, _game: &BlackholeGame) {}
    fn observe(&mut self, _game: &BlackholeGame, _mv: Move) {}
    fn choose(&mut self, game: &BlackholeGame, _clock: &Clock) -> Option<Move> {
        (game.verdict().is_none()).then(|| uniform_move(game.position(), &mut self.rng))
    }
    fn reseed(&mut self, seed: u64) {
        self.rng = Pcg64Mcg::seed_from_u64(seed);
    }
}

type Tree = Mcts<AlphaGame, LotteryPlayout, GreedyPrior>;

/// The key of the score game's tree among the targets' (no target is 0).
const SCORE_KEY: i16 = 0;

/// The player: EventHorizon's method on `rave-mcts`.
pub struct EventHorizon {
    config: EngineConfig,
    mcts_config: Config,
    rng: Pcg64Mcg,
    /// Searches kept for tree reuse: target, moves the tree has seen, the search.
    trees: Vec<(i16, usize, Tree)>,
    /// The running estimate of our reachable score.
    center: i16,
    solver: Solver,
    /// The ply and Red's exact score of the last solve.
    last_solved: Option<(usize, i16)>,
    /// The most time left seen at a decision (the game's thinking time).
    game_time: Duration,
    /// The simulations of the tree searches of the last decision (the targets' and the
    /// swindle's); `None` before the first.
    simulations: Option<u64>,
}

/// What one move decision found (for logs and tests).
#[derive(Clone, Debug, PartialEq)]
pub struct Decision {
    /// The move.
    pub mv: Move,
    /// `(alpha, probability of reaching it, simulations)` per target searched.
    pub targets: Vec<(i16, f64, u64)>,
    /// The exact final score of the mover, if the solver finished.
    pub solved: Option<i16>,
    /// Nodes of the largest search tree kept after the decision (0 without a search); a tree
    /// at `max_nodes` no longer grows.
    pub tree_nodes: usize,
    /// The solver's answer to "does the mover win?", if it was asked and answered (the exact
    /// solver's range answers it too).
    pub wins: Option<bool>,
}

impl EventHorizon {
    /// A player with these settings and seed.
    ///
    /// # Errors
    /// [`BlackholeError::BadSetting`] or [`BlackholeError::Search`] naming the first setting
    /// out of its range.
    pub fn new(config: EngineConfig, seed: u64) -> Result<Self, BlackholeError> {
        let mcts_config = config.search_config()?;
        Ok(EventHorizon {
            config,
            mcts_config,
            rng: Pcg64Mcg::seed_from_u64(seed),
            trees: Vec::new(),
            center: 76,
            solver: Solver::new(),
            last_solved: None,
            game_time: Duration::ZERO,
            simulations: None,
        })
    }

    /// The time to spend on this move: an even share of what is left over the moves still to
    /// come before the solver takes over. With `end_reserve` at 0, two shares are kept for the
    /// solver's moves; otherwise that fraction of the game's time (the time left at our
    /// first move) is kept, and the rest shared, as long as at least two shares are left.
    fn share(&self, pos: &Position, time_left: Duration) -> Duration {
        let empty = pos.empty_count();
        let solver_from = self.config.solver.exact_empty.max(2);
        // Our moves until the solver's range (we move on every other ply).
        let plies = empty.saturating_sub(solver_from);
        let ours = plies.div_ceil(2).max(1);
        let even = time_left / (ours + 2);
        let end_reserve = self.config.time.end_reserve;
        if plies == 0 || end_reserve <= 0.0 {
            return even;
        }
        let reserve = self.game_time.mul_f64(end_reserve);
        (time_left.saturating_sub(reserve) / ours).max(even)
    }

    /// Decides a move and reports how: the exact solver in its range, else the "do we win?"
    /// solver in its range, else one search per target.
    pub fn decide(&mut self, pos: &Position, history: &[Move], time_left: Duration) -> Decision {
        let start = Instant::now();
        self.simulations = Some(0);
        self.game_time = self.game_time.max(time_left);
        let share = self.share(pos, time_left);
        let mut moves = Vec::new();
        reasonable_moves(pos, &mut moves);
        if moves.len() == 1 {
            return Decision::without_search(moves[0], None, None);
        }
        let short = time_left < Duration::from_millis(20);
        if let Some(d) = self.solve_exactly(pos, history, start, share, time_left, short) {
            return d;
        }
        let mut wins = None;
        if !short && let Some((won, mv)) = self.ask_mover_wins(pos, start, share, time_left) {
            wins = Some(won);
            if let (true, Some(mv)) = (won, mv) {
                let mv = if self.config.solver.swindle {
                    self.swindle(pos, history, start + share, win_for_red(pos), mv)
                } else {
                    mv
                };
                return Decision::without_search(mv, None, wins);
            }
            if !won
                && self.config.solver.swindle
                && let Some(mv) = self.swindle_for_the_draw(pos, history, start, share)
            {
                return Decision::without_search(mv, Some(crate::rules::DRAW_SCORE), wins);
            }
        }
        if short {
            // No time to search: a lottery move.
            return Decision::without_search(lottery_move(pos, &mut self.rng), None, wins);
        }
        let budget = search_budget(
            share,
            time_left,
            start.elapsed(),
            self.config.time.min_share,
        );
        let (results, mv) = if let Objective::Drift(drift) = self.config.objective {
            let (results, mv) = self.search_drifting(pos, history, budget, drift);
            (results, mv.unwrap_or(moves[0]))
        } else {
            let alphas = self.targets_for(pos);
            let per_target = Budget::time(budget / alphas.len() as u32);
            let results = self.search_targets(pos, history, &alphas, per_target);
            let mv = self.choose_and_recenter(&results).unwrap_or(moves[0]);
            (results, mv)
        };
        self.searched(mv, &results, wins)
    }

    /// The decision for `mv`, found by the target searches `results`.
    fn searched(&self, mv: Move, results: &[TargetSearch], wins: Option<bool>) -> Decision {
        Decision {
            mv,
            targets: results
                .iter()
                .map(|r| (r.alpha, r.reach, r.simulations))
                .collect(),
            tree_nodes: self.largest_tree(),
            solved: None,
            wins,
        }
    }

    /// The simulations of the last decision's tree searches ([`EventHorizon::decide`] or
    /// [`EventHorizon::search_only`]): its targets' and, where the solver's move was checked
    /// against a search for one point more, that search's; 0 for a decision without a
    /// search, `None` before the first decision.
    #[must_use]
    pub fn last_simulations(&self) -> Option<u64> {
        self.simulations
    }

    /// Counts `n` simulations of a tree search of the current decision.
    fn count_simulations(&mut self, n: u64) {
        *self.simulations.get_or_insert(0) += n;
    }

    /// Nodes of the largest search tree kept.
    fn largest_tree(&self) -> usize {
        self.trees
            .iter()
            .map(|t| t.2.tree_nodes())
            .max()
            .unwrap_or(0)
    }

    /// In the exact solver's range: the solved move, or when the solve is cut short a proven
    /// win (with `draw_first`, a move proven to keep the mover's bound), if the solver finds
    /// one in time. It may use `solve_share` of what is left (later moves are then free),
    /// half where the last solve found the value (the table answers it at once).
    fn solve_exactly(
        &mut self,
        pos: &Position,
        history: &[Move],
        start: Instant,
        share: Duration,
        time_left: Duration,
        short: bool,
    ) -> Option<Decision> {
        let e = pos.empty_count();
        let solver = self.config.solver;
        if solver.exact_empty == 0 || e > solver.exact_empty {
            return None;
        }
        let red = pos.mover() == crate::rules::RED;
        // The first window: the value our last solve found (it stays if the opponent played
        // well), else the mover's win or draw.
        let last = self
            .last_solved
            .filter(|&(at, _)| at < pos.moves_played())
            .map(|(_, v)| v);
        let first = last.unwrap_or_else(|| first_window(pos, solver.draw_first));
        let limit = solve_limit(time_left, short || last.is_some(), solver.solve_share);
        let b = self.solver.bounds(pos, Some(start + limit), Some(first))?;
        let mv = b.best?;
        let mine = |red_score: i16| if red { red_score } else { 150 - red_score };
        let exact = b.lo == b.hi;
        // The bound the move is proven to keep: Red's lower one, Blue's upper one.
        let proven = if red { b.lo } else { b.hi };
        if exact {
            self.last_solved = Some((pos.moves_played(), proven));
        }
        // Whether the mover wins, where the solve says: exact, or a proven win.
        let won = mine(proven) > crate::rules::DRAW_SCORE;
        let wins = (exact || won).then_some(won);
        let swindle = solver.swindle && !short;
        let mv = if exact && swindle {
            self.swindle(pos, history, start + share, proven, mv)
        } else if solver.draw_first && swindle {
            // Cut short: the search's time goes to the search for one point more.
            let budget = search_budget(
                share,
                time_left,
                start.elapsed(),
                self.config.time.min_share,
            );
            self.swindle(pos, history, Instant::now() + budget, proven, mv)
        } else if exact || won || solver.draw_first {
            mv
        } else {
            return None;
        };
        Some(Decision::without_search(
            mv,
            exact.then(|| mine(proven)),
            wins,
        ))
    }

    /// Above the exact solver's range and within `win_empty`: the solver's answer to
    /// "does the mover win?" (and a winning move), if it answers in time. Only half the share,
    /// so that the search keeps the other half when the question is not answered.
    fn ask_mover_wins(
        &mut self,
        pos: &Position,
        start: Instant,
        share: Duration,
        time_left: Duration,
    ) -> Option<(bool, Option<Move>)> {
        let e = pos.empty_count();
        if e <= self.config.solver.exact_empty || e > self.config.solver.win_empty {
            return None;
        }
        let limit = (share / 2).min(time_left / 4);
        self.solver.mover_wins(pos, Some(start + limit))
    }
}

/// The time an exact solve may use: `solve_share` of what is left, or half of it where the
/// last solve already found the value or time is short.
fn solve_limit(time_left: Duration, half: bool, solve_share: f64) -> Duration {
    if half {
        time_left / 2
    } else {
        time_left.mul_f64(solve_share)
    }
}

/// The first null window ("does Red reach it?") of an exact solve with nothing solved before:
/// with `draw_first` the mover's draw (Red reaching 75, or Blue holding Red to 75), else its
/// win (Red reaching 76, or Blue holding Red to 74).
fn first_window(pos: &Position, draw_first: bool) -> i16 {
    let red = pos.mover() == crate::rules::RED;
    if red == draw_first {
        crate::rules::DRAW_SCORE
    } else {
        crate::rules::DRAW_SCORE + 1
    }
}

/// The least score of Red's (as the swindle takes a value) that is a win for the mover of
/// `pos`: 76 for Red, and for Blue Red held to 74.
fn win_for_red(pos: &Position) -> i16 {
    if pos.mover() == crate::rules::RED {
        crate::rules::DRAW_SCORE + 1
    } else {
        crate::rules::DRAW_SCORE - 1
    }
}

/// The search's time: the share less what the solvers spent, but at least `min_share` of what
/// is left (a solver that gave up may have used the whole share), and at least 1 ms.
fn search_budget(
    share: Duration,
    time_left: Duration,
    spent: Duration,
    min_share: f64,
) -> Duration {
    share
        .saturating_sub(spent)
        .max(time_left.saturating_sub(spent).mul_f64(min_share))
        .max(Duration::from_millis(1))
}

impl Decision {
    /// A decision made without a target search.
    fn without_search(mv: Move, solved: Option<i16>, wins: Option<bool>) -> Self {
        Decision {
            mv,
            targets: Vec::new(),
            tree_nodes: 0,
            solved,
            wins,
        }
    }
}

impl Agent<BlackholeGame> for EventHorizon {
    fn name(&self) -> String {
        "eventhorizon".to_string()
    }
    fn reset(&mut self, _game: &BlackholeGame) {}
    fn observe(&mut self, _game: &BlackholeGame, _mv: Move) {}

    /// [`EventHorizon::last_simulations`]: the simulations of the last decision.
    fn last_simulations(&self) -> Option<u64> {
        EventHorizon::last_simulations(self)
    }

    /// The move of [`EventHorizon::decide`] with the time the clock leaves ([`time_left`]).
    fn choose(&mut self, game: &BlackholeGame, clock: &Clock) -> Option<Move> {
        if game.verdict().is_some() {
            return None;
        }
        let (pos, left) = (game.position(), time_left(clock));
        let start = Instant::now();
        let d = self.decide(pos, game.moves(), left);
        if self.config.verbose {
            let log = decision_log(pos.moves_played() + 1, &d, start.elapsed(), left);
            eprintln!("{log}");
        }
        Some(d.mv)
    }
}

/// The debug log line of one decision: the move, the simulations and their rate, the time
/// used and left, each target searched (`alpha:probability/simulations`) and what the solver
/// found.
fn decision_log(number: usize, d: &Decision, used: Duration, time_left: Duration) -> String {
    let targets: Vec<String> = d
        .targets
        .iter()
        .map(|(a, p, n)| format!("{a}:{p:.2}/{n}"))
        .collect();
    let simulations: u64 = d.targets.iter().map(|t| t.2).sum();
    let rate = simulations as f64 / used.as_secs_f64().max(1e-9);
    let solved = d.solved.map_or("-".to_string(), |s| s.to_string());
    let wins = match d.wins {
        Some(true) => "yes",
        Some(false) => "no",
        None => "-",
    };
    format!(
        "move {number} {}: {simulations} simulations in {:.3} s ({rate:.0}/s), {:.3} s left; \
         targets [{}]; largest tree {} nodes; solved score {solved}; mover wins {wins}",
        d.mv,
        used.as_secs_f64(),
        time_left.as_secs_f64(),
        targets.join(" "),
        d.tree_nodes,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Cell;
    use crate::rules::{RED, declared};
    use crate::search::Reward;
    use crate::solver::static_score_bounds;
    use crate::solver::static_verdict;
    use rave_mcts::Budget;

    #[test]
    fn the_debug_log_counts_simulations_and_their_rate() {
        let d = Decision {
            mv: Move::new(Cell::parse("C3").unwrap(), 7),
            targets: vec![(1, 0.5, 100), (3, 0.25, 300)],
            tree_nodes: 12345,
            solved: None,
            wins: Some(true),
        };
        let line = decision_log(12, &d, Duration::from_millis(100), Duration::from_secs(2));
        for part in [
            "move 12 ",
            "400 simulations in 0.100 s (4000/s)",
            "2.000 s left",
            "targets [1:0.50/100 3:0.25/300]",
            "largest tree 12345 nodes",
            "solved score -",
            "mover wins yes",
        ] {
            assert!(line.contains(part), "{part:?} not in {line:?}");
        }
        assert!(!line.contains("Some") && !line.contains("None"), "{line}");
    }

    fn start() -> Position {
        let blocked = ["A1", "D4", "C2", "H1", "B6"].map(|c| Cell::parse(c).unwrap());
        Position::new(&blocked).unwrap()
    }

    /// The position after lottery moves from [`start`] down to `empty` empty cells.
    fn lottery_ending(seed: u64, empty: u32) -> Position {
        let mut rng = <Pcg64Mcg as SeedableRng>::seed_from_u64(seed);
        let mut p = start();
        while p.empty_count() > empty {
            let mv = lottery_move(&p, &mut rng);
            p.play(mv);
        }
        p
    }

    /// The solver off: the searches alone decide.
    fn no_solver() -> SolverConfig {
        SolverConfig {
            exact_empty: 0,
            win_empty: 0,
            ..SolverConfig::default()
        }
    }

    /// The default with the exact solver from `exact_empty` empty cells, the win question from
    /// `win_empty`, and the swindle on or off.
    fn solving(exact_empty: u32, win_empty: u32, swindle: bool) -> EngineConfig {
        EngineConfig {
            solver: SolverConfig {
                exact_empty,
                win_empty,
                swindle,
                ..SolverConfig::default()
            },
            ..EngineConfig::default()
        }
    }

    #[test]
    fn a_decision_reports_the_simulations_of_its_searches() {
        let mut bot = EventHorizon::new(EngineConfig::default(), 3).unwrap();
        assert_eq!(Agent::<BlackholeGame>::last_simulations(&bot), None);
        let d = bot.decide(&start(), &[], Duration::from_millis(100));
        let searched: u64 = d.targets.iter().map(|t| t.2).sum();
        assert!(searched > 0, "{d:?}");
        assert_eq!(bot.last_simulations(), Some(searched));
        // The agent reports its last choice's searches to the match runner.
        let blocked = ["A1", "D4", "C2", "H1", "B6"].map(|c| Cell::parse(c).unwrap());
        let game = BlackholeGame::new(&blocked).unwrap();
        let clock = Clock {
            per_move: Some(Duration::from_millis(50)),
            ..Clock::unlimited()
        };
        assert!(bot.choose(&game, &clock).is_some());
        let reported = Agent::<BlackholeGame>::last_simulations(&bot);
        assert!(reported.is_some_and(|n| n > 0), "{reported:?}");
        // A move the exact solver settles, without a search: 0.
        let mut solver = EventHorizon::new(solving(18, 19, false), 3).unwrap();
        let d = solver.decide(&lottery_ending(7, 8), &[], Duration::from_secs(2));
        assert!(d.targets.is_empty(), "{d:?}");
        assert_eq!(solver.last_simulations(), Some(0));
    }

    #[test]
    fn a_whole_game_against_itself_is_legal_and_within_time() {
        whole_game_within_time(EngineConfig::default());
    }

    #[test]
    fn a_whole_game_with_drifting_targets_is_legal_and_within_time() {
        whole_game_within_time(EngineConfig {
            objective: Objective::Drift(Drift::default()),
            ..EngineConfig::default()
        });
    }

    #[test]
    fn a_whole_game_for_the_best_score_is_legal_and_within_time() {
        whole_game_within_time(EngineConfig {
            objective: Objective::score(),
            ..EngineConfig::default()
        });
    }

    #[test]
    fn a_whole_game_for_a_win_a_draw_or_a_loss_is_legal_and_within_time() {
        whole_game_within_time(EngineConfig::best());
    }

    #[test]
    fn a_whole_game_of_the_papers_method_is_legal_and_within_time() {
        whole_game_within_time(EngineConfig::event_horizon());
    }

    #[test]
    fn a_whole_game_with_moves_grouped_by_place_is_legal_and_within_time() {
        let mut cfg = EngineConfig::default();
        cfg.tree.grouped = true;
        whole_game_within_time(cfg);
    }

    /// With moves grouped by place, the tree follows a move as its place and then its stone,
    /// and keeps what it searched below them.
    #[test]
    fn a_grouped_tree_keeps_its_search_through_the_moves_played() {
        for grouped in [false, true] {
            let mut cfg = EngineConfig::default();
            cfg.tree.grouped = grouped;
            let mut bot = EventHorizon::new(cfg, 3).unwrap();
            let p = start();
            let k = bot.tree_for(&p, &[], 76);
            let tree = &mut bot.trees[k].2;
            let mut rng = <Pcg64Mcg as SeedableRng>::seed_from_u64(4);
            let r = tree.search(&Budget::simulations(20_000), &mut rng).unwrap();
            // The principal variation: our move and the most searched reply.
            let pv = &r.principal_variation;
            let played: Vec<Move> = if grouped {
                vec![pv[1], pv[3]]
            } else {
                pv[..2].to_vec()
            };
            let mut after = p;
            for &mv in &played {
                after.try_play(mv).unwrap();
            }
            let k = bot.tree_for(&after, &played, 76);
            let tree = &bot.trees[k].2;
            assert_eq!(tree.game().pos, after);
            assert!(
                tree.root_visits() > 0,
                "grouped {grouped}: the tree was dropped"
            );
        }
    }

    fn whole_game_within_time(cfg: EngineConfig) {
        let mut bots = [
            EventHorizon::new(cfg.clone(), 1).unwrap(),
            EventHorizon::new(cfg, 2).unwrap(),
        ];
        let mut p = start();
        let mut history = Vec::new();
        let budget = Duration::from_millis(300);
        let mut used = [Duration::ZERO; 2];
        while !p.is_over() {
            let me = p.mover();
            let t = Instant::now();
            let mv = bots[me]
                .decide(&p, &history, budget.saturating_sub(used[me]))
                .mv;
            used[me] += t.elapsed();
            p.try_play(mv).unwrap();
            history.push(mv);
        }
        assert!(p.red_score().is_some());
        // The budget is 300 ms; a margin for a test slowed by other work on its cores.
        assert!(
            used.iter()
                .all(|u| *u < budget + Duration::from_millis(150)),
            "{used:?}"
        );
    }

    #[test]
    fn the_score_search_keeps_a_score_the_static_bounds_fix() {
        let cfg = EngineConfig {
            objective: Objective::score(),
            solver: no_solver(),
            ..EngineConfig::default()
        };
        let mut checked = 0;
        for seed in 0..300 {
            let p = lottery_ending(seed, 6 + (seed % 6) as u32);
            let (lo, hi) = static_score_bounds(&p);
            if lo != hi {
                continue;
            }
            let mut bot = EventHorizon::new(cfg.clone(), seed).unwrap();
            let d = bot.decide(&p, &[], Duration::from_millis(50));
            let mut q = p;
            q.try_play(d.mv).unwrap();
            assert_eq!(static_score_bounds(&q), (lo, lo), "{p:?} {:?}", d.mv);
            checked += 1;
        }
        assert!(checked > 5, "only {checked} fixed endings");
    }

    /// Where the static bounds decide a win (or a draw and no win) for the mover, the
    /// win-draw-loss search's move keeps it (checked by alpha-beta), as the targets' does.
    #[test]
    fn the_wdl_search_keeps_a_win_or_a_draw_the_static_bounds_decide() {
        for draw_reward in [0.5, 0.6] {
            let cfg = EngineConfig {
                objective: Objective::Wdl {
                    margin: 0.0,
                    draw: draw_reward,
                },
                solver: no_solver(),
                ..EngineConfig::default()
            };
            keeps_a_win_or_a_draw_the_static_bounds_decide(cfg);
        }
    }

    fn keeps_a_win_or_a_draw_the_static_bounds_decide(cfg: EngineConfig) {
        let (mut wins, mut draws) = (0, 0);
        for seed in 0..400 {
            let p = lottery_ending(500 + seed, 9);
            let me = p.mover();
            let kept = match (static_verdict(&p, me, 76), static_verdict(&p, me, 75)) {
                (Some(true), _) => 76,
                (Some(false), Some(true)) => 75,
                _ => continue,
            };
            let mut bot = EventHorizon::new(cfg.clone(), seed).unwrap();
            let d = bot.decide(&p, &[], Duration::from_millis(50));
            let mut q = p;
            q.try_play(d.mv).unwrap();
            let red = crate::solver::alpha_beta(&q, i16::MIN, i16::MAX);
            let mine = if me == RED { red } else { 150 - red };
            assert!(mine >= kept, "{mine} < {kept} after {:?}: {p:?}", d.mv);
            if kept == 76 {
                wins += 1;
            } else {
                draws += 1;
            }
            if wins >= 5 && draws >= 2 {
                return;
            }
        }
        panic!("too few endings decided by the bounds: {wins} wins, {draws} draws, {cfg:?}");
    }

    #[test]
    fn the_drifting_target_moves_towards_the_reachable_score() {
        let drift = EngineConfig {
            objective: Objective::Drift(Drift::default()),
            ..EngineConfig::default()
        };
        // From far below what the empty board offers (every target reached): upwards. The
        // target moves a point a batch, and a test slowed by other work may run only a few
        // batches in the time: the test asks for the direction, not the distance.
        let mut bot = EventHorizon::new(drift.clone(), 4).unwrap();
        bot.center = 20;
        let d = bot.decide(&start(), &[], Duration::from_millis(300));
        assert!(d.targets.iter().any(|t| t.0 > 20), "{:?}", d.targets);
        assert!(bot.center > 20, "{}", bot.center);
        // From far above (no target reached): downwards.
        let mut bot = EventHorizon::new(drift, 4).unwrap();
        bot.center = 130;
        let d = bot.decide(&start(), &[], Duration::from_millis(300));
        assert!(d.targets.iter().any(|t| t.0 < 130), "{:?}", d.targets);
        assert!(bot.center < 130, "{}", bot.center);
    }

    /// The error of a player with `cfg`, as a message.
    fn refusal(cfg: EngineConfig) -> String {
        EventHorizon::new(cfg, 1).err().unwrap().to_string()
    }

    /// The default with `objective`.
    fn with_objective(objective: Objective) -> EngineConfig {
        EngineConfig {
            objective,
            ..EngineConfig::default()
        }
    }

    #[test]
    fn drift_settings_out_of_range_are_refused_with_their_values() {
        let drift = |d: Drift| with_objective(Objective::Drift(d));
        for (cfg, part) in [
            (
                drift(Drift {
                    gamma_up: 0.3,
                    gamma_down: 0.4,
                    ..Drift::default()
                }),
                "gamma down 0.4 is not below gamma up 0.3",
            ),
            (
                drift(Drift {
                    gamma_up: 1.5,
                    ..Drift::default()
                }),
                "gamma up 1.5",
            ),
            (
                drift(Drift {
                    share: 0.0,
                    ..Drift::default()
                }),
                "drift share 0",
            ),
            (
                drift(Drift {
                    gamma: -0.5,
                    ..Drift::default()
                }),
                "gamma -0.5",
            ),
        ] {
            let e = refusal(cfg);
            assert!(e.contains(part), "{e}");
        }
    }

    #[test]
    fn target_settings_out_of_range_are_refused_with_their_values() {
        let e = refusal(with_objective(Objective::Adaptive {
            step: 0,
            gamma: 0.5,
            floor: 1,
        }));
        assert!(e.contains("target step 0"), "{e}");
        let e = refusal(with_objective(Objective::Single {
            step: 4,
            gamma: 1.5,
        }));
        assert!(e.contains("gamma 1.5"), "{e}");
        let e = refusal(with_objective(Objective::Score { scale: -2.0 }));
        assert!(e.contains("score scale -2"), "{e}");
        // A mode's settings are checked only in that mode: every default is valid.
        for objective in [
            Objective::WinOnly,
            Objective::adaptive(),
            Objective::single(),
            Objective::Drift(Drift::default()),
            Objective::score(),
            Objective::default(),
        ] {
            assert!(EventHorizon::new(with_objective(objective), 1).is_ok());
        }
    }

    #[test]
    fn a_wdl_margin_out_of_range_is_refused_with_its_value() {
        for margin in [-0.1, 0.5, f32::NAN] {
            let e = refusal(with_objective(Objective::Wdl { margin, draw: 0.5 }));
            assert!(
                e.contains("margin") && e.contains(&margin.to_string()),
                "{e}"
            );
        }
        let cfg = with_objective(Objective::Wdl {
            margin: 0.25,
            draw: 0.5,
        });
        assert!(EventHorizon::new(cfg, 1).is_ok());
    }

    #[test]
    fn a_draw_reward_out_of_range_is_refused_with_its_value() {
        for (margin, draw) in [
            (0.0, 0.0),
            (0.0, 1.0),
            (0.0, f32::NAN),
            (0.2, 0.15),
            (0.3, 0.75),
        ] {
            let e = refusal(with_objective(Objective::Wdl { margin, draw }));
            assert!(
                e.contains("draw reward") && e.contains(&draw.to_string()),
                "{e}"
            );
        }
        let cfg = with_objective(Objective::Wdl {
            margin: 0.1,
            draw: 0.6,
        });
        assert!(EventHorizon::new(cfg, 1).is_ok());
    }

    #[test]
    fn shares_out_of_range_are_refused_with_their_values() {
        for share in [0.0, 1.0, -0.5, f64::NAN] {
            let mut cfg = EngineConfig::default();
            cfg.solver.solve_share = share;
            let e = refusal(cfg);
            assert!(
                e.contains("solve share") && e.contains(&share.to_string()),
                "{e}"
            );
        }
        for share in [0.0, 0.6] {
            let mut cfg = EngineConfig::default();
            cfg.time.min_share = share;
            let e = refusal(cfg);
            assert!(e.contains(&format!("min share {share}")), "{e}");
        }
        let mut cfg = EngineConfig::default();
        cfg.time.end_reserve = 1.0;
        assert!(refusal(cfg).contains("end reserve 1"));
    }

    #[test]
    fn search_settings_rave_mcts_refuses_are_refused_with_their_values() {
        let mut cfg = EngineConfig::default();
        cfg.search.exploration = -1.0;
        let e = EventHorizon::new(cfg, 1).err().unwrap();
        assert!(matches!(e, BlackholeError::Search(_)), "{e:?}");
        assert!(e.to_string().contains("-1"), "{e}");
        let mut cfg = EngineConfig::default();
        cfg.search.shortlist = Some(rave_mcts::Shortlist {
            size: 9,
            rescan_every: 8,
        });
        assert!(refusal(cfg).contains('9'));
    }

    #[test]
    fn only_the_first_exact_solve_gets_the_solve_share() {
        let left = Duration::from_millis(400);
        assert_eq!(solve_limit(left, false, 0.8), Duration::from_millis(320));
        // A value found before (or little time): half, whatever the share.
        assert_eq!(solve_limit(left, true, 0.8), Duration::from_millis(200));
        assert_eq!(solve_limit(left, false, 0.5), Duration::from_millis(200));
    }

    #[test]
    fn a_prior_bias_out_of_range_is_refused_with_its_value() {
        for bias in [-0.1, 2.6, f32::NAN] {
            let cfg = EngineConfig {
                prior: GreedyPrior { bias },
                ..EngineConfig::default()
            };
            let e = refusal(cfg);
            assert!(
                e.contains("prior bias") && e.contains(&bias.to_string()),
                "{e}"
            );
        }
        let cfg = EngineConfig {
            prior: GreedyPrior { bias: 2.55 },
            ..EngineConfig::default()
        };
        assert!(EventHorizon::new(cfg, 1).is_ok());
    }

    #[test]
    fn the_search_gets_at_least_its_fraction_of_what_is_left() {
        let ms = Duration::from_millis;
        // Early: the even share is below the fraction of what is left.
        assert_eq!(search_budget(ms(100), ms(1200), ms(0), 1.0 / 6.0), ms(200));
        assert_eq!(search_budget(ms(100), ms(1200), ms(0), 1.0 / 12.0), ms(100));
        // A solver that used the whole share leaves the fraction of the rest.
        assert_eq!(
            search_budget(ms(100), ms(1300), ms(100), 1.0 / 12.0),
            ms(100)
        );
        assert_eq!(search_budget(ms(100), ms(120), ms(100), 0.1), ms(2));
    }

    #[test]
    fn no_target_falls_below_the_floor() {
        let adaptive = |floor| {
            with_objective(Objective::Adaptive {
                step: 4,
                gamma: 0.5,
                floor,
            })
        };
        let mut bot = EventHorizon::new(adaptive(76), 4).unwrap();
        // An estimate far below a win: every target is raised to the floor, one search.
        bot.center = 60;
        let d = bot.decide(&start(), &[], Duration::from_millis(400));
        let alphas: Vec<i16> = d.targets.iter().map(|t| t.0).collect();
        assert_eq!(alphas, [76]);
        // Without the floor the three targets stay around the estimate.
        let mut bot = EventHorizon::new(adaptive(1), 4).unwrap();
        bot.center = 60;
        let d = bot.decide(&start(), &[], Duration::from_millis(400));
        let alphas: Vec<i16> = d.targets.iter().map(|t| t.0).collect();
        assert_eq!(alphas, [56, 60, 64]);
    }

    #[test]
    fn the_swindle_keeps_the_solved_value() {
        // Endings of ten empty cells in the exact solver's range: the swindle may play
        // another move than the solver's, but never one that gives away a point against
        // perfect play; and it does play others. A short time, so that the search's
        // favourites are often moves that give a point away.
        let cfg = solving(10, 19, true);
        let plain = solving(10, 19, false);
        // The solver's full windows (checked against alpha-beta in its own tests), not the
        // null window the swindle asks.
        let exact = |q: &Position| Solver::new().solve(q, None).unwrap().red_score;
        let mut other = 0;
        for seed in 0..40 {
            let p = lottery_ending(200 + seed, 10);
            let mut bot = EventHorizon::new(cfg.clone(), seed).unwrap();
            let d = bot.decide(&p, &[], Duration::from_millis(30));
            let mut q = p;
            q.try_play(d.mv).unwrap();
            assert_eq!(exact(&q), exact(&p), "{p:?}");
            let solved = EventHorizon::new(plain.clone(), seed).unwrap().decide(
                &p,
                &[],
                Duration::from_millis(30),
            );
            if d.mv != solved.mv {
                other += 1;
            }
        }
        assert!(other > 0, "the swindle never left the solver's move");
    }

    #[test]
    fn a_solve_cut_short_still_plays_a_move_that_keeps_the_draw() {
        // Endings of twelve empty cells where the mover holds a draw and no more, with the
        // solver given just the nodes of one null window at the mover's draw: the exact
        // solve does not finish, but with `draw_first` the move played (without the target
        // searches) keeps the draw; without it the target searches play.
        let mut cfg = solving(12, 19, true);
        cfg.solver.draw_first = true;
        let win_first = solving(12, 19, true);
        // The solver's full windows (checked against alpha-beta in its own tests).
        let exact = |q: &Position| Solver::new().solve(q, None).unwrap().red_score;
        let mut cut_short = 0;
        for seed in 0..300 {
            let p = lottery_ending(500 + seed, 12);
            let red = p.mover() == RED;
            let mine = |red_score: i16| if red { red_score } else { 150 - red_score };
            if mine(exact(&p)) != 75 {
                continue;
            }
            let mut one_window = Solver::new();
            one_window.mover_reaches(&p, 75, None).unwrap();
            let nodes = one_window.nodes() + 1;
            let mut limited = Solver::new();
            limited.set_node_limit(Some(nodes));
            let b = limited
                .bounds(&p, None, Some(first_window(&p, true)))
                .unwrap();
            if b.lo == b.hi {
                continue;
            }
            let mut bot = EventHorizon::new(cfg.clone(), seed).unwrap();
            bot.solver.set_node_limit(Some(nodes));
            let d = bot.decide(&p, &[], Duration::from_millis(300));
            let mut q = p;
            q.try_play(d.mv).unwrap();
            let after = mine(exact(&q));
            assert_eq!((d.targets.len(), d.solved, after), (0, None, 75), "{p:?}");
            let mut bot = EventHorizon::new(win_first.clone(), seed).unwrap();
            bot.solver.set_node_limit(Some(nodes));
            let d = bot.decide(&p, &[], Duration::from_millis(300));
            assert!(!d.targets.is_empty(), "{p:?}");
            cut_short += 1;
            if cut_short == 4 {
                return;
            }
        }
        panic!("only {cut_short} solves cut short where the mover draws");
    }

    #[test]
    fn the_swindle_holds_a_proven_draw_in_the_win_questions_range() {
        // Endings of nine empty cells, with the exact solver off and the win question on:
        // where the mover holds a draw and no more, the swindle says so and keeps it; where
        // the mover loses, it says nothing (and the search plays).
        let cfg = solving(0, 9, true);
        let (mut draws, mut losses) = (0, 0);
        for seed in 0..400 {
            let p = lottery_ending(300 + seed, 9);
            let red = p.mover() == RED;
            let mine = |red_score: i16| if red { red_score } else { 150 - red_score };
            let exact = mine(crate::solver::alpha_beta(&p, i16::MIN, i16::MAX));
            if (exact == 75 && draws == 4) || (exact < 75 && losses == 2) || exact > 75 {
                continue;
            }
            let mut bot = EventHorizon::new(cfg.clone(), seed).unwrap();
            let d = bot.decide(&p, &[], Duration::from_millis(600));
            if exact == 75 {
                draws += 1;
                let mut q = p;
                q.try_play(d.mv).unwrap();
                let after = mine(crate::solver::alpha_beta(&q, i16::MIN, i16::MAX));
                assert_eq!((d.solved, after), (Some(75), 75), "{p:?}");
            } else {
                losses += 1;
                assert_eq!(d.solved, None, "{p:?}");
            }
            if draws == 4 && losses == 2 {
                return;
            }
        }
        panic!("only {draws} draws and {losses} losses for the mover");
    }

    #[test]
    fn the_win_question_plays_a_proven_win() {
        // Endings of nine empty cells, with the exact solver off and the win question on:
        // where the mover wins, the move played must keep the win (checked by full-window
        // alpha-beta); where it does not, the answer says so and the search plays (without
        // the swindle, which would play a proven draw).
        let cfg = solving(0, 9, false);
        let mut won = 0;
        for seed in 0..6 {
            let p = lottery_ending(100 + seed, 9);
            let mut bot = EventHorizon::new(cfg.clone(), seed).unwrap();
            let d = bot.decide(&p, &[], Duration::from_secs(20));
            let red = p.mover() == RED;
            let mine = |red_score: i16| if red { red_score } else { 150 - red_score };
            let exact = crate::solver::alpha_beta(&p, i16::MIN, i16::MAX);
            assert_eq!(d.wins, Some(mine(exact) > 75), "{p:?}");
            if d.wins == Some(true) {
                won += 1;
                assert!(d.targets.is_empty(), "a proven win needs no search");
                let mut q = p;
                q.try_play(d.mv).unwrap();
                assert!(mine(crate::solver::alpha_beta(&q, i16::MIN, i16::MAX)) > 75);
            } else {
                assert!(!d.targets.is_empty());
            }
        }
        assert!(won > 0, "no ending was a win for the mover");
    }

    #[test]
    fn the_swindle_keeps_a_proven_win_in_the_win_questions_range() {
        // Endings of nine empty cells, with the exact solver off and the win question on:
        // where the mover wins, the swindle's move keeps the win (checked by full-window
        // alpha-beta), and it is not always the solver's.
        let cfg = solving(0, 9, true);
        let plain = solving(0, 9, false);
        let (mut won, mut other) = (0, 0);
        for seed in 0..60 {
            let p = lottery_ending(700 + seed, 9);
            let red = p.mover() == RED;
            let mine = |red_score: i16| if red { red_score } else { 150 - red_score };
            if mine(crate::solver::alpha_beta(&p, i16::MIN, i16::MAX)) <= 75 {
                continue;
            }
            won += 1;
            let mut bot = EventHorizon::new(cfg.clone(), seed).unwrap();
            let d = bot.decide(&p, &[], Duration::from_millis(600));
            assert_eq!((d.wins, d.targets.len()), (Some(true), 0), "{p:?}");
            let mut q = p;
            q.try_play(d.mv).unwrap();
            assert!(mine(crate::solver::alpha_beta(&q, i16::MIN, i16::MAX)) > 75);
            let solved = EventHorizon::new(plain.clone(), seed).unwrap().decide(
                &p,
                &[],
                Duration::from_millis(600),
            );
            if d.mv != solved.mv {
                other += 1;
            }
        }
        assert!(won >= 5, "only {won} endings were wins for the mover");
        assert!(other > 0, "the swindle never left the solver's move");
    }

    #[test]
    fn the_swindle_searches_one_point_more_beside_the_win_draw_loss_game() {
        // The default's own tree plays the win-draw-loss game; the swindle's tree for a
        // target plays "does the mover reach it?".
        let mut bot = EventHorizon::new(EngineConfig::default(), 1).unwrap();
        assert_eq!(bot.config.objective, Objective::default());
        let p = lottery_ending(5, 12);
        let own = bot.tree_for(&p, &[], SCORE_KEY);
        assert_eq!(bot.trees[own].2.game().reward, Reward::WDL);
        let swindle = bot.tree_for(&p, &[], 77);
        let game = bot.trees[swindle].2.game();
        assert_eq!((game.reward, game.alpha), (Reward::Target, 77));
    }

    #[test]
    fn targets_decided_by_the_static_bounds_still_give_a_good_move() {
        // The solvers off: the searches alone decide. Where the static bounds already lose a
        // win, the targets come down to the best score still possible and a search plays (or
        // the bounds decide that target too, and the move keeps it);
        // where they already win it, the move keeps the win (checked by alpha-beta).
        let cfg = EngineConfig {
            objective: Objective::Drift(Drift::default()),
            solver: no_solver(),
            ..EngineConfig::default()
        };
        let (mut lost, mut won) = (0, 0);
        for seed in 0..400 {
            let p = lottery_ending(500 + seed, 9);
            let me = p.mover();
            let verdict = static_verdict(&p, me, 76);
            if verdict.is_none() || declared(&p, me, 76).is_some() {
                continue;
            }
            let mut bot = EventHorizon::new(cfg.clone(), seed).unwrap();
            let d = bot.decide(&p, &[], Duration::from_millis(200));
            let mine = |red_score: i16| {
                if me == RED {
                    red_score
                } else {
                    150 - red_score
                }
            };
            if verdict == Some(false) {
                lost += 1;
                let (lo, hi) = static_score_bounds(&p);
                let best = if me == RED { hi } else { 150 - lo };
                assert!(d.targets.iter().all(|t| t.0 <= best), "{:?}", d.targets);
                // Either a search ran, or the static bounds decided a lower target too (won
                // with no simulation), and the move keeps it.
                match d.targets.iter().find(|t| t.1 == 1.0 && t.2 == 0) {
                    Some(&(target, _, _)) => {
                        let mut q = p;
                        q.try_play(d.mv).unwrap();
                        let kept = mine(crate::solver::alpha_beta(&q, i16::MIN, i16::MAX));
                        assert!(kept >= target, "{kept} < {target}: {d:?}");
                    }
                    None => assert!(d.targets.iter().any(|t| t.2 > 0), "no search ran: {d:?}"),
                }
            } else {
                won += 1;
                let mut q = p;
                q.try_play(d.mv).unwrap();
                assert!(mine(crate::solver::alpha_beta(&q, i16::MIN, i16::MAX)) > 75);
            }
            if lost >= 3 && won >= 3 {
                return;
            }
        }
        panic!("too few endings decided by the bounds alone: {lost} lost, {won} won");
    }

    #[test]
    fn the_solver_plays_the_winning_fill_at_the_end() {
        // Play to three empty cells, then check the decision against brute force.
        let p = lottery_ending(3, 5);
        let mut bot = EventHorizon::new(EngineConfig::default(), 9).unwrap();
        let d = bot.decide(&p, &[], Duration::from_secs(2));
        let exact = crate::solver::brute_force(&p);
        let me = p.mover();
        let mine = if me == RED { exact } else { 150 - exact };
        if let Some(s) = d.solved {
            assert_eq!(s, mine);
        }
        let mut q = p;
        q.try_play(d.mv).unwrap();
        assert_eq!(crate::solver::brute_force(&q), exact);
    }
}
