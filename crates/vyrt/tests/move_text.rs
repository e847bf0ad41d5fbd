//! Move text: every legal turn's canonical and human text reads back to the same turn under
//! every rule option; text that is no move says what Vyrt reads; no move after the end.

use menagerie_core::zobrist::KeyGen;
use menagerie_core::{MoveError, Position};
use menagerie_vyrt::{Rules, VyrtPosition};

fn every_rules() -> Vec<Rules> {
    let mut all = Vec::new();
    for double_step_any_unmoved in [false, true] {
        for reversed_back_pawns in [false, true] {
            all.push(Rules {
                double_step_any_unmoved,
                reversed_back_pawns,
            });
        }
    }
    all
}

#[test]
fn every_legal_turn_reads_back_from_its_texts() {
    let mut rng = KeyGen::new(15);
    let mut checked = 0;
    for rules in every_rules() {
        for _ in 0..4 {
            let mut pos = VyrtPosition::start(rules);
            for _ in 0..150 {
                if pos.outcome().is_some() {
                    break;
                }
                let mut moves = Vec::new();
                pos.legal_moves(&mut moves);
                for &m in &moves {
                    for text in [pos.move_text(m), pos.move_human(m)] {
                        assert_eq!(pos.parse_move(&text), Ok(m), "{text} in {}", pos.fen());
                        checked += 1;
                    }
                }
                pos.play(moves[(rng.next() % moves.len() as u64) as usize]);
            }
        }
    }
    assert!(checked > 20_000, "{checked}");
}

#[test]
fn no_move_is_read_after_the_positions_own_outcome() {
    // King against King: a dead position, though both Kings can still step.
    let pos = VyrtPosition::from_fen(
        "12/12/12/12/5k6/12/12/5K6/12/12/12/12 w - - - 0 1",
        Rules::default(),
    )
    .unwrap();
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    assert!(!moves.is_empty());
    assert!(pos.outcome().is_some());
    let text = pos.move_text(moves[0]);
    assert!(
        matches!(pos.parse_move(&text), Err(MoveError::GameOver(_))),
        "{text}"
    );
}

#[test]
fn text_that_is_no_vyrt_move_says_what_is_expected() {
    let pos = VyrtPosition::start(Rules::default());
    for text in ["hello", "E2-E4-E5", "E2E4X", "Nf3", "appoint:E2"] {
        let e = pos.parse_move(text).unwrap_err();
        assert!(matches!(e, MoveError::Syntax { .. }), "{text}: {e:?}");
        let sentence = e.to_string();
        assert!(
            sentence.starts_with(&format!("'{text}' is not a move of vyrt: ")),
            "{sentence}"
        );
    }
}

#[test]
fn move_counters_saturate_and_the_string_reads_back() {
    let max = u32::MAX;
    let fen = format!("12/12/12/12/5k6/12/3R8/5K6/12/12/12/12 b - - - {max} {max}");
    let mut pos = VyrtPosition::from_fen(&fen, Rules::default()).unwrap();
    for _ in 0..3 {
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        let quiet = moves
            .iter()
            .copied()
            .find(|&m| pos.piece_char(m.to()).is_none())
            .unwrap();
        pos.play(quiet);
        let fen = pos.fen();
        assert!(fen.ends_with(&format!(" {max} {max}")), "{fen}");
        assert_eq!(
            VyrtPosition::from_fen(&fen, Rules::default())
                .unwrap()
                .fen(),
            fen
        );
    }
}
