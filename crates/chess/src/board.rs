//! The chess position: bitboards, a mailbox, state fields and the Zobrist key, with
//! copy-make move playing.

use crate::attacks::{tables, Tables};
use menagerie_core::zobrist::KeyGen;
use menagerie_core::Color;
use std::sync::OnceLock;

/// A kind of chess piece.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Role {
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
}

impl Role {
    /// All roles, pawn first.
    pub const ALL: [Role; 6] = [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
        Role::King,
    ];
    /// The upper-case letter (`P N B R Q K`).
    pub const fn letter(self) -> char {
        ['P', 'N', 'B', 'R', 'Q', 'K'][self as usize]
    }
    /// The role with letter `c` (either case).
    pub fn from_letter(c: char) -> Option<Role> {
        Some(match c.to_ascii_uppercase() {
            'P' => Role::Pawn,
            'N' => Role::Knight,
            'B' => Role::Bishop,
            'R' => Role::Rook,
            'Q' => Role::Queen,
            'K' => Role::King,
            _ => return None,
        })
    }
    /// The piece's name in words.
    pub const fn name(self) -> &'static str {
        ["pawn", "knight", "bishop", "rook", "queen", "king"][self as usize]
    }
}

/// How a move is special.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum MoveKind {
    /// An ordinary move or capture (promotions included).
    Normal,
    /// A pawn capturing en passant.
    EnPassant,
    /// Castling; `to` is the King's destination.
    Castle,
}

/// One chess move.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Move {
    /// Square index the piece leaves.
    pub from: u8,
    /// Square index it arrives on (the King's square for castling).
    pub to: u8,
    /// The piece a pawn becomes.
    pub promotion: Option<Role>,
    /// Castling, en passant or normal.
    pub kind: MoveKind,
}

/// Castling right bits.
pub const WHITE_KING_SIDE: u8 = 1;
/// White may castle long.
pub const WHITE_QUEEN_SIDE: u8 = 2;
/// Black may castle short.
pub const BLACK_KING_SIDE: u8 = 4;
/// Black may castle long.
pub const BLACK_QUEEN_SIDE: u8 = 8;

/// Empty mailbox square.
pub(crate) const EMPTY: u8 = 12;
/// No en passant square.
pub(crate) const NO_EP: u8 = 64;

pub(crate) struct Keys {
    pub piece: [[u64; 64]; 12],
    pub black: u64,
    pub castling: [u64; 16],
    pub ep_file: [u64; 8],
}

pub(crate) fn keys() -> &'static Keys {
    static K: OnceLock<Keys> = OnceLock::new();
    K.get_or_init(|| {
        let mut g = KeyGen::new(0xC4E5_5000_0000_0001);
        let mut piece = [[0; 64]; 12];
        for row in piece.iter_mut() {
            for k in row.iter_mut() {
                *k = g.next();
            }
        }
        let black = g.next();
        let mut castling = [0; 16];
        for k in castling.iter_mut() {
            *k = g.next();
        }
        let mut ep_file = [0; 8];
        for k in ep_file.iter_mut() {
            *k = g.next();
        }
        Keys {
            piece,
            black,
            castling,
            ep_file,
        }
    })
}

/// Rights lost when a move touches each square (King or Rook home squares).
const fn castle_masks() -> [u8; 64] {
    let mut m = [0xFF; 64];
    m[4] = !(WHITE_KING_SIDE | WHITE_QUEEN_SIDE);
    m[7] = !WHITE_KING_SIDE;
    m[0] = !WHITE_QUEEN_SIDE;
    m[60] = !(BLACK_KING_SIDE | BLACK_QUEEN_SIDE);
    m[63] = !BLACK_KING_SIDE;
    m[56] = !BLACK_QUEEN_SIDE;
    m
}
const CASTLE_MASK: [u8; 64] = castle_masks();

/// An orthodox chess position (FIDE rules).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chess {
    pub(crate) by_color: [u64; 2],
    pub(crate) by_role: [u64; 6],
    pub(crate) board: [u8; 64],
    pub(crate) turn: Color,
    pub(crate) castling: u8,
    pub(crate) ep: u8,
    pub(crate) halfmove: u32,
    pub(crate) fullmove: u32,
    pub(crate) key: u64,
}

