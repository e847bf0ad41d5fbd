//! The men on the board, check (with sectors, transparency and collusion) and the flip rules.

use crate::tables::{bishop_attacks, queen_attacks, rook_attacks, tables, Tables, SQUARES};
use menagerie_core::Color;

/// The kinds of men.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// Pawn.
    Pawn = 0,
    /// Knight.
    Knight = 1,
    /// Bishop.
    Bishop = 2,
    /// Rook.
    Rook = 3,
    /// Queen.
    Queen = 4,
    /// King.
    King = 5,
    /// Spy (the Cypher).
    Spy = 6,
}

impl Kind {
    /// All kinds, in index order.
    pub const ALL: [Kind; 7] = [
        Kind::Pawn,
        Kind::Knight,
        Kind::Bishop,
        Kind::Rook,
        Kind::Queen,
        Kind::King,
        Kind::Spy,
    ];
    /// The upper-case letter of the kind (`P N B R Q K S`).
    pub fn letter(self) -> char {
        ['P', 'N', 'B', 'R', 'Q', 'K', 'S'][self as usize]
    }
    /// The kind's name in lower case.
    pub fn name(self) -> &'static str {
        ["pawn", "knight", "bishop", "rook", "queen", "King", "Spy"][self as usize]
    }
    /// The kind for a letter of either case.
    pub fn from_letter(c: char) -> Option<Kind> {
        Some(match c.to_ascii_uppercase() {
            'P' => Kind::Pawn,
            'N' => Kind::Knight,
            'B' => Kind::Bishop,
            'R' => Kind::Rook,
            'Q' => Kind::Queen,
            'K' => Kind::King,
            'S' => Kind::Spy,
            _ => return None,
        })
    }
    /// Whether this is a major piece: Queen, Rook, Bishop or Knight.
    pub fn is_major(self) -> bool {
        matches!(self, Kind::Knight | Kind::Bishop | Kind::Rook | Kind::Queen)
    }
}

/// Piece code in the mailbox: 0 empty, else `kind + 1 + 8 * colour`.
#[inline(always)]
pub(crate) fn code(color: Color, kind: Kind) -> u8 {
    kind as u8 + 1 + 8 * color as u8
}
#[inline(always)]
pub(crate) fn code_kind(c: u8) -> Kind {
    Kind::ALL[((c & 7) - 1) as usize]
}
#[inline(always)]
pub(crate) fn code_color(c: u8) -> Color {
    if c & 8 == 0 {
        Color::White
    } else {
        Color::Black
    }
}

/// The men: a mailbox for look-ups and bitboards for attacks.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(crate) struct Board {
    pub mailbox: [u8; SQUARES],
    pub by_color: [u128; 2],
    pub by_kind: [u128; 7],
}

