//! Every rating recomputed from the rated games in order, so the server can rebuild its ratings
//! from the stored games and compare them with the stored figures.

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::error::RatingError;
use crate::glicko2::{rate_game, Params, Rating};

/// Milliseconds in a day, to turn the times between games into days.
const MS_PER_DAY: f64 = 86_400_000.0;

/// One rated game as stored: who had White and Black, White's score and when the game ended.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RatedGame<Id> {
    /// The player who had White.
    pub white: Id,
    /// The player who had Black.
    pub black: Id,
    /// White's score: 1 a win, 0.5 a draw, 0 a loss.
    pub score_white: f64,
    /// When the game ended (and was rated), in milliseconds since the Unix epoch.
    pub ended_ms: i64,
}

/// Both players' ratings before and after one game.
///
/// "Before" is the rating as it stood after the player's previous game (the deviation not yet
/// grown by the time between), so `after.rating - before.rating` is the change players see.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRatings {
    /// White's rating before the game.
    pub white_before: Rating,
    /// White's rating after the game.
    pub white_after: Rating,
    /// Black's rating before the game.
    pub black_before: Rating,
    /// Black's rating after the game.
    pub black_after: Rating,
}

/// A player's figures after the last of their games.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayerRating {
    /// The rating after the player's last game.
    pub rating: Rating,
    /// How many rated games the player played.
    pub games: u32,
    /// When the player's last rated game ended, in milliseconds since the Unix epoch.
    pub last_game_ms: i64,
}

/// The outcome of [`recompute`]: every player's final rating and each game's ratings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Recomputed<Id: Ord> {
    /// Each player who played at least one of the games, with their final figures.
    pub players: BTreeMap<Id, PlayerRating>,
    /// The ratings before and after each game, in the games' order.
    pub games: Vec<GameRatings>,
}

/// Why the games could not be rated; `game` counts the games from 1.
#[derive(Clone, Debug, PartialEq)]
pub enum RecomputeError {
    /// The same player had both White and Black.
    SamePlayer {
        /// The game's number, counted from 1.
        game: usize,
    },
    /// The game ended before an earlier game of one of its players: the games are out of order.
    OutOfOrder {
        /// The game's number, counted from 1.
        game: usize,
    },
    /// A figure of the game or of a player's rating is wrong.
    Rating {
        /// The game's number, counted from 1.
        game: usize,
        /// What is wrong.
        error: RatingError,
    },
}

impl fmt::Display for RecomputeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecomputeError::SamePlayer { game } => {
                write!(
                    f,
                    "rated game {game} has the same player with White and Black"
                )
            }
            RecomputeError::OutOfOrder { game } => write!(
                f,
                "rated game {game} ended before an earlier game of one of its players"
            ),
            RecomputeError::Rating { game, error } => write!(f, "rated game {game}: {error}"),
        }
    }
}

impl std::error::Error for RecomputeError {}

/// Rates `games` in their order, as [`rate_game`] rated them one by one: each player's first
/// rating is `start(player)`, and before each game a player's deviation grows with the time
/// since their previous game.
///
/// `start` gives a player's rating before their first game: `|_| Rating::new_player()`, or a
/// bot's starting rating ([`Rating::starting_at`]). Pure and deterministic: the same games and
/// parameters give bit-for-bit the same figures, so stored ratings can be compared with `==`.
pub fn recompute<Id, Games, Start>(
    games: Games,
    mut start: Start,
    params: &Params,
) -> Result<Recomputed<Id>, RecomputeError>
where
    Id: Ord + Clone,
    Games: IntoIterator<Item = RatedGame<Id>>,
    Start: FnMut(&Id) -> Rating,
{
    let mut players: BTreeMap<Id, PlayerRating> = BTreeMap::new();
    let mut rated = Vec::new();
    for (index, game) in games.into_iter().enumerate() {
        let number = index + 1;
        if game.white == game.black {
            return Err(RecomputeError::SamePlayer { game: number });
        }
        let (white_before, days_white) =
            standing(&players, &game.white, game.ended_ms, &mut start, number)?;
        let (black_before, days_black) =
            standing(&players, &game.black, game.ended_ms, &mut start, number)?;
        let (white_after, black_after) = rate_game(
            &white_before,
            &black_before,
            game.score_white,
            days_white,
            days_black,
            params,
        )
        .map_err(|error| RecomputeError::Rating {
            game: number,
            error,
        })?;
        for (player, rating) in [(game.white, white_after), (game.black, black_after)] {
            let entry = players.entry(player).or_insert(PlayerRating {
                rating,
                games: 0,
                last_game_ms: game.ended_ms,
            });
            *entry = PlayerRating {
                rating,
                games: entry.games.saturating_add(1),
                last_game_ms: game.ended_ms,
            };
        }
        rated.push(GameRatings {
            white_before,
            white_after,
            black_before,
            black_after,
        });
    }
    Ok(Recomputed {
        players,
        games: rated,
    })
}

/// A player's rating before a game that ended at `ended_ms`, and the days since their last game
/// (0 before their first).
fn standing<Id: Ord>(
    players: &BTreeMap<Id, PlayerRating>,
    player: &Id,
    ended_ms: i64,
    start: &mut impl FnMut(&Id) -> Rating,
    game: usize,
) -> Result<(Rating, f64), RecomputeError> {
    match players.get(player) {
        None => Ok((start(player), 0.0)),
        Some(known) => {
            // i128: two i64 times always subtract without overflow.
            let elapsed = i128::from(ended_ms) - i128::from(known.last_game_ms);
            if elapsed < 0 {
                return Err(RecomputeError::OutOfOrder { game });
            }
            // Exact for any span below 2^53 ms (285,000 years).
            Ok((known.rating, elapsed as f64 / MS_PER_DAY))
        }
    }
}