impl Chess {
    pub(crate) fn empty() -> Self {
        Chess {
            by_color: [0; 2],
            by_role: [0; 6],
            board: [EMPTY; 64],
            turn: Color::White,
            castling: 0,
            ep: NO_EP,
            halfmove: 0,
            fullmove: 1,
            key: 0,
        }
    }

    /// The side to move.
    #[inline(always)]
    pub fn side(&self) -> Color {
        self.turn
    }
    /// All occupied squares.
    #[inline(always)]
    pub fn occupied(&self) -> u64 {
        self.by_color[0] | self.by_color[1]
    }
    /// Squares of both sides' pieces of `role`.
    #[inline(always)]
    pub fn role_pieces(&self, role: Role) -> u64 {
        self.by_role[role as usize]
    }
    /// Squares of `color`'s pieces of `role`.
    #[inline(always)]
    pub fn pieces(&self, color: Color, role: Role) -> u64 {
        self.by_color[color.index()] & self.by_role[role as usize]
    }
    /// The piece on square index `sq`.
    #[inline(always)]
    pub fn piece_at(&self, sq: u8) -> Option<(Color, Role)> {
        let p = self.board[sq as usize];
        (p != EMPTY).then(|| {
            let color = if p < 6 { Color::White } else { Color::Black };
            (color, Role::ALL[(p % 6) as usize])
        })
    }
    /// The castling rights as bits (`WHITE_KING_SIDE`, ...).
    pub fn castling_rights(&self) -> u8 {
        self.castling
    }
    /// The en passant square index, if a double step was just played.
    pub fn ep_square(&self) -> Option<u8> {
        (self.ep != NO_EP).then_some(self.ep)
    }
    /// The square index of `color`'s King.
    #[inline(always)]
    pub fn king_square(&self, color: Color) -> usize {
        self.pieces(color, Role::King).trailing_zeros() as usize & 63
    }

    pub(crate) fn put(&mut self, sq: u8, color: Color, role: Role) {
        let bit = 1u64 << sq;
        self.by_color[color.index()] |= bit;
        self.by_role[role as usize] |= bit;
        let p = color.index() as u8 * 6 + role as u8;
        self.board[sq as usize] = p;
        self.key ^= keys().piece[p as usize][sq as usize];
    }

    pub(crate) fn remove(&mut self, sq: u8) {
        let p = self.board[sq as usize];
        if p == EMPTY {
            return;
        }
        let bit = 1u64 << sq;
        self.by_color[(p / 6) as usize] &= !bit;
        self.by_role[(p % 6) as usize] &= !bit;
        self.board[sq as usize] = EMPTY;
        self.key ^= keys().piece[p as usize][sq as usize];
    }

    /// The pieces of `by` that attack square index `sq`, given occupancy `occ`.
    #[inline(always)]
    pub(crate) fn attackers(&self, t: &Tables, sq: usize, by: Color, occ: u64) -> u64 {
        let them = self.by_color[by.index()];
        let diag = self.by_role[Role::Bishop as usize] | self.by_role[Role::Queen as usize];
        let orth = self.by_role[Role::Rook as usize] | self.by_role[Role::Queen as usize];
        them & ((t.knight[sq] & self.by_role[Role::Knight as usize])
            | (t.king[sq] & self.by_role[Role::King as usize])
            | (t.pawn[by.other().index()][sq] & self.by_role[Role::Pawn as usize])
            | (t.bishop(sq, occ) & diag)
            | (t.rook(sq, occ) & orth))
    }

