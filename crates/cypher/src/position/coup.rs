//! Coup d'état (9.1, R14): a pawn reaching its last Field rank leaves the board, and the
//! opponent's highest-ranking man (Queen, then Rook, then Bishop or Knight, then a pawn, as
//! the options say) changes sides.

use super::{bits, CypherPosition, Safety, Sink};
use crate::board::{code_kind, Board, Kind};
use crate::moves::{CypherMove, TurnKind, NONE};
use menagerie_core::Color;

impl CypherPosition {
    /// The men of `side` that a coup d'état may switch (9.1, R14), on `board`.
    #[inline]
    pub(crate) fn coup_candidates(&self, board: &Board, side: Color) -> u128 {
        for kinds in [&[Kind::Queen][..], &[Kind::Rook]] {
            let b = board.pieces(side, kinds[0]);
            if b != 0 {
                return b;
            }
        }
        let (bishops, knights) = (
            board.pieces(side, Kind::Bishop),
            board.pieces(side, Kind::Knight),
        );
        if self.rules.coup_bishop_first {
            if bishops != 0 {
                return bishops;
            }
            if knights != 0 {
                return knights;
            }
        } else if bishops | knights != 0 {
            return bishops | knights;
        }
        if self.rules.coup_pawns {
            return board.pieces(side, Kind::Pawn);
        }
        0
    }

    #[inline]
    pub(super) fn pawn_move<S: Sink>(
        &self,
        from: usize,
        to: usize,
        last_rank: usize,
        sf: Safety,
        out: &mut S,
    ) {
        let collusion = sf.collusion;
        if to / 10 != last_rank {
            if sf.sure(from) || self.step_ok(sf, from, to) {
                out.push(CypherMove::normal(from as u8, to as u8));
            }
            return;
        }
        let mut child = self.board;
        child.shift(from, to);
        // Coup d'état: the pawn leaves; the opponent's highest man changes sides.
        child.remove(to);
        let m = self.turn;
        let candidates = self.coup_candidates(&child, m.other());
        if candidates == 0 {
            if self.acceptable(&child, collusion) {
                out.push(CypherMove::with(
                    TurnKind::Coup,
                    from as u8,
                    to as u8,
                    NONE,
                    NONE,
                ));
            }
            return;
        }
        for s in bits(candidates) {
            let mut switched = child;
            let c = switched.remove(s);
            switched.put(s, m, code_kind(c));
            if self.acceptable(&switched, collusion) {
                out.push(CypherMove::with(
                    TurnKind::Coup,
                    from as u8,
                    to as u8,
                    s as u8,
                    NONE,
                ));
            }
        }
    }
}
