//! The engine commands: bestmove, analyse, play through a pipe, records, matches.

mod common;
use common::{menagerie, stderr, stdout, with_input};
use std::process::Output;

fn last_line(o: &Output) -> String {
    stdout(o).lines().last().unwrap_or("").to_string()
}

fn tmp(name: &str) -> String {
    let dir = std::env::temp_dir().join(format!("menagerie-engine-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name).to_string_lossy().into_owned()
}

fn assert_one_sentence_error(o: &Output) {
    assert_eq!(o.status.code(), Some(2), "{}", stderr(o));
    let err = stderr(o);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
}

#[test]
fn bestmove_mates_in_one_on_the_last_line() {
    for depth in ["1", "3"] {
        let o = menagerie(&[
            "bestmove",
            "chess",
            "--fen",
            "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",
            "--depth",
            depth,
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        assert_eq!(stdout(&o), "a1a8\n");
    }
}

#[test]
fn bestmove_finds_mate_in_two_and_obeys_nodes_and_time() {
    let o = menagerie(&[
        "bestmove",
        "chess",
        "--fen",
        "kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1",
        "--depth",
        "3",
    ]);
    assert_eq!(last_line(&o), "a1a6");
    assert!(stderr(&o).contains("win in 3 plies (mate 2)"));
    let o = menagerie(&["bestmove", "chess", "--nodes", "5000"]);
    assert!(o.status.success());
    let mv = last_line(&o);
    assert!(mv.len() == 4 && mv.is_ascii(), "{mv}");
    let o = menagerie(&["bestmove", "chess", "--movetime", "50"]);
    assert!(o.status.success());
}

#[test]
fn analyse_prints_iterations_then_the_best_move() {
    let o = menagerie(&[
        "analyse",
        "chess",
        "--fen",
        "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
        "--depth",
        "2",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with("position r1bqkb1r/"));
    assert!(lines[1].starts_with("static eval "));
    let iters: Vec<&&str> = lines.iter().filter(|l| l.starts_with("depth ")).collect();
    assert!(!iters.is_empty());
    for l in &iters {
        let words: Vec<&str> = l.split_whitespace().collect();
        assert_eq!(words[2], "seldepth");
        assert!(l.contains(" nodes ") && l.contains(" nps ") && l.contains(" pv "));
    }
    assert!(
        iters[0].contains("score win in 1 ply (mate 1)"),
        "{}",
        iters[0]
    );
    assert!(iters[0].ends_with("pv Qxf7#"));
    assert_eq!(
        *lines.last().unwrap(),
        "bestmove h5f7 (Qxf7#) score win in 1 ply (mate 1)"
    );
}

#[test]
fn search_errors_are_one_sentence() {
    for args in [
        &["bestmove", "chess", "--depth", "0"][..],
        &["bestmove", "chess", "--depth", "99"],
        &["bestmove", "nochess"],
        &["bestmove", "chess", "--fen", "8/8/8 w - - 0 1"],
        &[
            "bestmove",
            "chess",
            "--fen",
            "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
        ],
        &["analyse", "chess", "--movetime", "x"],
        &["match", "chess", "--a", "martian", "--b", "random"],
        &[
            "match", "chess", "--a", "random", "--b", "random", "--games", "0",
        ],
        &["play", "chess", "--white", "engine:depth=x"],
        &["play", "chess", "--load", "/nonexistent/game.pgn"],
    ] {
        let o = menagerie(args);
        assert_one_sentence_error(&o);
    }
}

#[test]
fn play_through_a_pipe_undo_moves_resign_and_save() {
    let save = tmp("resign.pgn");
    let o = with_input(
        &[
            "play",
            "chess",
            "--white",
            "human",
            "--black",
            "engine:depth=1",
            "--save",
            &save,
        ],
        "e2e4\nundo\nmoves\nresign\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("White plays e4 (e2e4)"));
    assert!(out.contains("Black plays "));
    assert!(out.contains("took back "));
    assert!(out.contains("20 legal moves: a2a3 (a3), a2a4 (a4), b1a3 (Na3)"));
    let tail: Vec<&str> = out.lines().rev().take(3).collect();
    assert_eq!(
        tail,
        vec![
            format!("saved to {save}").as_str(),
            "points White 0, Black 1",
            "White> result 0-1: Black wins by resignation",
        ]
    );
    let record = std::fs::read_to_string(&save).unwrap();
    assert_eq!(
        record,
        "[Variant \"chess\"]\n[White \"human\"]\n[Black \"engine:depth=1\"]\n\
         [Result \"0-1\"]\n[Termination \"resignation\"]\n\n0-1\n"
    );
}

#[test]
fn play_to_checkmate_records_the_game_and_load_round_trips() {
    let save = tmp("mate.pgn");
    let o = with_input(
        &["play", "chess", "--black", "human", "--save", &save],
        "f3\ne5\ng4\nQh4#\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("result 0-1: Black wins by checkmate\npoints White 0, Black 1\n"));
    let record = std::fs::read_to_string(&save).unwrap();
    assert_eq!(
        record,
        "[Variant \"chess\"]\n[White \"human\"]\n[Black \"human\"]\n[Result \"0-1\"]\n\
         [Termination \"checkmate\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n"
    );
    // Replaying the record ends the same way without any input.
    let again = tmp("mate-again.pgn");
    let o = with_input(
        &[
            "play", "chess", "--black", "human", "--load", &save, "--save", &again,
        ],
        "",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("loaded 4 moves"));
    assert!(stdout(&o).contains("result 0-1: Black wins by checkmate"));
    assert_eq!(std::fs::read_to_string(&again).unwrap(), record);
}

#[test]
fn load_resumes_an_unfinished_game_from_a_position() {
    let save = tmp("unfinished.pgn");
    let fen = "4k3/8/8/8/8/8/4P3/4K3 b - - 0 1";
    let o = with_input(
        &[
            "play", "chess", "--fen", fen, "--black", "human", "--save", &save,
        ],
        "Kd7\ne4\nquit\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let record = std::fs::read_to_string(&save).unwrap();
    assert_eq!(
        record,
        format!(
            "[Variant \"chess\"]\n[FEN \"{fen}\"]\n[White \"human\"]\n[Black \"human\"]\n\
             [Result \"*\"]\n\n1... Kd7 2. e4 *\n"
        )
    );
    let o = with_input(
        &[
            "play", "chess", "--black", "human", "--load", &save, "--save", &save,
        ],
        "Kd6\nquit\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("Black> Black plays Kd6 (d7d6)"));
    assert!(std::fs::read_to_string(&save)
        .unwrap()
        .ends_with("1... Kd7 2. e4 Kd6 *\n"));
}

#[test]
fn a_bad_record_names_the_line_and_move() {
    let bad = tmp("bad.pgn");
    std::fs::write(&bad, "[Variant \"chess\"]\n\n1. e4 e5\n2. Nf3 Ke9\n").unwrap();
    let o = with_input(&["play", "chess", "--load", &bad], "");
    assert_one_sentence_error(&o);
    let err = stderr(&o);
    assert!(
        err.contains("line 4: move 4 'Ke9' cannot be played"),
        "{err}"
    );
}

/// A short seeded match, played twice to show the seed fixes the games.
const MATCH: &[&str] = &[
    "match",
    "chess",
    "--a",
    "engine:depth=2",
    "--b",
    "random",
    "--games",
    "4",
    "--seed",
    "1",
    "--json",
];

#[test]
fn match_against_random_ends_with_the_score() {
    let o = menagerie(MATCH);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("{\"game\":")).count(),
        4
    );
    // JSON and CSV both name the players A and B; the summary (on stderr, as stdout
    // carries JSON) says who they are and what the score counts.
    assert!(lines[0].contains("\"white\":\"A\",\"black\":\"B\""));
    assert!(lines[1].contains("\"white\":\"B\",\"black\":\"A\""));
    assert_eq!(lines.len(), 4, "only JSON on stdout: {out}");
    let err = stderr(&o);
    assert!(err.starts_with("A = engine:depth=2, B = random, 4 games of chess\n"));
    assert!(err.contains("\nendings: "));
    assert!(err.contains("\naverage length "));
    let last = err.lines().last().unwrap();
    let score = last
        .strip_prefix("score ")
        .and_then(|s| s.strip_suffix(" (A's points / games, points by the game's own table)"))
        .unwrap();
    let (points, games) = score.split_once('/').unwrap();
    assert_eq!(games, "4");
    let points: f64 = points.parse().unwrap();
    assert!(points >= 3.0, "{out}");
    // The same seed plays the same games.
    let again = menagerie(MATCH);
    assert_eq!(stdout(&again), out);
}

#[test]
fn match_csv_and_adjudication() {
    let o = menagerie(&[
        "match",
        "chess",
        "--a",
        "greedy",
        "--b",
        "random",
        "--games",
        "2",
        "--max-plies",
        "6",
        "--csv",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0],
        "game,white,black,result,termination,plies,points_a,points_b"
    );
    assert_eq!(lines[1], "1,A,B,1/2-1/2,max-plies,6,0.5,0.5");
    assert_eq!(lines[2], "2,B,A,1/2-1/2,max-plies,6,0.5,0.5");
    assert_eq!(lines.len(), 3, "only CSV on stdout: {out}");
    let err = stderr(&o);
    assert!(err.contains("endings: max-plies 2\n"));
    assert_eq!(
        err.lines().last().unwrap(),
        "score 1/2 (A's points / games, points by the game's own table)"
    );
}

#[test]
fn uci_protocol_answers_searches_and_perft() {
    let o = with_input(
        &["uci"],
        "uci\nisready\nposition fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1\ngo depth 2\n\
         position startpos moves e2e4\ngo perft 2\nquit\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "id name Menagerie");
    assert!(lines.contains(&"uciok") && lines.contains(&"readyok"));
    assert!(lines.contains(&"bestmove a1a8"));
    assert!(lines
        .iter()
        .any(|l| l.starts_with("info depth 1 ") && l.contains("score mate 1")));
    assert_eq!(*lines.last().unwrap(), "Nodes searched: 600");
}

#[test]
fn uci_elo_runs_over_the_measured_levels_and_picks_the_nearest() {
    // UCI_Elo 1260, the lowest, is level 1: depth 1 at most, however deep the `go` asks.
    let o = with_input(
        &["uci"],
        "uci\nsetoption name UCI_LimitStrength value true\nsetoption name UCI_Elo value 1260\n\
         isready\nposition startpos\ngo depth 12\nposition startpos\ngo perft 1\nquit\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines.contains(&"option name UCI_Elo type spin default 2200 min 1260 max 2200"),
        "{out}"
    );
    let depths: Vec<&str> = lines
        .iter()
        .filter_map(|l| l.strip_prefix("info depth "))
        .filter_map(|l| l.split(' ').next())
        .collect();
    assert_eq!(depths, vec!["1"], "{out}");
    assert!(lines.iter().any(|l| l.starts_with("bestmove ")), "{out}");
    assert_eq!(*lines.last().unwrap(), "Nodes searched: 20");
}

/// A temporary folder named after `name` holding a script that runs this binary's UCI
/// mode, and the match player for it (`uci:SCRIPT`).
#[cfg(unix)]
fn uci_wrapper(name: &str) -> (std::path::PathBuf, String) {
    use std::os::unix::fs::PermissionsExt;
    let dir = std::env::temp_dir().join(format!("menagerie-uci-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let script = dir.join("engine.sh");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\nexec '{}' uci\n",
            env!("CARGO_BIN_EXE_menagerie")
        ),
    )
    .expect("the wrapper script");
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let player = format!("uci:{}", script.display());
    (dir, player)
}

/// Two engines over UCI in a blocked Little Cheops position: the match claims the
/// fifty-round challenge (R38) for a side on its own reported score, as it does for the
/// engine in-process, so the game ends by the rules after a hundred turns, not at the cap.
#[cfg(unix)]
#[test]
fn the_match_claims_the_fifty_round_challenge_for_a_uci_player() {
    let (dir, side) = uci_wrapper("challenge");
    let o = menagerie(&[
        "match",
        "little-cheops",
        "--fen",
        "4k4/9/9/9/1p1p1p1p1/pPpPpPpPp/P1P1P1P1P/9/4K4 w 0 1",
        "--a",
        &side,
        "--b",
        &side,
        "--depth",
        "2",
        "--games",
        "1",
        "--max-plies",
        "300",
        "--csv",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let csv = stdout(&o);
    let header: Vec<&str> = csv.lines().next().unwrap_or_default().split(',').collect();
    let row: Vec<&str> = csv.lines().nth(1).unwrap_or_default().split(',').collect();
    let field = |name: &str| {
        let i = header.iter().position(|h| *h == name).unwrap_or(usize::MAX);
        row.get(i).copied().unwrap_or_default()
    };
    assert_eq!(field("termination"), "fifty-round-challenge", "{csv}");
    assert_eq!(field("plies"), "100", "{csv}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A UCI player in a match of another game than chess is told the game (`UCI_Variant`)
/// before its first move (it used to be sent the position alone, answered as chess, and
/// forfeited), and `--pgn` keeps every game's record.
#[cfg(unix)]
#[test]
fn a_uci_player_is_told_the_variant_and_the_records_are_kept() {
    let (dir, a) = uci_wrapper("variant");
    let pgn = dir.join("games.pgn");
    let pgn_arg = pgn.display().to_string();
    let o = menagerie(&[
        "match",
        "vyrt",
        "--a",
        &a,
        "--b",
        "engine",
        "--depth",
        "1",
        "--games",
        "2",
        "--opening-plies",
        "2",
        "--max-plies",
        "12",
        "--pgn",
        &pgn_arg,
        "--csv",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let csv = stdout(&o);
    let rows: Vec<&str> = csv.lines().skip(1).collect();
    assert_eq!(rows.len(), 2, "{csv}");
    assert!(rows.iter().all(|r| !r.contains("forfeit")), "{csv}");
    let records = std::fs::read_to_string(&pgn).expect("the records");
    assert_eq!(
        records.matches("[Variant \"vyrt\"]").count(),
        2,
        "{records}"
    );
    assert_eq!(records.matches("[Round \"").count(), 2, "{records}");
    assert!(records.contains(&format!("[Event \"menagerie match: A = {a}, B = engine\"]")));
    let _ = std::fs::remove_dir_all(&dir);
}
