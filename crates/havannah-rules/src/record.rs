//! Game records: the one-line format `<size> <moves...>` (with an optional expected result,
//! as the fixtures write it) and SGF.

use std::fmt::Write as _;

use havannah_board::Board;

use crate::error::{RulesError, shorten};
use crate::game::GameState;
use crate::types::{Colour, Kinds, Move, Rules};

/// The result a record says its game ended with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct RecordedResult {
    /// The winning colour, or `None` for a draw.
    pub winner: Option<Colour>,
    /// The completed figures (empty for a draw).
    pub kinds: Kinds,
}

/// A game record: the board size, the moves and, optionally, the result it claims.
///
/// One-line form: `<size> <moves...>`, or with a result as in the fixtures:
/// `<size> <white|black|draw> <kinds> <moves...>`, kinds being `bridge`, `fork`, `ring`
/// joined by `+`, or `-`.
///
/// ```
/// use havannah_rules::{Kinds, Record};
///
/// let record = Record::parse_line("4 white bridge a1 g7 b1 g6 c1 g5 d1", 1)?;
/// assert_eq!(record.size, 4);
/// assert_eq!(record.moves.len(), 7);
/// let game = record.replay()?;
/// assert_eq!(game.outcome().kinds(), Kinds::BRIDGE);
/// assert_eq!(record.to_line(), "4 a1 g7 b1 g6 c1 g5 d1");
/// # Ok::<(), havannah_rules::RulesError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Record {
    /// Cells per side.
    pub size: u8,
    /// The moves, in order.
    pub moves: Vec<Move>,
    /// The result the record claims, if it states one.
    pub result: Option<RecordedResult>,
}

fn record_error(line: usize, token: &str, reason: impl Into<String>) -> RulesError {
    RulesError::Record {
        line,
        token: shorten(token),
        reason: reason.into(),
    }
}

impl Record {
    /// The record of a game (without a claimed result).
    #[must_use]
    pub fn of_game(game: &GameState) -> Record {
        Record {
            size: game.board().size(),
            moves: game.moves().to_vec(),
            result: None,
        }
    }

