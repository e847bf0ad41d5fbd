//! Castling (§6.1, R10): the King goes two squares along its home rank towards a Rook
//! that has not moved, the Rook lands on the square the King crossed. On the torus the
//! Rook's leaving its corner can open the home rank behind the King (T28), so the King's
//! landing square is tested with the Rook already moved.

use super::*;

/// The Rook's squares (from, to) when the King castles from `from` to `to`.
#[inline(always)]
pub(super) fn castling_rook_squares(from: usize, to: usize) -> (usize, usize) {
    let y = from / 12;
    if to > from {
        (12 * y + 9, 12 * y + 7)
    } else {
        (12 * y + 2, 12 * y + 5)
    }
}

impl VyrtPosition {
    /// Adds the castling moves of the side to move, not in check, King on `k`.
    #[inline(always)]
    pub(super) fn castling_moves<const COUNT: bool>(
        &self,
        out: &mut Vec<VyrtMove>,
        n: &mut usize,
        k: usize,
    ) {
        let y = k / 12;
        for (short, to) in [(true, 12 * y + 8), (false, 12 * y + 4)] {
            if self.castling_refusal(short).is_none() {
                push::<COUNT>(out, n, VyrtMove::new(k, to, 0, CASTLE));
            }
        }
    }

    /// Why `O-O` (`short`) or `O-O-O` may not be played now (§6.1), or `None` if it may.
    #[inline]
    pub(crate) fn castling_refusal(&self, short: bool) -> Option<&'static str> {
        let us = self.turn.index();
        let them = 1 - us;
        let right = match (us, short) {
            (0, true) => 1,
            (0, false) => 2,
            (_, true) => 4,
            (_, false) => 8,
        };
        if self.castling & right == 0 {
            return Some("the King or that Rook has moved (the right is gone)");
        }
        // The right implies the King on E and the Rook on its corner of the home rank.
        let k = self.king[us] as usize;
        let b = |x: usize| 12 * (k / 12) + x;
        // (between, crossed, landing, rook from, rook to)
        let (between, cross, land, rook, rook_to): (&[usize], _, _, _, _) = if short {
            (&[7, 8], b(7), b(8), b(9), b(7))
        } else {
            (&[3, 4, 5], b(5), b(4), b(2), b(5))
        };
        if between.iter().any(|&x| self.board[b(x)] != 0) {
            Some("the squares between the King and the Rook are not empty")
        } else if self.attacked(k, them) {
            Some("the King is in check")
        } else if self.attacked(cross, them) || self.attacked(land, them) {
            Some("the King would cross or land on an attacked square")
        } else if self.attacked_after(land, them, k, rook, rook_to, NONE, NONE) {
            // the Rook's leaving its corner can open the home rank behind the King (T28)
            Some("the King would be in check after castling")
        } else {
            None
        }
    }
}
