//! Games that go somewhere (issue 36): in positions from the lab's earlier studies where the
//! engine of the time shuffled (a King stepping back and forth, a Civilian inspected again
//! and again), the engine now recognises the turns that change nothing the mover can see
//! and plays a move that makes progress; engine players claim the fifty-round challenge
//! (Little Cheops R38) in a blocked position, which then ends by the rules; a repetition is
//! scored as the draw the rulebook makes it, less the contempt against a weaker opponent.

use menagerie_cheops::CheopsPosition;
use menagerie_core::{Color, Game, Position, RuleOptions};
use menagerie_engine::Evaluator;
use menagerie_variants::eval::cheops::CheopsEval;
use menagerie_variants::eval::vyrt::VyrtEval;
use menagerie_variants::{find, AnyGame, Engine, Limits, Score};
use menagerie_vyrt::VyrtPosition;

/// Little Cheops Imperial, study of 2026 (3000 nodes), game 1 to 47. f1e1: Black then
/// inspected the Civilian on d4, certified at its 34th turn, for the fourth time.
const IMPERIAL_GAME_1: &[&str] = &[
    "c3c12",
    "k11j11",
    "k3k10",
    "i11h10",
    "k10m10",
    "j11f11",
    "c12a12",
    "f11f1",
    "g1f1",
    "c13a12",
    "m10m13",
    "c11a11",
    "m13k13",
    "j13k13",
    "k1j3",
    "a11a1",
    "l1k3",
    "a12c11",
    "j3i5",
    "h10h9",
    "e3e4",
    "h9h8",
    "i3i4",
    "h8g7",
    "k3j5",
    "c11e10",
    "e4e5",
    "e10f8",
    "i4h5",
    "b13c11",
    "h5h6",
    "g7h6",
    "j5h6",
    "c11e10",
    "e5f6",
    "e10g9",
    "i5g6",
    "f8g6",
    "f6g6",
    "e11e10",
    "g6g7",
    "e10e9",
    "f1g1",
    "d13c12",
    "e1f1",
    "c12c11",
    "f1e1",
    "k13j13",
    "e1f1",
    "e9f9",
    "f1e1",
    "j13k13",
    "e1f1",
    "f9e8",
    "f1e1",
    "k13j13",
    "e1f1",
    "e8e7",
    "f1e1",
    "j13k13",
    "e1f1",
    "e7e6",
    "f1e1",
    "k13j13",
    "e1f1",
    "e6e5",
    "f1e1",
    "inspect:d4",
    "e1f1",
    "e5e6",
    "f1e1",
    "j13k13",
    "e1f1",
    "e6e5",
    "f1e1",
    "inspect:d4",
    "e1f1",
    "g9e8",
    "h6i8",
    "e5f6",
    "g7f6",
    "e8f6",
    "i8g7",
    "k13j13",
    "f1e1",
    "j13k13",
    "e1f1",
    "a13a2",
    "d1e1",
    "a2a4",
    "e1d1",
    "inspect:d4",
    "f1e1",
];

/// Little Cheops (Common), study game 3 to 10... g8g7: White then played h6e3, straight
/// back to where its Prime Minister stood a turn before.
const COMMON_GAME_3: &[&str] = &[
    "c4c3", "i8i7", "d1e3", "g6h5", "g1f3", "i7i6", "h1g3", "i6i5", "h2h3", "c9d7", "a2a3", "b9c7",
    "a3a4", "a8a7", "a4a5", "a7a6", "b2b3", "f8f7", "e3h6", "g8g7",
];

