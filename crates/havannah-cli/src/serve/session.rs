//! One game of one browser tab: the position, the line of moves it steps through, who plays
//! which side, the search job in progress and its latest statistics.
//!
//! The players are seats, not colours: the first player makes moves 1, 3, 5, ... and the
//! second moves 2, 4, 6, ...; after a `swap` the seats' colours change over (the second
//! player takes White's stone, and Black, the first player, moves next).

use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use havannah_rules::{Colour, GameState, Move, Record, Rules};

use super::error::{ApiError, quote};
use super::requests::{SIZES, Seat, Settings};
use super::search::{EngineCache, Job, JobKind, Snapshot};

/// A game and its engine. The two sit behind separate locks so that a search slice (which
/// holds the engine) never keeps a request waiting for the game.
#[derive(Debug)]
pub(crate) struct Session {
    play: Mutex<Play>,
    engine: Mutex<EngineCache>,
}

impl Session {
    /// A session for `play`, with an engine whose tree holds at most `memory` bytes.
    pub(crate) fn new(play: Play, memory: usize, seed: u64) -> Arc<Session> {
        Arc::new(Session {
            play: Mutex::new(play),
            engine: Mutex::new(EngineCache::new(memory, seed)),
        })
    }

    /// The game (a panic elsewhere while holding the lock does not make it unusable).
    pub(crate) fn play(&self) -> MutexGuard<'_, Play> {
        self.play.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The engine.
    pub(crate) fn engine(&self) -> MutexGuard<'_, EngineCache> {
        self.engine.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// The state of a game that requests read and change.
#[derive(Debug)]
pub(crate) struct Play {
    /// The shown position: the first `cursor` moves of `line`.
    pub game: GameState,
    /// Every move of the game, including those after the shown position when stepping back.
    pub line: Vec<Move>,
    /// The seat the engine plays (0 first, 1 second), or `None` when the human plays both.
    pub engine_seat: Option<usize>,
    /// The engine's time per move.
    pub time: Duration,
    /// The seat that resigned, if one did (at the end of `line`).
    pub resigned: Option<usize>,
    /// The search in progress.
    pub job: Option<Job>,
    /// Bumped whenever the position or the job changes: a slice started under an older
    /// generation is not published.
    pub generation: u64,
    /// Whether a worker thread is running this game's jobs.
    pub worker: bool,
    /// The statistics of the latest search slice.
    pub snapshot: Option<Snapshot>,
    /// Why the engine could not move, if it could not.
    pub engine_error: Option<String>,
    /// The last request about this game.
    pub last_used: Instant,
    /// Set when the game is freed: its worker stops.
    pub closed: bool,
}

impl Play {
    /// A new game.
    pub(crate) fn new(settings: &Settings) -> Result<Play, ApiError> {
        let rules = Rules { pie: settings.pie };
        let game = GameState::new(settings.size, rules)
            .map_err(|e| ApiError::bad_request(e.to_string()))?;
        Ok(Play::at(game, settings.time, settings.human))
    }

    /// A game loaded from a one-line record or SGF (pie rule on, as records are played),
    /// shown at its end.
    pub(crate) fn load(text: &str, time: Duration, human: Seat) -> Result<Play, ApiError> {
        let trimmed = text.trim();
        let record = if trimmed.starts_with('(') {
            Record::parse_sgf(trimmed)
        } else {
            Record::parse_line(trimmed, 1)
        }
        .map_err(|e| ApiError::bad_request(format!("cannot load the record: {e}")))?;
        if !SIZES.contains(&u64::from(record.size)) {
            return Err(ApiError::bad_request(format!(
                "cannot load the record: size {} is out of range: {}..={}",
                record.size,
                SIZES.start(),
                SIZES.end()
            )));
        }
        let game = GameState::new(record.size, Rules { pie: true })
            .map_err(|e| ApiError::bad_request(e.to_string()))?;
        let mut play = Play::at(game, time, human);
        for (k, &mv) in record.moves.iter().enumerate() {
            play.game.play(mv).map_err(|e| {
                ApiError::bad_request(format!("cannot load the record: move {}: {e}", k + 1))
            })?;
        }
        play.line = record.moves;
        Ok(play)
    }

    fn at(game: GameState, time: Duration, human: Seat) -> Play {
        Play {
            game,
            line: Vec::new(),
            engine_seat: match human {
                Seat::First => Some(1),
                Seat::Second => Some(0),
                Seat::Both => None,
            },
            time,
            resigned: None,
            job: None,
            generation: 0,
            worker: false,
            snapshot: None,
            engine_error: None,
            last_used: Instant::now(),
            closed: false,
        }
    }

    /// Starts the engine if it is to move in a new or loaded game.
    pub(crate) fn start(&mut self) {
        self.position_changed(true);
    }

    /// The seat to move in the shown position.
    pub(crate) fn seat_to_move(&self) -> usize {
        self.game.moves().len() % 2
    }

    /// The colour a seat plays in the shown position (after a swap the seats change colours).
    pub(crate) fn colour_of(&self, seat: usize) -> Colour {
        let swapped = self.game.moves().get(1) == Some(&Move::Swap);
        if (seat == 0) != swapped {
            Colour::White
        } else {
            Colour::Black
        }
    }

    /// Whether the game has ended in the shown position (a win, a full board, or a
    /// resignation at the end of the line).
    pub(crate) fn is_over(&self) -> bool {
        self.game.outcome().is_over() || self.resigned_here().is_some()
    }

    /// The seat that resigned, when the shown position is the one it resigned in.
    pub(crate) fn resigned_here(&self) -> Option<usize> {
        self.resigned
            .filter(|_| self.game.moves().len() == self.line.len())
    }

