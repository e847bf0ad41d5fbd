//! Re-take (6): when a Border or Court major piece takes a Field major piece, on the very
//! next turn the taker may be taken back on that square by a Field major piece or the Field
//! King, sanctuary notwithstanding.

use super::CypherPosition;
use crate::board::Kind;
use crate::moves::NONE;
use crate::tables::{tables, Sector};

/// Whether a capture by a `kind` from `from` of a `victim` on `to` opens a re-take: a Border
/// or Court major took a Field major.
#[inline(always)]
pub(super) fn opens_retake(kind: Kind, from: usize, victim: Kind, to: usize) -> bool {
    let t = tables();
    kind.is_major()
        && t.sector[from] != Sector::Field
        && victim.is_major()
        && t.field >> to & 1 != 0
}

impl CypherPosition {
    /// The square of the man that may be re-taken this turn, as a bitboard (0 if none).
    #[inline(always)]
    pub(super) fn retake_bit(&self) -> u128 {
        if self.retake != NONE {
            1u128 << self.retake
        } else {
            0
        }
    }
}
