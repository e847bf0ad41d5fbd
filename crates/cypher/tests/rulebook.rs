//! Every test case of rulebook section 17, one test each.

mod common;
use common::*;
use menagerie_core::{Color, Position};
use menagerie_cypher::{CypherPosition, Sector, START_FEN};

const SAME_START: &str = START_FEN;

#[test]
fn t1_sectors() {
    let p = pos(SAME_START);
    let g = p.geometry();
    let sector = |s: &str| CypherPosition::sector(g.parse_square(s).expect("square").index());
    for s in ["z5", "i5", "d0", "i10", "z0"] {
        assert_eq!(sector(s), Sector::Court, "{s}");
    }
    for s in ["a5", "h5"] {
        assert_eq!(sector(s), Sector::Border, "{s}");
    }
    for s in ["e4", "h9", "a1", "h4", "a6"] {
        assert_eq!(sector(s), Sector::Field, "{s}");
    }
    let count = |name: &str| g.region(name).map(|r| r.squares().count());
    assert_eq!(count("Court"), Some(38));
    assert_eq!(count("Border"), Some(8));
    assert_eq!(count("Field"), Some(64));
}

#[test]
fn t2_start_position() {
    let p = pos(SAME_START);
    let expected = [
        "a3-a4", "a3-a5", "b1-a1", "b1-b2", "b3-b4", "b3-b5", "c1-a2", "c2-d1", "c3-c4", "c3-c5",
        "d0-a0", "d0-b0", "d0-c0", "d0-d1", "d0-e0", "d0-e1", "d0-f0", "d0-g0", "d0-h0", "d0-i0",
        "d0-z0", "d2-d1", "d2-e1", "d3-d4", "d3-d5", "e2-d1", "e2-e1", "e3-e4", "e3-e5", "f1-h2",
        "f2-e1", "f3-f4", "f3-f5", "g1-g2", "g1-h1", "g3-g4", "g3-g5", "h3-h4", "h3-h5",
    ];
    assert_eq!(all(&p), strings(&expected));
    assert_not_legal(&p, &["c1-a0", "c1-e0", "b1-b0", "b1-z1", "d0-d1/d2-d0"]);
    for m in ["d0-d1", "d0-e1", "e2-d1", "e2-e1"] {
        assert_ending(
            &play(&p, m),
            "Black wins: flip: White's King stands next to its own Spy",
        );
    }
    let after = play(&p, "d3-d5");
    assert!(after.outcome().is_none() && !after.is_check());
    assert_eq!(human(&p, "d3-d5"), "d5");
    assert_eq!(human(&p, "d0-d1"), "Sd1(flip)");
    assert_eq!(human(&p, "f1-h2"), "Nh2");
    assert_eq!(p.perft(1), 39);
    assert_eq!(p.perft(2), 1357);
    assert_eq!(p.perft(3), 54974);
}

#[test]
fn t3_field_knight() {
    let p = pos("4s5/7k2/10/10/10/10/5N4/10/10/2K7/4S5 w - Ii 0+0 0/0 0 1");
    assert_eq!(
        of(&p, "e4"),
        strings(&["e4-c3", "e4-c5", "e4-d2", "e4-d6", "e4-f2", "e4-f6", "e4-g3", "e4-g5"])
    );
    assert_not_legal(&p, &["e4-f7"]);
}

#[test]
fn t4_court_knight() {
    let p = pos("4s5/7k2/10/10/10/10/N9/10/10/2K7/4S5 w - Ii 0+0 0/0 0 1");
    assert_eq!(of(&p, "z4"), strings(&["z4-a1", "z4-a7", "z4-c3", "z4-c5"]));
    assert_not_legal(&p, &["z4-a2", "z4-a6", "z4-b3", "z4-b5"]);
}

#[test]
fn t5_border_knight() {
    let p = pos("4s5/7k2/10/10/10/4N5/10/10/10/2K7/4S5 w - Ii 0+0 0/0 0 1");
    assert_eq!(
        of(&p, "d5"),
        strings(&[
            "d5-a4", "d5-a6", "d5-b4", "d5-b6", "d5-c2", "d5-c3", "d5-c7", "d5-c8", "d5-e2",
            "d5-e3", "d5-e7", "d5-e8", "d5-f4", "d5-f6", "d5-g4", "d5-g6"
        ])
    );
}

