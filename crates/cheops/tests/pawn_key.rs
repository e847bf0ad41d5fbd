//! The Pawns' key an evaluation's correction history is indexed by: equal exactly when the
//! Pawns stand the same, whatever else moved, and blind to the sealed papers.

mod common;
use common::*;
use menagerie_cheops::position::MAX_SQUARES;
use menagerie_cheops::{CheopsPosition, Style};
use menagerie_core::Position;
use std::collections::HashMap;

/// The squares of each side's Pawns, read from the board letters.
fn pawns(p: &CheopsPosition) -> Vec<(usize, u8)> {
    let mut letters = [0u8; MAX_SQUARES];
    p.letters_into(&mut letters);
    (0..MAX_SQUARES)
        .filter(|&s| letters[s] == b'P' || letters[s] == b'p')
        .map(|s| (s, letters[s]))
        .collect()
}

/// Over pseudo-random games of both styles, two positions share a key exactly when their
/// Pawns stand the same (no collision among the structures seen).
#[test]
fn the_key_is_the_pawns_and_only_the_pawns() {
    for style in [Style::Common, Style::Imperial] {
        let mut by_pawns: HashMap<Vec<(usize, u8)>, u64> = HashMap::new();
        let mut by_key: HashMap<u64, Vec<(usize, u8)>> = HashMap::new();
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut positions = 0;
        for _ in 0..20 {
            let mut p = CheopsPosition::start(style);
            for _ in 0..150 {
                let (key, structure) = (p.pawn_key(), pawns(&p));
                assert_eq!(*by_pawns.entry(structure.clone()).or_insert(key), key);
                assert_eq!(*by_key.entry(key).or_insert(structure.clone()), structure);
                positions += 1;
                let mut moves = Vec::new();
                p.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                p.play(moves[(seed % moves.len() as u64) as usize]);
            }
        }
        // Pawns moved and were taken: many structures, many positions to each.
        assert!(
            by_pawns.len() > 300 && positions > 2 * by_pawns.len(),
            "{style:?}"
        );
    }
}

/// Twins that differ only in White's sealed papers have one key: the key reads the board's
/// Pawns, never a secret.
#[test]
fn the_key_does_not_read_the_papers() {
    let base = "k12/13/2c1c8/3K9/2t1t8/13/5n7/4p8/6CC5/3P9/13/13/13 b d10:w@d10 - 1 1";
    let keys: Vec<u64> = ["-", "g5", "h5", "g5,h5"]
        .iter()
        .map(|papers| pos(I, &format!("{base} {papers}")).pawn_key())
        .collect();
    assert!(keys.iter().all(|&k| k == keys[0]), "{keys:?}");
    let no_pawns = "k12/13/2c1c8/3K9/2t1t8/13/5n7/13/6CC5/13/13/13/13 b d10:w@d10 - 1 1 -";
    assert_ne!(keys[0], pos(I, no_pawns).pawn_key());
}
