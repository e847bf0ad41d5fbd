//! En passant (§6.2, R11) across the seam: a pawn that double-stepped may be taken on the
//! square it passed over, which can lie across the wrapped edge; the capture is legal only
//! if the King is not attacked once both pawns have left their squares (T30).

use super::*;

impl VyrtPosition {
    /// Adds the en passant captures of the side to move (promotions included, see below).
    #[inline(always)]
    pub(super) fn en_passant_moves<const COUNT: bool, const PSEUDO: bool>(
        &self,
        out: &mut Vec<VyrtMove>,
        n: &mut usize,
        promo_y: usize,
    ) {
        let ep = self.ep as usize;
        for from in self.en_passant_capturers().iter() {
            let from = from.index();
            if PSEUDO || self.en_passant_legal(from) {
                // Under `double-step-any-unmoved` a pawn can pass over the promotion rank
                // (A12-A2 passes A1), so en passant can promote.
                if ep / 12 == promo_y {
                    for p in [QUEEN, ROOK, BISHOP, KNIGHT_K] {
                        push::<COUNT>(out, n, VyrtMove::new(from, ep, p, EN_PASSANT));
                    }
                } else {
                    push::<COUNT>(out, n, VyrtMove::new(from, ep, 0, EN_PASSANT));
                }
            }
        }
    }

    /// Whether the side to move's pawn on `from` may take en passant: the capturing pawn
    /// leaves, the passed-over square fills, the double-stepped pawn goes, and the King must
    /// not be attacked afterwards (T30).
    #[inline]
    pub(super) fn en_passant_legal(&self, from: usize) -> bool {
        let us = self.turn.index();
        let victim = self.pawn_tables().push[1 - us][self.ep as usize] as usize;
        let k = self.king[us] as usize;
        !self.attacked_after(k, 1 - us, from, victim, self.ep as usize, victim, NONE)
    }

    /// The pawns of the side to move that attack the en passant square (none without one).
    #[inline]
    pub(super) fn en_passant_capturers(&self) -> Bb {
        let us = self.turn.index();
        match self.ep as usize {
            NONE => Wide::EMPTY,
            ep => self.pawns[us] & self.pawn_tables().attackers[us][ep],
        }
    }
}
