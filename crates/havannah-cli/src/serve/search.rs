//! The engine's searches for a game: a worker thread runs the game's job in slices of a few
//! hundred milliseconds (the tree is kept between slices at the same position and between
//! moves), and publishes a [`Snapshot`] of the statistics after each slice.
//!
//! [`havannah::Engine`] has no stop flag: a search runs for the budget it is given. Slices
//! make it stoppable (a job that was cancelled or replaced stops after the slice in
//! progress, whose result is dropped) and observable.

use std::sync::Arc;
use std::time::{Duration, Instant};

use game_harness::Clock;
use havannah::mcts::Proof;
use havannah::{Agent, Engine, EngineConfig, SearchResult};
use havannah_rules::{GameState, Move};
use serde::Serialize;

use super::error::ApiError;
use super::session::{Play, Session};

/// The candidate moves a snapshot lists at most (the most visited).
const MAX_CANDIDATES: usize = 64;
/// The principal variation's length in a snapshot at most.
const MAX_PV: usize = 12;
/// A move's search ends when less than this is left of its time.
const TIME_SLACK: Duration = Duration::from_millis(10);

/// What a search job is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum JobKind {
    /// The engine's move: search the time per move, then play the best move.
    Move,
    /// Analyse the shown position until stopped (or the analysis limit).
    Analyse,
}

/// A search in progress.
#[derive(Debug, Clone)]
pub(crate) struct Job {
    pub kind: JobKind,
    /// The time searched so far.
    searched: Duration,
    /// The simulations run so far.
    simulations: u64,
}

impl Job {
    pub(crate) fn new(kind: JobKind) -> Job {
        Job {
            kind,
            searched: Duration::ZERO,
            simulations: 0,
        }
    }
}

/// The slice time and the analysis limit, as [`super::Limits`] sets them.
#[derive(Debug, Clone, Copy)]
pub(crate) struct SliceLimits {
    pub slice: Duration,
    pub analysis_limit: Duration,
}

/// One candidate move of a snapshot.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Candidate {
    #[serde(rename = "move")]
    mv: String,
    visits: u64,
    /// The move's share of the root's visits, in `[0, 1]`.
    share: f64,
    /// The mean result of the move for the side to move, in `[0, 1]`.
    win_rate: f64,
}

/// The statistics of a search after its latest slice.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Snapshot {
    /// `move` (the engine's move) or `analysis`.
    kind: &'static str,
    /// The number of moves of the position searched.
    pub ply: usize,
    /// The colour to move in that position, whose win rate the figures are.
    to_move: &'static str,
    /// Simulations through the root, a reused subtree's included.
    simulations: u64,
    /// Simulations run by this job.
    searched: u64,
    /// This job's simulations per second.
    per_second: f64,
    /// The time this job has searched, in milliseconds.
    elapsed_ms: u64,
    /// The best move's mean result for the side to move.
    win_rate: f64,
    /// `win`, `loss` or `draw` when the search proved the position's value.
    proven: Option<&'static str>,
    /// The best move, then the most visited replies.
    pv: Vec<String>,
    /// The most visited root moves, most visited first.
    candidates: Vec<Candidate>,
    /// The tree's nodes and the most it may hold.
    tree_nodes: usize,
    node_budget: usize,
}

impl Snapshot {
    fn new(
        kind: JobKind,
        game: &GameState,
        result: &SearchResult<Move>,
        job: &Job,
        node_budget: usize,
    ) -> Snapshot {
        let board = game.board();
        let name = |m: &Move| m.to_notation(board);
        let total: u64 = result.children.iter().map(|c| c.visits).sum();
        let candidates = result
            .children
            .iter()
            .filter(|c| c.visits > 0)
            .take(MAX_CANDIDATES)
            .map(|c| Candidate {
                mv: name(&c.mv),
                visits: c.visits,
                share: c.visits as f64 / total.max(1) as f64,
                win_rate: c.value,
            })
            .collect();
        let seconds = job.searched.as_secs_f64();
        Snapshot {
            kind: match kind {
                JobKind::Move => "move",
                JobKind::Analyse => "analysis",
            },
            ply: game.moves().len(),
            to_move: game.to_move().name(),
            simulations: result.root_visits,
            searched: job.simulations,
            per_second: if seconds > 0.0 {
                job.simulations as f64 / seconds
            } else {
                0.0
            },
            elapsed_ms: u64::try_from(job.searched.as_millis()).unwrap_or(u64::MAX),
            win_rate: result.value,
            proven: result.proven.map(|p| match p {
                Proof::Win => "win",
                Proof::Loss => "loss",
                Proof::Draw => "draw",
            }),
            pv: result
                .principal_variation
                .iter()
                .take(MAX_PV)
                .map(name)
                .collect(),
            candidates,
            tree_nodes: result.tree_nodes,
            node_budget,
        }
    }
}

