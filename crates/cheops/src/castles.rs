//! Castles (rulebook §9, Imperial only): the Castle Effect while active (C1 closed to pieces
//! outside, C2 bastions never a screen nor hopped, C4 the shielded chair), arrestees (9.6),
//! keeping a Castle active (9.4), formation (9.2) and activation (9.3).

use crate::order_of_events::TurnEffects;
use crate::pieces::class;
use crate::position::{cell_color, cell_role, sqb, Castle, CheopsPosition, MAX_CASTLES, NONE};
use crate::rules::{Bits, Rules};
use menagerie_core::geometry::{Offset, DIAGONAL};
use menagerie_core::{BitBoard, Color};

impl CheopsPosition {
    #[inline(always)]
    pub(crate) fn active_castles(&self) -> impl Iterator<Item = &Castle> {
        self.castles[..self.ncastles as usize]
            .iter()
            .filter(|c| c.active)
    }

    #[inline(always)]
    pub(crate) fn any_active(&self) -> bool {
        self.castles[..self.ncastles as usize]
            .iter()
            .any(|c| c.active)
    }

    /// Whether `s` is in the halls of the Castle with chair `chair`.
    #[inline(always)]
    pub(crate) fn in_halls(&self, chair: usize, s: usize) -> bool {
        let r: &Rules = &self.rules;
        let df = (r.file[s] - r.file[chair]).abs();
        let dr = (r.rank[s] - r.rank[chair]).abs();
        df + dr <= 1
    }

    #[inline(always)]
    pub(crate) fn is_room(&self, chair: usize, s: usize) -> bool {
        s != chair && self.in_halls(chair, s)
    }

    /// Recomputes the bastions and the arrestees from the Castles and the board.
    pub(crate) fn refresh(&mut self) {
        let r: &Rules = &self.rules;
        let mut bastions = Bits::EMPTY;
        let mut frozen = Bits::EMPTY;
        for c in &self.castles[..self.ncastles as usize] {
            for s in r.corners(c.chair as usize) {
                bastions.set(sqb(s));
            }
            if c.active {
                for h in r.halls(c.chair as usize) {
                    if self.is_arrestee_of(c, h) {
                        frozen.set(sqb(h));
                    }
                }
            }
        }
        self.bastions = bastions;
        self.frozen = frozen | bastions;
    }

    /// Whether the piece on `h` (in the halls of active `c`) is an arrestee (9.6).
    pub(crate) fn is_arrestee_of(&self, c: &Castle, h: usize) -> bool {
        let p = self.board[h];
        p != 0 && cell_color(p) != c.owner && {
            let role = cell_role(p);
            !self.rules.is(role, class::ROYAL | class::NEVER_ARRESTED)
        }
    }

    /// Whether the piece on `s` is not active, judged on the Castles as they stand now
    /// (used inside a turn, before [`Self::refresh`]).
    pub(crate) fn frozen_now(&self, s: usize) -> bool {
        let r: &Rules = &self.rules;
        self.castles[..self.ncastles as usize].iter().any(|c| {
            r.corners(c.chair as usize).contains(&s)
                || (c.active && self.in_halls(c.chair as usize, s) && self.is_arrestee_of(c, s))
        })
    }

    /// The squares closed to a piece on `s` by C1: the blocks of the active Castles whose
    /// halls it is not in. An Assassin (passes-castles) has none.
    #[inline(always)]
    pub(crate) fn closed_for(&self, s: usize, passes: bool) -> Bits {
        let mut closed = Bits::EMPTY;
        if passes {
            return closed;
        }
        for c in self.active_castles() {
            if !self.in_halls(c.chair as usize, s) {
                closed |= self.rules.block[c.chair as usize];
            }
        }
        closed
    }

    /// The bastions of the active Castles: never a screen, never hopped (C2).
    #[inline(always)]
    pub(crate) fn active_bastions(&self) -> Bits {
        let mut b = Bits::EMPTY;
        for c in self.active_castles() {
            for s in self.rules.corners(c.chair as usize) {
                b.set(sqb(s));
            }
        }
        b
    }

    /// Whether one leg of a move from `a` to `b` lands on or passes over a closed square.
    #[inline(always)]
    pub(crate) fn leg_closed(&self, a: usize, b: usize, closed: &Bits, rect: bool) -> bool {
        if closed.is_empty() {
            return false;
        }
        if !rect || self.rules.settings.leap_landing_only {
            return closed.has(sqb(b));
        }
        let r: &Rules = &self.rules;
        let (f0, f1) = (r.file[a].min(r.file[b]), r.file[a].max(r.file[b]));
        let (r0, r1) = (r.rank[a].min(r.rank[b]), r.rank[a].max(r.rank[b]));
        for rr in r0..=r1 {
            for ff in f0..=f1 {
                let s = rr as usize * r.n + ff as usize;
                if s != a && closed.has(sqb(s)) {
                    return true;
                }
            }
        }
        false
    }

    /// C4: whether a capture (or attack) from `s` on `t` is stopped because `t` is the chair
    /// of an active Castle held by its owner's piece. Only an enemy Assassin in a room passes.
    #[inline(always)]
    pub(crate) fn chair_shielded(&self, s: usize, t: usize, passes: bool) -> bool {
        let occupant = self.board[t];
        if occupant == 0 {
            return false;
        }
        self.active_castles().any(|c| {
            c.chair as usize == t
                && cell_color(occupant) == c.owner
                && !(passes && self.is_room(t, s))
        })
    }

