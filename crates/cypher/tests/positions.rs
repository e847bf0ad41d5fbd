//! Position strings (round trips, fuzzing), rule options, repetition, notation and diagrams.

mod common;
use common::*;
use menagerie_core::{Color, Game, MoveError, Position, RuleOptions, Termination};
use menagerie_cypher::{draw, variants, CypherPosition, START_FEN};

const FENS: &[&str] = &[
    START_FEN,
    "5n4/1sr1b1nr2/4qkb3/1pppppppp1/10/1P6P1/4P5/2PP1PPP2/3BQKB3/2RN2NR2/2S7 b - Ii 0+0 0/0 0 4",
    "2s1k5/8r1/3b1qn3/5p4/1p1p3p2/10/2P3K1S1/1PQ1N2PP1/3B4R1/10/10 w - Ii 0+0 0/0 3 31",
    "10/5n4/10/1p2k5/2N3Nr2/2RP2Pp2/2Qp3Pb1/4RK4/1r6S1/3sB5/10 b - Ii 0+3 5/5 1 52",
    "10/2nk6/10/1B2p2n2/2r1P2P2/1PpPSp1pP1/1b8/5b4/3s6/7q2/1N1K6 w - Ii 0+0 3/4 0 59",
    "2s7/4Sr4/4B5/1pp2k1p2/7Bp1/1qpPp1Pbb1/10/10/7KR1/1N8/r9 b - Ii 1+0 6/2 2 49",
    "1R2b5/6s3/8n1/n5N3/6r3/1P1Ppkppp1/10/2P3pP2/5S2p1/6q3/6K3 b - I 0+0 4/2 1 69",
    "7n1S/4r1Qk2/3s6/1R6b1/5q4/1PpprPppP1/10/1b3R4/6K3/4N1N2B/10 w - Ii 0+0 5/4 0 49",
    "9q/1Qrbb2r2/1s2Rk4/1pp2p4/7PP1/2P4pP1/1PpP1p2S1/R2P2P3/3B6/3N2N3/7K2 b d8 Ii 0+0 0/2 0 23",
    "2r7/3Qn2R2/10/q3P2n2/10/1P1PBP1kP1/1p5Pb1/2rs1K2S1/1N4B3/1R4N3/10 w - I 0+1 2/7 1 53",
    "4q5/2r4r2/3s1k2n1/1pppn3p1/10/1PqSp1bbp1/3N2K3/10/10/4BBN3/R9 w - Ii 0+1 7/1 0 32",
    "4k5/2rn3r2/5qb3/1pp2ppn2/3ps2p2/1Pp1PPpPQ1/10/1P3P4/1B3KBR2/S1bN2N3/10 w - Ii 0+0 2/0 0 21",
];

/// A small deterministic generator (xorshift), so the tests need no dependency.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

#[test]
fn position_strings_round_trip() {
    for fen in FENS {
        assert_eq!(pos(fen).fen(), *fen);
    }
}

/// Random games: every position reached writes a string that reads back to the same
/// position, with the same key and the same legal turns; ended games have no turns.
#[test]
fn random_games_round_trip() {
    let mut rng = Rng(0x5EED_CAFE);
    for fen in FENS {
        for _ in 0..8 {
            let mut p = pos(fen);
            for _ in 0..80 {
                let text = p.fen();
                let back = CypherPosition::from_fen_default(&text)
                    .unwrap_or_else(|e| panic!("{text} does not read back: {e}"));
                assert_eq!(back.fen(), text);
                assert_eq!(back.key(), p.key());
                assert_eq!(all(&back), all(&p));
                let moves = p.legal();
                if moves.is_empty() {
                    assert!(p.outcome().is_some(), "no turns but no ending in {text}");
                    break;
                }
                assert!(p.outcome().is_none(), "turns in an ended game: {text}");
                let mv = moves[rng.below(moves.len())];
                // Canonical and human text both read back to the move.
                assert_eq!(p.parse_move(&p.move_text(mv)), Ok(mv));
                assert_eq!(
                    p.parse_move(&p.move_human(mv)),
                    Ok(mv),
                    "{}",
                    p.move_human(mv)
                );
                p.play(mv);
            }
        }
    }
}

