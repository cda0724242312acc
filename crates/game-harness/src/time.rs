//! Time control: the time a player may spend on its next move ([`Clock`]), the time rules of a
//! game (main time and Canadian byo-yomi, [`TimeSettings`]), and the clocks of both players as
//! a referee or a GTP session tracks them ([`TimeControl`]).
//!
//! ```
//! use std::time::Duration;
//! use game_harness::time::{TimeControl, TimeSettings};
//!
//! // 10 s main time, then 30 s for every 3 moves.
//! let mut control = TimeControl::default();
//! control.set_settings(TimeSettings {
//!     main_time: Duration::from_secs(10),
//!     byo_yomi_time: Duration::from_secs(30),
//!     byo_yomi_stones: 3,
//! });
//! control.charge(0, Duration::from_secs(12)); // 10 s of main time, 2 s of the first period
//! let clock = control.clock_for(0, None, Duration::ZERO, 20);
//! assert_eq!(clock.remaining, Some(Duration::from_secs(28)));
//! assert_eq!(clock.moves_to_go, Some(2));
//! assert_eq!(clock.allowance(), Some(Duration::from_secs(14)));
//! ```

use std::time::Duration;

/// The time a player may spend on its next move.
///
/// `per_move` is a fixed allowance; `remaining` is the time left on the player's clock for the
/// rest of the game (GTP `time_left`), with `moves_to_go` moves to make in it if known. A
/// player uses the tightest limit that applies; with none set it uses its own default budget
/// (for example a number of simulations).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Clock {
    /// A fixed time per move.
    pub per_move: Option<Duration>,
    /// The time left for the rest of the game.
    pub remaining: Option<Duration>,
    /// How many moves must be made in `remaining`, if known.
    pub moves_to_go: Option<u32>,
}

impl Clock {
    /// No time limit: the player's own budget decides.
    #[must_use]
    pub const fn unlimited() -> Clock {
        Clock {
            per_move: None,
            remaining: None,
            moves_to_go: None,
        }
    }

    /// A fixed time per move.
    #[must_use]
    pub const fn per_move(time: Duration) -> Clock {
        Clock {
            per_move: Some(time),
            remaining: None,
            moves_to_go: None,
        }
    }

    /// The simplest use of the clock: the tighter of the time per move and an even share of
    /// the remaining time over the moves to go (one move when unknown); `None` without limits.
    #[must_use]
    pub fn allowance(&self) -> Option<Duration> {
        let share = self
            .remaining
            .map(|r| r / self.moves_to_go.unwrap_or(1).max(1));
        match (self.per_move, share) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }
}

/// Time rules as GTP `time_settings` gives them: main time, then byo-yomi periods of
/// `byo_yomi_time` for `byo_yomi_stones` moves (Canadian byo-yomi).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct TimeSettings {
    /// The main time of each player.
    pub main_time: Duration,
    /// The length of one byo-yomi period; zero for none (sudden death).
    pub byo_yomi_time: Duration,
    /// The moves to make in one byo-yomi period; zero for none.
    pub byo_yomi_stones: u32,
}

impl TimeSettings {
    /// Whether these settings mean no limit at all (GTP: byo-yomi time but no stones).
    #[must_use]
    pub fn is_unlimited(&self) -> bool {
        self.byo_yomi_stones == 0 && !self.byo_yomi_time.is_zero()
    }

    /// Whether main time is followed by byo-yomi periods.
    #[must_use]
    pub fn has_byo_yomi(&self) -> bool {
        self.byo_yomi_stones > 0
    }
}

/// One player's clock under some [`TimeSettings`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PlayerClock {
    /// The main time left.
    pub main_left: Duration,
    /// The time left in the current byo-yomi period (when `stones_left > 0`).
    pub period_left: Duration,
    /// Moves still to make in the current byo-yomi period; 0 while in main time.
    pub stones_left: u32,
}

impl PlayerClock {
    /// The clock at the start of a game: main time, or the first period without main time.
    #[must_use]
    pub fn start(settings: &TimeSettings) -> PlayerClock {
        if settings.main_time.is_zero() && settings.has_byo_yomi() {
            PlayerClock {
                main_left: Duration::ZERO,
                period_left: settings.byo_yomi_time,
                stones_left: settings.byo_yomi_stones,
            }
        } else {
            PlayerClock {
                main_left: settings.main_time,
                period_left: Duration::ZERO,
                stones_left: 0,
            }
        }
    }

