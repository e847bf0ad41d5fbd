//! Every test case of the rulebook's §12 (T1..T36), the perft table of §11, the start diagram
//! of §4, and the endings of §7 in play.

use menagerie_core::diagram::{diagram, DiagramOptions};
use menagerie_core::options::RuleOptions;
use menagerie_core::{Color, Game, Position, Termination};
use menagerie_vyrt::{
    geometry, is_light, start_fen, variants, Rules, VyrtPosition, OPTIONS, START_FEN,
};

fn pos(fen: &str) -> VyrtPosition {
    VyrtPosition::from_fen(fen, Rules::default()).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn moves(p: &VyrtPosition) -> Vec<String> {
    let mut list = Vec::new();
    p.legal_moves(&mut list);
    let mut text: Vec<String> = list.into_iter().map(|m| p.move_text(m)).collect();
    text.sort();
    text
}

fn moves_of(p: &VyrtPosition, square: &str) -> Vec<String> {
    let g = geometry();
    let sq = g.parse_square(square).unwrap();
    let mut list = Vec::new();
    p.legal_moves(&mut list);
    let mut text: Vec<String> = list
        .into_iter()
        .filter(|m| m.from() == sq)
        .map(|m| p.move_text(m))
        .collect();
    text.sort();
    text
}

fn sorted(text: &str) -> Vec<String> {
    let mut v: Vec<String> = text.split_whitespace().map(String::from).collect();
    v.sort();
    v
}

fn after(p: &VyrtPosition, line: &str) -> VyrtPosition {
    let mut p = p.clone();
    for text in line.split_whitespace() {
        let mv = p.parse_move(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        p.play(mv);
    }
    p
}

fn includes(p: &VyrtPosition, list: &str) {
    let all = moves(p);
    for m in list.split_whitespace() {
        assert!(all.contains(&m.to_string()), "{m} missing from {all:?}");
    }
}

fn excludes(p: &VyrtPosition, list: &str) {
    let all = moves(p);
    for m in list.split_whitespace() {
        assert!(!all.contains(&m.to_string()), "{m} should not be legal");
        assert!(
            p.parse_move(m).is_err(),
            "{m} should not parse as a legal move"
        );
    }
}

fn goes_on(p: &VyrtPosition) {
    assert_eq!(p.outcome(), None);
    assert!(!p.is_dead_position());
}

fn dead(p: &VyrtPosition) {
    let o = p.outcome().expect("a dead position ends the game");
    assert_eq!(o.winner, None);
    assert_eq!(o.termination, Termination::DeadPosition);
    assert_eq!(
        o.to_string(),
        "Draw: dead position, neither side can checkmate"
    );
}

fn checkmate(p: &VyrtPosition, winner: Color) {
    assert!(p.is_check());
    assert!(moves(p).is_empty());
    let o = p.outcome().unwrap();
    assert_eq!(o.winner, Some(winner));
    assert_eq!(o.termination, Termination::Checkmate);
    assert_eq!(
        o.result(),
        if winner == Color::White { "1-0" } else { "0-1" }
    );
}

#[test]
fn t1_coordinates_and_colours() {
    let g = geometry();
    for (name, x, y) in [
        ("K11", 0, 0),
        ("L12", 1, 1),
        ("A1", 2, 2),
        ("E3", 6, 4),
        ("H8", 9, 9),
        ("J10", 11, 11),
        ("K10", 0, 11),
        ("J11", 11, 0),
    ] {
        let sq = g.parse_square(name).unwrap();
        assert_eq!((g.file(sq), g.rank(sq)), (x, y), "{name}");
        assert_eq!(sq.index(), 12 * y as usize + x as usize);
        assert_eq!(g.square_name(sq), name);
        assert_eq!(g.parse_square(&name.to_lowercase()).unwrap(), sq);
    }
    for light in ["J11", "H1", "D1"] {
        assert!(is_light(g.parse_square(light).unwrap()), "{light}");
    }
    for dark in ["A1", "D8", "K11", "J10"] {
        assert!(!is_light(g.parse_square(dark).unwrap()), "{dark}");
    }
    for bad in ["M1", "A0", "A13", "A01", "1A"] {
        assert!(g.parse_square(bad).is_err(), "{bad}");
    }
}

#[test]
fn t2_start_position() {
    let p = pos(START_FEN);
    let g = geometry();
    let mut count = [[0; 2]; 2]; // [colour][pawn?]
    for sq in g.squares() {
        if let Some(c) = p.piece_char(sq) {
            let colour = if c.is_ascii_uppercase() { 0 } else { 1 };
            count[colour][c.eq_ignore_ascii_case(&'P') as usize] += 1;
            let enemy = if colour == 0 {
                Color::Black
            } else {
                Color::White
            };
            assert!(
                !p.is_attacked(sq, enemy),
                "{} is attacked",
                g.square_name(sq)
            );
        }
    }
    assert_eq!(count, [[8, 22], [8, 22]]);
    assert!(!p.is_check());
    goes_on(&p);
    assert_eq!(p.fen(), START_FEN);
    assert_eq!(p.turn(), Color::White);
}

#[test]
fn t3_whites_28_first_moves() {
    let p = pos(START_FEN);
    assert_eq!(
        moves(&p),
        sorted(
            "A2-A3 A2-A4 B2-B3 B2-B4 C2-C3 C2-C4 D2-D3 D2-D4 E2-E3 E2-E4 F2-F3 F2-F4 G2-G3 \
             G2-G4 H2-H3 H2-H4 I2-I3 I2-I4 L2-L3 L2-L4 B1-A3 B1-C3 B1-A11 B1-C11 G1-F3 G1-H3 \
             G1-F11 G1-H11"
        )
    );
}

#[test]
fn t4_perft_from_the_start() {
    let p = pos(START_FEN);
    assert_eq!([1, 2, 3, 4].map(|d| p.perft(d)), [28, 784, 24_792, 779_419]);
    assert_eq!(p.perft(0), 1);
}

#[test]
#[ignore = "27.6 million leaves: run with --ignored (a fraction of a second in release)"]
fn t4_perft_5_from_the_start() {
    assert_eq!(pos(START_FEN).perft(5), 27_603_426);
}

#[test]
#[ignore = "972 million leaves: run with --ignored in release"]
fn perft_6_from_the_start_split_by_first_move() {
    let table = "B1-A11 34738273   B1-C11 33187101   B1-A3 30480438    B1-C3 28889347
        G1-F11 29835240   G1-H11 31282778   G1-F3 29030068    G1-H3 30678815
        L2-L3 30072597    L2-L4 29233489    A2-A3 25517105    A2-A4 29593451
        B2-B3 37284559    B2-B4 37152014    C2-C3 40001453    C2-C4 41835938
        D2-D3 43285114    D2-D4 46502554    E2-E3 61174514    E2-E4 61346579
        F2-F3 25615984    F2-F4 27598158    G2-G3 37370191    G2-G4 36484604
        H2-H3 25550526    H2-H4 29180388    I2-I3 29454862    I2-I4 29744048";
    let words: Vec<&str> = table.split_whitespace().collect();
    let mut want: Vec<(String, u64)> = words
        .chunks(2)
        .map(|w| (w[0].to_string(), w[1].parse().unwrap()))
        .collect();
    want.sort();
    let got = menagerie_core::perft::divide(&pos(START_FEN), 6);
    assert_eq!(got, want);
    assert_eq!(got.iter().map(|r| r.1).sum::<u64>(), 972_120_188);
}

#[test]
fn t5_knight_on_j10() {
    let p = pos("11N/12/12/12/12/6K5/12/12/3k8/12/12/12 w - - - 0 1");
    assert_eq!(
        moves_of(&p, "J10"),
        sorted("J10-H9 J10-H11 J10-I8 J10-I12 J10-K8 J10-K12 J10-L9 J10-L11")
    );
}

#[test]
fn t6_knight_on_i4() {
    let p = pos("6K5/12/12/3k8/12/12/10N1/12/12/12/12/12 w - - - 0 1");
    assert_eq!(
        moves_of(&p, "I4"),
        sorted("I4-G3 I4-G5 I4-H2 I4-H6 I4-J2 I4-J6 I4-K3 I4-K5")
    );
    excludes(&p, "I4-L3 I4-L5");
}

#[test]
fn t7_knight_on_d11() {
    let p = pos("12/12/12/12/12/k8K2/12/12/12/12/12/5N6 w - - - 0 1");
    assert_eq!(
        moves_of(&p, "D11"),
        sorted("D11-B10 D11-B12 D11-C1 D11-C9 D11-E1 D11-E9 D11-F10 D11-F12")
    );
}

#[test]
fn t8_rook_on_e3_has_22_squares() {
    let p = pos("3k8/12/12/9K2/12/12/12/6R5/12/12/12/12 w - - - 0 1");
    assert_eq!(
        moves_of(&p, "E3"),
        sorted(
            "E3-E4 E3-E5 E3-E6 E3-E7 E3-E8 E3-E9 E3-E10 E3-E11 E3-E12 E3-E1 E3-E2 E3-F3 E3-G3 \
             E3-H3 E3-I3 E3-J3 E3-K3 E3-L3 E3-A3 E3-B3 E3-C3 E3-D3"
        )
    );
    excludes(&p, "E3-E3");
}

#[test]
fn t9a_bishop_on_e3_has_21_squares() {
    let p = pos("12/12/8K3/12/12/12/12/6B5/12/12/12/3k8 w - - - 0 1");
    assert_eq!(
        moves_of(&p, "E3"),
        sorted(
            "E3-D4 E3-C5 E3-B6 E3-A7 E3-L8 E3-K9 E3-J10 E3-I11 E3-H12 E3-G1 E3-F2 E3-F4 E3-G5 \
             E3-H6 E3-I7 E3-J8 E3-L10 E3-A11 E3-B12 E3-C1 E3-D2"
        )
    );
}

#[test]
fn t9b_queen_on_e3_has_43_squares() {
    let p = pos("12/12/8K3/12/12/12/12/6Q5/12/12/12/3k8 w - - - 0 1");
    assert_eq!(moves_of(&p, "E3").len(), 43);
}

#[test]
fn t10_bishop_on_k11_crosses_the_corner() {
    let p = pos("12/12/12/6K5/12/12/9k2/12/12/12/12/B11 w - - - 0 1");
    assert_eq!(moves_of(&p, "K11").len(), 21);
    includes(
        &p,
        "K11-J10 K11-I9 K11-H8 K11-G7 K11-F6 K11-E5 K11-D4 K11-C3 K11-B2 K11-A1 K11-L12",
    );
}

#[test]
fn t11_rook_on_k5_crosses_the_j_k_seam() {
    let p = pos("12/12/6K5/12/12/R11/12/12/9k2/12/12/12 w - - - 0 1");
    assert_eq!(moves_of(&p, "K5").len(), 22);
    includes(
        &p,
        "K5-J5 K5-I5 K5-H5 K5-G5 K5-F5 K5-E5 K5-D5 K5-C5 K5-B5 K5-A5 K5-L5",
    );
}

#[test]
fn t12a_other_side_rule_own_blocker() {
    let p = pos("9K2/12/12/3k8/12/12/12/6R1P3/12/12/12/12 w - - - 0 1");
    assert_eq!(moves_of(&p, "E3").len(), 21);
    includes(
        &p,
        "E3-F3 E3-D3 E3-C3 E3-B3 E3-A3 E3-L3 E3-K3 E3-J3 E3-I3 E3-H3",
    );
    excludes(&p, "E3-G3");
}

#[test]
fn t12b_other_side_rule_own_and_enemy_blockers() {
    let p = pos("9K2/12/12/3k8/12/12/12/3p2R1P3/12/12/12/12 w - - - 0 1");
    assert_eq!(moves_of(&p, "E3").len(), 15);
    includes(&p, "E3-F3 E3-D3 E3-C3 E3-B3");
    excludes(&p, "E3-A3 E3-L3 E3-K3 E3-J3 E3-I3 E3-H3");
}

#[test]
fn t13_rook_check_across_the_j_k_seam() {
    let p = pos("12/12/12/12/12/2RP5k2/12/12/12/6K5/12/12 b - - - 0 1");
    assert!(p.is_check());
    assert_eq!(moves(&p), sorted("H5-G4 H5-G6 H5-H4 H5-H6 H5-I4 H5-I6"));
    // the whole rank is covered: I5 directly, G5 through the square the King leaves
    excludes(&p, "H5-G5 H5-I5");
    let g = geometry();
    assert!(p.is_attacked(g.parse_square("I5").unwrap(), Color::White));
}

#[test]
fn t14_rook_check_across_the_10_11_seam() {
    let p = pos("12/6k5/12/12/12/12/12/12/12/2K9/6R5/12 b - - - 0 1");
    assert!(p.is_check());
    assert_eq!(moves(&p), sorted("E9-D8 E9-D9 E9-D10 E9-F8 E9-F9 E9-F10"));
    dead(&p);
}

#[test]
fn t15a_one_bishop_checks_along_four_routes() {
    let p = pos("12/k11/12/12/12/12/12/6B5/12/9K2/12/12 b - - - 0 1");
    assert!(p.is_check());
    assert_eq!(moves(&p), sorted("K9-J9 K9-K8 K9-K10 K9-L9"));
}

#[test]
fn t15b_blocking_one_route_leaves_the_others() {
    let p = pos("12/k11/12/12/12/12/5p6/6B5/12/9K2/12/12 b - - - 0 1");
    assert!(p.is_check());
    assert_eq!(moves(&p), sorted("D4-E3 K9-J9 K9-K8 K9-K10 K9-L9"));
}

#[test]
fn t16_interposing_on_one_side_of_a_rank() {
    let p = pos("9K2/12/12/12/12/5n6/12/2R3k5/12/12/12/12 b - - - 0 1");
    assert!(p.is_check());
    assert_eq!(moves(&p), sorted("E3-D2 E3-D4 E3-E2 E3-E4 E3-F2 E3-F4"));
    excludes(&p, "D5-C3");
}

#[test]
fn t17_one_rook_pins_two_units() {
    let p = pos("6k5/12/12/12/12/NK4P4r/12/12/12/12/12/12 w - - - 0 1");
    assert!(!p.is_check());
    assert_eq!(
        moves(&p),
        sorted("L5-A4 L5-A5 L5-A6 L5-K4 L5-K6 L5-L4 L5-L6")
    );
}

#[test]
fn t18a_pawn_captures_across_the_seam_j4_k5() {
    let p = pos("12/12/6k5/12/12/n11/11P/12/12/6K5/12/12 w - - - 0 1");
    assert_eq!(moves(&p).len(), 10);
    includes(&p, "J4-K5 J4-J5");
}

#[test]
fn t18b_pawn_captures_across_the_seam_k4_j5() {
    let p = pos("12/12/6k5/12/12/11n/P11/12/12/6K5/12/12 w - - - 0 1");
    assert_eq!(moves(&p).len(), 10);
    includes(&p, "K4-J5 K4-K5");
}

#[test]
fn t19a_black_back_row_pawn_steps_once() {
    let p = pos("6k5/2p9/12/12/12/12/12/12/12/6K5/12/12 b - - - 0 1");
    assert_eq!(moves_of(&p, "A9"), ["A9-A8"]);
    assert_eq!(moves(&p).len(), 9);
}

#[test]
fn t19b_white_back_row_pawn_steps_once() {
    let p = pos("6k5/12/12/12/12/6K5/12/12/12/12/1P10/12 w - - - 0 1");
    assert_eq!(moves_of(&p, "L12"), ["L12-L1"]);
    assert_eq!(moves(&p).len(), 9);
}

#[test]
fn t20_promotion_on_rank_8() {
    let p = pos("9k2/12/5r6/6P5/12/12/12/12/12/2K9/12/12 w - - - 0 1");
    assert_eq!(moves(&p).len(), 16);
    includes(
        &p,
        "E7-E8=Q E7-E8=R E7-E8=B E7-E8=N E7-D8=Q E7-D8=R E7-D8=B E7-D8=N",
    );
    excludes(&p, "E7-E8");
    let q = after(&p, "E7-E8=N");
    assert_eq!(
        q.fen(),
        "9k2/12/5rN5/12/12/12/12/12/12/2K9/12/12 b - - - 0 1"
    );
}

#[test]
fn t21_en_passant() {
    let p = pos("9k2/12/12/6p5/12/5P6/12/12/12/2K9/12/12 b - - -/e 0 1");
    let q = after(&p, "E7-E5");
    assert_eq!(
        q.fen(),
        "9k2/12/12/12/12/5Pp5/12/12/12/2K9/12/12 w - E6 - 0 2"
    );
    assert_eq!(moves(&q).len(), 10);
    includes(&q, "D5-E6 D5-D6");
    let ep = q.parse_move("D5-E6").unwrap();
    assert!(ep.is_en_passant());
    assert_eq!(q.move_human(ep), "D5xE6 e.p.");
    let r = after(&q, "D5-E6");
    assert_eq!(
        r.fen(),
        "9k2/12/12/12/6P5/12/12/12/12/2K9/12/12 b - - - 0 2"
    );
}

#[test]
fn t22a_castling_refused_bishop_across_the_seam() {
    let p = pos("6k5/12/12/12/b11/12/12/12/12/6K2R2/12/12 w K - - 0 1");
    assert_eq!(moves(&p).len(), 26);
    excludes(&p, "O-O E1-D1 E1-E12 E1-F1");
}

#[test]
fn t22b_castling_allowed_without_the_bishop() {
    let p = pos("6k5/12/12/12/12/12/12/12/12/6K2R2/12/12 w K - - 0 1");
    assert_eq!(moves(&p).len(), 30);
    includes(&p, "O-O");
}

#[test]
fn t22c_position_after_castling() {
    // A Black pawn far away keeps the position alive (King and Rook against King is a
    // dead position of 7.3, where no move is read).
    let p = pos("6k5/12/12/12/12/1p10/12/12/12/6K2R2/12/12 w K - - 0 1");
    assert_eq!(
        after(&p, "O-O").fen(),
        "6k5/12/12/12/12/1p10/12/12/12/7RK3/12/12 b - - - 1 1"
    );
}

#[test]
fn t23a_king_on_k11_has_eight_neighbours() {
    let p = pos("12/12/12/12/12/6k5/12/12/12/12/12/K11 w - - - 0 1");
    assert_eq!(
        moves_of(&p, "K11"),
        sorted("K11-J10 K11-J11 K11-J12 K11-K10 K11-K12 K11-L10 K11-L11 K11-L12")
    );
}

#[test]
fn t23b_check_from_the_opposite_corner() {
    let p = pos("11k/12/12/12/12/6K5/12/12/12/12/12/Q11 b - - - 0 1");
    assert!(p.is_check());
    assert_eq!(moves(&p), sorted("J10-K11 J10-I10 J10-J9"));
}

#[test]
fn t24a_checkmate_by_two_queens() {
    let p = pos("12/12/12/12/6Q5/6k5/4Q7/12/12/12/12/K11 b - - - 0 1");
    checkmate(&p, Color::White);
    assert_eq!(p.outcome().unwrap().to_string(), "White wins by checkmate");
}

#[test]
fn t24b_checkmate_by_rook_and_bishop_using_both_routes() {
    let p = pos("12/12/12/12/12/4K1kR4/12/12/12/12/12/1B10 b - - - 0 1");
    checkmate(&p, Color::White);
}

#[test]
fn t24c_stalemate() {
    let p = pos("12/12/12/7Q4/12/6k5/3Q8/12/12/12/12/K11 b - - - 0 1");
    assert!(!p.is_check());
    assert!(moves(&p).is_empty());
    let o = p.outcome().unwrap();
    assert_eq!(o.winner, None);
    assert_eq!(o.termination, Termination::Stalemate);
    assert_eq!(o.to_string(), "Draw by stalemate");
}

#[test]
fn t25_dead_positions() {
    // a: K+Q v K; b: K+R+N v K; c: K v K+B+B on one colour
    dead(&pos("12/12/12/12/12/6k5/12/5Q6/4K7/12/12/12 w - - - 0 1"));
    dead(&pos("12/12/12/12/12/6k5/12/5RN5/4K7/12/12/12 b - - - 0 1"));
    dead(&pos("12/12/12/12/12/5bkb4/12/12/12/12/12/9K2 w - - - 0 1"));
    // d: K+B+B on opposite colours, mate shown
    let d = pos("12/12/12/12/12/6k5/4K7/12/12/12/12/BB10 b - - - 0 1");
    checkmate(&d, Color::White);
    assert!(!d.is_dead_position());
    // e: the same material, no mate yet; f: K+R+R; g: K+N v K+N; h: a pawn
    goes_on(&pos("12/12/12/12/12/6k5/4K7/12/12/12/12/2BB8 w - - - 0 1"));
    goes_on(&pos("12/12/12/12/12/6k5/12/2RR8/4K7/12/12/12 w - - - 0 1"));
    goes_on(&pos("12/12/12/12/12/6kn4/12/4N7/4K7/12/12/12 w - - - 0 1"));
    goes_on(&pos("12/12/12/12/12/6k5/12/5P6/4K7/12/12/12 w - - - 0 1"));
}

#[test]
fn dead_position_table_of_7_3() {
    // Every material of the rule, with either colour stronger, is dead; and the "yes" rows'
    // checkmates are mates and not dead.
    // The lone King on E5; the other side's King on A1 with its units on B1, C1 (or B1, D1
    // for two Bishops of one colour), none of which attacks E5.
    for units in ["", "N", "B", "R", "Q", "NN", "BN", "RN", "B1B"] {
        let pad = 12 - 3 - units.len();
        for white_strong in [true, false] {
            let (strong, lone) = if white_strong {
                (format!("2K{units}{pad}"), "6k5".to_string())
            } else {
                (
                    format!("2k{}{pad}", units.to_lowercase()),
                    "6K5".to_string(),
                )
            };
            let fen = format!("12/12/12/12/12/{lone}/12/12/12/{strong}/12/12 w - - - 0 1");
            dead(&pos(&fen));
        }
    }
    // one unit more, or Bishops on both colours, is not dead
    goes_on(&pos("12/12/12/12/12/6k5/12/12/12/2KNNN6/12/12 w - - - 0 1"));
    goes_on(&pos("12/12/12/12/12/6k5/12/12/12/2KBB7/12/12 w - - - 0 1"));
    // the "yes" examples of the table: Black to move, in checkmate (E5 = x 6, y 6)
    for fen in [
        "12/12/12/12/12/6k5/12/5K6/12/12/B11/B11 b - - - 0 1".to_string(), // K D3, B K11 B K12
        "12/12/12/12/7R4/6kR4/12/5K6/12/12/12/12 b - - - 0 1".to_string(), // K D3, R F5 R F6
        "12/12/12/12/6R5/6k5/6Q5/12/12/12/12/K11 b - - - 0 1".to_string(), // K K11, Q E4 R E6
        "12/12/12/12/12/6kQ4/12/5Q6/12/12/12/K11 b - - - 0 1".to_string(), // K K11, Q D3 Q F5
        "12/12/12/12/12/6k5/5Q6/4K7/12/12/12/1B10 b - - - 0 1".to_string(), // K C3, Q D4 B L11
        "12/12/12/8N3/12/6k5/5Q6/4K7/12/12/12/12 b - - - 0 1".to_string(), // K C3, Q D4 N G7
        "12/12/12/12/6R5/6k5/12/6K5/12/12/B11/12 b - - - 0 1".to_string(), // K E3, R E6 B K12
    ] {
        let p = pos(&fen);
        checkmate(&p, Color::White);
        assert!(!p.is_dead_position(), "{fen}");
    }
}

#[test]
fn t26_option_double_step_any_unmoved() {
    let fen = "12/1pppppppppp1/1prnbqkbnrp1/1pppppppppp1/12/12/12/12/1PPPPPPPPPP1/1PRNBQKBNRP1/1PPPPPPPPPP1/12 w KQkq - L12,A12,B12,C12,D12,E12,F12,G12,H12,I12,L1,I1,L2,A2,B2,C2,D2,E2,F2,G2,H2,I2,L7,A7,B7,C7,D7,E7,F7,G7,H7,I7,L8,I8,L9,A9,B9,C9,D9,E9,F9,G9,H9,I9 0 1";
    let options = RuleOptions::parse(&["double-step-any-unmoved"]).unwrap();
    let rules = Rules::from_options(&options).unwrap();
    assert!(rules.double_step_any_unmoved);
    let p = VyrtPosition::from_fen(fen, rules).unwrap();
    assert_eq!(p.fen(), fen);
    assert_eq!(start_fen(rules), fen);
    assert_eq!([1, 2, 3, 4].map(|d| p.perft(d)), [28, 784, 24_848, 782_967]);
    // the front end's way in: the spec's start string under the option
    let spec = variants()[0];
    let q = (spec.from_fen)(spec.start_fen, &options).unwrap();
    assert_eq!(q.fen(), fen);
    // after L2-L4 and a Black move, L1-L3 is possible, passing over L2
    let r = after(&p, "L2-L4 L7-L6 L1-L3");
    assert!(r.fen().contains(" L2 "), "{}", r.fen());
    // the letter form is not read under the option (except as the start position)
    let six = "12/12/6k5/12/12/12/12/12/12/6K5/12/12 w - - E/- 0 1";
    assert!(VyrtPosition::from_fen(six, rules).is_err());
}

#[test]
fn t27_knight_behind_the_lines() {
    let p = after(&pos(START_FEN), "B1-A11 L7-L6");
    assert_eq!(
        moves_of(&p, "A11"),
        sorted("A11-B1 A11-K12 A11-B9 A11-C10 A11-L9 A11-K10")
    );
}

#[test]
fn t28a_castling_refused_because_the_rook_leaves() {
    let p = pos("12/12/6k5/12/12/12/12/12/12/2R3K2R1r/12/12 w KQ - - 0 1");
    assert!(!p.is_check());
    assert_eq!(moves(&p).len(), 18);
    excludes(&p, "O-O O-O-O");
}

#[test]
fn t28b_both_castlings_without_the_rook_on_j1() {
    let p = pos("12/12/6k5/12/12/12/12/12/12/2R3K2R2/12/12 w KQ - - 0 1");
    assert_eq!(moves(&p).len(), 45);
    includes(&p, "O-O O-O-O");
    assert_eq!(
        after(&p, "O-O-O").fen(),
        "12/12/6k5/12/12/12/12/12/12/4KR3R2/12/12 b - - - 1 1"
    );
}

#[test]
fn t29_bishop_pinned_along_both_diagonals() {
    let p = pos("1b9b/B11/6k5/12/12/12/12/6K5/5P1P4/12/12/12 w - - - 0 1");
    assert_eq!(moves(&p), sorted("E3-E2 E3-D3 E3-F3 E3-E4"));
}

#[test]
fn t30_en_passant_refused_across_the_seam() {
    let p = pos("6k5/12/12/12/12/3r2N2KpP/12/12/12/12/12/12 w - I6 - 0 1");
    assert_eq!(moves(&p).len(), 8);
    includes(&p, "J5-J6 H5-I5");
    excludes(&p, "J5-I6");
}

#[test]
fn t31_promotion_with_capture_across_the_seam() {
    let p = pos("6k5/12/r9n1/11P/12/12/12/12/12/2K9/12/12 w - - - 0 1");
    assert_eq!(moves(&p).len(), 20);
    includes(&p, "J7-K8=Q J7-K8=N J7-I8=R J7-J8=B");
}

#[test]
fn t32_one_queen_pins_two_units_across_the_10_11_seam() {
    let p = pos("6q5/12/3k8/6R5/12/12/6K5/12/12/12/6N5/12 w - - - 0 1");
    assert_eq!(moves(&p).len(), 13);
    includes(&p, "E7-E5 E7-E6 E7-E8 E7-E9 E7-E10");
    excludes(&p, "E12-D10 E12-F10 E7-D7");
}

#[test]
fn t33_position_strings_after_moves() {
    let p = pos(START_FEN);
    let line = ["E2-E4", "L7-L5", "G1-H3", "L5-L4", "F1-E2", "D7-D5", "O-O"];
    let mut q = p.clone();
    for m in line {
        q = after(&q, m);
    }
    assert_eq!(
        q.fen(),
        "12/1pppppppppp1/1prnbqkbnrp1/2ppp1ppppp1/12/5p6/1p4P5/9N2/1PPPPPBPPPP1/1PRNBQ1RK1P1/1PPPPPPPPPP1/12 b kq - LABCDFGHI/abcefghi 1 4"
    );
    // every string read back gives the same string
    let mut r = p.clone();
    for m in line {
        r = after(&r, m);
        assert_eq!(pos(&r.fen()).fen(), r.fen());
        assert_eq!(pos(&r.fen()).key(), r.key());
    }
}

#[test]
fn t34_move_text() {
    let p = pos(START_FEN);
    for (input, canonical) in [
        ("E2-E4", "E2-E4"),
        ("e2e4", "E2-E4"),
        ("E2E4", "E2-E4"),
        ("b1-a11", "B1-A11"),
        ("B1A11", "B1-A11"),
        ("e2xe4", "E2-E4"),
        ("E2-E4+", "E2-E4"),
        ("  e2-e4  ", "E2-E4"),
    ] {
        let mv = p
            .parse_move(input)
            .unwrap_or_else(|e| panic!("{input}: {e}"));
        assert_eq!(p.move_text(mv), canonical, "{input}");
    }
    for bad in [
        "", "E2", "E2-", "E2-E4Q", "E2-E4=K", "Z2-E4", "E2-E13", "E2/E4",
    ] {
        assert!(p.parse_move(bad).is_err(), "{bad}");
    }
    // a move that names no legal move says why
    let e = p.parse_move("E2-E5").unwrap_err().to_string();
    assert!(e.contains("illegal"), "{e}");
    let e = p.parse_move("E7-E5").unwrap_err().to_string();
    assert!(e.contains("not White's"), "{e}");
}

#[test]
fn t35_move_text_promotion_and_castling() {
    let p = pos("6k5/12/12/6P5/12/12/12/12/12/2R3K2R2/12/12 w KQ - - 0 1");
    for (input, canonical) in [
        ("E7-E8=Q", "E7-E8=Q"),
        ("e7e8q", "E7-E8=Q"),
        ("E7E8=N", "E7-E8=N"),
        ("O-O", "O-O"),
        ("E1-G1", "O-O"),
        ("e1c1", "O-O-O"),
        ("O-O-O", "O-O-O"),
        ("0-0", "O-O"),
        ("0-0-0", "O-O-O"),
        ("o-o", "O-O"),
        ("E1G1", "O-O"),
    ] {
        let mv = p
            .parse_move(input)
            .unwrap_or_else(|e| panic!("{input}: {e}"));
        assert_eq!(p.move_text(mv), canonical, "{input}");
    }
    let e = p.parse_move("E7-E8").unwrap_err().to_string();
    assert!(e.contains("must promote"), "{e}");
    let e = p.parse_move("E1-F1=Q").unwrap_err().to_string();
    assert!(e.contains("not a promotion"), "{e}");
}

#[test]
fn t36_position_strings_that_must_be_rejected() {
    let cases = [
        ("position string", "12/12/6k5/12/12/12/12/12/12/6K5/12/12 w - - 0 1"),
        ("position string", "12/1pppppppppp1/1prnbqkbnrp1/1pppppppppp1/12/12/12/12/1PPPPPPPPPP1/1PRNBQKBNRP1/1PPPPPPPPPP1/12 w KQkq - LABCDEFGHI/labcdefghi"),
        ("board", "11/1pppppppppp1/1prnbqkbnrp1/1pppppppppp1/12/12/12/12/1PPPPPPPPPP1/1PRNBQKBNRP1/1PPPPPPPPPP1/12 w KQkq - LABCDEFGHI/labcdefghi 0 1"),
        ("board", "13/1pppppppppp1/1prnbqkbnrp1/1pppppppppp1/12/12/12/12/1PPPPPPPPPP1/1PRNBQKBNRP1/1PPPPPPPPPP1/12 w KQkq - LABCDEFGHI/labcdefghi 0 1"),
        ("board", "12/1pppppppppp1/1prnbqxbnrp1/1pppppppppp1/12/12/12/12/1PPPPPPPPPP1/1PRNBQKBNRP1/1PPPPPPPPPP1/12 w KQkq - LABCDEFGHI/labcdefghi 0 1"),
        ("board", "12/1pppppppppp1/1prnbqqbnrp1/1pppppppppp1/12/12/12/12/1PPPPPPPPPP1/1PRNBQKBNRP1/1PPPPPPPPPP1/12 w KQkq - LABCDEFGHI/labcdefghi 0 1"),
        ("board", "6k5/12/6P5/12/12/12/12/12/12/6K5/12/12 w - - - 0 1"),
        ("board", "12/12/6k5/12/12/12/12/12/12/6K5/12/6P5 w - - - 0 1"),
        ("side to move", "12/12/6k5/12/12/12/12/12/12/6K5/12/12 x - - - 0 1"),
        ("castling", "12/12/6k5/12/12/12/12/12/12/6K5/12/12 w K - - 0 1"),
        ("castling", "12/1pppppppppp1/1prnbqkbnrp1/1pppppppppp1/12/12/12/12/1PPPPPPPPPP1/1PRNBQKBNRP1/1PPPPPPPPPP1/12 w QKkq - LABCDEFGHI/labcdefghi 0 1"),
        ("en passant", "12/1pppppppppp1/1prnbqkbnrp1/1pppppppppp1/12/12/12/12/1PPPPPPPPPP1/1PRNBQKBNRP1/1PPPPPPPPPP1/12 w KQkq E6 LABCDEFGHI/labcdefghi 0 1"),
        ("double-step rights", "12/12/6k5/12/12/12/12/12/12/6K5/12/12 w - - E/- 0 1"),
        ("double-step rights", "12/1pppppppppp1/1prnbqkbnrp1/1pppppppppp1/12/12/12/12/1PPPPPPPPPP1/1PRNBQKBNRP1/1PPPPPPPPPP1/12 w KQkq - KLABCDEFGHI/labcdefghi 0 1"),
        ("double-step rights", "12/1pppppppppp1/1prnbqkbnrp1/1pppppppppp1/12/12/12/12/1PPPPPPPPPP1/1PRNBQKBNRP1/1PPPPPPPPPP1/12 w KQkq - BA/labcdefghi 0 1"),
        ("halfmove clock", "12/1pppppppppp1/1prnbqkbnrp1/1pppppppppp1/12/12/12/12/1PPPPPPPPPP1/1PRNBQKBNRP1/1PPPPPPPPPP1/12 w KQkq - LABCDEFGHI/labcdefghi -1 1"),
        ("fullmove number", "12/1pppppppppp1/1prnbqkbnrp1/1pppppppppp1/12/12/12/12/1PPPPPPPPPP1/1PRNBQKBNRP1/1PPPPPPPPPP1/12 w KQkq - LABCDEFGHI/labcdefghi 0 0"),
        ("board", "12/12/6k5/6R5/12/12/12/12/12/6K5/12/12 w - - - 0 1"),
    ];
    for (field, fen) in cases {
        match VyrtPosition::from_fen(fen, Rules::default()) {
            Ok(_) => panic!("accepted: {fen}"),
            Err(e) => {
                assert_eq!(e.field, field, "{fen}: {e}");
                assert!(e.to_string().contains(field));
            }
        }
    }
}

#[test]
fn more_position_strings_that_must_be_rejected() {
    let base = |board: &str, rest: &str| format!("{board} w {rest}");
    let kings = "12/12/6k5/12/12/12/12/12/12/6K5/12/12";
    for (field, fen) in [
        ("position string", format!("{kings}  w - - - 0 1")),
        ("position string", format!(" {kings} w - - - 0 1 1")),
        (
            "board",
            "12/12/6k5/12/12/12/12/12/12/6K5/12 w - - - 0 1".to_string(),
        ),
        (
            "board",
            "12/12/6k5/12/12/12/12/12/12/6K5/12/012 w - - - 0 1".to_string(),
        ),
        (
            "board",
            "12/12/6k5/12/12/12/12/12/12/6K5/12/66 w - - - 0 1".to_string(),
        ),
        (
            "board",
            "12/12/6k5/12/12/12/12/12/12/6K5/12/0 w - - - 0 1".to_string(),
        ),
        (
            "board",
            "12/12/6k5/12/12/12/12/12/12/6K5/12/13P w - - - 0 1".to_string(),
        ),
        (
            "board",
            "12/12/6k5/12/12/12/12/12/12/6K6/12/12 w - - - 0 1".to_string(),
        ),
        (
            "board",
            "12/12/6k5/12/12/12/12/12/12/6K5/12/PPPPPPPPPPPPP w - - - 0 1".to_string(),
        ),
        // a Black pawn on rank 1, a Black pawn on rank 10
        (
            "board",
            "12/12/6k5/12/12/12/12/12/12/5pK5/12/12 w - - - 0 1".to_string(),
        ),
        (
            "board",
            "p11/12/6k5/12/12/12/12/12/12/6K5/12/12 w - - - 0 1".to_string(),
        ),
        // more than 22 pawns; more promoted pieces than missing pawns
        (
            "board",
            "12/12/6k5/PPPPPPPPPPPP/PPPPPPPPPPPP/12/12/12/12/6K5/12/12 w - - - 0 1".to_string(),
        ),
        (
            "board",
            "12/12/6k5/12/12/QQ10/12/PPPPPPPPPPP1/PPPPPPPPPPP1/6K5/12/12 w - - - 0 1".to_string(),
        ),
        // two White Kings
        (
            "board",
            "12/12/6k5/12/12/12/12/12/12/6K4K/12/12 w - - - 0 1".to_string(),
        ),
        ("side to move", format!("{kings} W - - - 0 1")),
        ("castling", base(kings, "KK - - 0 1")),
        ("castling", base(kings, "X - - 0 1")),
        ("en passant", base(kings, "- E9 - 0 1")),
        ("en passant", base(kings, "- E6 - 0 1")),
        ("en passant", base(kings, "- Z6 - 0 1")),
        (
            "en passant",
            base("12/12/6k5/12/12/12/12/12/12/6K5/12/12", "- K6 - 0 1"),
        ),
        ("double-step rights", base(kings, "- - -/- 0 1")),
        ("double-step rights", base(kings, "- - E 0 1")),
        ("double-step rights", base(kings, "- - e/- 0 1")),
        ("double-step rights", base(kings, "- - /e 0 1")),
        ("halfmove clock", base(kings, "- - - 01 1")),
        ("halfmove clock", base(kings, "- - - +1 1")),
        ("fullmove number", base(kings, "- - - 0 x")),
    ] {
        match VyrtPosition::from_fen(&fen, Rules::default()) {
            Ok(_) => panic!("accepted: {fen}"),
            Err(e) => assert_eq!(e.field, field, "{fen}: {e}"),
        }
    }
    // a promoted Queen with a missing pawn is fine
    let ok = "12/12/6k5/12/12/QQ10/12/PPPPPPPPPPP1/PPPPPPPPPP2/6K5/12/12 w - - - 0 1";
    assert!(VyrtPosition::from_fen(ok, Rules::default()).is_ok());
}

#[test]
fn section_8_position_string_after_e2_e4() {
    let p = after(&pos(START_FEN), "E2-E4");
    assert_eq!(
        p.fen(),
        "12/1pppppppppp1/1prnbqkbnrp1/1pppppppppp1/12/12/6P5/12/1PPPPP1PPPP1/1PRNBQKBNRP1/1PPPPPPPPPP1/12 b KQkq E3 LABCDFGHI/labcdefghi 0 1"
    );
}

#[test]
fn section_11_perft_table() {
    let rows: [(&str, &[u64]); 12] = [
        ("6k5/12/12/12/12/NK4P4r/12/12/12/12/12/12 w - - - 0 1", &[7, 175, 2_425, 68_884, 975_165, 28_280_375]),
        ("12/12/6k5/12/12/12/12/12/12/2R3K2R1r/12/12 w KQ - - 0 1", &[18, 399, 13_978, 351_347, 15_097_808]),
        ("1b9b/B11/6k5/12/12/12/12/6K5/5P1P4/12/12/12 w - - - 0 1", &[4, 160, 3_404, 151_502, 3_588_822]),
        ("6k5/12/12/12/12/3r2N2KpP/12/12/12/12/12/12 w - I6 - 0 1", &[8, 214, 2_814, 81_712, 1_148_358, 33_528_402]),
        ("6k5/12/r9n1/11P/12/12/12/12/12/2K9/12/12 w - - - 0 1", &[20, 626, 13_968, 396_242, 11_040_738]),
        ("12/k11/12/12/12/12/12/6B5/12/9K2/12/12 b - - - 0 1", &[4, 116, 655, 18_619, 119_844, 3_399_375]),
        ("12/1pppppppppp1/1pr3k2rp1/1pppppppppp1/12/12/12/12/1PPPPPPPPPP1/1PR3K2RP1/1PPPPPPPPPP1/12 w KQkq - LABCDEFGHI/labcdefghi 0 1", &[34, 1_156, 38_088, 1_254_872, 40_355_743]),
        ("12/12/12/7Q4/12/6k5/4Q7/12/12/12/12/K11 w - - - 7 51", &[92, 176, 16_150, 54_790, 5_004_680]),
        ("4n7/1pp1ppppppp1/1prpb1k2rQB/1p1pp7/2p4p1p2/6p1P1p1/RPqb1p4P1/12/1P1P1PPPP3/3P2KB1PP1/NPP1PPPPP1N1/9n2 b kq - BDEFG/lbc 0 33", &[82, 5_875, 461_967, 33_081_780]),
        ("12/1ppppppp1pp1/1p1n1qk1n1p1/1p3bpr4/2r1pp3p2/2P4p2p1/1P4PPpPP1/2bP1P6/1N2PK2P3/1P1RBQ1BRPP1/1PPPPPPPP1P1/12 b - H3 CG/le 0 23", &[50, 1_532, 79_656, 2_667_994]),
        ("12/1p2pppp1pp1/1p1p4n3/2pN1kpB2p1/1P3p1r4/4p3K1p1/7P1P2/3PnPBRP1pb/9PQ1/1PR2P2P1P1/1PPPP1PP2P1/12 b - - -/e 5 68", &[3, 207, 10_598, 698_927, 36_129_886]),
        (START_FEN, &[28, 784, 24_792, 779_419]),
    ];
    for (fen, counts) in rows {
        let p = pos(fen);
        assert_eq!(p.fen(), fen);
        for (d, &n) in counts.iter().enumerate() {
            assert_eq!(p.perft(d as u32 + 1), n, "{fen} depth {}", d + 1);
        }
    }
}

#[test]
fn section_11_special_moves_in_the_random_positions() {
    // random-castling-refused: Black's O-O is refused (the White Queen on I8 sees G8 once
    // the H8 Rook has left)
    let p = pos("4n7/1pp1ppppppp1/1prpb1k2rQB/1p1pp7/2p4p1p2/6p1P1p1/RPqb1p4P1/12/1P1P1PPPP3/3P2KB1PP1/NPP1PPPPP1N1/9n2 b kq - BDEFG/lbc 0 33");
    excludes(&p, "O-O");
    // random-en-passant: G4xH3 en passant
    let p = pos("12/1ppppppp1pp1/1p1n1qk1n1p1/1p3bpr4/2r1pp3p2/2P4p2p1/1P4PPpPP1/2bP1P6/1N2PK2P3/1P1RBQ1BRPP1/1PPPPPPPP1P1/12 b - H3 CG/le 0 23");
    let ep = p.parse_move("G4-H3").unwrap();
    assert!(ep.is_en_passant());
    // random-check-across-both-seams: in check from the Queen on I2
    let p = pos("12/1p2pppp1pp1/1p1p4n3/2pN1kpB2p1/1P3p1r4/4p3K1p1/7P1P2/3PnPBRP1pb/9PQ1/1PR2P2P1P1/1PPPP1PP2P1/12 b - - -/e 5 68");
    assert!(p.is_check());
    assert_eq!(moves(&p).len(), 3);
    // two-queens-mate-or-stalemate-in-one
    let p = pos("12/12/12/7Q4/12/6k5/4Q7/12/12/12/12/K11 w - - - 7 51");
    let mate = p.parse_move("F7-E6").unwrap();
    assert_eq!(p.move_human(mate), "F7-E6#");
    checkmate(&after(&p, "F7-E6"), Color::White);
    let stale = after(&p, "C4-B4");
    assert_eq!(stale.outcome().unwrap().termination, Termination::Stalemate);
}

#[test]
fn human_form() {
    let p = pos("5k6/12/5r6/6P5/12/12/12/12/12/2K9/12/12 w - - - 0 1");
    let mv = p.parse_move("E7-D8=Q").unwrap();
    assert_eq!(p.move_human(mv), "E7xD8=Q+");
    assert_eq!(p.parse_move("E7xD8=Q+").unwrap(), mv);
    assert_eq!(p.move_human(p.parse_move("E7-E8=R").unwrap()), "E7-E8=R");
    let q = after(
        &pos("9k2/12/12/6p5/12/5P6/12/12/12/2K9/12/12 b - - -/e 0 1"),
        "E7-E5",
    );
    let ep = q.parse_move("D5xE6 e.p.").unwrap();
    assert_eq!(q.move_text(ep), "D5-E6");
    assert_eq!(q.parse_move("d5e6e.p.").unwrap(), ep);
    let c = pos("6k5/12/12/12/12/1p10/12/12/12/6K2R2/12/12 w K - - 0 1");
    let castle = c.parse_move("O-O").unwrap();
    assert_eq!(c.move_human(castle), "O-O");
    assert_eq!(
        pos(START_FEN).move_human(pos(START_FEN).parse_move("E2E4").unwrap()),
        "E2-E4"
    );
}

#[test]
fn game_endings_in_play() {
    // threefold repetition
    let mut g = Game::new(pos(START_FEN));
    for m in [
        "B1-A3", "B8-A6", "A3-B1", "A6-B8", "B1-A3", "B8-A6", "A3-B1",
    ] {
        g.push_text(m).unwrap();
        assert!(g.outcome().is_none());
    }
    g.push_text("A6-B8").unwrap();
    let o = g.outcome().unwrap();
    assert_eq!(o.termination, Termination::Repetition);
    assert_eq!(o.to_string(), "Draw by threefold repetition");
    assert!(g.legal_moves().is_empty());

    // the fifty-move rule
    let mut g = Game::new(pos(
        "6k5/12/12/12/12/12/12/12/1P10/6K2R2/12/12 w - - - 99 80",
    ));
    g.push_text("H1-H2").unwrap();
    let o = g.outcome().unwrap();
    assert_eq!(o.termination, Termination::FiftyMoves);
    assert_eq!(o.to_string(), "Draw by the fifty-move rule");

    // ... unless the move that reaches it is checkmate
    let mut g = Game::new(pos("12/12/12/7Q4/12/6k5/4Q7/12/12/12/12/K11 w - - - 99 51"));
    g.push_text("F7-E6").unwrap();
    assert_eq!(g.position().halfmove_clock(), 100);
    assert_eq!(g.outcome().unwrap().termination, Termination::Checkmate);

    // a dead position ends the game at once; the position still lists its moves
    let mut g = Game::new(pos("12/9k2/12/12/12/12/12/2Q3n5/12/12/12/K11 w - - - 0 1"));
    assert!(g.outcome().is_none());
    g.push_text("A3xE3").unwrap();
    let o = g.outcome().unwrap();
    assert_eq!(o.termination, Termination::DeadPosition);
    assert!(g.legal_moves().is_empty());
    let mut list = Vec::new();
    g.position().legal_moves(&mut list);
    assert!(!list.is_empty());
    assert!(g.push_text("H9-H8").is_err());
}

#[test]
fn start_diagram_matches_section_4() {
    let picture = "
 10 | . . . . . . . . . . . .
  9 | . p p p p p p p p p p .
  8 | . p r n b q k b n r p .
  7 | . p p p p p p p p p p .
  6 | . . . . . . . . . . . .
  5 | . . . . . . . . . . . .
  4 | . . . . . . . . . . . .
  3 | . . . . . . . . . . . .
  2 | . P P P P P P P P P P .
  1 | . P R N B Q K B N R P .
 12 | . P P P P P P P P P P .
 11 | . . . . . . . . . . . .
      K L A B C D E F G H I J      (upper case White)";
    let want: Vec<&str> = picture
        .lines()
        .skip(1)
        .map(|l| l.split("  (").next().unwrap().trim())
        .collect();
    let drawn = diagram(&pos(START_FEN), DiagramOptions::default());
    let got: Vec<&str> = drawn.lines().take(13).map(str::trim).collect();
    assert_eq!(got, want);
    assert!(drawn.contains("White to move"));
}

#[test]
fn centred_diagram_puts_the_square_in_the_middle() {
    let p = pos(START_FEN);
    let e5 = p.geometry().parse_square("E5").unwrap();
    let drawn = diagram(&p, DiagramOptions { center: Some(e5) });
    let lines: Vec<&str> = drawn.lines().collect();
    let files: Vec<&str> = lines[12].split_whitespace().collect();
    assert_eq!(
        files,
        ["L", "A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K"]
    );
    let ranks: Vec<&str> = lines[..12]
        .iter()
        .map(|l| l.split('|').next().unwrap().trim())
        .collect();
    assert_eq!(
        ranks,
        ["11", "10", "9", "8", "7", "6", "5", "4", "3", "2", "1", "12"]
    );
    // rank 8 recentred: L8 (pawn) first, K8 (empty) last
    assert_eq!(
        lines[3].split('|').nth(1).unwrap().trim(),
        "p r n b q k b n r p . ."
    );
}

#[test]
fn variant_spec() {
    let specs = variants();
    assert_eq!(specs.len(), 1);
    let spec = specs[0];
    assert_eq!(spec.id, "vyrt");
    assert_eq!(spec.start_fen, START_FEN);
    assert_eq!(spec.options.len(), OPTIONS.len());
    for o in spec.options {
        assert_eq!(o.values[0], "off", "{}: the default is the ruling", o.name);
    }
    let p = (spec.from_fen)(spec.start_fen, &RuleOptions::new()).unwrap();
    assert_eq!(p.variant(), "vyrt");
    assert_eq!(p.perft(2), 784);
    let bad = RuleOptions::parse(&["no-such-rule"]).unwrap();
    let e = (spec.from_fen)(spec.start_fen, &bad).unwrap_err();
    assert_eq!(e.field, "rule options");
}

#[test]
fn reversed_back_pawns_option() {
    // The back-row pawns walk away from the centre: White's from rank 12 towards 11, 10, 9, 8,
    // Black's from rank 9 towards 10, 11, 12, 1. The rank a pawn stands on tells which way it
    // walks (White: ranks 9-12 reversed, 1-7 ordinary), so no extra letter is needed.
    let options = RuleOptions::parse(&["reversed-back-pawns=on"]).unwrap();
    let rules = Rules::from_options(&options).unwrap();
    let p = VyrtPosition::start(rules);
    assert_eq!(p.fen(), START_FEN);
    // 28 + 10 back-row steps for White
    assert_eq!(moves(&p).len(), 38);
    includes(&p, "A12-A11 L12-L11 I12-I11");
    // A12 and A9 walk towards each other across the 10/11 seam and meet head on
    let q = after(&p, "A12-A11 A9-A10");
    assert_eq!(
        q.fen(),
        "2p9/1p1pppppppp1/1prnbqkbnrp1/1pppppppppp1/12/12/12/12/1PPPPPPPPPP1/1PRNBQKBNRP1/1P1PPPPPPPP1/2P9 w KQkq - LABCDEFGHI/labcdefghi 0 2"
    );
    assert!(moves_of(&q, "A11").is_empty());
    assert_eq!(
        VyrtPosition::from_fen(&q.fen(), rules).unwrap().fen(),
        q.fen()
    );
    // a White pawn on rank 9 promotes on rank 8 by stepping down
    let r = VyrtPosition::from_fen("6k5/3P8/12/12/12/12/12/12/12/6K5/12/12 w - - - 0 1", rules)
        .unwrap();
    assert_eq!(
        moves_of(&r, "B9"),
        sorted("B9-B8=Q B9-B8=R B9-B8=B B9-B8=N")
    );
    // ... where under the rulings a White pawn cannot stand on rank 9 at all
    assert!(VyrtPosition::from_fen(
        "6k5/3P8/12/12/12/12/12/12/12/6K5/12/12 w - - - 0 1",
        Rules::default()
    )
    .is_err());
    // a reversed Black pawn on rank 12 captures onto rank 1 (promotion) across the seam
    let s = VyrtPosition::from_fen(
        "6k5/12/12/12/12/12/12/12/12/1N4K4N/p11/12 b - - - 0 1",
        rules,
    )
    .unwrap();
    includes(&s, "K12-K1=Q K12-L1=Q K12-J1=N");
    assert_eq!(moves_of(&s, "K12").len(), 12);
}

#[test]
fn illegal_moves_name_the_rule() {
    let reason = |fen: &str, text: &str| pos(fen).parse_move(text).unwrap_err().to_string();
    // T17: the Knight is pinned on one side of the King
    let t17 = "6k5/12/12/12/12/NK4P4r/12/12/12/12/12/12 w - - - 0 1";
    assert!(
        reason(t17, "K5-I4").contains("pinned"),
        "{}",
        reason(t17, "K5-I4")
    );
    // T16: in check, the block on one side does not end the check
    let t16 = "9K2/12/12/12/12/5n6/12/2R3k5/12/12/12/12 b - - - 0 1";
    assert!(reason(t16, "D5-C3").contains("does not end the check"));
    // T22a: the King may not step onto F1 (the Bishop across the seam), nor castle
    let t22a = "6k5/12/12/12/b11/12/12/12/12/6K2R2/12/12 w K - - 0 1";
    assert!(reason(t22a, "E1-F1").contains("attacks"));
    assert!(
        reason(t22a, "O-O").contains("attacked square"),
        "{}",
        reason(t22a, "O-O")
    );
    assert!(reason(t22a, "E1-G1").contains("attacked square"));
    assert!(reason(t22a, "O-O-O").contains("right is gone"));
    // T28a: the Rook's departure opens the rank
    let t28a = "12/12/6k5/12/12/12/12/12/12/2R3K2R1r/12/12 w KQ - - 0 1";
    assert!(reason(t28a, "O-O").contains("in check after castling"));
    // a unit that does not move that way
    assert!(reason(START_FEN, "C1-C3").contains("a Bishop on C1 cannot go to C3"));
    assert!(reason(START_FEN, "E3-E4").contains("no unit on E3"));
    // the game is over
    let mate = "12/12/12/12/6Q5/6k5/4Q7/12/12/12/12/K11 b - - - 0 1";
    assert!(reason(mate, "E5-E4").contains("game is over"));
}

#[test]
fn en_passant_counts_for_repetition_only_when_it_can_be_played() {
    // After E2-E4 no Black pawn can take on E3, so the position with the en passant square
    // set is the same position as when it recurs without it (§7.1).
    let mut g = Game::new(pos(START_FEN));
    g.push_text("E2-E4").unwrap();
    let shuffle = ["B8-A6", "G1-H3", "A6-B8", "H3-G1"];
    for m in shuffle.iter().chain(shuffle.iter()) {
        assert!(g.outcome().is_none());
        g.push_text(m).unwrap();
    }
    assert_eq!(g.outcome().unwrap().termination, Termination::Repetition);
    // T21: after E7-E5 the capture D5xE6 is possible, so the square counts
    let p = after(
        &pos("9k2/12/12/6p5/12/5P6/12/12/12/2K9/12/12 b - - -/e 0 1"),
        "E7-E5",
    );
    let without = pos(&p.fen().replace(" E6 ", " - "));
    assert_ne!(p.key(), without.key());
    // T30: the en passant square is set but the capture is illegal, so it does not count
    let t30 = "6k5/12/12/12/12/3r2N2KpP/12/12/12/12/12/12 w - I6 - 0 1";
    assert_eq!(pos(t30).key(), pos(&t30.replace(" I6 ", " - ")).key());
}

#[test]
fn garbage_never_panics() {
    // Mutations of valid strings (the start, and strings under the options) must give an
    // error or a position whose string reads back the same; garbage move text must give an
    // error or a legal move.
    let mut rng = menagerie_core::zobrist::KeyGen::new(99);
    let alphabet: Vec<char> = "0123456789/ -,KQRBNPkqrbnpwLABCDEFGHIJxe.=+#\u{e9}\u{41f}"
        .chars()
        .collect();
    let any = Rules {
        double_step_any_unmoved: true,
        reversed_back_pawns: false,
    };
    let seeds = [
        (START_FEN.to_string(), Rules::default()),
        (start_fen(any), any),
        (
            "6k5/12/12/12/12/3r2N2KpP/12/12/12/12/12/12 w - I6 - 0 1".to_string(),
            Rules::default(),
        ),
    ];
    for (seed, rules) in &seeds {
        for _ in 0..3000 {
            let mut chars: Vec<char> = seed.chars().collect();
            for _ in 0..1 + rng.next() % 4 {
                let at = (rng.next() % (chars.len() as u64 + 1)) as usize;
                let c = alphabet[(rng.next() % alphabet.len() as u64) as usize];
                match rng.next() % 3 {
                    0 if at < chars.len() => chars[at] = c,
                    1 if at < chars.len() => {
                        chars.remove(at);
                    }
                    _ => chars.insert(at, c),
                }
            }
            let text: String = chars.into_iter().collect();
            if let Ok(p) = VyrtPosition::from_fen(&text, *rules) {
                let again = VyrtPosition::from_fen(&p.fen(), *rules).unwrap();
                assert_eq!(again.fen(), p.fen(), "{text}");
                p.perft(2);
            }
        }
    }
    let p = pos(START_FEN);
    for _ in 0..5000 {
        let len = rng.next() % 9;
        let text: String = (0..len)
            .map(|_| alphabet[(rng.next() % alphabet.len() as u64) as usize])
            .collect();
        if let Ok(m) = p.parse_move(&text) {
            let mut list = Vec::new();
            p.legal_moves(&mut list);
            assert!(list.contains(&m), "{text}");
        }
    }
}