/// Garbage and mutated strings are refused with an error, never a panic.
#[test]
fn fuzzed_position_strings_never_panic() {
    let alphabet: Vec<char> = "0123456789/ -+wbIiKQRBNPSkqrbnpsxz@*é\u{0}aedh10"
        .chars()
        .collect();
    let mut rng = Rng(42);
    let mut accepted = 0;
    for round in 0..30_000 {
        let base: Vec<char> = FENS[round % FENS.len()].chars().collect();
        let mut s = base.clone();
        for _ in 0..1 + rng.below(4) {
            let i = rng.below(s.len() + 1);
            match rng.below(3) {
                0 if i < s.len() => s[i] = alphabet[rng.below(alphabet.len())],
                1 if i < s.len() => {
                    s.remove(i);
                }
                _ => s.insert(i.min(s.len()), alphabet[rng.below(alphabet.len())]),
            }
        }
        let text: String = s.into_iter().collect();
        if let Ok(p) = CypherPosition::from_fen_default(&text) {
            accepted += 1;
            let _ = p.legal();
            let _ = p.outcome();
            assert!(CypherPosition::from_fen_default(&p.fen()).is_ok());
        }
        let garbage: String = (0..rng.below(90))
            .map(|_| alphabet[rng.below(alphabet.len())])
            .collect();
        assert!(CypherPosition::from_fen_default(&garbage).is_err());
    }
    assert!(accepted > 0);
}

#[test]
fn malformed_fields_are_named() {
    let cases = [
        ("", "fields"),
        ("4s5/2rn2nr2/3bqkb3/1pppppppp1/10/10/10/1PPPPPPPP1/3BQKB3/2RN2NR2/4S5 x - Ii 0+0 0/0 0 1", "side to move"),
        ("4s5/2rn2nr2/3bqkb3/1pppppppp1/10/10/10/1PPPPPPPP1/3BQKB3/2RN2NR2/4S5 w - Ix 0+0 0/0 0 1", "infiltration"),
        ("4s5/2rn2nr2/3bqkb3/1pppppppp1/10/10/10/1PPPPPPPP1/3BQKB3/2RN2NR2/4S5 w - Ii 0-0 0/0 0 1", "consecutive checks"),
        ("4s5/2rn2nr2/3bqkb3/1pppppppp1/10/10/10/1PPPPPPPP1/3BQKB3/2RN2NR2/4S5 w - Ii 0+0 9/9 0 1", "pools"),
        ("4s5/2rn2nr2/3bqkb3/1pppppppp1/10/10/10/1PPPPPPPP1/3BQKB3/2RN2NR2/4S5 w - Ii 0+0 0/0 -1 1", "halfmove clock"),
        ("4s5/2rn2nr2/3bqkb3/1pppppppp1/10/10/10/1PPPPPPPP1/3BQKB3/2RN2NR2/4S5 w - Ii 0+0 0/0 0 0", "fullmove number"),
        ("4s5/2rn2nr2/3bqkb3/1pppppppp1/10/10/10/1PPPPPPPP1/3BQKB3/2RN2NR2/4S5 w E4 Ii 0+0 0/0 0 1", "re-take square"),
        ("4s5/2rn2nr2/3bqkb3/1pppppppp1/55/10/10/1PPPPPPPP1/3BQKB3/2RN2NR2/4S5 w - Ii 0+0 0/0 0 1", "board"),
        ("4s5/2rn2nr2/3bqkb3/1pppppppp1/010/10/10/1PPPPPPPP1/3BQKB3/2RN2NR2/4S5 w - Ii 0+0 0/0 0 1", "board"),
        ("4s5/2rn2nr2/3bqkb3/1pppppppp1/10/10/10/1PPPPPPPP1/3BQKB3/2RN2NR2/4S5  w - Ii 0+0 0/0 0 1", "fields"),
        ("4k5/2rn2nr2/3bqkb3/1pppppppp1/10/10/10/1PPPPPPPP1/3BQKB3/2RN2NR2/4S5 w - Ii 0+0 0/0 0 1", "board"),
        ("4s5/2rn2nr2/3bqkb3/1pppppppp1/10/10/10/1PPPPPPPP1/3BQKB3/2RN2NR2/10 w - Ii 0+0 0/0 0 1", "board"),
    ];
    for (fen, field) in cases {
        let e = CypherPosition::from_fen_default(fen).expect_err(fen);
        assert_eq!(e.field, field, "{fen}: {e}");
    }
    // A missing Spy is fine once the opponent has infiltrated.
    assert!(CypherPosition::from_fen_default(
        "4R5/10/8k1/10/10/5K4/10/10/10/10/4S5 b - i 0+0 0/0 0 1"
    )
    .is_ok());
}

