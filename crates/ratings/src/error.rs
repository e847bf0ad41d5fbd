//! What can be wrong with the figures handed to the rating functions.

use std::fmt;

/// Why a rating could not be computed; each says in one sentence what is wrong.
#[derive(Clone, Debug, PartialEq)]
pub enum RatingError {
    /// A rating, deviation or volatility is not a finite number, or a deviation or volatility is not positive.
    BadRating {
        /// The field that is wrong: "rating", "deviation" or "volatility".
        field: &'static str,
        /// The value found.
        value: f64,
    },
    /// A score outside 0 (loss) to 1 (win).
    BadScore(f64),
    /// A time since the last rated game that is negative or not a number.
    BadDays(f64),
    /// A parameter outside its range (τ and the factor per day positive, 0 < min ≤ max deviation).
    BadParams(&'static str),
    /// The volatility iteration (step 5) did not narrow to ε; only extreme figures can cause it.
    NoConvergence,
    /// The figures overflowed to a number that is not finite; only extreme figures can cause it.
    NotFinite,
}

impl fmt::Display for RatingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RatingError::BadRating { field, value } if *field == "rating" => {
                write!(f, "the rating {value} is not a finite number")
            }
            RatingError::BadRating { field, value } => {
                write!(f, "the {field} {value} is not a finite number above zero")
            }
            RatingError::BadScore(score) => write!(
                f,
                "the score {score} is not between 0 (a loss) and 1 (a win)"
            ),
            RatingError::BadDays(days) => write!(
                f,
                "the time since the last rated game, {days} days, is not zero or more"
            ),
            RatingError::BadParams(what) => write!(f, "the rating parameters are wrong: {what}"),
            RatingError::NoConvergence => write!(
                f,
                "the new volatility did not converge (the ratings are too far apart to compute)"
            ),
            RatingError::NotFinite => write!(
                f,
                "the new rating is not a finite number (the ratings are too far apart to compute)"
            ),
        }
    }
}

impl std::error::Error for RatingError {}
