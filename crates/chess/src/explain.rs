//! Why a move cannot be played: the rule it breaks, in a player's words.

use crate::attacks;
use crate::board::{Chess, Role};
use menagerie_core::{Color, Square};

impl Chess {
    /// Why a move from `from` to `to` cannot be played, in a player's words.
    pub fn explain_illegal(&self, from: u8, to: u8) -> String {
        self.explain(from, to, None)
    }

    /// Why the move `from`-`to` with the promotion letter `promotion` (as written, any
    /// case) cannot be played: the first rule it breaks.
    pub(crate) fn explain(&self, from: u8, to: u8, promotion: Option<char>) -> String {
        let g = attacks::geometry();
        let name = |s: u8| g.square_name(Square(s as u16));
        let Some((color, role)) = self.piece_at(from) else {
            return format!("there is no piece on {}", name(from));
        };
        if color != self.turn {
            return format!(
                "the {} on {} is {color}'s, and it is {}'s turn",
                role.name(),
                name(from),
                self.turn
            );
        }
        let (f, tt) = (from as usize, to as usize);
        if role == Role::King && f.abs_diff(tt) == 2 && f / 8 == tt / 8 && promotion.is_none() {
            return self.castling_refusal(tt > f);
        }
        if let Some((c, _)) = self.piece_at(to) {
            if c == color {
                return format!("{} is occupied by your own piece", name(to));
            }
        }
        if self.reach(from, role) >> tt & 1 == 0 {
            return format!(
                "a {} on {} cannot reach {}",
                role.name(),
                name(from),
                name(to)
            );
        }
        let last_rank = role == Role::Pawn && (tt / 8 == 0 || tt / 8 == 7);
        match promotion.map(|c| c.to_ascii_lowercase()) {
            None if last_rank => {
                return "a pawn reaching the last rank must promote: add q, r, b or n".into()
            }
            Some('q' | 'r' | 'b' | 'n') if !last_rank => {
                return format!(
                    "only a pawn reaching the last rank promotes, and {}{} is not such a move",
                    name(from),
                    name(to)
                )
            }
            Some(c) if !matches!(c, 'q' | 'r' | 'b' | 'n') => {
                return "a pawn promotes to a queen, rook, bishop or knight".into()
            }
            _ => {}
        }
        if role == Role::King {
            format!("the king would be in check on {}", name(to))
        } else if self.in_check() {
            "it does not get your king out of check".into()
        } else {
            "it would leave your king in check".into()
        }
    }

    /// The squares the piece of `role` on `from` could go to if its own King's safety did
    /// not count (castling left out; en passant included).
    fn reach(&self, from: u8, role: Role) -> u64 {
        let t = attacks::tables();
        let occ = self.occupied();
        let f = from as usize;
        let color = self.turn;
        match role {
            Role::Knight => t.knight[f],
            Role::Bishop => t.bishop(f, occ),
            Role::Rook => t.rook(f, occ),
            Role::Queen => t.queen(f, occ),
            Role::King => t.king[f],
            Role::Pawn => {
                let dir: i32 = if color == Color::White { 8 } else { -8 };
                let one = f as i32 + dir;
                let ep = self.ep_square().map_or(0, |e| 1u64 << e);
                let mut m = t.pawn[color.index()][f] & (self.by_color[color.other().index()] | ep);
                if (0..64).contains(&one) && occ >> one & 1 == 0 {
                    m |= 1 << one;
                    let start_rank = if color == Color::White { 1 } else { 6 };
                    let two = one + dir;
                    if f / 8 == start_rank && occ >> two & 1 == 0 {
                        m |= 1 << two;
                    }
                }
                m
            }
        }
    }
}
