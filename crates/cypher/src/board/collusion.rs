//! Collusion (7.4): a Field Spy lends the Field major pieces next to it the power to give
//! check from the Field, and the Field King may take such a checker (5.2).

use super::Board;
use crate::tables::{bishop_attacks, rook_attacks, tables, Tables};
use menagerie_core::Color;

impl Board {
    /// `side`'s Field majors standing next to `side`'s Field Spy (7.4); 0 if none.
    #[inline]
    pub fn colluders(&self, side: Color) -> u128 {
        self.colluders_among(side, self.by_color[side as usize])
    }

    /// The men of `men` (some of `side`'s) that collude with `side`'s Field Spy.
    #[inline]
    pub(super) fn colluders_among(&self, side: Color, men: u128) -> u128 {
        let t = tables();
        match self.spy(side) {
            Some(s) if t.field >> s & 1 != 0 => men & self.majors() & t.field & t.adjacent[s],
            _ => 0,
        }
    }

    /// Colluding men (pieces in `colluders` and the Spy `spy`, if it counts) that attack `k`.
    #[inline]
    pub(super) fn collusion_attackers(
        &self,
        t: &Tables,
        k: usize,
        colluders: u128,
        spy: u128,
        occ: u128,
    ) -> u128 {
        let queens = self.by_kind[4];
        let mut hits = colluders & self.by_kind[1] & t.knight_l[k];
        // Only the lines that hold a colluder are followed.
        let straight = (colluders & (self.by_kind[3] | queens) | spy) & t.rook_lines[k];
        let diagonal = (colluders & (self.by_kind[2] | queens) | spy) & t.bishop_lines[k];
        if straight != 0 {
            hits |= rook_attacks(t, k, occ) & straight;
        }
        if diagonal != 0 {
            hits |= bishop_attacks(t, k, occ) & diagonal;
        }
        hits
    }

    /// The enemy Field majors checking `side`'s Field King by collusion (5.2: he may take them).
    pub fn colluding_checkers(&self, side: Color) -> u128 {
        let t = tables();
        let Some(k) = self.king(side) else {
            return 0;
        };
        if t.field >> k & 1 == 0 {
            return 0;
        }
        let colluders = self.colluders(side.other());
        if colluders == 0 {
            return 0;
        }
        self.collusion_attackers(t, k, colluders, 0, self.line_blockers(t))
    }
}
