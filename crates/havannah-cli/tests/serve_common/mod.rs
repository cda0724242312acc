//! Helpers shared by the `havannah serve` tests: requests sent to the router without a
//! socket, and waits for the engine.

#![allow(dead_code)]

use std::future::Future;
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use serde_json::Value;
use tower::ServiceExt;

/// How long a test waits for the engine before failing (a generous bound against hangs,
/// not a timing requirement).
const PATIENCE: Duration = Duration::from_secs(120);

/// Runs a future on a runtime of its own (the searches run on threads of their own).
pub fn block_on<F: Future>(future: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime")
        .block_on(future)
}

/// A response: its status, its content type and its body as text.
pub struct Reply {
    pub status: StatusCode,
    pub content_type: String,
    pub text: String,
}

impl Reply {
    /// The body as JSON (`Value::Null` when it is not JSON).
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.text).unwrap_or(Value::Null)
    }

    /// The error message of a refused request; fails unless the body is `{"error": "..."}`.
    pub fn error(&self) -> String {
        match self.json().get("error") {
            Some(Value::String(message)) => message.clone(),
            _ => panic!(
                "status {} without a JSON error: {:?}",
                self.status, self.text
            ),
        }
    }
}

/// Sends one request with a raw body.
pub async fn send_raw(app: &Router, method: &str, uri: &str, body: Vec<u8>) -> Reply {
    let request = Request::builder()
        .method(method)
        .uri(uri)
        .header("content-type", "application/json")
        .body(Body::from(body))
        .expect("a valid request");
    send_request(app, request).await
}

/// Sends a built request.
pub async fn send_request(app: &Router, request: Request<Body>) -> Reply {
    let response = app
        .clone()
        .oneshot(request)
        .await
        .expect("the router answers");
    let status = response.status();
    let content_type = response
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string();
    let bytes = axum::body::to_bytes(response.into_body(), 1 << 24)
        .await
        .expect("a readable body");
    Reply {
        status,
        content_type,
        text: String::from_utf8_lossy(&bytes).into_owned(),
    }
}

/// Sends one request with a JSON body (`None`: no body).
pub async fn send(app: &Router, method: &str, uri: &str, body: Option<Value>) -> Reply {
    let bytes = body.map(|b| b.to_string().into_bytes()).unwrap_or_default();
    send_raw(app, method, uri, bytes).await
}

/// Creates a game; fails unless the answer is 201.
pub async fn new_game(app: &Router, settings: Value) -> Value {
    let reply = send(app, "POST", "/api/games", Some(settings)).await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text);
    reply.json()
}

/// The id of a game view.
pub fn id_of(view: &Value) -> String {
    view["id"].as_str().expect("an id").to_string()
}

/// The game's view once the engine is idle (neither thinking nor analysing).
pub async fn wait_idle(app: &Router, id: &str) -> Value {
    wait_for(app, id, |view| view["status"] == "idle").await
}

/// The game's view once `done` holds of it.
pub async fn wait_for(app: &Router, id: &str, done: impl Fn(&Value) -> bool) -> Value {
    let start = Instant::now();
    loop {
        let reply = send(app, "GET", &format!("/api/games/{id}"), None).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
        let view = reply.json();
        if done(&view) {
            return view;
        }
        assert!(
            start.elapsed() < PATIENCE,
            "the game never got there: {view}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The first empty cell of a view, in the order the view lists the cells.
pub fn first_empty(view: &Value) -> String {
    view["cells"]
        .as_array()
        .expect("cells")
        .iter()
        .find(|c| c["stone"].is_null())
        .and_then(|c| c["name"].as_str())
        .expect("an empty cell")
        .to_string()
}

/// The stones on the board of a view.
pub fn stones(view: &Value) -> usize {
    view["cells"]
        .as_array()
        .expect("cells")
        .iter()
        .filter(|c| !c["stone"].is_null())
        .count()
}

/// The moves of a view's shown position.
pub fn moves(view: &Value) -> Vec<String> {
    view["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .map(|m| m.as_str().expect("a move").to_string())
        .collect()
}
