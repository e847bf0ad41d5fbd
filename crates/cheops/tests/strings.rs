//! Position strings: round trips, every rejection of §14.3 naming its field, and a fuzz test
//! of garbage and mutated strings (the parser never panics).

mod common;
use common::*;
use menagerie_cheops::{variants, CheopsPosition, Style};
use menagerie_core::{Position, RuleOptions};

fn rejects(style: Style, fen: &str, field: &str) {
    match CheopsPosition::from_fen(style, fen) {
        Ok(_) => panic!("accepted {fen}"),
        Err(e) => assert_eq!(e.field, field, "{fen}: {e}"),
    }
}

#[test]
fn round_trips() {
    for (style, fen) in [
        (
            C,
            "tnnqkeiit/ppppppppp/9/2c3c2/9/2C3C2/9/PPPPPPPPP/TIIEKQNNT w 0 1",
        ),
        (
            C,
            "t1n5t/pp1pp1ppi/n1p2ck1p/1q2c4/4Cp3/2NP5/P4CP2/P2PPP1PP/TIIEK2NT w 2 21",
        ),
        (
            I,
            "k12/1u11/2c1c8/3K9/2t1t8/13/13/5inp5/6C6/7C5/13/13/12T w d10:w@d10 g5 0 1 h4",
        ),
        (
            I,
            "12k/13/13/13/13/13/13/13/2C1C8/2PK9/2T1M8/13/13 w d4:w@d4+c4 - 0 1 -",
        ),
        (
            I,
            "12k/13/13/13/13/13/13/13/2C1C8/2QP9/2T1M8/13/K12 w d4:w@c4+d4 - 3 9 -",
        ),
    ] {
        assert_eq!(pos(style, fen).fen(), fen);
    }
    // A six-field Imperial string is read as having no papers.
    let six = "12k/13/13/13/13/13/13/13/2C1C8/3K9/2T1M8/13/13 w d4:w@d4 - 0 1";
    assert_eq!(pos(I, six).fen(), format!("{six} -"));
}

