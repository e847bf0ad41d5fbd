//! The command-line contract: output shapes, exit codes and one-sentence errors.

mod common;
use common::{menagerie, stderr, stdout};

#[test]
fn variants_lists_ids() {
    let o = menagerie(&["variants"]);
    assert!(o.status.success());
    let out = stdout(&o);
    assert!(out.lines().any(|l| l.starts_with("chess ")));
}

#[test]
fn perft_total_is_the_last_line() {
    let o = menagerie(&["perft", "chess", "4"]);
    assert!(o.status.success());
    assert_eq!(stdout(&o).lines().last(), Some("197281"));
    assert_eq!(stdout(&o).lines().count(), 1);
    assert!(stderr(&o).contains("leaves"));
}

#[test]
fn perft_divide_lists_root_moves_then_the_total() {
    let o = menagerie(&[
        "perft",
        "chess",
        "2",
        "--divide",
        "--fen",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    ]);
    assert!(o.status.success());
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 49);
    assert_eq!(lines[48], "2039");
    assert!(lines.contains(&"e1g1 43"));
    let moves: Vec<&str> = lines[..48]
        .iter()
        .map(|l| l.split(' ').next().unwrap())
        .collect();
    let mut sorted = moves.clone();
    sorted.sort();
    assert_eq!(moves, sorted);
    let sum: u64 = lines[..48]
        .iter()
        .map(|l| l.split(' ').nth(1).unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(sum, 2039);
    let zero = menagerie(&["perft", "chess", "0"]);
    assert_eq!(stdout(&zero).trim(), "1");
}

#[test]
fn moves_are_sorted_canonical_text() {
    let o = menagerie(&["moves", "chess"]);
    assert!(o.status.success());
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 20);
    assert_eq!(lines[0], "a2a3");
    assert_eq!(lines[19], "h2h4");
}

#[test]
fn show_draws_the_board_with_coordinates() {
    let o = menagerie(&["show", "chess"]);
    assert!(o.status.success());
    let out = stdout(&o);
    assert!(out.contains("8 | r n b q k b n r"));
    assert!(out.contains("    a b c d e f g h"));
}

/// `--moves` plays a line first (canonical or human text): the command then works on the
/// position after it, exactly as on that position's string; the first move that cannot be
/// played is refused with its number, in one sentence.
#[test]
fn moves_option_plays_a_line_before_the_command() {
    let o = menagerie(&["perft", "chess", "1", "--moves", "e2e4"]);
    assert!(o.status.success());
    assert_eq!(stdout(&o).lines().last(), Some("20"));
    let line = menagerie(&["perft", "chess", "3", "--moves", "e4 e5 Nf3"]);
    let fen = menagerie(&[
        "perft",
        "chess",
        "3",
        "--fen",
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2",
    ]);
    assert_eq!(stdout(&line).lines().last(), Some("23193"));
    assert_eq!(stdout(&line), stdout(&fen));
    let cases: &[(&str, &str)] = &[
        (
            "e2e4 e2e4",
            "error: move 2 of --moves: e2e4 is illegal: there is no piece on e2",
        ),
        (
            "f2f3 e7e5 g2g4 d8h4 a2a3",
            "error: move 5 of --moves: the game is over (Black wins by checkmate), so no move \
             can be played",
        ),
    ];
    for (moves, sentence) in cases {
        let o = menagerie(&["moves", "chess", "--moves", moves]);
        assert_eq!(o.status.code(), Some(2), "{moves}");
        assert_eq!(stderr(&o).trim(), *sentence);
        assert!(stdout(&o).is_empty());
    }
}

#[test]
fn bad_input_is_one_sentence_and_exit_code_2() {
    let cases: &[&[&str]] = &[
        &["perft", "nosuchgame", "3"],
        &["perft", "chess", "three"],
        &["perft", "chess", "-1"],
        &["perft", "chess", "99"],
        &["perft", "chess", "2", "--fen", "8/8/8 w - - 0 1"],
        &["perft", "chess", "2", "--fen", ""],
        &[
            "moves",
            "chess",
            "--fen",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 x",
        ],
        &["moves", "chess", "--rule", "foo=bar"],
        &["show", "chess", "--center", "e4"],
        &["frobnicate"],
    ];
    for args in cases {
        let o = menagerie(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = stderr(&o);
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}");
        assert!(stdout(&o).is_empty(), "{args:?}");
    }
    let fen_err = stderr(&menagerie(&[
        "perft",
        "chess",
        "1",
        "--fen",
        "8/8/8 w - - 0 1",
    ]));
    assert!(fen_err.contains("board"), "{fen_err}");
}

