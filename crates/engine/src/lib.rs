//! Menagerie's engine: an iterative-deepening alpha-beta search that is generic over the
//! core [`Position`](menagerie_core::Position) trait, a transposition table, and the
//! [`Evaluator`] trait that each game's evaluation implements (the games' own evaluations
//! live beside the games, in the variants registry; [`GenericEval`] is a material-and-mobility
//! evaluation for any game without one).
//!
//! The engine depends on the core traits only: a new game plugs in by implementing
//! [`Position`](menagerie_core::Position) (and, if it likes, an [`Evaluator`]). What only the
//! rules know the search asks the position: draws by rule, quick endings, and for games with
//! hidden information the player's view and the hypotheses about the opponent's secret
//! ([`Searcher::search_hidden`]).

#![warn(missing_docs)]

pub mod eval;
pub mod score;
pub mod search;
pub mod tt;

#[cfg(test)]
mod toy;

pub use eval::{generic::GenericEval, generic::PieceValues, Evaluator, Mobility};
pub use score::Score;
pub use search::{
    HiddenSearch, Iteration, LimitError, Limits, SearchResult, Searcher, Skill, MAX_DEPTH,
    MAX_MOVETIME_MS, MAX_MULTIPV, MAX_NODES, MAX_THREADS, MIN_DEPTH, MIN_MOVETIME_MS, MIN_NODES,
};
