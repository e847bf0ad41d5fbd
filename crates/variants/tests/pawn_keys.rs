//! The Pawns' keys the correction history is indexed by (Vyrt, Little Cheops): equal exactly
//! when the Pawns stand the same, whatever else moved, and in Imperial blind to the papers.

use menagerie_cheops::position::MAX_SQUARES;
use menagerie_cheops::{CheopsPosition, Style};
use menagerie_core::{Color, Position, Square};
use menagerie_vyrt::VyrtPosition;
use std::collections::HashMap;

/// Over 20 pseudo-random games from `start`, two positions share `key` exactly when
/// `pawns` (the Pawns' squares and colours) are the same; returns how many structures and
/// positions were seen.
fn keys_follow_the_pawns<P: Position>(
    start: impl Fn() -> P,
    key: impl Fn(&P) -> u64,
    pawns: impl Fn(&P) -> Vec<(usize, u8)>,
) -> (usize, usize) {
    let mut by_pawns: HashMap<Vec<(usize, u8)>, u64> = HashMap::new();
    let mut by_key: HashMap<u64, Vec<(usize, u8)>> = HashMap::new();
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut positions = 0;
    for _ in 0..20 {
        let mut p = start();
        for _ in 0..150 {
            let (k, structure) = (key(&p), pawns(&p));
            assert_eq!(*by_pawns.entry(structure.clone()).or_insert(k), k);
            assert_eq!(*by_key.entry(k).or_insert(structure.clone()), structure);
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
    (by_pawns.len(), positions)
}

/// The squares of each side's Pawns on a Little Cheops board, read from its letters.
fn cheops_pawns(p: &CheopsPosition) -> Vec<(usize, u8)> {
    let mut letters = [0u8; MAX_SQUARES];
    p.letters_into(&mut letters);
    (0..MAX_SQUARES)
        .filter(|&s| letters[s] == b'P' || letters[s] == b'p')
        .map(|s| (s, letters[s]))
        .collect()
}

#[test]
fn vyrt_keys_are_the_pawns_and_only_the_pawns() {
    let pawns = |p: &VyrtPosition| {
        (0..144u16)
            .filter_map(|s| {
                let c = p.unit_at(Square(s))?;
                (c == 'P' || c == 'p').then_some((usize::from(s), c as u8))
            })
            .collect()
    };
    let start = || VyrtPosition::start(Default::default());
    let (structures, positions) = keys_follow_the_pawns(start, VyrtPosition::pawn_key, pawns);
    assert!(
        structures > 300 && positions > 2000,
        "{structures} {positions}"
    );
    // The Kings' squares as the evaluation reads them.
    let p = start();
    let kings = [Color::White, Color::Black].map(|c| p.king_square(c).and_then(|s| p.unit_at(s)));
    assert_eq!(kings, [Some('K'), Some('k')]);
}

#[test]
fn little_cheops_keys_are_the_pawns_and_only_the_pawns() {
    for style in [Style::Common, Style::Imperial] {
        let start = || CheopsPosition::start(style);
        let (structures, positions) =
            keys_follow_the_pawns(start, CheopsPosition::pawn_key, cheops_pawns);
        assert!(
            structures > 300 && positions > 2000,
            "{style:?}: {structures} {positions}"
        );
    }
}

/// Twins that differ only in White's sealed papers have one key: it reads the board's
/// Pawns, never a secret.
#[test]
fn the_imperial_key_does_not_read_the_papers() {
    let at = |fen: &str| match CheopsPosition::from_fen(Style::Imperial, fen) {
        Ok(p) => p.pawn_key(),
        Err(e) => panic!("{fen}: {e}"),
    };
    let base = "k12/13/2c1c8/3K9/2t1t8/13/5n7/4p8/6CC5/3P9/13/13/13 b d10:w@d10 - 1 1";
    let keys: Vec<u64> = ["-", "g5", "h5", "g5,h5"]
        .iter()
        .map(|papers| at(&format!("{base} {papers}")))
        .collect();
    assert!(keys.iter().all(|&k| k == keys[0]), "{keys:?}");
    let no_pawns = "k12/13/2c1c8/3K9/2t1t8/13/5n7/13/6CC5/13/13/13/13 b d10:w@d10 - 1 1 -";
    assert_ne!(keys[0], at(no_pawns));
    // A Pawn's colour is part of the structure: the same squares, one Pawn changed side.
    let turned = "k12/13/2c1c8/3K9/2t1t8/13/5n7/4P8/6CC5/3P9/13/13/13 b d10:w@d10 - 1 1 -";
    assert_ne!(keys[0], at(turned));
}
