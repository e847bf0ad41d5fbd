//! What a new player tripped over (issue 14) and what a hostile one found in the protocols
//! (issue 15): each as the command that showed it.

mod common;
use common::{menagerie, stderr, stdout, with_input};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn tmp(name: &str) -> String {
    let dir = std::env::temp_dir().join(format!("menagerie-newcomer-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    dir.join(name).to_string_lossy().into_owned()
}

const IMPERIAL_FEN: &str = "k12/13/2c1c8/3K9/2t1t8/13/5n7/13/6CC5/13/13/13/13 w d10:w@d10 - 0 1 -";

#[test]
fn records_saved_by_play_load_back_in_little_cheops_and_imperial() {
    let save = tmp("cheops.pgn");
    let o = with_input(
        &["play", "little-cheops", "--black", "human", "--save", &save],
        "e2e3\nd8d7\nquit\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let o = with_input(
        &["play", "little-cheops", "--black", "human", "--load", &save],
        "quit\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).starts_with(&format!("loaded 2 moves from {save}\n")));

    let save = tmp("imperial.pgn");
    let o = with_input(
        &[
            "play",
            "little-cheops-imperial",
            "--fen",
            IMPERIAL_FEN,
            "--black",
            "human",
            "--save",
            &save,
        ],
        "appoint:h5\nquit\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let record = std::fs::read_to_string(&save).expect("saved");
    assert!(record.ends_with("\n1. appoint:h5 *\n"), "{record}");
    let o = with_input(
        &[
            "play",
            "little-cheops-imperial",
            "--black",
            "human",
            "--load",
            &save,
        ],
        "quit\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
}

/// Runs `play` in `dir` (so that the record's name in the output is the same).
fn play_in(dir: &std::path::Path, args: &[&str], input: &str) -> String {
    let o = common::with_input_in(Some(dir), args, input);
    assert!(o.status.success(), "{}", stderr(&o));
    stdout(&o)
}

#[test]
fn an_imperial_player_sees_the_same_transcript_whichever_civilian_was_appointed() {
    let mut transcripts = Vec::new();
    for civilian in ["g5", "h5"] {
        let dir = std::env::temp_dir().join(format!(
            "menagerie-newcomer-{}-{civilian}",
            std::process::id()
        ));
        std::fs::create_dir_all(&dir).expect("a directory");
        std::fs::write(
            dir.join("game.pgn"),
            format!(
                "[Variant \"little-cheops-imperial\"]\n[FEN \"{IMPERIAL_FEN}\"]\n\n1. appoint:{civilian} *\n"
            ),
        )
        .expect("written");
        transcripts.push(play_in(
            &dir,
            &[
                "play",
                "little-cheops-imperial",
                "--load",
                "game.pgn",
                "--white",
                "human",
                "--black",
                "human",
            ],
            "moves\nboard\nhelp\nundo\nquit\n",
        ));
    }
    assert_eq!(transcripts[0], transcripts[1]);
    assert!(
        transcripts[0].contains("took back appoint\n"),
        "{}",
        transcripts[0]
    );

    // Live: the engine's appointment is announced to Black without its square. At depth 1
    // every White turn but the King's scores alike and the engine keeps the first, the
    // appointment: the King's steps lose (to c10 and d11 the mop-up drives it from the
    // centre; d9 and e10 come within two steps of a Black Knight, on g8 or e7, which costs
    // more than they take from the room of the Black Towers).
    let o = with_input(
        &[
            "play",
            "little-cheops-imperial",
            "--fen",
            "13/13/2c1c8/3K9/2t1t8/6n6/4n8/13/6CC5/13/13/13/12k w d10:w@d10 - 0 1 -",
            "--white",
            "engine:1",
            "--black",
            "human",
        ],
        "quit\n",
    );
    let out = stdout(&o);
    assert!(out.contains("White plays appoints C (appoint)\n"), "{out}");
    assert!(!out.contains("appoint:"), "{out}");
}

#[test]
fn prompts_and_help_give_the_games_own_examples_and_texts_once() {
    let out = with_input(&["play", "vyrt", "--black", "human"], "help\nE2-E4\nquit\n");
    let out = stdout(&out);
    assert!(!out.contains("Nf3"), "{out}");
    assert!(
        out.contains("commands: a move (like A2-A3), moves"),
        "{out}"
    );
    assert!(out.contains("White plays E2-E4\n"), "{out}");
    let out = stdout(&menagerie(&["moves", "vyrt", "--human"]));
    assert_eq!(out.lines().next(), Some("A2-A3"));
    let out = stdout(&with_input(
        &["play", "chess", "--black", "human"],
        "quit\n",
    ));
    assert!(
        out.contains("(canonical like a2a3 or human like a3)"),
        "{out}"
    );
}

/// Runs the command, reads one line of its output and closes the pipe.
fn read_one_line_then_close(args: &[&str]) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_menagerie"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut out = BufReader::new(child.stdout.take().expect("a pipe"));
    let mut line = String::new();
    out.read_line(&mut line).expect("a line");
    drop(out);
    let mut err = String::new();
    child
        .stderr
        .take()
        .expect("a pipe")
        .read_to_string(&mut err)
        .expect("stderr");
    let _ = child.wait();
    err
}

#[test]
fn a_closed_stdout_ends_the_program_quietly() {
    for args in [
        &["perft", "chess", "3", "--divide"][..],
        &["moves", "cypher", "--human"],
        &["play", "chess", "--white", "random", "--black", "random"],
    ] {
        let err = read_one_line_then_close(args);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn unknown_variants_and_limits_out_of_range_are_errors_everywhere() {
    for args in [&["bench", "foo"][..], &["bench", "--search", "foo"]] {
        let o = menagerie(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert_eq!(
            stderr(&o),
            "error: unknown variant 'foo'; `menagerie variants` lists them\n"
        );
        assert_eq!(stdout(&o), "");
    }
    let o = menagerie(&["bestmove", "chess", "--depth", "99999999999"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("depth 99999999999 is not in 1..=64 plies"),
        "{}",
        stderr(&o)
    );
    // --movetime 0 is refused by every command that takes a time.
    for args in [
        &["bestmove", "chess", "--movetime", "0"][..],
        &["analyse", "chess", "--movetime", "0"],
        &["play", "chess", "--movetime", "0"],
        &["play", "chess", "--white", "engine:movetime=0"],
        &[
            "match",
            "chess",
            "--a",
            "engine:movetime=0",
            "--b",
            "random",
        ],
        &[
            "match",
            "chess",
            "--a",
            "random",
            "--b",
            "random",
            "--movetime",
            "0",
        ],
        &["bestmove", "chess", "--movetime", "18446744073709551615"],
        &["bestmove", "chess", "--nodes", "18446744073709551615"],
    ] {
        let o = menagerie(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&o).contains(" is not in 1..="),
            "{args:?}: {}",
            stderr(&o)
        );
    }
}

#[test]
fn smaller_things_a_newcomer_met() {
    // `--rule name` without a value names the values.
    let o = menagerie(&["moves", "cypher", "--rule", "self-flip"]);
    assert_eq!(
        stderr(&o),
        "error: rule option 'self-flip' needs a value: write --rule self-flip=loses|illegal\n"
    );
    // `help --help` and `help <command>` work.
    let o = menagerie(&["help", "--help"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = menagerie(&["help", "play"]);
    assert!(stdout(&o).contains("uci:PATH"), "{}", stdout(&o));
    assert!(stdout(&menagerie(&["match", "--help"])).contains("--pieces"));
    assert!(stdout(&menagerie(&["uci", "--help"])).contains("--rule"));
    assert!(stdout(&menagerie(&["bestmove", "--help"])).contains("searches for 1 second"));
    // Little Cheops: the provisional-pieces line once, and a key of the letters.
    let out = stdout(&with_input(
        &["play", "little-cheops", "--black", "human"],
        "e2e3\nd8d7\nboard\nquit\n",
    ));
    assert_eq!(out.matches("Provisional pieces").count(), 1, "{out}");
    assert_eq!(out.matches("key: K King, Q Queen").count(), 1, "{out}");
    // An end of input before the end of the game is said, and is not a success.
    let o = with_input(&["play", "chess"], "");
    assert_eq!(o.status.code(), Some(2));
    assert!(stdout(&o).ends_with("end of input: the game is left unfinished\n"));
    // An empty record, a bad FEN tag: errors naming the file.
    let empty = tmp("empty.pgn");
    std::fs::write(&empty, "").expect("written");
    let o = menagerie(&["play", "chess", "--load", &empty]);
    assert_eq!(
        stderr(&o),
        format!("error: {empty} holds no game record (no tags and no moves)\n")
    );
    let bad = tmp("bad.pgn");
    std::fs::write(&bad, "[FEN \"8/8 w\"]\n\n*\n").expect("written");
    let o = menagerie(&["play", "chess", "--load", &bad]);
    assert!(
        stderr(&o).starts_with(&format!("error: {bad}: the FEN tag: ")),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_finished_cypher_game_says_its_points_once_and_nobody_is_to_move() {
    // Black's King steps next to its own Spy: a flip.
    let out = stdout(&with_input(
        &["play", "cypher", "--white", "greedy", "--black", "random"],
        "",
    ));
    let last_board = out.rsplit(" z a b c d e f g h i\n").next().unwrap_or("");
    assert!(!last_board.contains("to move"), "{last_board}");
    assert_eq!(out.matches("points White").count(), 1, "{out}");
}

/// Feeds `input` to a protocol and returns stdout, failing if it takes over `secs`.
fn protocol(args: &[&str], input: &[u8], secs: u64) -> String {
    let start = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_menagerie"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    child
        .stdin
        .take()
        .expect("a pipe")
        .write_all(input)
        .expect("the program reads");
    loop {
        if let Ok(Some(_)) = child.try_wait() {
            break;
        }
        if start.elapsed() > Duration::from_secs(secs) {
            let _ = child.kill();
            panic!("{args:?} did not end within {secs} s");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let o = child.wait_with_output().expect("the program ends");
    assert!(!stderr(&o).contains("panicked"), "{}", stderr(&o));
    assert!(o.status.success(), "{}", stderr(&o));
    stdout(&o)
}

#[test]
fn uci_bounds_perft_answers_while_it_runs_and_survives_bad_lines() {
    let out = protocol(
        &["uci"],
        b"uci\nsetoption name Hash value 16\nposition startpos\ngo perft 0\ngo perft 100000\n\
          go perft 4294967295\n\xff\xfe bad\nisready\n\
          go wtime 18446744073709551615 winc 18446744073709551615 btime 1 depth 1\nquit\n",
        30,
    );
    assert!(!out.contains("unknown command"), "{out}");
    assert!(out.contains("\nNodes searched: 1\n"), "{out}");
    assert!(
        out.contains("info string depth 100000 is too deep; perft takes a depth from 0 to 20\n"),
        "{out}"
    );
    assert!(
        out.contains("info string error: the line is not UTF-8 text"),
        "{out}"
    );
    assert!(out.contains("readyok"), "{out}");
    assert!(out.contains("bestmove "), "{out}");

    // A long perft runs off the loop: `isready` is answered and `quit` ends at once.
    let out = protocol(
        &["uci", "--variant", "cypher"],
        b"go perft 9\nisready\nquit\n",
        20,
    );
    assert!(
        out == "readyok\n" || out == "readyok\ninfo string perft stopped\n",
        "{out}"
    );

    // A search stopped and quit: a best move, then the end.
    let out = protocol(
        &["uci"],
        b"uci\nposition startpos\ngo movetime 100\nstop\nquit\n",
        20,
    );
    assert!(out.contains("bestmove "), "{out}");
    let out = protocol(
        &["uci"],
        b"uci\nsetoption name Nonsense value 1\nquit\n",
        10,
    );
    assert!(
        out.contains("info string no option named 'Nonsense'"),
        "{out}"
    );
}

#[test]
fn xboard_survives_huge_clocks_and_bad_lines_and_ends_after_analysis() {
    let out = protocol(
        &["xboard"],
        b"xboard\nprotover 2\nnew\nst 18446744073709551615\nlevel 40 5 1e30\n\
          time 18446744073709551615\nsd 1\n\xff\xfe\nping 1\nquit\n",
        20,
    );
    assert!(out.contains("Error (the line is not UTF-8 text"), "{out}");
    assert!(out.contains("pong 1"), "{out}");
    // `analyze` after `go` (the move search held by a `ping`), then the end of input.
    let _ = protocol(
        &["xboard"],
        b"xboard\nprotover 2\nnew\nst 1\ngo\nping 2\nanalyze\n",
        20,
    );
}

#[test]
fn cypher_notation_is_explained_where_it_first_appears() {
    let out = stdout(&with_input(
        &["play", "cypher", "--black", "human"],
        "moves\nmoves\nquit\n",
    ));
    assert_eq!(
        out.matches("note: (flip) marks a turn that ends the game by a flip")
            .count(),
        1,
        "{out}"
    );
    // A prisoner release, from a position where Black has a pawn in the pool.
    let out = stdout(&with_input(
        &[
            "play",
            "cypher",
            "--fen",
            "1s8/7k2/6b3/2N7/4r5/10/4Q5/10/10/8K1/4S5 w - Ii 0+0 0/1 0 1",
            "--white",
            "human",
            "--black",
            "human",
        ],
        "b7-a5\nmoves\nquit\n",
    ));
    assert!(
        out.contains("note: a prisoner release (PRc5, canonical P@c5)"),
        "{out}"
    );
}

#[test]
fn bench_search_reports_fairy_stockfish_beside_each_row_or_says_it_is_missing() {
    let bench = |rival: &[&str]| {
        let mut args = vec!["bench", "--search", "--runs", "1", "--search-nodes", "3000"];
        args.extend_from_slice(rival);
        args.push("vyrt");
        menagerie(&args)
    };
    let o = bench(&[]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert!(
        lines[0].starts_with("variant") && lines[0].contains("speed x"),
        "{out}"
    );
    assert!(lines[1].starts_with("vyrt "), "{out}");
    if std::path::Path::new("/usr/games/fairy-stockfish").exists() {
        assert!(lines[1].contains("fsf capablanca"), "{out}");
        assert_eq!(stderr(&o), "");
    } else {
        eprintln!("skipped: the rival half (fairy-stockfish is not installed)");
        assert!(stderr(&o).contains("not found"), "{}", stderr(&o));
    }
    let o = bench(&["--rival", "/nonexistent/fsf"]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        stderr(&o),
        "note: rival /nonexistent/fsf not found (apt-get install fairy-stockfish); measuring Menagerie alone\n"
    );
    assert!(stdout(&o).lines().nth(1).is_some_and(|l| l.contains(" - ")));
}
