//! The board and every per-square table the move generator reads, built once from the
//! [`Geometry`] (files `z a b c d e f g h i`, ranks `0`..`10`, regions Court, Border, Field).

use menagerie_core::geometry::{Offset, DIAGONAL, KING, KNIGHT, ORTHOGONAL};
use menagerie_core::{Geometry, Square};
use std::sync::OnceLock;

/// Number of files.
pub const WIDTH: usize = 10;
/// Number of squares.
pub const SQUARES: usize = 110;

/// The sector a square belongs to; a man's powers depend on it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Sector {
    /// The perimeter: files z and i, ranks 0 and 10.
    Court,
    /// The middle rank a5-h5.
    Border,
    /// Everything else.
    Field,
}

impl Sector {
    /// The sector's name in the rulebook's words, capitalised.
    pub fn name(self) -> &'static str {
        match self {
            Sector::Court => "Court",
            Sector::Border => "Border",
            Sector::Field => "Field",
        }
    }
}

/// Ray directions: the first four increase the square index, the last four decrease it.
pub(crate) const DIRS: [Offset; 8] = [
    Offset::new(0, 1),
    Offset::new(1, 0),
    Offset::new(1, 1),
    Offset::new(-1, 1),
    Offset::new(0, -1),
    Offset::new(-1, 0),
    Offset::new(-1, -1),
    Offset::new(1, -1),
];

/// The extended L: the long leg of the knight's L one square longer.
const EXTENDED_L: [Offset; 8] = [
    Offset::new(1, 3),
    Offset::new(3, 1),
    Offset::new(3, -1),
    Offset::new(1, -3),
    Offset::new(-1, -3),
    Offset::new(-3, -1),
    Offset::new(-3, 1),
    Offset::new(-1, 3),
];

/// Precomputed tables, one entry per square.
pub(crate) struct Tables {
    pub geometry: Geometry,
    pub court: u128,
    pub border: u128,
    pub field: u128,
    pub sector: [Sector; SQUARES],
    /// The eight neighbours.
    pub adjacent: [u128; SQUARES],
    /// Ordinary knight leaps.
    pub knight_l: [u128; SQUARES],
    /// Extended knight leaps (1,3)/(3,1).
    pub knight_x: [u128; SQUARES],
    /// Ray masks per direction (see [`DIRS`]).
    pub rays: [[u128; SQUARES]; 8],
    /// Squares a pawn of each colour on the square attacks (diagonally forward).
    pub pawn_attacks: [[u128; SQUARES]; 2],
    /// Every square on a rank or file line from the square (empty board).
    pub rook_lines: [u128; SQUARES],
    /// Every square on a diagonal line from the square (empty board).
    pub bishop_lines: [u128; SQUARES],
    /// The direction (index into [`DIRS`]) from the first square to the second when they
    /// share a line, else [`NO_DIR`].
    pub direction: [[u8; SQUARES]; SQUARES],
}

/// [`Tables::direction`] of two squares on no common line.
pub(crate) const NO_DIR: u8 = 8;

fn mask(squares: &[Square]) -> u128 {
    squares.iter().fold(0u128, |m, s| m | 1u128 << s.0)
}

fn build() -> Tables {
    let files = ["z", "a", "b", "c", "d", "e", "f", "g", "h", "i"];
    let ranks: Vec<String> = (0..=10).map(|r| r.to_string()).collect();
    let is_court = |f: u8, r: u8| f == 0 || f == 9 || r == 0 || r == 10;
    let geometry = Geometry::rectangle(10, 11)
        .with_names(&files, &ranks)
        .with_region("Court", is_court)
        .with_region("Border", move |f, r| r == 5 && !is_court(f, r))
        .with_region("Field", move |f, r| r != 5 && !is_court(f, r));
    let region = |name: &str| {
        geometry
            .region(name)
            .map(|r| r.squares().fold(0u128, |m, s| m | 1u128 << s.0))
            .unwrap_or(0)
    };
    let (court, border, field) = (region("Court"), region("Border"), region("Field"));
    let mut sector = [Sector::Field; SQUARES];
    for (i, s) in sector.iter_mut().enumerate() {
        if court >> i & 1 != 0 {
            *s = Sector::Court;
        } else if border >> i & 1 != 0 {
            *s = Sector::Border;
        }
    }
    let adj = geometry.leap_table(&KING);
    let kl = geometry.leap_table(&KNIGHT);
    let kx = geometry.leap_table(&EXTENDED_L);
    let mut adjacent = [0u128; SQUARES];
    let mut knight_l = [0u128; SQUARES];
    let mut knight_x = [0u128; SQUARES];
    let mut rays = [[0u128; SQUARES]; 8];
    let mut pawn_attacks = [[0u128; SQUARES]; 2];
    let ray_table = geometry.ray_table(&DIRS);
    let white_pawn = geometry.leap_table(&[Offset::new(-1, 1), Offset::new(1, 1)]);
    let black_pawn = geometry.leap_table(&[Offset::new(-1, -1), Offset::new(1, -1)]);
    for sq in geometry.squares() {
        let i = sq.index();
        adjacent[i] = mask(adj.targets(sq));
        knight_l[i] = mask(kl.targets(sq));
        knight_x[i] = mask(kx.targets(sq));
        for (d, ray) in rays.iter_mut().enumerate() {
            ray[i] = mask(ray_table.ray(sq, d));
        }
        pawn_attacks[0][i] = mask(white_pawn.targets(sq));
        pawn_attacks[1][i] = mask(black_pawn.targets(sq));
    }
    let mut rook_lines = [0u128; SQUARES];
    let mut bishop_lines = [0u128; SQUARES];
    for sq in 0..SQUARES {
        rook_lines[sq] = ROOK_DIRS.iter().fold(0, |m, &d| m | rays[d][sq]);
        bishop_lines[sq] = BISHOP_DIRS.iter().fold(0, |m, &d| m | rays[d][sq]);
    }
    let mut direction = [[NO_DIR; SQUARES]; SQUARES];
    for (a, row) in direction.iter_mut().enumerate() {
        for (d, ray) in rays.iter().enumerate() {
            for b in (0..SQUARES).filter(|&b| ray[a] >> b & 1 != 0) {
                row[b] = d as u8;
            }
        }
    }
    // The orthogonal and diagonal constants are the core's; DIRS lists the same eight.
    debug_assert!(ORTHOGONAL
        .iter()
        .chain(DIAGONAL.iter())
        .all(|o| DIRS.contains(o)));
    Tables {
        geometry,
        court,
        border,
        field,
        sector,
        adjacent,
        knight_l,
        knight_x,
        rays,
        pawn_attacks,
        rook_lines,
        bishop_lines,
        direction,
    }
}

