//! Position strings (§8): seven fields, read strictly and written canonically.

use crate::position::*;
use crate::tables::*;
use menagerie_core::board_text::{read_board, read_number, write_board};
use menagerie_core::{BitBoard, Color, PositionError, Square, Wide};

/// The y of each colour's front row (rank 2, rank 7) and its files L..I (x = 1..=10).
const FRONT_Y: [usize; 2] = [3, 8];
const FRONT_FILES: std::ops::RangeInclusive<usize> = 1..=10;
/// The file letters by x.
const FILE_LETTERS: &str = "KLABCDEFGHIJ";

/// Whether `s` is one of the 22 start squares of `color`'s pawns (§4).
pub(crate) fn original_pawn_square(color: usize, s: usize) -> bool {
    let (x, y) = (s % 12, s / 12);
    let rows = if color == 0 { [1, 2, 3] } else { [10, 9, 8] };
    FRONT_FILES.contains(&x)
        && (y == rows[0] || y == rows[2] || (y == rows[1] && (x == 1 || x == 10)))
}

/// Whether a double step by `color` may start on `s` under `rules`.
fn double_step_square(rules: Rules, color: usize, s: usize) -> bool {
    if rules.double_step_any_unmoved {
        original_pawn_square(color, s)
    } else {
        s / 12 == FRONT_Y[color] && FRONT_FILES.contains(&(s % 12))
    }
}

impl VyrtPosition {
    /// The pawns standing on their start squares.
    pub(crate) fn pawns_on_original_squares(&self) -> Bb {
        let mut b = Wide::EMPTY;
        for s in 0..N {
            let code = self.board[s];
            if code & 7 == PAWN && original_pawn_square((code >> 3) as usize, s) {
                b.set(Square(s as u16));
            }
        }
        b
    }
}

fn err(field: &'static str, message: impl Into<String>) -> PositionError {
    PositionError::new(field, message)
}

/// A decimal number without sign or leading zeros.
fn number(text: &str, field: &'static str) -> Result<u32, PositionError> {
    read_number(field, text)
}

fn parse_board(pos: &mut VyrtPosition, text: &str) -> Result<(), PositionError> {
    const F: &str = "board";
    for (sq, letter) in read_board(crate::geometry(), text)?.into_iter().enumerate() {
        let Some(c) = letter else { continue };
        let kind = match LETTERS[1..]
            .iter()
            .position(|&l| l == c.to_ascii_uppercase())
        {
            Some(k) => k as u8 + 1,
            None => {
                let rank = crate::geometry().rank_name((sq / 12) as u8);
                return Err(err(F, format!("rank {rank}: unknown letter '{c}'")));
            }
        };
        let color = if c.is_ascii_uppercase() { 0 } else { 1 };
        pos.put(sq, kind | color << 3);
    }
    for (c, side) in ["White", "Black"].iter().enumerate() {
        let mut count = [0usize; 8];
        for s in 0..N {
            let code = pos.board[s];
            if code != 0 && (code >> 3) as usize == c {
                count[(code & 7) as usize] += 1;
                if code & 7 == PAWN && !pawn_row_ok(pos.rules.reversed_back_pawns, c, s / 12) {
                    return Err(err(F, format!("a {side} pawn on {} (rank {} is not a rank {side}'s pawns can stand on)", square_name(s), crate::geometry().rank_name((s / 12) as u8))));
                }
            }
        }
        if count[KING_K as usize] != 1 {
            return Err(err(
                F,
                format!(
                    "{side} has {} Kings, it needs exactly one",
                    count[KING_K as usize]
                ),
            ));
        }
        let pawns = count[PAWN as usize];
        let units: usize = count.iter().sum();
        if pawns > 22 {
            return Err(err(F, format!("{side} has {pawns} pawns, at most 22")));
        }
        if units > 30 {
            return Err(err(F, format!("{side} has {units} units, at most 30")));
        }
        let extra = |k: u8, start: usize| count[k as usize].saturating_sub(start);
        let promoted = extra(QUEEN, 1) + extra(ROOK, 2) + extra(BISHOP, 2) + extra(KNIGHT_K, 2);
        if promoted > 22 - pawns {
            return Err(err(
                F,
                format!(
                    "{side} has {promoted} promoted pieces but only {} missing pawns",
                    22 - pawns
                ),
            ));
        }
    }
    Ok(())
}

