//! Clocks and time allocation, shared by UCI, XBoard and every later front end: how much of
//! the remaining time one move may use. All arithmetic saturates: a clock read from a
//! protocol line may hold any number.

use crate::limits;
use menagerie_variants::Limits;
use std::time::Duration;

/// Moves assumed left in the game when the time control does not say.
pub const DEFAULT_MOVES_TO_GO: u64 = 30;

/// The time one move may use: an even share of the clock over the moves to go (at most
/// 40), plus three quarters of the increment, but never more than half of what is left,
/// at least 1 ms and at most the longest time per move.
pub fn allocate(remaining_ms: u64, increment_ms: u64, moves_to_go: Option<u64>) -> Duration {
    let togo = moves_to_go.unwrap_or(DEFAULT_MOVES_TO_GO).clamp(1, 40);
    let share = u128::from(remaining_ms / togo) + u128::from(increment_ms) * 3 / 4;
    let budget = share.min(u128::from(remaining_ms / 2)).max(1);
    let ms = u64::try_from(budget).unwrap_or(u64::MAX);
    Duration::from_millis(limits::clamp(limits::Kind::Movetime, ms))
}

/// Seconds (as a protocol writes them, possibly fractional or huge) in milliseconds,
/// saturating; negative or unreadable values are `None`.
pub fn seconds_to_ms(text: &str) -> Option<u64> {
    let s: f64 = text.parse().ok()?;
    if s.is_nan() || s < 0.0 {
        return None;
    }
    // `as` saturates at u64::MAX for huge values and infinity.
    Some((s * 1000.0) as u64)
}

/// A time control as the XBoard protocol sets it, and the engine's clock.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TimeControl {
    /// Moves per session (0: the whole game).
    pub moves_per_session: u64,
    /// Increment in milliseconds.
    pub increment_ms: u64,
    /// A fixed time per move in milliseconds (`st`).
    pub per_move_ms: Option<u64>,
    /// A depth limit (`sd`).
    pub depth: Option<u32>,
    /// The engine's remaining time in milliseconds (`time`).
    pub remaining_ms: Option<u64>,
}

impl TimeControl {
    /// The limits for the engine's next move, `moves_played` plies into the game;
    /// `fallback` when nothing is set.
    pub fn limits(&self, moves_played: usize, fallback: Duration) -> Limits {
        let mut l = Limits {
            depth: self.depth,
            ..Limits::default()
        };
        if let Some(ms) = self.per_move_ms {
            l.movetime = Some(Duration::from_millis(limits::clamp(
                limits::Kind::Movetime,
                ms,
            )));
        } else if let Some(t) = self.remaining_ms {
            let togo = (self.moves_per_session > 0).then(|| {
                let played = (moves_played / 2) as u64 % self.moves_per_session;
                self.moves_per_session - played
            });
            l.movetime = Some(allocate(t, self.increment_ms, togo));
        } else if self.depth.is_none() {
            l.movetime = Some(fallback);
        }
        l
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn allocation_saturates() {
        assert_eq!(allocate(60_000, 0, None), Duration::from_millis(2000));
        assert_eq!(
            allocate(60_000, 1000, Some(10)),
            Duration::from_millis(6750)
        );
        assert_eq!(allocate(0, 0, None), Duration::from_millis(1));
        assert_eq!(allocate(1000, u64::MAX, None), Duration::from_millis(500));
        assert_eq!(
            allocate(u64::MAX, u64::MAX, Some(0)),
            Duration::from_millis(*limits::MOVETIME_MS.end())
        );
        assert_eq!(seconds_to_ms("1e30"), Some(u64::MAX));
        assert_eq!(seconds_to_ms("0.5"), Some(500));
        assert_eq!(seconds_to_ms("-1"), None);
        let tc = TimeControl {
            moves_per_session: 40,
            increment_ms: u64::MAX,
            remaining_ms: Some(u64::MAX),
            ..TimeControl::default()
        };
        assert_eq!(
            tc.limits(10, Duration::from_secs(5)).movetime,
            Some(Duration::from_millis(*limits::MOVETIME_MS.end()))
        );
    }
}
