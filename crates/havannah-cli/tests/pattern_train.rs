//! `havannah pattern-train`: fits weights to records, writes a file the library reads, and
//! names the file and line of a bad record.

use std::path::PathBuf;
use std::process::Command;

use havannah::patterns::PatternWeights;

fn dir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn train(records: &[PathBuf], out: &PathBuf, extra: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_havannah"))
        .arg("pattern-train")
        .arg("--quiet")
        .arg("--out")
        .arg(out)
        .args(extra)
        .args(records)
        .output()
        .unwrap()
}

#[test]
fn random_games_judged_by_openspiel_train_a_readable_file() {
    // Games of random moves: their shapes say little, but every record must be read, fitted,
    // and written as a file the library loads.
    let records = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../havannah-rules/tests/fixtures/openspiel_s8.txt");
    let out = dir("pattern-train-random").join("weights.txt");
    let run = train(&[records], &out, &["--iterations", "5", "--min-count", "1"]);
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(
        stdout.contains("held out") && stdout.contains("Wrote"),
        "{stdout}"
    );
    let weights = PatternWeights::load(&out).unwrap();
    assert!(!weights.shapes().is_empty());
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(
        text.lines().nth(1).unwrap().starts_with("# made by: "),
        "{text}"
    );
}

#[test]
fn a_bad_record_names_its_file_and_line() {
    let d = dir("pattern-train-bad");
    let records = d.join("games.txt");
    std::fs::write(&records, "# two games\n8 h8 g7 i9\n8 h8 h8\n").unwrap();
    let out = d.join("weights.txt");
    let run = train(&[records], &out, &[]);
    assert_eq!(run.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(
        stderr.contains("games.txt line 3") && stderr.contains("h8"),
        "{stderr}"
    );
    assert!(!out.exists(), "no file is written after an error");
    let missing = d.join("missing.txt");
    let run = train(&[missing], &out, &[]);
    assert_eq!(run.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&run.stderr).contains("missing.txt"));
}
