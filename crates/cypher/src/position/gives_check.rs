//! Whether a turn may give check, answered from the board before it (no copy, no move): the
//! search skips a pruned quiet turn that surely gives none without playing it, and
//! `play_move` tests for check only after a turn that may give one.

use super::CypherPosition;
use crate::board::{code_kind, Kind};
use crate::moves::{CypherMove, TurnKind};
use crate::tables::{between, tables, NO_DIR};

impl CypherPosition {
    /// Whether playing the legal turn `mv` may leave the opponent in check (section 4, with
    /// collusion): `false` only when it surely does not.
    ///
    /// Before a legal turn the opponent is not in check (his own last turn was legal), so a
    /// check after it comes from the moved man where it lands, or from a line it opens by
    /// leaving its square, or from collusion it starts. Combined moves, infiltrations and
    /// coups change more than one square or a man's side: they always answer `true`.
    #[inline]
    pub(crate) fn may_check(&self, mv: CypherMove) -> bool {
        let t = tables();
        let b = &self.board;
        let m = self.turn;
        let o = m.other();
        let Some(k) = b.king(o) else {
            return false;
        };
        // A Court King is never in check (4.3), and no turn of the mover moves him.
        if t.court >> k & 1 != 0 {
            return false;
        }
        match mv.kind {
            TurnKind::Normal => {}
            // The released pawn may not attack the enemy King (9.2); it only adds a blocker
            // and, not being a major piece, never colludes.
            TurnKind::Release => return false,
            TurnKind::Combined | TurnKind::Infiltration | TurnKind::Coup => return true,
        }
        let (from, to) = (mv.from as usize, mv.to as usize);
        let code = b.mailbox[from];
        if code == 0 {
            return true;
        }
        let kind = code_kind(code);
        let to_bit = 1u128 << to;
        let to_field = t.field & to_bit != 0;
        let king_field = t.field >> k & 1 != 0;
        let ours = b.by_color[m as usize];
        // Lines to the King after the turn, but for the man landing on `to` (he is the end
        // of his own line, and leaving him out only finds more lines).
        let occ = b.line_blockers(t) & !(1u128 << from);
        // Whether a line piece on `to` reaching straight (`straight`) or diagonally
        // (`diagonal`) sees the King.
        let line_to_king = |straight: bool, diagonal: bool| {
            let d = t.direction[k][to];
            d != NO_DIR
                && if d % 4 < 2 { straight } else { diagonal }
                && between(t, k, to, d as usize) & occ == 0
        };
        let direct = match kind {
            Kind::Pawn => t.pawn_attacks[o as usize][k] & to_bit != 0,
            Kind::King => !to_field && t.adjacent[k] & to_bit != 0,
            // On the Field a Spy checks only by colluding (7.4), with a Field major next to
            // it, and only a Field King; next to the King its attack does not count (10.1).
            Kind::Spy if to_field => {
                king_field && t.adjacent[to] & ours & b.majors() & t.field != 0
            }
            Kind::Spy => t.adjacent[k] & to_bit == 0 && line_to_king(true, true),
            // A Field major checks only by colluding: next to his own Field Spy, against a
            // Field King (then the Spy may check too: say yes).
            _ if to_field => king_field && b.pieces(m, Kind::Spy) & t.field & t.adjacent[to] != 0,
            Kind::Knight => {
                let leaps = if t.court & to_bit != 0 {
                    t.knight_x[k]
                } else {
                    t.knight_l[k] | t.knight_x[k]
                };
                leaps & to_bit != 0
            }
            Kind::Bishop => line_to_king(false, true),
            Kind::Rook => line_to_king(true, false),
            _ => line_to_king(true, true),
        };
        direct || self.opens_line(k, from, occ)
    }

    /// Whether leaving `from` may open a line from the King on `k` to one of the mover's line
    /// pieces (any sector, so collusion is covered); `occ` holds the blockers without `from`.
    #[inline(always)]
    fn opens_line(&self, k: usize, from: usize, occ: u128) -> bool {
        let t = tables();
        let d = t.direction[k][from];
        // Not on a line from the King, or something still stands between: nothing opens.
        if d == NO_DIR || between(t, k, from, d as usize) & occ != 0 {
            return false;
        }
        let d = d as usize;
        let beyond = t.rays[d][from];
        let blockers = beyond & occ;
        let reach = if blockers == 0 {
            beyond
        } else if d < 4 {
            beyond ^ t.rays[d][blockers.trailing_zeros() as usize]
        } else {
            beyond ^ t.rays[d][127 - blockers.leading_zeros() as usize]
        };
        let b = &self.board;
        let line_kind = if d % 4 < 2 { Kind::Rook } else { Kind::Bishop };
        let attackers = b.by_color[self.turn as usize]
            & (b.by_kind[line_kind as usize]
                | b.by_kind[Kind::Queen as usize]
                | b.by_kind[Kind::Spy as usize]);
        reach & attackers != 0
    }
}
