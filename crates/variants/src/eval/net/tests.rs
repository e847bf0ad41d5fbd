use super::*;
use crate::eval::cheops::CheopsEval;
use crate::eval::random_index;
use menagerie_core::RuleOptions;
use menagerie_engine::{Evaluator, Mobility};

/// A network of `variant` with pseudo-random weights (every input non-zero), its input
/// rows, and its file's bytes.
fn random_network(variant: &str, seed: u64) -> (Network, Vec<[i16; HIDDEN]>, Vec<u8>) {
    let shape = shape(variant).expect("a variant with a network");
    let mut s = seed;
    let mut next = |range: i64| -> i16 {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        ((s % (2 * range as u64 + 1)) as i64 - range) as i16
    };
    let w0: Vec<[i16; HIDDEN]> = (0..shape.inputs())
        .map(|_| std::array::from_fn(|_| next(40)))
        .collect();
    let b0: [i16; HIDDEN] = std::array::from_fn(|_| next(200));
    let w1: Vec<i16> = (0..2 * HIDDEN).map(|_| next(64)).collect();
    let bytes = Network::to_bytes(variant, 80, &w0, &b0, &w1, 1234).expect("a known variant");
    let net = Network::from_bytes(variant, &bytes).expect("the bytes read back");
    (net, w0, bytes)
}

/// Positions of pseudo-random games of `variant` from its start: each with the game's
/// board letters and side to move.
fn random_boards(variant: &str, count: usize, seed: u64) -> Vec<(Box<dyn AnyGame>, Vec<u8>)> {
    let v = crate::find(variant).expect("a registered variant");
    let mut game = v.open(None, &RuleOptions::new()).expect("the start opens");
    let mut seed = seed;
    let mut out = Vec::new();
    while out.len() < count {
        let moves = game.legal_moves();
        if moves.is_empty() || game.outcome().is_some() || game.ply() > 120 {
            game = v.open(None, &RuleOptions::new()).expect("the start opens");
            continue;
        }
        let mv = &moves[random_index(&mut seed, moves.len())];
        game.push(mv).expect("a legal move plays");
        out.push((game.fork(), letters_of(game.as_ref())));
    }
    out
}

/// The board as Black sees it, with the colours swapped: each piece on the square Black's
/// view puts it ([`Shape::turned`]), in the other colour.
fn mirrored(shape: Shape, letters: &[u8]) -> Vec<u8> {
    let mut out = vec![0u8; letters.len()];
    for (sq, &c) in letters.iter().enumerate() {
        let swapped = if c.is_ascii_uppercase() {
            c.to_ascii_lowercase()
        } else {
            c.to_ascii_uppercase()
        };
        out[shape.turned(Color::Black, sq)] = swapped;
    }
    out
}

/// The board letters the evaluation hook reads from the typed position.
fn typed_letters(game: &dyn AnyGame) -> Vec<u8> {
    let any = game.as_any();
    if let Some(g) = any.downcast_ref::<Game<VyrtPosition>>() {
        g.position().letters().to_vec()
    } else if let Some(g) = any.downcast_ref::<Game<CypherPosition>>() {
        cypher_letters(g.position()).to_vec()
    } else if let Some(g) = any.downcast_ref::<Game<CheopsPosition>>() {
        let mut letters = [0u8; CHEOPS_SQUARES];
        g.position().letters_into(&mut letters);
        letters[..game.geometry().len()].to_vec()
    } else {
        panic!("no network for {}", game.variant())
    }
}

#[test]
fn every_shipped_network_reads_within_two_megabytes() {
    for (variant, bytes) in VARIANTS.iter().zip(SHIPPED) {
        let net = shipped(variant).unwrap_or_else(|| panic!("{variant}'s network reads"));
        assert_eq!(net.shape(), shape(variant).expect("a shape"));
        assert!(bytes.len() <= 2 << 20, "{variant}: {} bytes", bytes.len());
        assert!(
            (0..=200).contains(&net.limit()),
            "{variant}: {}",
            net.limit()
        );
    }
}