#[test]
fn little_cheops_perft_and_piece_files() {
    let o = menagerie(&["perft", "little-cheops", "3"]);
    assert_eq!(stdout(&o).lines().last(), Some("29758"));
    let o = menagerie(&["perft", "little-cheops-imperial", "2"]);
    assert_eq!(stdout(&o).lines().last(), Some("2970"));
    let listing = stdout(&menagerie(&["pieces", "little-cheops"]));
    assert!(listing.contains("Master") && listing.contains("[provisional]"));

    let dir = std::env::temp_dir().join(format!("menagerie-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let default = include_str!("../../cheops/data/pieces.txt");
    // A Knight that also rides as a Nightrider: a data change alone changes the count.
    let changed = default.replace("knight          N  N   N ", "knight          N  N   NN");
    assert_ne!(changed, default);
    let good = dir.join("pieces.txt");
    std::fs::write(&good, changed).unwrap();
    let base = stdout(&menagerie(&["perft", "little-cheops", "2"]));
    let with = stdout(&menagerie(&[
        "perft",
        "little-cheops",
        "2",
        "--pieces",
        good.to_str().unwrap(),
    ]));
    assert_ne!(base.trim(), with.trim());

    let bad = dir.join("bad.txt");
    std::fs::write(&bad, default.replace("mRcpR", "mRcpX")).unwrap();
    for args in [
        vec![
            "perft",
            "little-cheops",
            "1",
            "--pieces",
            bad.to_str().unwrap(),
        ],
        vec!["perft", "chess", "1", "--pieces", good.to_str().unwrap()],
        vec!["perft", "little-cheops", "1", "--pieces", "/no/such/file"],
    ] {
        let o = menagerie(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert_eq!(stderr(&o).trim().lines().count(), 1, "{args:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn cypher_perft_moves_and_illegal_reasons() {
    let o = menagerie(&["perft", "cypher", "3"]);
    assert_eq!(stdout(&o).lines().last(), Some("54974"));
    let moves = stdout(&menagerie(&["moves", "cypher"]));
    let lines: Vec<&str> = moves.lines().collect();
    assert_eq!(lines.len(), 39);
    let mut sorted = lines.clone();
    sorted.sort();
    assert_eq!(lines, sorted, "move lists are sorted by byte order");
    let shown = stdout(&menagerie(&["show", "cypher"]));
    assert!(shown.contains(" 5 | : = = = = = = = = :"));
}

#[test]
fn vyrt_perft_and_recentred_diagram() {
    let o = menagerie(&["perft", "vyrt", "3"]);
    assert_eq!(stdout(&o).lines().last(), Some("24792"));
    let shown = stdout(&menagerie(&["show", "vyrt"]));
    assert!(shown.contains(" 1 | . P R N B Q K B N R P ."));
    assert!(shown.contains("     K L A B C D E F G H I J"));
    let centred = stdout(&menagerie(&["show", "vyrt", "--center", "e5"]));
    assert!(centred.contains("     L A B C D E F G H I J K"));
    let bad = menagerie(&["show", "vyrt", "--center", "M1"]);
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn a_player_sees_only_what_the_rules_let_them_see() {
    // White has a sealed Deputy on g5 (the umpire string's last field).
    let umpire = "k12/13/2c1c8/3K9/2t1t8/13/13/13/6CC5/13/13/13/13 w d10:w@d10 - 0 1 g5";
    let no_papers = "k12/13/2c1c8/3K9/2t1t8/13/13/13/6CC5/13/13/13/13 w d10:w@d10 - 0 1 -";
    let as_black = |fen: &str| {
        stdout(&menagerie(&[
            "show",
            "little-cheops-imperial",
            "--fen",
            fen,
            "--as",
            "black",
        ]))
    };
    let seen = as_black(umpire);
    assert_eq!(
        seen,
        as_black(no_papers),
        "Black's view must not reveal White's papers"
    );
    assert!(!seen.contains(" g5\n"));
    let white = stdout(&menagerie(&[
        "show",
        "little-cheops-imperial",
        "--fen",
        umpire,
        "--as",
        "white",
    ]));
    assert!(white
        .lines()
        .any(|l| l.starts_with("White's view: ") && l.ends_with(" g5")));
    // The mover is offered the same turns from its view as the umpire computes.
    let offered = stdout(&menagerie(&[
        "moves",
        "little-cheops-imperial",
        "--fen",
        umpire,
        "--as",
        "white",
    ]));
    let umpire_moves = stdout(&menagerie(&[
        "moves",
        "little-cheops-imperial",
        "--fen",
        umpire,
    ]));
    assert_eq!(offered, umpire_moves);
    let waiting = menagerie(&[
        "moves",
        "little-cheops-imperial",
        "--fen",
        umpire,
        "--as",
        "black",
    ]);
    assert!(stdout(&waiting).is_empty());
    assert!(stderr(&waiting).contains("offered no moves"));
}

#[test]
fn perft_on_several_threads_counts_the_same() {
    let one = stdout(&menagerie(&["perft", "vyrt", "3", "--divide"]));
    let two = stdout(&menagerie(&[
        "perft",
        "vyrt",
        "3",
        "--divide",
        "--threads",
        "2",
    ]));
    assert_eq!(one, two);
    assert_eq!(one.lines().last(), Some("24792"));
    let zero = stdout(&menagerie(&["perft", "chess", "0", "--divide"]));
    assert_eq!(zero, "1\n");
    assert_eq!(
        menagerie(&["perft", "chess", "1", "--threads", "0"])
            .status
            .code(),
        Some(2)
    );
}
