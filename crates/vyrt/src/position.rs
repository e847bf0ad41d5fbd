//! The position, making moves, attacks and legal move generation.

// The hot loops index several per-family tables with the family number.
#![allow(clippy::needless_range_loop)]

mod castling;
mod dead_positions;
mod en_passant;
mod terms;

use crate::tables::*;
use castling::castling_rook_squares;
use menagerie_core::{BitBoard, Color, Square, Wide};
use std::sync::LazyLock;
pub use terms::SideTerms;

/// Piece kinds; a board code is `kind | color << 3` (0 = empty).
pub(crate) const PAWN: u8 = 1;
pub(crate) const KNIGHT_K: u8 = 2;
pub(crate) const BISHOP: u8 = 3;
pub(crate) const ROOK: u8 = 4;
pub(crate) const QUEEN: u8 = 5;
pub(crate) const KING_K: u8 = 6;

/// The families (bit f = family f, see [`crate::tables`]) a kind slides along.
const SLIDES: [u8; 8] = [0, 0, 0, 0b1100, 0b0011, 0b1111, 0, 0];

/// Board letters by kind, upper case.
pub(crate) const LETTERS: [char; 7] = [' ', 'P', 'N', 'B', 'R', 'Q', 'K'];

/// The board letter of a unit code (upper case White).
pub(crate) fn letter(code: u8) -> char {
    let c = LETTERS[(code & 7) as usize];
    if code >> 3 == 0 {
        c
    } else {
        c.to_ascii_lowercase()
    }
}

/// The name of square index `s` (`E2`, `K11`).
pub(crate) fn square_name(s: usize) -> String {
    crate::geometry().square_name(Square(s as u16))
}

pub(crate) const E1: usize = 30;
pub(crate) const E8: usize = 114;

/// The rules in force: the rulings, or a rule option of §10.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Rules {
    /// `double-step-any-unmoved`: every pawn that has never moved may double-step.
    pub double_step_any_unmoved: bool,
    /// `reversed-back-pawns`: the back-row pawns walk away from the centre.
    pub reversed_back_pawns: bool,
}

/// One whole turn: from-square, to-square, promotion piece and what kind of move it is.
///
/// A slider reaching a square by two routes is one move (R8): moves are compared by value.
/// Castling is stored as the King's move (`E1-G1`), written `O-O`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct VyrtMove(u32);

pub(crate) const NORMAL: u32 = 0;
pub(crate) const DOUBLE: u32 = 1;
pub(crate) const EN_PASSANT: u32 = 2;
pub(crate) const CASTLE: u32 = 3;

impl VyrtMove {
    #[inline(always)]
    pub(crate) const fn new(from: usize, to: usize, promo: u8, flag: u32) -> Self {
        VyrtMove(from as u32 | (to as u32) << 8 | (promo as u32) << 16 | flag << 20)
    }
    /// The square the unit leaves (the King's square for castling).
    pub fn from(self) -> Square {
        Square((self.0 & 0xFF) as u16)
    }
    /// The square the unit arrives on (the King's square for castling).
    pub fn to(self) -> Square {
        Square((self.0 >> 8 & 0xFF) as u16)
    }
    /// The piece a pawn promotes to, as an upper-case letter (`Q R B N`).
    pub fn promotion(self) -> Option<char> {
        match self.promo() {
            0 => None,
            k => Some(LETTERS[k as usize]),
        }
    }
    /// Whether this is castling.
    pub fn is_castling(self) -> bool {
        self.flag() == CASTLE
    }
    /// Whether this is an en passant capture.
    pub fn is_en_passant(self) -> bool {
        self.flag() == EN_PASSANT
    }
    #[inline(always)]
    pub(crate) fn f(self) -> usize {
        (self.0 & 0xFF) as usize
    }
    #[inline(always)]
    pub(crate) fn t(self) -> usize {
        (self.0 >> 8 & 0xFF) as usize
    }
    #[inline(always)]
    pub(crate) fn promo(self) -> u8 {
        (self.0 >> 16 & 0xF) as u8
    }
    #[inline(always)]
    pub(crate) fn flag(self) -> u32 {
        self.0 >> 20
    }
}

