//! Move text: the canonical machine form (13.1) and the inventor's notation (13.2).

use crate::board::Kind;
use crate::moves::{CypherMove, TurnKind, NONE};
use crate::position::CypherPosition;
use crate::tables::{geometry, WIDTH};
use menagerie_core::{MoveError, Square, Termination};

/// The name of square index `sq` (`z0`, `d10`).
pub(crate) fn square_name(sq: usize) -> String {
    geometry().square_name(Square(sq as u16))
}

/// The canonical form: `d3-d5`, `d0-d4/b3-z3`, `e4-e5*a1-d10`, `f8-f9(a6)`, `P@b5`.
pub(crate) fn canonical(mv: CypherMove) -> String {
    let s = |q: u8| square_name(q as usize);
    match mv.kind {
        TurnKind::Normal => format!("{}-{}", s(mv.from), s(mv.to)),
        TurnKind::Combined => format!(
            "{}-{}/{}-{}",
            s(mv.from),
            s(mv.to),
            s(mv.extra_from),
            s(mv.extra_to)
        ),
        TurnKind::Infiltration => format!(
            "{}-{}*{}-{}",
            s(mv.from),
            s(mv.to),
            s(mv.extra_from),
            s(mv.extra_to)
        ),
        TurnKind::Coup if mv.extra_from != NONE => {
            format!("{}-{}({})", s(mv.from), s(mv.to), s(mv.extra_from))
        }
        TurnKind::Coup => format!("{}-{}", s(mv.from), s(mv.to)),
        TurnKind::Release => format!("P@{}", s(mv.to)),
    }
}

/// Ordinary algebraic disambiguation of a man on `from` among `rivals` (other squares from
/// which a man of the same kind makes the same move).
fn disambiguation(from: usize, rivals: &[usize]) -> String {
    if rivals.is_empty() {
        return String::new();
    }
    let g = geometry();
    let (file, rank) = (from % WIDTH, from / WIDTH);
    if rivals.iter().all(|&r| r % WIDTH != file) {
        g.file_name(file as u8).to_string()
    } else if rivals.iter().all(|&r| r / WIDTH != rank) {
        g.rank_name(rank as u8).to_string()
    } else {
        square_name(from)
    }
}

/// The mark of a turn that ends the game by a flip. The inventor writes `++`, which a chess
/// player reads as double check; Menagerie writes `(flip)` and reads both.
pub const FLIP_MARK: &str = "(flip)";

/// The inventor's notation of `mv` (13.2), with its ending or check mark: `(flip)` for a
/// flip (the inventor's `++`), `//` for the 4-check rule, `#` and `#+` for mates, `+`.
pub(crate) fn human(pos: &CypherPosition, mv: CypherMove, legal: &[CypherMove]) -> String {
    let mut text = human_body(pos, mv, legal);
    let next = pos.after(mv);
    match next.decide() {
        Some(o) => match &o.termination {
            Termination::Rule { code, .. } if code == "flip" => text.push_str(FLIP_MARK),
            Termination::Rule { code, .. } if code == "four-checks" => text.push_str("//"),
            Termination::Rule { code, .. } if code == "checkmate-without-collusion" => {
                text.push_str("#+")
            }
            Termination::Rule { .. } => text.push('#'),
            _ => {}
        },
        None if next.board.in_check(next.turn, true) => text.push('+'),
        None => {}
    }
    text
}

