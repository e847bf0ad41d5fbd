//! `menagerie play` through a pipe: rule reasons, views, results, records; and the Cypher
//! sanctuary refused over XBoard too.

mod common;
use common::run_ok as run;

fn tmp(name: &str) -> String {
    let dir = std::env::temp_dir().join(format!("menagerie-play-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    dir.join(name).to_string_lossy().into_owned()
}

/// Cypher's T7 position: White's Field queen faces a Field rook.
const T7: &str = "1s8/7k2/6b3/2N7/4r5/10/4Q5/10/10/8K1/4S5 w - Ii 0+0 0/0 0 1";
const SANCTUARY: &str = "a Field queen cannot capture a Field rook: sanctuary (a re-take is \
allowed only on the very next turn after a Border or Court piece's capture)";

#[test]
fn illegal_moves_name_the_rule_and_resignation_is_recorded() {
    let save = tmp("cypher.pgn");
    let out = run(
        &[
            "play", "cypher", "--fen", T7, "--black", "human", "--save", &save,
        ],
        "Qxd6\nd4-d6\nhelp\nresign\n",
    );
    assert!(
        out.contains(&format!("White> error: Qxd6 is illegal: {SANCTUARY}\n")),
        "{out}"
    );
    assert!(
        out.contains(&format!("White> error: d4-d6 is illegal: {SANCTUARY}\n")),
        "{out}"
    );
    assert!(out.contains("White> commands: a move"), "{out}");
    assert!(
        out.contains("White> result 0-1: Black wins by resignation; points White 0, Black 4\n"),
        "{out}"
    );
    let record = std::fs::read_to_string(&save).expect("the record is saved");
    assert_eq!(
        record,
        format!(
            "[Variant \"cypher\"]\n[FEN \"{T7}\"]\n[White \"human\"]\n[Black \"human\"]\n\
[Result \"0-1\"]\n[Termination \"resignation\"]\n[Points \"White 0, Black 4\"]\n\n0-1\n"
        )
    );
    // --load replays it and reports the recorded ending.
    let out = run(&["play", "cypher", "--load", &save, "--black", "human"], "");
    assert!(out.starts_with("loaded 0 moves from "), "{out}");
    assert!(
        out.ends_with("result 0-1: Black wins by resignation; points White 0, Black 4\n"),
        "{out}"
    );
}

#[test]
fn xboard_refuses_the_same_move_with_the_same_rule() {
    let out = run(
        &["xboard", "--variant", "cypher"],
        &format!(
            "setboard {}\nforce\nusermove e5e7\nquit\n",
            "1s8/7k2/6b3/2N7/4r5/10/4Q5/10/10/8K1/4S5 w - - 0 1"
        ),
    );
    assert_eq!(out, format!("Illegal move ({SANCTUARY}): e5e7\n"));
}

#[test]
fn a_hidden_information_game_shows_each_human_only_their_view() {
    // White holds sealed papers on g5; Black, the human, must not see them.
    let fen = "k12/13/2c1c8/3K9/2t1t8/13/5n7/9b3/6CC5/13/13/13/13 b d10:w@d10 - 0 1 g5";
    let umpire = run(&["show", "little-cheops-imperial", "--fen", fen], "");
    assert!(umpire.contains("Sealed papers (secret): g5"), "{umpire}");
    let out = run(
        &[
            "play",
            "little-cheops-imperial",
            "--fen",
            fen,
            "--white",
            "engine:depth=1",
            "--black",
            "human",
        ],
        "moves\nquit\n",
    );
    assert!(!out.contains("Sealed papers"), "{out}");
    assert!(out.contains("(drawn as Black may see it: the umpire keeps the rest secret)\n"));
    assert!(
        out.contains("Black> 18 legal moves: a13a12 (K a13-a12), "),
        "{out}"
    );
    assert!(
        out.ends_with("Black> the game is left unfinished\n"),
        "{out}"
    );
}

#[test]
fn moves_undo_and_a_checkmate_with_its_rule() {
    let save = tmp("chess.pgn");
    let out = run(
        &["play", "chess", "--black", "human", "--save", &save],
        "moves\nf3\nundo\nf3\ne5\ng4\nQh4\n",
    );
    assert!(out.contains("White> 20 legal moves: a2a3 (a3), a2a4 (a4), b1a3 (Na3), "));
    assert!(out.contains("White> White plays f3 (f2f3)\n"), "{out}");
    assert!(out.contains("Black> took back f2f3\n"), "{out}");
    assert!(out.contains("Black> Black plays Qh4# (d8h4)\n"), "{out}");
    assert!(out.contains("result 0-1: Black wins by checkmate\npoints White 0, Black 1\n"));
    let record = std::fs::read_to_string(&save).expect("the record is saved");
    assert!(record
        .ends_with("[Result \"0-1\"]\n[Termination \"checkmate\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n"));
}

/// Issue 14 item 2: the announcement of a sealed appointment names no Civilian to anyone
/// but the appointer, so two games that differ only in which Civilian White appointed read
/// the same to Black (hot seat: each board and announcement is drawn for the side to move).
#[test]
fn an_opponents_appointment_is_announced_without_its_square() {
    let fen = "k12/13/2c1c8/3K9/2t1t8/13/5n7/13/6CC5/13/13/13/13 w d10:w@d10 - 0 1 -";
    let transcript = |appointment: &str| {
        run(
            &[
                "play",
                "little-cheops-imperial",
                "--fen",
                fen,
                "--white",
                "human",
                "--black",
                "human",
            ],
            &format!("{appointment}\nmoves\nquit\n"),
        )
    };
    let (g5, h5) = (transcript("appoint:g5"), transcript("appoint:h5"));
    assert!(g5.contains("White plays appoints C (appoint)\n"), "{g5}");
    assert!(
        !g5.contains("g5 (Deputy)") && !g5.contains("(Civilian)"),
        "{g5}"
    );
    assert_eq!(g5, h5);
}