#[test]
fn t5b_border_knight_checks_with_extended_l() {
    let p = pos("4s5/10/5k4/10/10/4N5/10/10/10/2K7/4S5 b - Ii 1+0 0/0 0 1");
    assert!(p.is_check());
    assert_eq!(
        all(&p),
        strings(&["e8-d7", "e8-d8", "e8-d9", "e8-e9", "e8-f7", "e8-f8", "e8-f9"])
    );
}

#[test]
fn t6_spy_exit_lets_one_piece_in() {
    let p = pos("4s5/7k2/10/10/10/10/10/2Q7/7K2/10/4S5 w - Ii 0+0 0/0 0 1");
    assert_eq!(all(&p).len(), 159);
    assert_legal(&p, &["d0-d4/b3-z3", "d0-b2/b3-z3", "d0-d4"]);
    assert_not_legal(&p, &["b3-z3", "d0-a3/b3-z3", "d0-d1/b3-e0", "d0-d9/b3-z3"]);
    assert_eq!(human(&p, "d0-d4/b3-z3"), "Sd4/Qz3");
    assert_eq!(human(&p, "d0-d9"), "Sd9(flip)");
}

#[test]
fn t7_field_majors_cannot_take_each_other() {
    let p = pos("1s8/7k2/6b3/2N7/4r5/10/4Q5/10/10/8K1/4S5 w - Ii 0+0 0/0 0 1");
    assert_not_legal(&p, &["d4-d6"]);
}

#[test]
fn t7b_retake() {
    let p = pos("1s8/7k2/6b3/2N7/4r5/4Q5/10/10/10/8K1/4S5 w - Ii 0+0 0/0 0 1");
    assert_legal(&p, &["d5-d6"]);
    let after = play(&p, "d5-d6");
    assert_eq!(
        after.fen(),
        "1s8/7k2/6b3/2N7/4Q5/10/10/10/10/8K1/4S5 b d6 Ii 0+0 0/0 0 1"
    );
    assert_legal(&after, &["f8-d6"]);
    assert_not_legal(&play(&p, "d5-d6 f8-d6"), &["b7-d6"]);
    assert_not_legal(&play(&p, "d5-d6 g9-h9 h1-g1"), &["f8-d6"]);
    assert_eq!(human(&p, "d5-d6"), "Qxd6");
}

#[test]
fn t8_no_retake_after_a_pawn_capture() {
    let p = pos("1s8/8k1/2q7/5p4/4p5/10/10/10/4R5/8K1/4S5 w - Ii 0+0 0/0 0 1");
    assert_legal(&p, &["d2-d6"]);
    let after = play(&p, "d2-d6");
    assert_eq!(
        after.fen(),
        "1s8/8k1/2q7/5p4/4R5/10/10/10/10/8K1/4S5 b - Ii 0+0 0/1 0 1"
    );
    assert_legal(&after, &["e7-d6"]);
    assert_not_legal(&after, &["b8-d6"]);
}

#[test]
fn t9_border_sanctuary_black() {
    let p = pos("1s8/8k1/10/10/6p3/1R3B2r1/10/10/10/2K7/4S5 b - Ii 0+0 0/0 0 1");
    assert_eq!(all(&p).len(), 57);
    assert_legal(&p, &["f6-e5", "a10-f5/h5-h0", "a10-g4/h5-i5"]);
    assert_not_legal(&p, &["h5-e5"]);
}

#[test]
fn t9b_border_sanctuary_white() {
    let p = pos("1s8/8k1/10/10/6p3/1R3B2r1/10/10/10/2K7/4S5 w - Ii 0+0 0/0 0 1");
    assert_eq!(
        of(&p, "a5"),
        strings(&[
            "a5-a1", "a5-a2", "a5-a3", "a5-a4", "a5-a6", "a5-a7", "a5-a8", "a5-a9", "a5-b5",
            "a5-c5", "a5-d5"
        ])
    );
}