/// The inventor's notation of `mv` without its ending or check mark.
fn human_body(pos: &CypherPosition, mv: CypherMove, legal: &[CypherMove]) -> String {
    let (from, to) = (mv.from as usize, mv.to as usize);
    let mut text = if mv.kind == TurnKind::Release {
        format!("PR{}", square_name(to))
    } else {
        let kind = pos.man_at(from).map_or(Kind::Pawn, |(_, k)| k);
        let capture = pos.man_at(to).is_some();
        if kind == Kind::Pawn {
            if capture {
                format!(
                    "{}x{}",
                    geometry().file_name((from % WIDTH) as u8),
                    square_name(to)
                )
            } else {
                square_name(to)
            }
        } else {
            let mut rivals: Vec<usize> = legal
                .iter()
                .filter(|m| {
                    m.kind != TurnKind::Release
                        && m.to == mv.to
                        && m.from != mv.from
                        && pos.man_at(m.from as usize).map(|(_, k)| k) == Some(kind)
                })
                .map(|m| m.from as usize)
                .collect();
            rivals.dedup();
            format!(
                "{}{}{}{}",
                kind.letter(),
                disambiguation(from, &rivals),
                if capture { "x" } else { "" },
                square_name(to)
            )
        }
    };
    let second_kind = |sq: u8| pos.man_at(sq as usize).map_or(Kind::Pawn, |(_, k)| k);
    match mv.kind {
        TurnKind::Combined | TurnKind::Infiltration => {
            let kind = second_kind(mv.extra_from);
            let mut rivals: Vec<usize> = legal
                .iter()
                .filter(|m| {
                    m.kind == mv.kind
                        && m.from == mv.from
                        && m.to == mv.to
                        && m.extra_to == mv.extra_to
                        && m.extra_from != mv.extra_from
                        && second_kind(m.extra_from) == kind
                })
                .map(|m| m.extra_from as usize)
                .collect();
            rivals.dedup();
            text.push_str(if mv.kind == TurnKind::Combined {
                "/"
            } else {
                "**"
            });
            text.push(kind.letter());
            text.push_str(&disambiguation(mv.extra_from as usize, &rivals));
            text.push_str(&square_name(mv.extra_to as usize));
        }
        TurnKind::Coup if mv.extra_from != NONE => {
            text.push_str(&format!(
                "({}{})",
                second_kind(mv.extra_from).letter(),
                square_name(mv.extra_from as usize)
            ));
        }
        _ => {}
    }
    text
}

/// A move's text without its ending or check marks (`(flip)`, `++`, `//`, `#+`, `#`, `+`).
pub(crate) fn strip_marks(text: &str) -> &str {
    let t = text.trim();
    let t = match t.len().checked_sub(FLIP_MARK.len()) {
        Some(i) if t.is_char_boundary(i) && t[i..].eq_ignore_ascii_case(FLIP_MARK) => &t[..i],
        _ => t,
    };
    t.trim_end().trim_end_matches(['+', '#', '/', '!', '?'])
}

/// The forms a Cypher move is read in, for text that is none of them.
const EXPECTED: &str = "write a move as d3-d5, d0-d4/b3-z3, e4-e5*a1-d10, f8-f9(a6), P@b5, or as Nh2, Sd4/Qz3, Kb5**Rd10, e9(Qz6), PRb5";

/// Reads a move in the canonical form (any case) or the inventor's notation.
pub(crate) fn parse(pos: &CypherPosition, text: &str) -> Result<CypherMove, MoveError> {
    let trimmed = text.trim();
    if let Some(o) = pos.decide() {
        return Err(MoveError::GameOver(o.to_string()));
    }
    let mut legal = Vec::new();
    pos.generate(true, &mut legal);
    if let Some(&m) = legal
        .iter()
        .find(|&&m| canonical(m).eq_ignore_ascii_case(trimmed))
    {
        return Ok(m);
    }
    let wanted = strip_marks(trimmed);
    // The marks are ignored, so the texts are compared without them (no turn is played).
    let humans: Vec<(CypherMove, String)> = legal
        .iter()
        .map(|&m| (m, human_body(pos, m, &legal)))
        .collect();
    let pick = |same: &dyn Fn(&str) -> bool| -> Vec<CypherMove> {
        humans
            .iter()
            .filter(|(_, h)| same(h))
            .map(|(m, _)| *m)
            .collect()
    };
    let no_x = |s: &str| s.replace(['x', 'X'], "");
    // A capture mark may be left out, but a text that says capture never reads as a quiet turn.
    let says_capture = wanted.contains('x');
    let mut found = pick(&|h| h == wanted);
    if found.is_empty() {
        found = pick(&|h| no_x(h) == no_x(wanted) && (!says_capture || h.contains('x')));
    }
    if found.is_empty() {
        found = pick(&|h| h.eq_ignore_ascii_case(wanted));
    }
    if found.is_empty() {
        // Without its disambiguation the text may fit several turns: say which.
        found = legal
            .iter()
            .copied()
            .filter(|&m| {
                let h = human_body(pos, m, &[]);
                no_x(&h) == no_x(wanted) && (!says_capture || h.contains('x'))
            })
            .collect();
    }
    match found.as_slice() {
        [m] => Ok(*m),
        [] => Err(match crate::explain::explain(pos, trimmed) {
            Some(reason) => MoveError::Illegal {
                text: trimmed.to_string(),
                reason,
            },
            None => MoveError::not_a_move("cypher", trimmed, EXPECTED),
        }),
        many => Err(MoveError::Ambiguous {
            text: trimmed.to_string(),
            candidates: many
                .iter()
                .map(|&m| canonical(m))
                .collect::<Vec<_>>()
                .join(", "),
        }),
    }
}
