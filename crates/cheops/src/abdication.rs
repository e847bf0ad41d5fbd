//! Abdication (rulebook §11): when no other turn is legal, the King may abdicate in favour
//! of a Duke, who becomes King where he stands.

use crate::order_of_events::TurnEffects;
use crate::pieces::{DUKE, KING};
use crate::position::{cell, cell_role, CheopsMove, CheopsPosition, TurnKind};
use menagerie_core::BitBoard;

impl CheopsPosition {
    /// Abdications: only when no other turn is legal; the new King must be safe.
    pub(crate) fn gen_abdications(&self, out: &mut Vec<CheopsMove>) {
        let me = self.turn;
        let king = self.kings[me.index()] as usize;
        let mut pieces = self.occ[me.index()] & !self.frozen;
        while let Some(d) = pieces.pop_first() {
            let d = d.index();
            if cell_role(self.board[d]) == DUKE {
                let mv = CheopsMove::new(TurnKind::Abdicate, king, d);
                if self.is_legal(&mv) {
                    out.push(mv);
                }
            }
        }
    }

    /// Step 1 of an abdication: the King leaves the board and the Duke becomes King (11).
    #[inline]
    pub(crate) fn abdicate(&mut self, mv: &CheopsMove, turn: &mut TurnEffects) {
        let me = self.turn;
        let (from, to) = (mv.from as usize, mv.to as usize);
        self.remove(from);
        self.board[to] = cell(KING, me);
        self.kings[me.index()] = to as u8;
        turn.left[0] = from;
        turn.change(from);
        turn.change(to);
    }
}