impl std::fmt::Debug for VyrtMove {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}-{}", square_name(self.f()), square_name(self.t()))?;
        if let Some(p) = self.promotion() {
            write!(f, "={p}")?;
        }
        Ok(())
    }
}

/// Zobrist keys.
pub(crate) struct Keys {
    piece: [[u64; N]; 16],
    black: u64,
    castling: [u64; 16],
    ep: [u64; N + 1],
    double_step: [u64; N],
}

pub(crate) static KEYS: LazyLock<Keys> = LazyLock::new(|| {
    let mut g = menagerie_core::zobrist::KeyGen::new(0x5679_7274_0000_0144);
    let mut k = Keys {
        piece: [[0; N]; 16],
        black: g.next(),
        castling: [0; 16],
        ep: [0; N + 1],
        double_step: [0; N],
    };
    for row in k.piece.iter_mut() {
        row.iter_mut().for_each(|x| *x = g.next());
    }
    k.castling.iter_mut().for_each(|x| *x = g.next());
    k.ep[..N].iter_mut().for_each(|x| *x = g.next());
    k.double_step.iter_mut().for_each(|x| *x = g.next());
    k
});

/// A Vyrt Chess position under a set of [`Rules`].
#[derive(Clone)]
pub struct VyrtPosition {
    pub(crate) board: [u8; N],
    /// Occupancy of every line, `[color][family][line]`, bit = position on the line.
    occ: [[[u16; 12]; 4]; 2],
    /// The units of each colour that slide along each line's family.
    sliders: [[[u16; 12]; 4]; 2],
    pub(crate) units: [Bb; 2],
    knights: [Bb; 2],
    pub(crate) pawns: [Bb; 2],
    /// Units by kind (`[colour][kind]`, kinds 1 to 6), kept by `put` and `take` so an
    /// evaluation reads them instead of counting sets.
    counts: [[u8; 8]; 2],
    /// Pawns by row (`[colour][y]`): the pushes a pawn needs depend on its row alone.
    pawn_rows: [[u8; 12]; 2],
    /// Squares whose pawn still has its double-step right.
    pub(crate) double_step: Bb,
    pub(crate) king: [u8; 2],
    pub(crate) turn: Color,
    pub(crate) castling: u8,
    /// The square passed over by a double step on the last move, or [`NONE`].
    pub(crate) ep: u8,
    pub(crate) halfmove: u32,
    pub(crate) fullmove: u32,
    key: u64,
    pub(crate) rules: Rules,
}

/// Pins of the side to move: a pinned unit may only go to its `allowed` positions on `line`.
struct Pins {
    pinned: Bb,
    list: [(u8, u8, u8, u16); 8],
    len: usize,
}

/// Adds `m` to `out` (unless only counting) and counts it.
#[inline(always)]
fn push<const COUNT: bool>(out: &mut Vec<VyrtMove>, n: &mut usize, m: VyrtMove) {
    if !COUNT {
        out.push(m);
    }
    *n += 1;
}

#[inline(always)]
fn single(s: usize) -> Bb {
    Bb::single(Square(s as u16))
}

#[inline(always)]
fn any(b: Bb) -> bool {
    (b.0[0] | b.0[1] | b.0[2]) != 0
}

/// Calls `f` with every square of `b`, lowest first: one word at a time, which costs less
/// than asking the set for its first square again and again.
#[inline(always)]
pub(crate) fn each_square(b: Bb, mut f: impl FnMut(usize)) {
    for (i, &word) in b.0.iter().enumerate() {
        let mut w = word;
        while w != 0 {
            f(i * 64 + w.trailing_zeros() as usize);
            w &= w - 1;
        }
    }
}