#[test]
fn t10_border_king_checked_by_border_rook() {
    let p = pos("1s8/8k1/10/10/10/4Kr4/10/10/10/10/4S5 w - Ii 0+1 0/0 0 1");
    assert!(p.is_check());
    assert_eq!(all(&p), strings(&["d5-c4", "d5-c6", "d5-d4", "d5-d6"]));
}

#[test]
fn t10b_rook_on_h5() {
    let p = pos("1s8/8k1/10/10/10/4K3r1/10/10/10/10/4S5 w - Ii 0+1 0/0 0 1");
    assert!(p.is_check());
    assert_eq!(
        all(&p),
        strings(&["d5-c4", "d5-c6", "d5-d4", "d5-d6", "d5-e4"])
    );
}

#[test]
fn t11_field_kings_touch_border_king_checks() {
    let p = pos("1s8/10/10/10/10/10/4Kk4/10/10/10/4S5 w - Ii 0+0 0/0 0 1");
    assert_legal(&p, &["d4-d5", "d4-e5", "d4-e3"]);
    let a = play(&p, "d4-d5");
    assert!(a.outcome().is_none() && a.is_check());
    let b = play(&p, "d4-e3");
    assert!(b.outcome().is_none() && !b.is_check());
    assert_eq!(human(&p, "d4-d5"), "Kd5+");
}

#[test]
fn t11b_field_king_next_to_border_king() {
    let p = pos("1s8/10/10/10/5k4/4K5/10/10/10/10/4S5 b - Ii 1+0 0/0 0 1");
    assert!(p.is_check());
    assert_eq!(
        all(&p),
        strings(&["e6-d7", "e6-e7", "e6-f5", "e6-f6", "e6-f7"])
    );
}

#[test]
fn t12_field_queen_does_not_check() {
    assert!(!pos("1s8/10/10/5k4/10/10/5Q4/10/10/2K7/4S5 b - Ii 0+0 0/0 0 1").is_check());
}

#[test]
fn t12b_border_queen_checks() {
    assert!(pos("1s8/10/10/5k4/10/5Q4/10/10/10/2K7/4S5 b - Ii 1+0 0/0 0 1").is_check());
}

#[test]
fn t12c_collusion_across_the_border() {
    let p = pos("1s8/10/10/5k4/10/10/5Q4/10/10/2K7/4S5 w - Ii 0+0 0/0 0 1");
    let a = play(&p, "d0-d3");
    assert!(a.outcome().is_none() && a.is_check());
    assert_eq!(human(&p, "d0-d3"), "Sd3+");
}

#[test]
fn t13_king_flips_colluding_spy() {
    let p = pos("1s8/10/5k4/10/3BS5/10/10/10/10/2K7/10 b - Ii 1+0 0/0 0 1");
    assert!(p.is_check());
    assert_eq!(all(&p), strings(&["e8-e7", "e8-e9", "e8-f7"]));
    assert_ending(
        &play(&p, "e8-e7"),
        "Black wins: flip: Black's King flipped White's Spy",
    );
    assert_eq!(human(&p, "e8-e7"), "Ke7(flip)");
}

#[test]
fn t13b_flip_square_covered_by_second_colluder() {
    let p = pos("1s8/10/5k4/10/3BSR4/10/10/10/10/2K7/10 b - Ii 1+0 0/0 0 1");
    assert!(p.is_check());
    assert_eq!(all(&p), strings(&["e8-f7"]));
}

#[test]
fn t14_king_flips_spy_unless_covered() {
    let p = pos("10/8k1/10/10/4s1p3/10/5K4/10/10/10/4S5 w - Ii 0+0 0/0 0 1");
    assert_legal(&p, &["e4-d5"]);
    assert_not_legal(&p, &["e4-e5"]);
    assert_ending(
        &play(&p, "e4-d5"),
        "White wins: flip: White's King flipped Black's Spy",
    );
    assert_eq!(human(&p, "e4-d5"), "Kd5(flip)");
}

#[test]
fn t15_spy_next_to_enemy_king_loses() {
    let p = pos("1s8/10/5k4/10/10/10/1S8/10/10/2K7/10 w - Ii 0+0 0/0 0 1");
    assert_ending(
        &play(&p, "a4-d7"),
        "Black wins: flip: Black's King flipped White's Spy",
    );
}