    /// Charges `spent` for one move: main time first, then the current period; a period whose
    /// stones are all made starts again.
    pub fn charge(&mut self, settings: &TimeSettings, spent: Duration) {
        let mut spent = spent;
        if self.stones_left == 0 {
            if self.main_left >= spent || !settings.has_byo_yomi() {
                self.main_left = self.main_left.saturating_sub(spent);
                return;
            }
            spent -= self.main_left;
            self.main_left = Duration::ZERO;
            self.period_left = settings.byo_yomi_time;
            self.stones_left = settings.byo_yomi_stones;
        }
        self.period_left = self.period_left.saturating_sub(spent);
        self.stones_left -= 1;
        if self.stones_left == 0 {
            self.period_left = settings.byo_yomi_time;
            self.stones_left = settings.byo_yomi_stones;
        }
    }

    /// Sets the clock as GTP `time_left` reports it: `stones == 0` means `time` of main time
    /// is left, otherwise `time` for `stones` moves of the current byo-yomi period.
    pub fn set_left(&mut self, time: Duration, stones: u32) {
        if stones == 0 {
            *self = PlayerClock {
                main_left: time,
                period_left: Duration::ZERO,
                stones_left: 0,
            };
        } else {
            *self = PlayerClock {
                main_left: Duration::ZERO,
                period_left: time,
                stones_left: stones,
            };
        }
    }
}

/// The time rules of a game and the clocks of its two players (indexed 0 and 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TimeControl {
    settings: Option<TimeSettings>,
    clocks: [PlayerClock; 2],
}

impl TimeControl {
    /// The time settings, if any were set.
    #[must_use]
    pub fn settings(&self) -> Option<TimeSettings> {
        self.settings
    }

    /// The clock of player `player` (0 or 1; others read player 1).
    #[must_use]
    pub fn player_clock(&self, player: usize) -> PlayerClock {
        self.clocks[player.min(1)]
    }

    /// New time settings; both clocks start again.
    pub fn set_settings(&mut self, settings: TimeSettings) {
        self.settings = Some(settings);
        self.restart();
    }

    /// Starts both clocks again for a new game (nothing changes without settings).
    pub fn restart(&mut self) {
        if let Some(settings) = self.settings {
            self.clocks = [PlayerClock::start(&settings); 2];
        }
    }

    /// GTP `time_left` for `player`; without settings the given time is all there is (no
    /// main time, no byo-yomi).
    pub fn set_left(&mut self, player: usize, time: Duration, stones: u32) {
        self.clocks[player.min(1)].set_left(time, stones);
        if self.settings.is_none() {
            self.settings = Some(TimeSettings {
                main_time: Duration::ZERO,
                byo_yomi_time: Duration::ZERO,
                byo_yomi_stones: 0,
            });
        }
    }

    /// Charges `spent` to `player`'s clock (nothing without settings or with "no limit").
    pub fn charge(&mut self, player: usize, spent: Duration) {
        if let Some(settings) = self.settings.filter(|t| !t.is_unlimited()) {
            self.clocks[player.min(1)].charge(&settings, spent);
        }
    }