#[test]
fn rule_options_are_validated_and_change_the_rules() {
    let spec = &variants()[0];
    assert_eq!(spec.id, "cypher");
    let bad = RuleOptions::parse(&["self-flip=maybe"]).expect("options");
    assert_eq!(
        (spec.from_fen)(START_FEN, &bad).expect_err("bad").field,
        "rule options"
    );
    let unknown = RuleOptions::parse(&["colour=blue"]).expect("options");
    assert!((spec.from_fen)(START_FEN, &unknown).is_err());

    // king-court-entry
    let t27 = "9s/10/8k1/10/10/10/10/10/10/1K8/4S5 w - Ii 0+0 0/0 0 1";
    let t27b = "10/10/8k1/10/5s4/10/10/10/10/1K8/4S5 w - Ii 0+0 0/0 0 1";
    assert_legal(
        &pos_with(t27, &["king-court-entry=free"]),
        &["a1-z1", "a1-a0"],
    );
    assert_not_legal(
        &pos_with(t27b, &["king-court-entry=own-spy-outside"]),
        &["a1-z1", "a1-a0"],
    );
    // infiltration-target
    let t20b = "1s2k5/10/10/10/10/10/5K4/10/10/1R8/9S w - Ii 0+0 0/0 0 1";
    let home = pos_with(t20b, &["infiltration-target=enemy-home"]);
    assert_legal(&home, &["e4-e5*a1-d10"]);
    assert_not_legal(&home, &["e4-e5*a1-d0"]);
    // coup-minor and coup-pawns
    let minor = "4s5/10/2n3P3/4k3b1/10/10/10/10/10/2K7/9S w - Ii 0+0 0/0 0 1";
    assert_eq!(of(&pos(minor), "f8"), strings(&["f8-f9(b8)", "f8-f9(h7)"]));
    assert_eq!(
        of(&pos_with(minor, &["coup-minor=bishop-first"]), "f8"),
        strings(&["f8-f9(h7)"])
    );
    let t34 = "1s8/10/3P4k1/10/5p1p2/10/10/10/10/2K7/4S5 w - Ii 0+0 0/0 0 1";
    assert_eq!(
        of(&pos_with(t34, &["coup-pawns=no"]), "c8"),
        strings(&["c8-c9"])
    );
    // self-flip=illegal: the start loses its four suicidal turns.
    assert_eq!(
        pos_with(START_FEN, &["self-flip=illegal"]).legal().len(),
        35
    );
}

#[test]
fn repetition_is_automatic_in_play() {
    let start = pos("4s5/7k2/10/10/10/10/5N4/10/10/2K7/4S5 w - Ii 0+0 0/0 0 1");
    let mut game = Game::new(start);
    for _ in 0..2 {
        for m in ["b1-b2", "g9-g8", "b2-b1", "g8-g9"] {
            assert!(game.outcome().is_none());
            game.push_text(m).expect("legal");
        }
    }
    let o = game.outcome().expect("threefold repetition");
    assert_eq!(o.termination, Termination::Repetition);
    assert_eq!(o.winner, None);
    assert_eq!(o.points.map(|p| (p.white, p.black)), Some((0.5, 0.5)));
    assert!(game.legal_moves().is_empty());
}