#[test]
fn t15b_self_flip_illegal_option() {
    let p = pos_with(
        "1s8/10/5k4/10/10/10/1S8/10/10/2K7/10 w - Ii 0+0 0/0 0 1",
        &["self-flip=illegal"],
    );
    assert_legal(&p, &["a4-c6"]);
    assert_not_legal(&p, &["a4-d7"]);
}

#[test]
fn t16_unblocking_a_court_line() {
    let p = pos("9s/3k6/10/10/5P4/10/10/10/10/K9/4S5 w - Ii 0+0 0/0 0 1");
    assert_ending(
        &play(&p, "e6-e7"),
        "Black wins: flip: Black's Court Spy flipped White's Court King",
    );
}

#[test]
fn t16b_field_spy_does_not_block_a_flip_line() {
    let p = pos("9s/3k6/10/10/5S4/10/10/10/10/K9/10 w - Ii 0+0 0/0 0 1");
    assert!(all(&p).is_empty());
    assert_ending(
        &p,
        "Black wins: flip: Black's Court Spy flipped White's Court King",
    );
}

#[test]
fn t17_game_end_between_the_halves() {
    let p = pos("10/10/8k1/10/10/10/4R5/10/10/10/3K1S2s1 w - Ii 0+0 0/0 0 1");
    assert_eq!(all(&p).len(), 40);
    assert_legal(&p, &["e0-e3", "e0-f0", "c0-b1"]);
    assert_not_legal(&p, &["e0-e3/d4-d0", "c0-b0", "c0-d0"]);
    assert_ending(
        &play(&p, "e0-e3"),
        "Black wins: flip: Black's Court Spy flipped White's Court King",
    );
    let f0 = play(&p, "e0-f0");
    assert!(f0.outcome().is_none() && !f0.is_check());
    assert_ending(
        &play(&p, "e0-d0"),
        "Black wins: flip: White's King stands next to its own Spy",
    );
    assert_ending(
        &play(&p, "e0-g0"),
        "Black wins: flip: White's Spy landed next to the other Spy",
    );
}

#[test]
fn t18_coup_detat() {
    let p = pos("4s5/10/2n3P3/4k3r1/1q8/10/10/10/10/2K7/9S w - Ii 0+0 0/0 0 1");
    assert_eq!(of(&p, "f8"), strings(&["f8-f9(a6)"]));
    let after = play(&p, "f8-f9(a6)");
    assert_eq!(
        after.fen(),
        "4s5/10/2n7/4k3r1/1Q8/10/10/10/10/2K7/9S b - Ii 0+0 0/0 0 1"
    );
    assert!(!after.is_check());
    assert_eq!(human(&p, "f8-f9(a6)"), "f9(Qa6)");
}

#[test]
fn t18b_coup_choice() {
    let p = pos("4s5/10/2n3P3/4k3r1/1r8/10/10/10/10/2K7/9S w - Ii 0+0 0/0 0 1");
    assert_eq!(of(&p, "f8"), strings(&["f8-f9(a6)", "f8-f9(h7)"]));
}

#[test]
fn t19_prisoner_release() {
    let p = pos("1s8/10/10/10/4k5/10/10/10/10/2K7/9S w - Ii 0+0 1/0 0 1");
    assert_legal(&p, &["P@a5", "P@b5", "P@d5", "P@f5", "P@g5", "P@h5"]);
    assert_not_legal(&p, &["P@c5", "P@e5"]);
    assert_eq!(
        play(&p, "P@d5").fen(),
        "1s8/10/10/10/4k5/4P5/10/10/10/2K7/9S b - Ii 0+0 0/0 0 1"
    );
    assert_eq!(human(&p, "P@d5"), "PRd5");
}