    /// The [`Clock`] for `player`'s next move, given a fixed time per move (if any), a safety
    /// margin for the controller's overhead and an estimate of the moves still to make.
    ///
    /// Without time settings (or with GTP's "no limit" settings) only the time per move
    /// applies. In main time: `remaining` is the main time left (plus one byo-yomi period when
    /// there is byo-yomi) less the margin, `moves_to_go` the estimate (plus the period's
    /// stones). In byo-yomi: the period's time left less the margin, and the stones left in it.
    #[must_use]
    pub fn clock_for(
        &self,
        player: usize,
        per_move: Option<Duration>,
        safety_margin: Duration,
        moves_to_go: u32,
    ) -> Clock {
        let mut clock = Clock {
            per_move,
            remaining: None,
            moves_to_go: None,
        };
        let Some(settings) = self.settings.filter(|t| !t.is_unlimited()) else {
            return clock;
        };
        let c = self.clocks[player.min(1)];
        let (remaining, to_go) = if c.stones_left > 0 {
            (c.period_left, c.stones_left)
        } else if settings.has_byo_yomi() {
            (
                c.main_left + settings.byo_yomi_time,
                moves_to_go.saturating_add(settings.byo_yomi_stones),
            )
        } else {
            (c.main_left, moves_to_go)
        };
        clock.remaining = Some(remaining.saturating_sub(safety_margin));
        clock.moves_to_go = Some(to_go);
        clock
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secs(s: u64) -> Duration {
        Duration::from_secs(s)
    }

    #[test]
    fn allowance_takes_the_tighter_limit() {
        assert_eq!(Clock::unlimited().allowance(), None);
        assert_eq!(Clock::per_move(secs(2)).allowance(), Some(secs(2)));
        let c = Clock {
            per_move: Some(secs(5)),
            remaining: Some(secs(60)),
            moves_to_go: Some(20),
        };
        assert_eq!(c.allowance(), Some(secs(3)));
        let c = Clock {
            per_move: Some(secs(1)),
            ..c
        };
        assert_eq!(c.allowance(), Some(secs(1)));
        // Unknown moves to go: all of it; zero moves to go counts as one.
        let c = Clock {
            per_move: None,
            remaining: Some(secs(7)),
            moves_to_go: Some(0),
        };
        assert_eq!(c.allowance(), Some(secs(7)));
    }

    #[test]
    fn sudden_death_and_no_limit() {
        let sudden = TimeSettings {
            main_time: secs(5),
            byo_yomi_time: Duration::ZERO,
            byo_yomi_stones: 0,
        };
        let mut c = PlayerClock::start(&sudden);
        c.charge(&sudden, secs(7));
        assert_eq!((c.main_left, c.stones_left), (Duration::ZERO, 0));
        let unlimited = TimeSettings {
            main_time: Duration::ZERO,
            byo_yomi_time: secs(1),
            byo_yomi_stones: 0,
        };
        assert!(unlimited.is_unlimited() && !sudden.is_unlimited());
        let mut control = TimeControl::default();
        control.set_settings(unlimited);
        assert_eq!(
            control.clock_for(0, None, Duration::ZERO, 10),
            Clock::unlimited()
        );
    }

    #[test]
    fn control_follows_time_left() {
        let mut control = TimeControl::default();
        assert_eq!(
            control.clock_for(1, Some(secs(2)), secs(1), 10),
            Clock::per_move(secs(2))
        );
        control.set_left(1, secs(21), 0);
        let clock = control.clock_for(1, None, secs(1), 10);
        assert_eq!(
            (clock.remaining, clock.moves_to_go),
            (Some(secs(20)), Some(10))
        );
        assert_eq!(clock.allowance(), Some(secs(2)));
        control.set_left(0, secs(9), 3);
        let clock = control.clock_for(0, None, Duration::ZERO, 10);
        assert_eq!(
            (clock.remaining, clock.moves_to_go),
            (Some(secs(9)), Some(3))
        );
        // Each report sets one player's clock only.
        assert_eq!(control.player_clock(1).main_left, secs(21));
        assert_eq!(control.player_clock(0).stones_left, 3);
        assert_eq!(control.player_clock(1).stones_left, 0);
    }

    #[test]
    fn clock_tracking_main_then_byo_yomi() {
        let settings = TimeSettings {
            main_time: Duration::from_secs(10),
            byo_yomi_time: Duration::from_secs(30),
            byo_yomi_stones: 3,
        };
        let mut c = PlayerClock::start(&settings);
        c.charge(&settings, Duration::from_secs(4));
        assert_eq!(c.main_left, Duration::from_secs(6));
        assert_eq!(c.stones_left, 0);
        // 8 s: 6 s of main time, 2 s of the first period, one stone of three made.
        c.charge(&settings, Duration::from_secs(8));
        assert_eq!(c.main_left, Duration::ZERO);
        assert_eq!(c.period_left, Duration::from_secs(28));
        assert_eq!(c.stones_left, 2);
        c.charge(&settings, Duration::from_secs(5));
        assert_eq!((c.period_left, c.stones_left), (Duration::from_secs(23), 1));
        // The last stone of the period starts a new period.
        c.charge(&settings, Duration::from_secs(5));
        assert_eq!((c.period_left, c.stones_left), (Duration::from_secs(30), 3));
    }

    #[test]
    fn sudden_death_and_byo_yomi_only() {
        let sd = TimeSettings {
            main_time: Duration::from_secs(5),
            byo_yomi_time: Duration::ZERO,
            byo_yomi_stones: 0,
        };
        assert!(!sd.is_unlimited());
        let mut c = PlayerClock::start(&sd);
        c.charge(&sd, Duration::from_secs(7));
        assert_eq!((c.main_left, c.stones_left), (Duration::ZERO, 0));
        let byo = TimeSettings {
            main_time: Duration::ZERO,
            byo_yomi_time: Duration::from_secs(20),
            byo_yomi_stones: 5,
        };
        let c = PlayerClock::start(&byo);
        assert_eq!((c.period_left, c.stones_left), (Duration::from_secs(20), 5));
        let none = TimeSettings {
            main_time: Duration::ZERO,
            byo_yomi_time: Duration::from_secs(1),
            byo_yomi_stones: 0,
        };
        assert!(none.is_unlimited());
    }
}
