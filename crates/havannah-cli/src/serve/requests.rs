//! The JSON bodies the API accepts, parsed and checked: every field is optional unless it is
//! the point of the request, unknown fields are refused, and values out of range are named.

use std::time::Duration;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use serde::Deserialize;
use serde::de::DeserializeOwned;

use super::error::{ApiError, quote};

/// The board sizes a game may have.
pub(crate) const SIZES: std::ops::RangeInclusive<u64> = 4..=10;
/// The engine's time per move, in milliseconds.
pub(crate) const TIME_MS: std::ops::RangeInclusive<u64> = 50..=60_000;

/// The body of a request, parsed as JSON into `T`; an empty body is `{}`.
pub(crate) fn parse_body<T: DeserializeOwned>(
    body: Result<Bytes, BytesRejection>,
) -> Result<T, ApiError> {
    let bytes =
        body.map_err(|e| ApiError::new(e.status(), format!("bad body: {}", e.body_text())))?;
    let text = if bytes.iter().all(u8::is_ascii_whitespace) {
        &b"{}"[..]
    } else {
        &bytes[..]
    };
    serde_json::from_slice(text).map_err(|e| ApiError::bad_request(format!("bad JSON body: {e}")))
}

/// Who the human plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Seat {
    /// The first player (White).
    First,
    /// The second player (Black, who may swap).
    Second,
    /// Both sides: the engine moves only when asked.
    Both,
}

/// `POST /api/games`: a new game.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct NewGame {
    size: Option<u64>,
    time_ms: Option<u64>,
    pie: Option<bool>,
    human: Option<String>,
}

/// A new game's settings, checked.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Settings {
    pub size: u8,
    pub time: Duration,
    pub pie: bool,
    pub human: Seat,
}

impl NewGame {
    /// The settings, or a message naming the value out of range: size 8, 1 s a move, the pie
    /// rule on and the human playing White unless the body says otherwise.
    pub(crate) fn settings(&self) -> Result<Settings, ApiError> {
        Ok(Settings {
            size: size(self.size.unwrap_or(8))?,
            time: time(self.time_ms)?,
            pie: self.pie.unwrap_or(true),
            human: seat(self.human.as_deref().unwrap_or("white"))?,
        })
    }
}

fn size(size: u64) -> Result<u8, ApiError> {
    if SIZES.contains(&size) {
        Ok(size as u8)
    } else {
        Err(ApiError::bad_request(format!(
            "size {size} is out of range: {}..={}",
            SIZES.start(),
            SIZES.end()
        )))
    }
}

fn time(time_ms: Option<u64>) -> Result<Duration, ApiError> {
    let ms = time_ms.unwrap_or(1000);
    if TIME_MS.contains(&ms) {
        Ok(Duration::from_millis(ms))
    } else {
        Err(ApiError::bad_request(format!(
            "time_ms {ms} is out of range: {}..={}",
            TIME_MS.start(),
            TIME_MS.end()
        )))
    }
}

fn seat(human: &str) -> Result<Seat, ApiError> {
    match human.to_ascii_lowercase().as_str() {
        "white" | "first" => Ok(Seat::First),
        "black" | "second" => Ok(Seat::Second),
        "both" => Ok(Seat::Both),
        _ => Err(ApiError::bad_request(format!(
            "human {} is not white, black or both",
            quote(human)
        ))),
    }
}

/// `POST /api/load`: a game from a record.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Load {
    /// A one-line record (`<size> <moves...>`) or SGF.
    pub record: String,
    time_ms: Option<u64>,
    human: Option<String>,
}

impl Load {
    /// The engine's time per move and who the human plays (both sides unless said).
    pub(crate) fn time_and_seat(&self) -> Result<(Duration, Seat), ApiError> {
        Ok((
            time(self.time_ms)?,
            seat(self.human.as_deref().unwrap_or("both"))?,
        ))
    }
}

/// `POST /api/games/{id}/move`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct PlayMove {
    /// The move: a cell such as `c3`, or `swap`.
    #[serde(rename = "move")]
    pub mv: String,
}

/// `POST /api/games/{id}/analyse`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Analyse {
    /// Start (true) or stop (false) analysing the shown position.
    pub on: bool,
}

/// `POST /api/games/{id}/goto`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Goto {
    /// How many moves of the game's line to show.
    pub ply: u64,
}

/// A request without fields (`{}` or an empty body).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Empty {}
