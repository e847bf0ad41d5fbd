//! Every test case of the rulebook's §18, with exact move lists, endings and strings.

mod common;
use common::*;
use menagerie_cheops::{load_pieces, CheopsPosition, Style, DEFAULT_PIECES};
use menagerie_core::{Color, Position, RuleOptions, Termination};

const T1: &str = "tnnqkeiit/ppppppppp/9/2c3c2/9/2C3C2/9/PPPPPPPPP/TIIEKQNNT w 0 1";
const T2: &str = "tnnouqkedbiit/ppppppppppppp/2m1a3a1m2/3c5c3/13/13/13/13/13/3C5C3/2M1A3A1M2/PPPPPPPPPPPPP/TIIBDEKQUONNT w - - 0 1 -";

#[test]
fn t1_common_start() {
    assert_eq!(moves(C, T1).len(), 31);
    assert_legal(C, T1, "g1f3");
    assert_legal(C, T1, "c4b5");
    assert_legal(C, T1, "d1c3");
    assert_illegal(C, T1, "g1e2");
    assert_illegal(C, T1, "b1c2");
    assert_eq!(pos(C, T1).fen(), T1);
}

#[test]
fn t2_imperial_start() {
    assert_eq!(moves(I, T2).len(), 55);
    assert_legal(I, T2, "c3c12");
    assert_legal(I, T2, "k3k12");
    assert_legal(I, T2, "f1g3");
    assert_illegal(I, T2, "c3c11");
    assert_eq!(pos(I, T2).fen(), T2);
}

#[test]
fn t3_king_takes_only_unguarded() {
    assert_exact(
        C,
        "k3t4/9/9/4t4/3K5/9/9/9/9 w 0 1",
        &["d5c4", "d5c5", "d5d4"],
    );
}

#[test]
fn t4_master_screen_capture() {
    let f = "4k4/9/9/n8/9/9/P8/9/M3K4 w 0 1";
    assert_legal(C, f, "a1a6");
    assert_legal(C, f, "a1a2");
    assert_illegal(C, f, "a1a4");
    assert_illegal(C, f, "a1a3");
    assert_eq!(moves(C, f).len(), 11);
}

#[test]
fn t5_two_screens() {
    let f = "4k4/9/9/n8/9/p8/P8/9/M3K4 w 0 1";
    assert_illegal(C, f, "a1a6");
    assert_legal(C, f, "a1a4");
}

#[test]
fn t6_check_through_a_screen() {
    let f = "4k4/4t4/9/9/9/9/9/4M4/K8 b 0 1";
    assert!(pos(C, f).is_check());
    assert_exact(
        C,
        f,
        &[
            "e8a8", "e8b8", "e8c8", "e8d8", "e8e2", "e8f8", "e8g8", "e8h8", "e8i8", "e9d8", "e9d9",
            "e9f8", "e9f9",
        ],
    );
}

#[test]
fn t7_civilians_are_immune() {
    let f = "k8/9/9/3c5/9/3Q5/9/9/K8 w 0 1";
    assert_illegal(C, f, "d4d6");
    assert_legal(C, f, "d4d5");
    assert_illegal(C, f, "d4d7");
    assert_eq!(moves(C, f).len(), 28);
}

#[test]
fn t8_promotion() {
    let f = "9/4P4/9/7k1/9/9/9/9/K4Q3 w 0 1";
    assert_eq!(moves(C, f).len(), 37);
    assert_legal(C, f, "e8e9=Q");
    assert_legal(C, f, "e8e9=D");
    assert_legal(C, f, "e8e9=A");
    assert_illegal(C, f, "e8e9");
    assert_illegal(C, f, "e8e9=K");
    assert_illegal(C, f, "e8e9=C");
}

#[test]
fn t9_no_castles_in_common() {
    let f = "k2q5/9/9/9/2C1C4/3K5/2T1T4/9/9 w 0 1";
    assert!(pos(C, f).is_check());
    assert_exact(C, f, &["c5d5", "c5d6", "d4c4", "d4e4", "e5d5", "e5d6"]);
}

#[test]
fn t10a_castle_blocks_check() {
    let f = "12k/13/13/13/3q9/13/13/13/2C1C8/3K9/2T1T8/13/13 w d4:w@d4 - 0 1";
    assert!(!pos(I, f).is_check());
    assert_exact(I, f, &["d4c4", "d4d3", "d4d5", "d4e4"]);
}

