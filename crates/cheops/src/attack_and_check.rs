//! Attack, check and legal turns (rulebook 7.5): a piece attacks a square when it could
//! capture a capturable enemy piece there, with every blocking and Castle rule; a turn is
//! legal when it leaves the mover's King unattacked.

use crate::pieces::class;
use crate::position::{cell_color, cell_role, sqb, CheopsMove, CheopsPosition, TurnKind, NONE};
use crate::rules::{Bits, Rules, Style};
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
        let r: &Rules = &self.rules;
        let len = r.n * r.n;
        let reach = &r.reach[side.index()];
        // Only pieces standing where their kind could ever capture on `t` are tried.
        let mut pieces = self.occ[side.index()] & !self.frozen & r.lines[side.index()][t];
        while let Some(s) = pieces.pop_first() {
            let c = self.board[s.index()];
            let role = self.move_role(s.index(), c);
            if reach[role * len + t].has(s) && self.attacks(s.index(), c, t) {
                return true;
            }
        }
        false
    }

    /// The squares where a move's change makes the play-on-a-copy test necessary: every
    /// square whose occupant can change an attack on the mover's King (`Rules::lines`), and
    /// the blocks of the Castles (a change there can arrest, release, activate or end one).
    #[inline]
    pub(crate) fn guarded_squares(&self) -> Bits {
        let r: &Rules = &self.rules;
        let me = self.turn;
        let mut guard = r.lines[me.other().index()][self.kings[me.index()] as usize];
        for c in self.castles() {
            guard |= r.block[c.chair as usize];
        }
        guard
    }

    /// Whether `mv` is legal without playing it, when that can be told for sure: the side to
    /// move is not in check (`guard` is then [`Self::guarded_squares`]) and `mv` is an ordinary
    /// move by a piece other than the King that neither leaves nor enters a guarded square
    /// nor can form a Castle. Then every enemy piece that could attack the King keeps its
    /// path, its activity and the Castle rules it meets, so the King stays unattacked
    /// (7.5). Anything else returns false and is tested by playing it.
    #[inline]
    pub(crate) fn surely_legal(&self, mv: &CheopsMove, guard: &Bits) -> bool {
        mv.kind == TurnKind::Move
            && mv.from != self.kings[self.turn.index()]
            && !guard.has(sqb(mv.from as usize))
            && !guard.has(sqb(mv.to as usize))
            && !self.may_form_castle(mv)
    }

    /// Whether the move `mv` could complete a Castle's foundation (9.2): its piece lands as a
    /// Rook or pillar diagonally next to a possible chair whose other three corners hold
    /// pieces of the mover's side.
    fn may_form_castle(&self, mv: &CheopsMove) -> bool {
        let r: &Rules = &self.rules;
        if r.style != Style::Imperial {
            return false;
        }
        let (from, to) = (mv.from as usize, mv.to as usize);
        let role = if mv.promo != NONE {
            mv.promo as usize
        } else {
            cell_role(self.board[from])
        };
        if !r.is(role, class::ROOK | class::PILLAR) {
            return false;
        }
        let mine = self.occ[self.turn.index()];
        let (f, rk) = (r.file[to] as i32, r.rank[to] as i32);
        [(-1, -1), (1, -1), (-1, 1), (1, 1)]
            .iter()
            .any(|&(dx, dy)| {
                r.sq(f + dx, rk + dy).is_some_and(|ch| {
                    r.chair_ok(ch)
                        && r.corners(ch)
                            .iter()
                            .all(|&q| q == to || (q != from && mine.has(sqb(q))))
                })
            })
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
