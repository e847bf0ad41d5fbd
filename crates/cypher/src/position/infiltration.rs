//! Infiltration (8, R12): once a game, a King's step onto the Border may send one of its
//! pieces (a Queen, Rook, Bishop or Knight) to d0 or d10, capturing what stands there, even
//! the enemy King. The King's step must be legal by itself; a step that ends the game by a
//! flip sends nothing. The King's own steps (3.4; 5.2: the Field King takes a re-take victim
//! or a colluding checker) are generated here too.

use super::{bits, CypherPosition, Safety, Sink, D0, D10};
use crate::board::Kind;
use crate::moves::{CypherMove, TurnKind};
use crate::tables::{has, tables, Sector};
use menagerie_core::Color;

impl CypherPosition {
    /// Infiltration destinations allowed for `side` (option `infiltration-target`).
    #[inline]
    pub(crate) fn infiltration_targets(&self, side: Color) -> &'static [u8] {
        if !self.rules.infiltration_enemy_home {
            &[D0, D10]
        } else if side == Color::White {
            &[D10]
        } else {
            &[D0]
        }
    }

    #[inline]
    pub(super) fn king_moves<S: Sink, const NOISY: bool>(
        &self,
        from: usize,
        sector: Sector,
        sf: Safety,
        out: &mut S,
    ) {
        let collusion = sf.collusion;
        let t = tables();
        let b = &self.board;
        let m = self.turn;
        let o = m.other();
        let them = b.by_color[o as usize];
        let reach = t.adjacent[from];
        let mut targets = reach & !b.occupied();
        if !self.king_may_enter_court(m) {
            targets &= !t.court;
        }
        // Only the Field majors next to him matter: without one, no need to look for
        // colluding checkers.
        let them_field_majors = them & b.majors() & t.field & reach;
        let majors = if sector == Sector::Field && them_field_majors != 0 {
            let retake = self.retake_bit();
            let colluding = if collusion {
                b.colluding_checkers(m)
            } else {
                0
            };
            them_field_majors & (retake | colluding)
        } else if sector == Sector::Field {
            0
        } else {
            them_field_majors
        };
        let victims = reach & ((them & b.by_kind[Kind::Pawn as usize]) | majors);
        let infiltrate = self.infiltration[m as usize];
        // A King stepping onto a Court square is never in check there (4.3).
        let court_sure = sf.sure_king_in_court();
        // Noisy: the captures, and the steps onto the Border that may infiltrate (of which
        // only the infiltrations, and the step itself when it captures, are kept).
        let tos = if !NOISY {
            targets | victims
        } else if infiltrate {
            victims | (targets & t.border)
        } else {
            victims
        };
        let step_noisy = |to: usize| !NOISY || has(victims, to);
        for to in bits(tos) {
            if !infiltrate || !has(t.border, to) {
                if court_sure && has(t.court, to) || self.step_ok(sf, from, to) {
                    out.push(CypherMove::normal(from as u8, to as u8));
                }
                continue;
            }
            let mut child = *b;
            child.shift(from, to);
            // Infiltration (8): the step must be legal on its own; a step that ends the game
            // has no transfer.
            if child.in_check(m, collusion) {
                continue;
            }
            if let Some(flip) = child.flip(m) {
                if !(self.rules.self_flip_illegal && flip.winner != m) && step_noisy(to) {
                    out.push(CypherMove::normal(from as u8, to as u8));
                }
                continue;
            }
            if step_noisy(to) {
                out.push(CypherMove::normal(from as u8, to as u8));
            }
            let ours = child.by_color[m as usize];
            for piece in bits(ours & child.majors()) {
                for &dest in self.infiltration_targets(m) {
                    if ours >> dest & 1 != 0 {
                        continue;
                    }
                    let mut sent = child;
                    sent.shift(piece, dest as usize);
                    if self.acceptable(&sent, collusion) {
                        out.push(CypherMove::with(
                            TurnKind::Infiltration,
                            from as u8,
                            to as u8,
                            piece as u8,
                            dest,
                        ));
                    }
                }
            }
        }
    }
}