#[test]
fn rejections_name_the_field() {
    rejects(C, "9/9/9 w 0 1", "board");
    rejects(
        C,
        "tnnqkeiit/ppppppppp/9/2c3c2/9/2C3C2/9/PPPPPPPPP/TIIEKQNNT w 0",
        "position",
    );
    rejects(
        C,
        "tnnqkeiit/ppppppppp/9/2c3c2/9/2C3C2/9/PPPPPPPPP/TIIEKQNN w 0 1",
        "board",
    );
    rejects(
        C,
        "tnnqkeiit/ppppppppp/09/2c3c2/9/2C3C2/9/PPPPPPPPP/TIIEKQNNT w 0 1",
        "board",
    );
    rejects(
        C,
        "tnnqkeiit/ppppppppp/9/2c3c2/9/2C3C2/9/PPPPPPPPP/TIIEKQNNX w 0 1",
        "board",
    );
    rejects(
        C,
        "tnnqkeiit/ppppppppp/9/2c3c2/9/2C3C2/9/PPPPPPPPP/TIIEKQNNT x 0 1",
        "side to move",
    );
    rejects(
        C,
        "tnnqkeiit/ppppppppp/9/2c3c2/9/2C3C2/9/PPPPPPPPP/TIIEKQNNT w a 1",
        "halfmove clock",
    );
    rejects(
        C,
        "tnnqkeiit/ppppppppp/9/2c3c2/9/2C3C2/9/PPPPPPPPP/TIIEKQNNT w 0 0",
        "fullmove number",
    );
    rejects(
        C,
        "tnnqkeiit/ppppppppp/9/2c3c2/9/2C3C2/9/PPPPPPPPP/TIIEQQNNT w 0 1",
        "board",
    );
    rejects(C, "k8/9/9/9/9/9/9/CCC6/K8 w 0 1", "board");
    rejects(C, "k7P/9/9/9/9/9/9/9/K8 w 0 1", "board");
    rejects(C, "k8/9/9/9/9/9/9/9/K7t b 0 1", "side to move");
    // Imperial.
    rejects(
        I,
        "12k/13/13/13/13/13/13/13/2C1C8/3K9/2T1M8/13/13 w a4:w@a4 - 0 1",
        "castles",
    );
    rejects(
        I,
        "12k/13/13/13/13/13/13/13/2C1C8/3K9/2T1M8/13/13 w d4 - 0 1",
        "castles",
    );
    rejects(
        I,
        "12k/13/13/13/13/13/13/13/2C1C8/3K9/2T1M8/13/13 w - - 0 1",
        "castles",
    );
    rejects(
        I,
        "12k/13/13/13/13/13/13/13/2C1C8/3K9/2T1M8/13/13 w d4:w@e4 - 0 1",
        "castles",
    );
    rejects(
        I,
        "12k/13/13/13/13/13/13/13/2C1C8/3K9/2T1M8/13/13 w d5:w@d5 - 0 1",
        "castles",
    );
    rejects(
        I,
        "12k/13/13/13/13/13/13/13/2C1C8/2TK9/2T1M8/13/13 w d4:w@d4+c4 - 0 1",
        "castles",
    );
    rejects(
        I,
        "12k/13/13/13/13/13/13/13/2C1C8/2T10/2T1M8/13/K12 w d4:w@c4 - 0 1",
        "castles",
    );
    rejects(
        I,
        "12k/13/13/13/13/13/13/13/2C1C8/3K9/2T1M8/13/13 w d4:w@d4 d5 0 1",
        "deputies",
    );
    rejects(
        I,
        "12k/13/13/13/13/13/13/13/2C1C8/3K9/2T1M8/13/13 w d4:w@d4 - 0 1 d4",
        "papers",
    );
    rejects(
        I,
        "k12/13/13/13/13/13/13/13/6C6/13/13/13/12K w - g5 0 1 g5",
        "papers",
    );
    rejects(
        I,
        "k12/13/13/13/13/13/13/13/13/13/13/13/P11K w - - 0 1 -",
        "board",
    );
    rejects(
        I,
        "k12/13/13/13/13/13/13/13/13/13/13/13/12K w - - 0 1 - x",
        "position",
    );
}

/// A tiny deterministic generator, so the fuzz test is reproducible without dependencies.
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

const ALPHABET: &[u8] = b"0123456789/ -+,:@wbkqeitmndubopacKQEITMNDUBOPACXxyz\t=";

#[test]
fn fuzz_garbage_and_mutated_strings_never_panic() {
    let seeds = [
        (C, "tnnqkeiit/ppppppppp/9/2c3c2/9/2C3C2/9/PPPPPPPPP/TIIEKQNNT w 0 1"),
        (I, "tnnouqkedbiit/ppppppppppppp/2m1a3a1m2/3c5c3/13/13/13/13/13/3C5C3/2M1A3A1M2/PPPPPPPPPPPPP/TIIBDEKQUONNT w - - 0 1 -"),
        (I, "k12/1u11/2c1c8/3K9/2t1t8/13/13/5inp5/6C6/7C5/13/13/12T w d10:w@d10 g5 0 1 h4"),
        (I, "12k/13/13/13/13/13/13/13/2C1C8/2PK9/2T1M8/13/13 w d4:w@d4+c4 - 0 1 -"),
    ];
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut accepted = 0;
    for i in 0..20_000 {
        let (style, seed) = seeds[i % seeds.len()];
        let mut bytes = seed.as_bytes().to_vec();
        for _ in 0..1 + rng.below(3) {
            let at = rng.below(bytes.len());
            match rng.below(4) {
                0 => bytes[at] = ALPHABET[rng.below(ALPHABET.len())],
                1 => {
                    bytes.remove(at);
                }
                2 => bytes.insert(at, ALPHABET[rng.below(ALPHABET.len())]),
                _ => {
                    let len = rng.below(6).min(bytes.len() - at);
                    let chunk: Vec<u8> = bytes[at..at + len].to_vec();
                    let to = rng.below(bytes.len());
                    for (k, b) in chunk.into_iter().enumerate() {
                        bytes.insert(to + k, b);
                    }
                }
            }
            if bytes.is_empty() {
                bytes.push(b'k');
            }
        }
        let text = String::from_utf8_lossy(&bytes).to_string();
        if let Ok(p) = CheopsPosition::from_fen(style, &text) {
            accepted += 1;
            // Whatever is accepted round-trips and can be played on.
            let again = pos(style, &p.fen());
            assert_eq!(again.fen(), p.fen());
            let moves = p.moves();
            for m in moves.iter().take(5) {
                let mut q = p.clone();
                q.play(*m);
                let _ = q.fen();
            }
        }
    }
    assert!(accepted > 100, "{accepted}");
    // Pure garbage, including non-ASCII.
    for text in [
        "",
        " ",
        "////",
        "é/é",
        "k w 0 1",
        "9/9/9/9/9/9/9/9/9 w 0 1 2 3 4",
        "\u{0}",
    ] {
        assert!(CheopsPosition::from_fen(Style::Common, text).is_err());
        assert!(CheopsPosition::from_fen(Style::Imperial, text).is_err());
    }
}

