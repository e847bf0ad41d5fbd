//! Each game's own evaluation, beside its registry entry: the engine crate knows only the
//! [`menagerie_engine::Evaluator`] trait, and every rule an evaluation needs it asks the
//! game's position.

pub mod cheops;
pub mod chess;
pub mod cypher;
pub mod vyrt;
