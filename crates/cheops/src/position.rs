//! The umpire's position: the whole board, the Castles, the known Deputies and the sealed
//! papers; move generation and the order of events inside a turn (rulebook §7 to §11, §16).

use crate::pieces::{class, CIVILIAN, DEPUTY, DUKE, KING};
use crate::rules::{Bits, Rules, RulesRef};
use menagerie_core::{BitBoard, Color, Square};

/// Squares on the largest board.
pub const MAX_SQUARES: usize = 169;
/// The most Castles a position can hold. With two Civilians a side (the parser's limit) at
/// most two can ever exist; the room is for piece tables that make other pieces pillars.
pub const MAX_CASTLES: usize = 8;
/// The longest hop chain: its landing squares share the parity of its start, so a 13x13
/// board has at most 48 of them.
pub const MAX_HOPS: usize = 48;
/// "No square" in a move's byte fields.
pub const NONE: u8 = 0xFF;
/// A hop whose arrest room is still to be chosen (used only while generating moves).
const ARREST_PENDING: u8 = 0xFE;

/// What kind of turn a move is (rulebook §7.1).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum TurnKind {
    /// A move or capture by the Betza definition, promotion included.
    Move,
    /// A Pawn entitled to it becomes a major piece in the halls (8.2 a).
    HallPromotion,
    /// A hop or a chain of hops, possibly ending in an arrest.
    Hop,
    /// The King of a Castle appoints one of his Civilians a Deputy.
    Appoint,
    /// An inspection of an apparent enemy Civilian's papers.
    Inspect,
    /// The King abdicates in favour of a Duke.
    Abdicate,
    /// Accepting the draw at a repetition where an abdication was possible (12.2).
    Draw,
}

/// One whole turn.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct CheopsMove {
    /// The kind of turn.
    pub kind: TurnKind,
    pub(crate) from: u8,
    pub(crate) to: u8,
    pub(crate) promo: u8,
    pub(crate) room: u8,
    pub(crate) hops: u8,
    pub(crate) path: [u8; MAX_HOPS],
}

impl CheopsMove {
    pub(crate) fn new(kind: TurnKind, from: usize, to: usize) -> Self {
        CheopsMove {
            kind,
            from: from as u8,
            to: to as u8,
            promo: NONE,
            room: NONE,
            hops: 0,
            path: [0; MAX_HOPS],
        }
    }
    /// The square the turn starts from (the appointed or inspected square for those turns).
    pub fn from(&self) -> Square {
        Square(self.from as u16)
    }
    /// The square the moving piece ends on (for an abdication: the Duke's square).
    pub fn to(&self) -> Square {
        Square(self.to as u16)
    }
    /// The role chosen by a promotion, if any.
    pub fn promotion(&self) -> Option<usize> {
        (self.promo != NONE).then_some(self.promo as usize)
    }
    /// The room an arrested piece is carried to, if the turn arrests.
    pub fn arrest_room(&self) -> Option<Square> {
        (self.room < NONE - 1).then_some(Square(self.room as u16))
    }
    /// The landing squares of a hop chain, in order.
    pub fn landings(&self) -> impl Iterator<Item = Square> + '_ {
        self.path[..self.hops as usize]
            .iter()
            .map(|&s| Square(s as u16))
    }
}

/// A Castle (rulebook §9): named by its chair.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Castle {
    /// The chair square.
    pub chair: u8,
    /// Whether it is active.
    pub active: bool,
    /// The owner while active.
    pub owner: Color,
    /// The square of the activating piece while active.
    pub activator: u8,
    /// Pawns entitled to promote in the halls: bit i = hall i in square order.
    pub entitled: u8,
}

impl Castle {
    pub(crate) fn inactive(chair: usize) -> Self {
        Castle {
            chair: chair as u8,
            active: false,
            owner: Color::White,
            activator: NONE,
            entitled: 0,
        }
    }
}

