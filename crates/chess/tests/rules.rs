//! Position strings, notation and endings.

use menagerie_chess::Chess;
use menagerie_core::{Color, Game, MoveError, Position, Termination};

fn moves_sorted(pos: &Chess) -> Vec<String> {
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let mut v: Vec<String> = moves.into_iter().map(|m| pos.move_text(m)).collect();
    v.sort();
    v
}

#[test]
fn start_moves_are_exact() {
    let start = Chess::start();
    assert_eq!(
        moves_sorted(&start).join(" "),
        "a2a3 a2a4 b1a3 b1c3 b2b3 b2b4 c2c3 c2c4 d2d3 d2d4 e2e3 e2e4 f2f3 f2f4 g1f3 g1h3 g2g3 g2g4 h2h3 h2h4"
    );
}

#[test]
fn malformed_fens_name_the_field() {
    let cases = [
        ("", "fields"),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0",
            "fields",
        ),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "board"),
        (
            "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "board",
        ),
        (
            "rnbqkbnr/pppppppp/44/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "board",
        ),
        (
            "rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "board",
        ),
        (
            "rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1",
            "board",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNP w KQkq - 0 1",
            "board",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
            "side to move",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w QK - 0 1",
            "castling",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1",
            "castling",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1",
            "en passant",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq a1 0 1",
            "en passant",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq z9 0 1",
            "en passant",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1",
            "halfmove clock",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0",
            "fullmove number",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 00 1",
            "halfmove clock",
        ),
        // Black is in check with White to move.
        ("4k3/8/8/7B/8/8/8/4K3 w - - 0 1", "board"),
        ("4k3/4R3/8/8/8/8/8/4K3 w - - 0 1", "board"),
    ];
    for (fen, field) in cases {
        let err = Chess::from_fen(fen).expect_err(fen);
        assert_eq!(err.field, field, "{fen}: {err}");
        assert!(err.to_string().starts_with("invalid position string: "));
    }
}

#[test]
fn san_and_uci() {
    let mut game = Game::new(Chess::start());
    for (text, san) in [
        ("e2e4", "e4"),
        ("e7e5", "e5"),
        ("Nf3", "Nf3"),
        ("Nc6", "Nc6"),
        ("f1b5", "Bb5"),
        ("a6", "a6"),
        ("O-O", "O-O"),
    ] {
        let pos = game.position().clone();
        let mv = pos.parse_move(text).expect(text);
        assert_eq!(pos.move_human(mv), san);
        game.push(mv).unwrap();
    }
    assert_eq!(
        game.position().fen(),
        "r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQ1RK1 b kq - 1 4"
    );
    // Disambiguation by file, by rank and by square; promotion with check; mate.
    let pos = Chess::from_fen("1k6/8/8/8/8/8/4K3/R6R w - - 0 1").unwrap();
    let mv = pos.parse_move("a1d1").unwrap();
    assert_eq!(pos.move_human(mv), "Rad1");
    let pos = Chess::from_fen("7k/8/8/8/R7/8/8/R3K3 w Q - 0 1").unwrap();
    assert_eq!(pos.move_human(pos.parse_move("a1a2").unwrap()), "R1a2");
    let pos = Chess::from_fen("1k6/8/8/8/Q6Q/8/8/Q3K3 w - - 0 1").unwrap();
    assert_eq!(pos.move_human(pos.parse_move("a4d4").unwrap()), "Qa4d4");
    let pos = Chess::from_fen("7k/4P3/8/8/8/8/8/4K3 w - - 0 1").unwrap();
    assert_eq!(pos.move_human(pos.parse_move("e7e8q").unwrap()), "e8=Q+");
    assert_eq!(
        pos.parse_move("e8=Q+").unwrap(),
        pos.parse_move("e7e8q").unwrap()
    );
    assert_eq!(
        pos.parse_move("e8Q").unwrap(),
        pos.parse_move("e7e8q").unwrap()
    );
    let pos = Chess::from_fen("6k1/5ppp/8/8/8/8/8/R3K3 w - - 0 1").unwrap();
    assert_eq!(pos.move_human(pos.parse_move("a1a8").unwrap()), "Ra8#");
    // En passant.
    let pos = Chess::from_fen("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2").unwrap();
    let ep = pos.parse_move("exd6").unwrap();
    assert_eq!(pos.move_text(ep), "e5d6");
}

