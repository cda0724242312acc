//! Reading and writing cell names, and board-size errors.

use havannah_board::{Board, BoardError, MAX_SIZE, MIN_SIZE};

#[test]
fn every_name_round_trips() {
    for size in MIN_SIZE..=MAX_SIZE {
        let b = Board::new(size).unwrap();
        for c in b.cells() {
            let name = b.cell_name(c);
            let text = name.to_string();
            let (x, y) = b.xy(c);
            let expect = format!("{}{}", char::from(b'a' + x), u32::from(y) + 1);
            assert_eq!(text, expect);
            assert_eq!(name.letter(), char::from(b'a' + x));
            assert_eq!(name.number(), y + 1);
            assert_eq!(b.parse_cell(&text), Ok(c));
            assert_eq!(b.parse_cell(&text.to_uppercase()), Ok(c));
        }
    }
}

#[test]
fn size_8_names() {
    let b = Board::new(8).unwrap();
    let at = |t: &str| b.xy(b.parse_cell(t).unwrap());
    assert_eq!(at("a1"), (0, 0));
    assert_eq!(at("h1"), (7, 0));
    assert_eq!(at("o8"), (14, 7));
    assert_eq!(at("o15"), (14, 14));
    assert_eq!(at("h15"), (7, 14));
    assert_eq!(at("a8"), (0, 7));
    assert_eq!(at("h8"), (7, 7));
    assert_eq!(at("H8"), (7, 7));
}

#[test]
fn bad_texts_are_errors_that_name_the_text() {
    let b = Board::new(8).unwrap();
    for text in [
        "", "z9", "a0", "a9", "h", "8h", "swap", "Swap", "h 8", " h8", "h8 ", "p1",
    ] {
        let err = b.parse_cell(text).unwrap_err();
        assert!(matches!(err, BoardError::BadCellText { .. }), "{err:?}");
        let msg = err.to_string();
        assert!(msg.contains(&format!("\"{text}\"")), "{text:?}: {msg}");
    }
    let swap = b.parse_cell("swap").unwrap_err().to_string();
    assert!(swap.contains("not a cell"), "{swap}");

    for long in ["x".repeat(10_000), format!("a{}", "1".repeat(9_999))] {
        let err = b.parse_cell(&long).unwrap_err();
        let msg = err.to_string();
        assert!(msg.contains(&long[..32]), "{msg}");
        assert!(msg.len() < 300, "message is truncated: {} bytes", msg.len());
        assert!(msg.contains("10000 bytes"), "{msg}");
    }
}

#[test]
fn bad_sizes_are_errors_that_name_the_size() {
    for size in [0u8, 1, 14, 255] {
        let err = Board::new(size).unwrap_err();
        assert_eq!(err, BoardError::InvalidSize { size });
        let msg = err.to_string();
        assert!(msg.contains(&format!("size {size}:")), "{msg}");
    }
}

#[test]
fn render_size_3_by_hand() {
    let b = Board::new(3).unwrap();
    let marks = [("a1", 'W'), ("c5", 'B'), ("e3", 'B'), ("c3", 'W')];
    let cells: Vec<_> = marks
        .iter()
        .map(|&(t, m)| (b.parse_cell(t).unwrap(), m))
        .collect();
    let text = b.render(|c| {
        cells
            .iter()
            .find(|&&(d, _)| d == c)
            .map_or('.', |&(_, m)| m)
    });
    let expect = "     a b c
   1 W . . 1
  2 . . . . 2
 3 . . W . B 3
  4 . . . . 4
   5 B . . 5
     c d e
";
    assert_eq!(text, expect);
}
