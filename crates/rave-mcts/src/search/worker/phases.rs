//! Where a simulation's time goes, sampled: one simulation in [`SAMPLE_EVERY`] is timed
//! phase by phase (five clock reads), the others pay one predictable branch per phase. Cheap
//! enough to leave on; it reads the clock only and never changes what the search does.

use std::time::Instant;

use crate::result::{Phase, PhaseTimes};

/// One simulation in this many is timed.
pub(crate) const SAMPLE_EVERY: u64 = 64;

/// A worker's phase clock: the time of each phase of the sampled simulations.
#[derive(Debug, Default)]
pub(crate) struct PhaseClock {
    /// The simulations seen (sampled or not).
    seen: u64,
    /// When the current phase began, while a simulation is sampled.
    since: Option<Instant>,
    times: PhaseTimes,
}

impl PhaseClock {
    /// A simulation begins: sampled if its number is a multiple of [`SAMPLE_EVERY`].
    #[inline(always)]
    pub(crate) fn begin(&mut self) {
        if self.seen.is_multiple_of(SAMPLE_EVERY) {
            self.start();
        }
        self.seen += 1;
    }

    /// The phase that has just ended (nothing when the simulation is not sampled).
    #[inline(always)]
    pub(crate) fn lap(&mut self, phase: Phase) {
        if self.since.is_some() {
            self.record(phase, false);
        }
    }

    /// The simulation has ended.
    #[inline(always)]
    pub(crate) fn end(&mut self, phase: Phase) {
        if self.since.is_some() {
            self.record(phase, true);
        }
    }

    /// The sampled simulation's clock starts (out of line: the hot path only tests).
    #[cold]
    #[inline(never)]
    fn start(&mut self) {
        self.since = Some(Instant::now());
    }

    /// The time since the last lap goes to `phase`; `last` ends the sampled simulation.
    #[cold]
    #[inline(never)]
    fn record(&mut self, phase: Phase, last: bool) {
        let now = Instant::now();
        if let Some(since) = self.since {
            self.times.add(phase, now - since);
        }
        self.since = (!last).then_some(now);
        self.times.sampled += u64::from(last);
    }

    /// The times since the last call, and a fresh start.
    pub(crate) fn take(&mut self) -> PhaseTimes {
        std::mem::take(&mut self.times)
    }
}
