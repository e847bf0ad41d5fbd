//! Check (4): who gives check from which sector, lines (4.2), a Court King never in check
//! (4.3); Spies outside Court are transparent (7.3); collusion counts when asked (7.4).

use super::{Board, Kind};
use crate::tables::{line_attacked, tables, Tables};
use menagerie_core::Color;

impl Board {
    /// Blockers for check and flip lines: every man except Spies outside Court (7.3).
    #[inline(always)]
    pub fn line_blockers(&self, t: &Tables) -> u128 {
        self.occupied() & !(self.by_kind[Kind::Spy as usize] & !t.court)
    }

    /// Whether `side`'s King is in check (section 4), with or without collusion.
    ///
    /// A King next to the enemy Spy ignores that Spy's own attack (10.1): the step flips it.
    #[inline]
    pub fn in_check(&self, side: Color, collusion: bool) -> bool {
        let Some(k) = self.king(side) else {
            return false;
        };
        let t = tables();
        self.king_attacked(
            side,
            k,
            self.by_color[side.other() as usize],
            self.line_blockers(t),
            collusion,
        )
    }

    /// Whether `side`'s King would be in check after the man on `from` moves to `to`,
    /// taking whatever stands there (an ordinary move: no second half, nobody changes
    /// sides), without playing it: what [`Board::in_check`] says of the board after
    /// [`Board::shift`].
    #[inline]
    pub fn in_check_after(&self, side: Color, from: usize, to: usize, collusion: bool) -> bool {
        let t = tables();
        let mover = self.mailbox[from];
        let k = if mover == super::code(side, Kind::King) {
            to
        } else {
            match self.king(side) {
                Some(k) => k,
                None => return false,
            }
        };
        let to_bit = 1u128 << to;
        // The mover blocks lines on `to` unless he is a Spy outside Court (7.3).
        let blocks = mover != super::code(side, Kind::Spy) || t.court & to_bit != 0;
        let occ =
            self.line_blockers(t) & !(1u128 << from) & !to_bit | if blocks { to_bit } else { 0 };
        self.king_attacked(
            side,
            k,
            self.by_color[side.other() as usize] & !to_bit,
            occ,
            collusion,
        )
    }

    /// Whether `side`'s King on `k` is in check from the enemy men `them` (the board's, or
    /// fewer: a man just taken left out) with the line blockers `occ`.
    #[inline]
    fn king_attacked(&self, side: Color, k: usize, them: u128, occ: u128, collusion: bool) -> bool {
        let t = tables();
        let kbit = 1u128 << k;
        if t.court & kbit != 0 {
            return false;
        }
        if t.pawn_attacks[side as usize][k] & them & self.by_kind[0] != 0 {
            return true;
        }
        let not_field = !t.field;
        let knights = them & self.by_kind[1];
        if knights & ((t.border & (t.knight_l[k] | t.knight_x[k])) | (t.court & t.knight_x[k])) != 0
        {
            return true;
        }
        if them & self.by_kind[5] & not_field & t.adjacent[k] != 0 {
            return true;
        }
        let spy = them & self.by_kind[6];
        let spy_counts = if t.adjacent[k] & spy != 0 { 0 } else { spy };
        let queens = self.by_kind[4];
        let straight = them & (self.by_kind[3] | queens) & not_field | (spy_counts & not_field);
        let diagonal = them & (self.by_kind[2] | queens) & not_field | (spy_counts & not_field);
        if line_attacked(t, k, occ, straight, diagonal) {
            return true;
        }
        if collusion && t.field & kbit != 0 && spy & t.field != 0 {
            let colluders = self.colluders_among(side.other(), them);
            if colluders != 0 {
                return self.collusion_attackers(t, k, colluders, spy_counts, occ) != 0;
            }
        }
        false
    }
}
