//! The API's errors: a 4xx status and a JSON body `{"error": "..."}`.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

/// The longest piece of a request quoted back in an error message.
const QUOTE_CHARS: usize = 40;

/// A refused request: its status and the message the body carries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ApiError {
    status: StatusCode,
    message: String,
}

impl ApiError {
    /// 400: the request is malformed or a value is out of range.
    pub(crate) fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }

    /// 404: no such page or game.
    pub(crate) fn not_found(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, message)
    }

    /// 409: the request is well formed but not allowed in the game's state (an occupied
    /// cell, the engine's turn, a finished game, ...).
    pub(crate) fn conflict(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::CONFLICT, message)
    }

    /// 429: the server holds as many games as it may, or cannot start a search now.
    pub(crate) fn busy(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::TOO_MANY_REQUESTS, message)
    }

    /// Any 4xx status; anything else is taken as 400, since input never causes a 5xx.
    pub(crate) fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        let status = if status.is_client_error() {
            status
        } else {
            StatusCode::BAD_REQUEST
        };
        ApiError {
            status,
            message: message.into(),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = serde_json::json!({ "error": self.message });
        (self.status, Json(body)).into_response()
    }
}

/// `text` quoted for an error message, cut to a few dozen characters.
pub(crate) fn quote(text: &str) -> String {
    if text.chars().count() <= QUOTE_CHARS {
        format!("{text:?}")
    } else {
        let head: String = text.chars().take(QUOTE_CHARS).collect();
        format!("{head:?}...")
    }
}
