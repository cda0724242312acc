//! The `havannah serve` API driven through its router (no socket): every refused request is
//! a 4xx with a JSON message, games do not interfere, a whole game can be played, loaded,
//! stepped through and analysed.

mod serve_common;

use std::time::Duration;

use axum::Router;
use axum::http::StatusCode;
use havannah::EngineConfig;
use havannah_cli::serve::{AppState, Limits, router};
use havannah_rules::Move;
use havannah_rules::Record;
use serde_json::{Value, json};
use serve_common::{
    block_on, first_empty, id_of, moves, new_game, send, send_raw, stones, wait_for, wait_idle,
};

fn served(limits: Limits) -> (Router, AppState) {
    let state = AppState::new(limits.with_slice(Duration::from_millis(40)));
    (router(state.clone()), state)
}

fn default_app() -> Router {
    served(Limits::default()).0
}

/// A game in which the human plays both sides: the engine moves only when asked.
fn both(size: u64) -> Value {
    json!({ "size": size, "human": "both", "pie": false, "time_ms": 50 })
}

#[test]
fn the_page_and_its_files_are_served() {
    block_on(async {
        let app = default_app();
        let page = send(&app, "GET", "/", None).await;
        assert_eq!(page.status, StatusCode::OK);
        assert!(
            page.content_type.starts_with("text/html"),
            "{}",
            page.content_type
        );
        assert!(page.text.contains("<svg id=\"board\""), "{}", page.text);
        let script = send(&app, "GET", "/app.js", None).await;
        assert!(script.content_type.starts_with("text/javascript"));
        assert!(script.text.contains("/api/games"));
        let style = send(&app, "GET", "/style.css", None).await;
        assert!(style.content_type.starts_with("text/css"));
    });
}

#[test]
fn a_new_game_has_the_settings_asked_for() {
    block_on(async {
        let app = default_app();
        let view = new_game(&app, json!({ "size": 5, "human": "white", "pie": false })).await;
        assert_eq!(view["size"], 5);
        assert_eq!(view["pie"], false);
        assert_eq!(view["human"], "white");
        assert_eq!(view["engine"], "black");
        assert_eq!(view["human_to_move"], true);
        assert_eq!(view["cells"].as_array().map(Vec::len), Some(61));
        assert_eq!(moves(&view).len(), 0);
        // Defaults: size 8, the pie rule on, the human White.
        let view = new_game(&app, json!({})).await;
        assert_eq!(
            (view["size"].clone(), view["pie"].clone()),
            (json!(8), json!(true))
        );
        let empty_body = send_raw(&app, "POST", "/api/games", Vec::new()).await;
        assert_eq!(
            empty_body.status,
            StatusCode::CREATED,
            "{}",
            empty_body.text
        );
    });
}

#[test]
fn malformed_bodies_are_400_with_a_json_message() {
    block_on(async {
        let app = default_app();
        for body in [
            "{",
            "[1, 2]",
            "\"size\"",
            "{\"size\": \"big\"}",
            "{\"colour\": \"white\"}",
            "\u{0}",
        ] {
            let reply = send_raw(&app, "POST", "/api/games", body.as_bytes().to_vec()).await;
            assert_eq!(
                reply.status,
                StatusCode::BAD_REQUEST,
                "{body:?}: {}",
                reply.text
            );
            assert!(
                reply.error().contains("JSON"),
                "{body:?}: {}",
                reply.error()
            );
        }
        let id = id_of(&new_game(&app, both(4)).await);
        let reply = send_raw(
            &app,
            "POST",
            &format!("/api/games/{id}/move"),
            b"{\"move\": 3}".to_vec(),
        )
        .await;
        assert_eq!(reply.status, StatusCode::BAD_REQUEST);
        reply.error();
    });
}

