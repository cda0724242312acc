//! `havannah serve`: play and analyse Havannah in the browser.
//!
//! A small web server (axum on a tokio runtime) serves one page, whose HTML, CSS and
//! JavaScript are plain files embedded in the binary, and a JSON API under `/api/`. Each
//! browser tab creates its own game and gets its id; the engine ([`havannah::Engine`] with
//! [`havannah::EngineConfig::best`], one search thread) answers the human's moves and analyses
//! positions on a thread of its own, searching in slices of a few hundred milliseconds and
//! publishing its statistics (simulations, win rate, principal variation, the visit share of
//! every candidate move) after each slice; the page polls them.
//!
//! The server is built to stay up whatever it is sent: every answer to bad input is a JSON
//! `{"error": "..."}` with a 4xx status; bodies are capped; the games, and the tree memory of
//! each, are capped; games left idle are freed. `docs/web.md` describes the API.
//!
//! ```
//! use havannah_cli::serve::{AppState, Limits, router};
//!
//! let app = router(AppState::new(Limits::default()));
//! # let _ = app;
//! ```

use std::io::Write as _;
use std::net::{IpAddr, SocketAddr};
use std::process::ExitCode;
use std::time::Duration;

use clap::Parser;

mod api;
mod assets;
mod error;
mod registry;
mod requests;
mod search;
mod session;
mod view;

pub use api::router;
pub use registry::AppState;

/// What the server allows: games, memory, body sizes, idle time and search slices.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Limits {
    /// Games held at once; "new game" is refused with 429 beyond it.
    pub max_games: usize,
    /// A game nobody has asked about for this long is freed.
    pub idle_timeout: Duration,
    /// The search tree memory of one game, in bytes.
    pub game_memory: usize,
    /// The largest request body, in bytes; larger ones are refused with 413.
    pub max_body: usize,
    /// An analysis stops by itself after searching this long.
    pub analysis_limit: Duration,
    /// The time of one search slice: statistics are published after each.
    pub slice: Duration,
}

impl Default for Limits {
    /// 16 games of 64 MiB of tree each, 64 KiB bodies, freed after 15 idle minutes, analyses
    /// of at most 10 minutes, slices of 250 ms.
    fn default() -> Limits {
        Limits {
            max_games: 16,
            idle_timeout: Duration::from_secs(15 * 60),
            game_memory: 64 << 20,
            max_body: 64 << 10,
            analysis_limit: Duration::from_secs(10 * 60),
            slice: Duration::from_millis(250),
        }
    }
}

impl Limits {
    /// These limits with another cap on games.
    #[must_use]
    pub fn with_max_games(mut self, max_games: usize) -> Limits {
        self.max_games = max_games;
        self
    }

    /// These limits with another idle timeout.
    #[must_use]
    pub fn with_idle_timeout(mut self, idle_timeout: Duration) -> Limits {
        self.idle_timeout = idle_timeout;
        self
    }

    /// These limits with another cap on a game's tree memory, in bytes.
    #[must_use]
    pub fn with_game_memory(mut self, bytes: usize) -> Limits {
        self.game_memory = bytes;
        self
    }

    /// These limits with another search-slice time.
    #[must_use]
    pub fn with_slice(mut self, slice: Duration) -> Limits {
        self.slice = slice;
        self
    }
}

/// Options of `havannah serve`.
#[derive(Debug, Clone, Parser)]
#[command(
    name = "serve",
    version,
    about = "Serves a web page to play and analyse Havannah against the engine"
)]
pub struct Opts {
    /// The port to listen on (0: any free port; the address is printed).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// The address to listen on. Anything but a loopback address lets computers on the
    /// network play on this one (a warning is printed).
    #[arg(long, default_value = "127.0.0.1")]
    pub host: IpAddr,
    /// Games held at once (each browser tab plays its own).
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub max_games: u64,
    /// The search tree memory of one game, in MiB.
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..=65536))]
    pub game_memory: u64,
    /// Minutes after which a game nobody asks about is freed.
    #[arg(long, default_value_t = 15, value_parser = clap::value_parser!(u64).range(1..=10080))]
    pub idle_minutes: u64,
}

impl Opts {
    /// The limits these options set (the others at their defaults).
    #[must_use]
    pub fn limits(&self) -> Limits {
        Limits {
            max_games: usize::try_from(self.max_games).unwrap_or(usize::MAX),
            idle_timeout: Duration::from_secs(self.idle_minutes * 60),
            game_memory: usize::try_from(self.game_memory << 20).unwrap_or(usize::MAX),
            ..Limits::default()
        }
    }
}

/// Runs the server until the process is stopped; exit status 1 when it cannot start.
pub fn run(opts: &Opts) -> ExitCode {
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("havannah serve: cannot start the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(serve(opts)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("havannah serve: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Binds, prints the address, starts the reaper of idle games and serves.
async fn serve(opts: &Opts) -> std::io::Result<()> {
    let addr = SocketAddr::new(opts.host, opts.port);
    if !opts.host.is_loopback() {
        eprintln!(
            "havannah serve: warning: listening on {} lets computers on the network reach this server \
             (no authentication; each game costs CPU and memory)",
            opts.host
        );
    }
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|e| std::io::Error::new(e.kind(), format!("cannot listen on {addr}: {e}")))?;
    let local = listener.local_addr()?;
    let shown = match local.ip() {
        ip if ip.is_unspecified() => SocketAddr::new(IpAddr::from([127, 0, 0, 1]), local.port()),
        _ => local,
    };
    println!("havannah serve: listening on http://{shown}/ (Ctrl-C stops)");
    let _ = std::io::stdout().flush();
    let state = AppState::new(opts.limits());
    let reaper = state.clone();
    let every =
        (reaper.limits().idle_timeout / 4).clamp(Duration::from_secs(1), Duration::from_secs(60));
    tokio::spawn(async move {
        loop {
            tokio::time::sleep(every).await;
            reaper.reap_idle();
        }
    });
    axum::serve(listener, router(state)).await
}
