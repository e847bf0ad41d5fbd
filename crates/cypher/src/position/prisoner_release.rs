//! Prisoner release (9.2): a side with captured pawns of its own colour in its pool may, not
//! in check, place one on an empty Border square, where it must not give check.

use super::{bits, CypherPosition, Safety, Sink, ALL};
use crate::board::Kind;
use crate::moves::{CypherMove, TurnKind, NONE};
use crate::tables::tables;

impl CypherPosition {
    /// Adds the prisoner releases of the side to move.
    #[inline(always)]
    pub(super) fn release_moves<S: Sink>(&self, sf: Safety, out: &mut S) {
        let t = tables();
        let b = &self.board;
        let m = self.turn;
        let o = m.other();
        let empty = !b.occupied() & ALL;
        if self.pools[m as usize] > 0 && !sf.in_check {
            let enemy_king = b.pieces(o, Kind::King) & !t.court;
            for to in bits(t.border & empty) {
                if t.pawn_attacks[m as usize][to] & enemy_king == 0 {
                    out.push(CypherMove::with(
                        TurnKind::Release,
                        NONE,
                        to as u8,
                        NONE,
                        NONE,
                    ));
                }
            }
        }
    }
}
