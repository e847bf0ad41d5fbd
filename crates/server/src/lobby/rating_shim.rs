//! The lobby's one door to ratings until the ratings feature (issue 33, `crate::ratings`) is
//! merged: at the merge the lead replaces this file's [`shown`] by `ratings::shown` (same
//! arguments, same answer), and [`Rater`] and [`Shown`] by the ratings module's own.

use crate::app::{ApiError, App};

/// Who holds a rating: an account (by id) or an engine level (a bot).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Rater {
    /// An account, by id.
    Account(String),
    /// The engine at a level, the bot "Engine level N".
    Bot(u32),
}

/// A rating as the lobby and the pages show it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Shown {
    /// The rating (Glicko-2 scale, 1500 for a new player).
    pub rating: f64,
    /// Its deviation.
    pub rd: f64,
    /// Whether it is still provisional (few games).
    pub provisional: bool,
}

/// `who`'s rating in `variant` now: until ratings are merged, every player has a new
/// player's defaults (1500, deviation 500, provisional). The lead replaces this function by
/// `crate::ratings::shown` at the merge.
pub async fn shown(_app: &App, _who: &Rater, _variant: &str) -> Result<Shown, ApiError> {
    Ok(Shown {
        rating: 1500.0,
        rd: 500.0,
        provisional: true,
    })
}
