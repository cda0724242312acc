//! Random and malformed requests thrown at the `havannah serve` router: every answer is a
//! 2xx or a 4xx with a JSON message (never a 5xx, never a panic), and a normal game works
//! afterwards.

mod serve_common;

use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use havannah_cli::serve::{AppState, Limits, router};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use serde_json::{Value, json};
use serve_common::{block_on, first_empty, id_of, new_game, send, send_request, wait_idle};

/// The requests thrown.
const CASES: u32 = 1500;

const METHODS: &[&str] = &["GET", "POST", "DELETE", "PUT", "PATCH", "OPTIONS", "HEAD"];
const ACTIONS: &[&str] = &[
    "move",
    "undo",
    "resign",
    "engine",
    "analyse",
    "goto",
    "",
    "x",
    "move/extra",
];
const KEYS: &[&str] = &[
    "move", "size", "time_ms", "pie", "human", "on", "ply", "record", "id", "",
];

/// Percent-encodes every byte but unreserved ones and `/`, so that any bytes make a valid URI
/// (and bytes that are not UTF-8 reach the router as such).
fn encode(bytes: &[u8]) -> String {
    bytes
        .iter()
        .map(|&b| {
            if b.is_ascii_alphanumeric() || b"/-._~".contains(&b) {
                char::from(b).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

/// A method, mostly POST (what the API's actions take).
fn method() -> impl Strategy<Value = &'static str> {
    prop_oneof![6 => Just("POST"), 2 => Just("GET"), 2 => proptest::sample::select(METHODS)]
}

/// Stands in a path for the id of the game the test keeps alive.
const REAL_ID: &str = "REAL-ID";

/// A path: mostly an action on the real game, else one of the API's shapes with a random
/// id, or random bytes.
fn path() -> impl Strategy<Value = String> {
    let action = |id: String, action: &str| {
        if action.is_empty() {
            format!("/api/games/{id}")
        } else {
            format!("/api/games/{id}/{action}")
        }
    };
    let random_id = prop_oneof![
        "[0-9a-f]{16}",
        proptest::collection::vec(any::<u8>(), 0..24).prop_map(|b| encode(&b)),
    ];
    prop_oneof![
        6 => proptest::sample::select(ACTIONS).prop_map(move |a| action(REAL_ID.to_string(), a)),
        2 => (random_id.clone(), proptest::sample::select(ACTIONS)).prop_map(move |(id, a)| action(id, a)),
        1 => Just("/api/games".to_string()),
        1 => Just("/api/load".to_string()),
        1 => Just("/".to_string()),
        1 => proptest::collection::vec(any::<u8>(), 0..40).prop_map(|b| format!("/{}", encode(&b))),
        1 => random_id.prop_map(|id| format!("/api/{id}")),
    ]
}

/// A value the API might accept: a cell, `swap`, a colour, a small number, a boolean.
fn plausible() -> impl Strategy<Value = Value> {
    prop_oneof![
        "[a-h][0-9]|swap|white|black|both".prop_map(Value::String),
        (0u64..40).prop_map(|n| json!(n)),
        any::<bool>().prop_map(Value::Bool),
        "4( [a-g][1-7]){0,6}".prop_map(Value::String),
    ]
}

/// A JSON value of any shape, small.
fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        any::<f64>()
            .prop_map(|f| serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)),
        plausible(),
        ".{0,12}".prop_map(Value::String),
    ];
    leaf.prop_recursive(2, 8, 4, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            proptest::collection::vec((proptest::sample::select(KEYS), inner), 0..4).prop_map(
                |pairs| {
                    Value::Object(pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
                }
            ),
        ]
    })
}

/// An object with the API's keys.
fn object(
    values: impl Strategy<Value = Value>,
    keys: std::ops::Range<usize>,
) -> impl Strategy<Value = Vec<u8>> {
    proptest::collection::vec((proptest::sample::select(KEYS), values), keys).prop_map(|pairs| {
        let object: serde_json::Map<String, Value> =
            pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect();
        Value::Object(object).to_string().into_bytes()
    })
}

