//! The men on the board: a mailbox and bitboards. Check (with sectors, transparency and
//! collusion) and the flip rules read them, each in a file of its own under `board/`.

mod check;
mod collusion;
mod flips;

pub use flips::{Flip, FlipRule};

use crate::tables::SQUARES;
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
    // Indexed by the low three bits, so no bounds check (0, no man, is never asked).
    const KINDS: [Kind; 8] = [
        Kind::Pawn,
        Kind::Pawn,
        Kind::Knight,
        Kind::Bishop,
        Kind::Rook,
        Kind::Queen,
        Kind::King,
        Kind::Spy,
    ];
    KINDS[(c & 7) as usize]
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
    /// The men's part of the position key, kept by `put` and `remove` (hashing the whole
    /// board at every node was a sixteenth of a search).
    pub hash: u64,
}

/// The key of the man with code `c` on `sq`.
#[inline(always)]
pub(crate) fn man_key(c: u8, sq: usize) -> u64 {
    crate::position::zobrist()[c as usize * SQUARES + sq]
}

impl Board {
    pub fn empty() -> Self {
        Board {
            mailbox: [0; SQUARES],
            by_color: [0; 2],
            by_kind: [0; 7],
            hash: 0,
        }
    }
    /// The men's key computed from scratch (what `hash` must equal).
    pub fn hash_from_scratch(&self) -> u64 {
        (0..SQUARES)
            .filter(|&sq| self.mailbox[sq] != 0)
            .fold(0, |h, sq| h ^ man_key(self.mailbox[sq], sq))
    }
    #[inline(always)]
    pub fn occupied(&self) -> u128 {
        self.by_color[0] | self.by_color[1]
    }
    #[inline(always)]
    pub fn put(&mut self, sq: usize, color: Color, kind: Kind) {
        let bit = 1u128 << sq;
        let c = code(color, kind);
        self.hash ^= man_key(c, sq);
        self.mailbox[sq] = c;
        self.by_color[color as usize] |= bit;
        self.by_kind[kind as usize] |= bit;
    }
    /// Removes whatever stands on `sq`; returns its code (0 if empty).
    #[inline(always)]
    pub fn remove(&mut self, sq: usize) -> u8 {
        let c = self.mailbox[sq];
        if c != 0 {
            let bit = !(1u128 << sq);
            self.hash ^= man_key(c, sq);
            self.mailbox[sq] = 0;
            self.by_color[code_color(c) as usize] &= bit;
            self.by_kind[code_kind(c) as usize] &= bit;
        }
        c
    }
    /// Moves the man on `from` to `to`, removing anything on `to`; returns the victim's code.
    #[inline(always)]
    pub fn shift(&mut self, from: usize, to: usize) -> u8 {
        let c = self.mailbox[from];
        if c != 0 && from != to {
            // One pass: the victim out, the man's bits moved by one exclusive or.
            let victim = self.remove(to);
            let both = 1u128 << from | 1u128 << to;
            self.hash ^= man_key(c, from) ^ man_key(c, to);
            self.mailbox[from] = 0;
            self.mailbox[to] = c;
            self.by_color[code_color(c) as usize] ^= both;
            self.by_kind[code_kind(c) as usize] ^= both;
            return victim;
        }
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
}

#[inline(always)]
pub(crate) fn first(b: u128) -> Option<usize> {
    (b != 0).then(|| b.trailing_zeros() as usize)
}