#[test]
fn the_hook_reads_the_letters_the_trainer_reads() {
    for variant in VARIANTS {
        for (game, letters) in random_boards(variant, 60, 7) {
            assert_eq!(typed_letters(game.as_ref()), letters, "{}", game.fen());
        }
    }
}

#[test]
fn turned_boards_with_the_other_side_to_move_evaluate_the_same() {
    for (k, variant) in VARIANTS.into_iter().enumerate() {
        let (random, _, _) = random_network(variant, 11 + k as u64);
        let nets = [
            &random,
            shipped(variant).expect("the shipped network reads"),
        ];
        let shape = shape(variant).expect("a shape");
        for (game, letters) in random_boards(variant, 80, 3 + k as u64) {
            let turned = mirrored(shape, &letters);
            let side = game.turn();
            for net in nets {
                assert_eq!(
                    net.evaluate(&letters, side),
                    net.evaluate(&turned, side.other()),
                    "{}",
                    game.fen()
                );
            }
        }
        // The start positions are symmetric, so the correction there is the same for
        // either side to move.
        let start = crate::find(variant)
            .and_then(|v| v.open(None, &RuleOptions::new()))
            .expect("the start opens");
        let letters = letters_of(start.as_ref());
        assert_eq!(mirrored(shape, &letters), letters, "{variant}'s start");
        assert_eq!(
            random.evaluate(&letters, Color::White),
            random.evaluate(&letters, Color::Black)
        );
    }
}

#[test]
fn sums_moved_from_the_last_board_are_the_sums_afresh() {
    for (k, variant) in VARIANTS.into_iter().enumerate() {
        let (net, w0, _) = random_network(variant, 5 + k as u64);
        let (other, _, _) = random_network(variant, 50 + k as u64);
        for (i, (game, letters)) in random_boards(variant, 200, 9 + k as u64)
            .into_iter()
            .enumerate()
        {
            let side = game.turn();
            let fresh = net.evaluate_fresh(&letters, side, &w0);
            assert_eq!(net.evaluate(&letters, side), fresh, "{}", game.fen());
            assert!(fresh.abs() <= 80);
            if i % 17 == 0 {
                // Another network between: its sums are not this one's.
                other.evaluate(&letters, side.other());
            }
        }
    }
}

#[test]
fn imperial_twins_differing_in_the_opponents_papers_evaluate_the_same() {
    // Black to move; White's sealed papers differ (none, g5, h5, both): Black's view is the
    // same (crates/cheops/tests/secrets.rs), and so is every evaluation of the board.
    let (net, _, _) = random_network("little-cheops-imperial", 21);
    let base = "k12/13/2c1c8/3K9/2t1t8/13/5n7/13/6CC5/13/13/13/13 b d10:w@d10 - 1 1";
    let found: Vec<(String, i32, i32)> = ["-", "g5", "h5", "g5,h5"]
        .iter()
        .map(|papers| {
            let fen = format!("{base} {papers}");
            let game = crate::find("little-cheops-imperial")
                .and_then(|v| v.open(Some(&fen), &RuleOptions::new()))
                .expect("the twin opens");
            let pos = game
                .as_any()
                .downcast_ref::<Game<CheopsPosition>>()
                .expect("a Little Cheops game")
                .position()
                .clone();
            let mut letters = [0u8; CHEOPS_SQUARES];
            pos.letters_into(&mut letters);
            let terms = CheopsEval::imperial().evaluate(&pos, Mobility::default());
            (
                game.fen(),
                terms + net.evaluate(&letters, pos.turn()),
                net.evaluate(&letters_of(game.as_ref()), pos.turn()),
            )
        })
        .collect();
    // The umpire's strings do differ (the papers), the evaluations do not.
    assert_eq!(found[1].0, format!("{base} g5"));
    assert_ne!(found[0].0, found[1].0);
    for (fen, total, through_any) in &found {
        assert_eq!(*total, found[0].1, "{fen}");
        assert_eq!(*through_any, found[0].2, "{fen}");
    }
}

