//! Typed errors. Each displays as one sentence that names what is wrong.

use thiserror::Error;

/// A square name that is not a square of the board.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("'{0}' is not a square of this board")]
pub struct SquareError(pub String);

/// A position string that cannot be read, naming the field at fault.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("invalid position string: {field}: {message}")]
pub struct PositionError {
    /// The field at fault (`board`, `side to move`, `castling`, ...).
    pub field: &'static str,
    /// What is wrong with it.
    pub message: String,
}

impl PositionError {
    /// An error in `field`.
    pub fn new(field: &'static str, message: impl Into<String>) -> Self {
        PositionError {
            field,
            message: message.into(),
        }
    }
}

/// A move that cannot be read or may not be played here.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MoveError {
    /// The text is not a move in any form the game accepts. A reason built by
    /// [`MoveError::not_a_move`] (`not a move of chess: ...`) is shown as it is; any other
    /// reason follows "is not a move:".
    #[error("{}", syntax_sentence(text, reason))]
    Syntax {
        /// The text as given.
        text: String,
        /// Why it cannot be read.
        reason: String,
    },
    /// The text is a move, but the rules forbid it in this position.
    #[error("{text} is illegal: {reason}")]
    Illegal {
        /// The text as given.
        text: String,
        /// The rule that forbids it, in players' words.
        reason: String,
    },
    /// The text could mean more than one legal move.
    #[error("'{text}' is ambiguous: it could be {candidates}")]
    Ambiguous {
        /// The text as given.
        text: String,
        /// The legal moves it could mean, in canonical text.
        candidates: String,
    },
    /// The game is over, so no move may be played.
    #[error("the game is over ({0}), so no move can be played")]
    GameOver(String),
}

impl MoveError {
    /// Text that is not a move of `game` in any form it accepts: the error says
    /// `'<text>' is not a move of <game>: <expected>`, where `expected` names the forms the
    /// game reads (`write UCI like e2e4 or SAN like Nf3`).
    pub fn not_a_move(game: &str, text: &str, expected: impl std::fmt::Display) -> Self {
        MoveError::Syntax {
            text: text.to_string(),
            reason: format!("not a move of {game}: {expected}"),
        }
    }
}

fn syntax_sentence(text: &str, reason: &str) -> String {
    if reason.starts_with("not a move of ") {
        format!("'{text}' is {reason}")
    } else {
        format!("'{text}' is not a move: {reason}")
    }
}

/// A rule option that the game does not know or a value it does not take.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("rule option '{option}': {message}")]
pub struct RuleError {
    /// The option as written.
    pub option: String,
    /// What is wrong.
    pub message: String,
}

/// A piece definition in Betza notation that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("invalid Betza definition '{text}': {message}")]
pub struct BetzaError {
    /// The definition as written.
    pub text: String,
    /// What is wrong with it.
    pub message: String,
}

impl From<RuleError> for PositionError {
    /// A position read under rule options the game does not take: field `rule options`.
    fn from(e: RuleError) -> Self {
        PositionError::new("rule options", e.to_string())
    }
}