#[test]
fn values_out_of_range_are_400_and_named() {
    block_on(async {
        let app = default_app();
        for (body, named) in [
            (json!({ "size": 3 }), "size 3"),
            (json!({ "size": 11 }), "size 11"),
            (json!({ "size": 1000 }), "size 1000"),
            (json!({ "time_ms": 0 }), "time_ms 0"),
            (json!({ "time_ms": 3_600_000 }), "time_ms 3600000"),
            (json!({ "human": "red" }), "\"red\""),
        ] {
            let reply = send(&app, "POST", "/api/games", Some(body.clone())).await;
            assert_eq!(
                reply.status,
                StatusCode::BAD_REQUEST,
                "{body}: {}",
                reply.text
            );
            assert!(reply.error().contains(named), "{body}: {}", reply.error());
        }
        let id = id_of(&new_game(&app, both(4)).await);
        let reply = send(
            &app,
            "POST",
            &format!("/api/games/{id}/goto"),
            Some(json!({ "ply": 5 })),
        )
        .await;
        assert_eq!(reply.status, StatusCode::BAD_REQUEST);
        assert!(reply.error().contains("ply 5"), "{}", reply.error());
    });
}

#[test]
fn unknown_games_paths_and_methods_are_404_and_405() {
    block_on(async {
        let app = default_app();
        for (method, uri) in [
            ("GET", "/api/games/0123456789abcdef"),
            ("DELETE", "/api/games/nope"),
            ("POST", "/api/games/nope/move"),
            ("POST", "/api/games/nope/undo"),
        ] {
            let body = (method == "POST").then(|| json!({ "move": "a1" }));
            let reply = send(&app, method, uri, body).await;
            assert_eq!(
                reply.status,
                StatusCode::NOT_FOUND,
                "{method} {uri}: {}",
                reply.text
            );
            assert!(reply.error().contains("no game"), "{}", reply.error());
        }
        let reply = send(&app, "GET", "/nowhere", None).await;
        assert_eq!(reply.status, StatusCode::NOT_FOUND);
        assert!(reply.error().contains("/nowhere"));
        let reply = send(&app, "PUT", "/api/games", None).await;
        assert_eq!(reply.status, StatusCode::METHOD_NOT_ALLOWED);
        assert!(reply.error().contains("PUT"), "{}", reply.error());
        let reply = send(&app, "GET", "/api/games/%FF%FE", None).await;
        assert!(reply.status.is_client_error(), "{}", reply.status);
        reply.error();
    });
}

#[test]
fn over_long_bodies_are_413() {
    block_on(async {
        let (app, state) = served(Limits::default());
        let limit = state.limits().max_body;
        let record = format!("{{\"record\": \"{}\"}}", "a".repeat(limit));
        let reply = send_raw(&app, "POST", "/api/load", record.into_bytes()).await;
        assert_eq!(
            reply.status,
            StatusCode::PAYLOAD_TOO_LARGE,
            "{}",
            reply.text
        );
        reply.error();
        let id = id_of(&new_game(&app, both(4)).await);
        let body = format!("{{\"move\": \"{}\"}}", " ".repeat(limit + 1)).into_bytes();
        let reply = send_raw(&app, "POST", &format!("/api/games/{id}/move"), body).await;
        assert_eq!(reply.status, StatusCode::PAYLOAD_TOO_LARGE);
        reply.error();
    });
}

#[test]
fn illegal_moves_are_refused_and_change_nothing() {
    block_on(async {
        let app = default_app();
        let id = id_of(&new_game(&app, both(4)).await);
        let path = format!("/api/games/{id}/move");
        let reply = send(&app, "POST", &path, Some(json!({ "move": "z99" }))).await;
        assert_eq!(reply.status, StatusCode::BAD_REQUEST);
        assert!(reply.error().contains("z99"), "{}", reply.error());
        let view = send(&app, "POST", &path, Some(json!({ "move": "d4" })))
            .await
            .json();
        assert_eq!(moves(&view), ["d4"]);
        for (mv, why) in [("d4", "occupied"), ("swap", "pie rule is off")] {
            let reply = send(&app, "POST", &path, Some(json!({ "move": mv }))).await;
            assert_eq!(reply.status, StatusCode::CONFLICT, "{mv}: {}", reply.text);
            assert!(reply.error().contains(why), "{mv}: {}", reply.error());
        }
        let view = send(&app, "GET", &format!("/api/games/{id}"), None)
            .await
            .json();
        assert_eq!(moves(&view), ["d4"]);
    });
}

