//! Helpers shared by the rulebook tests.
#![allow(dead_code)]

use menagerie_core::{Position, RuleOptions};
use menagerie_cypher::{CypherMove, CypherPosition};

pub fn pos(fen: &str) -> CypherPosition {
    CypherPosition::from_fen_default(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

pub fn pos_with(fen: &str, options: &[&str]) -> CypherPosition {
    let o = RuleOptions::parse(options).expect("options");
    CypherPosition::from_fen(fen, &o).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// Every legal turn in canonical text, sorted by byte order (13.1).
pub fn all(p: &CypherPosition) -> Vec<String> {
    let mut v: Vec<String> = p.legal().into_iter().map(|m| p.move_text(m)).collect();
    v.sort();
    v
}

/// The legal turns of the man on `square`, sorted.
pub fn of(p: &CypherPosition, square: &str) -> Vec<String> {
    let sq = p.geometry().parse_square(square).expect("square").0 as u8;
    let mut v: Vec<String> = p
        .legal()
        .into_iter()
        .filter(|m| m.from == sq)
        .map(|m| p.move_text(m))
        .collect();
    v.sort();
    v
}

pub fn find(p: &CypherPosition, text: &str) -> Option<CypherMove> {
    p.legal().into_iter().find(|&m| p.move_text(m) == text)
}

pub fn is_legal(p: &CypherPosition, text: &str) -> bool {
    find(p, text).is_some()
}

pub fn assert_legal(p: &CypherPosition, texts: &[&str]) {
    for t in texts {
        assert!(
            is_legal(p, t),
            "{t} should be legal in {}; legal: {:?}",
            p.fen(),
            all(p)
        );
        assert_eq!(p.parse_move(t).map(|m| p.move_text(m)).as_deref(), Ok(*t));
    }
}

pub fn assert_not_legal(p: &CypherPosition, texts: &[&str]) {
    for t in texts {
        assert!(!is_legal(p, t), "{t} should not be legal in {}", p.fen());
        assert!(p.parse_move(t).is_err(), "{t} parsed in {}", p.fen());
    }
}

/// Plays space-separated canonical moves.
pub fn play(p: &CypherPosition, line: &str) -> CypherPosition {
    let mut cur = p.clone();
    for t in line.split_whitespace() {
        let m = find(&cur, t)
            .unwrap_or_else(|| panic!("{t} is not legal in {}: {:?}", cur.fen(), all(&cur)));
        cur.play(m);
    }
    cur
}

/// The ending as the rulebook writes it (section 11); `expected` may leave out the points.
pub fn assert_ending(p: &CypherPosition, expected: &str) {
    let got = p
        .outcome()
        .map(|o| o.to_string())
        .unwrap_or_else(|| "game goes on".into());
    let norm = |s: &str| {
        let mut c = s.chars();
        c.next()
            .map(|f| f.to_ascii_lowercase().to_string() + c.as_str())
            .unwrap_or_default()
    };
    assert!(
        norm(&got).starts_with(&norm(expected)),
        "expected '{expected}', got '{got}' in {}",
        p.fen()
    );
    assert!(p.legal().is_empty(), "an ended game has no legal turns");
}

pub fn human(p: &CypherPosition, text: &str) -> String {
    let m = find(p, text).unwrap_or_else(|| panic!("{text} not legal"));
    p.move_human(m)
}

pub fn strings(v: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = v.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}
