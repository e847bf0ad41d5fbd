//! Game clocks (Contract A): an initial time and an increment per turn. A clock is rebuilt
//! from the events' timestamps (`"at"`, Unix milliseconds), so it survives a restart and
//! keeps running while the server is down.

use crate::games::color_word;
use menagerie_core::Color;
use serde_json::{json, Value};

/// The shortest initial time, in milliseconds (10 s).
pub const MIN_INITIAL_MS: i64 = 10_000;
/// The longest initial time (3 h).
pub const MAX_INITIAL_MS: i64 = 3 * 3_600_000;
/// The largest increment (60 s).
pub const MAX_INCREMENT_MS: i64 = 60_000;

/// A time control: the initial time and the increment, in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClockSpec {
    /// Each side's time at the start.
    pub initial_ms: i64,
    /// Added to a side's time after each of its timed turns.
    #[serde(default)]
    pub increment_ms: i64,
}

impl ClockSpec {
    /// The spec if it is within the limits, else the sentence saying which is not.
    pub fn checked(self) -> Result<ClockSpec, String> {
        if !(MIN_INITIAL_MS..=MAX_INITIAL_MS).contains(&self.initial_ms) {
            return Err(format!(
                "clock.initial_ms is from {MIN_INITIAL_MS} (10 s) to {MAX_INITIAL_MS} (3 h), not {}",
                self.initial_ms
            ));
        }
        if !(0..=MAX_INCREMENT_MS).contains(&self.increment_ms) {
            return Err(format!(
                "clock.increment_ms is from 0 to {MAX_INCREMENT_MS} (60 s), not {}",
                self.increment_ms
            ));
        }
        Ok(self)
    }
}

/// A running clock: each side's time as of `since`, and whose time runs.
#[derive(Clone, Debug)]
pub struct Clock {
    /// The time control.
    pub spec: ClockSpec,
    /// White's and Black's time left at `since`.
    remaining: [i64; 2],
    /// The side whose time runs (none before the first turn and once the game is over).
    running: Option<Color>,
    /// When `running` started, in Unix milliseconds.
    since: i64,
}

impl Clock {
    /// A clock before the first turn (the first turn is untimed).
    pub fn new(spec: ClockSpec) -> Clock {
        Clock {
            spec,
            remaining: [spec.initial_ms; 2],
            running: None,
            since: 0,
        }
    }

    /// `side`'s time left at `now` (negative once its flag has fallen).
    pub fn left(&self, side: Color, now: i64) -> i64 {
        let r = self.remaining[side.index()];
        if self.running == Some(side) {
            r - (now - self.since).max(0)
        } else {
            r
        }
    }

    /// The side whose time runs.
    pub fn running(&self) -> Option<Color> {
        self.running
    }

    /// `mover` played a turn at `at`; `next` is the side whose time runs now (`None` when the
    /// game is over). A timed turn earns the increment.
    pub fn turn(&mut self, mover: Color, at: i64, next: Option<Color>) {
        if self.running == Some(mover) {
            self.remaining[mover.index()] = self.left(mover, at) + self.spec.increment_ms;
        }
        self.running = next;
        self.since = at;
    }

    /// Charges the running side up to `at` and runs `next` from then (`None`: stops).
    pub fn switch(&mut self, at: i64, next: Option<Color>) {
        if let Some(c) = self.running {
            self.remaining[c.index()] = self.left(c, at).max(0);
        }
        self.running = next;
        self.since = at;
    }

    /// `side`'s flag fell: its time is 0 and the clock stops.
    pub fn flag(&mut self, side: Color, at: i64) {
        self.remaining[side.index()] = 0;
        self.running = None;
        self.since = at;
    }

    /// The side whose flag falls next and when (Unix milliseconds).
    pub fn flag_at(&self) -> Option<(Color, i64)> {
        self.running
            .map(|c| (c, self.since + self.remaining[c.index()]))
    }

    /// The state's `clock`: the times left as of `now`.
    pub fn json(&self, now: i64) -> Value {
        json!({
            "initial_ms": self.spec.initial_ms,
            "increment_ms": self.spec.increment_ms,
            "white_ms": self.left(Color::White, now).max(0),
            "black_ms": self.left(Color::Black, now).max(0),
            "running": self.running.map(color_word),
        })
    }

    /// The time an engine may spend on this turn: about a thirtieth of what is left plus
    /// the increment, never more than what is left less a safety margin; `None` while the
    /// clock does not run for `side` (the first turn).
    pub fn engine_budget_ms(&self, side: Color, now: i64) -> Option<u64> {
        if self.running != Some(side) {
            return None;
        }
        let left = self.left(side, now).max(0);
        let budget = (left / 30 + self.spec.increment_ms).min(left - left / 10 - 100);
        Some(budget.max(20) as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clock_charges_the_side_to_move_and_adds_the_increment() {
        let spec = ClockSpec {
            initial_ms: 60_000,
            increment_ms: 2_000,
        };
        let mut c = Clock::new(spec);
        assert_eq!(
            c.left(Color::White, 5_000),
            60_000,
            "the first turn is untimed"
        );
        c.turn(Color::White, 1_000, Some(Color::Black));
        assert_eq!(
            c.left(Color::White, 1_000),
            60_000,
            "no increment when untimed"
        );
        assert_eq!(c.left(Color::Black, 4_000), 57_000);
        c.turn(Color::Black, 11_000, Some(Color::White));
        assert_eq!(c.left(Color::Black, 20_000), 52_000);
        assert_eq!(c.flag_at(), Some((Color::White, 71_000)));
        c.switch(12_000, None);
        assert_eq!(c.left(Color::White, 99_000), 59_000);
        assert_eq!(c.flag_at(), None);
        assert!(ClockSpec {
            initial_ms: 9_999,
            increment_ms: 0
        }
        .checked()
        .is_err());
        assert!(spec.checked().is_ok());
    }
}
