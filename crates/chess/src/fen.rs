//! FEN in and out, with validation that names the field at fault.

use crate::attacks::{geometry, tables};
use crate::board::{
    Chess, Role, BLACK_KING_SIDE, BLACK_QUEEN_SIDE, NO_EP, WHITE_KING_SIDE, WHITE_QUEEN_SIDE,
};
use menagerie_core::board_text::{read_board, read_number, write_board};
use menagerie_core::{Color, PositionError};

/// The start position.
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

impl Chess {
    /// Reads a FEN string (six fields), rejecting positions the rules could not hold.
    pub fn from_fen(fen: &str) -> Result<Chess, PositionError> {
        let fields: Vec<&str> = fen.split(' ').collect();
        if fields.len() != 6 {
            return Err(PositionError::new(
                "fields",
                format!(
                    "expected 6 fields separated by single spaces (board, side, castling, en passant, halfmove clock, fullmove number), found {}",
                    fields.len()
                ),
            ));
        }
        let mut pos = Chess::empty();
        let g = geometry();
        for (sq, letter) in read_board(g, fields[0])?.into_iter().enumerate() {
            let Some(c) = letter else { continue };
            let role = Role::from_letter(c).ok_or_else(|| {
                PositionError::new("board", format!("'{c}' is not a piece letter"))
            })?;
            let color = if c.is_ascii_uppercase() {
                Color::White
            } else {
                Color::Black
            };
            pos.put(sq as u8, color, role);
        }
        for color in Color::BOTH {
            let kings = pos.pieces(color, Role::King).count_ones();
            if kings != 1 {
                return Err(PositionError::new(
                    "board",
                    format!("{color} has {kings} kings; exactly one is needed"),
                ));
            }
            if pos.by_color[color.index()].count_ones() > 16 {
                return Err(PositionError::new(
                    "board",
                    format!("{color} has more than 16 pieces"),
                ));
            }
            if pos.pieces(color, Role::Pawn).count_ones() > 8 {
                return Err(PositionError::new(
                    "board",
                    format!("{color} has more than 8 pawns"),
                ));
            }
        }
        if pos.by_role[Role::Pawn as usize] & (0xFF | 0xFF << 56) != 0 {
            return Err(PositionError::new(
                "board",
                "a pawn stands on the first or last rank",
            ));
        }
        pos.turn = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            other => {
                return Err(PositionError::new(
                    "side to move",
                    format!("'{other}' is not w or b"),
                ))
            }
        };
        pos.castling = 0;
        if fields[2] != "-" {
            let order = ['K', 'Q', 'k', 'q'];
            let mut last = None;
            for c in fields[2].chars() {
                let idx = order.iter().position(|&o| o == c).ok_or_else(|| {
                    PositionError::new("castling", format!("'{c}' is not one of K Q k q"))
                })?;
                if last.is_some_and(|l| l >= idx) {
                    return Err(PositionError::new(
                        "castling",
                        "rights must be written once each, in the order KQkq",
                    ));
                }
                last = Some(idx);
                let (bit, color, king, rook) = match c {
                    'K' => (WHITE_KING_SIDE, Color::White, 4, 7),
                    'Q' => (WHITE_QUEEN_SIDE, Color::White, 4, 0),
                    'k' => (BLACK_KING_SIDE, Color::Black, 60, 63),
                    _ => (BLACK_QUEEN_SIDE, Color::Black, 60, 56),
                };
                if pos.piece_at(king) != Some((color, Role::King))
                    || pos.piece_at(rook) != Some((color, Role::Rook))
                {
                    return Err(PositionError::new(
                        "castling",
                        format!("right '{c}' needs the king and rook on their home squares"),
                    ));
                }
                pos.castling |= bit;
            }
            if fields[2].is_empty() {
                return Err(PositionError::new("castling", "the field is empty"));
            }
        }
        pos.ep = NO_EP;
        if fields[3] != "-" {
            let sq = g.parse_square(fields[3]).map_err(|_| {
                PositionError::new("en passant", format!("'{}' is not a square", fields[3]))
            })?;
            let (rank, behind, front) = match pos.turn {
                Color::White => (5u8, sq.0 as i32 - 8, sq.0 as i32 + 8),
                Color::Black => (2u8, sq.0 as i32 + 8, sq.0 as i32 - 8),
            };
            let bad = g.rank(sq) != rank
                || pos.piece_at(behind as u8) != Some((pos.turn.other(), Role::Pawn))
                || pos.piece_at(sq.0 as u8).is_some()
                || pos.piece_at(front as u8).is_some();
            if bad {
                return Err(PositionError::new(
                    "en passant",
                    format!(
                        "{} is not a square a pawn just passed over with a double step",
                        fields[3]
                    ),
                ));
            }
            pos.ep = sq.0 as u8;
        }
        pos.halfmove = read_number("halfmove clock", fields[4])?;
        pos.fullmove = read_number("fullmove number", fields[5])?;
        if pos.fullmove == 0 {
            return Err(PositionError::new(
                "fullmove number",
                "it starts at 1, not 0",
            ));
        }
        let t = tables();
        let waiting = pos.turn.other();
        if pos.attackers(t, pos.king_square(waiting), pos.turn, pos.occupied()) != 0 {
            return Err(PositionError::new(
                "board",
                format!("{waiting} is in check but it is not {waiting}'s turn"),
            ));
        }
        pos.key = pos.compute_key();
        Ok(pos)
    }

    /// Writes the position as FEN.
    pub fn to_fen(&self) -> String {
        let mut s = write_board(geometry(), |sq| {
            self.piece_at(sq.0 as u8).map(|(color, role)| match color {
                Color::White => role.letter(),
                Color::Black => role.letter().to_ascii_lowercase(),
            })
        });
        s.push(' ');
        s.push(self.turn.letter());
        s.push(' ');
        if self.castling == 0 {
            s.push('-');
        }
        for (bit, c) in [
            (WHITE_KING_SIDE, 'K'),
            (WHITE_QUEEN_SIDE, 'Q'),
            (BLACK_KING_SIDE, 'k'),
            (BLACK_QUEEN_SIDE, 'q'),
        ] {
            if self.castling & bit != 0 {
                s.push(c);
            }
        }
        s.push(' ');
        if self.ep == NO_EP {
            s.push('-');
        } else {
            s.push_str(&geometry().square_name(menagerie_core::Square(self.ep as u16)));
        }
        s.push_str(&format!(" {} {}", self.halfmove, self.fullmove));
        s
    }
}