#[test]
fn both_notations_are_read() {
    let t6 = pos("4s5/7k2/10/10/10/10/10/2Q7/7K2/10/4S5 w - Ii 0+0 0/0 0 1");
    let want = find(&t6, "d0-d4/b3-z3");
    assert_eq!(t6.parse_move("Sd4/Qz3").ok(), want);
    assert_eq!(t6.parse_move("D0-D4/B3-Z3").ok(), want);
    let t20 = pos("4s5/10/8k1/10/10/10/5K4/10/10/1R8/4S5 w - Ii 0+0 0/0 0 1");
    assert_eq!(t20.parse_move("Ke5**Rd10").ok(), find(&t20, "e4-e5*a1-d10"));
    let t18 = pos("4s5/10/2n3P3/4k3r1/1q8/10/10/10/10/2K7/9S w - Ii 0+0 0/0 0 1");
    assert_eq!(t18.parse_move("f9(Qa6)").ok(), find(&t18, "f8-f9(a6)"));
    let t19 = pos("1s8/10/10/10/4k5/10/10/10/10/2K7/9S w - Ii 0+0 1/0 0 1");
    assert_eq!(t19.parse_move("PRd5").ok(), find(&t19, "P@d5"));
    assert_eq!(t19.parse_move("p@D5").ok(), find(&t19, "P@d5"));
    let start = pos(START_FEN);
    assert_eq!(start.parse_move("Sd1++").ok(), find(&start, "d0-d1"));
    assert_eq!(start.parse_move("Sd1").ok(), find(&start, "d0-d1"));
    // Two rooks reach c1: ordinary algebraic disambiguation by file.
    let two = pos("4s5/7k2/10/10/10/10/10/10/7K2/1R4R3/4S5 w - Ii 0+0 0/0 0 1");
    let texts: Vec<String> = two.legal().into_iter().map(|m| two.move_human(m)).collect();
    assert!(
        texts.contains(&"Rac1".to_string()) && texts.contains(&"Rfc1".to_string()),
        "{texts:?}"
    );
    assert_eq!(two.parse_move("Rac1").ok(), find(&two, "a1-c1"));
    assert!(matches!(
        two.parse_move("Rc1"),
        Err(MoveError::Ambiguous { .. })
    ));
    // A finished game refuses every move.
    let over = play(&start, "d0-d1");
    assert!(matches!(
        over.parse_move("d3-d4"),
        Err(MoveError::GameOver(_))
    ));
}

#[test]
fn diagrams_mark_the_sectors_and_show_the_state() {
    let p = play(
        &pos("1s8/7k2/6b3/2N7/4r5/4Q5/10/10/10/8K1/4S5 w - Ii 0+0 0/0 0 1"),
        "d5-d6",
    );
    let d = draw(&p);
    assert!(d.contains(':') && d.contains('=') && d.contains('.'), "{d}");
    assert!(d.contains("re-take: the queen on d6"), "{d}");
    assert!(
        d.contains("infiltration right: White yes, Black yes"),
        "{d}"
    );
    assert!(d.contains("consecutive checks"), "{d}");
    assert!(d.contains("prisoner pools: White 0, Black 0"), "{d}");
    assert!(
        d.lines().next().is_some_and(|l| l.starts_with("10 |")),
        "{d}"
    );
    assert_eq!(p.turn(), Color::Black);
}

/// Move text of any shape is answered with a move or an error, never a panic.
#[test]
fn fuzzed_move_text_never_panics() {
    let alphabet: Vec<char> = "zabcdefghi0123456789-/*()@PRKQBNSx+#é ".chars().collect();
    let positions: Vec<CypherPosition> = FENS.iter().map(|f| pos(f)).collect();
    let mut rng = Rng(7);
    for round in 0..3_000 {
        let p = &positions[round % positions.len()];
        let len = 1 + rng.below(14);
        let text: String = (0..len)
            .map(|_| alphabet[rng.below(alphabet.len())])
            .collect();
        if let Ok(m) = p.parse_move(&text) {
            assert!(p.legal().contains(&m));
        }
        let _ = p.explain_illegal(&text);
    }
}
