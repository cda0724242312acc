//! Cell names (`h8`) on every board size from 2 to 10: parsing never panics, and a parsed cell
//! is named by text that parses back to it (also upper-cased). The same text as a move
//! (`swap` included) must agree with the cell parser.
#![no_main]

use havannah_board::Board;
use havannah_rules::Move;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for size in 2..=10 {
        let board = Board::new(size).expect("sizes 2 to 10 are valid");
        let parsed = board.parse_cell(text);
        if let Ok(cell) = parsed {
            let name = board.cell_name(cell).to_string();
            assert_eq!(board.parse_cell(&name), Ok(cell), "size {size}: {name}");
            assert_eq!(board.parse_cell(&name.to_ascii_uppercase()), Ok(cell));
            assert!(name.eq_ignore_ascii_case(text), "{text:?} parsed as {name}");
        }
        match Move::parse(board, text) {
            Ok(Move::Cell(cell)) => assert_eq!(parsed, Ok(cell)),
            Ok(Move::Swap) => assert!(text.eq_ignore_ascii_case("swap")),
            Err(_) => assert!(parsed.is_err()),
        }
    }
});
