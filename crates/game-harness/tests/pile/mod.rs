//! A tiny game for the GTP tests: a pile of stones, each move takes one or two (`1`, `2`),
//! whoever takes the last stone wins; Black opens. Under some rules a move may be `pass`,
//! which takes nothing and gives the mover's colour to the opponent, so the same colour moves
//! again (as Havannah's swap does). The board size is the number of stones.

#![allow(dead_code)]

use std::ops::RangeInclusive;

use game_harness::gtp::{GtpColour, GtpGame};
use game_harness::{Agent, Clock, MatchGame, Side, Verdict};

/// A move: take one or two stones, or pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Take {
    /// Take this many stones (1 or 2).
    Stones(u8),
    /// Take nothing and swap colours (only where the rules allow it).
    Pass,
}

/// Why a move was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PileError {
    /// Not a move's name.
    #[error("no such move {0}")]
    Name(String),
    /// A legal name, an illegal move here.
    #[error("cannot play {0} here")]
    Illegal(String),
    /// A size out of range.
    #[error("no pile of {0}")]
    Size(usize),
}

/// The game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pile {
    pub size: usize,
    pub passes: bool,
    pub moves: Vec<Take>,
}

impl Pile {
    /// A new game of `size` stones.
    pub fn new(size: usize, passes: bool) -> Pile {
        Pile {
            size,
            passes,
            moves: Vec::new(),
        }
    }

    /// The stones left.
    pub fn left(&self) -> usize {
        self.size
            - self
                .moves
                .iter()
                .map(|m| match m {
                    Take::Stones(n) => usize::from(*n),
                    Take::Pass => 0,
                })
                .sum::<usize>()
    }
}

impl MatchGame for Pile {
    type Move = Take;
    type Error = PileError;

    fn moves(&self) -> &[Take] {
        &self.moves
    }

    fn try_play(&mut self, mv: Take) -> Result<(), PileError> {
        let legal = self.left() > 0
            && match mv {
                Take::Stones(n) => (1..=2).contains(&n) && usize::from(n) <= self.left(),
                Take::Pass => self.passes,
            };
        if !legal {
            return Err(PileError::Illegal(self.move_name(mv)));
        }
        self.moves.push(mv);
        Ok(())
    }

    fn verdict(&self) -> Option<Verdict> {
        (self.left() == 0).then(|| Verdict::Win(Side::of_ply(self.moves.len() - 1)))
    }

    fn move_name(&self, mv: Take) -> String {
        match mv {
            Take::Stones(n) => n.to_string(),
            Take::Pass => "pass".to_string(),
        }
    }

    fn parse_move(&self, text: &str) -> Result<Take, PileError> {
        match text.to_ascii_lowercase().as_str() {
            "1" => Ok(Take::Stones(1)),
            "2" => Ok(Take::Stones(2)),
            "pass" => Ok(Take::Pass),
            _ => Err(PileError::Name(text.to_string())),
        }
    }
}

impl GtpGame for Pile {
    fn size(&self) -> usize {
        self.size
    }

    fn sizes(&self) -> RangeInclusive<usize> {
        1..=30
    }

    fn with_size(&self, size: usize) -> Result<Pile, PileError> {
        if size == 0 {
            return Err(PileError::Size(size));
        }
        Ok(Pile::new(size, self.passes))
    }

    fn colour_of(&self, side: Side) -> GtpColour {
        let passes = self.moves.iter().filter(|&&m| m == Take::Pass).count();
        match (side, passes % 2 == 1) {
            (Side::First, false) | (Side::Second, true) => GtpColour::Black,
            _ => GtpColour::White,
        }
    }

    fn undo(&mut self) -> Option<Take> {
        self.moves.pop()
    }

    fn board_text(&self) -> String {
        format!("\npile {} of {}", self.left(), self.size)
    }

    fn moves_to_go(&self) -> u32 {
        u32::try_from(self.left().div_ceil(2))
            .unwrap_or(u32::MAX)
            .max(1)
    }

    /// A pass leaves the colour to move and the stones as they are.
    fn optional_move(&self, mv: Take) -> bool {
        mv == Take::Pass
    }
}

/// Takes what leaves a multiple of three, else one stone; counts what it is told.
#[derive(Debug, Default)]
pub struct Greedy {
    pub resets: usize,
    pub observed: Vec<Take>,
    pub clocks: Vec<Clock>,
}

impl Agent<Pile> for Greedy {
    fn name(&self) -> String {
        "greedy".into()
    }

    fn reset(&mut self, game: &Pile) {
        self.resets += 1;
        self.observed = game.moves.clone();
    }

    fn observe(&mut self, _game: &Pile, mv: Take) {
        self.observed.push(mv);
    }

    fn choose(&mut self, game: &Pile, clock: &Clock) -> Option<Take> {
        self.clocks.push(*clock);
        match game.left() % 3 {
            _ if game.left() == 0 => None,
            2 => Some(Take::Stones(2)),
            _ => Some(Take::Stones(1)),
        }
    }

    fn search_report(&self) -> Option<String> {
        Some(format!("chose {} times", self.clocks.len()))
    }
}
