//! Every legal turn's texts read back to the same turn (issue 15; issue 14 item 1): the
//! machine form, the human (recorder) text with and without its round, and the texts a
//! player is shown once it is played (`move_seen_by`). Random games from positions rich in
//! every kind of turn; counters at their largest value.

mod common;
use common::*;
use menagerie_cheops::{CheopsMove, CheopsPosition, TurnKind};
use menagerie_core::{Color, MoveError, Position};

/// Starts rich in special turns: the starts, a promotion, an abdication, Castles with an
/// appointment, an inspection, hops and arrests, a promotion in the halls.
const SEEDS: &[(bool, &str)] = &[
    (false, "tnnqkeiit/ppppppppp/9/2c3c2/9/2C3C2/9/PPPPPPPPP/TIIEKQNNT w 0 1"),
    (false, "9/4P4/9/7k1/9/9/9/9/K4Q3 w 0 1"),
    (false, "8k/9/6D2/9/9/9/4q4/9/4K3t w 0 1"),
    (true, "tnnouqkedbiit/ppppppppppppp/2m1a3a1m2/3c5c3/13/13/13/13/13/3C5C3/2M1A3A1M2/PPPPPPPPPPPPP/TIIBDEKQUONNT w - - 0 1 -"),
    (true, "k12/13/2c1c8/3K9/2t1t8/13/5n7/13/6CC5/13/13/13/13 w d10:w@d10 - 0 1 -"),
    (true, "k12/13/2c1c8/3K9/2t1t8/13/5n7/13/6CC5/13/13/13/13 b d10:w@d10 - 1 1 g5"),
    (true, "k12/13/2c1c8/3K9/2t1t8/13/5n7/9b3/6CC5/13/13/13/13 w d10:w@d10 - 0 1 g5"),
    (true, "k12/13/2c1c8/3K9/2t1t8/13/13/6n6/6C6/13/13/13/13 w d10:w@d10 g5 0 1 -"),
    (true, "12k/13/13/13/13/13/13/13/2C1C8/2PK9/2T1M8/13/13 w d4:w@d4+c4 - 0 1"),
    // Two hop chains from e5 to g7 in two hops: the count does not name either.
    (true, "k12/13/13/13/13/13/5P7/4P1P6/4CP7/13/13/13/K12 w - e5 0 1 -"),
];

struct Rng(u64);
impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// What kind of turn `m` is, for the coverage check.
fn kind(p: &CheopsPosition, m: &CheopsMove) -> &'static str {
    match m.kind {
        TurnKind::Move if m.promotion().is_some() => "promotion",
        TurnKind::Move if p.piece_char(m.to()).is_some() => "capture",
        TurnKind::Move => "move",
        TurnKind::HallPromotion => "hall-promotion",
        TurnKind::Hop if m.arrest_room().is_some() => "arrest",
        TurnKind::Hop => "hop",
        TurnKind::Appoint => "appointment",
        TurnKind::Inspect => "inspection",
        TurnKind::Abdicate => "abdication",
        TurnKind::Draw => "draw",
    }
}

/// Checks every text of every legal turn of `p`; returns the kinds seen.
fn check_texts(p: &CheopsPosition, kinds: &mut Vec<&'static str>) {
    let me = p.turn();
    let moves = p.moves();
    let appointments = moves.iter().filter(|m| m.kind == TurnKind::Appoint).count();
    let view = p.view(me);
    for &m in &moves {
        let k = kind(p, &m);
        if !kinds.contains(&k) {
            kinds.push(k);
        }
        let canonical = p.move_text(m);
        let human = p.move_human(m);
        let at = || format!("{canonical} / {human} in {}", p.fen());
        assert_eq!(p.parse_move(&canonical), Ok(m), "{}", at());
        assert_eq!(p.parse_move(&human), Ok(m), "{}", at());
        assert_eq!(p.parse_move(&p.recorder_text(&m)), Ok(m), "{}", at());
        // The turn offered from the player's own view reads the same (R41) and back.
        assert_eq!(view.position().move_text(m), canonical, "{}", at());
        assert_eq!(view.position().move_human(m), human, "{}", at());
        assert_eq!(view.parse_move(&human), Ok(m), "{}", at());
        // The offered text never carries an inspection's answer.
        assert!(
            !human.contains("Deputy") && !human.contains("Civilian"),
            "{}",
            at()
        );
        // What the mover is shown once it is played reads back to it.
        let (sc, sh) = p.move_seen_by(m, Some(me));
        assert_eq!(p.parse_move(&sc), Ok(m), "{sc}: {}", at());
        assert_eq!(p.parse_move(&sh), Ok(m), "{sh}: {}", at());
        // What the others are shown reads back too, but for a sealed appointment, which
        // names the turn only when one Civilian could be appointed.
        for viewer in [Some(me.other()), None] {
            let (oc, oh) = p.move_seen_by(m, viewer);
            for text in [&oc, &oh] {
                match p.parse_move(text) {
                    Ok(back) => assert_eq!(back, m, "{text}: {}", at()),
                    Err(MoveError::Ambiguous { .. })
                        if m.kind == TurnKind::Appoint && appointments > 1 => {}
                    Err(e) => panic!("{text}: {e}: {}", at()),
                }
            }
            if m.kind == TurnKind::Appoint {
                assert_eq!((oc.as_str(), oh.as_str()), ("appoint", "appoints C"));
            } else {
                assert_eq!((&oc, &oh), (&sc, &sh), "{}", at());
            }
        }
    }
}

