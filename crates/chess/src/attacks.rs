//! Attack tables for the 8x8 board, built once from the core [`Geometry`]: leaper masks from
//! its leap tables, slider attacks as magic bitboards whose masks come from its ray tables.

use crate::magics;
use menagerie_core::geometry::{Geometry, Offset, DIAGONAL, KING, KNIGHT, ORTHOGONAL};
use menagerie_core::zobrist::KeyGen;
use menagerie_core::Square;
use std::sync::OnceLock;

/// One slider's magic look-up for one square.
#[derive(Clone, Copy, Default)]
struct Magic {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: usize,
}

/// Every precomputed table move generation needs.
pub struct Tables {
    /// Knight targets per square.
    pub knight: [u64; 64],
    /// King targets per square.
    pub king: [u64; 64],
    /// Pawn capture targets per colour (0 White, 1 Black) and square.
    pub pawn: [[u64; 64]; 2],
    /// Squares strictly between two squares on a line (empty otherwise).
    pub between: Box<[[u64; 64]; 64]>,
    /// The whole line through two squares (empty when they share none).
    pub line: Box<[[u64; 64]; 64]>,
    rook: [Magic; 64],
    bishop: [Magic; 64],
    slider: Vec<u64>,
}

impl Tables {
    /// Rook attacks from `sq` with occupancy `occ`.
    #[inline(always)]
    pub fn rook(&self, sq: usize, occ: u64) -> u64 {
        let m = &self.rook[sq];
        self.slider[m.offset + ((occ & m.mask).wrapping_mul(m.magic) >> m.shift) as usize]
    }
    /// Bishop attacks from `sq` with occupancy `occ`.
    #[inline(always)]
    pub fn bishop(&self, sq: usize, occ: u64) -> u64 {
        let m = &self.bishop[sq];
        self.slider[m.offset + ((occ & m.mask).wrapping_mul(m.magic) >> m.shift) as usize]
    }
    /// Queen attacks from `sq` with occupancy `occ`.
    #[inline(always)]
    pub fn queen(&self, sq: usize, occ: u64) -> u64 {
        self.rook(sq, occ) | self.bishop(sq, occ)
    }
}

/// The chess board: 8x8, files a–h, ranks 1–8.
pub fn geometry() -> &'static Geometry {
    static G: OnceLock<Geometry> = OnceLock::new();
    G.get_or_init(|| Geometry::rectangle(8, 8))
}

/// The tables, built on first use.
pub fn tables() -> &'static Tables {
    static T: OnceLock<Tables> = OnceLock::new();
    T.get_or_init(|| build(&magics::ROOK, &magics::BISHOP))
}

fn mask_of(squares: &[Square]) -> u64 {
    squares.iter().fold(0, |m, s| m | 1u64 << s.0)
}

/// Attacks of a slider from `sq` along `dirs`, computed the slow way (for building tables).
fn slow_attacks(g: &Geometry, sq: Square, dirs: &[Offset], occ: u64) -> u64 {
    let mut out = 0;
    for &d in dirs {
        for t in g.ray(sq, d) {
            out |= 1u64 << t.0;
            if occ >> t.0 & 1 != 0 {
                break;
            }
        }
    }
    out
}

/// Whether `magic` maps every occupancy to a slot holding its attacks (slots may be shared by
/// occupancies with the same attacks), filling `slots` as it goes; `attempt` marks the slots
/// of this try in `used`.
fn fits(
    magic: u64,
    shift: u32,
    occs: &[u64],
    atts: &[u64],
    used: &mut [u32],
    attempt: u32,
    slots: &mut [u64],
) -> bool {
    occs.iter().zip(atts).all(|(&o, &a)| {
        let idx = (o.wrapping_mul(magic) >> shift) as usize;
        if used[idx] != attempt {
            used[idx] = attempt;
            slots[idx] = a;
            true
        } else {
            slots[idx] == a
        }
    })
}

/// A slider's relevant occupancy mask from `sq` (its rays without their last square:
/// nothing lies beyond it), every subset of it, and the attacks with each.
fn occupancies(g: &Geometry, sq: Square, dirs: &[Offset]) -> (u64, Vec<u64>, Vec<u64>) {
    let mask = dirs.iter().fold(0, |m, &d| {
        let ray = g.ray(sq, d);
        m | mask_of(&ray[..ray.len().saturating_sub(1)])
    });
    let size = 1usize << mask.count_ones();
    let mut occs = Vec::with_capacity(size);
    let mut atts = Vec::with_capacity(size);
    // Enumerate every subset of the mask (Carry-Rippler).
    let mut sub = 0u64;
    loop {
        occs.push(sub);
        atts.push(slow_attacks(g, sq, dirs, sub));
        sub = sub.wrapping_sub(mask) & mask;
        if sub == 0 {
            break;
        }
    }
    (mask, occs, atts)
}