#[test]
fn out_of_turn_moves_are_409() {
    block_on(async {
        let app = default_app();
        // The engine moves first and thinks for 5 s: the human must wait.
        let view = new_game(
            &app,
            json!({ "size": 4, "human": "black", "time_ms": 5000 }),
        )
        .await;
        assert_eq!(view["status"], "thinking");
        assert_eq!(view["human_to_move"], false);
        let id = id_of(&view);
        let reply = send(
            &app,
            "POST",
            &format!("/api/games/{id}/move"),
            Some(json!({ "move": "a1" })),
        )
        .await;
        assert_eq!(reply.status, StatusCode::CONFLICT);
        assert!(reply.error().contains("thinking"), "{}", reply.error());
        let reply = send(
            &app,
            "POST",
            &format!("/api/games/{id}/analyse"),
            Some(json!({ "on": true })),
        )
        .await;
        assert_eq!(reply.status, StatusCode::CONFLICT);
        assert_eq!(
            send(&app, "DELETE", &format!("/api/games/{id}"), None)
                .await
                .status,
            StatusCode::OK
        );
        // Stepped back to a position where the engine is to move, the human may not move.
        let id = id_of(&new_game(&app, json!({ "size": 4, "pie": false, "time_ms": 50 })).await);
        send(
            &app,
            "POST",
            &format!("/api/games/{id}/move"),
            Some(json!({ "move": "a1" })),
        )
        .await;
        let view = wait_idle(&app, &id).await;
        assert_eq!(moves(&view).len(), 2);
        let view = send(
            &app,
            "POST",
            &format!("/api/games/{id}/goto"),
            Some(json!({ "ply": 1 })),
        )
        .await
        .json();
        assert_eq!(
            (view["status"].clone(), view["human_to_move"].clone()),
            (json!("idle"), json!(false))
        );
        let reply = send(
            &app,
            "POST",
            &format!("/api/games/{id}/move"),
            Some(json!({ "move": "g7" })),
        )
        .await;
        assert_eq!(reply.status, StatusCode::CONFLICT);
        assert!(reply.error().contains("engine's turn"), "{}", reply.error());
    });
}

#[test]
fn a_finished_game_refuses_moves_resignation_and_analysis() {
    block_on(async {
        let app = default_app();
        let id = id_of(&new_game(&app, both(4)).await);
        let view = send(&app, "POST", &format!("/api/games/{id}/resign"), None)
            .await
            .json();
        assert_eq!(view["result"]["kinds"], "resignation");
        assert_eq!(view["result"]["winner"], "black");
        for (action, body) in [
            ("move", json!({ "move": "a1" })),
            ("resign", json!({})),
            ("engine", json!({})),
            ("analyse", json!({ "on": true })),
        ] {
            let reply = send(
                &app,
                "POST",
                &format!("/api/games/{id}/{action}"),
                Some(body),
            )
            .await;
            assert_eq!(
                reply.status,
                StatusCode::CONFLICT,
                "{action}: {}",
                reply.text
            );
            assert!(
                reply.error().contains("over"),
                "{action}: {}",
                reply.error()
            );
        }
        let reply = send(&app, "POST", &format!("/api/games/{id}/undo"), None).await;
        assert_eq!(reply.status, StatusCode::CONFLICT);
        assert!(
            reply.error().contains("nothing to undo"),
            "{}",
            reply.error()
        );
    });
}

#[test]
fn games_beyond_the_cap_are_429_until_one_is_freed() {
    block_on(async {
        let (app, state) = served(Limits::default().with_max_games(2));
        let first = id_of(&new_game(&app, both(4)).await);
        new_game(&app, both(4)).await;
        let reply = send(&app, "POST", "/api/games", Some(both(4))).await;
        assert_eq!(reply.status, StatusCode::TOO_MANY_REQUESTS);
        assert!(reply.error().contains('2'), "{}", reply.error());
        let reply = send(&app, "POST", "/api/load", Some(json!({ "record": "4 a1" }))).await;
        assert_eq!(reply.status, StatusCode::TOO_MANY_REQUESTS);
        assert_eq!(state.games(), 2);
        send(&app, "DELETE", &format!("/api/games/{first}"), None).await;
        new_game(&app, both(4)).await;
    });
}

