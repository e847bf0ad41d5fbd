//! Glicko-2 ratings, one per player and variant, kept as lichess keeps them. Pure: no I/O.
//!
//! The algorithm is steps 1–8 of Mark E. Glickman, "Example of the Glicko-2 system"
//! (Boston University, 2013, revised 2022; <http://www.glicko.net/glicko/glicko2.pdf>), with
//! the volatility found by the Illinois algorithm to ε = 0.000001. As on lichess, each rated
//! game is applied at once as its own rating period, and before a game each player's deviation
//! grows with the time since their last rated game: φ* = √(φ² + σ²·t), t = days × 0.21436.
//!
//! | item | what it is |
//! |---|---|
//! | [`Rating`] | rating, deviation (RD) and volatility; [`Rating::new_player`] is 1500 / 500 / 0.09 |
//! | [`Rating::is_provisional`] | RD ≥ 110: shown with "?" |
//! | [`Params`] | τ = 0.75, RD within [45, 500], 0.21436 rating periods per day |
//! | [`rate_game`] | one game: both players' new ratings |
//! | [`update`] | one rating period of several games (Glickman's example) |
//! | [`recompute`] | every rating again from the rated games in order |
//!
//! ```
//! use menagerie_ratings::{rate_game, Params, Rating};
//!
//! let params = Params::default();
//! let (white, black) =
//!     rate_game(&Rating::new_player(), &Rating::new_player(), 1.0, 0.0, 0.0, &params)?;
//! assert_eq!((white.to_string(), black.to_string()), ("1742?".into(), "1258?".into()));
//! # Ok::<(), menagerie_ratings::RatingError>(())
//! ```
//!
//! The order within one game, as lichess does it: each player's deviation grows with the
//! days since their last rated game (with their old volatility) and is kept within [45, 500];
//! both are then rated against each other's grown rating by steps 1–8 (step 6 adding one
//! rating period, φ* = √(φ² + σ′²), unbounded); the new deviation is kept within [45, 500].
//!
//! Glickman's printed example rounds as it goes: its v = 1.7785 and Δ = −0.4834 come from its
//! table's g and E rounded to four and three places, and its r′ = 1464.06 from μ′ rounded to
//! −0.2069. Computed without rounding, the same steps give v = 1.7790, Δ = −0.4839,
//! r′ = 1464.0507, RD′ = 151.5165 (printed 151.52) and σ′ = 0.0599960 (printed 0.05999).
//! The tests check both: the exact figures, and the printed ones from the paper's rounding.
//!
//! | rule | file |
//! |---|---|
//! | the paper's steps, the time away, the bounds, provisional ratings | `glicko2.rs` |
//! | rating the stored games again in order | `recompute.rs` |
//! | what can be wrong with the figures | `error.rs` |

#![warn(missing_docs)]

mod error;
mod glicko2;
mod recompute;

pub use error::RatingError;
pub use glicko2::{rate_game, update, Params, Rating, CONVERGENCE, PROVISIONAL_DEVIATION, SCALE};
pub use recompute::{recompute, GameRatings, PlayerRating, RatedGame, RecomputeError, Recomputed};
