//! The Cypher position: turn generation (sections 3 to 9), playing turns and the endings.

use crate::board::{code_color, code_kind, first, Board, Flip, Kind};
use crate::moves::{CypherMove, TurnKind, NONE};
use crate::tables::{bishop_attacks, has, queen_attacks, rook_attacks, tables, Sector, SQUARES};
use menagerie_core::zobrist::KeyGen;

mod combined_move;
mod coup;
mod endings;
pub(crate) use endings::endings_points;
mod gives_check;
use gives_check::CheckHint;
mod infiltration;
mod prisoner_release;
mod retake;

use menagerie_core::Color;
use retake::opens_retake;
use std::sync::OnceLock;

/// The square d0 (White's Spy's home), an infiltration target.
pub(crate) const D0: u8 = 4;
/// The square d10 (Black's Spy's home), an infiltration target.
pub(crate) const D10: u8 = 104;
/// Every square of the board.
pub(crate) const ALL: u128 = (1u128 << SQUARES) - 1;

/// Which King may step onto a Court square (option `king-court-entry`, R4).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub(crate) enum KingCourtEntry {
    /// Only while the enemy Spy is not in Court (the ruling).
    EnemySpyOutside,
    /// Only while his own Spy is not in Court.
    OwnSpyOutside,
    /// Always.
    Free,
}

/// The rule options in force (section 14); `Default` is the rulings.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub(crate) struct Rules {
    pub self_flip_illegal: bool,
    pub king_court_entry: KingCourtEntry,
    pub infiltration_enemy_home: bool,
    pub coup_bishop_first: bool,
    pub coup_pawns: bool,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            self_flip_illegal: false,
            king_court_entry: KingCourtEntry::EnemySpyOutside,
            infiltration_enemy_home: false,
            coup_bishop_first: false,
            coup_pawns: true,
        }
    }
}

/// A Cypher Chess position: the men, the side to move and the six state fields of 12.1.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct CypherPosition {
    pub(crate) board: Board,
    pub(crate) turn: Color,
    /// The square of the man that may be re-taken this turn, or `NONE`.
    pub(crate) retake: u8,
    /// Who still has the infiltration right.
    pub(crate) infiltration: [bool; 2],
    /// Consecutive checking turns of each side.
    pub(crate) checks: [u8; 2],
    /// Captured pawns of each colour not yet released.
    pub(crate) pools: [u8; 2],
    pub(crate) halfmove: u32,
    pub(crate) fullmove: u32,
    pub(crate) rules: Rules,
}

/// The King's safety of the side to move for one generation (see
/// [`CypherPosition::safety`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Safety {
    /// Whether collusion counts (off only for the grading test of R18).
    pub collusion: bool,
    /// Whether the side to move is in check now.
    pub in_check: bool,
    /// Whether a King's step onto a Court square is taken without playing it.
    court_step: bool,
    /// Whether turns that cannot touch the King's safety are taken without playing them.
    quick: bool,
    /// Whether every candidate is played on a copy of the board (the reference).
    copy: bool,
    /// The mover's men standing first on a line from his King with an enemy line piece
    /// beyond: moving one of them may open a check.
    lines: u128,
}

impl Safety {
    /// Whether an ordinary move (not a coup) of the man on `from`, who is not the King, is
    /// surely legal without playing it.
    #[inline(always)]
    pub fn sure(self, from: usize) -> bool {
        self.quick && !has(self.lines, from)
    }

    /// Whether a King's step onto a Court square is surely legal without playing it, even in
    /// check: a Court King is never in check (4.3); only `self-flip=illegal` asks more.
    #[inline(always)]
    pub fn sure_king_in_court(self) -> bool {
        self.court_step
    }
}

/// Where generated turns go: a list, or a counter for bulk counting.
pub(crate) trait Sink {
    fn push(&mut self, mv: CypherMove);
    /// Whether the generator may stop: the sink has all it asked for.
    #[inline(always)]
    fn done(&self) -> bool {
        false
    }
}
impl Sink for Vec<CypherMove> {
    #[inline(always)]
    fn push(&mut self, mv: CypherMove) {
        Vec::push(self, mv);
    }
}
/// Counts turns without storing them.
pub(crate) struct Counter(pub u64);
impl Sink for Counter {
    #[inline(always)]
    fn push(&mut self, _: CypherMove) {
        self.0 += 1;
    }
}
/// Asks only whether there is a turn: the generator stops after the first man that has one.
pub(crate) struct AnyTurn(pub bool);
impl Sink for AnyTurn {
    #[inline(always)]
    fn push(&mut self, _: CypherMove) {
        self.0 = true;
    }
    #[inline(always)]
    fn done(&self) -> bool {
        self.0
    }
}