#[test]
fn idle_games_are_freed_and_others_kept() {
    block_on(async {
        let (app, state) = served(Limits::default().with_idle_timeout(Duration::ZERO));
        let id = id_of(&new_game(&app, both(4)).await);
        assert_eq!(state.reap_idle(), 1);
        let reply = send(&app, "GET", &format!("/api/games/{id}"), None).await;
        assert_eq!(reply.status, StatusCode::NOT_FOUND);
        let (app, state) = served(Limits::default());
        let id = id_of(&new_game(&app, both(4)).await);
        assert_eq!(state.reap_idle(), 0);
        assert_eq!(
            send(&app, "GET", &format!("/api/games/{id}"), None)
                .await
                .status,
            StatusCode::OK
        );
    });
}

#[test]
fn two_games_do_not_interfere() {
    block_on(async {
        let app = default_app();
        let a = id_of(&new_game(&app, both(4)).await);
        let b = id_of(&new_game(&app, both(6)).await);
        assert_ne!(a, b);
        for mv in ["a1", "d4", "b1"] {
            send(
                &app,
                "POST",
                &format!("/api/games/{a}/move"),
                Some(json!({ "move": mv })),
            )
            .await;
        }
        send(
            &app,
            "POST",
            &format!("/api/games/{b}/move"),
            Some(json!({ "move": "f6" })),
        )
        .await;
        let view_a = send(&app, "GET", &format!("/api/games/{a}"), None)
            .await
            .json();
        let view_b = send(&app, "GET", &format!("/api/games/{b}"), None)
            .await
            .json();
        assert_eq!(moves(&view_a), ["a1", "d4", "b1"]);
        assert_eq!(moves(&view_b), ["f6"]);
        assert_eq!(
            (view_a["size"].clone(), view_b["size"].clone()),
            (json!(4), json!(6))
        );
        send(&app, "DELETE", &format!("/api/games/{a}"), None).await;
        let view_b = send(&app, "GET", &format!("/api/games/{b}"), None).await;
        assert_eq!(view_b.status, StatusCode::OK);
    });
}

/// Plays a size-4 game as White by always taking the first empty cell; the final view and
/// the most simulations a search of the engine's showed.
async fn play_whole_game(app: &Router, id: &str) -> (Value, u64) {
    let mut most = 0;
    for _ in 0..40 {
        let view = wait_idle(app, id).await;
        let plies = moves(&view).len();
        if plies > 0 && plies.is_multiple_of(2) && view["result"].is_null() {
            // The engine has just moved: the statistics of its search stay on show.
            assert_eq!(view["analysis"]["kind"], "move", "{view}");
            assert_eq!(view["analysis"]["ply"].as_u64(), Some(plies as u64 - 1));
            most = most.max(
                view["analysis"]["simulations"]
                    .as_u64()
                    .expect("simulations"),
            );
        }
        if !view["result"].is_null() {
            return (view, most);
        }
        assert_eq!(view["human_to_move"], true, "{view}");
        let mv = first_empty(&view);
        let reply = send(
            app,
            "POST",
            &format!("/api/games/{id}/move"),
            Some(json!({ "move": mv })),
        )
        .await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    }
    panic!("a size-4 game has at most 37 moves");
}

#[test]
fn a_whole_game_against_the_engine() {
    block_on(async {
        let app = default_app();
        let id = id_of(&new_game(&app, json!({ "size": 4, "pie": false, "time_ms": 60 })).await);
        let (view, most_simulations) = play_whole_game(&app, &id).await;
        assert!(most_simulations > 0);
        let result = &view["result"];
        let played = moves(&view);
        assert_eq!(stones(&view), played.len());
        assert_eq!(view["line"].as_array().map(Vec::len), Some(played.len()));
        // The record the page saves replays to the same ending.
        let record =
            Record::parse_line(view["record"].as_str().expect("a record"), 1).expect("a record");
        let game = record.replay().expect("a legal game");
        assert_eq!(game.moves().len(), played.len());
        assert_eq!(
            Some(game.outcome().result_name()),
            result["winner"].as_str().or(Some("draw"))
        );
        if game.outcome().winner().is_some() {
            let chain = result["chain"].as_array().expect("a chain");
            assert!(chain.len() >= 2, "{result}");
            assert_eq!(result["kinds"], game.outcome().kinds().to_string());
            assert!(result["text"].as_str().expect("a text").contains("wins"));
        }
    });
}