#[test]
fn t10b_castle_closed_to_the_enemy() {
    let f = "12k/13/13/13/3q9/13/13/13/2C1C8/3K9/2T1T8/13/13 b d4:w@d4 - 0 1";
    assert_illegal(I, f, "d9d5");
    assert_legal(I, f, "d9d6");
    assert_eq!(moves(I, f).len(), 40);
}

#[test]
fn t11_stepping_onto_the_chair() {
    let f = "12k/13/13/13/3q9/13/13/13/2C1C8/13/2TKM8/13/13 w d4 - 0 1";
    assert!(pos(I, f).is_check());
    assert_exact(I, f, &["d3c2", "d3c4", "d3d4", "d3e2", "d3e4"]);
    assert_eq!(
        after(I, f, "d3d4"),
        "12k/13/13/13/3q9/13/13/13/2C1C8/3K9/2T1M8/13/13 b d4:w@d4 - 1 1 -"
    );
}

#[test]
fn t12a_non_noble_activator_leaves() {
    let f = "12k/13/13/13/13/13/13/13/2C1C8/3T9/2T1M8/13/K12 w d4:w@d4 - 0 1";
    assert_eq!(
        after(I, f, "d4d5"),
        "12k/13/13/13/13/13/13/13/2CTC8/13/2T1M8/13/K12 b d4 - 1 1 -"
    );
}

#[test]
fn t12b_noble_activator_keeps() {
    let f = "12k/13/13/13/13/13/13/13/2C1C8/3Q9/2T1M8/13/K12 w d4:w@d4 - 0 1";
    assert_eq!(
        after(I, f, "d4d5"),
        "12k/13/13/13/13/13/13/13/2CQC8/13/2T1M8/13/K12 b d4:w@d5 - 1 1 -"
    );
    assert_eq!(
        after(I, f, "d4d6"),
        "12k/13/13/13/13/13/13/3Q9/2C1C8/13/2T1M8/13/K12 b d4 - 1 1 -"
    );
}

#[test]
fn t13a_no_jump_across_an_active_castle() {
    let f = "12k/13/13/13/13/13/13/13/2C1C8/m2K2N6/2T1M8/13/13 b d4:w@d4 - 0 1";
    assert_illegal(I, f, "a4g4");
    assert_eq!(moves(I, f).len(), 16);
}

#[test]
fn t13b_inactive_castle_is_no_obstacle() {
    let f = "12k/13/13/13/13/13/13/13/2C1C8/m1P3N6/2T1M8/13/K12 b d4 - 0 1";
    assert_legal(I, f, "a4g4");
}

#[test]
fn t14_pillars_cannot_be_appointed() {
    let f = "12k/13/13/13/13/13/13/13/2C1C8/3K9/2T1M8/13/13 w d4:w@d4 - 0 1";
    assert_exact(I, f, &["d4c4", "d4d3", "d4d5", "d4e4"]);
}

const T15A: &str = "k12/13/2c1c8/3K9/2t1t8/13/5n7/13/6CC5/13/13/13/13 w d10:w@d10 - 0 1 -";

#[test]
fn t15a_appointment() {
    assert_legal(I, T15A, "appoint:g5");
    assert_legal(I, T15A, "appoint:h5");
    assert_eq!(moves(I, T15A).len(), 20);
    assert_eq!(
        after(I, T15A, "appoint:g5"),
        "k12/13/2c1c8/3K9/2t1t8/13/5n7/13/6CC5/13/13/13/13 b d10:w@d10 - 1 1 g5"
    );
}

const T15B: &str = "k12/13/2c1c8/3K9/2t1t8/13/5n7/13/6CC5/13/13/13/13 b d10:w@d10 - 1 1 g5";

#[test]
fn t15b_inspection_deputy_found() {
    assert_legal(I, T15B, "inspect:g5");
    assert_illegal(I, T15B, "inspect:h5");
    assert_illegal(I, T15B, "f7g5");
    let next = after(I, T15B, "inspect:g5");
    assert_eq!(
        next,
        "k12/13/2c1c8/3K9/2t1t8/13/5n7/13/6CC5/13/13/13/13 w d10:w@d10 g5 2 2 -"
    );
    assert_legal(I, &next, "g5f4");
}

