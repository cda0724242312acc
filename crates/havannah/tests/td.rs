//! Integration tests of the engine's value network: weights files and evaluation (the
//! training's tests are in `crates/havannah-td/tests/training.rs`).

use std::path::PathBuf;

use havannah::board::Board;
use havannah::rules::{Position, RingDetection};
use havannah::td::{TdError, ValueNet};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

/// A fresh folder for this test's files, emptied first (an earlier run may have had our id).
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("havannah-td-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn random_net(size: u8, hidden: usize, seed: u64) -> ValueNet {
    ValueNet::new(size, hidden, &mut Pcg64Mcg::seed_from_u64(seed)).unwrap()
}

fn position(size: u8, moves: &[&str]) -> Position {
    let board = Board::new(size).unwrap();
    let mut pos = Position::new(board, RingDetection::Online);
    for m in moves {
        assert!(pos.place(board.parse_cell(m).unwrap()).is_empty());
    }
    pos
}

#[test]
fn save_load_round_trip_is_exact() {
    let dir = temp_dir("round-trip");
    let net = &random_net(3, 24, 5);
    let path = dir.join("w.json");
    net.save(&path).unwrap();
    let loaded = ValueNet::load_for(&path, 3).unwrap();
    assert_eq!(&loaded, net);
    let pos = position(3, &["b2", "c3", "a1"]);
    assert_eq!(loaded.evaluate(&pos), net.evaluate(&pos));
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn wrong_size_is_an_error_naming_the_file() {
    let dir = temp_dir("wrong-size");
    let path = dir.join("size4.json");
    random_net(4, 8, 1).save(&path).unwrap();
    let err = ValueNet::load_for(&path, 5).unwrap_err();
    assert!(
        matches!(
            err,
            TdError::SizeMismatch {
                expected: 5,
                found: 4,
                ..
            }
        ),
        "{err:?}"
    );
    let text = err.to_string();
    assert!(
        text.contains("size4.json") && text.contains('4') && text.contains('5'),
        "{text}"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn corrupt_files_are_errors_naming_the_file() {
    let dir = temp_dir("corrupt");
    let good = dir.join("good.json");
    random_net(3, 5, 2).save(&good).unwrap();
    let text = std::fs::read_to_string(&good).unwrap();
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();

    let write = |name: &str, content: &str| {
        let p = dir.join(name);
        std::fs::write(&p, content).unwrap();
        p
    };
    let modified = |f: &dyn Fn(&mut serde_json::Value)| {
        let mut v = value.clone();
        f(&mut v);
        serde_json::to_string(&v).unwrap()
    };

    // Not JSON, truncated JSON, empty file, JSON of another shape: parse errors.
    for (name, content) in [
        ("garbage.json", "\u{1}\u{2} not json".to_owned()),
        ("truncated.json", text[..text.len() / 2].to_owned()),
        ("empty.json", String::new()),
        ("other.json", "{\"hello\": 1}".to_owned()),
    ] {
        let p = write(name, &content);
        let err = ValueNet::load(&p).unwrap_err();
        assert!(matches!(err, TdError::Parse { .. }), "{name}: {err:?}");
        assert!(err.to_string().contains(name), "{err}");
    }
    // Parses, but inconsistent: format errors.
    let cases: Vec<(&str, String)> = vec![
        (
            "version.json",
            modified(&|v| v["version"] = serde_json::json!(99)),
        ),
        (
            "format.json",
            modified(&|v| v["format"] = serde_json::json!("something-else")),
        ),
        (
            "short-w1.json",
            modified(&|v| {
                v["w1"].as_array_mut().unwrap().pop();
            }),
        ),
        (
            "layers.json",
            modified(&|v| v["layers"] = serde_json::json!([20, 6, 1])),
        ),
        (
            "size.json",
            modified(&|v| v["board_size"] = serde_json::json!(4)),
        ),
        (
            "bad-size.json",
            modified(&|v| v["board_size"] = serde_json::json!(40)),
        ),
        (
            "outputs.json",
            modified(&|v| v["layers"] = serde_json::json!([20, 5, 2])),
        ),
        (
            // Finite, but +inf and -inf partial sums in `evaluate` would make NaN.
            "huge-w2.json",
            modified(&|v| {
                let w2 = v["w2"].as_array_mut().unwrap();
                w2[0] = serde_json::json!(3.0e38);
                w2[1] = serde_json::json!(-3.0e38);
            }),
        ),
    ];
    for (name, content) in cases {
        let p = write(name, &content);
        let err = ValueNet::load(&p).unwrap_err();
        assert!(matches!(err, TdError::Format { .. }), "{name}: {err:?}");
        assert!(err.to_string().contains(name), "{err}");
    }
    // A missing file: an IO error naming it.
    let missing = dir.join("missing.json");
    let err = ValueNet::load(&missing).unwrap_err();
    assert!(matches!(err, TdError::Io { .. }), "{err:?}");
    assert!(err.to_string().contains("missing.json"));
    // The untouched file still loads.
    assert!(ValueNet::load_for(&good, 3).is_ok());
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn evaluate_is_a_value_in_range_for_every_position_of_a_game() {
    let net = random_net(5, 40, 3);
    let board = net.board();
    let mut pos = Position::new(board, RingDetection::Online);
    let mut rng = Pcg64Mcg::seed_from_u64(9);
    while pos.win().is_none() && !pos.is_full() {
        let v = net.evaluate(&pos);
        assert!((-1.0..=1.0).contains(&v), "{v}");
        let empty: Vec<_> = board.cells().filter(|&c| pos.is_empty(c)).collect();
        let cell = empty[rand::RngExt::random_range(&mut rng, 0..empty.len())];
        pos.place(cell);
    }
}
