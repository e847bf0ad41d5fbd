//! Attack, check and legal turns (rulebook 7.5): a piece attacks a square when it could
//! capture a capturable enemy piece there, with every blocking and Castle rule; a turn is
//! legal when it leaves the mover's King unattacked.

use crate::pieces::class;
use crate::position::{cell_color, sqb, CheopsMove, CheopsPosition, TurnKind, MAX_SQUARES, NONE};
use crate::rules::{Bits, Rules, Style, HOP_CAPTURES, RAY_CAPTURES};
use menagerie_core::{BitBoard, Color};

impl CheopsPosition {
    /// Whether the active piece `c` on `s` attacks `t` (7.5): it could capture a capturable
    /// enemy piece there, with every blocking and Castle rule.
    #[inline]
    pub(crate) fn attacks(&self, s: usize, c: u8, t: usize) -> bool {
        self.attacks_past(s, c, t, usize::MAX)
    }

    /// [`Self::attacks`] as if the square `gap` were empty (a King stepping off it).
    #[inline]
    pub(crate) fn attacks_past(&self, s: usize, c: u8, t: usize, gap: usize) -> bool {
        self.attacks_as(s, self.move_role(s, c), cell_color(c), t, gap, usize::MAX)
    }

    /// [`Self::attacks_past`] for a piece of `role` and `color` on `s` (which may stand
    /// elsewhere now: a move's piece judged from its landing square), as if `fill` held a
    /// piece too (a move's landing square judged before it is played).
    fn attacks_as(
        &self,
        s: usize,
        role: usize,
        color: Color,
        t: usize,
        gap: usize,
        fill: usize,
    ) -> bool {
        let r: &Rules = &self.rules;
        let passes = r.is(role, class::PASSES_CASTLES);
        let dx = (r.file[t] - r.file[s]) as i32;
        let dy = (r.rank[t] - r.rank[s]) as i32;
        let mut closed: Option<Bits> = None;
        let aligned = (dx, dy) != (0, 0) && (dx == 0 || dy == 0 || dx.abs() == dy.abs());
        let toward = [(dx.signum() as i8, dy.signum() as i8)];
        for comp in &r.comps[role][color.index()] {
            if !comp.captures {
                continue;
            }
            // A rider of one-step offsets (Rooks, Bishops, Queens, Masters) reaches `t` only
            // along the offset pointing at it: that one alone is tried (a Queen tried all
            // eight, dividing for each).
            let offsets: &[(i8, i8)] = if comp.rider && comp.all_unit {
                if !aligned || comp.unit_dirs >> ((dy.signum() + 1) * 3 + dx.signum() + 1) & 1 == 0
                {
                    continue;
                }
                &toward
            } else {
                &comp.offsets
            };
            for &(ox, oy) in offsets {
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
                if cl.is_empty() && ox.abs() <= 1 && oy.abs() <= 1 {
                    // A one-step line with no closed square (most attacks): the pieces
                    // between come from the occupancy bits, not from walking the line.
                    let d = ((oy + 1) * 3 + ox + 1) as usize;
                    let mut between = r.unit_rays[s][d] ^ r.unit_rays[t][d];
                    between.clear(sqb(t));
                    let mut occupied = self.occ[0] | self.occ[1];
                    if gap < MAX_SQUARES {
                        occupied.clear(sqb(gap));
                    }
                    if fill < MAX_SQUARES {
                        occupied.set(sqb(fill));
                    }
                    let on = between & occupied;
                    let open = if comp.hopper {
                        on.count() == 1 && (on & self.active_bastions()).is_empty()
                    } else {
                        on.is_empty()
                    };
                    if open && !self.chair_shielded(s, t, passes) {
                        return true;
                    }
                    continue;
                }
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
                    if (self.board[q] != 0 && q != gap) || q == fill {
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

    /// Whether `side` attacks `to` once the enemy King has stepped there from `from` (a
    /// capture on `to` removes its piece); the Castles must be untouched by the step.
    fn attacked_after_king_step(&self, side: Color, from: usize, to: usize) -> bool {
        let r: &Rules = &self.rules;
        let len = r.n * r.n;
        let reach = &r.reach[side.index()];
        let mut pieces = self.occ[side.index()] & !self.frozen & r.lines[side.index()][to];
        while let Some(s) = pieces.pop_first() {
            let i = s.index();
            if i == to {
                continue;
            }
            let c = self.board[i];
            let role = self.move_role(i, c);
            if reach[role * len + to].has(s) && self.attacks_past(i, c, to, from) {
                return true;
            }
        }
        false
    }

    /// The squares where a move's change makes the play-on-a-copy test necessary, or `None`
    /// when the side to move is in check (then every move is played on a copy).
    ///
    /// Only enemy pieces that could ever capture on the King's square from where they stand
    /// (`Rules::reach`) can attack it, and whether one of them does depends on the board
    /// only through the squares strictly between it and the King along a rider's line
    /// (a leaper's attack does not depend on what stands anywhere; a leg's rectangle matters
    /// only for the Castles' closure). Emptying such a square can open a line or leave a
    /// Master's screen alone, so a move may not *leave* one unseen; filling one can only
    /// block a plain rider, but it can give a Master its screen, so a move may not *enter* a
    /// square between a Master (any hopping rider) and the King. A capture leaves its square
    /// occupied. The blocks of the Castles are guarded both ways (a change there can arrest,
    /// release, activate or end one, which changes who is active and which squares are
    /// closed).
    #[inline]
    pub(crate) fn guard(&self) -> Option<Guard> {
        let r: &Rules = &self.rules;
        let me = self.turn;
        let them = me.other();
        let king = self.kings[me.index()] as usize;
        let len = r.n * r.n;
        let reach = &r.reach[them.index()];
        let mut blocks = Bits::EMPTY;
        for c in self.castles() {
            blocks |= r.block[c.chair as usize];
        }
        let mut guard = Guard {
            leave: blocks,
            enter: blocks,
            blocks,
            settled: !self
                .castles()
                .iter()
                .any(|c| !c.active && self.board[c.chair as usize] != 0),
        };
        let (kf, kr) = (r.file[king] as i32, r.rank[king] as i32);
        let mut pieces = self.occ[them.index()] & !self.frozen & r.lines[them.index()][king];
        while let Some(a) = pieces.pop_first() {
            let s = a.index();
            let c = self.board[s];
            let role = self.move_role(s, c);
            if !reach[role * len + king].has(a) {
                continue;
            }
            let (dx, dy) = (kf - r.file[s] as i32, kr - r.rank[s] as i32);
            // Whether the piece may attack the King: a leap onto it, a plain ride with no
            // piece between, or a hopper's with exactly one (what `attacks` requires before
            // its Castle rules). Only then is the whole test made: most pieces on the King's
            // lines are blocked, and the lines are walked here anyway.
            let mut may_attack = false;
            for comp in &r.comps[role][them.index()] {
                if !comp.captures {
                    continue;
                }
                if !comp.rider {
                    may_attack |= comp
                        .offsets
                        .iter()
                        .any(|&(ox, oy)| (i32::from(ox), i32::from(oy)) == (dx, dy));
                    continue;
                }
                for &(ox, oy) in &comp.offsets {
                    let Some(k) = steps_along(dx, dy, ox as i32, oy as i32) else {
                        continue;
                    };
                    let (f, rk) = (r.file[s] as i32, r.rank[s] as i32);
                    let between =
                        |i: i32| ((rk + i * oy as i32) * r.n as i32 + f + i * ox as i32) as usize;
                    // A move empties at most one square between and fills at most one, and
                    // a capture leaves its square filled: with two pieces between a plain
                    // rider and the King (three for a hopper, which needs exactly one
                    // screen) the line stays shut whatever single move is made.
                    let pieces_between = (1..k).filter(|&i| self.board[between(i)] != 0).count();
                    may_attack |= pieces_between == usize::from(comp.hopper);
                    if pieces_between >= if comp.hopper { 3 } else { 2 } {
                        continue;
                    }
                    for i in 1..k {
                        let q = sqb(between(i));
                        guard.leave.set(q);
                        if comp.hopper {
                            guard.enter.set(q);
                        }
                    }
                }
            }
            if may_attack && self.attacks(s, c, king) {
                return None;
            }
        }
        Some(guard)
    }

    /// When the side to move is in check: the squares an ordinary move must leave or enter
    /// to stand any chance of ending the check by the first attacker found (the squares
    /// between it and the King on its lines, its own square for a capture, the Castles'
    /// blocks), or `None` when that cannot be said (no attacker found, or a Castle whose
    /// chair is occupied but inactive, which any turn would activate).
    ///
    /// A move of a piece other than the King that touches none of them, and completes no
    /// foundation (a new Castle may close squares), leaves that attacker its activity,
    /// its role, its path and the Castle rules it meets: the King stays attacked.
    pub(crate) fn evasion(&self) -> Option<Evasion> {
        let r: &Rules = &self.rules;
        let me = self.turn;
        let them = me.other();
        if self
            .castles()
            .iter()
            .any(|c| !c.active && self.board[c.chair as usize] != 0)
        {
            return None;
        }
        let king = self.kings[me.index()] as usize;
        let len = r.n * r.n;
        let reach = &r.reach[them.index()];
        let mut blocks = Bits::EMPTY;
        for c in self.castles() {
            blocks |= r.block[c.chair as usize];
        }
        let (kf, kr) = (r.file[king] as i32, r.rank[king] as i32);
        let mut pieces = self.occ[them.index()] & !self.frozen & r.lines[them.index()][king];
        while let Some(a) = pieces.pop_first() {
            let s = a.index();
            let c = self.board[s];
            let role = self.move_role(s, c);
            if !reach[role * len + king].has(a) || !self.attacks(s, c, king) {
                continue;
            }
            let mut leave = blocks;
            let (dx, dy) = (kf - r.file[s] as i32, kr - r.rank[s] as i32);
            let (f, rk) = (r.file[s] as i32, r.rank[s] as i32);
            for comp in &r.comps[role][them.index()] {
                if !comp.captures || !comp.rider {
                    continue;
                }
                for &(ox, oy) in &comp.offsets {
                    let Some(k) = steps_along(dx, dy, ox as i32, oy as i32) else {
                        continue;
                    };
                    for i in 1..k {
                        leave.set(sqb(
                            ((rk + i * oy as i32) * r.n as i32 + f + i * ox as i32) as usize
                        ));
                    }
                }
            }
            let mut enter = leave;
            enter.set(a);
            return Some(Evasion {
                leave,
                enter,
                blocks,
            });
        }
        None
    }

    /// Whether `mv` is legal when the side to move is in check, if that can be told without
    /// playing it ([`Self::evasion`]): an ordinary move of another piece that touches none
    /// of the evasion's squares leaves the King attacked; an ordinary King step is judged
    /// in place as out of check (the step's landing square attacked with the King's old
    /// square empty and the piece it takes gone: being in check before changes nothing
    /// there, and no chair is occupied by an inactive Castle, so no turn activates one).
    #[inline(always)]
    pub(crate) fn evasion_legality(&self, mv: &CheopsMove, evasion: &Evasion) -> Option<bool> {
        if mv.kind != TurnKind::Move {
            return None;
        }
        if mv.from == self.kings[self.turn.index()] {
            return self.king_step_legality(mv, &evasion.blocks);
        }
        (!evasion.leave.has(sqb(mv.from as usize))
            && !evasion.enter.has(sqb(mv.to as usize))
            && !self.may_form_castle(mv))
        .then_some(false)
    }

    /// Whether `mv` is legal, when that can be told without playing it; `None` when it must
    /// be played on a copy. The side to move is not in check (`guard` is then
    /// [`Self::guard`]'s).
    ///
    /// * An ordinary move by a piece other than the King that neither leaves nor enters a
    ///   guarded square is legal: every enemy piece that could attack the King keeps its
    ///   path, its activity and the Castle rules it meets, so the King stays unattacked
    ///   (7.5). A Castle the move forms (9.2) changes nothing here: its block touches no
    ///   existing Castle, so no Castle is left or abandoned and no arrestee released, and a
    ///   new Castle only takes away (its bastions and arrestees attack nothing, C1 closes
    ///   squares, C2 takes screens, C4 shields a chair), so it never makes an attack.
    /// * An ordinary King step outside the Castles' blocks is legal when no enemy piece
    ///   attacks its landing square with the King's old square empty and the piece it takes
    ///   gone: nothing else changes (no Castle is entered, left, abandoned or formed).
    // Inlined into the legality filter (about a dozen instructions for the common case, a
    // call of some forty before); the King's step stays out of line.
    #[inline(always)]
    pub(crate) fn quick_legality(&self, mv: &CheopsMove, guard: &Guard) -> Option<bool> {
        if mv.kind != TurnKind::Move {
            return None;
        }
        let (from, to) = (mv.from as usize, mv.to as usize);
        if mv.from == self.kings[self.turn.index()] {
            return self.king_step_legality(mv, &guard.blocks);
        }
        (!guard.leave.has(sqb(from)) && !guard.enter.has(sqb(to))).then_some(true)
    }

    /// [`Self::quick_legality`] (and [`Self::evasion_legality`]) for an ordinary move of the
    /// King: judged in place, unless it touches a Castle's block (`blocks`),
    /// promotes or completes a foundation (then `None`: it is played on a copy).
    #[inline(never)]
    fn king_step_legality(&self, mv: &CheopsMove, blocks: &Bits) -> Option<bool> {
        let (from, to) = (mv.from as usize, mv.to as usize);
        // (A piece table may make the King a Rook, a pillar or a promoting piece.)
        if blocks.has(sqb(from))
            || blocks.has(sqb(to))
            || mv.promo != NONE
            || self.may_form_castle(mv)
        {
            return None;
        }
        Some(!self.attacked_after_king_step(self.turn.other(), from, to))
    }

    /// Whether the move `mv` could complete a Castle's foundation (9.2): its piece lands as a
    /// Rook or pillar diagonally next to a possible chair whose other three corners hold
    /// pieces of the mover's side.
    #[inline]
    fn may_form_castle(&self, mv: &CheopsMove) -> bool {
        let r: &Rules = &self.rules;
        if r.style != Style::Imperial {
            return false;
        }
        let (from, to) = (mv.from as usize, mv.to as usize);
        // By cell code (role + 1): one bit test instead of the role's classes.
        let code = if mv.promo != NONE {
            mv.promo as usize + 1
        } else {
            usize::from(self.board[from] & 15)
        };
        if r.castle_builders >> code & 1 == 0 {
            return false;
        }
        // The other three corners of a foundation around `to` all hold the mover's pieces,
        // the moving piece not counted (from tables: this ran for every Rook's move), word
        // by word.
        let mine = self.occ[self.turn.index()];
        // Three of the mover's pieces around `to` at least (most landings have fewer).
        if (r.foundation_union[to] & mine).count() < 3 {
            return false;
        }
        let mine = mine.0;
        let count = r.foundation_count[to] as usize;
        for mates in &r.foundations[to][..count] {
            let w = mates.0;
            let missing = (w[0] & !mine[0]) | (w[1] & !mine[1]) | (w[2] & !mine[2]);
            if missing == 0 && !mates.has(sqb(from)) {
                return true;
            }
        }
        false
    }

    /// Whether playing `mv` may leave the opponent's King attacked: `false` only when it
    /// certainly does not (the search then skips a pruned quiet move without playing it).
    ///
    /// Only an ordinary move without promotion is judged; every other turn may. Inside the
    /// Castles' blocks, or completing a foundation, a move can change who is active and
    /// which squares are closed, so it may. Otherwise the Castle rules, the active pieces
    /// and the Deputies' roles stay as they are, and the move changes the board only by
    /// emptying `from` and filling `to`, so a check after it comes from one of:
    /// * the moved piece, attacking the King from `to` with `from` empty;
    /// * a capturing rider whose line to the King passes `from` (emptied): it stands among
    ///   the first two pieces beyond `from` on that line (a plain rider first, a hopper
    ///   over at most one screen);
    /// * a capturing hopper whose line passes `to` (its new screen): among the first two
    ///   pieces beyond `to` (the other one can only be the moved piece, gone from `from`).
    pub(crate) fn may_give_check(&self, mv: &CheopsMove) -> bool {
        if mv.kind != TurnKind::Move || mv.promo != NONE {
            return true;
        }
        let r: &Rules = &self.rules;
        let me = self.turn;
        let (from, to) = (mv.from as usize, mv.to as usize);
        let king = self.kings[me.other().index()] as usize;
        if to == king {
            return true;
        }
        if self.ncastles > 0 {
            let mut blocks = Bits::EMPTY;
            for c in self.castles() {
                blocks |= r.block[c.chair as usize];
            }
            if blocks.has(sqb(from)) || blocks.has(sqb(to)) {
                return true;
            }
        }
        if self.may_form_castle(mv) {
            return true;
        }
        let c = self.board[from];
        let role = self.move_role(from, c);
        let len = r.n * r.n;
        if r.reach[me.index()][role * len + king].has(sqb(to))
            && self.attacks_as(to, role, me, king, from, usize::MAX)
        {
            return true;
        }
        (r.rider_between[me.index()][king].has(sqb(from)) && self.ray_gives(from, king, false))
            || (r.hopper_between[me.index()][king].has(sqb(to)) && self.ray_gives(to, king, true))
    }

    /// Whether one of the first two pieces beyond `q` on the line from `t` through `q` is
    /// the side to move's capturing rider ([`Self::may_give_check`]): the first may be a
    /// plain rider (unless `hoppers_only`) or a hopper, the second only a hopper.
    fn ray_gives(&self, q: usize, t: usize, hoppers_only: bool) -> bool {
        let r: &Rules = &self.rules;
        let (dx, dy) = (
            i32::from(r.file[q] - r.file[t]),
            i32::from(r.rank[q] - r.rank[t]),
        );
        let g = gcd(dx.unsigned_abs(), dy.unsigned_abs()) as i32;
        if g == 0 {
            return true;
        }
        let (sx, sy) = (dx / g, dy / g);
        let (mut f, mut rk) = (i32::from(r.file[q]), i32::from(r.rank[q]));
        let me = self.turn;
        let mut seen = 0;
        loop {
            f += sx;
            rk += sy;
            let Some(p) = r.sq(f, rk) else {
                return false;
            };
            let c = self.board[p];
            if c == 0 {
                continue;
            }
            if cell_color(c) == me {
                let kinds = r.ray_captures[self.move_role(p, c)];
                let wanted = if hoppers_only || seen > 0 {
                    HOP_CAPTURES
                } else {
                    RAY_CAPTURES
                };
                if kinds & wanted != 0 {
                    return true;
                }
            }
            seen += 1;
            if seen == 2 {
                return false;
            }
        }
    }

    /// Whether `side`'s King is attacked.
    #[inline]
    pub(crate) fn in_check(&self, side: Color) -> bool {
        self.attacked_by(side.other(), self.kings[side.index()] as usize)
    }

    /// [`Self::is_legal`] for a move the quick tests could not judge: an ordinary move of
    /// another piece than the King, outside the Castles' blocks (`blocks`), completing no
    /// foundation, while no inactive Castle's chair is occupied (`settled`), is judged in
    /// place; anything else is played on a copy.
    ///
    /// Such a move changes the board only by emptying `from` and filling `to` (the piece
    /// taken there is gone): the Castles, who is active and the closed squares stay as they
    /// are (see [`Self::quick_legality`]), and a piece's role or papers change nothing in
    /// the enemy's attacks. So the King is safe after it exactly when no enemy piece but
    /// the one on `to` attacks it with `from` empty and `to` occupied.
    #[inline(never)]
    pub(crate) fn is_legal_with(&self, mv: &CheopsMove, blocks: &Bits, settled: bool) -> bool {
        let (from, to) = (mv.from as usize, mv.to as usize);
        let king = self.kings[self.turn.index()] as usize;
        if !settled
            || mv.kind != TurnKind::Move
            || from == king
            || blocks.has(sqb(from))
            || blocks.has(sqb(to))
            || self.may_form_castle(mv)
        {
            return self.is_legal(mv);
        }
        let r: &Rules = &self.rules;
        let them = self.turn.other();
        let len = r.n * r.n;
        let reach = &r.reach[them.index()];
        let mut pieces = self.occ[them.index()] & !self.frozen & r.lines[them.index()][king];
        while let Some(a) = pieces.pop_first() {
            let s = a.index();
            if s == to {
                continue;
            }
            let c = self.board[s];
            let role = self.move_role(s, c);
            if reach[role * len + king].has(a)
                && self.attacks_as(s, role, cell_color(c), king, from, to)
            {
                return false;
            }
        }
        true
    }

    /// Whether playing `mv` leaves the mover's King safe (7.5).
    #[inline]
    pub(crate) fn is_legal(&self, mv: &CheopsMove) -> bool {
        let mut next = self.clone();
        next.apply(mv);
        !next.in_check(self.turn)
    }
}

/// The squares where a move's change can alter an attack on the mover's King
/// ([`CheopsPosition::guard`]).
pub(crate) struct Guard {
    /// A move leaving one of these is played on a copy.
    leave: Bits,
    /// A move entering one of these is played on a copy.
    enter: Bits,
    /// The blocks of the Castles.
    pub(crate) blocks: Bits,
    /// No inactive Castle's chair is occupied (else any turn activates one).
    pub(crate) settled: bool,
}

/// The squares whose change may end a check ([`CheopsPosition::evasion`]).
pub(crate) struct Evasion {
    /// A move leaving none of these ...
    leave: Bits,
    /// ... and entering none of these leaves the King attacked.
    enter: Bits,
    /// The blocks of the Castles (a King step touching one is played on a copy).
    pub(crate) blocks: Bits,
}

/// How many steps of `(ox, oy)` lead from a square to one `(dx, dy)` away: `Some(k)` with
/// `k >= 1` when it lies on that ray.
#[inline(always)]
fn steps_along(dx: i32, dy: i32, ox: i32, oy: i32) -> Option<i32> {
    let k = if ox != 0 {
        if dx % ox != 0 {
            return None;
        }
        dx / ox
    } else {
        if dx != 0 || oy == 0 || dy % oy != 0 {
            return None;
        }
        dy / oy
    };
    (k >= 1 && k * ox == dx && k * oy == dy).then_some(k)
}

/// The greatest common divisor (0 when both are 0).
fn gcd(mut a: u32, mut b: u32) -> u32 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}
