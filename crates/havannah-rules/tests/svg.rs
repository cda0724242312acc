//! SVG pictures: well-formed, one circle per stone, the winning chain highlighted, coordinates.

use std::collections::BTreeSet;

use havannah_rules::svg::{SvgOptions, position_svg};
use havannah_rules::{GameState, Outcome, Rules};
use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// A tiny XML well-formedness check: every tag closed in order, attributes quoted, no stray
/// `<` or `&` in text. Returns the names of all elements opened, in order.
fn check_xml(text: &str) -> Result<Vec<String>, String> {
    let mut stack: Vec<String> = Vec::new();
    let mut elements = Vec::new();
    let mut rest = text;
    let mut root_closed = false;
    while let Some(open) = rest.find('<') {
        let between = &rest[..open];
        check_text(between)?;
        if root_closed && !between.trim().is_empty() {
            return Err("text after the root element".into());
        }
        let close = rest[open..]
            .find('>')
            .ok_or_else(|| "unclosed tag".to_string())?
            + open;
        let tag = &rest[open + 1..close];
        if tag.contains('<') {
            return Err(format!("'<' inside tag {tag}"));
        }
        if let Some(name) = tag.strip_prefix('/') {
            let top = stack.pop().ok_or_else(|| format!("stray </{name}>"))?;
            if top != name.trim() {
                return Err(format!("</{name}> closes <{top}>"));
            }
            if stack.is_empty() {
                root_closed = true;
            }
        } else {
            if root_closed {
                return Err("second root element".into());
            }
            let self_closing = tag.ends_with('/');
            let body = tag.trim_end_matches('/');
            let name: String = body.chars().take_while(|c| !c.is_whitespace()).collect();
            if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
                return Err(format!("bad element name in <{tag}>"));
            }
            check_attributes(&body[name.len()..])?;
            elements.push(name.clone());
            if !self_closing {
                stack.push(name);
            } else if stack.is_empty() {
                root_closed = true;
            }
        }
        rest = &rest[close + 1..];
    }
    check_text(rest)?;
    if !stack.is_empty() {
        return Err(format!("unclosed elements {stack:?}"));
    }
    if !root_closed {
        return Err("no root element".into());
    }
    Ok(elements)
}

fn check_text(text: &str) -> Result<(), String> {
    let mut rest = text;
    while let Some(amp) = rest.find('&') {
        let end = rest[amp..].find(';').ok_or("bare '&'")? + amp;
        let entity = &rest[amp + 1..end];
        if !["amp", "lt", "gt", "quot", "apos"].contains(&entity) {
            return Err(format!("unknown entity &{entity};"));
        }
        rest = &rest[end + 1..];
    }
    if text.contains('>') {
        return Err("'>' in text".into());
    }
    Ok(())
}

/// `name="value"` pairs separated by whitespace.
fn check_attributes(text: &str) -> Result<(), String> {
    let mut rest = text.trim_start();
    while !rest.is_empty() {
        let eq = rest
            .find('=')
            .ok_or_else(|| format!("attribute without value: {rest}"))?;
        let name = &rest[..eq];
        if name.is_empty()
            || !name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == ':')
        {
            return Err(format!("bad attribute name {name:?}"));
        }
        let after = &rest[eq + 1..];
        let quote = after.chars().next().ok_or("missing value")?;
        if quote != '"' && quote != '\'' {
            return Err(format!("unquoted value of {name}"));
        }
        let end = after[1..].find(quote).ok_or("unterminated value")? + 1;
        check_text(&after[1..end])?;
        if after[1..end].contains('<') {
            return Err("'<' in attribute value".into());
        }
        rest = after[end + 1..].trim_start();
    }
    Ok(())
}

/// The `data-cell` values of elements whose opening tag starts with `prefix`.
fn cells_of(svg: &str, prefix: &str) -> BTreeSet<String> {
    svg.lines()
        .filter(|l| l.starts_with(prefix))
        .filter_map(|l| {
            let start = l.find("data-cell=\"")? + "data-cell=\"".len();
            let end = l[start..].find('"')? + start;
            Some(l[start..end].to_string())
        })
        .collect()
}

/// The texts of `<text class="coord" ...>X</text>` elements.
fn coordinates(svg: &str) -> Vec<String> {
    svg.lines()
        .filter(|l| l.starts_with("<text class=\"coord\""))
        .filter_map(|l| {
            let start = l.find('>')? + 1;
            let end = l.rfind("</text>")?;
            Some(l[start..end].to_string())
        })
        .collect()
}

fn bridge_game() -> GameState {
    // White: a1 b1 c1 d1 (corners a1 and d1) and the lone d4; Black: g7 g6 g5 f7.
    let mut game = GameState::new(4, Rules::default()).unwrap();
    for mv in ["a1", "g7", "b1", "g6", "d4", "g5", "c1", "f7", "d1"] {
        game.play_str(mv).unwrap();
    }
    game
}