    /// Whether the engine is to move (in a game against it that is not over).
    pub(crate) fn engine_to_move(&self) -> bool {
        !self.is_over() && self.engine_seat == Some(self.seat_to_move())
    }

    /// Whether the human may move now: the game goes on, the engine neither thinks nor is
    /// to move.
    pub(crate) fn human_to_move(&self) -> bool {
        !self.is_over() && !self.thinking() && !self.engine_to_move()
    }

    /// Whether the engine is searching for its move.
    pub(crate) fn thinking(&self) -> bool {
        matches!(
            self.job,
            Some(Job {
                kind: JobKind::Move,
                ..
            })
        )
    }

    /// Whether the engine is analysing the shown position.
    pub(crate) fn analysing(&self) -> bool {
        matches!(
            self.job,
            Some(Job {
                kind: JobKind::Analyse,
                ..
            })
        )
    }

    /// Refuses anything but a move, undo or resignation while the engine thinks.
    fn not_thinking(&self) -> Result<(), ApiError> {
        if self.thinking() {
            Err(ApiError::conflict("the engine is thinking"))
        } else {
            Ok(())
        }
    }

    /// Plays the human's move `text` in the shown position, cutting off any moves of the line
    /// after it.
    pub(crate) fn human_move(&mut self, text: &str) -> Result<(), ApiError> {
        self.not_thinking()?;
        if self.engine_to_move() {
            return Err(ApiError::conflict("it is the engine's turn"));
        }
        if self.resigned_here().is_some() {
            return Err(ApiError::conflict("the game is over: a player resigned"));
        }
        let board = self.game.board();
        let mv = Move::parse(board, text.trim())
            .map_err(|e| ApiError::bad_request(format!("bad move {}: {e}", quote(text))))?;
        self.apply(mv)
            .map_err(|e| ApiError::conflict(format!("illegal move: {e}")))
    }

    /// Plays `mv` (already chosen legal, or checked here) in the shown position.
    pub(crate) fn apply(&mut self, mv: Move) -> Result<(), havannah_rules::RulesError> {
        self.game.play(mv)?;
        let ply = self.game.moves().len();
        if self.line.get(ply - 1) != Some(&mv) {
            self.line.truncate(ply - 1);
            self.line.push(mv);
            self.resigned = None;
        }
        self.position_changed(true);
        Ok(())
    }

    /// Takes back the human's last move (and the engine's answer to it); with the human on
    /// both sides, the last move.
    pub(crate) fn undo(&mut self) -> Result<(), ApiError> {
        let plies = self.game.moves().len();
        let target = match self.engine_seat {
            // The last move of the human: the last index of the other seat's parity.
            Some(seat) => (0..plies).rev().find(|k| k % 2 != seat),
            None => plies.checked_sub(1),
        }
        .ok_or_else(|| ApiError::conflict("nothing to undo: no move of yours has been played"))?;
        self.goto(target)?;
        self.line.truncate(target);
        self.resigned = None;
        Ok(())
    }

    /// Shows the position after the first `ply` moves of the line (the engine stops thinking).
    pub(crate) fn goto(&mut self, ply: usize) -> Result<(), ApiError> {
        if ply > self.line.len() {
            return Err(ApiError::bad_request(format!(
                "ply {ply} is beyond the game's {} moves",
                self.line.len()
            )));
        }
        let mut game = GameState::on_board(self.game.board(), self.game.rules());
        for &mv in &self.line[..ply] {
            game.play(mv)
                .map_err(|e| ApiError::conflict(format!("cannot replay the line: {e}")))?;
        }
        self.game = game;
        if self.thinking() {
            self.job = None;
        }
        self.position_changed(false);
        Ok(())
    }

    /// The human to move resigns (in a game against the engine, the human's seat).
    pub(crate) fn resign(&mut self) -> Result<(), ApiError> {
        if self.is_over() {
            return Err(ApiError::conflict("the game is already over"));
        }
        let seat = match self.engine_seat {
            Some(engine) => 1 - engine,
            None => self.seat_to_move(),
        };
        self.line.truncate(self.game.moves().len());
        self.resigned = Some(seat);
        self.job = None;
        self.position_changed(false);
        Ok(())
    }

    /// Asks the engine to move now (in any game, for the side to move).
    pub(crate) fn engine_move(&mut self) -> Result<(), ApiError> {
        self.not_thinking()?;
        if self.is_over() {
            return Err(ApiError::conflict("the game is over"));
        }
        self.job = Some(Job::new(JobKind::Move));
        self.generation += 1;
        Ok(())
    }

    /// Starts or stops analysing the shown position.
    pub(crate) fn analyse(&mut self, on: bool) -> Result<(), ApiError> {
        self.not_thinking()?;
        if on && self.is_over() {
            return Err(ApiError::conflict("the game is over: nothing to analyse"));
        }
        self.job = on.then(|| Job::new(JobKind::Analyse));
        self.generation += 1;
        Ok(())
    }

    /// After the position changed: the old statistics go; the engine answers if it is its
    /// turn and `answer` is set (a move was played, not a step through the line); else an
    /// analysis goes on at the new position.
    fn position_changed(&mut self, answer: bool) {
        self.generation += 1;
        self.snapshot = None;
        self.engine_error = None;
        let analysing = self.analysing();
        self.job = if answer && self.engine_to_move() {
            Some(Job::new(JobKind::Move))
        } else if analysing && !self.is_over() {
            Some(Job::new(JobKind::Analyse))
        } else {
            None
        };
    }
}