    /// The pieces of either colour standing in `occ` that attack square index `sq` when the
    /// board holds only `occ` (exchanges played out in thought remove pieces from it).
    pub fn attackers_to(&self, sq: usize, occ: u64) -> u64 {
        let t = tables();
        let r = &self.by_role;
        let pawns = r[Role::Pawn as usize];
        let diag = r[Role::Bishop as usize] | r[Role::Queen as usize];
        let orth = r[Role::Rook as usize] | r[Role::Queen as usize];
        // Both colours at once: one look-up a slider, the pawns by the side they belong to.
        ((t.knight[sq] & r[Role::Knight as usize])
            | (t.king[sq] & r[Role::King as usize])
            | (t.pawn[1][sq] & pawns & self.by_color[0])
            | (t.pawn[0][sq] & pawns & self.by_color[1])
            | (t.bishop(sq, occ) & diag)
            | (t.rook(sq, occ) & orth))
            & occ
    }

    /// Every piece of `color`.
    pub fn color_pieces(&self, color: Color) -> u64 {
        self.by_color[color.index()]
    }

    /// Whether the side to move is in check.
    pub fn in_check(&self) -> bool {
        let t = tables();
        let k = self.king_square(self.turn);
        self.attackers(t, k, self.turn.other(), self.occupied()) != 0
    }

    /// The Zobrist contribution of the en passant square: only when a pawn of the side to
    /// move stands ready to take, so positions that differ in nothing else repeat.
    pub(crate) fn ep_key(&self) -> u64 {
        if self.ep == NO_EP {
            return 0;
        }
        let t = tables();
        let takers = t.pawn[self.turn.other().index()][self.ep as usize]
            & self.pieces(self.turn, Role::Pawn);
        if takers != 0 {
            keys().ep_file[(self.ep % 8) as usize]
        } else {
            0
        }
    }

    /// Recomputes the key from scratch (used after reading a position string).
    pub(crate) fn compute_key(&self) -> u64 {
        let k = keys();
        let mut key = 0;
        for sq in 0..64 {
            let p = self.board[sq];
            if p != EMPTY {
                key ^= k.piece[p as usize][sq];
            }
        }
        if self.turn == Color::Black {
            key ^= k.black;
        }
        key ^ k.castling[self.castling as usize] ^ self.ep_key()
    }

    /// Passes: the other side moves next, no en passant square (a search's null move).
    pub(crate) fn make_null(&mut self) {
        let k = keys();
        self.key ^= self.ep_key();
        self.ep = NO_EP;
        self.halfmove = self.halfmove.saturating_add(1);
        if self.turn == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.turn = self.turn.other();
        self.key ^= k.black;
    }

    /// Plays a legal move (copy-make: the caller clones first when it needs the old one).
    pub fn make(&mut self, mv: Move) {
        let k = keys();
        let us = self.turn;
        self.key ^= self.ep_key();
        self.key ^= k.castling[self.castling as usize];
        let (from, to) = (mv.from, mv.to);
        let moving = self.board[from as usize];
        let role = Role::ALL[(moving % 6) as usize];
        let captured = self.board[to as usize];
        // The counters saturate: a position string may start them anywhere up to u32::MAX.
        self.halfmove = if role == Role::Pawn || captured != EMPTY {
            0
        } else {
            self.halfmove.saturating_add(1)
        };
        self.ep = NO_EP;
        match mv.kind {
            MoveKind::Castle => {
                let (rook_from, rook_to) = if to > from {
                    (from + 3, from + 1)
                } else {
                    (from - 4, from - 1)
                };
                self.remove(from);
                self.remove(rook_from);
                self.put(to, us, Role::King);
                self.put(rook_to, us, Role::Rook);
            }
            MoveKind::EnPassant => {
                let victim = if us == Color::White { to - 8 } else { to + 8 };
                self.remove(victim);
                self.remove(from);
                self.put(to, us, Role::Pawn);
            }
            MoveKind::Normal => {
                self.remove(to);
                self.remove(from);
                self.put(to, us, mv.promotion.unwrap_or(role));
                if role == Role::Pawn && from.abs_diff(to) == 16 {
                    self.ep = (from + to) / 2;
                }
            }
        }
        self.castling &= CASTLE_MASK[from as usize] & CASTLE_MASK[to as usize];
        self.key ^= k.castling[self.castling as usize];
        if us == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.turn = us.other();
        self.key ^= k.black;
        self.key ^= self.ep_key();
    }
}
