//! What GTP needs of Y beyond the referee's view: sizes, colours (White opens, as in morat-y),
//! undo and a text board. The standard commands themselves are `game_harness`'s.

use std::ops::RangeInclusive;

use game_harness::gtp::{GtpColour, GtpGame};
use game_harness::{MatchGame, Side};

use crate::board::{MAX_SIZE, MIN_SIZE, Y, YError};

impl GtpGame for Y {
    fn size(&self) -> usize {
        Y::size(self)
    }

    fn sizes(&self) -> RangeInclusive<usize> {
        MIN_SIZE..=MAX_SIZE
    }

    fn with_size(&self, size: usize) -> Result<Y, YError> {
        Y::new(size)
    }

    fn colour_of(&self, side: Side) -> GtpColour {
        match side {
            Side::First => GtpColour::White,
            Side::Second => GtpColour::Black,
        }
    }

    /// Replays every move but the last on an empty board (the union-find cannot split).
    fn undo(&mut self) -> Option<u8> {
        let (&last, earlier) = self.moves().split_last()?;
        let mut replay = Y::new(self.size()).ok()?;
        for &mv in earlier {
            replay.try_play(mv).ok()?;
        }
        *self = replay;
        Some(last)
    }

    fn board_text(&self) -> String {
        format!("\n{}", self.render())
    }

    fn moves_to_go(&self) -> u32 {
        let empty = self.cells().filter(|&c| self.stone(c).is_none()).count();
        (empty as u32).div_ceil(2).max(1)
    }
}