/// The squares of a bitboard, lowest first, a word at a time (cheaper than `u128`
/// arithmetic on every step).
#[inline(always)]
pub(crate) fn bits(b: u128) -> impl Iterator<Item = usize> {
    let (mut low, mut high) = (b as u64, (b >> 64) as u64);
    std::iter::from_fn(move || {
        if low != 0 {
            let s = low.trailing_zeros() as usize;
            low &= low - 1;
            Some(s)
        } else if high != 0 {
            let s = high.trailing_zeros() as usize;
            high &= high - 1;
            Some(64 + s)
        } else {
            None
        }
    })
}

/// The position keys: one per man code and square, then the state fields.
#[inline(always)]
pub(crate) fn zobrist() -> &'static [u64] {
    static KEYS: OnceLock<Vec<u64>> = OnceLock::new();
    KEYS.get_or_init(|| KeyGen::new(0xC1FE_C4E5_5000_0001).keys(16 * SQUARES + 200))
}

impl CypherPosition {
    /// The start position (section 2).
    pub fn start() -> Self {
        crate::fen::parse(crate::START_FEN, Rules::default())
            .unwrap_or_else(|_| unreachable!("the start position string is valid"))
    }

    /// The man on `sq`, if any.
    pub fn man_at(&self, sq: usize) -> Option<(Color, Kind)> {
        (sq < SQUARES).then(|| self.board.kind_at(sq)).flatten()
    }

    /// The squares of `color`'s men of `kind` as a bitboard: bit `rank * 10 + file`.
    #[inline]
    pub fn men(&self, color: Color, kind: Kind) -> u128 {
        self.board.pieces(color, kind)
    }

    /// The sector of square index `sq` (`rank * 10 + file`).
    pub fn sector(sq: usize) -> Sector {
        tables().sector[sq.min(SQUARES - 1)]
    }

    /// The square of the man that may be re-taken this turn, if any.
    pub fn retake_square(&self) -> Option<usize> {
        (self.retake != NONE).then_some(self.retake as usize)
    }

    /// Whether `side` still has its infiltration right.
    pub fn can_infiltrate(&self, side: Color) -> bool {
        self.infiltration[side as usize]
    }

    /// `side`'s count of consecutive checking turns (10.3).
    pub fn check_count(&self, side: Color) -> u8 {
        self.checks[side as usize]
    }

    /// Pawns of `side`'s colour captured and not yet released (9.2).
    pub fn pool(&self, side: Color) -> u8 {
        self.pools[side as usize]
    }

    /// The flip on the board, judged after the last turn, if any.
    pub fn flip(&self) -> Option<Flip> {
        self.board.flip(self.turn.other())
    }

    /// Whether a King of `side` may step onto a Court square now (R4).
    #[inline]
    pub(crate) fn king_may_enter_court(&self, side: Color) -> bool {
        let court = tables().court;
        match self.rules.king_court_entry {
            KingCourtEntry::EnemySpyOutside => {
                self.board.pieces(side.other(), Kind::Spy) & court == 0
            }
            KingCourtEntry::OwnSpyOutside => self.board.pieces(side, Kind::Spy) & court == 0,
            KingCourtEntry::Free => true,
        }
    }

    /// Whether the board after a turn of the side to move may stand: the King not in check
    /// (10.1) and, under `self-flip=illegal`, no flip against the mover.
    #[inline(always)]
    pub(super) fn acceptable(&self, child: &Board, collusion: bool) -> bool {
        let m = self.turn;
        !child.in_check(m, collusion)
            && (!self.rules.self_flip_illegal || child.flip(m).is_none_or(|f| f.winner == m))
    }

    /// Whether the ordinary move `from`-`to` (no coup, no second half) leaves a board that
    /// may stand: what [`Self::acceptable`] says of the board after it, found without a copy
    /// unless the flip rules must be judged (`self-flip=illegal`) or `sf` is the reference.
    #[inline(always)]
    pub(super) fn step_ok(&self, sf: Safety, from: usize, to: usize) -> bool {
        if sf.copy || self.rules.self_flip_illegal {
            let mut child = self.board;
            child.shift(from, to);
            return self.acceptable(&child, sf.collusion);
        }
        !self.board.in_check_after(self.turn, from, to, sf.collusion)
    }

