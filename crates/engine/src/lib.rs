//! Menagerie's engine: an iterative-deepening alpha-beta search that is generic over the
//! core [`Position`](menagerie_core::Position) trait, a transposition table, and
//! evaluations behind the [`Evaluator`] trait (one per game: chess, Vyrt, Cypher, Little
//! Cheops; a generic material-and-mobility one for any game without its own).
//!
//! Adding a game's evaluation: one file under `src/eval/`, implementing [`Evaluator`] for
//! its position type (or a [`GenericEval`] with the game's piece values as data).

#![warn(missing_docs)]

pub mod eval;
pub mod score;
pub mod search;
pub mod tt;

pub use eval::{generic::GenericEval, generic::PieceValues, Evaluator, Mobility};
pub use score::Score;
pub use search::{Iteration, Limits, SearchResult, Searcher};
