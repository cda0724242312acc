//! One-line game records (`games.txt`, `replay`, the fixtures): every line of the input is
//! parsed; a record that parses is written back and must parse to the same record, and is
//! replayed; a replay that succeeds is written as a fixture line and as SGF, and both must
//! read back to the same moves.
#![no_main]

use havannah_rules::Record;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for (i, line) in text.lines().enumerate().take(64) {
        let Ok(record) = Record::parse_line(line, i + 1) else {
            continue;
        };
        let written = record.to_line();
        let again = Record::parse_line(&written, 1).expect("a written record parses");
        assert_eq!(again.size, record.size);
        assert_eq!(again.moves, record.moves);
        assert_eq!(again.result, None);
        let Ok(game) = record.replay() else {
            continue;
        };
        assert_eq!(game.moves(), &record.moves[..]);
        let fixture = Record::to_fixture_line(&game);
        let back = Record::parse_line(&fixture, 1).expect("a fixture line parses");
        assert_eq!(back.moves, record.moves);
        let replayed = back.replay().expect("a replayed game replays again");
        assert_eq!(replayed.outcome(), game.outcome());
        let sgf = Record::parse_sgf(&record.to_sgf()).expect("our SGF parses");
        assert_eq!(sgf.size, record.size);
        assert_eq!(sgf.moves, record.moves);
    }
});
