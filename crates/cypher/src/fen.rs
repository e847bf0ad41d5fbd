//! The position string (section 12): reading with validation (12.3) and writing.

use crate::board::{Board, Kind};
use crate::moves::NONE;
use crate::position::{CypherPosition, Rules, D0, D10};
use crate::tables::{geometry, tables, SQUARES, WIDTH};
use menagerie_core::board_text::{read_board, write_board};
use menagerie_core::{Color, PositionError};

fn square_name(sq: usize) -> String {
    geometry().square_name(menagerie_core::Square(sq as u16))
}

/// Reads a position string under `rules`, refusing anything 12.3 forbids.
pub(crate) fn parse(text: &str, rules: Rules) -> Result<CypherPosition, PositionError> {
    let fields: Vec<&str> = text.trim().split(' ').collect();
    if fields.len() != 8 {
        return Err(PositionError::new(
            "fields",
            format!(
                "expected 8 fields separated by single spaces, found {}",
                fields.len()
            ),
        ));
    }
    let board = parse_board(fields[0])?;
    let turn = match fields[1] {
        "w" => Color::White,
        "b" => Color::Black,
        other => {
            return Err(PositionError::new(
                "side to move",
                format!("expected 'w' or 'b', found '{other}'"),
            ))
        }
    };
    let retake = match fields[2] {
        "-" => NONE,
        s => {
            if s.chars().any(|c| c.is_ascii_uppercase()) {
                return Err(PositionError::new(
                    "re-take square",
                    format!("'{s}': square names are written in lower case"),
                ));
            }
            let sq = geometry().parse_square(s).map_err(|_| {
                PositionError::new("re-take square", format!("'{s}' is not '-' or a square"))
            })?;
            sq.0 as u8
        }
    };
    let infiltration = match fields[3] {
        "Ii" => [true, true],
        "I" => [true, false],
        "i" => [false, true],
        "-" => [false, false],
        other => {
            return Err(PositionError::new(
                "infiltration",
                format!("expected 'Ii', 'I', 'i' or '-', found '{other}'"),
            ))
        }
    };
    let checks = parse_pair(fields[4], '+', "consecutive checks")?;
    let pools = parse_pair(fields[5], '/', "pools")?;
    let halfmove = parse_number(fields[6], "halfmove clock")?;
    let fullmove = parse_number(fields[7], "fullmove number")?;
    if fullmove == 0 {
        return Err(PositionError::new("fullmove number", "must be at least 1"));
    }
    let checks = [
        small(checks[0], "consecutive checks")?,
        small(checks[1], "consecutive checks")?,
    ];
    let pools = [small(pools[0], "pools")?, small(pools[1], "pools")?];
    let pos = CypherPosition {
        board,
        turn,
        retake,
        infiltration,
        checks,
        pools,
        halfmove,
        fullmove,
        rules,
    };
    validate(&pos)?;
    Ok(pos)
}

fn small(n: u32, field: &'static str) -> Result<u8, PositionError> {
    u8::try_from(n).map_err(|_| PositionError::new(field, format!("{n} is out of range")))
}

fn parse_number(text: &str, field: &'static str) -> Result<u32, PositionError> {
    if text.is_empty() || !text.bytes().all(|c| c.is_ascii_digit()) {
        return Err(PositionError::new(
            field,
            format!("expected a whole number, found '{text}'"),
        ));
    }
    text.parse()
        .map_err(|_| PositionError::new(field, format!("expected a whole number, found '{text}'")))
}

fn parse_pair(text: &str, sep: char, field: &'static str) -> Result<[u32; 2], PositionError> {
    let (a, b) = text.split_once(sep).ok_or_else(|| {
        PositionError::new(
            field,
            format!("expected two numbers joined by '{sep}', found '{text}'"),
        )
    })?;
    Ok([parse_number(a, field)?, parse_number(b, field)?])
}

fn parse_board(text: &str) -> Result<Board, PositionError> {
    let mut board = Board::empty();
    for (sq, letter) in read_board(geometry(), text)?.into_iter().enumerate() {
        let Some(ch) = letter else { continue };
        let kind = Kind::from_letter(ch).ok_or_else(|| {
            let rank = sq / WIDTH;
            PositionError::new("board", format!("rank {rank}: unknown piece letter '{ch}'"))
        })?;
        let color = if ch.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        board.put(sq, color, kind);
    }
    Ok(board)
}

