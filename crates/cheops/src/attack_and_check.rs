//! Attack, check and legal turns (rulebook 7.5): a piece attacks a square when it could
//! capture a capturable enemy piece there, with every blocking and Castle rule; a turn is
//! legal when it leaves the mover's King unattacked.

use crate::pieces::class;
use crate::position::{cell_color, sqb, CheopsMove, CheopsPosition};
use crate::rules::{Bits, Rules};
use menagerie_core::{BitBoard, Color};

impl CheopsPosition {
    /// Whether the active piece `c` on `s` attacks `t` (7.5): it could capture a capturable
    /// enemy piece there, with every blocking and Castle rule.
    pub(crate) fn attacks(&self, s: usize, c: u8, t: usize) -> bool {
        let r: &Rules = &self.rules;
        let role = self.move_role(s, c);
        let color = cell_color(c);
        let passes = r.is(role, class::PASSES_CASTLES);
        let dx = (r.file[t] - r.file[s]) as i32;
        let dy = (r.rank[t] - r.rank[s]) as i32;
        let mut closed: Option<Bits> = None;
        for comp in &r.comps[role][color.index()] {
            if !comp.captures {
                continue;
            }
            for &(ox, oy) in &comp.offsets {
                let (ox, oy) = (ox as i32, oy as i32);
                if !comp.rider {
                    if (ox, oy) != (dx, dy) {
                        continue;
                    }
                    let cl = *closed.get_or_insert_with(|| self.closed_for(s, passes));
                    if !self.leg_closed(s, t, &cl, comp.rect) && !self.chair_shielded(s, t, passes)
                    {
                        return true;
                    }
                    continue;
                }
                // A rider: t must lie k >= 1 steps along the offset.
                let k = if ox != 0 {
                    if dx % ox != 0 {
                        continue;
                    }
                    dx / ox
                } else {
                    if dx != 0 || dy % oy != 0 {
                        continue;
                    }
                    dy / oy
                };
                if k < 1 || k * ox != dx || k * oy != dy {
                    continue;
                }
                let cl = *closed.get_or_insert_with(|| self.closed_for(s, passes));
                let (f, rk) = (r.file[s] as i32, r.rank[s] as i32);
                let mut prev = s;
                let mut screens = 0;
                let mut ok = true;
                for i in 1..k {
                    let q = ((rk + i * oy) * r.n as i32 + f + i * ox) as usize;
                    if self.leg_closed(prev, q, &cl, comp.rect) {
                        ok = false;
                        break;
                    }
                    if self.board[q] != 0 {
                        if !comp.hopper || screens == 1 || self.active_bastions().has(sqb(q)) {
                            ok = false;
                            break;
                        }
                        screens += 1;
                    }
                    prev = q;
                }
                if ok
                    && (!comp.hopper || screens == 1)
                    && !self.leg_closed(prev, t, &cl, comp.rect)
                    && !self.chair_shielded(s, t, passes)
                {
                    return true;
                }
            }
        }
        false
    }

    /// Whether `side` attacks `t` with any of its active pieces.
    pub(crate) fn attacked_by(&self, side: Color, t: usize) -> bool {
        let mut pieces = self.occ[side.index()] & !self.frozen;
        while let Some(s) = pieces.pop_first() {
            let s = s.index();
            if self.attacks(s, self.board[s], t) {
                return true;
            }
        }
        false
    }

    /// Whether `side`'s King is attacked.
    #[inline]
    pub(crate) fn in_check(&self, side: Color) -> bool {
        self.attacked_by(side.other(), self.kings[side.index()] as usize)
    }

    /// Whether playing `mv` leaves the mover's King safe (7.5).
    #[inline]
    pub(crate) fn is_legal(&self, mv: &CheopsMove) -> bool {
        let mut next = self.clone();
        next.apply(mv);
        !next.in_check(self.turn)
    }
}
