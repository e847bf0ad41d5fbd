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
