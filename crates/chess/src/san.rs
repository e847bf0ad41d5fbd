//! Standard algebraic notation (SAN) and reading moves in UCI or SAN.

use crate::attacks::geometry;
use crate::board::{Chess, Move, MoveKind, Role};
use menagerie_core::{MoveError, Position, Square};

/// The SAN of a legal move, with `+` or `#`.
pub(crate) fn to_san(pos: &Chess, mv: Move) -> String {
    let mut s = san_without_suffix(pos, mv);
    let mut next = pos.clone();
    next.make(mv);
    if next.in_check() {
        s.push(if next.count_moves() == 0 { '#' } else { '+' });
    }
    s
}

fn san_without_suffix(pos: &Chess, mv: Move) -> String {
    let g = geometry();
    let name = |s: u8| g.square_name(Square(s as u16));
    if mv.kind == MoveKind::Castle {
        return if mv.to > mv.from { "O-O" } else { "O-O-O" }.into();
    }
    let Some((_, role)) = pos.piece_at(mv.from) else {
        return pos.move_text(mv);
    };
    let capture = pos.piece_at(mv.to).is_some() || mv.kind == MoveKind::EnPassant;
    let mut s = String::new();
    if role == Role::Pawn {
        if capture {
            s.push_str(g.file_name(mv.from % 8));
            s.push('x');
        }
        s.push_str(&name(mv.to));
        if let Some(p) = mv.promotion {
            s.push('=');
            s.push(p.letter());
        }
        return s;
    }
    s.push(role.letter());
    let rivals: Vec<Move> = pos
        .moves()
        .into_iter()
        .filter(|m| {
            m.to == mv.to
                && m.from != mv.from
                && m.kind != MoveKind::Castle
                && pos.piece_at(m.from).map(|(_, r)| r) == Some(role)
        })
        .collect();
    if !rivals.is_empty() {
        let same_file = rivals.iter().any(|m| m.from % 8 == mv.from % 8);
        let same_rank = rivals.iter().any(|m| m.from / 8 == mv.from / 8);
        if !same_file {
            s.push_str(g.file_name(mv.from % 8));
        } else if !same_rank {
            s.push_str(g.rank_name(mv.from / 8));
        } else {
            s.push_str(&name(mv.from));
        }
    }
    if capture {
        s.push('x');
    }
    s.push_str(&name(mv.to));
    s
}

/// Reads a move in UCI (`e2e4`, `e7e8q`) or SAN (`Nf3`, `exd5`, `O-O`, `e8=Q+`).
pub(crate) fn parse(pos: &Chess, text: &str) -> Result<Move, MoveError> {
    let raw = text.trim();
    if let Some(o) = pos.outcome() {
        return Err(MoveError::GameOver(o.to_string()));
    }
    let moves = pos.moves();
    let lower = raw.to_ascii_lowercase();
    // Canonical text as written first; a capital letter makes it SAN (`B1d2` is the Bishop
    // from c1, not b1d2), and only then is canonical text read in any case.
    if let Some(m) = moves.iter().find(|&&m| pos.move_text(m) == raw) {
        return Ok(*m);
    }
    let cleaned: String = menagerie_core::position::strip_marks(raw)
        .replace("e.p.", "")
        .replace('0', "O")
        .trim()
        .to_string();
    let loose = |s: &str| s.replace('=', "");
    let found: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|&m| {
            let san = san_without_suffix(pos, m);
            san == cleaned || loose(&san) == loose(&cleaned)
        })
        .collect();
    match found.as_slice() {
        [m] => return Ok(*m),
        [] => {
            if let Some(m) = moves.iter().find(|&&m| pos.move_text(m) == lower) {
                return Ok(*m);
            }
        }
        many => {
            return Err(MoveError::Ambiguous {
                text: raw.to_string(),
                candidates: many
                    .iter()
                    .map(|&m| pos.move_text(m))
                    .collect::<Vec<_>>()
                    .join(", "),
            })
        }
    }
    // Not a legal move: say why, if it names two squares.
    let g = geometry();
    if let Some((from, used)) = g.parse_square_prefix(&lower) {
        if let Some((to, _)) = g.parse_square_prefix(&lower[used..]) {
            return Err(MoveError::Illegal {
                text: raw.to_string(),
                reason: pos.explain_illegal(from.0 as u8, to.0 as u8),
            });
        }
    }
    let looks_like_move = (cleaned.starts_with("O-O")
        || cleaned.chars().any(|c| c.is_ascii_digit()))
        && cleaned
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "x=-".contains(c));
    if looks_like_move {
        Err(MoveError::Illegal {
            text: raw.to_string(),
            reason: "no legal move matches it".into(),
        })
    } else {
        Err(MoveError::Syntax {
            text: raw.to_string(),
            reason: "write UCI like e2e4 or SAN like Nf3".into(),
        })
    }
}