fn validate(pos: &CypherPosition) -> Result<(), PositionError> {
    let t = tables();
    let b = &pos.board;
    let bad = |msg: String| PositionError::new("board", msg);
    for color in Color::BOTH {
        for kind in [Kind::King, Kind::Spy] {
            if b.pieces(color, kind).count_ones() > 1 {
                return Err(bad(format!("more than one {color} {}", kind.name())));
            }
        }
    }
    for sq in 0..SQUARES {
        if b.by_kind[Kind::Pawn as usize] >> sq & 1 != 0 {
            let (file, rank) = (sq % WIDTH, sq / WIDTH);
            if !(1..=8).contains(&file) || !(2..=8).contains(&rank) {
                return Err(bad(format!("a pawn cannot stand on {}", square_name(sq))));
            }
        }
    }
    for (kind, max, name) in [
        (Kind::Queen, 2, "Queens"),
        (Kind::Rook, 4, "Rooks"),
        (Kind::Bishop, 4, "Bishops"),
        (Kind::Knight, 4, "Knights"),
    ] {
        if b.by_kind[kind as usize].count_ones() > max {
            return Err(bad(format!("more than {max} {name} on the board")));
        }
    }
    let mover = pos.turn.other();
    for side in Color::BOTH {
        if b.king(side).is_none() {
            let opponent = side.other();
            let sent = b.by_color[opponent as usize] & b.majors() & (1u128 << D0 | 1u128 << D10);
            if side != pos.turn || pos.infiltration[opponent as usize] || sent == 0 {
                return Err(bad(format!(
                    "the {side} King is missing (only the side to move may lack its King, right after {opponent} captured it by infiltration)"
                )));
            }
        }
        if b.spy(side).is_none() && pos.infiltration[side.other() as usize] {
            return Err(bad(format!(
                "the {side} Spy is missing, but only an infiltration removes a Spy and {} has not used it",
                side.other()
            )));
        }
    }
    if pos.pools[0] > 16 || pos.pools[1] > 16 {
        return Err(PositionError::new("pools", "each pool holds 0 to 16 pawns"));
    }
    let pawns =
        b.by_kind[Kind::Pawn as usize].count_ones() + pos.pools[0] as u32 + pos.pools[1] as u32;
    if pawns > 16 {
        return Err(PositionError::new(
            "pools",
            format!("{pawns} pawns on the board and in the pools; at most 16"),
        ));
    }
    if pos.retake != NONE {
        let sq = pos.retake as usize;
        let ok = sq < SQUARES
            && t.field >> sq & 1 != 0
            && b.kind_at(sq)
                .is_some_and(|(c, k)| c == mover && k.is_major());
        if !ok {
            return Err(PositionError::new(
                "re-take square",
                format!(
                    "{} must hold a major piece of {mover} (the side that just moved) on a Field square",
                    square_name(sq.min(SQUARES - 1))
                ),
            ));
        }
    }
    if b.in_check(mover, true) {
        return Err(bad(format!(
            "the side that just moved ({mover}) is in check"
        )));
    }
    let (own, other) = (pos.checks[pos.turn as usize], pos.checks[mover as usize]);
    if own > 3 || other > 4 {
        return Err(PositionError::new(
            "consecutive checks",
            "the side to move's count is 0 to 3 and the other side's 0 to 4",
        ));
    }
    let in_check = b.in_check(pos.turn, true);
    if in_check != (other >= 1) {
        return Err(PositionError::new(
            "consecutive checks",
            if in_check {
                format!(
                    "{} is in check, so {mover}'s count must be at least 1",
                    pos.turn
                )
            } else {
                format!("{} is not in check, so {mover}'s count must be 0", pos.turn)
            },
        ));
    }
    Ok(())
}

/// Writes the position string.
pub(crate) fn write(pos: &CypherPosition) -> String {
    let out = write_board(geometry(), |sq| {
        pos.board
            .kind_at(sq.index())
            .map(|(color, kind)| match color {
                Color::White => kind.letter(),
                Color::Black => kind.letter().to_ascii_lowercase(),
            })
    });
    let retake = if pos.retake == NONE {
        "-".to_string()
    } else {
        square_name(pos.retake as usize)
    };
    let infiltration = match pos.infiltration {
        [true, true] => "Ii",
        [true, false] => "I",
        [false, true] => "i",
        [false, false] => "-",
    };
    format!(
        "{out} {} {retake} {infiltration} {}+{} {}/{} {} {}",
        pos.turn.letter(),
        pos.checks[0],
        pos.checks[1],
        pos.pools[0],
        pos.pools[1],
        pos.halfmove,
        pos.fullmove
    )
}