    /// Parses a one-line record; `line` is the line number errors report.
    ///
    /// # Errors
    /// [`RulesError::Record`] naming the line and the token: a bad size, result, kinds or move.
    pub fn parse_line(text: &str, line: usize) -> Result<Record, RulesError> {
        let mut tokens = text.split_whitespace().peekable();
        let size_token = tokens
            .next()
            .ok_or_else(|| record_error(line, "", "empty record: expected a board size"))?;
        let size: u8 = size_token
            .parse()
            .map_err(|_| record_error(line, size_token, "expected a board size"))?;
        let board = Board::new(size).map_err(|e| record_error(line, size_token, e.to_string()))?;
        let mut result = None;
        if let Some(&tok) = tokens.peek() {
            let winner = match tok.to_ascii_lowercase().as_str() {
                "white" => Some(Some(Colour::White)),
                "black" => Some(Some(Colour::Black)),
                "draw" => Some(None),
                _ => None,
            };
            if let Some(winner) = winner {
                tokens.next();
                let kinds_token = tokens
                    .next()
                    .ok_or_else(|| record_error(line, tok, "a result must be followed by kinds"))?;
                let kinds: Kinds = kinds_token.parse().map_err(|_| {
                    record_error(line, kinds_token, "expected kinds such as bridge+ring or -")
                })?;
                result = Some(RecordedResult { winner, kinds });
            }
        }
        let moves = tokens
            .map(|tok| Move::parse(board, tok).map_err(|e| record_error(line, tok, e.to_string())))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Record {
            size,
            moves,
            result,
        })
    }

    /// The one-line form `<size> <moves...>` (the claimed result is not written).
    #[must_use]
    pub fn to_line(&self) -> String {
        let board = self.board();
        let mut out = self.size.to_string();
        for mv in &self.moves {
            out.push(' ');
            out.push_str(&mv.to_notation(board));
        }
        out
    }

    /// The one-line form with the result of `game` as fixtures write it:
    /// `<size> <white|black|draw> <kinds> <moves...>` (`ongoing` never appears: it is written
    /// as the plain form).
    #[must_use]
    pub fn to_fixture_line(game: &GameState) -> String {
        let record = Record::of_game(game);
        let outcome = game.outcome();
        if !outcome.is_over() {
            return record.to_line();
        }
        let rest = record.to_line();
        let moves = rest.split_once(' ').map_or("", |(_, m)| m);
        format!(
            "{} {} {} {}",
            record.size,
            outcome.result_name(),
            outcome.kinds(),
            moves
        )
        .trim_end()
        .to_string()
    }

    fn board(&self) -> &'static Board {
        // A Record is built from a validated size; fall back to the smallest board otherwise.
        Board::new(self.size)
            .or_else(|_| Board::new(havannah_board::MIN_SIZE))
            .expect("the smallest board size is valid")
    }

    /// Replays the moves (pie rule on) and returns the game.
    ///
    /// # Errors
    /// [`RulesError::Record`] naming the move (its 1-based number as the token's position) when
    /// a move is illegal, for example after the game ended.
    pub fn replay(&self) -> Result<GameState, RulesError> {
        let mut game = GameState::new(self.size, Rules { pie: true })?;
        for (k, &mv) in self.moves.iter().enumerate() {
            game.play(mv).map_err(|e| {
                record_error(
                    1,
                    &mv.to_notation(game.board()),
                    format!("move {}: {e}", k + 1),
                )
            })?;
        }
        Ok(game)
    }

    /// The record in SGF: `(;FF[4]GM[havannah]SZ[size];W[h8];B[swap]...)`.
    #[must_use]
    pub fn to_sgf(&self) -> String {
        let board = self.board();
        let mut out = format!("(;FF[4]GM[havannah]SZ[{}]", self.size);
        // SGF names the player: White makes moves 1, 3, ... and Black 2, 4, ... (swap included).
        for (k, mv) in self.moves.iter().enumerate() {
            let player = if k % 2 == 0 { 'W' } else { 'B' };
            let _ = write!(out, ";{player}[{}]", mv.to_notation(board));
        }
        out.push(')');
        out
    }

    /// Parses an SGF game record (the main line of the first game tree).
    ///
    /// Properties other than `SZ`, `GM`, `W` and `B` are skipped. Errors name the offending
    /// property or value; `line` is reported as 1.
    ///
    /// # Errors
    /// [`RulesError::Record`] for malformed SGF, a game that is not Havannah, a missing or bad
    /// size, a bad move, or players that do not alternate.
    pub fn parse_sgf(text: &str) -> Result<Record, RulesError> {
        let props = sgf_properties(text)?;
        let mut size: Option<u8> = None;
        let mut raw_moves: Vec<(char, String)> = Vec::new();
        for (name, value) in props {
            match name.as_str() {
                "GM" if !value.eq_ignore_ascii_case("havannah") => {
                    return Err(record_error(1, &value, "GM must be havannah"));
                }
                "SZ" => {
                    let s: u8 = value
                        .trim()
                        .parse()
                        .map_err(|_| record_error(1, &value, "SZ must be a board size"))?;
                    Board::new(s).map_err(|e| record_error(1, &value, e.to_string()))?;
                    size = Some(s);
                }
                "W" | "B" => raw_moves.push((name.chars().next().unwrap_or('W'), value)),
                _ => {}
            }
        }
        let size = size.ok_or_else(|| record_error(1, "SZ", "the SGF has no board size SZ"))?;
        let board = Board::new(size)?;
        let mut moves = Vec::with_capacity(raw_moves.len());
        for (k, (player, value)) in raw_moves.into_iter().enumerate() {
            let expected = if k % 2 == 0 { 'W' } else { 'B' };
            if player != expected {
                return Err(record_error(
                    1,
                    &format!("{player}[{value}]"),
                    format!("move {} should be played by {expected}", k + 1),
                ));
            }
            let mv = Move::parse(board, value.trim())
                .map_err(|e| record_error(1, &value, e.to_string()))?;
            moves.push(mv);
        }
        Ok(Record {
            size,
            moves,
            result: None,
        })
    }
}

/// Splits SGF text into (property, value) pairs in order, keeping only the first value of a
/// multi-valued property. Variations after the main line are ignored.
fn sgf_properties(text: &str) -> Result<Vec<(String, String)>, RulesError> {
    let trimmed = text.trim_start();
    if !trimmed.starts_with('(') {
        return Err(record_error(1, trimmed, "SGF must start with '('"));
    }
    let mut props = Vec::new();
    let mut chars = trimmed.char_indices().peekable();
    let mut name = String::new();
    let mut depth = 0usize;
    while let Some((pos, ch)) = chars.next() {
        match ch {
            '(' => {
                depth += 1;
                if depth > 1 {
                    // A variation: the main line ended before it.
                    return Ok(props);
                }
            }
            ')' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return Ok(props);
                }
            }
            ';' => name.clear(),
            '[' => {
                let mut value = String::new();
                let mut closed = false;
                while let Some((_, c)) = chars.next() {
                    match c {
                        '\\' => {
                            if let Some((_, escaped)) = chars.next() {
                                value.push(escaped);
                            }
                        }
                        ']' => {
                            closed = true;
                            break;
                        }
                        _ => value.push(c),
                    }
                }
                if !closed {
                    return Err(record_error(1, &trimmed[pos..], "unclosed '[' in SGF"));
                }
                if name.is_empty() {
                    // A further value of the previous property: keep the first only.
                    continue;
                }
                props.push((std::mem::take(&mut name), value));
            }
            c if c.is_ascii_uppercase() => name.push(c),
            c if c.is_whitespace() => {}
            c if c.is_ascii_lowercase() => {} // old SGF long property names: ignore lower case
            _ => {
                return Err(record_error(
                    1,
                    &trimmed[pos..],
                    "unexpected character in SGF",
                ));
            }
        }
    }
    Err(record_error(1, trimmed, "SGF is not closed by ')'"))
}
