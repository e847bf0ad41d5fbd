//! Promotion (rulebook §8): on the last rank (8.1), and in the halls of a Castle (8.2):
//! entitled Pawns (a) and a Pawn's capture from the chair into the halls (b).

use crate::order_of_events::TurnEffects;
use crate::pieces::class;
use crate::position::{cell, cell_color, cell_role, Castle, CheopsMove, CheopsPosition, TurnKind};
use crate::rules::Rules;
use menagerie_core::Color;

impl CheopsPosition {
    /// Emits a move from `s` to `t`, with the promotion choices where one is due (8.1, 8.2 b).
    // Kept out of line so that the caller's per-move closure stays small enough to inline.
    #[inline(never)]
    pub(crate) fn emit(&self, s: usize, t: usize, c: u8, capture: bool, out: &mut Vec<CheopsMove>) {
        let r: &Rules = &self.rules;
        let role = cell_role(c);
        let mut mv = CheopsMove::new(TurnKind::Move, s, t);
        if r.is(role, class::PROMOTES) {
            let color = cell_color(c);
            let promote = r.rank[t] == r.last_rank(color)
                || (capture && self.promotes_in_halls_by_capture(s, t, color, mv));
            if promote {
                for &p in &r.promotions {
                    mv.promo = p as u8;
                    out.push(mv);
                }
                return;
            }
        }
        out.push(mv);
    }

    /// 8.2 (b): a Pawn capturing from the chair of a friendly active Castle onto a hall of the
    /// same Castle, judged on the Castle after the move (order of events, §16 step 1).
    pub(crate) fn promotes_in_halls_by_capture(
        &self,
        s: usize,
        t: usize,
        color: Color,
        mv: CheopsMove,
    ) -> bool {
        let before = self
            .active_castles()
            .any(|c| c.chair as usize == s && c.owner == color && self.in_halls(s, t));
        if !before {
            return false;
        }
        let mut after = self.clone();
        after.apply(&mv);
        after
            .castles()
            .iter()
            .any(|c| c.chair as usize == s && c.active && c.owner == color)
    }

    pub(crate) fn gen_hall_promotions(&self, out: &mut Vec<CheopsMove>) {
        let r: &Rules = &self.rules;
        for c in self.active_castles() {
            if c.owner != self.turn || c.entitled == 0 {
                continue;
            }
            for (i, h) in r.halls(c.chair as usize).into_iter().enumerate() {
                if c.entitled & (1 << i) != 0 {
                    let mut mv = CheopsMove::new(TurnKind::HallPromotion, h, h);
                    for &p in &r.promotions {
                        mv.promo = p as u8;
                        out.push(mv);
                    }
                }
            }
        }
    }

    /// Step 1 of a promotion in the halls (8.2 a).
    #[inline]
    pub(crate) fn promote_in_halls(&mut self, mv: &CheopsMove, turn: &mut TurnEffects) {
        let to = mv.to as usize;
        self.board[to] = cell(mv.promo as usize, self.turn);
        turn.reset = true;
        turn.change(to);
    }

    /// The entitled Pawns of active Castle `c` after the turn's move (8.2 a).
    pub(crate) fn follow_entitled(&self, c: &Castle, moved: Option<(usize, usize, bool)>) -> u8 {
        let r: &Rules = &self.rules;
        let halls = r.halls(c.chair as usize);
        let owners_pawn = |s: usize| {
            let p = self.board[s];
            p != 0 && cell_color(p) == c.owner && r.is(cell_role(p), class::PROMOTES)
        };
        let mut out = 0;
        for (i, &h) in halls.iter().enumerate() {
            if c.entitled & (1 << i) == 0 {
                continue;
            }
            match moved {
                Some((f, t, _)) if f == h => {
                    if let Some(j) = halls.iter().position(|&x| x == t) {
                        if owners_pawn(t) {
                            out |= 1 << j;
                        }
                    }
                }
                _ => {
                    if owners_pawn(h) {
                        out |= 1 << i;
                    }
                }
            }
        }
        out
    }
}
