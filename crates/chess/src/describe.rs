//! Chess for front ends: the shape of each turn (kind and squares) and the pieces' names.
//! Only front ends call this; move generation never does.

use crate::board::{Chess, Move, MoveKind};
use menagerie_core::{Color, PieceInfo, Square, TurnKind, TurnPart, TurnShape};

fn sq(s: u8) -> Square {
    Square(u16::from(s))
}

impl Chess {
    /// The kind of `mv` and its squares: the King's and the Rook's steps for castling, the
    /// captured pawn for en passant, the chosen piece for a promotion.
    pub fn shape_of(&self, mv: Move) -> TurnShape {
        let step = TurnPart::step(sq(mv.from), sq(mv.to));
        match mv.kind {
            MoveKind::Castle => {
                let rank = mv.from / 8 * 8;
                let (rook_from, rook_to) = if mv.to > mv.from {
                    (rank + 7, rank + 5)
                } else {
                    (rank, rank + 3)
                };
                TurnShape::new(
                    TurnKind::Castling,
                    vec![step, TurnPart::step(sq(rook_from), sq(rook_to))],
                )
            }
            MoveKind::EnPassant => {
                let victim = if self.turn == Color::White {
                    mv.to - 8
                } else {
                    mv.to + 8
                };
                TurnShape::new(TurnKind::EnPassant, vec![step.capturing([sq(victim)])])
            }
            MoveKind::Normal => {
                let captures = self.piece_at(mv.to).map(|_| sq(mv.to));
                let mut part = step.capturing(captures);
                let kind = match mv.promotion {
                    Some(role) => {
                        part.promotion = Some(role.letter());
                        TurnKind::Promotion
                    }
                    None if part.captures.is_empty() => TurnKind::Move,
                    None => TurnKind::Capture,
                };
                TurnShape::new(kind, vec![part])
            }
        }
    }

    /// The piece on `s` with its name (`pawn`, `knight`, ... `king`).
    pub fn piece_info_at(&self, s: Square) -> Option<PieceInfo> {
        let (color, role) = self.piece_at(u8::try_from(s.0).ok()?)?;
        let letter = match color {
            Color::White => role.letter(),
            Color::Black => role.letter().to_ascii_lowercase(),
        };
        Some(PieceInfo::new(role.name(), color, letter))
    }
}