#[test]
fn t20_infiltration_removes_the_spy() {
    let p = pos("4s5/10/8k1/10/10/10/5K4/10/10/1R8/4S5 w - Ii 0+0 0/0 0 1");
    assert_eq!(all(&p).len(), 93);
    assert_legal(
        &p,
        &["e4-e5*a1-d10", "e4-f5*a1-d10", "d0-d2/a1-i1", "d0-a3/a1-z1"],
    );
    assert_not_legal(
        &p,
        &[
            "e4-e5*a1-d0",
            "e4-d5",
            "e4-d5*a1-d10",
            "d0-d3/a1-a0",
            "d0-a3/a1-a10",
            "d0-c1/a1-i1",
        ],
    );
    assert_eq!(
        play(&p, "e4-e5*a1-d10").fen(),
        "4R5/10/8k1/10/10/5K4/10/10/10/10/4S5 b - i 0+0 0/0 0 1"
    );
    assert_eq!(human(&p, "e4-e5*a1-d10"), "Ke5**Rd10");
}

#[test]
fn t20b_infiltration_captures_the_king() {
    let p = pos("1s2k5/10/10/10/10/10/5K4/10/10/1R8/9S w - Ii 0+0 0/0 0 1");
    assert_legal(&p, &["e4-e5*a1-d10", "e4-e5*a1-d0"]);
    let after = play(&p, "e4-e5*a1-d10");
    assert_ending(
        &after,
        "White wins: King captured by infiltration; points White 3, Black 0",
    );
    assert_eq!(human(&p, "e4-e5*a1-d10"), "Ke5**Rd10#");
    // The final position string is valid and reads back.
    assert_eq!(pos(&after.fen()).fen(), after.fen());
}

#[test]
fn t20c_infiltration_once_per_game() {
    let p = pos("1s8/10/8k1/10/10/10/5K4/10/10/1R6N1/9S w - Ii 0+0 0/0 0 1");
    assert_legal(&p, &["e4-e5*a1-d10", "e4-e5*h1-d0", "e4-e5*h1-d10"]);
    let later = play(&p, "e4-e5*a1-d10 h8-h7");
    assert_legal(&later, &["e5-d5", "e5-d4"]);
    assert_not_legal(&later, &["e5-d5*h1-d0", "e5-d5*h1-d10", "e5-f5"]);
}

#[test]
fn t21_retake_across_the_border() {
    let p = pos("1s8/7k2/10/2n7/10/2Q7/10/10/2r7/8K1/4S5 w - Ii 0+0 0/0 0 1");
    assert_legal(&p, &["b5-b7"]);
    let after = play(&p, "b5-b7");
    assert_eq!(
        after.fen(),
        "1s8/7k2/10/2Q7/10/10/10/10/2r7/8K1/4S5 b b7 Ii 0+0 0/0 0 1"
    );
    assert_legal(&after, &["b2-b7"]);
}

#[test]
fn t22_spy_captures_in_court() {
    let p = pos("4s3R1/10/5k4/9R/10/10/10/9r/10/2K7/4S5 b - Ii 0+0 0/0 0 1");
    assert_legal(&p, &["d10-h10"]);
    assert_not_legal(&p, &["i3-i7", "d10-i10"]);
    assert_eq!(human(&p, "d10-h10"), "Sxh10");
}

#[test]
fn t23_spy_blocks_movement() {
    let p = pos("10/8k1/10/10/10/10/R2s1n4/10/10/2K7/7S2 w - Ii 0+0 0/0 0 1");
    assert_legal(&p, &["z4-b4"]);
    assert_not_legal(&p, &["z4-e4", "z4-c4", "z4-d4"]);
}

#[test]
fn t23b_spy_does_not_block_check() {
    assert!(pos("10/10/10/10/10/10/R2s1k4/10/10/2K7/7S2 b - Ii 1+0 0/0 0 1").is_check());
}

#[test]
fn t24_only_a_spy_threatens_a_court_king() {
    let p = pos("10/10/r4k4/10/5s4/2b7/10/K9/10/10/4S5 w - Ii 0+0 0/0 0 1");
    assert!(!p.is_check());
    assert_eq!(of(&p, "z3"), strings(&["z3-a2", "z3-a3", "z3-z2", "z3-z4"]));
}

