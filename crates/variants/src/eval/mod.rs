//! Each game's own evaluation, beside its registry entry: the engine crate knows only the
//! [`menagerie_engine::Evaluator`] trait, and every rule an evaluation needs it asks the
//! game's position.

pub mod cheops;
pub mod chess;
pub mod cypher;
pub mod vyrt;

/// A fixed pseudo-random index below `len` for the evaluations' random-play tests
/// (xorshift, so every run plays the same games).
#[cfg(test)]
pub(crate) fn random_index(seed: &mut u64, len: usize) -> usize {
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    (*seed % len as u64) as usize
}
