//! The games the server holds, by id: at most [`Limits::max_games`], each freed when deleted
//! or left idle for [`Limits::idle_timeout`].

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Instant;

use rand::RngExt;

use super::Limits;
use super::error::{ApiError, quote};
use super::search::{SliceLimits, ensure_worker};
use super::session::{Play, Session};

/// The server's state: the games and the limits. Cloning it is cheap (a shared handle).
#[derive(Debug, Clone)]
pub struct AppState {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    games: Mutex<HashMap<String, Arc<Session>>>,
    limits: Limits,
}

impl AppState {
    /// A server state without games.
    #[must_use]
    pub fn new(limits: Limits) -> AppState {
        AppState {
            inner: Arc::new(Inner {
                games: Mutex::new(HashMap::new()),
                limits,
            }),
        }
    }

    /// The limits.
    #[must_use]
    pub fn limits(&self) -> &Limits {
        &self.inner.limits
    }

    /// The number of games held.
    #[must_use]
    pub fn games(&self) -> usize {
        self.map().len()
    }

    /// Frees the games nobody has asked about for the idle timeout (their searches stop
    /// after the slice in progress); returns how many.
    pub fn reap_idle(&self) -> usize {
        let timeout = self.inner.limits.idle_timeout;
        let now = Instant::now();
        let mut map = self.map();
        let idle: Vec<String> = map
            .iter()
            .filter(|(_, s)| now.saturating_duration_since(s.play().last_used) >= timeout)
            .map(|(id, _)| id.clone())
            .collect();
        for id in &idle {
            if let Some(session) = map.remove(id) {
                close(&session);
            }
        }
        idle.len()
    }

    fn map(&self) -> MutexGuard<'_, HashMap<String, Arc<Session>>> {
        self.inner
            .games
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    pub(crate) fn slice_limits(&self) -> SliceLimits {
        SliceLimits {
            slice: self.inner.limits.slice,
            analysis_limit: self.inner.limits.analysis_limit,
        }
    }

    /// Adds a game (the engine starts if it moves first); its id and view.
    pub(crate) fn create(&self, mut play: Play) -> Result<(String, Arc<Session>), ApiError> {
        let mut map = self.map();
        if map.len() >= self.inner.limits.max_games {
            return Err(ApiError::busy(format!(
                "the server holds its maximum of {} games; try again later",
                self.inner.limits.max_games
            )));
        }
        let mut rng = rand::rng();
        let (id, seed) = loop {
            let seed: u64 = rng.random();
            let id = format!("{seed:016x}");
            if !map.contains_key(&id) {
                break (id, seed);
            }
        };
        play.start();
        let session = Session::new(play, self.inner.limits.game_memory, seed);
        ensure_worker(&session, &mut session.play(), self.slice_limits())?;
        map.insert(id.clone(), Arc::clone(&session));
        Ok((id, session))
    }

    /// The game `id`, marked as used now.
    pub(crate) fn get(&self, id: &str) -> Result<Arc<Session>, ApiError> {
        let session = self
            .map()
            .get(id)
            .cloned()
            .ok_or_else(|| ApiError::not_found(format!("no game {}", quote(id))))?;
        session.play().last_used = Instant::now();
        Ok(session)
    }

    /// Frees the game `id`.
    pub(crate) fn remove(&self, id: &str) -> Result<(), ApiError> {
        let session = self
            .map()
            .remove(id)
            .ok_or_else(|| ApiError::not_found(format!("no game {}", quote(id))))?;
        close(&session);
        Ok(())
    }
}

/// Stops a freed game's search.
fn close(session: &Session) {
    let mut play = session.play();
    play.closed = true;
    play.job = None;
}