#[test]
fn undo_takes_back_the_humans_move_and_the_engines_answer() {
    block_on(async {
        let app = default_app();
        let id = id_of(&new_game(&app, json!({ "size": 4, "pie": false, "time_ms": 50 })).await);
        let reply = send(&app, "POST", &format!("/api/games/{id}/undo"), None).await;
        assert_eq!(reply.status, StatusCode::CONFLICT);
        send(
            &app,
            "POST",
            &format!("/api/games/{id}/move"),
            Some(json!({ "move": "d4" })),
        )
        .await;
        assert_eq!(moves(&wait_idle(&app, &id).await).len(), 2);
        let view = send(&app, "POST", &format!("/api/games/{id}/undo"), None)
            .await
            .json();
        assert_eq!(moves(&view).len(), 0);
        assert_eq!(view["line"].as_array().map(Vec::len), Some(0));
        assert_eq!(view["human_to_move"], true);
    });
}

#[test]
fn records_and_sgf_load_and_step_through() {
    block_on(async {
        let app = default_app();
        let line = "4 a1 g7 b1 g6 c1 g5 d1";
        let reply = send(&app, "POST", "/api/load", Some(json!({ "record": line }))).await;
        assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text);
        let view = reply.json();
        assert_eq!(view["result"]["winner"], "white");
        assert_eq!(view["result"]["kinds"], "bridge");
        let mut chain: Vec<&str> = view["result"]["chain"]
            .as_array()
            .expect("a chain")
            .iter()
            .filter_map(Value::as_str)
            .collect();
        chain.sort_unstable();
        assert_eq!(chain, ["a1", "b1", "c1", "d1"]);
        assert_eq!(view["record"], line);
        let sgf = view["sgf"].as_str().expect("SGF").to_string();
        let id = id_of(&view);
        let view = send(
            &app,
            "POST",
            &format!("/api/games/{id}/goto"),
            Some(json!({ "ply": 3 })),
        )
        .await
        .json();
        assert_eq!(moves(&view), ["a1", "g7", "b1"]);
        assert_eq!(view["line"].as_array().map(Vec::len), Some(7));
        assert!(view["result"].is_null());
        assert_eq!(stones(&view), 3);
        let from_sgf = send(&app, "POST", "/api/load", Some(json!({ "record": sgf })))
            .await
            .json();
        assert_eq!(from_sgf["record"], line);
        for bad in ["3 a1", "4 a1 a1", "4 zz", "(;FF[4]GM[chess]SZ[4])", ""] {
            let reply = send(&app, "POST", "/api/load", Some(json!({ "record": bad }))).await;
            assert_eq!(
                reply.status,
                StatusCode::BAD_REQUEST,
                "{bad:?}: {}",
                reply.text
            );
            reply.error();
        }
    });
}

