//! The router: the page's three files and the JSON API (see `docs/web.md`).

use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, PathRejection};
use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::{Method, StatusCode, Uri};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::de::DeserializeOwned;

use super::assets;
use super::error::{ApiError, quote};
use super::registry::AppState;
use super::requests::{Analyse, Empty, Goto, Load, NewGame, PlayMove, parse_body};
use super::search::ensure_worker;
use super::session::Play;
use super::view::GameView;

/// The path of a game, as the router hands it over.
type GameId = Result<Path<String>, PathRejection>;
/// A request body, read up to the body limit.
type Body = Result<Bytes, BytesRejection>;
/// A game's view, or why the request was refused.
type Answer = Result<Json<GameView>, ApiError>;

/// The server's routes over `state`: `GET /` (the page), `/app.js`, `/style.css`, and the
/// API under `/api/`. Anything else is a JSON 404 (or 405 for a known path with another
/// method); bodies over [`super::Limits::max_body`] are refused with 413.
pub fn router(state: AppState) -> Router {
    let max_body = state.limits().max_body;
    Router::new()
        .route("/", get(assets::index))
        .route("/app.js", get(assets::script))
        .route("/style.css", get(assets::style))
        .route("/api/games", post(new_game))
        .route("/api/load", post(load))
        .route("/api/games/{id}", get(show).delete(delete))
        .route("/api/games/{id}/move", post(play_move))
        .route("/api/games/{id}/undo", post(undo))
        .route("/api/games/{id}/resign", post(resign))
        .route("/api/games/{id}/engine", post(engine))
        .route("/api/games/{id}/analyse", post(analyse))
        .route("/api/games/{id}/goto", post(goto))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(max_body))
        .with_state(state)
}

async fn not_found(uri: Uri) -> ApiError {
    ApiError::not_found(format!("no such page: {}", quote(uri.path())))
}

async fn method_not_allowed(method: Method, uri: Uri) -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        format!("{method} is not allowed on {}", quote(uri.path())),
    )
}

/// The game id of a path (a malformed path, such as bad percent-encoding, is a 400).
fn game_id(id: GameId) -> Result<String, ApiError> {
    id.map(|Path(id)| id)
        .map_err(|e| ApiError::new(e.status(), format!("bad path: {}", e.body_text())))
}

/// Finds the game, parses the body, applies `action` and starts the engine if the game now
/// has a search to run.
fn act<T: DeserializeOwned>(
    state: &AppState,
    id: GameId,
    body: Body,
    action: impl FnOnce(&mut Play, T) -> Result<(), ApiError>,
) -> Answer {
    let id = game_id(id)?;
    let session = state.get(&id)?;
    let request: T = parse_body(body)?;
    let mut play = session.play();
    action(&mut play, request)?;
    ensure_worker(&session, &mut play, state.slice_limits())?;
    Ok(Json(GameView::new(&id, &play)))
}

async fn new_game(
    State(state): State<AppState>,
    body: Body,
) -> Result<(StatusCode, Json<GameView>), ApiError> {
    let request: NewGame = parse_body(body)?;
    let play = Play::new(&request.settings()?)?;
    let (id, session) = state.create(play)?;
    let view = GameView::new(&id, &session.play());
    Ok((StatusCode::CREATED, Json(view)))
}

async fn load(
    State(state): State<AppState>,
    body: Body,
) -> Result<(StatusCode, Json<GameView>), ApiError> {
    let request: Load = parse_body(body)?;
    let (time, human) = request.time_and_seat()?;
    let play = Play::load(&request.record, time, human)?;
    let (id, session) = state.create(play)?;
    let view = GameView::new(&id, &session.play());
    Ok((StatusCode::CREATED, Json(view)))
}

async fn show(State(state): State<AppState>, id: GameId) -> Answer {
    let id = game_id(id)?;
    let session = state.get(&id)?;
    let view = GameView::new(&id, &session.play());
    Ok(Json(view))
}

async fn delete(
    State(state): State<AppState>,
    id: GameId,
) -> Result<Json<serde_json::Value>, ApiError> {
    let id = game_id(id)?;
    state.remove(&id)?;
    Ok(Json(serde_json::json!({ "deleted": id })))
}

async fn play_move(State(state): State<AppState>, id: GameId, body: Body) -> Answer {
    act(&state, id, body, |play, request: PlayMove| {
        play.human_move(&request.mv)
    })
}

async fn undo(State(state): State<AppState>, id: GameId, body: Body) -> Answer {
    act(&state, id, body, |play, Empty {}| play.undo())
}

async fn resign(State(state): State<AppState>, id: GameId, body: Body) -> Answer {
    act(&state, id, body, |play, Empty {}| play.resign())
}

async fn engine(State(state): State<AppState>, id: GameId, body: Body) -> Answer {
    act(&state, id, body, |play, Empty {}| play.engine_move())
}

async fn analyse(State(state): State<AppState>, id: GameId, body: Body) -> Answer {
    act(&state, id, body, |play, request: Analyse| {
        play.analyse(request.on)
    })
}

async fn goto(State(state): State<AppState>, id: GameId, body: Body) -> Answer {
    act(&state, id, body, |play, request: Goto| {
        let ply = usize::try_from(request.ply).unwrap_or(usize::MAX);
        play.goto(ply)
    })
}