/// Vyrt, study game 5 to 62... I11-J11: White then played I3-H2, its King straight back.
const VYRT_GAME_5: &[&str] = &[
    "B2-B4", "B7-B6", "C1-I7", "B8-C6", "I7-A3", "C8-A6", "B1-A11", "E7-E5", "A11-B9", "D8-B8",
    "B9-D10", "E8-D8", "D10-F9", "D8-C8", "F9-D10", "C8-B7", "A1-B1", "G8-F10", "F2-F3", "F10-D11",
    "E1-F2", "D11-F12", "D1-E1", "F12-H1", "G12-H1", "C6-D4", "E1-I9", "B8-B10", "B4-B5", "D4-B5",
    "B1-B5", "F8-A3", "L2-A3", "B10-D12", "E12-E1", "A6-B5", "I9-B4", "A7-A6", "C2-C4", "B5-C6",
    "G1-F11", "D12-E11", "B4-G9", "E11-G9", "F11-G9", "H8-F8", "G9-F11", "C6-A4", "F1-G12",
    "L7-L5", "E2-E4", "A4-I12", "D10-B9", "A8-B8", "B9-L10", "I12-A4", "G12-F1", "F8-F11",
    "B12-B1", "A4-E12", "F2-E3", "E12-F1", "E1-E2", "F11-E11", "E3-F2", "F1-E2", "F2-G3", "B8-B10",
    "L10-K12", "B10-K10", "K12-J2", "E2-C4", "G3-H3", "C4-L7", "I2-I4", "L7-B9", "H3-G3", "K10-K3",
    "H2-H3", "K3-A3", "G3-H4", "D7-D6", "L1-L2", "A3-D3", "L2-L3", "G7-G5", "H4-G5", "E11-G11",
    "G5-H4", "H7-H6", "C12-C1", "D3-D4", "I1-I2", "D6-D5", "H4-I3", "D5-E4", "J2-I12", "G11-I11",
    "I12-G1", "E4-F3", "G1-F3", "I11-J11", "I3-H2", "F7-F6", "F3-D4", "E5-D4", "G2-G4", "D4-D3",
    "C1-C2", "D3-C2", "B1-C2", "L5-L4", "C2-C3", "F6-F5", "G4-F5", "B9-F5", "A12-A1", "F5-B9",
    "D2-D4", "J11-I11", "D4-D5", "B7-B8", "H2-I3", "I11-J11",
];

