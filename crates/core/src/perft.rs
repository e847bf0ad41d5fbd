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
