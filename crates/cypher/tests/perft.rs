//! Perft figures of rulebook section 16.

use menagerie_core::Position;
use menagerie_cypher::{CypherPosition, START_FEN};

fn perft(fen: &str, depth: u32) -> u64 {
    CypherPosition::from_fen_default(fen)
        .unwrap_or_else(|e| panic!("{fen}: {e}"))
        .perft(depth)
}

/// (name, position string, perft figures from depth 1).
const ROWS: &[(&str, &str, &[u64])] = &[
    ("start", START_FEN, &[39, 1_357, 54_974, 2_310_997, 108_349_414]),
    (
        "opening-black-spy-field",
        "5n4/1sr1b1nr2/4qkb3/1pppppppp1/10/1P6P1/4P5/2PP1PPP2/3BQKB3/2RN2NR2/2S7 b - Ii 0+0 0/0 0 4",
        &[35, 1_919, 77_956, 4_482_573],
    ),
    (
        "infiltration-king-capture-white",
        "2s1k5/8r1/3b1qn3/5p4/1p1p3p2/10/2P3K1S1/1PQ1N2PP1/3B4R1/10/10 w - Ii 0+0 0/0 3 31",
        &[52, 5_156, 260_551],
    ),
    (
        "four-check-counter-3-black",
        "10/5n4/10/1p2k5/2N3Nr2/2RP2Pp2/2Qp3Pb1/4RK4/1r6S1/3sB5/10 b - Ii 0+3 5/5 1 52",
        &[48, 2_927, 125_214],
    ),
    (
        "collusion-court-kings-pools",
        "10/2nk6/10/1B2p2n2/2r1P2P2/1PpPSp1pP1/1b8/5b4/3s6/7q2/1N1K6 w - Ii 0+0 3/4 0 59",
        &[38, 1_724, 59_228, 3_195_408],
    ),
    (
        "in-check-by-collusion-black",
        "2s7/4Sr4/4B5/1pp2k1p2/7Bp1/1qpPp1Pbb1/10/10/7KR1/1N8/r9 b - Ii 1+0 6/2 2 49",
        &[5, 92, 7_703, 265_824],
    ),
    (
        "coup-one-step-away",
        "1R2b5/6s3/8n1/n5N3/6r3/1P1Ppkppp1/10/2P3pP2/5S2p1/6q3/6K3 b - I 0+0 4/2 1 69",
        &[62, 2_528, 152_041],
    ),
    (
        "combined-and-spy-capture",
        "7n1S/4r1Qk2/3s6/1R6b1/5q4/1PpprPppP1/10/1b3R4/6K3/4N1N2B/10 w - Ii 0+0 5/4 0 49",
        &[68, 3_748, 243_002],
    ),
    (
        "retake-window-open-black",
        "9q/1Qrbb2r2/1s2Rk4/1pp2p4/7PP1/2P4pP1/1PpP1p2S1/R2P2P3/3B6/3N2N3/7K2 b d8 Ii 0+0 0/2 0 23",
        &[60, 3_976, 211_433],
    ),
    (
        "collusion-check-white-black-king-on-border",
        "2r7/3Qn2R2/10/q3P2n2/10/1P1PBP1kP1/1p5Pb1/2rs1K2S1/1N4B3/1R4N3/10 w - I 0+1 2/7 1 53",
        &[4, 146, 7_020, 458_987],
    ),
    (
        "infiltration-out-of-check",
        "4q5/2r4r2/3s1k2n1/1pppn3p1/10/1PqSp1bbp1/3N2K3/10/10/4BBN3/R9 w - Ii 0+1 7/1 0 32",
        &[13, 1_071, 55_226, 4_094_961],
    ),
    (
        "court-entry-and-release",
        "4k5/2rn3r2/5qb3/1pp2ppn2/3ps2p2/1Pp1PPpPQ1/10/1P3P4/1B3KBR2/S1bN2N3/10 w - Ii 0+0 2/0 0 21",
        &[65, 2_994, 196_807],
    ),
];

/// Every figure up to about five million leaves runs in well under a second each.
#[test]
fn every_row_of_section_16() {
    for (name, fen, figures) in ROWS {
        for (i, &expected) in figures.iter().enumerate() {
            if expected > 5_000_000 {
                continue;
            }
            let depth = i as u32 + 1;
            assert_eq!(perft(fen, depth), expected, "{name} perft({depth})");
        }
    }
}

#[test]
fn perft_from_the_start_matches_the_rulebook() {
    let pos = CypherPosition::start();
    assert_eq!(pos.perft(0), 1);
    assert_eq!(pos.perft(1), 39);
    assert_eq!(pos.perft(2), 1_357);
    assert_eq!(pos.perft(3), 54_974);
    assert_eq!(pos.perft(4), 2_310_997);
}

/// The generic perft (playing every leaf) agrees with the bulk-counting one.
#[test]
fn generic_perft_agrees() {
    for (name, fen, figures) in ROWS {
        let pos = CypherPosition::from_fen_default(fen).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            menagerie_core::perft::perft_generic(&pos, 2),
            figures[1],
            "{name}"
        );
    }
}

#[test]
#[ignore = "about five seconds in release; run with --ignored"]
fn start_perft_5() {
    assert_eq!(CypherPosition::start().perft(5), 108_349_414);
}
