//! Perft figures of the rulebook's §19. Depths that run in about a second are asserted in
//! every run; the deeper ones are `#[ignore]`d (`cargo test -- --ignored`).

mod common;
use common::*;
use menagerie_cheops::Style;
use menagerie_core::Position;

fn check(style: Style, fen: &str, figures: &[u64]) {
    let p = pos(style, fen);
    for (i, &want) in figures.iter().enumerate() {
        let depth = i as u32 + 1;
        assert_eq!(p.perft(depth), want, "perft {depth} of {fen}");
    }
}

const START_COMMON: &str = "tnnqkeiit/ppppppppp/9/2c3c2/9/2C3C2/9/PPPPPPPPP/TIIEKQNNT w 0 1";
const START_IMPERIAL: &str = "tnnouqkedbiit/ppppppppppppp/2m1a3a1m2/3c5c3/13/13/13/13/13/3C5C3/2M1A3A1M2/PPPPPPPPPPPPP/TIIBDEKQUONNT w - - 0 1 -";

#[test]
fn start_common() {
    check(C, START_COMMON, &[31, 955, 29_758, 923_932]);
}

#[test]
#[ignore = "about 8 s in release"]
fn start_common_deep() {
    assert_eq!(pos(C, START_COMMON).perft(5), 29_762_586);
}

#[test]
fn start_imperial() {
    check(I, START_IMPERIAL, &[55, 2_970, 169_304]);
}

#[test]
#[ignore = "about 5 s in release"]
fn start_imperial_deep() {
    assert_eq!(pos(I, START_IMPERIAL).perft(4), 9_509_929);
}

#[test]
fn common_master_promotion() {
    check(
        C,
        "1m1uk3t/2P4P1/1p4p2/n2c5/9/2C2Q3/P8/6D2/M3K4 w 0 1",
        &[105, 2_820, 244_621],
    );
}

#[test]
fn common_abdication() {
    check(C, "8k/p8/6D2/9/9/9/4q4/1P7/4K3t w 0 1", &[1, 46, 263]);
}

#[test]
fn imperial_castle_forming() {
    check(
        I,
        "13/9t3/10k2/5p3c1c1/8t4/6a6/10m2/5C7/2C10/3K9/2TPM8/1P5N5/13 w - - 0 1 -",
        &[51, 4_276, 209_524],
    );
}

#[test]
fn imperial_appointment() {
    check(
        I,
        "k12/6a6/2c1c3m4/3K9/2t1t8/13/5n7/9b3/6CC5/13/7Q5/10P2/13 w d10:w@d10 - 0 1 -",
        &[52, 2_226, 113_167],
    );
}

#[test]
fn imperial_arrest() {
    check(
        I,
        "k12/1u11/2c1c8/3K9/2t1t8/13/13/5inp5/6C6/7C5/13/13/12T w d10:w@d10 g5 0 1 h4",
        &[66, 1_897, 102_318],
    );
}

#[test]
fn imperial_inspection() {
    check(
        I,
        "k12/6a6/2c1c3m4/3K9/2t1t8/13/5n7/9b3/6CC5/13/7Q5/10P2/13 b d10:w@d10 - 1 1 g5",
        &[45, 2_537, 104_977],
    );
}

#[test]
fn common_random_1() {
    check(
        C,
        "t1n5t/pp1pp1ppi/n1p2ck1p/1q2c4/4Cp3/2NP5/P4CP2/P2PPP1PP/TIIEK2NT w 2 21",
        &[35, 1_660, 58_813],
    );
}

#[test]
fn imperial_random_1() {
    check(
        I,
        "t1nouq1edbiit/2p1pk1ppppp1/p3ppp5p/1p6Ma3/1nm1c4c3/13/13/3C9/5A3C3/12P/P4M4AN1/1PPPPPPPPPPP1/TIIBD1KQU1OmT w - - 0 26 -",
        &[76, 4_578, 341_038],
    );
}

/// The fast perft agrees with the core's generic walk (which plays every move through the
/// `Position` trait), so the bulk counting is no shortcut.
#[test]
fn bulk_counting_agrees_with_the_generic_walk() {
    for (style, fen) in [
        (C, "1m1uk3t/2P4P1/1p4p2/n2c5/9/2C2Q3/P8/6D2/M3K4 w 0 1"),
        (
            I,
            "k12/1u11/2c1c8/3K9/2t1t8/13/13/5inp5/6C6/7C5/13/13/12T w d10:w@d10 g5 0 1 h4",
        ),
    ] {
        let p = pos(style, fen);
        assert_eq!(p.perft(3), menagerie_core::perft::perft_generic(&p, 3));
    }
}