fn parse_castling(pos: &mut VyrtPosition, text: &str) -> Result<(), PositionError> {
    const F: &str = "castling";
    if text == "-" {
        return Ok(());
    }
    let mut last = None;
    for c in text.chars() {
        let i = match "KQkq".find(c) {
            Some(i) => i,
            None => return Err(err(F, format!("'{c}' is not one of K, Q, k, q"))),
        };
        if last == Some(i) {
            return Err(err(F, format!("'{c}' is repeated")));
        }
        if last.is_some_and(|l| l > i) {
            return Err(err(
                F,
                format!("'{text}': the letters must be in the order K Q k q"),
            ));
        }
        last = Some(i);
        let (king, rook, colour) = match i {
            0 => (E1, 33, 0),
            1 => (E1, 26, 0),
            2 => (E8, 117, 1),
            _ => (E8, 110, 1),
        };
        let side = ["White", "Black"][colour];
        if pos.board[king] != KING_K | (colour as u8) << 3 {
            return Err(err(
                F,
                format!("right {c}: {side}'s King is not on {}", square_name(king)),
            ));
        }
        if pos.board[rook] != ROOK | (colour as u8) << 3 {
            return Err(err(
                F,
                format!(
                    "right {c}: there is no {side} Rook on {}",
                    square_name(rook)
                ),
            ));
        }
        pos.castling |= 1 << i;
    }
    Ok(())
}

fn parse_en_passant(pos: &mut VyrtPosition, text: &str) -> Result<(), PositionError> {
    const F: &str = "en passant";
    if text == "-" {
        return Ok(());
    }
    let s = crate::geometry()
        .parse_square(text)
        .map_err(|_| err(F, format!("'{text}' is neither '-' nor a square")))?
        .index();
    let mover = 1 - pos.turn.index();
    let pt = &PAWNS[pos.rules.reversed_back_pawns as usize];
    let beyond = pt.push[mover][s] as usize;
    let (x, y, by) = (s % 12, s / 12, beyond / 12);
    let origin = sq(x as i32, 2 * y as i32 - by as i32);
    if !double_step_square(pos.rules, mover, origin) {
        return Err(err(
            F,
            format!(
                "{} is not a square a {} pawn passes over with a double step",
                square_name(s),
                ["White", "Black"][mover]
            ),
        ));
    }
    if pos.board[s] != 0 || pos.board[origin] != 0 {
        return Err(err(
            F,
            format!(
                "{} and {} must both be empty",
                square_name(origin),
                square_name(s)
            ),
        ));
    }
    if pos.board[beyond] != PAWN | (mover as u8) << 3 {
        return Err(err(
            F,
            format!(
                "there is no {} pawn on {}",
                ["White", "Black"][mover],
                square_name(beyond)
            ),
        ));
    }
    pos.ep = s as u8;
    Ok(())
}

fn parse_double_step(pos: &mut VyrtPosition, text: &str) -> Result<(), PositionError> {
    const F: &str = "double-step rights";
    if text == "-" {
        return Ok(());
    }
    if pos.rules.double_step_any_unmoved {
        let mut last = None;
        for part in text.split(',') {
            let s = crate::geometry()
                .parse_square(part)
                .map_err(|_| err(F, format!("'{part}' is not a square (the field lists squares, separated by commas)")))?
                .index();
            if last.is_some_and(|l| l >= s) {
                return Err(err(
                    F,
                    format!(
                        "{}: squares must be listed once each, from K11 to J10",
                        square_name(s)
                    ),
                ));
            }
            last = Some(s);
            let code = pos.board[s];
            let ok = code & 7 == PAWN && original_pawn_square((code >> 3) as usize, s);
            if !ok {
                return Err(err(
                    F,
                    format!(
                        "{} does not hold a pawn on its start square",
                        square_name(s)
                    ),
                ));
            }
            pos.double_step.set(Square(s as u16));
        }
        return Ok(());
    }
    let Some((white, black)) = text.split_once('/') else {
        return Err(err(F, format!("'{text}' is neither '-' nor WHITE/BLACK")));
    };
    if white == "-" && black == "-" {
        return Err(err(F, "'-/-' is written '-'"));
    }
    for (colour, part) in [white, black].into_iter().enumerate() {
        if part == "-" {
            continue;
        }
        if part.is_empty() {
            return Err(err(F, "an empty list is written '-'"));
        }
        let mut last = 0;
        for c in part.chars() {
            let x = match FILE_LETTERS.find(c.to_ascii_uppercase()) {
                Some(x) if FRONT_FILES.contains(&x) => x,
                _ => return Err(err(F, format!("'{c}' is not a front-row file (L to I)"))),
            };
            if c.is_ascii_uppercase() != (colour == 0) {
                return Err(err(
                    F,
                    format!("'{c}': White's files are upper case, Black's lower case"),
                ));
            }
            if x <= last {
                return Err(err(
                    F,
                    format!(
                        "'{part}': files must appear once each, in the order L A B C D E F G H I"
                    ),
                ));
            }
            last = x;
            let s = 12 * FRONT_Y[colour] + x;
            if pos.board[s] != PAWN | (colour as u8) << 3 {
                return Err(err(
                    F,
                    format!(
                        "right {c}: there is no {} pawn on {}",
                        ["White", "Black"][colour],
                        square_name(s)
                    ),
                ));
            }
            pos.double_step.set(Square(s as u16));
        }
    }
    Ok(())
}

