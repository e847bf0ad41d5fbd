//! Illegal moves are refused with the rule that forbids them.

mod common;
use common::*;
use menagerie_core::{MoveError, Position};

fn reason(fen: &str, text: &str) -> String {
    let p = pos(fen);
    match p.parse_move(text) {
        Err(MoveError::Illegal { reason, .. }) => {
            assert_eq!(p.explain_illegal(text).as_deref(), Some(reason.as_str()));
            reason
        }
        other => panic!("{text}: expected an illegal-move error, got {other:?}"),
    }
}

fn says(fen: &str, text: &str, part: &str) {
    let r = reason(fen, text);
    assert!(r.contains(part), "{text}: '{r}' should contain '{part}'");
}

const T7: &str = "1s8/7k2/6b3/2N7/4r5/10/4Q5/10/10/8K1/4S5 w - Ii 0+0 0/0 0 1";
const T9: &str = "1s8/8k1/10/10/6p3/1R3B2r1/10/10/10/2K7/4S5 b - Ii 0+0 0/0 0 1";
const T22: &str = "4s3R1/10/5k4/9R/10/10/10/9r/10/2K7/4S5 b - Ii 0+0 0/0 0 1";
const START: &str = menagerie_cypher::START_FEN;

#[test]
fn sanctuary_of_field_pieces() {
    assert_eq!(
        reason(T7, "d4-d6"),
        "a Field queen cannot capture a Field rook: sanctuary (a re-take is allowed only on the very next turn after a Border or Court piece's capture)"
    );
    // The inventor's notation names the same rule.
    says(
        T7,
        "Qxd6",
        "a Field queen cannot capture a Field rook: sanctuary",
    );
}

#[test]
fn border_sanctuary() {
    assert_eq!(
        reason(T9, "h5-e5"),
        "a Border bishop can be taken only by a pawn: sanctuary"
    );
}

#[test]
fn court_pieces_and_the_spy() {
    says(
        T22,
        "i3-i7",
        "a man in Court can be taken only by the enemy Spy",
    );
    says(T22, "d10-i10", "blocked by the White rook on h10");
    // A Field Spy captures nothing.
    let fen = "10/8k1/10/10/10/4s1R3/10/10/10/2K7/4S5 b - Ii 0+0 0/0 0 1";
    says(
        fen,
        "d5-f5",
        "the Spy captures only when it starts its move in Court",
    );
    let fen = "4s5/8k1/10/10/10/4R5/10/10/10/2K7/9S b - Ii 0+0 0/0 0 1";
    says(fen, "d10-d5", "the Spy may not capture outside Court");
}

#[test]
fn check_and_court_entry() {
    let t14 = "10/8k1/10/10/4s1p3/10/5K4/10/10/10/4S5 w - Ii 0+0 0/0 0 1";
    assert_eq!(reason(t14, "e4-e5"), "the King would be in check");
    let t27 = "9s/10/8k1/10/10/10/10/10/10/1K8/4S5 w - Ii 0+0 0/0 0 1";
    says(t27, "a1-z1", "while the enemy Spy is in Court");
    says(
        START,
        "b1-b0",
        "a Field rook may enter Court only as the second half of a combined move",
    );
    says(START, "Nxa0", "enter Court");
}

#[test]
fn knights_by_sector() {
    let field = "4s5/7k2/10/10/10/10/5N4/10/10/2K7/4S5 w - Ii 0+0 0/0 0 1";
    says(field, "e4-f7", "a Field knight leaps only the ordinary L");
    let court = "4s5/7k2/10/10/10/10/N9/10/10/2K7/4S5 w - Ii 0+0 0/0 0 1";
    says(court, "z4-b5", "a Court knight leaps only the extended L");
}

#[test]
fn combined_moves() {
    let t6 = "4s5/7k2/10/10/10/10/10/2Q7/7K2/10/4S5 w - Ii 0+0 0/0 0 1";
    says(t6, "b3-z3", "enter Court only as the second half");
    says(t6, "d0-a3/b3-z3", "the Spy moves first");
    says(t6, "d0-d1/b3-e0", "blocked by the White Spy on d1");
    says(t6, "d0-d9/b3-z3", "the Spy's move ends the game at once");
    says(START, "d0-d1/d2-d0", "ends the game at once");
}

#[test]
fn infiltration_and_pawns() {
    let t20 = "4s5/10/8k1/10/10/10/5K4/10/10/1R8/4S5 w - Ii 0+0 0/0 0 1";
    says(t20, "e4-e5*a1-d0", "d0 holds your own Spy");
    says(
        t20,
        "e4-d5*a1-d10",
        "the King's step must be legal by itself",
    );
    let t25 = "4s5/10/8k1/10/10/r5p3/1P1P6/5P4/10/2K7/4S5 w - Ii 0+0 0/0 0 1";
    says(t25, "a4-z5", "pawns never");
    says(t25, "c4-c6", "only a pawn on its starting rank");
    let t25b = "10/10/8k1/10/10/5s4/4P5/10/10/2K7/4S5 w - Ii 0+0 0/0 0 1";
    says(t25b, "d4-e5", "no man captures a Spy");
    let t19 = "1s8/10/10/10/4k5/10/10/10/10/2K7/9S w - Ii 0+0 1/0 0 1";
    says(t19, "P@c5", "would give check");
    says(START, "P@c5", "pool is empty");
    let t18 = "4s5/10/2n3P3/4k3r1/1q8/10/10/10/10/2K7/9S w - Ii 0+0 0/0 0 1";
    says(t18, "f8-f9(h7)", "the queen on a6");
    let t35 = "1s8/8k1/10/10/10/4Kr4/10/10/10/10/4S5 w - Ii 0+1 1/0 0 1";
    says(
        t35,
        "P@a5",
        "no prisoner release while your King is in check",
    );
    says(t35, "d5-e5", "a Border rook can be taken only by a pawn");
}

#[test]
fn the_reason_for_a_retake_that_came_too_late() {
    let t7b = "1s8/7k2/6b3/2N7/4r5/4Q5/10/10/10/8K1/4S5 w - Ii 0+0 0/0 0 1";
    let p = play(&pos(t7b), "d5-d6 g9-h9 h1-g1");
    let r = p.explain_illegal("f8-d6").unwrap_or_default();
    assert!(
        r.starts_with("a Field bishop cannot capture a Field queen: sanctuary"),
        "{r}"
    );
    let p = play(&pos(t7b), "d5-d6 f8-d6");
    let r = p.explain_illegal("b7-d6").unwrap_or_default();
    assert!(
        r.starts_with("a Field knight cannot capture a Field bishop: sanctuary"),
        "{r}"
    );
}

#[test]
fn legal_moves_have_no_explanation_and_garbage_is_not_a_move() {
    let p = pos(START);
    assert_eq!(p.explain_illegal("d3-d5"), None);
    assert_eq!(p.explain_illegal("Nh2"), None);
    assert!(matches!(
        p.parse_move("hello"),
        Err(MoveError::Syntax { .. })
    ));
}