/// A body: mostly the shape of an action's body or an object with one of the API's keys
/// and a plausible value, else any JSON, random bytes, or nothing.
fn body() -> impl Strategy<Value = Vec<u8>> {
    let shaped = prop_oneof![
        "[a-h][0-9]|swap|z99".prop_map(|m| json!({ "move": m })),
        (0u64..12).prop_map(|n| json!({ "ply": n })),
        any::<bool>().prop_map(|on| json!({ "on": on })),
        Just(json!({})),
    ];
    prop_oneof![
        4 => shaped.prop_map(|v| v.to_string().into_bytes()),
        4 => object(plausible(), 1..2),
        2 => object(json_value(), 0..4),
        1 => json_value().prop_map(|v| v.to_string().into_bytes()),
        1 => proptest::collection::vec(any::<u8>(), 0..64),
        1 => Just(Vec::new()),
    ]
}

/// Whether a 2xx answer is one of the page's files rather than JSON.
fn is_page_file(method: &str, path: &str) -> bool {
    matches!(method, "GET" | "HEAD") && matches!(path, "/" | "/app.js" | "/style.css")
}

async fn check(app: &Router, method: &str, path: &str, body: Vec<u8>) -> Result<(), TestCaseError> {
    let request = Request::builder()
        .method(method)
        .uri(path)
        .body(Body::from(body))
        .map_err(|e| TestCaseError::fail(format!("the test built a bad request {path:?}: {e}")))?;
    let reply = send_request(app, request).await;
    let status = reply.status;
    prop_assert!(
        status.is_success() || status.is_client_error(),
        "{method} {path}: status {status}: {}",
        reply.text
    );
    if method == "HEAD" || (status.is_success() && is_page_file(method, path)) {
        return Ok(());
    }
    let json = reply.json();
    prop_assert!(
        json.is_object(),
        "{method} {path}: {status} without JSON: {:?}",
        reply.text
    );
    if status.is_client_error() {
        prop_assert!(
            json["error"].is_string(),
            "{method} {path}: {status}: {}",
            reply.text
        );
    }
    Ok(())
}

/// A game in which the human plays both sides (the engine moves when asked); its id.
async fn real_game(app: &Router, state: &AppState) -> String {
    // Requests may have filled the server with games: free them as the reaper would.
    state.reap_idle();
    id_of(&new_game(app, json!({ "size": 4, "human": "both" })).await)
}

#[test]
fn random_requests_never_break_the_server() {
    let state = AppState::new(
        Limits::default()
            .with_max_games(6)
            .with_slice(Duration::from_millis(20))
            .with_game_memory(8 << 20)
            .with_idle_timeout(Duration::ZERO),
    );
    let app = router(state.clone());
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let real_id = std::cell::RefCell::new(runtime.block_on(real_game(&app, &state)));
    let mut runner = TestRunner::new(Config {
        cases: CASES,
        failure_persistence: None,
        ..Config::default()
    });
    let outcome = runner.run(&(method(), path(), body()), |(method, path, body)| {
        runtime.block_on(async {
            let path = path.replace(REAL_ID, &real_id.borrow());
            check(&app, method, &path, body).await?;
            // Keep a game to act on: a request may have deleted it.
            let id = real_id.borrow().clone();
            if send(&app, "GET", &format!("/api/games/{id}"), None)
                .await
                .status
                == StatusCode::NOT_FOUND
            {
                *real_id.borrow_mut() = real_game(&app, &state).await;
            }
            Ok(())
        })
    });
    if let Err(e) = outcome {
        panic!("{e}");
    }
    // Whatever the requests did, a normal game works afterwards, once the games they left
    // are freed (the reaper would free them after the idle timeout, zero here).
    assert!(state.games() <= 6, "{} games held", state.games());
    state.reap_idle();
    assert_eq!(state.games(), 0);
    block_on(async {
        let view = new_game(&app, json!({ "size": 4, "pie": false, "time_ms": 50 })).await;
        let id = id_of(&view);
        let mv = first_empty(&view);
        let reply = send(
            &app,
            "POST",
            &format!("/api/games/{id}/move"),
            Some(json!({ "move": mv })),
        )
        .await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
        let view = wait_idle(&app, &id).await;
        assert_eq!(view["moves"].as_array().map(Vec::len), Some(2), "{view}");
    });
}