#[test]
fn t15c_revealed_deputy_can_be_taken() {
    let f = "k12/13/2c1c8/3K9/2t1t8/13/5n7/13/6CC5/13/13/13/13 w d10:w@d10 g5 2 2 -";
    let next = after(I, f, "d10d11");
    assert_legal(I, &next, "f7g5");
}

#[test]
fn t15d_inspection_civilian_certified() {
    let f = "k12/13/2c1c8/3K9/2t1t8/13/5n7/13/6CC5/13/13/13/13 b d10:w@d10 - 1 1 h5";
    assert_legal(I, f, "inspect:g5");
    assert_illegal(I, f, "f7g5");
    assert_eq!(
        after(I, f, "inspect:g5"),
        "k12/13/2c1c8/3K9/2t1t8/13/5n7/13/6CC5/13/13/13/13 w d10:w@d10 - 2 2 h5"
    );
}

#[test]
fn t15e_the_secret_does_not_change_the_moves() {
    let want = [
        "a13a12",
        "a13b12",
        "a13b13",
        "f7d6",
        "f7d8",
        "f7e5",
        "f7g9",
        "f7h6",
        "f7h8",
        "inspect:g5",
    ];
    assert_exact(I, T15B, &want);
    // The same list from the public string (papers removed), and with h5 appointed instead.
    let public = "k12/13/2c1c8/3K9/2t1t8/13/5n7/13/6CC5/13/13/13/13 b d10:w@d10 - 1 1";
    assert_exact(I, public, &want);
    let other = "k12/13/2c1c8/3K9/2t1t8/13/5n7/13/6CC5/13/13/13/13 b d10:w@d10 - 1 1 h5";
    assert_exact(I, other, &want);
    let view = pos(I, T15B).view(Color::Black);
    let mut offered = view.offered_texts();
    offered.sort();
    assert_eq!(offered, moves(I, T15B));
    assert_eq!(view.fen(), format!("{public} -"));
}

const T16: &str = "k12/13/2c1c8/3K9/2t1t8/13/5n7/9b3/6CC5/13/13/13/13 w d10:w@d10 - 0 1 g5";

#[test]
fn t16_a_hop_compromises_the_deputy() {
    assert_legal(I, T16, "g5:i5");
    assert_legal(I, T16, "g5:i5:k7");
    assert_legal(I, T16, "g5:i5:k7@c10");
    assert_eq!(moves(I, T16).len(), 25);
    let next = after(I, T16, "g5:i5");
    assert_eq!(
        next,
        "k12/13/2c1c8/3K9/2t1t8/13/5n7/9b3/7CC4/13/13/13/13 b d10:w@d10 i5 1 1 -"
    );
    assert_legal(I, &next, "j6i5");
}

const T17: &str = "k12/13/2c1c8/3K9/2t1t8/13/13/6n6/6C6/13/13/13/13 w d10:w@d10 g5 0 1 -";

#[test]
fn t17_arrest() {
    assert_exact(
        I,
        T17,
        &[
            "d10c10",
            "d10d11",
            "d10d9",
            "d10e10",
            "g5:g7",
            "g5:g7@c10",
            "g5:g7@d11",
            "g5:g7@d9",
            "g5:g7@e10",
            "g5f4",
            "g5f5",
            "g5f6",
            "g5g4",
            "g5h4",
            "g5h5",
            "g5h6",
        ],
    );
    assert_eq!(
        after(I, T17, "g5:g7@c10"),
        "k12/13/2c1c8/2nK9/2t1t8/13/6C6/13/13/13/13/13/13 b d10:w@d10 g7 0 1 -"
    );
}

#[test]
fn t17b_nobility_takes_an_arrestee() {
    let f = "13/k12/2c1c8/2nK9/2t1t8/13/6C6/13/13/13/13/13/13 w d10:w@d10 g7 1 2 -";
    let p = pos(I, f);
    // The arrested Knight has no moves and attacks nothing.
    assert!(p
        .view(Color::White)
        .offered_texts()
        .iter()
        .all(|m| !m.starts_with("c10")));
    assert_legal(I, f, "d10c10");
    assert_eq!(
        after(I, f, "d10c10"),
        "13/k12/2c1c8/2K10/2t1t8/13/6C6/13/13/13/13/13/13 b d10:w@c10 g7 0 2 -"
    );
}

