//! `Variant::with_pieces` (the command line's `--pieces`): the table travels with the games
//! it opens, and the registry's own variant keeps the built-in pieces (issue 9 item 7).

use menagerie_core::RuleOptions;
use menagerie_variants::find;

const FEN: &str = "k8/9/9/9/9/9/9/9/K5N2 w 0 1";

#[test]
fn a_custom_table_and_the_built_in_one_side_by_side() {
    let text = menagerie_cheops::DEFAULT_PIECES.replace(
        "knight          N  N   N       provisional",
        "knight          N  N   NN      provisional",
    );
    let plain = find("little-cheops").expect("registered");
    let custom = plain.with_pieces(&text).expect("the table loads");
    let options = RuleOptions::new();
    let a = plain.open(Some(FEN), &options).expect("opens");
    let b = custom.open(Some(FEN), &options).expect("opens");
    let c = find("little-cheops")
        .expect("registered")
        .open(Some(FEN), &options)
        .expect("opens");
    assert!(!a.legal_moves().contains(&"g1c3".to_string()));
    assert!(b.legal_moves().contains(&"g1c3".to_string()));
    assert_eq!(a.perft(3), c.perft(3));
    assert_ne!(a.perft(3), b.perft(3));
    // Forks and views of the custom game keep its table.
    assert!(b.fork().legal_moves().contains(&"g1c3".to_string()));
    // Only Little Cheops takes a table; a broken table is refused with its reason.
    assert!(find("chess")
        .expect("registered")
        .with_pieces(&text)
        .is_err());
    assert!(plain.with_pieces("nonsense").is_err());
}