#[test]
fn t25_pawns() {
    let p = pos("4s5/10/8k1/10/10/r5p3/1P1P6/5P4/10/2K7/4S5 w - Ii 0+0 0/0 0 1");
    assert_eq!(of(&p, "e3"), strings(&["e3-e4", "e3-e5"]));
    assert_eq!(of(&p, "a4"), strings(&["a4-a5"]));
    assert_eq!(of(&p, "c4"), strings(&["c4-c5"]));
    assert_legal(&play(&p, "e3-e4 h8-h7"), &["e4-f5"]);
    assert_not_legal(&play(&p, "e3-e5"), &["f5-e4"]);
    assert_not_legal(&play(&p, "e3-e4 h8-h7"), &["e4-e6"]);
}

#[test]
fn t25b_pawn_cannot_take_a_spy() {
    let p = pos("10/10/8k1/10/10/5s4/4P5/10/10/2K7/4S5 w - Ii 0+0 0/0 0 1");
    assert_eq!(of(&p, "d4"), strings(&["d4-d5"]));
}

#[test]
fn t26_court_to_court_across_the_board() {
    let p = pos("4s5/8k1/10/10/10/10/R9/10/10/2K7/7S2 w - Ii 0+0 0/0 0 1");
    assert_legal(&p, &["z4-i4", "z4-d4", "z4-z10"]);
}

#[test]
fn t27_king_entry_barred() {
    let p = pos("9s/10/8k1/10/10/10/10/10/10/1K8/4S5 w - Ii 0+0 0/0 0 1");
    assert_eq!(of(&p, "a1"), strings(&["a1-b1", "a1-b2"]));
}

#[test]
fn t27b_king_entry_allowed() {
    let p = pos("10/10/8k1/10/5s4/10/10/10/10/1K8/4S5 w - Ii 0+0 0/0 0 1");
    assert_legal(&p, &["a1-z1", "a1-a0"]);
}

#[test]
fn t28_four_check_rule() {
    let p = pos("4s5/10/5k4/R9/10/10/10/10/10/2K7/4S5 w - Ii 3+0 0/0 0 1");
    assert_ending(
        &play(&p, "z7-z8"),
        "draw: 4-check rule; points White 0.5, Black 0.5",
    );
    assert_eq!(human(&p, "z7-z8"), "Rz8//");
}

#[test]
fn t28b_fourth_check_that_mates() {
    let p = pos("4s5/1k8/R9/9R/10/10/10/10/10/2K7/4S5 w - Ii 3+0 0/0 0 1");
    assert_ending(
        &play(&p, "i7-i9"),
        "White wins: checkmate without collusion; points White 4, Black 0",
    );
    assert_eq!(human(&p, "i7-i9"), "Ri9#+");
}

#[test]
fn t29_field_king_takes_colluding_checker() {
    let p = pos("10/8k1/10/10/10/10/5bs3/4K5/10/5R4/4S5 w - Ii 0+1 0/0 0 1");
    assert!(p.is_check());
    assert_eq!(
        of(&p, "d3"),
        strings(&["d3-c3", "d3-c4", "d3-d4", "d3-e2", "d3-e3", "d3-e4"])
    );
    assert!(of(&p, "e1").is_empty());
    assert_ending(
        &play(&p, "d3-e4"),
        "White wins: flip: White's King flipped Black's Spy",
    );
}

#[test]
fn t30_flip_precedence() {
    let p = pos("10/k9/10/10/10/10/10/10/10/10/K4S2s1 w - Ii 0+0 0/0 0 1");
    assert_ending(
        &play(&p, "e0-z5"),
        "Black wins: flip: Black's Court Spy flipped White's Court King",
    );
}

#[test]
fn t31_check_first() {
    let p = pos("1s8/10/10/9k/10/5r4/10/5K4/10/10/3S6 w - Ii 0+1 0/0 0 1");
    assert!(p.is_check());
    assert_eq!(
        all(&p),
        strings(&["e3-d2", "e3-d3", "e3-d4", "e3-f2", "e3-f3", "e3-f4"])
    );
    assert_not_legal(&p, &["c0-i0"]);
}

#[test]
fn t32_infiltration_step_legal_by_itself() {
    let p = pos("1s2r5/10/8k1/10/10/10/3K6/10/10/1Q8/9S w - Ii 0+0 0/0 0 1");
    assert_legal(&p, &["c4-c5*a1-d10", "c4-b5*a1-d0"]);
    assert_not_legal(&p, &["c4-d5", "c4-d5*a1-d10"]);
}