#[test]
fn t18a_abdication() {
    let f = "8k/9/6D2/9/9/9/4q4/9/4K3t w 0 1";
    assert!(pos(C, f).is_check());
    assert_exact(C, f, &["e1->g7"]);
    assert_eq!(after(C, f, "e1->g7"), "8k/9/6K2/9/9/9/4q4/9/8t b 1 1");
}

#[test]
fn t18b_abdication_refused() {
    let f = "8k/9/9/9/9/9/4q4/9/D3K3t w 0 1";
    let p = pos(C, f);
    assert!(p.moves().is_empty());
    let o = p.outcome().expect("game over");
    assert_eq!(o.winner, Some(Color::Black));
    assert_eq!(o.termination, Termination::Checkmate);
}

#[test]
fn t18c_no_abdication_while_a_move_exists() {
    let f = "8k/9/6D2/9/9/9/4q4/9/4K4 w 0 1";
    assert_illegal(C, f, "e1->g7");
    assert_exact(C, f, &["e1d1", "e1f1"]);
    let err = pos(C, f).parse_move("e1->g7").unwrap_err().to_string();
    assert!(err.contains("only when no other turn is legal"), "{err}");
}

#[test]
fn t19a_deadlock() {
    let f = "8k/9/9/9/9/9/9/2q6/K8 w 0 1";
    let p = pos(C, f);
    assert!(p.moves().is_empty());
    let o = p.outcome().expect("game over");
    assert_eq!(o.winner, None);
    assert_eq!(o.termination.code(), "deadlock");
}

#[test]
fn t19b_a_civilian_move_prevents_deadlock() {
    let f = "8k/9/9/9/4C4/9/9/2q6/K8 w 0 1";
    assert_eq!(moves(C, f).len(), 8);
    assert!(pos(C, f).outcome().is_none());
}

#[test]
fn t20_overlapping_castles_do_not_form() {
    let f = "12k/13/13/13/13/3c9/5c7/13/2CtCt7/13/2T1M8/13/K12 b d4 - 0 1";
    assert_eq!(
        after(I, f, "d8d7"),
        "12k/13/13/13/13/13/3c1c7/13/2CtCt7/13/2T1M8/13/K12 w d4 - 1 2 -"
    );
}

#[test]
fn t21_the_enemy_takes_an_inactive_castle() {
    let f = "12k/13/13/13/13/13/13/13/2C1Cn7/2P10/2T1M8/13/K12 b d4 - 0 1";
    assert_legal(I, f, "f5d4");
    assert_eq!(
        after(I, f, "f5d4"),
        "12k/13/13/13/13/13/13/13/2C1C8/2Pn9/2T1M8/13/K12 w d4:b@d4 - 1 2 -"
    );
}

#[test]
fn t21b_the_arrestee_cannot_move() {
    let f = "12k/13/13/13/13/13/13/13/2C1C8/2Pn9/2T1M8/13/K12 w d4:b@d4 - 1 2 -";
    assert_exact(I, f, &["a1a2", "a1b1", "a1b2"]);
}

#[test]
fn t22_inside_pieces_shoot_out() {
    let f = "12k/13/13/13/3t9/13/13/13/2C1C8/3Q9/2T1M8/13/K12 w d4:w@d4 - 0 1";
    assert_legal(I, f, "d4d9");
    assert_eq!(
        after(I, f, "d4d9"),
        "12k/13/13/13/3Q9/13/13/13/2C1C8/13/2T1M8/13/K12 b d4 - 0 1 -"
    );
}

#[test]
fn t23_promotion_in_the_halls() {
    let f = "12k/13/13/13/13/13/13/13/2C1C8/2PK9/2T1M8/13/13 w d4:w@d4+c4 - 0 1";
    assert_eq!(moves(I, f).len(), 14);
    assert_legal(I, f, "c4=Q");
    assert_legal(I, f, "c4=D");
    assert_illegal(I, f, "c4=K");
    assert_eq!(
        after(I, f, "c4=Q"),
        "12k/13/13/13/13/13/13/13/2C1C8/2QK9/2T1M8/13/13 b d4:w@d4 - 0 1 -"
    );
}