#[test]
fn analysis_publishes_statistics_within_the_memory_cap() {
    block_on(async {
        let memory = 1 << 20;
        let (app, _) = served(Limits::default().with_game_memory(memory));
        let id = id_of(&new_game(&app, both(5)).await);
        send(
            &app,
            "POST",
            &format!("/api/games/{id}/move"),
            Some(json!({ "move": "e5" })),
        )
        .await;
        let view = send(
            &app,
            "POST",
            &format!("/api/games/{id}/analyse"),
            Some(json!({ "on": true })),
        )
        .await
        .json();
        assert_eq!(view["status"], "analysing");
        let view = wait_for(&app, &id, |v| {
            v["analysis"]["simulations"].as_u64() > Some(1000)
        })
        .await;
        let analysis = &view["analysis"];
        assert_eq!(analysis["ply"], 1);
        assert_eq!(analysis["to_move"], "black");
        assert!(!analysis["pv"].as_array().expect("a pv").is_empty());
        let candidates = analysis["candidates"].as_array().expect("candidates");
        let shares: f64 = candidates.iter().filter_map(|c| c["share"].as_f64()).sum();
        assert!(shares > 0.5 && shares <= 1.0 + 1e-9, "{shares}");
        assert!(candidates.iter().all(|c| c["move"] != "e5"));
        let win_rate = analysis["win_rate"].as_f64().expect("a win rate");
        assert!((0.0..=1.0).contains(&win_rate));
        // The tree stays within the game's memory.
        let config = EngineConfig::best();
        let budget = analysis["node_budget"].as_u64().expect("a budget") as usize;
        assert!(budget * rave_mcts::bytes_per_node::<Move>(&config.search) <= memory);
        assert!(analysis["tree_nodes"].as_u64() <= Some(budget as u64));
        let view = send(
            &app,
            "POST",
            &format!("/api/games/{id}/analyse"),
            Some(json!({ "on": false })),
        )
        .await
        .json();
        assert_eq!(view["status"], "idle");
        // Asked for, the engine moves for the side to move.
        send(&app, "POST", &format!("/api/games/{id}/engine"), None).await;
        let view = wait_idle(&app, &id).await;
        assert_eq!(moves(&view).len(), 2);
    });
}

#[test]
fn a_swap_changes_the_colours_of_the_seats() {
    block_on(async {
        let app = default_app();
        let view = new_game(
            &app,
            json!({ "size": 4, "human": "black", "pie": true, "time_ms": 50 }),
        )
        .await;
        assert_eq!(view["can_swap"], false);
        let id = id_of(&view);
        let view = wait_idle(&app, &id).await;
        assert_eq!(moves(&view).len(), 1);
        assert_eq!(view["can_swap"], true);
        assert_eq!(
            (view["human"].clone(), view["engine"].clone()),
            (json!("black"), json!("white"))
        );
        let view = send(
            &app,
            "POST",
            &format!("/api/games/{id}/move"),
            Some(json!({ "move": "swap" })),
        )
        .await
        .json();
        // The human took White's stone; Black (the engine, the first player) moves next.
        assert_eq!(
            (view["human"].clone(), view["engine"].clone()),
            (json!("white"), json!("black"))
        );
        assert_eq!(view["can_swap"], false);
        let view = wait_idle(&app, &id).await;
        assert_eq!(moves(&view).len(), 3);
        assert_eq!(moves(&view)[1], "swap");
        assert_eq!(view["human_to_move"], true);
    });
}

/// Plays `moves` in game `id`, each of them accepted.
async fn play_all(app: &Router, id: &str, moves: &[&str]) {
    for mv in moves {
        let uri = format!("/api/games/{id}/move");
        let reply = send(app, "POST", &uri, Some(json!({ "move": mv }))).await;
        assert_eq!(reply.status, StatusCode::OK, "{mv}: {}", reply.text);
    }
}

/// Starts analysing game `id` and waits until the analysis of ply `ply` proves the position.
async fn proven_at(app: &Router, id: &str, ply: u64) -> Value {
    let uri = format!("/api/games/{id}/analyse");
    send(app, "POST", &uri, Some(json!({ "on": true }))).await;
    wait_for(app, id, |v| {
        v["analysis"]["ply"] == ply && v["analysis"]["proven"].is_string()
    })
    .await
}

#[test]
fn a_proof_after_followed_moves_is_for_the_side_to_move() {
    block_on(async {
        let app = default_app();
        let id = id_of(&new_game(&app, both(4)).await);
        // Size 4, Black to move and winning.
        play_all(&app, &id, &["a1", "g4", "b1", "d1", "c1", "e3", "a2"]).await;
        let view = proven_at(&app, &id, 7).await;
        assert_eq!(view["analysis"]["proven"], "win", "{view}");
        // The engine follows Black's f4 and White's b2 in its tree; Black wins at once at d2.
        play_all(&app, &id, &["f4", "b2"]).await;
        let view = proven_at(&app, &id, 9).await;
        assert_eq!(view["analysis"]["to_move"], "black", "{view}");
        assert_eq!(view["analysis"]["proven"], "win", "{view}");
        assert_eq!(view["analysis"]["pv"][0], "d2", "{view}");
    });
}
