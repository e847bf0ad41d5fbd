//! Move text: every legal turn's canonical and human text reads back to the same turn, and
//! text that cannot be played gets the right reason (issue 14 item 5, issue 15).

use menagerie_chess::Chess;
use menagerie_core::zobrist::KeyGen;
use menagerie_core::{MoveError, Position};

fn error(pos: &Chess, text: &str) -> MoveError {
    match pos.parse_move(text) {
        Ok(m) => panic!("{text} was read as {m:?}"),
        Err(e) => e,
    }
}

fn reason(pos: &Chess, text: &str) -> String {
    match error(pos, text) {
        MoveError::Illegal { reason, .. } => reason,
        other => panic!("{text}: {other:?}"),
    }
}

#[test]
fn text_that_is_no_chess_move_says_what_is_expected() {
    let pos = Chess::start();
    for text in ["e2e4x", "e2e4e5", "hello!", "Zf3", "e2-e4-e5", "Nf3g"] {
        let e = error(&pos, text);
        assert!(matches!(e, MoveError::Syntax { .. }), "{text}: {e:?}");
        let sentence = e.to_string();
        assert!(
            sentence.starts_with(&format!("'{text}' is not a move of chess: ")),
            "{sentence}"
        );
        assert!(
            sentence.contains("e2e4") && sentence.contains("Nf3"),
            "{sentence}"
        );
    }
}

#[test]
fn a_real_move_that_breaks_a_rule_gets_that_rule() {
    let pos = Chess::start();
    assert_eq!(
        reason(&pos, "e2e4q"),
        "only a pawn reaching the last rank promotes, and e2e4 is not such a move"
    );
    assert_eq!(reason(&pos, "e4=Q"), reason(&pos, "e2e4q"));
    assert_eq!(reason(&pos, "e2e5"), "a pawn on e2 cannot reach e5");
    assert_eq!(reason(&pos, "e5"), "a pawn on e2 cannot reach e5");
    assert_eq!(reason(&pos, "Ngg3"), "a knight on g1 cannot reach g3");
    assert_eq!(reason(&pos, "Qd2"), "d2 is occupied by your own piece");
    assert_eq!(reason(&pos, "Nd4"), "no knight of White can reach d4");
    assert_eq!(reason(&pos, "O-O"), reason(&pos, "e1g1"));
    assert!(reason(&pos, "O-O").starts_with("castling is not allowed here"));
    let no_rook = Chess::from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1").unwrap();
    assert_eq!(reason(&no_rook, "Rd1"), "White has no rook");
    // In check: the King's step onto an attacked square explains the check, in either form.
    let check = Chess::from_fen("3rk3/8/8/8/1b6/8/8/4K3 w - - 0 1").unwrap();
    assert_eq!(reason(&check, "Kd2"), "the king would be in check on d2");
    assert_eq!(reason(&check, "e1d2"), "the king would be in check on d2");
    assert_eq!(reason(&check, "Kd1"), "the king would be in check on d1");
    let pinned = Chess::from_fen("4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1").unwrap();
    assert_eq!(reason(&pinned, "Nc3"), "it would leave your king in check");
    let promote = Chess::from_fen("7k/4P3/8/8/8/8/8/4K3 w - - 0 1").unwrap();
    assert_eq!(
        reason(&promote, "e7e8"),
        "a pawn reaching the last rank must promote: add q, r, b or n"
    );
    assert_eq!(
        reason(&promote, "e7e8k"),
        "a pawn promotes to a queen, rook, bishop or knight"
    );
}

#[test]
fn san_naming_a_rank_is_not_read_as_uci() {
    // Issue 15: `B1d2` is the bishop from c1 (the knight on b1 also reaches d2).
    let pos = Chess::from_fen("4k3/8/8/8/8/2B5/8/1NB1K3 w - - 0 1").unwrap();
    let bishop = pos.parse_move("c1d2").unwrap();
    assert_eq!(pos.move_human(bishop), "B1d2");
    assert_eq!(pos.parse_move("B1d2"), Ok(bishop));
    let knight = pos.parse_move("b1d2").unwrap();
    assert_eq!(pos.move_human(knight), "Nd2");
    assert_ne!(bishop, knight);
    // Upper-case UCI still reads.
    assert_eq!(pos.parse_move("B1D2"), Ok(knight));
}

#[test]
fn every_legal_turn_reads_back_from_its_texts() {
    let mut rng = KeyGen::new(15);
    let mut checked = 0;
    for _ in 0..25 {
        let mut pos = Chess::start();
        for _ in 0..120 {
            let mut moves = Vec::new();
            pos.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            for &m in &moves {
                for text in [pos.move_text(m), pos.move_human(m)] {
                    assert_eq!(pos.parse_move(&text), Ok(m), "{text} in {}", pos.fen());
                    checked += 1;
                }
            }
            pos.play(moves[(rng.next() % moves.len() as u64) as usize]);
        }
    }
    assert!(checked > 5_000, "{checked}");
}

#[test]
fn move_counters_saturate_and_the_string_reads_back() {
    let max = u32::MAX;
    let mut pos = Chess::from_fen(&format!("4k3/8/8/8/8/8/8/R3K3 b - - {max} {max}")).unwrap();
    for text in ["e8d7", "a1a2", "d7e8"] {
        let mv = pos.parse_move(text).unwrap();
        pos.play(mv);
        let fen = pos.fen();
        assert!(fen.ends_with(&format!(" {max} {max}")), "{fen}");
        assert_eq!(Chess::from_fen(&fen).unwrap().fen(), fen);
    }
    assert!(Chess::from_fen("4k3/8/8/8/8/8/8/R3K3 b - - 4294967296 1").is_err());
}