#[test]
fn illegal_moves_say_why() {
    let pos = Chess::start();
    let reason = |text: &str| match pos.parse_move(text) {
        Err(MoveError::Illegal { reason, .. }) => reason,
        other => panic!("{text}: {other:?}"),
    };
    assert_eq!(reason("e3e4"), "there is no piece on e3");
    assert_eq!(
        reason("e7e5"),
        "the pawn on e7 is Black's, and it is White's turn"
    );
    assert_eq!(reason("g1g3"), "a knight on g1 cannot reach g3");
    assert_eq!(reason("d1d2"), "d2 is occupied by your own piece");
    let pinned = Chess::from_fen("4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1").unwrap();
    match pinned.parse_move("e2c3") {
        Err(MoveError::Illegal { reason, .. }) => {
            assert_eq!(reason, "it would leave your king in check")
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        pos.parse_move("hello!"),
        Err(MoveError::Syntax { .. })
    ));
}

#[test]
fn endings() {
    let mate = Chess::from_fen("R5k1/5ppp/8/8/8/8/8/4K3 b - - 1 1").unwrap();
    let o = mate.outcome().unwrap();
    assert_eq!(o.to_string(), "White wins by checkmate");
    assert_eq!(o.result(), "1-0");
    let stale = Chess::from_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").unwrap();
    assert_eq!(stale.outcome().unwrap().to_string(), "Draw by stalemate");
    assert!(moves_sorted(&stale).is_empty());
    // Insufficient material ends play but not perft.
    let bare = Chess::from_fen("8/8/4k3/8/8/3NK3/8/8 w - - 0 1").unwrap();
    assert!(bare.outcome().is_none());
    assert!(bare.perft(1) > 0);
    assert_eq!(
        bare.outcome_in_play(1).unwrap().termination,
        Termination::DeadPosition
    );
    let fifty = Chess::from_fen("8/8/4k3/8/8/3RK3/8/8 w - - 100 80").unwrap();
    assert_eq!(
        fifty.outcome_in_play(1).unwrap().termination,
        Termination::FiftyMoves
    );
    // Threefold repetition by knight shuffles.
    let mut g = Game::new(Chess::start());
    for m in [
        "g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8",
    ] {
        assert!(g.outcome().is_none());
        g.push_text(m).unwrap();
    }
    assert_eq!(g.repetitions(), 3);
    assert_eq!(
        g.outcome().unwrap().to_string(),
        "Draw by threefold repetition"
    );
    assert!(g.legal_moves().is_empty());
    assert!(matches!(g.push_text("e2e4"), Err(MoveError::GameOver(_))));
    g.pop();
    assert!(g.outcome().is_none());
}

#[test]
fn a_null_move_passes_and_is_refused_where_unsound() {
    let p = Chess::from_fen("r3k2r/8/8/3pP3/8/8/8/R3K2R w KQkq d6 0 10").unwrap();
    let n = p.null_move().expect("a pass");
    assert_eq!(n.turn(), Color::Black);
    // The en passant square goes; the key is the one the position string gives.
    assert_eq!(n.fen(), "r3k2r/8/8/3pP3/8/8/8/R3K2R b KQkq - 1 10");
    assert_eq!(n.key(), Chess::from_fen(&n.fen()).unwrap().key());
    assert_eq!(
        n.null_move().expect("back").key(),
        Chess::from_fen("r3k2r/8/8/3pP3/8/8/8/R3K2R w KQkq - 2 11")
            .unwrap()
            .key()
    );
    // In check, or with only King and Pawns: no pass.
    let check = Chess::from_fen("4k3/8/8/8/8/8/4r3/R3K3 w - - 0 1").unwrap();
    assert!(check.null_move().is_none());
    let pawns = Chess::from_fen("4k3/4p3/8/8/8/8/4P3/4K2N b - - 0 1").unwrap();
    assert!(pawns.null_move().is_none());
    assert!(Chess::from_fen("4k3/4p3/8/8/8/8/4P3/4K2N w - - 0 1")
        .unwrap()
        .null_move()
        .is_some());
}
