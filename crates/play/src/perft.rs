//! Perft for front ends: a depth bound every front end shares, and a divide that can be
//! stopped between root moves (a protocol runs it off its command loop).

use menagerie_variants::AnyGame;
use std::sync::atomic::{AtomicBool, Ordering};

/// The deepest perft any front end runs.
pub const MAX_DEPTH: u32 = 20;

/// Checks a perft depth read from text: a whole number from 0 to [`MAX_DEPTH`].
pub fn parse_depth(text: &str) -> Result<u32, String> {
    let t = text.trim();
    if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("perft needs a depth, a whole number, not '{text}'"));
    }
    match t.parse::<u32>() {
        Ok(d) if d <= MAX_DEPTH => Ok(d),
        _ => Err(format!(
            "depth {t} is too deep; perft takes a depth from 0 to {MAX_DEPTH}"
        )),
    }
}

/// The leaves under each root move (sorted by canonical text), or `None` when `stop` was
/// raised first. Depth 0 has no root moves: its count, 1, is the position itself.
pub fn divide(game: &dyn AnyGame, depth: u32, stop: &AtomicBool) -> Option<Vec<(String, u64)>> {
    if depth == 0 {
        return Some(Vec::new());
    }
    let depth = depth.min(MAX_DEPTH);
    if game.outcome().is_some() || depth <= 2 {
        // A finished game refuses moves through the game; the rules still count them.
        return Some(game.divide(depth));
    }
    let mut rows = Vec::new();
    for mv in game.legal_moves() {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        let mut child = game.fork();
        if child.push(&mv).is_err() {
            return Some(game.divide(depth));
        }
        rows.push((mv, child.perft(depth - 1)));
    }
    rows.sort();
    Some(rows)
}

/// The total of a divide: 1 at depth 0.
pub fn total(depth: u32, rows: &[(String, u64)]) -> u64 {
    if depth == 0 {
        1
    } else {
        rows.iter().map(|(_, n)| n).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use menagerie_core::RuleOptions;

    #[test]
    fn stoppable_divide_counts_as_the_rules_do() {
        for v in menagerie_variants::registry() {
            let g = v.open(None, &RuleOptions::new()).expect("the start");
            let stop = AtomicBool::new(false);
            assert_eq!(divide(g.as_ref(), 3, &stop), Some(g.divide(3)), "{}", v.id);
            assert_eq!(total(0, &[]), 1);
            stop.store(true, Ordering::Relaxed);
            assert_eq!(divide(g.as_ref(), 3, &stop), None);
        }
        assert_eq!(parse_depth("0"), Ok(0));
        assert!(parse_depth("100000").is_err());
        assert!(parse_depth("4294967296").is_err());
    }
}
