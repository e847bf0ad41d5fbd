//! Each game's own evaluation, beside its registry entry: the engine crate knows only the
//! [`menagerie_engine::Evaluator`] trait, and every rule an evaluation needs it asks the
//! game's position.

pub mod cheops;
pub mod chess;
pub mod cypher;
pub mod net;
pub mod vyrt;

use menagerie_core::{Position, Square};

/// How much a move that changes nothing the mover can see (a re-inspection of a certified
/// Civilian, a step straight back) must beat every other move by to be chosen, in
/// centipawns: within this margin a move that makes progress is preferred (issue 36).
pub const IDLE_MARGIN: i32 = 30;

/// Whether a quiet move from `from` to `to` out of `root` takes a piece straight back to
/// where it stood before the side's own last move: that move (the second-last of
/// `earlier`, with its from and to squares `last`) took the same piece from `to` to `from`,
/// and neither move captured.
pub(crate) fn steps_back<P: Position>(
    root: &P,
    earlier: &[(P, P::Move)],
    (from, to): (Square, Square),
    last: impl Fn(P::Move) -> Option<(Square, Square)>,
) -> bool {
    let Some((before, prev)) = earlier.len().checked_sub(2).map(|i| &earlier[i]) else {
        return false;
    };
    before.turn() == root.turn()
        && last(*prev) == Some((to, from))
        && before.piece_char(from).is_none()
        && root.piece_char(to).is_none()
        && root.piece_char(from).is_some()
        && before.piece_char(to) == root.piece_char(from)
}

/// A score of `terms` plus a learnt correction of at most `limit` either way, where only its
/// side of the window `lo..hi` matters ([`menagerie_engine::Evaluator::evaluate_within`]):
/// when the terms are farther than `limit` outside the window they decide alone and the
/// bound they give is returned; else the correction is computed and added.
#[inline]
pub(crate) fn corrected_within(
    terms: i32,
    limit: i32,
    lo: i32,
    hi: i32,
    correction: impl FnOnce() -> i32,
) -> i32 {
    if terms - limit >= hi {
        terms - limit
    } else if terms + limit <= lo {
        terms + limit
    } else {
        terms + correction()
    }
}

/// A fixed pseudo-random index below `len` for the evaluations' random-play tests
/// (xorshift, so every run plays the same games).
#[cfg(test)]
pub(crate) fn random_index(seed: &mut u64, len: usize) -> usize {
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    (*seed % len as u64) as usize
}
