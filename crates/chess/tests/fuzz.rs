//! Random inputs: the FEN reader never panics, and random games stay consistent.

use menagerie_chess::Chess;
use menagerie_core::perft::perft_generic;
use menagerie_core::zobrist::KeyGen;
use menagerie_core::Position;

const SEEDS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3",
];

#[test]
fn mutated_fens_never_panic_and_accepted_ones_round_trip() {
    let alphabet: Vec<char> = "pnbrqkPNBRQK12345678/ wb-KQkqabcdefgh0x9".chars().collect();
    let mut rng = KeyGen::new(42);
    let mut accepted = 0;
    for i in 0..20_000 {
        let mut chars: Vec<char> = SEEDS[i % SEEDS.len()].chars().collect();
        for _ in 0..1 + rng.next() % 3 {
            let at = (rng.next() as usize) % (chars.len() + 1);
            let c = alphabet[(rng.next() as usize) % alphabet.len()];
            match rng.next() % 3 {
                0 if at < chars.len() => chars[at] = c,
                1 if at < chars.len() => {
                    chars.remove(at);
                }
                _ => chars.insert(at, c),
            }
        }
        let text: String = chars.into_iter().collect();
        if let Ok(pos) = Chess::from_fen(&text) {
            accepted += 1;
            let again = Chess::from_fen(&pos.fen()).expect("own output reads back");
            assert_eq!(again, pos, "{text}");
            // Whatever was accepted must be playable without panicking.
            assert_eq!(pos.perft(2), perft_generic(&pos, 2), "{text}");
        }
    }
    assert!(accepted > 100, "the mutations should sometimes stay valid");
}

#[test]
fn random_games_keep_incremental_state_exact() {
    let mut rng = KeyGen::new(7);
    for _ in 0..200 {
        let mut pos = Chess::start();
        for _ in 0..120 {
            let mut moves = Vec::new();
            pos.legal_moves(&mut moves);
            if moves.is_empty() {
                assert!(pos.outcome().is_some());
                break;
            }
            let mv = moves[(rng.next() as usize) % moves.len()];
            pos.play(mv);
            let fresh = Chess::from_fen(&pos.fen()).expect("reachable positions read back");
            assert_eq!(fresh.key(), pos.key());
            assert_eq!(fresh, pos);
        }
        assert_eq!(pos.perft(2), perft_generic(&pos, 2));
    }
}

/// Along random games from positions rich in pins, checks and promotions, `gives_check`
/// says exactly whether each legal ordinary move checks, and never denies a check.
#[test]
fn gives_check_agrees_with_playing_the_move() {
    let starts = [
        SEEDS[0],
        SEEDS[1],
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    ];
    let mut rng = KeyGen::new(11);
    let (mut checks, mut tried) = (0, 0);
    for start in starts {
        for _ in 0..40 {
            let mut pos = Chess::from_fen(start).expect("a valid FEN");
            for _ in 0..60 {
                let moves = pos.moves();
                if moves.is_empty() {
                    break;
                }
                for &mv in &moves {
                    let mut child = pos.clone();
                    child.play(mv);
                    let said = pos.gives_check(mv);
                    if mv.kind == menagerie_chess::board::MoveKind::Normal {
                        assert_eq!(said, child.is_check(), "{} {mv:?}", pos.fen());
                    } else {
                        assert!(said || !child.is_check(), "{} {mv:?}", pos.fen());
                    }
                    tried += 1;
                    checks += usize::from(child.is_check());
                }
                pos.play(moves[(rng.next() as usize) % moves.len()]);
            }
        }
    }
    // The walk reached enough checking moves to mean something.
    assert!(
        tried > 100_000 && checks > 2_000,
        "{tried} moves, {checks} checks"
    );
}

/// Along random games rich in captures, checks, promotions and en passant, the noisy-move
/// generator lists exactly the noisy moves of the full list, in its order, and says
/// whether any legal move exists (checkmates and stalemates included).
#[test]
fn noisy_moves_are_the_full_list_s_noisy_moves() {
    let starts = [
        SEEDS[0],
        SEEDS[1],
        SEEDS[2],
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        // Stalemate and checkmate: no legal move, so no noisy one either.
        "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
        "6rk/5Npp/8/8/8/8/8/6K1 b - - 0 1",
    ];
    let mut rng = KeyGen::new(12);
    let (mut positions, mut noisy, mut none) = (0, 0, 0);
    for start in starts {
        for _ in 0..40 {
            let mut pos = Chess::from_fen(start).expect("a valid FEN");
            for _ in 0..80 {
                let moves = pos.moves();
                let expected: Vec<_> = moves.iter().copied().filter(|&m| pos.is_noisy(m)).collect();
                let mut got = vec![];
                let any = pos.noisy_moves(&mut got);
                assert_eq!(got, expected, "{}", pos.fen());
                assert_eq!(any, !moves.is_empty(), "{}", pos.fen());
                positions += 1;
                noisy += got.len();
                none += usize::from(moves.is_empty());
                if moves.is_empty() {
                    break;
                }
                // Captures are chosen more often, so the games reach sparse endings.
                let pick = if !got.is_empty() && rng.next().is_multiple_of(2) {
                    got[(rng.next() as usize) % got.len()]
                } else {
                    moves[(rng.next() as usize) % moves.len()]
                };
                pos.play(pick);
            }
        }
    }
    assert!(
        positions > 15_000 && noisy > 20_000 && none >= 80,
        "{positions} positions, {noisy} noisy moves, {none} without a move"
    );
}
