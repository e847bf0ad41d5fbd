//! Move text: every legal turn's canonical and human text reads back to the same turn under
//! every rule option; text that is no move of Cypher says what Cypher reads; a turn that
//! ends the game by a flip says so; counters saturate and the string reads back.

use menagerie_core::zobrist::KeyGen;
use menagerie_core::{MoveError, Position, RuleOptions};
use menagerie_cypher::{CypherPosition, OPTIONS, START_FEN};

/// Every combination of the rule options' values.
fn every_options() -> Vec<RuleOptions> {
    let mut all: Vec<Vec<String>> = vec![vec![]];
    for o in OPTIONS {
        all = all
            .into_iter()
            .flat_map(|set| {
                o.values.iter().map(move |v| {
                    let mut s = set.clone();
                    s.push(format!("{}={v}", o.name));
                    s
                })
            })
            .collect();
    }
    all.iter().map(|s| RuleOptions::parse(s).unwrap()).collect()
}

#[test]
fn every_legal_turn_reads_back_from_its_texts() {
    let mut rng = KeyGen::new(15);
    let mut checked = 0;
    let options = every_options();
    assert_eq!(options.len(), 48);
    for (i, o) in options.iter().enumerate() {
        // Every option set in a short game; the rulings in longer ones.
        let (games, plies) = if i == 0 { (2, 80) } else { (1, 24) };
        for _ in 0..games {
            let mut pos = CypherPosition::from_fen(START_FEN, o).unwrap();
            for _ in 0..plies {
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
    }
    assert!(checked > 5_000, "{checked}");
}

#[test]
fn text_that_is_no_cypher_move_says_what_is_expected() {
    let pos = CypherPosition::start();
    for text in ["appoint:z9", "a1a1", "e1->g7", "hello", "d3d5", "d5d"] {
        let e = pos.parse_move(text).unwrap_err();
        assert!(matches!(e, MoveError::Syntax { .. }), "{text}: {e:?}");
        let sentence = e.to_string();
        assert!(
            sentence.starts_with(&format!("'{text}' is not a move of cypher: ")),
            "{sentence}"
        );
        assert!(
            sentence.contains("d3-d5") && sentence.contains("Nh2"),
            "{sentence}"
        );
    }
    // Real moves that break a rule still name it.
    match pos.parse_move("a1-a1") {
        Err(MoveError::Illegal { reason, .. }) => {
            assert_eq!(reason, "there is no man on a1")
        }
        other => panic!("{other:?}"),
    }
    match pos.parse_move("d3-d6") {
        Err(MoveError::Illegal { reason, .. }) => assert!(reason.contains("pawn"), "{reason}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_turn_that_ends_the_game_by_a_flip_says_so() {
    // The start: the Spy's step next to its own King flips White (17, T2).
    let pos = CypherPosition::start();
    let mv = pos.parse_move("d0-d1").unwrap();
    let human = pos.move_human(mv);
    assert_eq!(human, "Sd1(flip)");
    assert_eq!(pos.move_text(mv), "d0-d1");
    // The inventor's `++` is still read.
    assert_eq!(pos.parse_move("Sd1++"), Ok(mv));
    assert_eq!(pos.parse_move("Sd1(flip)"), Ok(mv));
    assert_eq!(pos.parse_move("Sd1"), Ok(mv));
}

#[test]
fn move_counters_saturate_and_the_string_reads_back() {
    let max = u32::MAX;
    let fen = format!("1s8/7k2/10/10/10/10/10/10/10/2K7/4S5 w - Ii 0+0 0/0 {max} {max}");
    let mut pos = CypherPosition::from_fen_default(&fen).unwrap();
    for text in ["b1-b2", "g9-g8", "b2-b1"] {
        let mv = pos.parse_move(text).unwrap();
        pos.play(mv);
        let fen = pos.fen();
        assert!(fen.ends_with(&format!(" {max} {max}")), "{fen}");
        assert_eq!(CypherPosition::from_fen_default(&fen).unwrap().fen(), fen);
    }
    let over = "1s8/7k2/10/10/10/10/10/10/10/2K7/4S5 w - Ii 0+0 0/0 4294967296 1";
    assert!(CypherPosition::from_fen_default(over).is_err());
}

#[test]
fn a_text_that_says_capture_never_reads_as_a_quiet_turn() {
    let pos = CypherPosition::start();
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let mut tried = 0;
    for &m in &moves {
        let human = pos.move_human(m);
        // Pawn pushes are written by their square alone (`d3`); `xd3` would be a capture.
        if human.len() <= 3 && human.starts_with(|c: char| c.is_ascii_lowercase()) {
            assert_eq!(pos.parse_move(&human), Ok(m));
            let capture = format!("x{human}");
            assert!(
                pos.parse_move(&capture).is_err(),
                "{capture} read as {human}"
            );
            tried += 1;
        }
    }
    assert!(tried >= 10, "{tried}");
}