impl VyrtPosition {
    /// An empty board, White to move; the caller places units and sets the fields.
    pub(crate) fn empty(rules: Rules) -> Self {
        VyrtPosition {
            board: [0; N],
            occ: [[[0; 12]; 4]; 2],
            sliders: [[[0; 12]; 4]; 2],
            units: [Wide::EMPTY; 2],
            knights: [Wide::EMPTY; 2],
            pawns: [Wide::EMPTY; 2],
            counts: [[0; 8]; 2],
            pawn_rows: [[0; 12]; 2],
            double_step: Wide::EMPTY,
            king: [NONE as u8; 2],
            turn: Color::White,
            castling: 0,
            ep: NONE as u8,
            halfmove: 0,
            fullmove: 1,
            key: 0,
            rules,
        }
    }

    /// The rules this position is played under.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    #[inline(always)]
    fn pawn_tables(&self) -> &'static PawnTables {
        &PAWNS[self.rules.reversed_back_pawns as usize]
    }

    pub(crate) fn put(&mut self, s: usize, code: u8) {
        let c = (code >> 3) as usize;
        let kind = code & 7;
        self.board[s] = code;
        self.units[c] |= single(s);
        self.counts[c][kind as usize] += 1;
        match kind {
            PAWN => {
                self.pawns[c] |= single(s);
                self.pawn_rows[c][s / 12] += 1;
            }
            KNIGHT_K => self.knights[c] |= single(s),
            KING_K => self.king[c] = s as u8,
            _ => {}
        }
        let slides = SLIDES[kind as usize];
        for f in 0..4 {
            let (l, p) = SQ_LINES[s][f];
            let bit = 1u16 << p;
            self.occ[c][f][l as usize] |= bit;
            if slides >> f & 1 != 0 {
                self.sliders[c][f][l as usize] |= bit;
            }
        }
        self.key ^= KEYS.piece[code as usize][s];
    }

    fn take(&mut self, s: usize) {
        let code = self.board[s];
        let c = (code >> 3) as usize;
        let kind = code & 7;
        self.board[s] = 0;
        let m = !single(s);
        self.units[c] &= m;
        self.counts[c][kind as usize] -= 1;
        match kind {
            PAWN => {
                self.pawns[c] &= m;
                self.pawn_rows[c][s / 12] -= 1;
            }
            KNIGHT_K => self.knights[c] &= m,
            _ => {}
        }
        let slides = SLIDES[kind as usize];
        for f in 0..4 {
            let (l, p) = SQ_LINES[s][f];
            let bit = !(1u16 << p);
            self.occ[c][f][l as usize] &= bit;
            if slides >> f & 1 != 0 {
                self.sliders[c][f][l as usize] &= bit;
            }
        }
        self.key ^= KEYS.piece[code as usize][s];
    }

    /// The hash of the side to move and castling (en passant is added by [`Self::hash`]).
    fn state_key(&self) -> u64 {
        let k = &*KEYS;
        let mut h = k.castling[self.castling as usize];
        if self.turn == Color::Black {
            h ^= k.black;
        }
        h
    }

    /// Recomputes the hash key from scratch (after the fields were set directly).
    pub(crate) fn rehash(&mut self) {
        let mut h = self.state_key();
        for s in self.double_step.iter() {
            h ^= KEYS.double_step[s.index()];
        }
        for s in 0..N {
            if self.board[s] != 0 {
                h ^= KEYS.piece[self.board[s] as usize][s];
            }
        }
        self.key = h;
    }

    /// The repetition key. The en passant square counts only when the capture can be
    /// played: positions are the same when the same moves are possible (§7.1).
    pub(crate) fn hash(&self) -> u64 {
        let capturable = self
            .en_passant_capturers()
            .iter()
            .any(|from| self.en_passant_legal(from.index()));
        if capturable {
            self.key ^ KEYS.ep[self.ep as usize]
        } else {
            self.key
        }
    }

    /// Plays `mv`, which must be legal here.
    pub(crate) fn make(&mut self, mv: VyrtMove) {
        let us = self.turn.index();
        let (from, to, flag) = (mv.f(), mv.t(), mv.flag());
        let code = self.board[from];
        self.key ^= self.state_key();
        // The counters saturate: a position string may start them anywhere up to u32::MAX.
        self.halfmove = self.halfmove.saturating_add(1);
        if self.board[to] != 0 {
            self.take(to);
            self.halfmove = 0;
        }
        self.take(from);
        let promo = mv.promo();
        self.put(
            to,
            if promo != 0 {
                promo | (us as u8) << 3
            } else {
                code
            },
        );
        if code & 7 == PAWN {
            self.halfmove = 0;
        }
        self.ep = NONE as u8;
        match flag {
            DOUBLE => self.ep = self.pawn_tables().push[us][from],
            EN_PASSANT => {
                let victim = self.pawn_tables().push[1 - us][to] as usize;
                self.take(victim);
            }
            CASTLE => {
                let (rf, rt) = castling_rook_squares(from, to);
                let rook = self.board[rf];
                self.take(rf);
                self.put(rt, rook);
            }
            _ => {}
        }
        self.castling &= !(CASTLE_LOSS[from] | CASTLE_LOSS[to]);
        let lost = self.double_step & (single(from) | single(to));
        if any(lost) {
            self.double_step &= !lost;
            for s in lost.iter() {
                self.key ^= KEYS.double_step[s.index()];
            }
        }
        if us == 1 {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.turn = self.turn.other();
        self.key ^= self.state_key();
    }

    /// Whether `t` is attacked by `by` once the squares `clear_a`, `clear_b` are emptied,
    /// `set` is filled, and the enemy units on `gone_a`, `gone_b` are removed (captured).
    /// Every argument may be [`NONE`]. This is "make the move, then look outward from the
    /// King" without making it: only those squares change.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn attacked_after(
        &self,
        t: usize,
        by: usize,
        clear_a: usize,
        clear_b: usize,
        set: usize,
        gone_a: usize,
        gone_b: usize,
    ) -> bool {
        let gone = !(single(gone_a) | single(gone_b));
        if any(self.knights[by] & KNIGHT[t] & gone)
            || any(self.pawns[by] & self.pawn_tables().attackers[by][t] & gone)
            || KING[t].has(Square(self.king[by] as u16))
        {
            return true;
        }
        for f in 0..4 {
            let (l, p) = SQ_LINES[t][f];
            let l = l as usize;
            let mut s = self.sliders[by][f][l];
            if s == 0 {
                continue;
            }
            let mut o = self.occ[0][f][l] | self.occ[1][f][l];
            for c in [clear_a, clear_b] {
                let (cl, cp) = SQ_LINES[c][f];
                if cl as usize == l {
                    o &= !(1 << cp);
                }
            }
            let (sl, sp) = SQ_LINES[set][f];
            if sl as usize == l {
                o |= 1 << sp;
            }
            for g in [gone_a, gone_b] {
                let (gl, gp) = SQ_LINES[g][f];
                if gl as usize == l {
                    s &= !(1 << gp);
                }
            }
            if circle_attack(o, p as u32) & s != 0 {
                return true;
            }
        }
        false
    }

    /// Whether playing the legal move `mv` leaves the opponent in check, found without
    /// playing it: the moved unit's own attack from `to`, then the enemy King's lines that
    /// pass `from` or `to`, with `from` emptied and `to` filled (a slider behind `from`
    /// uncovered).
    /// Castling and en passant, which move or remove a second unit, answer `true` (may).
    pub(crate) fn may_check(&self, mv: VyrtMove) -> bool {
        let us = self.turn.index();
        let ek = self.king[1 - us] as usize;
        let (from, to, flag) = (mv.f(), mv.t(), mv.flag());
        if ek >= N || flag == CASTLE || flag == EN_PASSANT {
            return true;
        }
        let kind = match mv.promo() {
            0 => self.board[from] & 7,
            p => p,
        };
        // Before the move the opponent, not to move, is not in check: only the moved unit
        // and the lines through `from` or `to` can give it.
        match kind {
            KNIGHT_K if KNIGHT[to].has(Square(ek as u16)) => return true,
            PAWN if self.pawn_tables().captures[us][to].contains(&(ek as u8)) => return true,
            _ => {}
        }
        let lines = &LINES_THROUGH[ek];
        if !lines.has(Square(from as u16)) && !lines.has(Square(to as u16)) {
            return false;
        }
        let slides = SLIDES[kind as usize];
        for f in 0..4 {
            let (l, p) = SQ_LINES[ek][f];
            let (fl, fp) = SQ_LINES[from][f];
            let (tl, tp) = SQ_LINES[to][f];
            if fl != l && tl != l {
                continue;
            }
            let mut s = self.sliders[us][f][l as usize];
            let mut o = self.occ[0][f][l as usize] | self.occ[1][f][l as usize];
            if fl == l {
                s &= !(1 << fp);
                o &= !(1 << fp);
            }
            if tl == l {
                o |= 1 << tp;
                if slides >> f & 1 != 0 {
                    s |= 1 << tp;
                }
            }
            if s != 0 && circle_attack(o, p as u32) & s != 0 {
                return true;
            }
        }
        false
    }

    /// Whether `t` is attacked by `by` as the board stands.
    pub(crate) fn attacked(&self, t: usize, by: usize) -> bool {
        self.attacked_after(t, by, NONE, NONE, NONE, NONE, NONE)
    }

    /// Whether the side to move is in check.
    pub(crate) fn in_check(&self) -> bool {
        let us = self.turn.index();
        self.attacked(self.king[us] as usize, 1 - us)
    }

    /// Looks outward from the King along its four lines: whether a slider checks it, and
    /// which units are pinned. On a circle the first unit each way round can be pinned, and
    /// one slider can pin a unit on each side of the King (T17, T32); a unit on the square
    /// opposite the King lies on two of its lines and can be pinned along both (T29).
    fn pins(&self, us: usize) -> (bool, Pins) {
        let them = 1 - us;
        let k = self.king[us] as usize;
        let mut pins = Pins {
            pinned: Wide::EMPTY,
            list: [(0, 0, 0, 0); 8],
            len: 0,
        };
        let mut check = false;
        for f in 0..4 {
            let (l, p) = SQ_LINES[k][f];
            let (l, p) = (l as usize, p as u32);
            // Both a check and a pin along a line need an enemy slider on it.
            if self.sliders[them][f][l] == 0 {
                continue;
            }
            let own = rot_down(self.occ[us][f][l], p);
            let all = (own | rot_down(self.occ[them][f][l], p)) & !1;
            if all == 0 {
                continue;
            }
            let hostile = rot_down(self.sliders[them][f][l], p);
            let lo = all.trailing_zeros();
            let hi = 31 - all.leading_zeros();
            let mut pin = |at: u32, allowed: u32| {
                let s = LINE_SQS[f][l][((at + p) % 12) as usize];
                pins.pinned |= single(s as usize);
                pins.list[pins.len] = (s, f as u8, l as u8, rot_up(allowed, p));
                pins.len += 1;
            };
            if hostile >> lo & 1 != 0 {
                check = true;
            } else if own >> lo & 1 != 0 {
                let rest = all & !(1 << lo);
                if rest != 0 {
                    let next = rest.trailing_zeros();
                    if hostile >> next & 1 != 0 {
                        pin(lo, (2 << next) - 2); // positions 1..=next
                    }
                }
            }
            if hi != lo {
                if hostile >> hi & 1 != 0 {
                    check = true;
                } else if own >> hi & 1 != 0 {
                    let rest = all & !(1 << hi);
                    let next = 31 - rest.leading_zeros();
                    if hostile >> next & 1 != 0 {
                        pin(hi, 0xFFF & !((1 << next) - 1)); // positions next..=11
                    }
                }
            }
        }
        if !check {
            check = any(self.knights[them] & KNIGHT[k])
                || any(self.pawns[them] & self.pawn_tables().attackers[them][k]);
        }
        (check, pins)
    }

    /// Appends every legal move to `out` (unless `COUNT`) and returns how many there are.
    pub(crate) fn generate<const COUNT: bool>(&self, out: &mut Vec<VyrtMove>) -> usize {
        let (check, pins) = self.pins(self.turn.index());
        if check {
            self.gen::<COUNT, true, false, false>(out, &pins)
        } else {
            self.gen::<COUNT, false, false, false>(out, &pins)
        }
    }

    /// Appends the legal moves that capture, take en passant or promote (the noisy ones),
    /// in [`Self::generate`]'s order, and says whether there is any legal move at all.
    pub(crate) fn generate_noisy(&self, out: &mut Vec<VyrtMove>) -> bool {
        let (check, pins) = self.pins(self.turn.index());
        let n = if check {
            self.gen::<false, true, false, true>(out, &pins)
        } else {
            self.gen::<false, false, false, true>(out, &pins)
        };
        // Without a noisy move, whether a quiet one exists decides mate and stalemate.
        n > 0 || self.generate::<true>(&mut Vec::new()) > 0
    }

    /// Appends the moves the units could make if their own King's safety did not count
    /// (castling left out), to explain why a move is illegal.
    pub(crate) fn pseudo_moves(&self, out: &mut Vec<VyrtMove>) {
        let (_, pins) = self.pins(self.turn.index());
        self.gen::<false, false, true, false>(out, &pins);
    }

    #[inline(always)]
    fn gen<const COUNT: bool, const CHECK: bool, const PSEUDO: bool, const NOISY: bool>(
        &self,
        out: &mut Vec<VyrtMove>,
        pins: &Pins,
    ) -> usize {
        let us = self.turn.index();
        let them = 1 - us;
        let k = self.king[us] as usize;
        let own = self.units[us];
        // The squares a move may go to: with `NOISY`, only the enemy's (captures), the
        // pawns' promotions and en passant being added apart.
        let target_mask = if NOISY { self.units[them] } else { !own };
        let mut n = 0usize;
        // Legality of a move of a unit other than the King. Not in check, only a pinned unit
        // can expose its King (the only squares that change are `from` and `to`, and filling
        // `to` only blocks), and it may go only to its pins' allowed squares. In check, the
        // move is made on the King's lines and the King looked at.
        // In check, a move that neither takes a unit nor lands on one of the King's lines
        // cannot help: it removes no attacker and blocks nothing, so it is not looked at.
        let evasion_squares = if CHECK {
            LINES_THROUGH[k] | self.units[them]
        } else {
            Wide::EMPTY
        };
        let ok = |from: usize, to: usize| -> bool {
            if PSEUDO {
                true
            } else if CHECK {
                evasion_squares.has(Square(to as u16))
                    && !self.attacked_after(k, them, from, NONE, to, to, NONE)
            } else if !pins.pinned.has(Square(from as u16)) {
                true
            } else {
                pins.list[..pins.len].iter().all(|&(s, f, l, allowed)| {
                    let (tl, tp) = SQ_LINES[to][f as usize];
                    s as usize != from || (tl == l && allowed >> tp & 1 != 0)
                })
            }
        };
        let push = push::<COUNT>;
        let pt = self.pawn_tables();
        let promo_y = PROMOTION_Y[us];
        each_square(own & !single(k), |from| {
            let kind = self.board[from] & 7;
            match kind {
                PAWN => {
                    let ahead = pt.push[us][from] as usize;
                    let promotes = ahead / 12 == promo_y;
                    if (!NOISY || promotes) && self.board[ahead] == 0 {
                        if ok(from, ahead) {
                            if promotes {
                                for p in [QUEEN, ROOK, BISHOP, KNIGHT_K] {
                                    push(out, &mut n, VyrtMove::new(from, ahead, p, NORMAL));
                                }
                            } else {
                                push(out, &mut n, VyrtMove::new(from, ahead, 0, NORMAL));
                            }
                        }
                        if !NOISY && self.double_step.has(Square(from as u16)) {
                            let two = pt.push[us][ahead] as usize;
                            if self.board[two] == 0 && ok(from, two) {
                                push(out, &mut n, VyrtMove::new(from, two, 0, DOUBLE));
                            }
                        }
                    }
                    for to in pt.captures[us][from] {
                        let to = to as usize;
                        let victim = self.board[to];
                        if victim != 0 && (victim >> 3) as usize == them && ok(from, to) {
                            if promotes {
                                for p in [QUEEN, ROOK, BISHOP, KNIGHT_K] {
                                    push(out, &mut n, VyrtMove::new(from, to, p, NORMAL));
                                }
                            } else {
                                push(out, &mut n, VyrtMove::new(from, to, 0, NORMAL));
                            }
                        }
                    }
                }
                KNIGHT_K => {
                    let targets = KNIGHT[from] & target_mask;
                    if PSEUDO || !CHECK && !pins.pinned.has(Square(from as u16)) {
                        if COUNT {
                            n += targets.count() as usize;
                        } else {
                            for to in targets.iter() {
                                push(out, &mut n, VyrtMove::new(from, to.index(), 0, NORMAL));
                            }
                        }
                    } else {
                        for to in targets.iter() {
                            if ok(from, to.index()) {
                                push(out, &mut n, VyrtMove::new(from, to.index(), 0, NORMAL));
                            }
                        }
                    }
                }
                _ => {
                    // The families the unit slides along, one bit each, lowest first.
                    let mut families = SLIDES[kind as usize];
                    // `free`: every square the unit reaches is a legal move.
                    let free = PSEUDO || !CHECK && !pins.pinned.has(Square(from as u16));
                    let mut diag_reach = 0u16;
                    while families != 0 {
                        let f = families.trailing_zeros() as usize;
                        families &= families - 1;
                        let (l, p) = SQ_LINES[from][f];
                        let (l, p) = (l as usize, p as u32);
                        let all = self.occ[0][f][l] | self.occ[1][f][l];
                        let mut reach = circle_attack(all, p) & !self.occ[us][f][l];
                        // The two diagonals meet again at the opposite square, six steps
                        // along both: reached along both, it is still one move (R8).
                        if f == 2 {
                            diag_reach = reach & 1u16 << ((p + 6) % 12);
                        } else if f == 3 && diag_reach != 0 {
                            reach &= !(1u16 << ((p + 6) % 12));
                        }
                        if NOISY {
                            reach &= self.occ[them][f][l];
                        }
                        if COUNT && free {
                            n += reach.count_ones() as usize;
                            continue;
                        }
                        let mut r = reach;
                        while r != 0 {
                            let to = LINE_SQS[f][l][r.trailing_zeros() as usize] as usize;
                            r &= r - 1;
                            if free || ok(from, to) {
                                push(out, &mut n, VyrtMove::new(from, to, 0, NORMAL));
                            }
                        }
                    }
                }
            }
        });
        // The King: every neighbour not held by its own side and not attacked once the King
        // has left its square (a slider's line through the King goes on behind it).
        for to in (KING[k] & target_mask).iter() {
            let to = to.index();
            if PSEUDO || !self.attacked_after(to, them, k, NONE, NONE, NONE, NONE) {
                push(out, &mut n, VyrtMove::new(k, to, 0, NORMAL));
            }
        }
        self.en_passant_moves::<COUNT, PSEUDO>(out, &mut n, promo_y);
        if !CHECK && !PSEUDO && !NOISY && self.castling != 0 {
            self.castling_moves::<COUNT>(out, &mut n, k);
        }
        n
    }

    /// Perft with bulk counting at the last ply.
    pub(crate) fn perft_fast(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut moves = Vec::new();
        if depth == 1 {
            return self.generate::<true>(&mut moves) as u64;
        }
        moves.reserve(128);
        self.generate::<false>(&mut moves);
        let mut total = 0;
        for &m in &moves {
            let mut next = self.clone();
            next.make(m);
            total += next.perft_fast(depth - 1);
        }
        total
    }
}
