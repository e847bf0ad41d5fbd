//! FEN in and out, with validation that names the field at fault.

use crate::attacks::{geometry, tables};
use crate::board::{
    Chess, Role, BLACK_KING_SIDE, BLACK_QUEEN_SIDE, NO_EP, WHITE_KING_SIDE, WHITE_QUEEN_SIDE,
};
use menagerie_core::{Color, PositionError};

/// The start position.
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

fn parse_number(field: &'static str, text: &str) -> Result<u32, PositionError> {
    let ok = !text.is_empty()
        && text.bytes().all(|b| b.is_ascii_digit())
        && (text == "0" || !text.starts_with('0'));
    if !ok {
        return Err(PositionError::new(
            field,
            format!("'{text}' is not a whole number without sign or leading zeros"),
        ));
    }
    text.parse()
        .map_err(|_| PositionError::new(field, format!("'{text}' is too large")))
}

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
        let rows: Vec<&str> = fields[0].split('/').collect();
        if rows.len() != 8 {
            return Err(PositionError::new(
                "board",
                format!("expected 8 rows, found {}", rows.len()),
            ));
        }
        for (i, row) in rows.iter().enumerate() {
            let rank = 7 - i as u8;
            let mut file = 0u8;
            let mut last_digit = false;
            for c in row.chars() {
                if let Some(d) = c.to_digit(10) {
                    if last_digit || d == 0 {
                        return Err(PositionError::new(
                            "board",
                            format!("row {} has a bad run of empty squares", i + 1),
                        ));
                    }
                    last_digit = true;
                    file += d as u8;
                } else {
                    last_digit = false;
                    let role = Role::from_letter(c).ok_or_else(|| {
                        PositionError::new("board", format!("'{c}' is not a piece letter"))
                    })?;
                    if file >= 8 {
                        return Err(PositionError::new(
                            "board",
                            format!("row {} has more than 8 squares", i + 1),
                        ));
                    }
                    let color = if c.is_ascii_uppercase() {
                        Color::White
                    } else {
                        Color::Black
                    };
                    pos.put(rank * 8 + file, color, role);
                    file += 1;
                }
                if file > 8 {
                    return Err(PositionError::new(
                        "board",
                        format!("row {} has more than 8 squares", i + 1),
                    ));
                }
            }
            if file != 8 {
                return Err(PositionError::new(
                    "board",
                    format!("row {} has {file} squares, not 8", i + 1),
                ));
            }
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
        let g = geometry();
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
        pos.halfmove = parse_number("halfmove clock", fields[4])?;
        pos.fullmove = parse_number("fullmove number", fields[5])?;
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
        let mut s = String::new();
        for rank in (0..8).rev() {
            let mut run = 0;
            for file in 0..8 {
                match self.piece_at(rank * 8 + file) {
                    None => run += 1,
                    Some((color, role)) => {
                        if run > 0 {
                            s.push_str(&run.to_string());
                            run = 0;
                        }
                        let c = role.letter();
                        s.push(if color == Color::White {
                            c
                        } else {
                            c.to_ascii_lowercase()
                        });
                    }
                }
            }
            if run > 0 {
                s.push_str(&run.to_string());
            }
            if rank > 0 {
                s.push('/');
            }
        }
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