/// The tables, with the given magics where they fit and searched ones elsewhere.
fn build(rook_magics: &[u64; 64], bishop_magics: &[u64; 64]) -> Tables {
    let g = geometry();
    let knights = g.leap_table(&KNIGHT);
    let kings = g.leap_table(&KING);
    let mut t = Tables {
        knight: [0; 64],
        king: [0; 64],
        pawn: [[0; 64]; 2],
        between: Box::new([[0; 64]; 64]),
        line: Box::new([[0; 64]; 64]),
        rook: [Magic::default(); 64],
        bishop: [Magic::default(); 64],
        slider: Vec::new(),
    };
    let white_pawn = g.leap_table(&[Offset::new(-1, 1), Offset::new(1, 1)]);
    let black_pawn = g.leap_table(&[Offset::new(-1, -1), Offset::new(1, -1)]);
    for sq in g.squares() {
        let i = sq.index();
        t.knight[i] = mask_of(knights.targets(sq));
        t.king[i] = mask_of(kings.targets(sq));
        t.pawn[0][i] = mask_of(white_pawn.targets(sq));
        t.pawn[1][i] = mask_of(black_pawn.targets(sq));
        for d in KING {
            let ray = g.ray(sq, d);
            let back = g.ray(sq, d.flipped());
            for (k, &target) in ray.iter().enumerate() {
                t.between[i][target.index()] = mask_of(&ray[..k]);
                t.line[i][target.index()] = mask_of(&ray) | mask_of(&back) | 1u64 << sq.0;
            }
        }
    }
    let mut rng = KeyGen::new(0x6d65_6e61_6765_7269);
    for (dirs, is_rook) in [(&ORTHOGONAL, true), (&DIAGONAL, false)] {
        for sq in g.squares() {
            let (mask, occs, atts) = occupancies(g, sq, dirs);
            let bits = mask.count_ones();
            let size = 1usize << bits;
            let offset = t.slider.len();
            t.slider.resize(offset + size, 0);
            let shift = 64 - bits;
            let mut used = vec![u32::MAX; size];
            let mut attempt = 0u32;
            // The stored magic first (finding one takes a third of a second at every start);
            // a search only if it no longer fits (a changed table).
            let mut candidate = if is_rook {
                rook_magics[sq.index()]
            } else {
                bishop_magics[sq.index()]
            };
            let magic = loop {
                attempt += 1;
                let slots = &mut t.slider[offset..];
                if fits(candidate, shift, &occs, &atts, &mut used, attempt, slots) {
                    break candidate;
                }
                candidate = loop {
                    let c = rng.next() & rng.next() & rng.next();
                    if (mask.wrapping_mul(c) >> 56).count_ones() >= 6 {
                        break c;
                    }
                };
            };
            let m = Magic {
                mask,
                magic,
                shift,
                offset,
            };
            if is_rook {
                t.rook[sq.index()] = m;
            } else {
                t.bishop[sq.index()] = m;
            }
        }
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every stored magic fits its square, so no start searches for one.
    #[test]
    fn stored_magics_fit() {
        let g = geometry();
        let mut found = Vec::new();
        for (dirs, stored) in [(&ORTHOGONAL, &magics::ROOK), (&DIAGONAL, &magics::BISHOP)] {
            for sq in g.squares() {
                let (mask, occs, atts) = occupancies(g, sq, dirs);
                let bits = mask.count_ones();
                let mut used = vec![u32::MAX; 1 << bits];
                let mut slots = vec![0; 1 << bits];
                let magic = stored[sq.index()];
                if !fits(magic, 64 - bits, &occs, &atts, &mut used, 1, &mut slots) {
                    found.push(sq.index());
                }
            }
        }
        assert!(found.is_empty(), "stored magics that do not fit: {found:?}");
    }

    /// Without stored magics the search finds working ones (the same, from the same seed).
    #[test]
    fn magics_are_found_when_none_is_stored() {
        let searched = build(&[0; 64], &[0; 64]);
        for sq in 0..64 {
            assert_eq!(searched.rook[sq].magic, magics::ROOK[sq]);
            assert_eq!(searched.bishop[sq].magic, magics::BISHOP[sq]);
        }
        assert_eq!(searched.slider, tables().slider);
    }

    #[test]
    fn magics_agree_with_rays() {
        let t = tables();
        let g = geometry();
        let mut rng = KeyGen::new(7);
        for _ in 0..2000 {
            let occ = rng.next() & rng.next();
            let sq = (rng.next() % 64) as u16;
            assert_eq!(
                t.rook(sq as usize, occ),
                slow_attacks(g, Square(sq), &ORTHOGONAL, occ)
            );
            assert_eq!(
                t.bishop(sq as usize, occ),
                slow_attacks(g, Square(sq), &DIAGONAL, occ)
            );
        }
        assert_eq!(t.knight[0], 1 << 10 | 1 << 17);
        assert_eq!(t.between[0][63].count_ones(), 6);
        assert_eq!(t.line[0][9], t.line[9][63]);
    }
}
