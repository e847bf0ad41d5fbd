//! Perft: counting the leaves of the legal-move tree, the standard test of move generators.

use crate::position::Position;

/// `perft(0) = 1`; otherwise the sum over legal moves of perft one ply less. Counts the last
/// ply from the move list without playing it (bulk counting), as every engine does.
pub fn perft_generic<P: Position>(pos: &P, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut buffers: Vec<Vec<P::Move>> = (0..depth).map(|_| Vec::with_capacity(64)).collect();
    walk(pos, depth, &mut buffers)
}

fn walk<P: Position>(pos: &P, depth: u32, buffers: &mut [Vec<P::Move>]) -> u64 {
    let (moves, rest) = match buffers.split_first_mut() {
        Some(x) => x,
        None => return 1,
    };
    moves.clear();
    pos.legal_moves(moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut total = 0;
    for &mv in moves.iter() {
        let mut next = pos.clone();
        next.play(mv);
        total += walk(&next, depth - 1, rest);
    }
    total
}

/// Perft split by root move: each legal move's canonical text with its count, sorted by
/// move text.
pub fn divide<P: Position>(pos: &P, depth: u32) -> Vec<(String, u64)> {
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let mut rows: Vec<(String, u64)> = moves
        .into_iter()
        .map(|mv| {
            let mut next = pos.clone();
            next.play(mv);
            let n = if depth == 0 { 1 } else { next.perft(depth - 1) };
            (pos.move_text(mv), n)
        })
        .collect();
    rows.sort();
    rows
}

/// One position of a perft suite with its expected counts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerftCase {
    /// The case's name.
    pub id: String,
    /// The position string.
    pub fen: String,
    /// `(depth, leaves)` pairs.
    pub depths: Vec<(u32, u64)>,
}

/// Reads a perft suite in the lichess `.perft` style: blocks of `id <name>`,
/// `epd <position string>` and `perft <depth> <leaves>` lines; `#` starts a comment.
pub fn parse_suite(text: &str) -> Result<Vec<PerftCase>, String> {
    let mut cases: Vec<PerftCase> = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
        match word {
            "id" => cases.push(PerftCase {
                id: rest.trim().to_string(),
                fen: String::new(),
                depths: Vec::new(),
            }),
            "epd" | "fen" => match cases.last_mut() {
                Some(c) => c.fen = rest.trim().to_string(),
                None => return Err(format!("line {}: position before any id", n + 1)),
            },
            "perft" => {
                let mut parts = rest.split_whitespace();
                let depth = parts.next().and_then(|d| d.parse().ok());
                let nodes = parts.next().and_then(|d| d.replace(',', "").parse().ok());
                match (cases.last_mut(), depth, nodes) {
                    (Some(c), Some(d), Some(l)) => c.depths.push((d, l)),
                    _ => return Err(format!("line {}: expected 'perft <depth> <leaves>'", n + 1)),
                }
            }
            other => return Err(format!("line {}: unknown keyword '{other}'", n + 1)),
        }
    }
    Ok(cases)
}