#[test]
fn every_turns_texts_read_back_over_random_games() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut kinds = Vec::new();
    for &(imperial, fen) in SEEDS {
        let style = if imperial { I } else { C };
        for _ in 0..2 {
            let mut p = pos(style, fen);
            for _ in 0..20 {
                check_texts(&p, &mut kinds);
                let moves = p.moves();
                if moves.is_empty() {
                    break;
                }
                // Prefer the rarer turns, so that every kind is played and followed.
                let special: Vec<&CheopsMove> = moves
                    .iter()
                    .filter(|m| m.kind != TurnKind::Move || m.promotion().is_some())
                    .collect();
                let m = if !special.is_empty() && rng.below(2) == 0 {
                    *special[rng.below(special.len())]
                } else {
                    moves[rng.below(moves.len())]
                };
                p.play(m);
                assert_eq!(pos(style, &p.fen()).fen(), p.fen());
            }
        }
    }
    kinds.sort_unstable();
    assert_eq!(
        kinds,
        [
            "abdication",
            "appointment",
            "arrest",
            "capture",
            "hall-promotion",
            "hop",
            "inspection",
            "move",
            "promotion"
        ]
    );
}

#[test]
fn a_hop_chain_the_count_does_not_name_lists_its_landings() {
    let p = pos(I, SEEDS[9].1);
    let texts: Vec<String> = p
        .moves()
        .into_iter()
        .filter(|m| m.kind == TurnKind::Hop && m.to() == p.geometry().parse_square("g7").unwrap())
        .map(|m| p.move_human(m))
        .collect();
    assert_eq!(texts.len(), 2);
    assert!(texts.contains(&"D e5:e7:g7".to_string()), "{texts:?}");
    assert!(texts.contains(&"D e5:g5:g7".to_string()), "{texts:?}");
    // The recorder's count names neither: an ambiguity, not a guess.
    assert!(matches!(
        p.parse_move("D e5:2:g7"),
        Err(MoveError::Ambiguous { .. })
    ));
    // A single chain keeps the recorder's count.
    let one = p.parse_move("e5:e7").expect("legal");
    assert_eq!(p.move_human(one), "D e5:1:e7");
}

#[test]
fn an_inspection_is_offered_without_its_answer_and_shown_with_it() {
    // Black to move; White's sealed Deputy is on g5 (T15B), or on h5.
    for (papers, answer) in [("g5", "Deputy"), ("h5", "Civilian")] {
        let p = pos(
            I,
            &format!(
                "k12/13/2c1c8/3K9/2t1t8/13/5n7/13/6CC5/13/13/13/13 b d10:w@d10 - 1 1 {papers}"
            ),
        );
        let m = p.parse_move("inspect:g5").expect("legal");
        assert_eq!(p.move_human(m), "inspects C g5");
        for viewer in [Some(Color::Black), Some(Color::White), None] {
            assert_eq!(
                p.move_seen_by(m, viewer),
                (
                    format!("inspect:g5={}", &answer[..1]),
                    format!("inspects C g5 ({answer})")
                )
            );
        }
        // A record's answer, right or not, names the same turn (the umpire's is public).
        for text in [
            "inspects C g5 (Deputy)",
            "inspects C g5 (Civilian)",
            "22b inspects C g5 (Deputy)",
            "inspect:g5=D",
            "inspect:g5=c",
        ] {
            assert_eq!(p.parse_move(text), Ok(m), "{text}");
        }
    }
}

#[test]
fn counters_at_their_largest_value_stop_and_read_back() {
    let max = u32::MAX;
    for (style, fen) in [
        (C, format!("8k/9/9/9/9/9/9/9/K8 b {max} {max}")),
        (
            I,
            format!("12k/13/13/13/13/13/13/13/13/13/13/13/K12 b - - {max} {max} -"),
        ),
    ] {
        let p = pos(style, &fen);
        let next = play(&p, if style == C { "i9h9" } else { "m13l13" });
        assert_eq!(next.halfmove(), max);
        assert_eq!(next.fullmove(), max);
        assert_eq!(pos(style, &next.fen()).fen(), next.fen());
    }
    // One more than the largest is refused with the field named.
    let e = CheopsPosition::from_fen(C, "8k/9/9/9/9/9/9/9/K8 b 4294967296 1").unwrap_err();
    assert!(e.to_string().contains("halfmove"), "{e}");
}
