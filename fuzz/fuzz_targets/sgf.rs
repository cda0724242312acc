//! SGF game records: parsing never panics; a record that parses is written back as SGF and
//! must read back to the same record, and replaying it either works or reports an error.
#![no_main]

use havannah_rules::Record;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(record) = Record::parse_sgf(text) else {
        return;
    };
    let again = Record::parse_sgf(&record.to_sgf()).expect("our SGF parses");
    assert_eq!(again, record);
    let line = Record::parse_line(&record.to_line(), 1).expect("our one-line record parses");
    assert_eq!(line, record);
    if let Ok(game) = record.replay() {
        assert_eq!(game.moves(), &record.moves[..]);
    }
});
