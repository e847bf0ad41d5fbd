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

/// The forms a chess move is read in, for text that is none of them.
const EXPECTED: &str = "write UCI like e2e4 or e7e8q, or SAN like Nf3, exd5, O-O or e8=Q";

/// Reads a move in UCI (`e2e4`, `e7e8q`) or SAN (`Nf3`, `exd5`, `O-O`, `e8=Q+`).
///
/// UCI as written comes first, then SAN, then UCI in any case: `B1d2` is the SAN of a
/// bishop's move even where `b1d2` is a knight's.
pub(crate) fn parse(pos: &Chess, text: &str) -> Result<Move, MoveError> {
    let raw = text.trim();
    if let Some(o) = pos.outcome() {
        return Err(MoveError::GameOver(o.to_string()));
    }
    let moves = pos.moves();
    if let Some(m) = moves.iter().find(|&&m| pos.move_text(m) == raw) {
        return Ok(*m);
    }
    let cleaned = clean(raw);
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
        [] => {}
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
    let lower = raw.to_ascii_lowercase();
    if let Some(m) = moves.iter().find(|&&m| pos.move_text(m) == lower) {
        return Ok(*m);
    }
    Err(why_not(pos, raw, &cleaned))
}

/// The text without check marks and `e.p.`, with `0-0` read as `O-O`.
fn clean(raw: &str) -> String {
    menagerie_core::position::strip_marks(raw)
        .replace("e.p.", "")
        .replace('0', "O")
        .trim()
        .to_string()
}

/// A move written in UCI: two squares and an optional promotion letter (any letter of a
/// piece, so that `e7e8k` is read and refused by the rules).
fn read_uci(text: &str) -> Option<(u8, u8, Option<char>)> {
    let g = geometry();
    let text = menagerie_core::position::strip_marks(text);
    let (from, used) = g.parse_square_prefix(text)?;
    let rest = &text[used..];
    let (to, used) = g.parse_square_prefix(rest)?;
    let promotion = match &rest[used..] {
        "" => None,
        p if p.len() == 1 && "qrbnkp".contains(p) => p.chars().next(),
        _ => return None,
    };
    Some((from.0 as u8, to.0 as u8, promotion))
}

/// A move written in SAN, read without the position: the piece, the departure file and
/// rank given, the destination and the promotion letter.
struct San {
    role: Role,
    file: Option<u8>,
    rank: Option<u8>,
    capture: bool,
    to: u8,
    promotion: Option<char>,
}

fn read_san(text: &str) -> Option<San> {
    let g = geometry();
    let mut rest = text;
    let role = match rest.chars().next()? {
        c @ ('N' | 'B' | 'R' | 'Q' | 'K') => {
            rest = &rest[1..];
            Role::from_letter(c)?
        }
        _ => Role::Pawn,
    };
    // The destination is the last square name before an optional promotion.
    let (body, promotion) = match rest.char_indices().last()? {
        (i, c) if c.is_ascii_uppercase() && role == Role::Pawn => {
            (rest[..i].strip_suffix('=').unwrap_or(&rest[..i]), Some(c))
        }
        _ => (rest, None),
    };
    if body.len() < 2 {
        return None;
    }
    let to = g.parse_square(&body[body.len() - 2..]).ok()?;
    let mut hint = &body[..body.len() - 2];
    let capture = hint.ends_with('x');
    if capture {
        hint = &hint[..hint.len() - 1];
    }
    let mut file = None;
    let mut rank = None;
    let mut h = hint.bytes();
    if let Some(b) = h.clone().next().filter(|b| (b'a'..=b'h').contains(b)) {
        file = Some(b - b'a');
        h.next();
    }
    if let Some(b) = h.clone().next().filter(|b| (b'1'..=b'8').contains(b)) {
        rank = Some(b - b'1');
        h.next();
    }
    if h.next().is_some() || role == Role::Pawn && (rank.is_some() || capture != file.is_some()) {
        return None;
    }
    Some(San {
        role,
        file,
        rank,
        capture,
        to: to.0 as u8,
        promotion,
    })
}

/// Why a text that matches no legal move cannot be played: the rule a move it names breaks,
/// or, when it names no move, the forms chess reads.
fn why_not(pos: &Chess, raw: &str, cleaned: &str) -> MoveError {
    let illegal = |reason: String| MoveError::Illegal {
        text: raw.to_string(),
        reason,
    };
    if cleaned == "O-O" || cleaned == "O-O-O" {
        return illegal(pos.castling_refusal(cleaned == "O-O"));
    }
    if let Some((from, to, promotion)) = read_uci(&raw.to_ascii_lowercase()) {
        return illegal(pos.explain(from, to, promotion));
    }
    let Some(san) = read_san(cleaned) else {
        return MoveError::not_a_move("chess", raw, EXPECTED);
    };
    let side = pos.side();
    let mut from: Vec<u8> = (0..64u8)
        .filter(|&s| pos.piece_at(s) == Some((side, san.role)))
        .filter(|&s| san.file.is_none_or(|f| s % 8 == f))
        .filter(|&s| san.rank.is_none_or(|r| s / 8 == r))
        .collect();
    if san.role == Role::Pawn && !san.capture {
        from.retain(|&s| s % 8 == san.to % 8);
        // The pawn nearest behind the destination is the one the text means.
        let behind = |s: &u8| match side {
            menagerie_core::Color::White => s < &san.to,
            menagerie_core::Color::Black => s > &san.to,
        };
        from.retain(behind);
        if side == menagerie_core::Color::White {
            from.reverse();
        }
        from.truncate(1);
    }
    let reasons: Vec<String> = from
        .iter()
        .map(|&f| pos.explain(f, san.to, san.promotion))
        .collect();
    let reaches = |r: &String| !r.contains("cannot reach");
    match reasons.iter().find(|r| reaches(r)) {
        Some(r) => illegal(r.clone()),
        None if reasons.len() == 1 => illegal(reasons[0].clone()),
        None if reasons.is_empty() && san.file.is_none() && san.rank.is_none() => {
            illegal(match san.role {
                Role::Pawn => format!(
                    "no pawn of {side} can reach {}",
                    geometry().square_name(Square(san.to as u16))
                ),
                r => format!("{side} has no {}", r.name()),
            })
        }
        None => illegal(format!(
            "no {} of {side} can reach {}",
            san.role.name(),
            geometry().square_name(Square(san.to as u16))
        )),
    }
}