impl Board {
    pub fn empty() -> Self {
        Board {
            mailbox: [0; SQUARES],
            by_color: [0; 2],
            by_kind: [0; 7],
        }
    }
    #[inline(always)]
    pub fn occupied(&self) -> u128 {
        self.by_color[0] | self.by_color[1]
    }
    #[inline(always)]
    pub fn put(&mut self, sq: usize, color: Color, kind: Kind) {
        let bit = 1u128 << sq;
        self.mailbox[sq] = code(color, kind);
        self.by_color[color as usize] |= bit;
        self.by_kind[kind as usize] |= bit;
    }
    /// Removes whatever stands on `sq`; returns its code (0 if empty).
    #[inline(always)]
    pub fn remove(&mut self, sq: usize) -> u8 {
        let c = self.mailbox[sq];
        if c != 0 {
            let bit = !(1u128 << sq);
            self.mailbox[sq] = 0;
            self.by_color[code_color(c) as usize] &= bit;
            self.by_kind[code_kind(c) as usize] &= bit;
        }
        c
    }
    /// Moves the man on `from` to `to`, removing anything on `to`; returns the victim's code.
    #[inline(always)]
    pub fn shift(&mut self, from: usize, to: usize) -> u8 {
        let victim = self.remove(to);
        let c = self.remove(from);
        if c != 0 {
            self.put(to, code_color(c), code_kind(c));
        }
        victim
    }
    #[inline(always)]
    pub fn pieces(&self, color: Color, kind: Kind) -> u128 {
        self.by_color[color as usize] & self.by_kind[kind as usize]
    }
    #[inline(always)]
    pub fn majors(&self) -> u128 {
        self.by_kind[1] | self.by_kind[2] | self.by_kind[3] | self.by_kind[4]
    }
    #[inline(always)]
    pub fn king(&self, color: Color) -> Option<usize> {
        first(self.pieces(color, Kind::King))
    }
    #[inline(always)]
    pub fn spy(&self, color: Color) -> Option<usize> {
        first(self.pieces(color, Kind::Spy))
    }
    #[inline(always)]
    pub fn kind_at(&self, sq: usize) -> Option<(Color, Kind)> {
        let c = self.mailbox[sq];
        (c != 0).then(|| (code_color(c), code_kind(c)))
    }

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
        let t = tables();
        let Some(k) = self.king(side) else {
            return false;
        };
        let kbit = 1u128 << k;
        if t.court & kbit != 0 {
            return false;
        }
        let them = self.by_color[side.other() as usize];
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
        let occ = self.line_blockers(t);
        let queens = self.by_kind[4];
        let straight = them & (self.by_kind[3] | queens) & not_field | (spy_counts & not_field);
        let diagonal = them & (self.by_kind[2] | queens) & not_field | (spy_counts & not_field);
        if straight != 0 && rook_attacks(t, k, occ) & straight != 0 {
            return true;
        }
        if diagonal != 0 && bishop_attacks(t, k, occ) & diagonal != 0 {
            return true;
        }
        if collusion && t.field & kbit != 0 && spy & t.field != 0 {
            let colluders = self.colluders(side.other());
            if colluders != 0 {
                return self.collusion_attackers(t, k, colluders, spy_counts, occ) != 0;
            }
        }
        false
    }

    /// `side`'s Field majors standing next to `side`'s Field Spy (7.4); 0 if none.
    #[inline]
    pub fn colluders(&self, side: Color) -> u128 {
        let t = tables();
        match self.spy(side) {
            Some(s) if t.field >> s & 1 != 0 => {
                self.by_color[side as usize] & self.majors() & t.field & t.adjacent[s]
            }
            _ => 0,
        }
    }

    /// Colluding men (pieces in `colluders` and the Spy `spy`, if it counts) that attack `k`.
    #[inline]
    fn collusion_attackers(
        &self,
        t: &Tables,
        k: usize,
        colluders: u128,
        spy: u128,
        occ: u128,
    ) -> u128 {
        let queens = self.by_kind[4];
        let mut hits = colluders & self.by_kind[1] & t.knight_l[k];
        let straight = colluders & (self.by_kind[3] | queens) | spy;
        let diagonal = colluders & (self.by_kind[2] | queens) | spy;
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

    /// The flip on the board (7.5), judged after a turn of `mover`, with precedence R9.
    #[inline]
    pub fn flip(&self, mover: Color) -> Option<Flip> {
        let t = tables();
        let kings = [self.king(Color::White), self.king(Color::Black)];
        let spies = [self.spy(Color::White), self.spy(Color::Black)];
        // Fast exit: no Spy next to a King or a Spy, and no Court Spy facing a Court King.
        let near = |a: Option<usize>, b: Option<usize>| match (a, b) {
            (Some(a), Some(b)) => t.adjacent[a] >> b & 1 != 0,
            _ => false,
        };
        let in_court = |s: Option<usize>| s.is_some_and(|s| t.court >> s & 1 != 0);
        let court_line = |spy_side: usize| -> bool {
            match (spies[spy_side], kings[1 - spy_side]) {
                (Some(s), Some(k)) if in_court(Some(s)) && in_court(Some(k)) => {
                    queen_attacks(t, k, self.line_blockers(t)) >> s & 1 != 0
                }
                _ => false,
            }
        };
        let m = mover as usize;
        let o = 1 - m;
        let (mc, oc) = (mover, mover.other());
        // Rule 2: a King next to the enemy Spy, unless both in Court (then rule 1).
        let king_flips = |side: usize| {
            near(kings[side], spies[1 - side])
                && !(in_court(kings[side]) && in_court(spies[1 - side]))
        };
        // The mover's faults first (R9), in the order of 7.5.
        if court_line(o) {
            return Some(Flip {
                winner: oc,
                rule: FlipRule::SpyFlipsKing,
            });
        }
        if king_flips(o) {
            return Some(Flip {
                winner: oc,
                rule: FlipRule::KingFlipsSpy,
            });
        }
        if near(kings[m], spies[m]) {
            return Some(Flip {
                winner: oc,
                rule: FlipRule::KingNextToOwnSpy,
            });
        }
        if near(spies[0], spies[1]) {
            return Some(Flip {
                winner: oc,
                rule: FlipRule::SpiesTogether,
            });
        }
        if court_line(m) {
            return Some(Flip {
                winner: mc,
                rule: FlipRule::SpyFlipsKing,
            });
        }
        if king_flips(m) {
            return Some(Flip {
                winner: mc,
                rule: FlipRule::KingFlipsSpy,
            });
        }
        if near(kings[o], spies[o]) {
            return Some(Flip {
                winner: mc,
                rule: FlipRule::KingNextToOwnSpy,
            });
        }
        None
    }
}

/// Which flip rule of 7.5 ended the game.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum FlipRule {
    /// Rule 1: a Court Spy lined up with the enemy Court King.
    SpyFlipsKing,
    /// Rule 2: a King next to the enemy Spy.
    KingFlipsSpy,
    /// Rule 3: a King next to his own Spy.
    KingNextToOwnSpy,
    /// Rule 4: a Spy moved next to the other Spy.
    SpiesTogether,
}

/// A flip: who wins and by which rule.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Flip {
    /// The side that wins.
    pub winner: Color,
    /// The rule.
    pub rule: FlipRule,
}

impl Flip {
    /// The ending in the rulebook's words (section 11).
    pub fn describe(self) -> String {
        let (w, l) = (self.winner.name(), self.winner.other().name());
        match self.rule {
            FlipRule::SpyFlipsKing => format!("flip: {w}'s Court Spy flipped {l}'s Court King"),
            FlipRule::KingFlipsSpy => format!("flip: {w}'s King flipped {l}'s Spy"),
            FlipRule::KingNextToOwnSpy => format!("flip: {l}'s King stands next to its own Spy"),
            FlipRule::SpiesTogether => format!("flip: {l}'s Spy landed next to the other Spy"),
        }
    }
}

#[inline(always)]
pub(crate) fn first(b: u128) -> Option<usize> {
    (b != 0).then(|| b.trailing_zeros() as usize)
}
