//! Perft against the published figures.

use menagerie_chess::Chess;
use menagerie_core::perft::{parse_suite, perft_generic};
use menagerie_core::Position;

fn run_suite(text: &str) {
    let cases = parse_suite(text).expect("suite parses");
    assert!(!cases.is_empty());
    for case in cases {
        let pos = Chess::from_fen(&case.fen).expect("suite position parses");
        for &(depth, leaves) in &case.depths {
            assert_eq!(pos.perft(depth), leaves, "{} depth {depth}", case.id);
        }
    }
}

#[test]
fn published_perft_figures() {
    run_suite(include_str!("chess.perft"));
}

/// The deep published figures (about 580 million leaves): under two seconds with bulk
/// counting in the optimised test profile, so they run with every test.
#[test]
fn published_perft_figures_deep() {
    run_suite(include_str!("chess-deep.perft"));
}

/// The bulk-counting generator agrees with the plain trait walk (which plays every move).
#[test]
fn bulk_counting_agrees_with_playing_every_move() {
    for case in parse_suite(include_str!("chess.perft")).unwrap() {
        let pos = Chess::from_fen(&case.fen).unwrap();
        assert_eq!(perft_generic(&pos, 3), pos.perft(3), "{}", case.id);
    }
}

/// Every position reached in a few plies writes a FEN that reads back to the same position.
#[test]
fn fen_round_trips_through_the_tree() {
    fn walk(pos: &Chess, depth: u32, seen: &mut u64) {
        let fen = pos.fen();
        let back = Chess::from_fen(&fen).expect("own FEN reads back");
        assert_eq!(back.fen(), fen);
        assert_eq!(back.key(), pos.key(), "key after {fen}");
        *seen += 1;
        if depth == 0 {
            return;
        }
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        for m in moves {
            let mut next = pos.clone();
            next.play(m);
            walk(&next, depth - 1, seen);
        }
    }
    for case in parse_suite(include_str!("chess.perft")).unwrap() {
        let mut seen = 0;
        walk(&Chess::from_fen(&case.fen).unwrap(), 2, &mut seen);
        assert!(seen > 10);
    }
}