    /// What the King's safety of the side to move depends on, worked out once for a
    /// generation; `quick` off gives the reference, which plays every candidate on a copy.
    ///
    /// Out of check, a turn that moves neither the King nor the man between him and an enemy
    /// line piece cannot put him in check: knights, pawns and Kings attack whatever stands
    /// between; a capture puts a man where another stood (the lines stay blocked), removes an
    /// attacker or a colluder and adds none; Court squares never stand between a checker and
    /// a King outside Court (4.2), and a Spy outside Court blocks no check line (7.3), so a
    /// Spy's move never opens or closes one. Coups (a man changes sides, the pawn leaves),
    /// infiltrations and King steps are always played on a copy, as is every turn under
    /// `self-flip=illegal` (a flip is judged on the whole board).
    #[inline]
    pub(crate) fn safety(&self, collusion: bool, quick: bool) -> Safety {
        let b = &self.board;
        let m = self.turn;
        let in_check = if quick && collusion {
            // A valid position's counter says it (12.3, kept by `play_move`).
            self.checks[m.other() as usize] > 0
        } else {
            b.in_check(m, collusion)
        };
        debug_assert_eq!(
            in_check,
            b.in_check(m, collusion),
            "check counter out of step"
        );
        let mut safety = Safety {
            collusion,
            in_check,
            court_step: quick && !self.rules.self_flip_illegal,
            quick: false,
            copy: !quick,
            lines: 0,
        };
        if !quick || in_check || self.rules.self_flip_illegal {
            return safety;
        }
        safety.quick = true;
        let t = tables();
        let Some(k) = b.king(m) else {
            return safety;
        };
        if t.court >> k & 1 != 0 {
            // A Court King is never in check (4.3); only his own steps out of Court matter.
            return safety;
        }
        let occ = b.line_blockers(t);
        let us = b.by_color[m as usize];
        let them = b.by_color[m.other() as usize];
        // Every enemy man that gives check along a line from some sector, collusion included.
        let both = them & (b.by_kind[Kind::Queen as usize] | b.by_kind[Kind::Spy as usize]);
        let straight = both | them & b.by_kind[Kind::Rook as usize];
        let diagonal = both | them & b.by_kind[Kind::Bishop as usize];
        if t.rook_lines[k] & straight == 0 && t.bishop_lines[k] & diagonal == 0 {
            return safety;
        }
        for (d, rays) in t.rays.iter().enumerate() {
            let attackers = if d % 4 < 2 { straight } else { diagonal };
            let blockers = rays[k] & occ;
            if blockers == 0 || rays[k] & attackers == 0 {
                continue;
            }
            let first = if d < 4 {
                blockers.trailing_zeros()
            } else {
                127 - blockers.leading_zeros()
            } as usize;
            if has(us, first) && rays[first] & attackers != 0 {
                safety.lines |= 1u128 << first;
            }
        }
        safety
    }

    /// Every legal turn (none once the game has ended), with collusion counted or not (off is
    /// the grading test of R18), found with the quick legality test or, with `quick` off, by
    /// playing every candidate on a copy of the board (the reference the tests compare with).
    pub fn legal_with(&self, collusion: bool, quick: bool) -> Vec<CypherMove> {
        let mut v = Vec::new();
        if !self.ended_quickly() {
            self.generate_with::<_, false>(self.safety(collusion, quick), &mut v);
        }
        v
    }

    /// The legal turns that [`menagerie_core::Position::is_noisy`] accepts (captures and
    /// infiltrations), in the order of every legal turn, and whether there is any legal turn
    /// at all; none once the game has ended.
    pub(crate) fn legal_noisy(&self, out: &mut Vec<CypherMove>) -> bool {
        if self.ended_quickly() {
            return false;
        }
        let sf = self.safety(true, true);
        let start = out.len();
        self.generate_with::<_, true>(sf, out);
        out.len() > start || {
            let mut any = AnyTurn(false);
            self.generate_with::<_, false>(sf, &mut any);
            any.0
        }
    }

    /// Every legal turn, ignoring whether the game has already ended. `collusion` off is the
    /// grading test of R18.
    #[inline]
    pub(crate) fn generate<S: Sink>(&self, collusion: bool, out: &mut S) {
        self.generate_with::<S, false>(self.safety(collusion, true), out);
    }