/// The engine of a game and the position its tree stands at.
#[derive(Debug)]
pub(crate) struct EngineCache {
    engine: Engine,
    /// The game the engine has followed: a later position of the same game is reached by
    /// observing the moves since (keeping the subtree); any other position starts afresh.
    followed: Option<GameState>,
}

impl EngineCache {
    /// The best configuration on one thread, its tree capped at `memory` bytes, searching
    /// every position (the first-stone table off).
    pub(crate) fn new(memory: usize, seed: u64) -> EngineCache {
        let mut config = EngineConfig::best();
        config.max_memory = Some(memory);
        // The page shows the search of every position, the first two plies included: no
        // answers from the first-stone table.
        config.pie_table = false;
        EngineCache {
            engine: Engine::new(config, seed),
            followed: None,
        }
    }

    /// Brings the engine to `game`'s position (following the moves since the last search in
    /// its tree where it can).
    fn follow(&mut self, game: &GameState) {
        let extends = |f: &GameState| {
            f.board().size() == game.board().size()
                && f.rules() == game.rules()
                && game.moves().starts_with(f.moves())
        };
        if let Some(followed) = self.followed.as_mut().filter(|f| extends(f)) {
            let known = followed.moves().len();
            for &mv in &game.moves()[known..] {
                if followed.play(mv).is_err() {
                    break;
                }
                self.engine.observe(followed, mv);
            }
            if followed.moves().len() == game.moves().len() {
                return;
            }
        }
        self.engine.reset(game);
        self.followed = Some(game.clone());
    }

    /// Searches `game` for `slice` more; the best move so far and the statistics.
    fn search(&mut self, game: &GameState, slice: Duration) -> Option<(Move, SearchResult<Move>)> {
        self.follow(game);
        let clock = Clock::per_move(slice);
        let mv = self.engine.choose(game, &clock)?;
        Some((mv, self.engine.last_result()?.clone()))
    }
}

/// Starts the game's worker thread if it has a job and no worker.
pub(crate) fn ensure_worker(
    session: &Arc<Session>,
    play: &mut Play,
    limits: SliceLimits,
) -> Result<(), ApiError> {
    if play.job.is_none() || play.worker {
        return Ok(());
    }
    let worker = Arc::clone(session);
    std::thread::Builder::new()
        .name("havannah-search".to_string())
        .spawn(move || run_jobs(&worker, limits))
        .map_err(|e| {
            play.job = None;
            ApiError::busy(format!("cannot start a search now: {e}"))
        })?;
    play.worker = true;
    Ok(())
}

/// The worker: runs slices of the game's job until it has none (or the game is freed).
fn run_jobs(session: &Session, limits: SliceLimits) {
    loop {
        let (game, generation, kind, slice) = {
            let mut play = session.play();
            let job = match &play.job {
                Some(job) if !play.closed => job.clone(),
                _ => {
                    play.worker = false;
                    return;
                }
            };
            let slice = match job.kind {
                JobKind::Move => limits.slice.min(play.time.saturating_sub(job.searched)),
                JobKind::Analyse => limits.slice,
            };
            (play.game.clone(), play.generation, job.kind, slice)
        };
        let started = Instant::now();
        let (found, node_budget) = {
            let mut engine = session.engine();
            let found = engine.search(&game, slice);
            (found, engine.engine.config().node_budget())
        };
        let mut play = session.play();
        if play.generation == generation {
            publish(
                &mut play,
                &game,
                kind,
                found,
                started.elapsed(),
                limits,
                node_budget,
            );
        }
    }
}

/// Records a slice's result: the snapshot, and the end of the job when its time is spent
/// (the engine's move is played) or the position is proven.
fn publish(
    play: &mut Play,
    game: &GameState,
    kind: JobKind,
    found: Option<(Move, SearchResult<Move>)>,
    spent: Duration,
    limits: SliceLimits,
    node_budget: usize,
) {
    let Some(job) = play.job.as_mut() else {
        return;
    };
    let Some((mv, result)) = found else {
        play.job = None;
        play.engine_error = Some("the engine found no move".to_string());
        return;
    };
    job.searched += spent;
    job.simulations += result.simulations;
    let snapshot = Snapshot::new(kind, game, &result, job, node_budget);
    // A proven root, or a search that ran no simulation, will not change any more.
    let settled = result.proven.is_some() || result.simulations == 0;
    let done = settled
        || match kind {
            JobKind::Move => play.time.saturating_sub(job.searched) < TIME_SLACK,
            JobKind::Analyse => job.searched >= limits.analysis_limit,
        };
    if !done {
        play.snapshot = Some(snapshot);
        return;
    }
    play.job = None;
    if kind == JobKind::Move
        && let Err(e) = play.apply(mv)
    {
        play.engine_error = Some(format!("the engine's move was refused: {e}"));
    }
    // Kept after the move too: the page shows the statistics of the engine's last search.
    play.snapshot = Some(snapshot);
}
