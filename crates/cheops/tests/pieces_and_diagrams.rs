//! Pieces as data (load errors, a changed definition changes the moves), diagrams, endings
//! in play and the reasons given for illegal moves.

mod common;
use common::*;
use menagerie_cheops::{load_pieces, piece_help, CheopsPosition, Style, DEFAULT_PIECES};
use menagerie_core::diagram::{diagram, DiagramOptions};
use menagerie_core::{Game, Position, RuleOptions, Termination};

#[test]
fn the_built_in_table_loads_and_lists_provisional_pieces() {
    let t = load_pieces(DEFAULT_PIECES).expect("loads");
    let help = piece_help(&t);
    assert!(help
        .iter()
        .any(|l| l.contains("Master") && l.contains("published")));
    assert!(help
        .iter()
        .any(|l| l.contains("Knight") && l.contains("[provisional]")));
    assert!(help
        .iter()
        .any(|l| l.contains("Deputy") && l.contains("[provisional]")));
    assert!(!help
        .iter()
        .any(|l| l.contains("Queen") && l.contains("provisional")));
}

#[test]
fn malformed_definitions_are_named_in_one_sentence() {
    let cases = [
        (
            "knight          N  N   Nx      provisional  major",
            "knight",
            "invalid Betza",
        ),
        (
            "knight          N  N   pN      provisional  major",
            "knight",
            "'p' needs a rider",
        ),
        (
            "knight          N  N   N       maybe        major",
            "knight",
            "status",
        ),
        (
            "knight          N  N   N       provisional  flying",
            "knight",
            "unknown class",
        ),
        (
            "knight          NN N   N       provisional  major",
            "knight",
            "one upper-case letter",
        ),
        (
            "knight          Q  N   N       provisional  major",
            "knight",
            "already",
        ),
    ];
    for (line, piece, what) in cases {
        let text =
            DEFAULT_PIECES.replace("knight          N  N   N       provisional  major", line);
        let e = load_pieces(&text).expect_err(line);
        assert_eq!(e.piece, piece, "{e}");
        assert!(e.to_string().contains(what), "{e}");
        assert!(e.to_string().starts_with("piece file, line "), "{e}");
    }
    // The line number is the line of the broken definition.
    let text = DEFAULT_PIECES.replace("mRcpR", "mRcpX");
    let e = load_pieces(&text).expect_err("broken Master");
    let line = DEFAULT_PIECES
        .lines()
        .position(|l| l.contains("mRcpR"))
        .unwrap_or(0)
        + 1;
    assert_eq!(e.line, line);
    assert_eq!(e.piece, "master");
    // A missing piece and an unknown piece.
    let text: String = DEFAULT_PIECES
        .lines()
        .filter(|l| !l.starts_with("pawn"))
        .map(|l| format!("{l}\n"))
        .collect();
    assert!(load_pieces(&text)
        .expect_err("no pawn")
        .to_string()
        .contains("not defined"));
    let text = format!("{DEFAULT_PIECES}\ndragon X X K published major\n");
    assert!(load_pieces(&text)
        .expect_err("dragon")
        .to_string()
        .contains("unknown piece"));
}

#[test]
fn replacing_a_definition_changes_the_moves_without_code() {
    // The Knight as a Nightrider (NN): from g1 on the start board it now rides on.
    let text = DEFAULT_PIECES.replace(
        "knight          N  N   N       provisional",
        "knight          N  N   NN      provisional",
    );
    let table = load_pieces(&text).expect("loads");
    let fen = "k8/9/9/9/9/9/9/9/K5N2 w 0 1";
    let rider =
        CheopsPosition::from_fen_with_pieces(Style::Common, fen, &table, &RuleOptions::new())
            .expect("parses");
    let before = moves(C, fen);
    let after = rider.move_texts();
    assert!(!before.contains(&"g1c3".to_string()));
    assert!(after.contains(&"g1c3".to_string()), "{after:?}");
    assert!(after.contains(&"g1e5".to_string()));
    // And a Prime Minister redefined as a Knight only (no Bishop part) loses its slides.
    let text = DEFAULT_PIECES.replace("prime-minister  E  PM  BN ", "prime-minister  E  PM  N  ");
    let table = load_pieces(&text).expect("loads");
    let fen = "k8/9/9/9/9/4E4/9/9/K8 w 0 1";
    let p = CheopsPosition::from_fen_with_pieces(Style::Common, fen, &table, &RuleOptions::new())
        .expect("parses");
    assert_eq!(
        p.move_texts()
            .iter()
            .filter(|m| m.starts_with("e4"))
            .count(),
        8
    );
    assert_eq!(
        moves(C, fen).iter().filter(|m| m.starts_with("e4")).count(),
        8 + 14
    );
}