    /// Every legal turn under the safety test `sf`; with `NOISY`, only the captures and
    /// infiltrations (what `is_noisy` accepts), in the same order.
    pub(crate) fn generate_with<S: Sink, const NOISY: bool>(&self, sf: Safety, out: &mut S) {
        let t = tables();
        let b = &self.board;
        let m = self.turn;
        let o = m.other();
        let us = b.by_color[m as usize];
        let them = b.by_color[o as usize];
        let occ = us | them;
        let empty = !occ & ALL;
        let them_pawns = them & b.by_kind[Kind::Pawn as usize];
        let them_field_majors = them & b.majors() & t.field;
        let retake_bit = self.retake_bit();
        let (forward, start_rank, last_rank): (isize, usize, usize) = if m == Color::White {
            (10, 3, 9)
        } else {
            (-10, 7, 1)
        };

        for from in bits(us) {
            if out.done() {
                return;
            }
            let kind = code_kind(b.mailbox[from]);
            let sector = t.sector[from];
            match kind {
                Kind::Pawn => {
                    // Off the coup rank, a sure pawn's turns need no call (see `safety`).
                    let sure =
                        sf.sure(from) && (from as isize + forward) as usize / 10 != last_rank;
                    let mut pawn_move = |to: usize| {
                        if sure {
                            out.push(CypherMove::normal(from as u8, to as u8));
                        } else {
                            self.pawn_move(from, to, last_rank, sf, out);
                        }
                    };
                    let one = (from as isize + forward) as usize;
                    // A push captures nothing: never noisy, a coup's included.
                    if !NOISY && has(empty & !t.court, one) {
                        pawn_move(one);
                        if from / 10 == start_rank {
                            let two = (one as isize + forward) as usize;
                            if has(empty, two) {
                                pawn_move(two);
                            }
                        }
                    }
                    let caps = t.pawn_attacks[m as usize][from]
                        & them
                        & !(b.by_kind[Kind::King as usize] | b.by_kind[Kind::Spy as usize])
                        & !t.court;
                    for to in bits(caps) {
                        pawn_move(to);
                    }
                }
                Kind::Knight | Kind::Bishop | Kind::Rook | Kind::Queen => {
                    let victims = if sector == Sector::Field {
                        them_pawns | (them_field_majors & retake_bit)
                    } else {
                        them_pawns | them_field_majors
                    };
                    // Quiescence: no victim on any line from here, no line to follow.
                    if NOISY
                        && kind != Kind::Knight
                        && (t.rook_lines[from] | t.bishop_lines[from]) & victims == 0
                    {
                        continue;
                    }
                    let reach = match kind {
                        Kind::Knight => knight_reach(sector, from),
                        Kind::Bishop => bishop_attacks(t, from, occ),
                        Kind::Rook => rook_attacks(t, from, occ),
                        _ => queen_attacks(t, from, occ),
                    };
                    let mut targets = reach & empty;
                    if sector != Sector::Court {
                        targets &= !t.court;
                    }
                    let sure = sf.sure(from);
                    let tos = if NOISY {
                        reach & victims
                    } else {
                        targets | (reach & victims)
                    };
                    for to in bits(tos) {
                        if !sure && !self.step_ok(sf, from, to) {
                            continue;
                        }
                        out.push(CypherMove::normal(from as u8, to as u8));
                    }
                }
                Kind::King => self.king_moves::<S, NOISY>(from, sector, sf, out),
                Kind::Spy => self.spy_moves::<S, NOISY>(from, sector, sf, out),
            }
        }

        // A release captures nothing.
        if !NOISY {
            self.release_moves(sf, out);
        }
    }