/// Reads a position string under `rules`.
pub(crate) fn parse(text: &str, rules: Rules) -> Result<VyrtPosition, PositionError> {
    let text = text.trim();
    let fields: Vec<&str> = text.split(' ').collect();
    if fields.len() != 7 || fields.iter().any(|f| f.is_empty()) {
        return Err(err(
            "position string",
            format!(
                "it needs seven fields separated by single spaces (board, side to move, \
                 castling, en passant, double-step rights, halfmove clock, fullmove number), \
                 found {}",
                text.split_whitespace().count()
            ),
        ));
    }
    let mut pos = VyrtPosition::empty(rules);
    parse_board(&mut pos, fields[0])?;
    pos.turn = match fields[1] {
        "w" => Color::White,
        "b" => Color::Black,
        other => {
            return Err(err(
                "side to move",
                format!("'{other}' is neither 'w' nor 'b'"),
            ))
        }
    };
    let idle = pos.turn.other().index();
    if pos.attacked(pos.king[idle] as usize, 1 - idle) {
        return Err(err(
            "board",
            format!("{} is in check but not to move", pos.turn.other()),
        ));
    }
    parse_castling(&mut pos, fields[2])?;
    parse_en_passant(&mut pos, fields[3])?;
    parse_double_step(&mut pos, fields[4])?;
    pos.halfmove = number(fields[5], "halfmove clock")?;
    pos.fullmove = number(fields[6], "fullmove number")?;
    if pos.fullmove == 0 {
        return Err(err("fullmove number", "it starts at 1"));
    }
    pos.rehash();
    Ok(pos)
}

/// Writes the position string.
pub(crate) fn write(pos: &VyrtPosition) -> String {
    let mut out = write_board(crate::geometry(), |sq| {
        let code = pos.board[sq.index()];
        (code != 0).then(|| letter(code))
    });
    out.push(' ');
    out.push(pos.turn.letter());
    out.push(' ');
    if pos.castling == 0 {
        out.push('-');
    }
    for (i, c) in "KQkq".chars().enumerate() {
        if pos.castling >> i & 1 != 0 {
            out.push(c);
        }
    }
    out.push(' ');
    if pos.ep as usize == NONE {
        out.push('-');
    } else {
        out.push_str(&square_name(pos.ep as usize));
    }
    out.push(' ');
    if pos.double_step.is_empty() {
        out.push('-');
    } else if pos.rules.double_step_any_unmoved {
        let squares: Vec<String> = pos
            .double_step
            .iter()
            .map(|s| square_name(s.index()))
            .collect();
        out.push_str(&squares.join(","));
    } else {
        for (colour, y) in FRONT_Y.into_iter().enumerate() {
            if colour == 1 {
                out.push('/');
            }
            let files: String = FRONT_FILES
                .filter(|&x| pos.double_step.has(Square((12 * y + x) as u16)))
                .map(|x| {
                    let c = FILE_LETTERS.as_bytes()[x] as char;
                    if colour == 0 {
                        c
                    } else {
                        c.to_ascii_lowercase()
                    }
                })
                .collect();
            out.push_str(if files.is_empty() { "-" } else { &files });
        }
    }
    out.push_str(&format!(" {} {}", pos.halfmove, pos.fullmove));
    out
}
