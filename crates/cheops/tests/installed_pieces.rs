//! `use_pieces` (the command line's `--pieces`) changes what `variants()` reads; this test
//! has its own process so the installed table touches no other test.

use menagerie_cheops::{load_pieces, use_pieces, variants, DEFAULT_PIECES};
use menagerie_core::RuleOptions;

#[test]
fn an_installed_table_changes_the_variants_moves() {
    let spec = variants()[0];
    let fen = "k8/9/9/9/9/9/9/9/K5N2 w 0 1";
    let before = (spec.from_fen)(fen, &RuleOptions::new())
        .expect("parses")
        .move_texts();
    let text = DEFAULT_PIECES.replace(
        "knight          N  N   N       provisional",
        "knight          N  N   NN      provisional",
    );
    use_pieces(load_pieces(&text).expect("loads"));
    let after = (spec.from_fen)(fen, &RuleOptions::new())
        .expect("parses")
        .move_texts();
    assert!(!before.contains(&"g1c3".to_string()));
    assert!(after.contains(&"g1c3".to_string()));
}