    /// Plays `mv` (one of the legal turns).
    pub(crate) fn play_move(&mut self, mv: CypherMove) {
        let m = self.turn;
        let o = m.other();
        let mut reset_clock = false;
        let mut retake = NONE;
        let (from, to) = (mv.from as usize, mv.to as usize);
        // A turn that names squares off the board cannot come from `legal_moves`; ignore it
        // rather than index out of bounds.
        let two_part = matches!(mv.kind, TurnKind::Combined | TurnKind::Infiltration);
        if to >= SQUARES
            || (mv.kind != TurnKind::Release && from >= SQUARES)
            || (two_part && (mv.extra_from as usize >= SQUARES || mv.extra_to as usize >= SQUARES))
            || (mv.kind == TurnKind::Coup
                && mv.extra_from != NONE
                && mv.extra_from as usize >= SQUARES)
        {
            return;
        }
        // Asked on the board before the turn: most turns surely give no check, many surely
        // give one, and testing every child for check was a seventh of a search.
        let hint = self.check_hint(mv);
        match mv.kind {
            TurnKind::Normal | TurnKind::Coup | TurnKind::Infiltration => {
                let Some((_, kind)) = self.board.kind_at(from.min(SQUARES - 1)) else {
                    return;
                };
                let victim = self.board.shift(from, to);
                reset_clock |= kind == Kind::Pawn;
                if victim != 0 {
                    reset_clock = true;
                    let victim_kind = code_kind(victim);
                    if victim_kind == Kind::Pawn {
                        let pool = &mut self.pools[code_color(victim) as usize];
                        *pool = pool.saturating_add(1);
                    } else if opens_retake(kind, from, victim_kind, to) {
                        retake = mv.to;
                    }
                }
                match mv.kind {
                    TurnKind::Coup => {
                        self.board.remove(to);
                        if mv.extra_from != NONE {
                            let s = mv.extra_from as usize;
                            let c = self.board.remove(s);
                            if c != 0 {
                                self.board.put(s, m, code_kind(c));
                            }
                        }
                    }
                    TurnKind::Infiltration => {
                        self.infiltration[m as usize] = false;
                        if self
                            .board
                            .shift(mv.extra_from as usize, mv.extra_to as usize)
                            != 0
                        {
                            reset_clock = true;
                        }
                    }
                    _ => {}
                }
            }
            TurnKind::Combined => {
                self.board.shift(from, to);
                self.board
                    .shift(mv.extra_from as usize, mv.extra_to as usize);
            }
            TurnKind::Release => {
                let pool = &mut self.pools[m as usize];
                *pool = pool.saturating_sub(1);
                self.board.put(to, m, Kind::Pawn);
                reset_clock = true;
            }
        }
        self.retake = retake;
        let check = match hint {
            CheckHint::No => false,
            CheckHint::Yes => true,
            CheckHint::Maybe => self.board.in_check(o, true),
        };
        debug_assert_eq!(
            check,
            self.board.in_check(o, true),
            "check hint {hint:?} wrong"
        );
        self.checks[m as usize] = if check {
            self.checks[m as usize].saturating_add(1)
        } else {
            0
        };
        self.halfmove = if reset_clock {
            0
        } else {
            self.halfmove.saturating_add(1)
        };
        if m == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.turn = o;
    }

    /// The repetition key: board, side, re-take, infiltration, check counts and pools (R21).
    pub(crate) fn hash_key(&self) -> u64 {
        let keys = zobrist();
        debug_assert_eq!(self.board.hash, self.board.hash_from_scratch());
        let mut h = self.board.hash;
        let base = 16 * SQUARES;
        if self.turn == Color::Black {
            h ^= keys[base];
        }
        let retake = if self.retake == NONE {
            0
        } else {
            self.retake as usize + 1
        };
        h ^= keys[base + 1 + retake].rotate_left(7);
        h ^= keys[base + 120 + self.infiltration[0] as usize * 2 + self.infiltration[1] as usize];
        h ^= keys[base + 130 + self.checks[0].min(9) as usize];
        h ^= keys[base + 140 + self.checks[1].min(9) as usize].rotate_left(13);
        h ^= keys[base + 150 + self.pools[0].min(20) as usize];
        h ^= keys[base + 175 + self.pools[1].min(20) as usize].rotate_left(29);
        h
    }

    /// Perft with bulk counting of the last ply.
    pub(crate) fn count(&self, depth: u32, buffers: &mut [Vec<CypherMove>]) -> u64 {
        if depth == 0 {
            return 1;
        }
        if self.ended_quickly() {
            return 0;
        }
        if depth == 1 {
            let mut n = Counter(0);
            self.generate(true, &mut n);
            return n.0;
        }
        let Some((moves, rest)) = buffers.split_first_mut() else {
            return 0;
        };
        moves.clear();
        self.generate(true, moves);
        let mut total = 0;
        for &mv in moves.iter() {
            let mut next = self.clone();
            next.play_move(mv);
            total += next.count(depth - 1, rest);
        }
        total
    }

    /// The square of the King of `side`, if on the board.
    pub fn king_square(&self, side: Color) -> Option<usize> {
        self.board.king(side)
    }

    /// The square of the Spy of `side`, if on the board.
    pub fn spy_square(&self, side: Color) -> Option<usize> {
        first(self.board.pieces(side, Kind::Spy))
    }
}

/// A knight's leaps by the sector it stands on (3.3, R5).
#[inline(always)]
pub(crate) fn knight_reach(sector: Sector, from: usize) -> u128 {
    let t = tables();
    match sector {
        Sector::Field => t.knight_l[from],
        Sector::Court => t.knight_x[from],
        Sector::Border => t.knight_l[from] | t.knight_x[from],
    }
}
