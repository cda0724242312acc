//! Colours, moves, winning kinds and outcomes.

use std::fmt;
use std::str::FromStr;

use havannah_board::{Board, Cell, CellSet};

use crate::error::{RulesError, shorten};

/// The colour of a stone. White moves first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Colour {
    /// The first player's colour.
    White,
    /// The second player's colour.
    Black,
}

impl Colour {
    /// The other colour.
    #[inline]
    #[must_use]
    pub const fn other(self) -> Colour {
        match self {
            Colour::White => Colour::Black,
            Colour::Black => Colour::White,
        }
    }

    /// 0 for White, 1 for Black.
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The colour of index 0 (White) or 1 (Black); `None` for any other index.
    #[must_use]
    pub const fn from_index(index: usize) -> Option<Colour> {
        match index {
            0 => Some(Colour::White),
            1 => Some(Colour::Black),
            _ => None,
        }
    }

    /// The colour's name in lower case, as records write it: `white` or `black`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Colour::White => "white",
            Colour::Black => "black",
        }
    }
}

impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Colour {
    type Err = RulesError;

    /// Parses `white`/`black` or `w`/`b`, in any case.
    fn from_str(s: &str) -> Result<Colour, RulesError> {
        match s.to_ascii_lowercase().as_str() {
            "white" | "w" => Ok(Colour::White),
            "black" | "b" => Ok(Colour::Black),
            _ => Err(RulesError::Record {
                line: 1,
                token: shorten(s),
                reason: "expected a colour: white or black".into(),
            }),
        }
    }
}

/// A move: a stone on a cell, or `swap` (the pie rule).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Move {
    /// Place a stone of the colour to move on this cell.
    Cell(Cell),
    /// The second player takes over the first stone, which stays White; Black moves next.
    Swap,
}

impl Move {
    /// Parses `h8`-style notation or `swap` (any case) against a board.
    ///
    /// # Errors
    /// [`RulesError::Board`] naming the text when it is neither a cell of `board` nor `swap`.
    pub fn parse(board: &Board, text: &str) -> Result<Move, RulesError> {
        if text.eq_ignore_ascii_case("swap") {
            Ok(Move::Swap)
        } else {
            Ok(Move::Cell(board.parse_cell(text)?))
        }
    }

    /// The move in notation (`h8` or `swap`) for `board`.
    #[must_use]
    pub fn to_notation(self, board: &Board) -> String {
        match self {
            Move::Cell(cell) => board.cell_name(cell).to_string(),
            Move::Swap => "swap".to_string(),
        }
    }
}

/// The set of winning figures a move completed: any of bridge, fork and ring.
///
/// Written as the fixtures write it: the names joined by `+` in the order bridge, fork, ring,
/// or `-` for none.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Kinds(u8);

impl Kinds {
    /// No figure.
    pub const NONE: Kinds = Kinds(0);
    /// A chain joining two corners.
    pub const BRIDGE: Kinds = Kinds(1);
    /// A chain joining three sides (corners are not sides).
    pub const FORK: Kinds = Kinds(2);
    /// A chain around at least one cell.
    pub const RING: Kinds = Kinds(4);

    /// Whether no figure is in the set.
    #[inline]
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether every figure of `other` is in the set.
    #[inline]
    #[must_use]
    pub const fn contains(self, other: Kinds) -> bool {
        self.0 & other.0 == other.0
    }

    /// The union of two sets.
    #[inline]
    #[must_use]
    pub const fn union(self, other: Kinds) -> Kinds {
        Kinds(self.0 | other.0)
    }

    /// The raw bits: 1 bridge, 2 fork, 4 ring.
    #[inline]
    #[must_use]
    pub const fn bits(self) -> u8 {
        self.0
    }

    /// The set of the given bits (unknown bits are dropped).
    #[inline]
    #[must_use]
    pub const fn from_bits(bits: u8) -> Kinds {
        Kinds(bits & 7)
    }
}

impl std::ops::BitOr for Kinds {
    type Output = Kinds;
    fn bitor(self, rhs: Kinds) -> Kinds {
        self.union(rhs)
    }
}

impl std::ops::BitOrAssign for Kinds {
    fn bitor_assign(&mut self, rhs: Kinds) {
        *self = self.union(rhs);
    }
}

impl fmt::Display for Kinds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("-");
        }
        let mut first = true;
        for (kind, name) in [
            (Kinds::BRIDGE, "bridge"),
            (Kinds::FORK, "fork"),
            (Kinds::RING, "ring"),
        ] {
            if self.contains(kind) {
                if !first {
                    f.write_str("+")?;
                }
                f.write_str(name)?;
                first = false;
            }
        }
        Ok(())
    }
}

impl FromStr for Kinds {
    type Err = RulesError;

    /// Parses `-` or names joined by `+` (`bridge+ring`), in any case.
    fn from_str(s: &str) -> Result<Kinds, RulesError> {
        if s == "-" {
            return Ok(Kinds::NONE);
        }
        let mut kinds = Kinds::NONE;
        for part in s.split('+') {
            kinds |= match part.to_ascii_lowercase().as_str() {
                "bridge" => Kinds::BRIDGE,
                "fork" => Kinds::FORK,
                "ring" => Kinds::RING,
                _ => {
                    return Err(RulesError::Record {
                        line: 1,
                        token: shorten(s),
                        reason: "expected kinds: bridge, fork, ring joined by '+', or '-'".into(),
                    });
                }
            };
        }
        Ok(kinds)
    }
}

/// The state of a game: going on, drawn, or won.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Outcome {
    /// Nobody has won and empty cells remain.
    Ongoing,
    /// The board is full and nobody completed a figure.
    Draw,
    /// A colour completed one or more figures.
    Win {
        /// The colour of the winning stones.
        winner: Colour,
        /// Every figure the winning move completed.
        kinds: Kinds,
        /// The chain of the winning stone (the whole group it belongs to).
        chain: CellSet,
    },
}

impl Outcome {
    /// Whether the game has ended.
    #[must_use]
    pub fn is_over(&self) -> bool {
        !matches!(self, Outcome::Ongoing)
    }

    /// The winner, if any.
    #[must_use]
    pub fn winner(&self) -> Option<Colour> {
        match self {
            Outcome::Win { winner, .. } => Some(*winner),
            _ => None,
        }
    }

    /// The completed figures (empty unless won).
    #[must_use]
    pub fn kinds(&self) -> Kinds {
        match self {
            Outcome::Win { kinds, .. } => *kinds,
            _ => Kinds::NONE,
        }
    }

    /// `white`, `black`, `draw` or `ongoing`, as the replay example prints it.
    #[must_use]
    pub fn result_name(&self) -> &'static str {
        match self {
            Outcome::Ongoing => "ongoing",
            Outcome::Draw => "draw",
            Outcome::Win { winner, .. } => winner.name(),
        }
    }
}

/// The variant of the rules a game is played under.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Rules {
    /// Whether the second player may answer the first move with `swap`.
    pub pie: bool,
}

impl Default for Rules {
    /// The pie rule on, as LittleGolem plays.
    fn default() -> Rules {
        Rules { pie: true }
    }
}
