//! Every limit on what an input controls (docs/limits.md) answers with its one sentence, in
//! the UCI and XBoard sessions (in-process) and the library.

use menagerie_play::lines::MAX_LINE_BYTES;
use menagerie_robustness::protocols::{uci_output, xboard_output, Bounds};
use menagerie_variants::{find, MAX_POSITION_BYTES};

fn chess() -> menagerie_variants::Variant {
    find("chess").unwrap()
}

/// The lines of a UCI session's output that are not search progress.
fn uci(input: &str) -> Vec<String> {
    let (clean, out) = uci_output(&chess(), input.as_bytes(), Bounds::small());
    assert!(clean, "{out}");
    out.lines()
        .filter(|l| !l.starts_with("info depth"))
        .map(|l| {
            // The chosen move depends on the search; that one was chosen is what counts.
            if l.starts_with("bestmove ") {
                "bestmove".to_string()
            } else {
                l.to_string()
            }
        })
        .collect()
}

#[test]
fn uci_limits_out_of_range_are_said_and_brought_into_range() {
    assert_eq!(
        uci("go depth 65\ngo nodes 0\ngo movetime 99999999999\n"),
        [
            "info string depth 65 is not in 1..=64 plies",
            "bestmove",
            "info string nodes 0 is not in 1..=1000000000000",
            "bestmove",
            "info string movetime 99999999999 is not in 1..=86400000 milliseconds (24 hours)",
            "bestmove",
        ]
    );
}

#[test]
fn uci_perft_deeper_than_its_limit_is_refused() {
    assert_eq!(
        uci("go perft 21\ngo perft 99999999999\n"),
        [
            "info string depth 21 is too deep; perft takes a depth from 0 to 20",
            "info string depth 99999999999 is too deep; perft takes a depth from 0 to 20",
        ]
    );
}

#[test]
fn lines_longer_than_the_limit_are_refused() {
    let long = "x".repeat(MAX_LINE_BYTES + 1);
    assert_eq!(
        uci(&format!("{long}\nisready\n")),
        [
            "info string error: a line longer than 1048576 bytes is ignored",
            "readyok"
        ]
    );
    let out = xboard_output(
        &chess(),
        format!("{long}\nping 1\n").as_bytes(),
        Bounds::small(),
    );
    assert_eq!(
        out,
        "Error (the line is not UTF-8 text or is too long, so it is ignored): ?\npong 1\n"
    );
}

#[test]
fn position_strings_longer_than_the_limit_are_refused() {
    let fen = format!("{}{}", "8/".repeat(MAX_POSITION_BYTES / 2), "8 w - - 0 1");
    let n = fen.len();
    let sentence =
        format!("the position string is {n} bytes long; a position string is at most 4096 bytes");
    assert_eq!(
        uci(&format!("position fen {fen}\n")),
        [format!("info string {sentence}")]
    );
    let out = xboard_output(
        &chess(),
        format!("setboard {fen}\nping 2\n").as_bytes(),
        Bounds::small(),
    );
    assert_eq!(
        out,
        format!("tellusererror Illegal position: {sentence}\npong 2\n")
    );
}

#[test]
fn xboard_depth_out_of_range_is_said_and_brought_into_range() {
    let out = xboard_output(&chess(), b"sd 65\nsd 0\nping 3\n", Bounds::small());
    assert_eq!(
        out,
        "Error (depth 65 is not in 1..=64 plies): sd 65\n\
         Error (depth 0 is not in 1..=64 plies): sd 0\npong 3\n"
    );
}

#[test]
fn small_bounds_cap_every_search() {
    // An infinite search, a day per move and a huge clock all end within the small bounds.
    let start = std::time::Instant::now();
    let out = uci("go infinite\ngo movetime 86400000\ngo wtime 999999999 btime 999999999\n");
    assert_eq!(out, ["bestmove", "bestmove", "bestmove"]);
    assert!(start.elapsed() < std::time::Duration::from_secs(20));
}
