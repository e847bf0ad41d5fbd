//! Inputs the fuzzers and the harness found, each kept as a test.

use menagerie_robustness::{api, checks};

fn position(variant: &str, fen: &str) {
    checks::position(format!("{variant}\n{fen}").as_bytes());
}

#[test]
fn chess_counters_at_the_edge() {
    position("chess", "4k3/8/8/8/8/8/8/4K2R w K - 4294967295 4294967295");
    position("chess", "4k3/8/8/8/8/8/8/4K2R w K - 99 4294967295");
}

#[test]
fn vyrt_counters_at_the_edge() {
    let start = api::variant("vyrt").unwrap().start_fen;
    let board: Vec<&str> = start.split_whitespace().collect();
    let n = board.len();
    let fen = format!("{} 4294967295 4294967295", board[..n - 2].join(" "));
    position("vyrt", &fen);
}

#[test]
fn cypher_counters_at_the_edge() {
    let start = api::variant("cypher").unwrap().start_fen;
    let board: Vec<&str> = start.split_whitespace().collect();
    let n = board.len();
    for counters in ["999999999 999999999", "4294967295 4294967295"] {
        let fen = format!("{} {counters}", board[..n - 2].join(" "));
        position("cypher", &fen);
    }
}

#[test]
fn little_cheops_counters_at_the_edge() {
    position(
        "little-cheops",
        "4k4/9/9/9/9/9/9/9/4K4 w - 4294967295 4294967295",
    );
}

#[test]
fn chess_san_with_a_rank_and_file_origin_reads_back() {
    // `B1d2` is the bishop from c1, not the UCI move b1d2.
    position("chess", "4k3/8/8/8/8/2B5/8/1NB1K3 w - - 0 1");
}

#[test]
fn search_on_a_finished_game_returns_nothing() {
    // Minimal strength: a draw at once (rulebook T14).
    let mut game = api::open(
        "little-cheops-imperial",
        Some("12k/13/13/13/13/13/13/13/2C1C8/3K9/2T1M8/13/13 w d4:w@d4 - 0 1"),
        &[],
    )
    .unwrap();
    assert!(game.outcome().is_some());
    let found = api::search(game.as_mut(), Some(2), Some(1000), None);
    assert_eq!(found.best, None);
}

#[test]
fn chess_san_with_a_non_ascii_byte_is_refused() {
    // Found by the stable replay of `move_text` and `record`: read_san sliced inside '\u{fffd}'.
    let mut game = api::open("chess", None, &[]).unwrap();
    for text in [
        "-\u{fffd}",
        "\u{fffd}",
        "N\u{fffd}3",
        "e\u{e9}4",
        "Q\u{fffd}",
    ] {
        assert!(game.push(text).is_err(), "{text:?}");
    }
    checks::move_text(b"\0\0a2a3\na3\n-\xef\xbf\xbdO\nxx\n");
    checks::record(
        "[Variant \"chess\"]\n[Result \"*\"]\n\n1. a3 c6 2. Nh3 a5 3.\u{fffd} e3 \n".as_bytes(),
    );
}