/// Whether square `sq` is in the bitboard `b` (one word's shift: a `u128` shift by a
/// variable amount costs several instructions).
#[inline(always)]
pub(crate) fn has(b: u128, sq: usize) -> bool {
    let word = if sq < 64 { b as u64 } else { (b >> 64) as u64 };
    word >> (sq & 63) & 1 != 0
}

/// The squares strictly between `a` and `b`, which lie along direction `d` from `a`.
#[inline(always)]
pub(crate) fn between(t: &Tables, a: usize, b: usize, d: usize) -> u128 {
    (t.rays[d][a] ^ t.rays[d][b]) & !(1u128 << b)
}

/// The tables, built on first use.
#[inline(always)]
pub(crate) fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(build)
}

/// The Cypher board: 10 files by 11 ranks with the regions Court, Border and Field.
pub fn geometry() -> &'static Geometry {
    &tables().geometry
}

/// Squares attacked along the given ray directions from `sq` with blockers `occ`.
#[inline(always)]
pub(crate) fn ray_attacks(t: &Tables, sq: usize, occ: u128, dirs: [usize; 4]) -> u128 {
    let mut att = 0;
    for d in dirs {
        let ray = t.rays[d][sq];
        let blockers = ray & occ;
        if blockers == 0 {
            att |= ray;
        } else if d < 4 {
            att |= ray ^ t.rays[d][blockers.trailing_zeros() as usize];
        } else {
            att |= ray ^ t.rays[d][127 - blockers.leading_zeros() as usize];
        }
    }
    att
}

/// Rook lines.
pub(crate) const ROOK_DIRS: [usize; 4] = [0, 1, 4, 5];
/// Bishop lines.
pub(crate) const BISHOP_DIRS: [usize; 4] = [2, 3, 6, 7];

/// Rook-line attacks from `sq`.
#[inline(always)]
pub(crate) fn rook_attacks(t: &Tables, sq: usize, occ: u128) -> u128 {
    ray_attacks(t, sq, occ, ROOK_DIRS)
}
/// Bishop-line attacks from `sq`.
#[inline(always)]
pub(crate) fn bishop_attacks(t: &Tables, sq: usize, occ: u128) -> u128 {
    ray_attacks(t, sq, occ, BISHOP_DIRS)
}
/// Queen-line attacks from `sq`.
#[inline(always)]
pub(crate) fn queen_attacks(t: &Tables, sq: usize, occ: u128) -> u128 {
    rook_attacks(t, sq, occ) | bishop_attacks(t, sq, occ)
}

/// Whether a man in `straight` (along ranks and files) or in `diagonal` reaches `sq` with
/// blockers `occ`; only the directions that hold such a man are followed.
#[inline(always)]
pub(crate) fn line_attacked(
    t: &Tables,
    sq: usize,
    occ: u128,
    straight: u128,
    diagonal: u128,
) -> bool {
    // Usually no such man stands on any line from `sq` at all.
    if t.rook_lines[sq] & straight == 0 && t.bishop_lines[sq] & diagonal == 0 {
        return false;
    }
    for (d, rays) in t.rays.iter().enumerate() {
        let ray = rays[sq];
        let attackers = if d % 4 < 2 { straight } else { diagonal };
        if ray & attackers == 0 {
            continue;
        }
        let blockers = ray & occ;
        let reach = if blockers == 0 {
            ray
        } else if d < 4 {
            ray ^ rays[blockers.trailing_zeros() as usize]
        } else {
            ray ^ rays[127 - blockers.leading_zeros() as usize]
        };
        if reach & attackers != 0 {
            return true;
        }
    }
    false
}
