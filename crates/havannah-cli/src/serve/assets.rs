//! The page: plain HTML, CSS and JavaScript files embedded in the binary (no build step).

use axum::http::header;
use axum::response::IntoResponse;

const INDEX: &str = include_str!("page/index.html");
const SCRIPT: &str = include_str!("page/app.js");
const STYLE: &str = include_str!("page/style.css");

/// A file with its content type; the page is small and changes with the binary, so it is
/// not cached.
fn file(content_type: &'static str, body: &'static str) -> impl IntoResponse {
    (
        [
            (header::CONTENT_TYPE, content_type),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
}

pub(crate) async fn index() -> impl IntoResponse {
    file("text/html; charset=utf-8", INDEX)
}

pub(crate) async fn script() -> impl IntoResponse {
    file("text/javascript; charset=utf-8", SCRIPT)
}

pub(crate) async fn style() -> impl IntoResponse {
    file("text/css; charset=utf-8", STYLE)
}