/// The umpire's position of a Little Cheops game, Common or Imperial.
#[derive(Clone)]
pub struct CheopsPosition {
    pub(crate) rules: RulesRef,
    pub(crate) board: [u8; MAX_SQUARES],
    pub(crate) occ: [Bits; 2],
    /// Known Deputies (revealed or compromised).
    pub(crate) known: Bits,
    /// Sealed papers: Deputies not yet known.
    pub(crate) papers: Bits,
    /// Bastions of every Castle.
    pub(crate) bastions: Bits,
    /// Pieces that are not active: bastions and arrestees.
    pub(crate) frozen: Bits,
    pub(crate) castles: [Castle; MAX_CASTLES],
    pub(crate) ncastles: u8,
    pub(crate) kings: [u8; 2],
    pub(crate) turn: Color,
    pub(crate) halfmove: u32,
    pub(crate) fullmove: u32,
    /// The side to move accepted the repetition draw (12.2).
    pub(crate) draw_accepted: bool,
}

/// A board cell: 0 empty, else role + 1 in the low four bits and the colour in bit 4.
#[inline(always)]
pub(crate) fn cell(role: usize, color: Color) -> u8 {
    (role as u8 + 1) | ((color as u8) << 4)
}
#[inline(always)]
pub(crate) fn cell_role(c: u8) -> usize {
    ((c & 15) - 1) as usize
}
#[inline(always)]
pub(crate) fn cell_color(c: u8) -> Color {
    if c & 16 != 0 {
        Color::Black
    } else {
        Color::White
    }
}
#[inline(always)]
pub(crate) fn sqb(s: usize) -> Square {
    Square(s as u16)
}

impl CheopsPosition {
    /// The compiled rules (style, piece table, options).
    pub fn rules(&self) -> &RulesRef {
        &self.rules
    }

    /// The Castles, in chair order.
    pub fn castles(&self) -> &[Castle] {
        &self.castles[..self.ncastles as usize]
    }