/// The game `variant` after `moves` (canonical texts).
fn replay(variant: &str, moves: &[&str]) -> Box<dyn AnyGame> {
    let mut g = find(variant)
        .expect("variant")
        .open(None, &RuleOptions::default())
        .expect("start");
    for m in moves {
        g.push(m).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
    g
}

/// The idle turns the evaluation `eval` finds at the end of `game`, as canonical texts.
fn idle<P: Position, E: Evaluator<P>>(game: &dyn AnyGame, eval: &E) -> Vec<String> {
    let g = game.as_any().downcast_ref::<Game<P>>().expect("typed game");
    let positions = g.positions();
    let earlier: Vec<(P, P::Move)> = positions[..positions.len() - 1]
        .iter()
        .cloned()
        .zip(g.moves().iter().copied())
        .collect();
    let root = g.position();
    let mut moves = Vec::new();
    root.legal_moves(&mut moves);
    let mut out: Vec<String> = eval
        .idle_moves(root, &earlier, &moves)
        .into_iter()
        .map(|(m, margin)| {
            assert_eq!(margin, menagerie_variants::eval::IDLE_MARGIN);
            root.move_text(m)
        })
        .collect();
    out.sort();
    out
}

/// The engine's move at the end of `game` with `nodes` nodes on one thread (reproducible).
fn engine_move(game: &dyn AnyGame, nodes: u64) -> String {
    let mut engine = Engine::new(16);
    engine
        .search(game, &Limits::nodes(nodes), None, &mut |_| {})
        .best
        .expect("a move")
}

#[test]
fn imperial_never_reinspects_a_certified_civilian_when_progress_scores_about_the_same() {
    let g = replay("little-cheops-imperial", IMPERIAL_GAME_1);
    assert_eq!(g.turn(), Color::Black);
    assert!(g.legal_moves().contains(&"inspect:d4".to_string()));
    // Only the re-inspection: Black's last turn was that inspection, no step to undo.
    assert_eq!(
        idle::<CheopsPosition, _>(&*g, &CheopsEval::default()),
        ["inspect:d4"]
    );
    let mv = engine_move(&*g, 20_000);
    assert_ne!(mv, "inspect:d4");
    // White's answer may not step its King back from e1 to f1 either (47. f1e1).
    let mut g = g;
    g.push(&mv).expect("engine move");
    let white_idle = idle::<CheopsPosition, _>(&*g, &CheopsEval::default());
    assert!(white_idle.contains(&"e1f1".to_string()), "{white_idle:?}");
    let answer = engine_move(&*g, 20_000);
    assert!(!white_idle.contains(&answer), "{answer} in {white_idle:?}");
}

#[test]
fn common_does_not_step_straight_back_when_progress_scores_about_the_same() {
    let g = replay("little-cheops", COMMON_GAME_3);
    assert_eq!(
        idle::<CheopsPosition, _>(&*g, &CheopsEval::default()),
        ["h6e3"]
    );
    assert_ne!(engine_move(&*g, 20_000), "h6e3");
}

#[test]
fn vyrt_does_not_step_straight_back_when_progress_scores_about_the_same() {
    let g = replay("vyrt", VYRT_GAME_5);
    assert_eq!(
        idle::<VyrtPosition, _>(&*g, &VyrtEval::default()),
        ["I3-H2"]
    );
    assert_ne!(engine_move(&*g, 20_000), "I3-H2");
}

#[test]
fn chess_marks_no_turn_idle() {
    // Chess keeps its own repetition rule and evaluation: the search there is unchanged.
    let g = replay("chess", &["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6"]);
    let eval = menagerie_variants::eval::chess::ChessEval;
    assert!(idle::<menagerie_chess::Chess, _>(&*g, &eval).is_empty());
}

/// After `cycle` (two turns out and two straight back, so the start position stands again),
/// the score the search gives replaying the cycle's first turn, which repeats the position
/// after it: without and with a contempt of 40 cp.
fn repetition_scores<P: Position, E: Evaluator<P> + Clone>(
    variant: &str,
    cycle: [&str; 4],
    eval: &E,
) -> (Score, Score) {
    let g = replay(variant, &cycle);
    let typed = g.as_any().downcast_ref::<Game<P>>().expect("typed game");
    let positions = typed.positions();
    // The cycle brought the start position back.
    assert_eq!(positions[0].key(), positions[4].key());
    let history: Vec<u64> = positions[..4].iter().map(|p| p.key()).collect();
    let root = typed.position();
    let again = root.parse_move(cycle[0]).expect("the first turn again");
    let mut scores = Vec::new();
    for contempt in [None, Some(40)] {
        let mut searcher = menagerie_engine::Searcher::new(eval.clone(), 1);
        searcher.restrict_root(vec![again]);
        let limits = Limits {
            depth: Some(4),
            contempt,
            ..Limits::default()
        };
        scores.push(searcher.search(root, &history, &limits, |_| {}).last.score);
    }
    (scores[0], scores[1])
}

#[test]
fn a_repetition_scores_as_the_draw_it_leads_to_in_every_game() {
    // Whatever the rulebook's count (chess and Vyrt: threefold; Little Cheops: the third
    // occurrence, R36), a side that can repeat a position can repeat it again: the search
    // scores the first repetition as the draw, less the contempt against a weaker opponent.
    let draw = (Score::Cp(0), Score::Cp(-40));
    let chess = menagerie_variants::eval::chess::ChessEval;
    assert_eq!(
        repetition_scores::<menagerie_chess::Chess, _>(
            "chess",
            ["g1f3", "g8f6", "f3g1", "f6g8"],
            &chess
        ),
        draw
    );
    assert_eq!(
        repetition_scores::<VyrtPosition, _>(
            "vyrt",
            ["B1-C3", "B8-C6", "C3-B1", "C6-B8"],
            &VyrtEval::default()
        ),
        draw
    );
    assert_eq!(
        repetition_scores::<CheopsPosition, _>(
            "little-cheops",
            ["c4c3", "c6c7", "c3c4", "c7c6"],
            &CheopsEval::default()
        ),
        draw
    );
    assert_eq!(
        repetition_scores::<CheopsPosition, _>(
            "little-cheops-imperial",
            ["d4d5", "d10d9", "d5d4", "d9d10"],
            &CheopsEval::default()
        ),
        draw
    );
}