#[test]
fn diagrams_mark_castles_arrestees_and_provisional_pieces() {
    let p = pos(
        I,
        "12k/13/13/13/13/13/13/13/2C1C8/2Pn9/2T1M8/13/K12 w d4:b@d4 - 1 2 -",
    );
    let d = diagram(&p, DiagramOptions::default());
    assert!(d.contains("Castle d4: bastions c3 e3 c5 e5; active, held by Black (activator on d4); arrestees: Pawn c4"), "{d}");
    assert!(d.contains("Provisional pieces"));
    assert!(d.contains(" + "), "empty rooms are marked: {d}");
    let q = pos(
        I,
        "12k/13/13/13/13/13/13/13/2C1C8/13/2T1M8/13/K12 w d4 - 0 1 -",
    );
    let d = diagram(&q, DiagramOptions::default());
    assert!(d.contains(" o "), "inactive chair: {d}");
    assert!(d.contains("inactive"));
    let r = pos(
        I,
        "k12/13/2c1c8/3K9/2t1t8/13/5n7/9b3/6CC5/13/13/13/13 w d10:w@d10 h5 0 1 g5",
    );
    let d = diagram(&r, DiagramOptions::default());
    assert!(d.contains("Known Deputies (shown as C): h5"));
    assert!(d.contains("Sealed papers (secret): g5"));
    assert!(!diagram(
        &r.view(menagerie_core::Color::Black).into_position(),
        DiagramOptions::default()
    )
    .contains("g5"));
}

#[test]
fn illegal_moves_name_the_rule() {
    let reason = |style: Style, fen: &str, mv: &str| -> String {
        pos(style, fen).parse_move(mv).expect_err(mv).to_string()
    };
    let t7 = "k8/9/9/3c5/9/3Q5/9/9/K8 w 0 1";
    assert!(reason(C, t7, "d4d6").contains("Civilian can never be captured"));
    assert!(reason(C, t7, "e4e5").contains("no piece of yours"));
    let t8 = "9/4P4/9/7k1/9/9/9/9/K4Q3 w 0 1";
    assert!(reason(C, t8, "e8e9").contains("must promote"));
    assert!(reason(C, t8, "e8e9=K").contains("never a King"));
    let t10b = "12k/13/13/13/3q9/13/13/13/2C1C8/3K9/2T1T8/13/13 b d4:w@d4 - 0 1";
    assert!(reason(I, t10b, "d9d5").contains("closed to pieces outside it"));
    let t3 = "k3t4/9/9/4t4/3K5/9/9/9/9 w 0 1";
    assert!(reason(C, t3, "d5e6").contains("leave your King in check"));
    let t21b = "12k/13/13/13/13/13/13/13/2C1C8/2Pn9/2T1M8/13/K12 w d4:b@d4 - 1 2 -";
    assert!(reason(I, t21b, "c4c5").contains("arrestee"));
    assert!(reason(I, t21b, "c3c2").contains("bastion"));
    assert!(reason(C, t7, "appoint:d6").contains("Common"));
    assert!(reason(C, t7, "d4d4d4").contains("not"));
}

#[test]
fn endings_in_play() {
    // Checkmate through the core's Game, then no move may be played.
    let mut g = Game::new(pos(C, "8k/9/9/9/9/9/4q4/9/D3K3t w 0 1"));
    let o = g.outcome().expect("mated");
    assert_eq!(o.termination, Termination::Checkmate);
    assert!(g.push_text("e1d1").is_err());
    // Minimal strength: Kings and Civilians only.
    let p = pos(C, "8k/9/9/9/4C4/9/9/9/K8 w 0 1");
    assert!(p.outcome().is_none());
    let o = p.outcome_in_play(1).expect("minimal strength");
    assert_eq!(o.termination.code(), "minimal-strength");
    // Repetition: Knights shuffle back and forth.
    let mut g = Game::new(pos(C, "k7n/9/9/9/9/9/9/9/K7N w 0 1"));
    for mv in [
        "i1h3", "i9h7", "h3i1", "h7i9", "i1h3", "i9h7", "h3i1", "h7i9",
    ] {
        g.push_text(mv).expect(mv);
    }
    assert_eq!(
        g.outcome().map(|o| o.termination),
        Some(Termination::Repetition)
    );
    // The challenge count: 100 turns without a Pawn move, capture or arrest.
    let p = pos(C, "k7n/9/9/9/9/9/9/9/K7N w 100 80");
    assert!(p.challenge_outcome(100).is_some());
    assert!(p.challenge_outcome(99).is_none());
    let p = pos(C, "k7n/9/9/9/9/9/9/9/K7N w 99 80");
    assert!(p.challenge_outcome(500).is_none());
}

#[test]
fn a_repetition_with_an_abdication_available_offers_the_choice() {
    // White is mated but a Duke could take over: at a repetition the choices are the
    // abdication and the draw.
    let p = pos(C, "8k/9/6D2/9/9/9/4q4/9/4K3t w 0 1");
    let choices: Vec<String> = p
        .repetition_choices()
        .iter()
        .map(|m| p.move_text(*m))
        .collect();
    assert_eq!(choices, ["e1->g7", "draw"]);
    let mut q = p.clone();
    let draw = p.repetition_choices()[1];
    q.play_repetition_choice(draw).expect("draw accepted");
    assert_eq!(
        q.outcome().map(|o| o.termination),
        Some(Termination::Repetition)
    );
    assert!(q.moves().is_empty());
    // Searches see the ended game without generating moves.
    assert_eq!(p.quick_outcome(), None);
    assert_eq!(q.quick_outcome(), Some(None));
}