#[test]
fn t24_the_assassin_gets_in() {
    let f = "12k/13/13/13/3q9/13/13/3a9/2C1C8/3K9/2T1M8/13/13 b d4:w@d4 - 0 1";
    assert_legal(I, f, "d6d5");
    let next = after(I, f, "d6d5");
    assert_legal(I, &next, "d4d5");
    assert_illegal(I, &next, "d4c4");
}

#[test]
fn t24b_check_from_inside() {
    let f = "12k/13/13/13/3q9/13/13/13/2CaC8/3K9/2T1M8/13/13 w d4:w@d4 - 1 2";
    assert!(pos(I, f).is_check());
    assert_exact(I, f, &["d4d3", "d4d5"]);
}

#[test]
fn t25a_formation() {
    let f = "12k/13/13/13/3q9/13/13/5C7/2C10/13/2T1M8/13/K12 w - - 0 1";
    assert_eq!(
        after(I, f, "f6e5"),
        "12k/13/13/13/3q9/13/13/13/2C1C8/13/2T1M8/13/K12 b d4 - 1 1 -"
    );
}

#[test]
fn t25b_formation_around_the_king() {
    let f = "12k/13/13/13/13/7q5/13/5C7/2C10/3K9/2TPM8/13/13 w - - 0 1";
    assert_eq!(
        after(I, f, "f6e5"),
        "12k/13/13/13/13/7q5/13/13/2C1C8/3K9/2TPM8/13/13 b d4:w@d4+d3 - 1 1 -"
    );
}

#[test]
fn t26a_activator_taken_chair_piece_takes_over() {
    let f = "12k/13/13/13/13/13/13/13/1aC1C8/2QP9/2T1M8/13/K12 b d4:w@c4 - 0 1";
    assert_eq!(
        after(I, f, "b5c4"),
        "12k/13/13/13/13/13/13/13/2C1C8/2aP9/2T1M8/13/K12 w d4:w@d4+d4 - 0 2 -"
    );
}

#[test]
fn t26b_activator_taken_castle_inactive() {
    let f = "12k/13/13/13/13/13/13/13/1aC1C8/2Q10/2T1M8/13/K12 b d4:w@c4 - 0 1";
    assert_eq!(
        after(I, f, "b5c4"),
        "12k/13/13/13/13/13/13/13/2C1C8/2a10/2T1M8/13/K12 w d4 - 0 2 -"
    );
}

#[test]
fn t27a_last_civilian_appointed() {
    let f = "k12/13/2c1c8/3K9/2t1t8/13/13/13/6CC5/13/13/13/13 w d10:w@d10 - 0 1 g5";
    assert_eq!(
        after(I, f, "appoint:h5"),
        "k12/13/2c1c8/3K9/2t1t8/13/13/13/6CC5/13/13/13/13 b d10:w@d10 g5,h5 1 1 -"
    );
}

#[test]
fn t27b_only_civilian_appointed() {
    let f = "k12/13/2c1c8/3K9/2t1t8/13/13/13/6C6/13/13/13/13 w d10:w@d10 - 0 1 -";
    assert_eq!(
        after(I, f, "appoint:g5"),
        "k12/13/2c1c8/3K9/2t1t8/13/13/13/6C6/13/13/13/13 b d10:w@d10 g5 1 1 -"
    );
}

#[test]
fn t28_hop_chains_and_what_may_be_arrested() {
    let f = "13/13/2c1c8/3K9/2t1t8/13/13/13/2a10/3Cp1N6/2k10/13/13 w d10:w@d10 - 0 1 d4";
    for m in ["d4:b2", "d4:b6", "d4:f4", "d4:f4:h4", "d4:f4@d9"] {
        assert_legal(I, f, m);
    }
    for m in ["d4:b2@d9", "d4:b6@d9", "d4:f4:h4@d9"] {
        assert_illegal(I, f, m);
    }
    assert_eq!(moves(I, f).len(), 25);
}

#[test]
fn t29a_master_inside_room_piece_is_a_screen() {
    let f = "12k/13/13/13/13/3n9/2b10/13/2CPC8/3M9/2T1M8/13/K12 w d4:w@d4 - 0 1";
    assert_legal(I, f, "d4d8");
}

#[test]
fn t29b_master_inside_bastion_is_never_a_screen() {
    let f = "12k/13/13/13/13/13/2b10/13/2C1C8/2MK9/2T1M8/13/13 w d4:w@d4 - 0 1";
    assert_exact(I, f, &["c4a4", "c4b4", "d4d3", "d4d5", "d4e4"]);
}