    #[inline(always)]
    fn active_castles(&self) -> impl Iterator<Item = &Castle> {
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
    fn is_room(&self, chair: usize, s: usize) -> bool {
        s != chair && self.in_halls(chair, s)
    }

    pub(crate) fn put(&mut self, s: usize, c: u8) {
        self.board[s] = c;
        self.occ[cell_color(c).index()].set(sqb(s));
    }

    /// Removes the piece on `s` with its deputy status.
    pub(crate) fn remove(&mut self, s: usize) -> u8 {
        let c = self.board[s];
        if c != 0 {
            self.board[s] = 0;
            self.occ[cell_color(c).index()].clear(sqb(s));
            self.known.clear(sqb(s));
            self.papers.clear(sqb(s));
        }
        c
    }

    /// Moves the piece on `from` to the empty square `to`, its deputy status with it.
    fn relocate(&mut self, from: usize, to: usize) {
        let c = self.board[from];
        let known = self.known.has(sqb(from));
        let paper = self.papers.has(sqb(from));
        self.remove(from);
        self.put(to, c);
        if known {
            self.known.set(sqb(to));
        }
        if paper {
            self.papers.set(sqb(to));
        }
    }

    /// The role that moves the piece on `s`: a Deputy moves as a Deputy (only its owner and
    /// the umpire know its papers; the opponent's view has no papers of the other side).
    #[inline(always)]
    pub(crate) fn move_role(&self, s: usize, c: u8) -> usize {
        let role = cell_role(c);
        if role == CIVILIAN && (self.known | self.papers).has(sqb(s)) {
            DEPUTY
        } else {
            role
        }
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
    fn is_arrestee_of(&self, c: &Castle, h: usize) -> bool {
        let p = self.board[h];
        p != 0 && cell_color(p) != c.owner && {
            let role = cell_role(p);
            !self.rules.is(role, class::ROYAL | class::NEVER_ARRESTED)
        }
    }

    /// Whether the piece on `s` is not active, judged on the Castles as they stand now
    /// (used inside a turn, before [`Self::refresh`]).
    fn frozen_now(&self, s: usize) -> bool {
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
    fn active_bastions(&self) -> Bits {
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
    fn leg_closed(&self, a: usize, b: usize, closed: &Bits, rect: bool) -> bool {
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
    fn chair_shielded(&self, s: usize, t: usize, passes: bool) -> bool {
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

    /// Whether the piece on `t` may be captured by the side to move (7.2): not a King, not a
    /// bastion, not a Civilian or a Deputy that is not known.
    #[inline(always)]
    fn capturable(&self, t: usize, mover: Color) -> bool {
        let c = self.board[t];
        if c == 0 || cell_color(c) == mover || self.bastions.has(sqb(t)) {
            return false;
        }
        let mut role = cell_role(c);
        if role == CIVILIAN && self.known.has(sqb(t)) {
            role = DEPUTY;
        }
        !self.rules.is(role, class::ROYAL | class::NEVER_CAPTURED)
    }

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

    // ---------------------------------------------------------------------------------
    // Move generation
    // ---------------------------------------------------------------------------------

    /// Every candidate turn of the side to move except abdication, before the check test.
    pub(crate) fn candidates(&self, out: &mut Vec<CheopsMove>) {
        let me = self.turn;
        let r: &Rules = &self.rules;
        let mut pieces = self.occ[me.index()] & !self.frozen;
        while let Some(s) = pieces.pop_first() {
            let s = s.index();
            let c = self.board[s];
            let role = self.move_role(s, c);
            let start = out.len();
            self.gen_betza(s, c, role, out);
            if r.needs_dedup(role) {
                dedup_tail(out, start);
            }
            if r.is(role, class::HOP) {
                self.gen_hops(s, role, out);
            }
        }
        if r.style == crate::rules::Style::Imperial {
            self.gen_hall_promotions(out);
            self.gen_appointments(out);
            self.gen_inspections(out);
        }
    }

    fn gen_betza(&self, s: usize, c: u8, role: usize, out: &mut Vec<CheopsMove>) {
        let r: &Rules = &self.rules;
        let me = self.turn;
        let passes = r.is(role, class::PASSES_CASTLES);
        let closed = self.closed_for(s, passes);
        let act_bastions = if self.any_active() {
            self.active_bastions()
        } else {
            Bits::EMPTY
        };
        let (f, rk) = (r.file[s] as i32, r.rank[s] as i32);
        for comp in &r.comps[role][me.index()] {
            for &(ox, oy) in &comp.offsets {
                let (ox, oy) = (ox as i32, oy as i32);
                if !comp.rider {
                    let Some(t) = r.sq(f + ox, rk + oy) else {
                        continue;
                    };
                    if self.leg_closed(s, t, &closed, comp.rect) {
                        continue;
                    }
                    if self.board[t] == 0 {
                        if comp.moves {
                            self.emit(s, t, c, false, out);
                        }
                    } else if comp.captures
                        && self.capturable(t, me)
                        && !self.chair_shielded(s, t, passes)
                    {
                        self.emit(s, t, c, true, out);
                    }
                    continue;
                }
                let mut prev = s;
                let mut screened = false;
                let mut k = 1;
                while let Some(t) = r.sq(f + k * ox, rk + k * oy) {
                    if self.leg_closed(prev, t, &closed, comp.rect) {
                        break;
                    }
                    let occupied = self.board[t] != 0;
                    if comp.hopper && !screened {
                        if occupied {
                            if act_bastions.has(sqb(t)) {
                                break;
                            }
                            screened = true;
                        }
                    } else if !occupied {
                        if comp.moves {
                            self.emit(s, t, c, false, out);
                        }
                    } else {
                        if comp.captures
                            && self.capturable(t, me)
                            && !self.chair_shielded(s, t, passes)
                        {
                            self.emit(s, t, c, true, out);
                        }
                        break;
                    }
                    prev = t;
                    k += 1;
                }
            }
        }
    }

    /// Emits a move from `s` to `t`, with the promotion choices where one is due (8.1, 8.2 b).
    #[inline(always)]
    fn emit(&self, s: usize, t: usize, c: u8, capture: bool, out: &mut Vec<CheopsMove>) {
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
    fn promotes_in_halls_by_capture(
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

    /// Hop chains (7.3) and arrests (10.5) of the hopping piece on `s`.
    fn gen_hops(&self, s: usize, role: usize, out: &mut Vec<CheopsMove>) {
        let r: &Rules = &self.rules;
        let passes = r.is(role, class::PASSES_CASTLES);
        let arrests = r.is(role, class::ARREST);
        let act_bastions = self.active_bastions();
        let mut mv = CheopsMove::new(TurnKind::Hop, s, s);
        let mut visited = Bits::EMPTY;
        self.hop_from(
            s,
            s,
            passes,
            arrests,
            &act_bastions,
            &mut mv,
            &mut visited,
            out,
        );
    }

    #[allow(clippy::too_many_arguments)]
    fn hop_from(
        &self,
        start: usize,
        cur: usize,
        passes: bool,
        arrests: bool,
        act_bastions: &Bits,
        mv: &mut CheopsMove,
        visited: &mut Bits,
        out: &mut Vec<CheopsMove>,
    ) {
        let r: &Rules = &self.rules;
        let me = self.turn;
        // Castle rules are judged from the square each hop starts from (7.3).
        let closed = self.closed_for(cur, passes);
        let (f, rk) = (r.file[cur] as i32, r.rank[cur] as i32);
        for &(dx, dy) in &KING_DIRS {
            let (Some(mid), Some(land)) = (r.sq(f + dx, rk + dy), r.sq(f + 2 * dx, rk + 2 * dy))
            else {
                continue;
            };
            // The starting square counts as empty during the chain.
            if mid == start || self.board[mid] == 0 || act_bastions.has(sqb(mid)) {
                continue;
            }
            if self.board[land] != 0 || visited.has(sqb(land)) {
                continue;
            }
            if closed.has(sqb(mid)) || closed.has(sqb(land)) {
                continue;
            }
            if mv.hops as usize >= MAX_HOPS {
                continue;
            }
            mv.path[mv.hops as usize] = land as u8;
            mv.hops += 1;
            mv.to = land as u8;
            visited.set(sqb(land));
            out.push(*mv);
            if arrests && self.arrestable(mid, me) {
                let mut pending = *mv;
                pending.room = ARREST_PENDING;
                let mut sim = self.clone();
                sim.apply(&pending);
                for castle in sim.castles() {
                    if !castle.active || castle.owner != me {
                        continue;
                    }
                    for (i, h) in r.halls(castle.chair as usize).into_iter().enumerate() {
                        if i != 2 && sim.board[h] == 0 {
                            let mut a = *mv;
                            a.room = h as u8;
                            out.push(a);
                        }
                    }
                }
            }
            self.hop_from(start, land, passes, arrests, act_bastions, mv, visited, out);
            visited.clear(sqb(land));
            mv.hops -= 1;
        }
        mv.to = if mv.hops == 0 {
            start as u8
        } else {
            mv.path[mv.hops as usize - 1]
        };
    }

    /// Whether the piece on `t` may be arrested by `mover` (10.5): an active enemy piece,
    /// not a King and not an Assassin.
    fn arrestable(&self, t: usize, mover: Color) -> bool {
        let c = self.board[t];
        c != 0
            && cell_color(c) != mover
            && !self.frozen.has(sqb(t))
            && !self
                .rules
                .is(cell_role(c), class::ROYAL | class::NEVER_ARRESTED)
    }

    fn gen_hall_promotions(&self, out: &mut Vec<CheopsMove>) {
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

    fn gen_appointments(&self, out: &mut Vec<CheopsMove>) {
        let me = self.turn;
        let king = self.kings[me.index()];
        let king_of_castle = self
            .active_castles()
            .any(|c| c.chair == king && c.owner == me);
        if !king_of_castle {
            return;
        }
        let mut civs = self.appointable(me);
        while let Some(s) = civs.pop_first() {
            out.push(CheopsMove::new(TurnKind::Appoint, s.index(), s.index()));
        }
    }

    /// `side`'s active Civilians that are not Deputies.
    pub(crate) fn appointable(&self, side: Color) -> Bits {
        let mut out = Bits::EMPTY;
        let mut pieces = self.occ[side.index()] & !self.frozen & !self.known & !self.papers;
        while let Some(s) = pieces.pop_first() {
            if cell_role(self.board[s.index()]) == CIVILIAN {
                out.set(s);
            }
        }
        out
    }

    fn gen_inspections(&self, out: &mut Vec<CheopsMove>) {
        let me = self.turn;
        let mut pieces = self.occ[me.other().index()] & !self.known & !self.bastions;
        while let Some(t) = pieces.pop_first() {
            let t = t.index();
            if cell_role(self.board[t]) == CIVILIAN && self.attacked_by(me, t) {
                out.push(CheopsMove::new(TurnKind::Inspect, t, t));
            }
        }
    }

    /// Whether playing `mv` leaves the mover's King safe (7.5).
    #[inline]
    pub(crate) fn is_legal(&self, mv: &CheopsMove) -> bool {
        let mut next = self.clone();
        next.apply(mv);
        !next.in_check(self.turn)
    }

    /// Every legal turn, abdication included where it is allowed (§11).
    pub(crate) fn generate(&self, out: &mut Vec<CheopsMove>) {
        if self.draw_accepted {
            return;
        }
        let start = out.len();
        self.candidates(out);
        let mut keep = start;
        for i in start..out.len() {
            let mv = out[i];
            if self.is_legal(&mv) {
                out[keep] = mv;
                keep += 1;
            }
        }
        out.truncate(keep);
        if keep == start {
            self.gen_abdications(out);
        }
    }

    /// Abdications: only when no other turn is legal; the new King must be safe.
    pub(crate) fn gen_abdications(&self, out: &mut Vec<CheopsMove>) {
        let me = self.turn;
        let king = self.kings[me.index()] as usize;
        let mut pieces = self.occ[me.index()] & !self.frozen;
        while let Some(d) = pieces.pop_first() {
            let d = d.index();
            if cell_role(self.board[d]) == DUKE {
                let mv = CheopsMove::new(TurnKind::Abdicate, king, d);
                if self.is_legal(&mv) {
                    out.push(mv);
                }
            }
        }
    }

    /// Whether a Civilian on `from` could step to `to` (a Deputy's move that a Civilian
    /// could not make compromises it, 10.3).
    fn civilian_could(&self, from: usize, to: usize) -> bool {
        let mut probe = self.clone();
        probe.papers.clear(sqb(from));
        probe.known.clear(sqb(from));
        let mut moves = Vec::new();
        let c = probe.board[from];
        probe.gen_betza(from, c, CIVILIAN, &mut moves);
        moves.iter().any(|m| m.to as usize == to)
    }

    // ---------------------------------------------------------------------------------
    // Playing a turn: the order of events (§16)
    // ---------------------------------------------------------------------------------

    /// Plays `mv` with all its consequences, without the check test.
    pub(crate) fn apply(&mut self, mv: &CheopsMove) {
        let me = self.turn;
        let mut changed = [usize::MAX; 4];
        let mut nchanged = 0;
        let mut left = [usize::MAX; 2];
        let mut moved: Option<(usize, usize, bool)> = None;
        let mut reset = false;
        let mut arrest: Option<(u8, bool, bool, usize)> = None;
        let from = mv.from as usize;
        let to = mv.to as usize;
        // 1. The turn itself.
        match mv.kind {
            TurnKind::Move => {
                let c = self.board[from];
                let role = cell_role(c);
                if self.board[to] != 0 {
                    self.remove(to);
                    left[0] = to;
                    reset = true;
                }
                if self.papers.has(sqb(from))
                    && !self.rules.deputy_steps_like_civilian
                    && !self.civilian_could(from, to)
                {
                    self.papers.clear(sqb(from));
                    self.known.set(sqb(from));
                }
                self.relocate(from, to);
                if self.rules.is(role, class::PROMOTES) {
                    reset = true;
                }
                if mv.promo != NONE {
                    self.board[to] = cell(mv.promo as usize, me);
                }
                if role == KING {
                    self.kings[me.index()] = to as u8;
                }
                moved = Some((from, to, self.rules.is(role, class::NOBILITY)));
                changed[0] = from;
                changed[1] = to;
                nchanged = 2;
            }
            TurnKind::HallPromotion => {
                self.board[to] = cell(mv.promo as usize, me);
                reset = true;
                changed[0] = to;
                nchanged = 1;
            }
            TurnKind::Hop => {
                let c = self.board[from];
                let role = cell_role(c);
                self.relocate(from, to);
                // Any hop compromises a Deputy (10.3).
                if self.papers.has(sqb(to)) {
                    self.papers.clear(sqb(to));
                    self.known.set(sqb(to));
                }
                if role == KING {
                    self.kings[me.index()] = to as u8;
                }
                moved = Some((from, to, self.rules.is(role, class::NOBILITY)));
                changed[0] = from;
                changed[1] = to;
                nchanged = 2;
                if mv.room != NONE {
                    let prev = if mv.hops >= 2 {
                        mv.path[mv.hops as usize - 2] as usize
                    } else {
                        from
                    };
                    let mid = (prev + to) / 2;
                    let known = self.known.has(sqb(mid));
                    let paper = self.papers.has(sqb(mid));
                    let taken = self.remove(mid);
                    left[0] = mid;
                    changed[2] = mid;
                    nchanged = 3;
                    reset = true;
                    if mv.room != ARREST_PENDING {
                        arrest = Some((taken, known, paper, mv.room as usize));
                    }
                }
            }
            TurnKind::Appoint => {
                self.papers.set(sqb(to));
            }
            TurnKind::Inspect => {
                if self.papers.has(sqb(to)) {
                    self.papers.clear(sqb(to));
                    self.known.set(sqb(to));
                }
            }
            TurnKind::Abdicate => {
                self.remove(from);
                self.board[to] = cell(KING, me);
                self.kings[me.index()] = to as u8;
                left[0] = from;
                changed[0] = from;
                changed[1] = to;
                nchanged = 2;
            }
            TurnKind::Draw => {
                self.draw_accepted = true;
                return;
            }
        }
        if self.ncastles > 0 {
            // 2. Keeping (9.4) and the entitled Pawns (8.2 a).
            for i in 0..self.ncastles as usize {
                let mut c = self.castles[i];
                if !c.active {
                    continue;
                }
                let act = c.activator as usize;
                if left.contains(&act) {
                    c.active = false;
                } else if let Some((f, t, noble)) = moved {
                    if f == act {
                        if noble && self.in_halls(c.chair as usize, t) {
                            c.activator = t as u8;
                        } else {
                            c.active = false;
                        }
                    }
                }
                c.entitled = if c.active {
                    self.follow_entitled(&c, moved)
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
        if self.rules.style == crate::rules::Style::Imperial {
            // 3. Formation (9.2).
            self.form_castles(&changed[..nchanged]);
            // 4. Activation (9.3).
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
        // 5. Arrest: the piece is carried to its room.
        if let Some((taken, known, paper, room)) = arrest {
            self.put(room, taken);
            if known {
                self.known.set(sqb(room));
            }
            if paper {
                self.papers.set(sqb(room));
            }
        }
        self.refresh();
        // 6. Compromise by appointment (10.3).
        if mv.kind == TurnKind::Appoint && self.appointable(me).is_empty() {
            let mine = self.occ[me.index()];
            self.known |= self.papers & mine;
            self.papers &= !mine;
        }
        // 8. Clocks (7, legality, is the caller's test).
        // The counters stop at their largest value rather than wrap: the string written
        // then still reads back (its parser takes any u32).
        self.halfmove = if reset {
            0
        } else {
            self.halfmove.saturating_add(1)
        };
        if me == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.turn = me.other();
    }

    /// The entitled Pawns of active Castle `c` after the turn's move (8.2 a).
    fn follow_entitled(&self, c: &Castle, moved: Option<(usize, usize, bool)>) -> u8 {
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

    /// Forms the Castles completed by the turn (9.2): only foundations with a corner on a
    /// changed square, the lower chair first when two overlap.
    fn form_castles(&mut self, changed: &[usize]) {
        let mut chairs = [usize::MAX; 16];
        let mut n = 0;
        for &s in changed {
            if s == usize::MAX {
                continue;
            }
            let (f, rk) = (self.rules.file[s] as i32, self.rules.rank[s] as i32);
            for (dx, dy) in [(-1, -1), (1, -1), (-1, 1), (1, 1)] {
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

/// The eight hop directions.
const KING_DIRS: [(i32, i32); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];

/// Removes repeated moves from `out[start..]` (pieces whose Betza components overlap).
fn dedup_tail(out: &mut Vec<CheopsMove>, start: usize) {
    let mut keep = start;
    for i in start..out.len() {
        let m = out[i];
        if !out[start..keep].contains(&m) {
            out[keep] = m;
            keep += 1;
        }
    }
    out.truncate(keep);
}
