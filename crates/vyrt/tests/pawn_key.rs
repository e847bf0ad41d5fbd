//! The Pawns' key an evaluation's correction history is indexed by: equal exactly when the
//! Pawns stand the same, whatever else moved.

use menagerie_core::{Position, Square};
use menagerie_vyrt::VyrtPosition;
use std::collections::HashMap;

/// The squares of each side's Pawns.
fn pawns(p: &VyrtPosition) -> Vec<(u16, char)> {
    (0..144)
        .filter_map(|s| {
            let c = p.unit_at(Square(s))?;
            (c == 'P' || c == 'p').then_some((s, c))
        })
        .collect()
}

/// Over pseudo-random games, two positions share a key exactly when their Pawns stand the
/// same (no collision among the structures seen).
#[test]
fn the_key_is_the_pawns_and_only_the_pawns() {
    let mut by_pawns: HashMap<Vec<(u16, char)>, u64> = HashMap::new();
    let mut by_key: HashMap<u64, Vec<(u16, char)>> = HashMap::new();
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut positions = 0;
    for _ in 0..20 {
        let mut p = VyrtPosition::start(Default::default());
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
    assert!(by_pawns.len() > 300 && positions > 2 * by_pawns.len());
    // The King's square as the evaluation reads it.
    let start = VyrtPosition::start(Default::default());
    let kings = [menagerie_core::Color::White, menagerie_core::Color::Black]
        .map(|c| start.king_square(c).map(|s| start.unit_at(s)));
    assert_eq!(kings, [Some(Some('K')), Some(Some('k'))]);
}