fn recorded(style: Style, fen: &str, mv: &str) -> String {
    let p = pos(style, fen);
    let m = p.parse_move(mv).expect("legal");
    p.move_human(m)
}

#[test]
fn t30_recorder_notation() {
    let f = "8k/4P4/n4p3/9/9/P8/9/9/M3KQ3 w 0 1";
    // The human text is the action; the record's round is `recorder_text`'s.
    assert_eq!(recorded(C, f, "f1f7"), "Q f1Xf7");
    assert_eq!(recorded(C, f, "e8e9=E"), "P e8-e9=PM");
    assert_eq!(recorded(C, f, "a1a7"), "Ma a1Xa7");
    assert_eq!(recorded(C, f, "a1a2"), "Ma a1-a2");
    let p = pos(C, f);
    let m = p.parse_move("f1f7").expect("legal");
    assert_eq!(p.recorder_text(&m), "1a Q f1Xf7");
    // The recorder notation is read back, with or without the round.
    for text in [
        "1a Q f1Xf7",
        "Q f1Xf7",
        "1a P e8-e9=PM",
        "Ma a1-a2",
        "12b  Ma   a1-a2",
    ] {
        let m = p.parse_move(text).expect(text);
        let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
        assert_eq!(
            p.move_human(m),
            text.trim_start_matches("1a ").trim_start_matches("12b ")
        );
    }
}

#[test]
fn t30b_recorder_notation_imperial() {
    let f = "k12/13/2c1c8/3K9/2t1t8/13/13/6n6/6CC5/13/13/13/13 w d10:w@d10 g5 0 16 -";
    assert_eq!(recorded(I, f, "g5:g7@c10"), "D g5:1:g7 N(c10)");
    // The appointing player's text names the Civilian (13.1's `appoints C` is what the
    // others see: `move_seen_by`).
    assert_eq!(recorded(I, f, "appoint:h5"), "appoints C h5");
    let p = pos(I, f);
    let m = p.parse_move("16a D g5:1:g7 N(c10)").expect("reads back");
    assert_eq!(p.move_text(m), "g5:g7@c10");
    let a = p.parse_move("appoints C h5").expect("reads back");
    assert_eq!(p.move_text(a), "appoint:h5");
    assert_eq!(p.recorder_text(&a), "16a appoints C h5");
    assert_eq!(
        p.move_seen_by(a, Some(Color::White)),
        ("appoint:h5".into(), "appoints C h5".into())
    );
    for viewer in [Some(Color::Black), None] {
        assert_eq!(
            p.move_seen_by(a, viewer),
            ("appoint".into(), "appoints C".into())
        );
    }
    // With one Civilian to appoint, the sealed text names the turn too.
    assert_eq!(p.parse_move("appoints C"), Ok(a));
    assert_eq!(p.parse_move("appoint"), Ok(a));
}

const T31: &str = "12k/13/13/13/13/13/13/13/2CnC8/3P9/2TQM8/13/K12 w d4:w@d3 - 0 1";

#[test]
fn t31_pieces_are_data() {
    let text = DEFAULT_PIECES.replace(
        "pawn            P  P   mfWcfF ",
        "pawn            P  P   mfWcfFcfW ",
    );
    assert_ne!(text, DEFAULT_PIECES, "the Pawn line was replaced");
    let table = load_pieces(&text).expect("the modified table loads");
    let p = CheopsPosition::from_fen_with_pieces(Style::Imperial, T31, &table, &RuleOptions::new())
        .expect("parses");
    let texts = p.move_texts();
    let promos: Vec<&String> = texts.iter().filter(|m| m.starts_with("d4d5")).collect();
    assert_eq!(promos.len(), 11, "{texts:?}");
    assert!(texts.iter().any(|m| m == "d4d5=Q"));
    assert!(!texts.iter().any(|m| m == "d4d5"));
    assert_eq!(
        play(&p, "d4d5=Q").fen(),
        "12k/13/13/13/13/13/13/13/2CQC8/13/2TQM8/13/K12 b d4:w@d3 - 0 1 -"
    );
    // With the provisional Pawn none of these moves exists.
    assert!(!moves(I, T31).iter().any(|m| m.starts_with("d4d5")));
}
