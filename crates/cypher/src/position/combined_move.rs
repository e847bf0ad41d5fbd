//! The Spy's moves (3.6) and the combined move (7.2): a Spy leaving Court lets one of its
//! side's pieces enter Court on the same turn. The flip rules apply between the halves.

use super::{bits, knight_reach, CypherPosition, Safety, Sink};
use crate::board::{code_kind, Kind};
use crate::moves::{CypherMove, TurnKind};
use crate::tables::{bishop_attacks, has, queen_attacks, rook_attacks, tables, Sector};

impl CypherPosition {
    #[inline]
    pub(super) fn spy_moves<S: Sink, const NOISY: bool>(
        &self,
        from: usize,
        sector: Sector,
        sf: Safety,
        out: &mut S,
    ) {
        let collusion = sf.collusion;
        // Out of check a Spy's move never touches its King's safety (see `safety`).
        let sure = sf.sure(from);
        let t = tables();
        let b = &self.board;
        let m = self.turn;
        // Quiescence: only a Court Spy captures.
        if NOISY && sector != Sector::Court {
            return;
        }
        let occ = b.occupied();
        let reach = queen_attacks(t, from, occ);
        // The Spy captures only from Court, and only enemy majors in Court (3.6).
        if sector == Sector::Court {
            let victims = reach & b.by_color[m.other() as usize] & b.majors() & t.court;
            for to in bits(victims) {
                if sure || self.step_ok(sf, from, to) {
                    out.push(CypherMove::normal(from as u8, to as u8));
                }
            }
        }
        // The rest go to empty squares, and a combined move captures nothing.
        if NOISY {
            return;
        }
        for to in bits(reach & !occ) {
            if sector != Sector::Court || has(t.court, to) {
                if sure || self.step_ok(sf, from, to) {
                    out.push(CypherMove::normal(from as u8, to as u8));
                }
                continue;
            }
            let mut child = *b;
            child.shift(from, to);
            // Combined move (7.2): the Spy half first; the flip rules apply between halves.
            // An entering piece lands in Court and captures nothing, so it can never parry a
            // check the Spy half left: a Spy half in check has no variants either.
            if !sure && child.in_check(m, collusion) {
                continue;
            }
            if let Some(flip) = child.flip(m) {
                if !(self.rules.self_flip_illegal && flip.winner != m) {
                    out.push(CypherMove::normal(from as u8, to as u8));
                }
                continue;
            }
            out.push(CypherMove::normal(from as u8, to as u8));
            let cocc = child.occupied();
            let court_free = t.court & !cocc;
            for piece in bits(child.by_color[m as usize] & child.majors() & !t.court) {
                let reach = match code_kind(child.mailbox[piece]) {
                    Kind::Knight => knight_reach(t.sector[piece], piece),
                    Kind::Bishop => bishop_attacks(t, piece, cocc),
                    Kind::Rook => rook_attacks(t, piece, cocc),
                    _ => queen_attacks(t, piece, cocc),
                };
                // The Spy half left the lines to the King as they were outside Court.
                let sure_piece = sf.sure(piece);
                for dest in bits(reach & court_free) {
                    if sure_piece || {
                        let mut entered = child;
                        entered.shift(piece, dest);
                        self.acceptable(&entered, collusion)
                    } {
                        out.push(CypherMove::with(
                            TurnKind::Combined,
                            from as u8,
                            to as u8,
                            piece as u8,
                            dest as u8,
                        ));
                    }
                }
            }
        }
    }
}
