//! Shared helpers for the rulebook tests.
#![allow(dead_code)]

use menagerie_cheops::{CheopsPosition, Style};
use menagerie_core::Position;

pub const C: Style = Style::Common;
pub const I: Style = Style::Imperial;

pub fn pos(style: Style, fen: &str) -> CheopsPosition {
    match CheopsPosition::from_fen(style, fen) {
        Ok(p) => p,
        Err(e) => panic!("{fen}: {e}"),
    }
}

pub fn moves(style: Style, fen: &str) -> Vec<String> {
    pos(style, fen).move_texts()
}

pub fn legal(style: Style, fen: &str, mv: &str) -> bool {
    moves(style, fen).iter().any(|m| m == mv)
}

pub fn assert_legal(style: Style, fen: &str, mv: &str) {
    assert!(
        legal(style, fen, mv),
        "{mv} should be legal in {fen}; moves: {:?}",
        moves(style, fen)
    );
}

pub fn assert_illegal(style: Style, fen: &str, mv: &str) {
    assert!(!legal(style, fen, mv), "{mv} should not be legal in {fen}");
}

pub fn assert_exact(style: Style, fen: &str, expected: &[&str]) {
    let mut want: Vec<String> = expected.iter().map(|s| s.to_string()).collect();
    want.sort();
    assert_eq!(moves(style, fen), want, "moves of {fen}");
}

pub fn play(p: &CheopsPosition, mv: &str) -> CheopsPosition {
    let m = match p.parse_move(mv) {
        Ok(m) => m,
        Err(e) => panic!("{mv} in {}: {e}", p.fen()),
    };
    let mut next = p.clone();
    next.play(m);
    next
}

pub fn after(style: Style, fen: &str, mv: &str) -> String {
    play(&pos(style, fen), mv).fen()
}