/// Random games from the starts: every position round-trips, every move's machine text and
/// recorder text read back to the same move.
#[test]
fn random_games_round_trip_positions_and_moves() {
    let mut rng = Rng(12345);
    for style in [Style::Common, Style::Imperial] {
        for _ in 0..4 {
            let mut p = CheopsPosition::start(style);
            for _ in 0..40 {
                let moves = p.moves();
                if moves.is_empty() {
                    break;
                }
                assert_eq!(pos(style, &p.fen()).fen(), p.fen());
                for &m in &moves {
                    assert_eq!(p.parse_move(&p.move_text(m)), Ok(m));
                    match p.parse_move(&p.move_human(m)) {
                        Ok(back) => assert_eq!(back, m),
                        Err(menagerie_core::MoveError::Ambiguous { .. }) => {}
                        Err(e) => panic!("{}: {e}", p.move_human(m)),
                    }
                }
                let m = moves[rng.below(moves.len())];
                p.play(m);
            }
        }
    }
}

#[test]
fn variants_validate_their_options() {
    let specs = variants();
    let ids: Vec<&str> = specs.iter().map(|s| s.id).collect();
    assert_eq!(ids, ["little-cheops", "little-cheops-imperial"]);
    for spec in &specs {
        let p = (spec.from_fen)(spec.start_fen, &RuleOptions::new()).expect("start parses");
        assert_eq!(p.variant(), spec.id);
        assert_eq!(p.fen(), spec.start_fen);
        let bad = RuleOptions::parse(&["colour=blue"]).expect("parses");
        assert!((spec.from_fen)(spec.start_fen, &bad).is_err());
        let good = RuleOptions::parse(&["repetition=fourth"]).expect("parses");
        assert!((spec.from_fen)(spec.start_fen, &good).is_ok());
    }
}

/// Move input never panics, whatever it is, and illegal input gets an error.
#[test]
fn fuzz_move_input_never_panics() {
    let p = pos(
        I,
        "k12/1u11/2c1c8/3K9/2t1t8/13/13/5inp5/6C6/7C5/13/13/12T w d10:w@d10 g5 0 1 h4",
    );
    let c = CheopsPosition::start(Style::Common);
    let mut rng = Rng(777);
    let pieces: &[&str] = &[
        "g5", ":", "h4", "@", "d11", "=", "Q", "->", "appoint", "inspect", "X", "-", " ", "é",
        "16a", "D", "1", "(", ")", "m13", "a0", "z9", "draw", "", "\u{0}",
    ];
    for _ in 0..3_000 {
        let n = 1 + rng.below(6);
        let text: String = (0..n).map(|_| pieces[rng.below(pieces.len())]).collect();
        let _ = p.parse_move(&text);
        let _ = c.parse_move(&text);
        let _ = p.view(menagerie_core::Color::Black).parse_move(&text);
    }
}