#[test]
fn a_damaged_file_is_refused_with_one_sentence() {
    let (_, _, bytes) = random_network("vyrt", 1);
    assert_eq!(
        Network::from_bytes("vyrt", b"MVNET00").unwrap_err(),
        "the file does not start with a variant network's magic bytes"
    );
    assert_eq!(
        Network::from_bytes("cypher", &bytes).unwrap_err(),
        "the file is a network for 'vyrt', not for 'cypher'"
    );
    assert_eq!(
        Network::from_bytes("chess", &bytes).unwrap_err(),
        "there is no network for the variant 'chess'"
    );
    let mut cut = bytes.clone();
    cut.pop();
    assert_eq!(
        Network::from_bytes("vyrt", &cut).unwrap_err(),
        "the file ends before the network's last weight"
    );
    cut.extend_from_slice(&[0, 0]);
    assert_eq!(
        Network::from_bytes("vyrt", &cut).unwrap_err(),
        "the file goes on after the network's last weight"
    );
    assert_eq!(
        Network::from_bytes("vyrt", &bytes[..20]).unwrap_err(),
        "the file ends inside its header"
    );
}

/// `evaluate_within` against `evaluate` on one position, over windows at and around the
/// score and the network's limit from it: a score at or below the window gives a bound at or
/// below it, one at or above gives a bound at or above, one inside is exact. Returns how
/// many windows were decided by the terms alone (a bound, not the score).
fn window_contract<P: menagerie_core::Position + 'static, E: Evaluator<P>>(
    game: &dyn AnyGame,
    eval: &E,
) -> usize {
    let Some(g) = game.as_any().downcast_ref::<Game<P>>() else {
        panic!("not the evaluation's game: {}", game.variant())
    };
    let mobility = Mobility {
        own: 0,
        other: None,
    };
    let score = eval.evaluate(g.position(), mobility);
    let mut bounds = 0;
    for at in [
        -400, -200, -82, -81, -80, -79, -1, 0, 1, 79, 80, 81, 82, 200, 400,
    ] {
        for width in [1, 2, 50] {
            let (lo, hi) = (score + at, score + at + width);
            let within = eval.evaluate_within(g.position(), mobility, lo, hi);
            if score <= lo {
                assert!(within <= lo, "{} {lo}..{hi}: {within}", game.fen());
            } else if score >= hi {
                assert!(within >= hi, "{} {lo}..{hi}: {within}", game.fen());
            } else {
                assert_eq!(within, score, "{} {lo}..{hi}", game.fen());
            }
            bounds += usize::from(within != score);
        }
    }
    bounds
}

/// Outside the window the terms decide alone (the network moves them by at most its
/// limit), and what is returned is a true bound; inside, the score is the full evaluation:
/// Vyrt, Cypher and chess.
#[test]
fn outside_the_window_the_terms_decide_and_inside_the_score_is_exact() {
    let vyrt = crate::eval::vyrt::VyrtEval::default();
    let cypher = crate::eval::cypher::CypherEval::default();
    let chess = crate::eval::chess::ChessEval;
    let (mut vyrt_bounds, mut cypher_bounds, mut chess_bounds) = (0, 0, 0);
    for (game, _) in random_boards("vyrt", 60, 21) {
        vyrt_bounds += window_contract::<VyrtPosition, _>(game.as_ref(), &vyrt);
    }
    for (game, _) in random_boards("cypher", 60, 22) {
        cypher_bounds += window_contract::<CypherPosition, _>(game.as_ref(), &cypher);
    }
    for (game, _) in random_boards("chess", 60, 23) {
        chess_bounds += window_contract::<menagerie_chess::Chess, _>(game.as_ref(), &chess);
    }
    // Each network skipped when on (the shipped choice, unless `MENAGERIE_NETS` says not).
    assert_eq!(vyrt_bounds > 0, vyrt_limit() > 0);
    assert_eq!(cypher_bounds > 0, cypher_limit() > 0);
    assert!(chess_bounds > 0);
}