#[test]
fn t33_mate_with_collusion() {
    let p = pos("4bbr3/5k4/9R/4Q5/10/10/8S1/10/10/2K7/s9 w - Ii 0+0 0/0 0 1");
    assert!(!p.is_check());
    assert_ending(
        &play(&p, "h4-e7"),
        "White wins: checkmate with collusion; points White 3, Black 0",
    );
    assert_eq!(human(&p, "h4-e7"), "Se7#");
}

#[test]
fn t34_coup_switches_a_pawn() {
    let p = pos("1s8/10/3P4k1/10/5p1p2/10/10/10/10/2K7/4S5 w - Ii 0+0 0/0 0 1");
    assert_eq!(of(&p, "c8"), strings(&["c8-c9(e6)", "c8-c9(g6)"]));
    assert_eq!(
        play(&p, "c8-c9(e6)").fen(),
        "1s8/10/8k1/10/5P1p2/10/10/10/10/2K7/4S5 b - Ii 0+0 0/0 0 1"
    );
}

#[test]
fn t34b_coup_with_nothing_to_switch() {
    let p = pos("1s8/10/3P4k1/10/10/10/10/10/10/2K7/4S5 w - Ii 0+0 0/0 0 1");
    assert_eq!(of(&p, "c8"), strings(&["c8-c9"]));
}

#[test]
fn t35_no_release_in_check() {
    let p = pos("1s8/8k1/10/10/10/4Kr4/10/10/10/10/4S5 w - Ii 0+1 1/0 0 1");
    assert_eq!(all(&p), strings(&["d5-c4", "d5-c6", "d5-d4", "d5-d6"]));
}

#[test]
fn v1_to_v8_refused_position_strings() {
    let cases = [
        ("4s5/2rn2nr2/3bqkb3/1pppppppp1/10/10/1PPPPPPPP1/3BQKB3/2RN2NR2/4S5 w - Ii 0+0 0/0 0 1", "board: expected 11 rows"),
        ("4s6/2rn2nr2/3bqkb3/1pppppppp1/10/10/10/1PPPPPPPP1/3BQKB3/2RN2NR2/4S5 w - Ii 0+0 0/0 0 1", "board: rank 10"),
        ("4s5/2rnP1nr2/3bqkb3/1pppppppp1/10/10/10/1PPP1PPPP1/3BQKB3/2RN2NR2/4S5 w - Ii 0+0 0/0 0 1", "board: a pawn cannot stand on d9"),
        ("1s8/8k1/10/10/10/4Kr4/10/10/10/10/4S5 w - Ii 0+0 0/0 0 1", "consecutive checks"),
        ("1s8/8k1/10/10/10/4Kr4/10/10/10/10/4S5 b - Ii 0+0 0/0 0 1", "board: the side that just moved (White) is in check"),
        ("4s5/2rn2nr2/3bqkb3/1pppppppp1/10/10/10/1PPPPPPPP1/3BQ1B3/2RN2NR2/4S5 w - Ii 0+0 0/0 0 1", "board: the White King is missing"),
        ("4s5/2rn2nr2/3bqkb3/1pppppppp1/10/10/10/1PPPPPPPP1/3BQKB3/2RN2NR2/4S5 w e4 Ii 0+0 0/0 0 1", "re-take square"),
        ("4s5/2rn2nr2/3bqkb3/1pppppppp1/10/10/10/1PPPPPPPP1/3BQKB3/2RN2NR2/4S5 w - Ii 0+0 0/0 0 1".replace("NR2/4S5", "NA2/4S5").leak(), "board: rank 1: unknown piece letter"),
    ];
    for (fen, start) in cases {
        let e = CypherPosition::from_fen_default(fen).expect_err(fen);
        let text = format!("{}: {}", e.field, e.message);
        assert!(
            text.starts_with(start),
            "{fen}: got '{text}', expected '{start}'"
        );
    }
}

#[test]
fn side_helpers() {
    let p = pos(SAME_START);
    assert_eq!(p.turn(), Color::White);
    assert!(p.can_infiltrate(Color::Black));
}
