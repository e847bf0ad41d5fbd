//! Whether a turn may give check, answered from the board before it (no copy, no move): the
//! search skips a pruned quiet turn that surely gives none without playing it, and
//! `play_move` tests for check only after a turn that may give one.

use super::CypherPosition;
use crate::board::{code_kind, Kind};
use crate::moves::{CypherMove, TurnKind};
use crate::tables::{between, has, tables, Sector, NO_DIR};

/// What the board before a turn says of check after it ([`CypherPosition::check_hint`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum CheckHint {
    /// The turn surely gives no check.
    No,
    /// The turn surely gives check.
    Yes,
    /// Only the board after the turn can tell.
    Maybe,
}

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
        self.check_hint(mv) != CheckHint::No
    }

    /// What the board before the legal turn `mv` says of check after it: `Yes` when the
    /// moved man surely gives check from where he lands (outside the Field, or a pawn), `No`
    /// when surely none, `Maybe` otherwise (a line he opens, collusion, a two-part turn).
    #[inline]
    pub(crate) fn check_hint(&self, mv: CypherMove) -> CheckHint {
        let t = tables();
        let b = &self.board;
        let m = self.turn;
        let o = m.other();
        let Some(k) = b.king(o) else {
            return CheckHint::No;
        };
        // A Court King is never in check (4.3), and no turn of the mover moves him.
        if t.sector[k] == Sector::Court {
            return CheckHint::No;
        }
        match mv.kind {
            TurnKind::Normal => {}
            // The released pawn may not attack the enemy King (9.2); it only adds a blocker
            // and, not being a major piece, never colludes.
            TurnKind::Release => return CheckHint::No,
            TurnKind::Combined | TurnKind::Infiltration | TurnKind::Coup => {
                return CheckHint::Maybe
            }
        }
        let (from, to) = (mv.from as usize, mv.to as usize);
        let code = b.mailbox[from];
        if code == 0 {
            return CheckHint::Maybe;
        }
        let to_sector = t.sector[to];
        let king_field = t.sector[k] == Sector::Field;
        // Whether the man lands on a line from the King that his kind follows: then the
        // squares between decide.
        let line = |straight: bool, diagonal: bool| {
            let d = t.direction[k][to];
            d != NO_DIR && if d % 4 < 2 { straight } else { diagonal }
        };
        let on_line = match code_kind(code) {
            Kind::Pawn if has(t.pawn_attacks[o as usize][k], to) => return CheckHint::Yes,
            Kind::Pawn => false,
            Kind::King => {
                if to_sector != Sector::Field && has(t.adjacent[k], to) {
                    return CheckHint::Yes;
                }
                false
            }
            // On the Field a Spy checks only by colluding (7.4), with a Field major next to
            // it, and only a Field King; next to the King its attack does not count (10.1).
            Kind::Spy if to_sector == Sector::Field => {
                if king_field && t.adjacent[to] & b.by_color[m as usize] & b.majors() & t.field != 0
                {
                    return CheckHint::Maybe;
                }
                false
            }
            Kind::Spy => !has(t.adjacent[k], to) && line(true, true),
            // A Field major checks only by colluding: next to his own Field Spy, against a
            // Field King (then the Spy may check too: say yes).
            _ if to_sector == Sector::Field => {
                if king_field && b.pieces(m, Kind::Spy) & t.field & t.adjacent[to] != 0 {
                    return CheckHint::Maybe;
                }
                false
            }
            Kind::Knight => {
                let leaps = if to_sector == Sector::Court {
                    t.knight_x[k]
                } else {
                    t.knight_l[k] | t.knight_x[k]
                };
                if has(leaps, to) {
                    return CheckHint::Yes;
                }
                false
            }
            Kind::Bishop => line(false, true),
            Kind::Rook => line(true, false),
            _ => line(true, true),
        };
        if on_line {
            // The lines after the turn, but for the man on `to` (he ends his own line, and
            // leaving him out only finds more lines).
            let occ = b.line_blockers(t) & !(1u128 << from);
            let d = t.direction[k][to] as usize;
            if between(t, k, to, d) & occ == 0 {
                return CheckHint::Yes;
            }
        }
        if self.opens_line(k, from) {
            CheckHint::Maybe
        } else {
            CheckHint::No
        }
    }

    /// Whether leaving `from` may open a line from the King on `k` to one of the mover's line
    /// pieces (any sector, so collusion is covered).
    #[inline(always)]
    fn opens_line(&self, k: usize, from: usize) -> bool {
        let t = tables();
        let d = t.direction[k][from];
        if d == NO_DIR {
            return false;
        }
        let occ = self.board.line_blockers(t) & !(1u128 << from);
        // Something still stands between the King and `from`: nothing opens.
        if between(t, k, from, d as usize) & occ != 0 {
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
