//! A piece table belongs to the game opened with it (issue 9 item 7): two games with
//! different tables live side by side in one process, and a custom table's memory goes with
//! the last position that uses it.

use menagerie_cheops::rules::RulesRef;
use menagerie_cheops::{load_pieces, CheopsPosition, PieceTable, Style, DEFAULT_PIECES};
use menagerie_core::{Position, RuleOptions};

const FEN: &str = "k8/9/9/9/9/9/9/9/K5N2 w 0 1";

/// The built-in table with the Knight made a Nightrider (`NN`).
fn nightrider_table() -> PieceTable {
    let text = DEFAULT_PIECES.replace(
        "knight          N  N   N       provisional",
        "knight          N  N   NN      provisional",
    );
    assert_ne!(
        text, DEFAULT_PIECES,
        "the Knight's line is in the built-in table"
    );
    load_pieces(&text).expect("loads")
}

#[test]
fn two_games_with_different_tables_side_by_side() {
    let options = RuleOptions::new();
    let plain = CheopsPosition::from_fen(Style::Common, FEN).expect("parses");
    let custom =
        CheopsPosition::from_fen_with_pieces(Style::Common, FEN, &nightrider_table(), &options)
            .expect("parses");
    // Opened after the custom game: still the built-in Knight.
    let plain_again = CheopsPosition::from_fen(Style::Common, FEN).expect("parses");
    assert!(!plain.move_texts().contains(&"g1c3".to_string()));
    assert!(custom.move_texts().contains(&"g1c3".to_string()));
    assert_eq!(plain.move_texts(), plain_again.move_texts());
    assert_ne!(plain.perft(2), custom.perft(2));
    assert_eq!(plain.perft(2), plain_again.perft(2));
    // A game played on keeps its own table in every position.
    let mut next = custom.clone();
    let mv = next.parse_move("g1c3").expect("the Nightrider's move");
    next.play(mv);
    assert!(next.rules().same(custom.rules()));
    assert!(!next.rules().same(plain.rules()));
}

#[test]
fn the_built_in_table_is_compiled_once_and_custom_tables_are_not_kept() {
    let a = CheopsPosition::from_fen(Style::Common, FEN).expect("parses");
    let b = CheopsPosition::start(Style::Common);
    assert!(matches!(a.rules(), RulesRef::Builtin(_)));
    assert!(a.rules().same(b.rules()));
    // Loading the built-in text as a file shares the built-in compilation too.
    let same = load_pieces(DEFAULT_PIECES).expect("loads");
    let c = CheopsPosition::from_fen_with_pieces(Style::Common, FEN, &same, &RuleOptions::new())
        .expect("parses");
    assert!(c.rules().same(a.rules()));

    let custom = CheopsPosition::from_fen_with_pieces(
        Style::Common,
        FEN,
        &nightrider_table(),
        &RuleOptions::new(),
    )
    .expect("parses");
    let RulesRef::Custom(arc) = custom.rules() else {
        panic!("a custom table is compiled for its game");
    };
    let weak = std::sync::Arc::downgrade(arc);
    let copy = custom.clone();
    drop(custom);
    assert!(weak.upgrade().is_some(), "a live position keeps its table");
    drop(copy);
    assert!(
        weak.upgrade().is_none(),
        "the table goes with its last position"
    );
}

/// Resident memory in kilobytes (Linux), if it can be read.
fn resident_kb() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = text.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * 4)
}

#[test]
fn opening_ten_thousand_custom_tables_does_not_grow_memory() {
    let table = nightrider_table();
    let options = RuleOptions::new();
    let open = || {
        CheopsPosition::from_fen_with_pieces(
            Style::Imperial,
            menagerie_cheops::IMPERIAL_START,
            &table,
            &options,
        )
        .expect("parses")
    };
    // Warm up the allocator, then measure.
    for _ in 0..200 {
        open();
    }
    let before = resident_kb();
    for _ in 0..10_000 {
        let p = open();
        let RulesRef::Custom(arc) = p.rules() else {
            panic!("a custom table is compiled for its game");
        };
        let weak = std::sync::Arc::downgrade(arc);
        drop(p);
        assert!(weak.upgrade().is_none(), "no table outlives its game");
    }
    if let (Some(before), Some(after)) = (before, resident_kb()) {
        // One compiled 13x13 table is tens of kilobytes; ten thousand kept would be
        // hundreds of megabytes.
        assert!(
            after < before + 16 * 1024,
            "resident memory grew from {before} kB to {after} kB"
        );
    }
}