    /// Step 2: an active Castle stays active while its activator stays on the board and,
    /// if it moves, is noble and stays in the halls (9.4); its entitled Pawns follow (8.2 a).
    #[inline]
    pub(crate) fn keep_castles(&mut self, turn: &TurnEffects) {
        for i in 0..self.ncastles as usize {
            let mut c = self.castles[i];
            if !c.active {
                continue;
            }
            let act = c.activator as usize;
            if turn.left.contains(&act) {
                c.active = false;
            } else if let Some((f, t, noble)) = turn.moved {
                if f == act {
                    if noble && self.in_halls(c.chair as usize, t) {
                        c.activator = t as u8;
                    } else {
                        c.active = false;
                    }
                }
            }
            c.entitled = if c.active {
                self.follow_entitled(&c, turn.moved)
            } else {
                0
            };
            if !c.active {
                c.activator = NONE;
                c.owner = Color::White;
            }
            self.castles[i] = c;
        }
    }

    /// Step 4: an inactive Castle with a piece on its chair becomes active, owned by that
    /// piece's side, its Pawns in the halls entitled to promote (9.3, 8.2 a).
    #[inline]
    pub(crate) fn activate_castles(&mut self) {
        for i in 0..self.ncastles as usize {
            let c = self.castles[i];
            let chair = c.chair as usize;
            if !c.active && self.board[chair] != 0 {
                let owner = cell_color(self.board[chair]);
                let mut entitled = 0;
                for (j, h) in self.rules.halls(chair).into_iter().enumerate() {
                    let p = self.board[h];
                    if p != 0
                        && cell_color(p) == owner
                        && self.rules.is(cell_role(p), class::PROMOTES)
                    {
                        entitled |= 1 << j;
                    }
                }
                self.castles[i] = Castle {
                    chair: c.chair,
                    active: true,
                    owner,
                    activator: c.chair,
                    entitled,
                };
            }
        }
    }

    /// Forms the Castles completed by the turn (9.2): only foundations with a corner on a
    /// changed square, the lower chair first when two overlap.
    pub(crate) fn form_castles(&mut self, changed: &[usize]) {
        let mut chairs = [usize::MAX; 16];
        let mut n = 0;
        for &s in changed {
            // Every corner of a foundation holds a Rook or a pillar (9.2): a changed square
            // that is now empty or holds anything else completes none.
            if s == usize::MAX
                || self.board[s] == 0
                || !self
                    .rules
                    .is(cell_role(self.board[s]), class::ROOK | class::PILLAR)
            {
                continue;
            }
            // A chair next to `s` completes only when the other three corners of its
            // foundation hold pieces of `s`'s side (`pattern_at` asks that and more): most
            // Rook moves complete nothing, told from the tables at once.
            let side = self.occ[cell_color(self.board[s]).index()];
            let count = self.rules.foundation_count[s] as usize;
            if !self.rules.foundations[s][..count]
                .iter()
                .any(|&mates| mates & side == mates)
            {
                continue;
            }
            let (f, rk) = (self.rules.file[s] as i32, self.rules.rank[s] as i32);
            for Offset { dx, dy } in DIAGONAL {
                let (dx, dy) = (dx as i32, dy as i32);
                if let Some(ch) = self.rules.sq(f + dx, rk + dy) {
                    if self.rules.chair_ok(ch) && !chairs[..n].contains(&ch) {
                        chairs[n] = ch;
                        n += 1;
                    }
                }
            }
        }
        chairs[..n].sort_unstable();
        for &ch in &chairs[..n] {
            if (self.ncastles as usize) < MAX_CASTLES
                && !self.overlaps_castle(ch)
                && self.pattern_at(ch, true)
            {
                self.insert_castle(Castle::inactive(ch));
            }
        }
    }

    /// Whether the block around `chair` shares a square with an existing Castle's block.
    pub(crate) fn overlaps_castle(&self, chair: usize) -> bool {
        let r: &Rules = &self.rules;
        self.castles().iter().any(|c| {
            let o = c.chair as usize;
            (r.file[o] - r.file[chair]).abs() <= 2 && (r.rank[o] - r.rank[chair]).abs() <= 2
        })
    }

    /// Whether the corners around `chair` hold two Rooks and two pillars of one colour,
    /// all active (arrestees cannot be pillars) when `active_only`.
    pub(crate) fn pattern_at(&self, chair: usize, active_only: bool) -> bool {
        let r: &Rules = &self.rules;
        let corners = r.corners(chair);
        let first = self.board[corners[0]];
        if first == 0 {
            return false;
        }
        let color = cell_color(first);
        let (mut rooks, mut pillars, mut both) = (0, 0, 0);
        for s in corners {
            let p = self.board[s];
            if p == 0 || cell_color(p) != color || (active_only && self.frozen_now(s)) {
                return false;
            }
            let role = cell_role(p);
            match (r.rook(role), r.is(role, class::PILLAR)) {
                (true, true) => both += 1,
                (true, false) => rooks += 1,
                (false, true) => pillars += 1,
                (false, false) => return false,
            }
        }
        rooks <= 2 && pillars <= 2 && rooks + pillars + both == 4
    }

    pub(crate) fn insert_castle(&mut self, c: Castle) {
        let n = self.ncastles as usize;
        let mut i = n;
        while i > 0 && self.castles[i - 1].chair > c.chair {
            self.castles[i] = self.castles[i - 1];
            i -= 1;
        }
        self.castles[i] = c;
        self.ncastles += 1;
    }
}