#[test]
fn checker_rejects_broken_documents() {
    assert!(check_xml("<svg><g></svg></g>").is_err());
    assert!(check_xml("<svg><rect x=1/></svg>").is_err());
    assert!(check_xml("<svg>a & b</svg>").is_err());
    assert!(check_xml("<svg>").is_err());
    assert!(check_xml("<svg/><svg/>").is_err());
    assert_eq!(
        check_xml("<svg a=\"1\"><g><rect/></g>&lt;</svg>").unwrap(),
        ["svg", "g", "rect"]
    );
}

#[test]
fn winning_game_picture() {
    let game = bridge_game();
    let Outcome::Win { chain, .. } = game.outcome() else {
        panic!("the bridge game is won");
    };
    let svg = position_svg(&game, &SvgOptions::default());
    let elements = check_xml(&svg).unwrap();
    assert_eq!(elements[0], "svg");
    // 37 cells, 9 stones.
    assert_eq!(elements.iter().filter(|e| *e == "polygon").count(), 37);
    assert_eq!(elements.iter().filter(|e| *e == "circle").count(), 9);
    let highlighted = cells_of(&svg, "<polygon class=\"cell chain\"");
    let expected: BTreeSet<String> = chain
        .iter()
        .map(|c| game.board().cell_name(c).to_string())
        .collect();
    assert_eq!(highlighted, expected);
    assert_eq!(
        highlighted,
        ["a1", "b1", "c1", "d1"]
            .map(String::from)
            .into_iter()
            .collect()
    );
    assert_eq!(
        cells_of(&svg, "<circle class=\"stone white\""),
        ["a1", "b1", "c1", "d1", "d4"]
            .map(String::from)
            .into_iter()
            .collect()
    );
    assert_eq!(
        cells_of(&svg, "<circle class=\"stone black\""),
        ["f7", "g5", "g6", "g7"]
            .map(String::from)
            .into_iter()
            .collect()
    );
    assert_eq!(
        cells_of(&svg, "<rect class=\"last\""),
        ["d1".to_string()].into_iter().collect()
    );
    assert!(svg.contains("White wins (bridge)"));
}

#[test]
fn coordinates_on_the_margins() {
    let game = bridge_game();
    let svg = position_svg(&game, &SvgOptions::default());
    let coords = coordinates(&svg);
    // Size 4: columns a..g and rows 1..7, each at least once.
    for letter in 'a'..='g' {
        assert!(coords.contains(&letter.to_string()), "{letter} missing");
    }
    for number in 1..=7 {
        assert!(coords.contains(&number.to_string()), "{number} missing");
    }
    assert!(!coords.contains(&"h".to_string()));
    assert!(!coords.contains(&"8".to_string()));
    // Each column: a letter above; columns d..g (those reaching row 7) one below too.
    assert_eq!(coords.iter().filter(|c| c.as_str() == "a").count(), 1);
    assert_eq!(coords.iter().filter(|c| c.as_str() == "g").count(), 2);
    let mut options = SvgOptions::default();
    options.coordinates = false;
    assert!(coordinates(&position_svg(&game, &options)).is_empty());
}

#[test]
fn options_switch_marks_off() {
    let game = bridge_game();
    let mut options = SvgOptions::default();
    options.winning_chain = false;
    options.last_move = false;
    let svg = position_svg(&game, &options);
    assert!(cells_of(&svg, "<polygon class=\"cell chain\"").is_empty());
    assert!(!svg.contains("class=\"last\""));
    let numbered = position_svg(&game, &SvgOptions::default().move_numbers(true));
    check_xml(&numbered).unwrap();
    assert_eq!(numbered.matches("<text class=\"num\"").count(), 9);
    assert!(numbered.contains(">9</text>"));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn random_positions_are_well_formed(size in 2u8..=13, plies in 0usize..200, seed in any::<u64>()) {
        let mut game = GameState::new(size, Rules::default()).unwrap();
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        for _ in 0..plies {
            if game.outcome().is_over() {
                break;
            }
            let empty: Vec<_> = game.board().cells().filter(|&c| game.stone(c).is_none()).collect();
            let cell = empty[rng.random_range(0..empty.len())];
            game.play(havannah_rules::Move::Cell(cell)).unwrap();
        }
        let svg = position_svg(&game, &SvgOptions::default().move_numbers(true));
        let elements = check_xml(&svg).map_err(TestCaseError::fail)?;
        let stones = game.board().cells().filter(|&c| game.stone(c).is_some()).count();
        prop_assert_eq!(elements.iter().filter(|e| *e == "circle").count(), stones);
        prop_assert_eq!(elements.iter().filter(|e| *e == "polygon").count(), game.board().num_cells());
        let highlighted = cells_of(&svg, "<polygon class=\"cell chain\"");
        match game.outcome() {
            Outcome::Win { chain, .. } => prop_assert_eq!(highlighted.len(), chain.len()),
            _ => prop_assert!(highlighted.is_empty()),
        }
    }
}
