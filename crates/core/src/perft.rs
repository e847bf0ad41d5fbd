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
    // perft(0) is the position itself: there is nothing to split.
    if depth == 0 {
        return Vec::new();
    }
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let mut rows: Vec<(String, u64)> = moves
        .into_iter()
        .map(|mv| {
            let mut next = pos.clone();
            next.play(mv);
            (pos.move_text(mv), next.perft(depth - 1))
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

/// [`divide`] with the root moves shared among `threads` threads (each subtree is counted
/// by one thread, so the counts are the same as [`divide`]'s).
pub fn divide_parallel<P: Position>(pos: &P, depth: u32, threads: usize) -> Vec<(String, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let threads = threads.clamp(1, moves.len().max(1));
    if threads == 1 {
        return divide(pos, depth);
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut rows: Vec<(String, u64)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut out = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(&mv) = moves.get(i) else { break };
                        let mut child = pos.clone();
                        child.play(mv);
                        out.push((pos.move_text(mv), child.perft(depth - 1)));
                    }
                    out
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap_or_default())
            .collect()
    });
    rows.sort();
    rows
}
