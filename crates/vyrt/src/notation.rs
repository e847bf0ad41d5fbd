//! Moves as text (§9): the canonical machine form, the human form and every accepted input.

use crate::position::*;
use menagerie_core::{MoveError, Position};

/// `E2-E4`, `E7-E8=Q`, `O-O`, `O-O-O`.
pub(crate) fn canonical(mv: VyrtMove) -> String {
    if mv.is_castling() {
        return if mv.t() % 12 > mv.f() % 12 {
            "O-O"
        } else {
            "O-O-O"
        }
        .into();
    }
    let mut s = format!("{}-{}", square_name(mv.f()), square_name(mv.t()));
    if let Some(p) = mv.promotion() {
        s.push('=');
        s.push(p);
    }
    s
}

/// The author's form: `E2-E4`, `D5xE6 e.p.`, `E7xD8=Q+`, `O-O#`.
pub(crate) fn human(pos: &VyrtPosition, mv: VyrtMove) -> String {
    let mut s = if mv.is_castling() {
        canonical(mv)
    } else {
        let capture = pos.board[mv.t()] != 0 || mv.is_en_passant();
        let mut s = format!(
            "{}{}{}",
            square_name(mv.f()),
            if capture { 'x' } else { '-' },
            square_name(mv.t())
        );
        if let Some(p) = mv.promotion() {
            s.push('=');
            s.push(p);
        }
        if mv.is_en_passant() {
            s.push_str(" e.p.");
        }
        s
    };
    let mut next = pos.clone();
    next.make(mv);
    if next.in_check() {
        s.push(if next.generate::<true>(&mut Vec::new()) == 0 {
            '#'
        } else {
            '+'
        });
    }
    s
}

/// The forms a Vyrt move is read in.
const EXPECTED: &str = "write two squares like E2-E4, E2E4 or D5xE6, a promotion like E7-E8=Q, \
                        or castling as O-O or O-O-O";

/// Text that is no move of Vyrt: `detail` says what was wrong, then the forms it reads.
fn syntax(text: &str, detail: &str) -> MoveError {
    MoveError::not_a_move("vyrt", text, format!("{detail}; {EXPECTED}"))
}

fn illegal(text: &str, reason: impl Into<String>) -> MoveError {
    MoveError::Illegal {
        text: text.to_string(),
        reason: reason.into(),
    }
}

/// Drops a trailing `+`, `#` or `e.p.` (in any order, with or without a space).
fn strip_marks(mut s: &str) -> &str {
    loop {
        let before = s.len();
        s = s.trim_end_matches(['+', '#']).trim_end();
        if let Some(tail) = s.get(s.len().saturating_sub(4)..) {
            if tail.eq_ignore_ascii_case("e.p.") {
                s = s[..s.len() - 4].trim_end();
            }
        }
        if s.len() == before {
            return s;
        }
    }
}

/// Reads any accepted form of a move and returns the legal move it names.
pub(crate) fn parse(pos: &VyrtPosition, text: &str) -> Result<VyrtMove, MoveError> {
    let original = text.trim();
    // The position's own outcome ends the game, dead positions included (§7.3).
    if let Some(outcome) = pos.outcome() {
        return Err(MoveError::GameOver(outcome.to_string()));
    }
    let mut legal = Vec::new();
    pos.legal_moves(&mut legal);
    let s = strip_marks(original);
    let castle = match s.to_ascii_uppercase().replace('0', "O").as_str() {
        "O-O" => Some(true),
        "O-O-O" => Some(false),
        _ => None,
    };
    if let Some(short) = castle {
        return castling(pos, &legal, short, original);
    }
    let g = crate::geometry();
    let Some((from, used)) = g.parse_square_prefix(s) else {
        return Err(syntax(
            original,
            "it does not start with a square such as E2 or K11",
        ));
    };
    let mut rest = &s[used..];
    if let Some(r) = rest.strip_prefix(['-', 'x', 'X']) {
        rest = r;
    }
    let Some((to, used)) = g.parse_square_prefix(rest) else {
        return Err(syntax(
            original,
            "the second square is missing or unreadable",
        ));
    };
    rest = &rest[used..];
    if let Some(r) = rest.strip_prefix('=') {
        rest = r;
    }
    let promo = match rest.to_ascii_uppercase().as_str() {
        "" => 0,
        "Q" => QUEEN,
        "R" => ROOK,
        "B" => BISHOP,
        "N" => KNIGHT_K,
        _ => {
            return Err(syntax(
                original,
                &format!("'{rest}' after the squares is not a promotion piece (Q, R, B or N)"),
            ))
        }
    };
    let (from, to) = (from.index(), to.index());
    let same_squares: Vec<VyrtMove> = legal
        .iter()
        .copied()
        .filter(|m| m.f() == from && m.t() == to)
        .collect();
    if let Some(&m) = same_squares.iter().find(|m| m.promo() == promo) {
        return Ok(m);
    }
    if !same_squares.is_empty() {
        return Err(illegal(
            original,
            if promo == 0 {
                "a pawn reaching that rank must promote: add =Q, =R, =B or =N".to_string()
            } else {
                format!(
                    "{}-{} is not a promotion",
                    square_name(from),
                    square_name(to)
                )
            },
        ));
    }
    let code = pos.board[from];
    let side = pos.turn;
    if code == 0 {
        return Err(illegal(
            original,
            format!("there is no unit on {}", square_name(from)),
        ));
    }
    if (code >> 3) as usize != side.index() {
        return Err(illegal(
            original,
            format!("the unit on {} is not {side}'s", square_name(from)),
        ));
    }
    // The King's two-square move on its home rank is castling.
    let home = from == if side.index() == 0 { E1 } else { E8 };
    if code & 7 == KING_K && home && to / 12 == from / 12 && matches!(to % 12, 4 | 8) {
        return castling(pos, &legal, to % 12 == 8, original);
    }
    let mut pseudo = Vec::new();
    pos.pseudo_moves(&mut pseudo);
    let unit = match code & 7 {
        PAWN => "pawn",
        KNIGHT_K => "Knight",
        BISHOP => "Bishop",
        ROOK => "Rook",
        QUEEN => "Queen",
        _ => "King",
    };
    let reason = if !pseudo.iter().any(|m| m.f() == from && m.t() == to) {
        format!(
            "a {unit} on {} cannot go to {}",
            square_name(from),
            square_name(to)
        )
    } else if pos.in_check() {
        format!("{side}'s King is in check and this move does not end the check")
    } else if code & 7 == KING_K {
        format!(
            "the King may not move onto a square {} attacks",
            side.other()
        )
    } else {
        format!("it would leave {side}'s King in check (the {unit} is pinned)")
    };
    Err(illegal(original, reason))
}

/// The castling move asked for, or the rule of §6.1 that forbids it.
fn castling(
    pos: &VyrtPosition,
    legal: &[VyrtMove],
    short: bool,
    text: &str,
) -> Result<VyrtMove, MoveError> {
    if let Some(&m) = legal
        .iter()
        .find(|m| m.is_castling() && (m.t() % 12 > m.f() % 12) == short)
    {
        return Ok(m);
    }
    let reason = pos
        .castling_refusal(short)
        .unwrap_or("castling is not possible now");
    Err(illegal(
        text,
        format!("{} may not castle: {reason}", pos.turn),
    ))
}
