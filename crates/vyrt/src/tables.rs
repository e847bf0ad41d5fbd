//! Precomputed tables for the 12x12 torus, built at compile time.
//!
//! Squares are `12 * y + x` (§3.2 of the rulebook: x = 0 is the K file, y = 0 rank 11).
//! Every rank, file and diagonal is a closed circle of 12 squares. A square lies on four
//! such *lines*, one per *family*:
//!
//! | family | direction | line index | position on the line |
//! |---|---|---|---|
//! | 0 rank | (1, 0) | y | x |
//! | 1 file | (0, 1) | x | y |
//! | 2 diagonal | (1, 1) | (x - y) mod 12 | y |
//! | 3 anti-diagonal | (1, -1) | (x + y) mod 12 | x |
//!
//! so one step along a family moves one position up its line. Each line's occupancy is a
//! 12-bit mask, and the squares a slider reaches along a line, both ways round, are one look-up
//! in [`CIRCLE`] after rotating the mask so that the slider sits at position 0. The table
//! follows each direction until the first occupied square (included) and never returns to the
//! origin, which is exactly the rulebook's ray with the "other side" rule and no null move.

// Tables are built in `const` blocks, where loops over indices are the only loops.
#![allow(clippy::needless_range_loop)]

use menagerie_core::geometry::{self, Offset};
use menagerie_core::Wide;

/// A set of squares of the torus (144 of the 192 bits are used).
pub type Bb = Wide<3>;

/// The number of squares.
pub const N: usize = 144;
/// "No square": index 144 lies on no line and in no piece set, so masks built from it are
/// harmless.
pub const NONE: usize = 144;

/// The square at `(x, y)`, both taken modulo 12.
pub const fn sq(x: i32, y: i32) -> usize {
    (12 * y.rem_euclid(12) + x.rem_euclid(12)) as usize
}

const fn bb_with(mut b: [u64; 3], s: usize) -> [u64; 3] {
    b[s / 64] |= 1 << (s % 64);
    b
}

/// `(line, position)` of every square in the four families; square [`NONE`] is on line 255.
pub static SQ_LINES: [[(u8, u8); 4]; N + 1] = {
    let mut t = [[(255u8, 0u8); 4]; N + 1];
    let mut s = 0;
    while s < N {
        t[s] = square_lines(s);
        s += 1;
    }
    t
};

/// `(line, position)` of square `s` (below [`N`]) in the four families.
const fn square_lines(s: usize) -> [(u8, u8); 4] {
    let (x, y) = ((s % 12) as i32, (s / 12) as i32);
    [
        (y as u8, x as u8),
        (x as u8, y as u8),
        ((x - y).rem_euclid(12) as u8, y as u8),
        ((x + y).rem_euclid(12) as u8, x as u8),
    ]
}

/// The square at `[family][line][position]`.
pub static LINE_SQS: [[[u8; 12]; 12]; 4] = {
    let mut t = [[[0u8; 12]; 12]; 4];
    let mut l = 0;
    while l < 12 {
        let mut p = 0;
        while p < 12 {
            let (li, pi) = (l as i32, p as i32);
            t[0][l][p] = sq(pi, li) as u8;
            t[1][l][p] = sq(li, pi) as u8;
            t[2][l][p] = sq(li + pi, pi) as u8;
            t[3][l][p] = sq(pi, li - pi) as u8;
            p += 1;
        }
        l += 1;
    }
    t
};

/// Reach of a slider at position 0 of a circle, indexed by the occupancy of positions 1..=11
/// (bit `k - 1` = position `k`): every position up to and including the first occupied one
/// going up, and the same going down.
pub static CIRCLE: [u16; 2048] = {
    let mut t = [0u16; 2048];
    let mut i = 0;
    while i < 2048 {
        let occ = (i as u32) << 1;
        let mut a = 0u32;
        let mut k = 1;
        while k < 12 {
            a |= 1 << k;
            if occ >> k & 1 != 0 {
                break;
            }
            k += 1;
        }
        let mut k = 11;
        while k > 0 {
            a |= 1 << k;
            if occ >> k & 1 != 0 {
                break;
            }
            k -= 1;
        }
        t[i] = a as u16;
        i += 1;
    }
    t
};

/// [`CIRCLE`] split by direction, for an evaluation that counts the two routes round a
/// circle apart: `[0]` the positions reached going up, `[1]` going down, `[2]` how many
/// positions the two routes reach together (a position reached both ways counts twice).
pub static CIRCLE_ROUTES: [[u16; 3]; 2048] = {
    let mut t = [[0u16; 3]; 2048];
    let mut i = 0;
    while i < 2048 {
        let occ = (i as u32) << 1;
        let (mut up, mut down) = (0u32, 0u32);
        let mut k = 1;
        while k < 12 {
            up |= 1 << k;
            if occ >> k & 1 != 0 {
                break;
            }
            k += 1;
        }
        let mut k = 11;
        while k > 0 {
            down |= 1 << k;
            if occ >> k & 1 != 0 {
                break;
            }
            k -= 1;
        }
        t[i] = [
            up as u16,
            down as u16,
            (up.count_ones() + down.count_ones()) as u16,
        ];
        i += 1;
    }
    t
};

/// Rotates a 12-bit circle mask so that position `p` becomes position 0.
#[inline(always)]
pub fn rot_down(v: u16, p: u32) -> u32 {
    let v = v as u32;
    ((v >> p) | (v << (12 - p))) & 0xFFF
}

/// Rotates a 12-bit circle mask so that position 0 becomes position `p`.
#[inline(always)]
pub fn rot_up(v: u32, p: u32) -> u16 {
    (((v << p) | (v >> (12 - p))) & 0xFFF) as u16
}

/// The positions a slider at position `p` reaches on a circle with occupancy `occ`.
#[inline(always)]
pub fn circle_attack(occ: u16, p: u32) -> u16 {
    rot_up(CIRCLE[(rot_down(occ, p) >> 1) as usize] as u32, p)
}

const fn leaper_table(offsets: &[Offset; 8]) -> [Bb; N] {
    let mut t = [Wide([0; 3]); N];
    let mut s = 0;
    while s < N {
        let (x, y) = ((s % 12) as i32, (s / 12) as i32);
        let mut b = [0u64; 3];
        let mut i = 0;
        while i < 8 {
            b = bb_with(b, sq(x + offsets[i].dx as i32, y + offsets[i].dy as i32));
            i += 1;
        }
        t[s] = Wide(b);
        s += 1;
    }
    t
}

/// The eight Knight targets of every square (the core's Knight leaps, wrapped).
pub static KNIGHT: [Bb; N] = leaper_table(&geometry::KNIGHT);

/// The squares that share a line of any family with each square (the square itself left
/// out): a move touching none of these cannot open or close a line to that square.
pub static LINES_THROUGH: [Bb; N] = {
    let mut t = [Wide([0; 3]); N];
    let mut s = 0;
    while s < N {
        let a = square_lines(s);
        let mut b = [0u64; 3];
        let mut o = 0;
        while o < N {
            let c = square_lines(o);
            let mut f = 0;
            while f < 4 {
                if o != s && a[f].0 == c[f].0 {
                    b = bb_with(b, o);
                }
                f += 1;
            }
            o += 1;
        }
        t[s] = Wide(b);
        s += 1;
    }
    t
};

/// The eight King neighbours of every square (the core's King steps, wrapped).
pub static KING: [Bb; N] = leaper_table(&geometry::KING);

/// The eight King neighbours of every square as a list; entry [`NONE`] repeats square 0's
/// (read only where a King stands).
pub static KING_STEPS: [[u8; 8]; N + 1] = {
    let mut t = [[0u8; 8]; N + 1];
    let mut s = 0;
    while s <= N {
        t[s] = king_steps(s % N);
        s += 1;
    }
    t
};

const fn king_steps(s: usize) -> [u8; 8] {
    let (x, y) = ((s % 12) as i32, (s / 12) as i32);
    let mut t = [0u8; 8];
    let mut i = 0;
    while i < 8 {
        let o = geometry::KING[i];
        t[i] = sq(x + o.dx as i32, y + o.dy as i32) as u8;
        i += 1;
    }
    t
}

/// The King neighbours of every square as positions on lines, `[square][family][line]`: bit
/// `p` is set when position `p` of that line is next to the square. Entry [`NONE`] is empty,
/// so a missing King has no neighbours.
pub static KING_ZONE_LINES: [[[u16; 12]; 4]; N + 1] = {
    let mut t = [[[0u16; 12]; 4]; N + 1];
    let mut s = 0;
    while s < N {
        let steps = king_steps(s);
        let mut i = 0;
        while i < 8 {
            let lines = square_lines(steps[i] as usize);
            let mut f = 0;
            while f < 4 {
                let (l, p) = lines[f];
                t[s][f][l as usize] |= 1 << p;
                f += 1;
            }
            i += 1;
        }
        s += 1;
    }
    t
};

/// The y of the rank a pawn of each colour promotes on (rank 8 for White, rank 1 for Black).
pub const PROMOTION_Y: [usize; 2] = [9, 2];

/// Whether a pawn of `color` standing on row `y` walks towards lower y: Black's pawns do, and
/// under `reversed-back-pawns` so do the back-row pawns of both sides (rows 9-12, y 10, 11, 0,
/// 1), which are exactly the rows no ordinary pawn of that colour can stand on.
const fn pawn_dy(reversed: bool, color: usize, y: usize) -> i32 {
    let back = reversed && (y <= 1 || y >= 10);
    let up = (color == 0) != back;
    if up {
        1
    } else {
        -1
    }
}

/// Pawn tables for one reading of the pawn rules.
pub struct PawnTables {
    /// The square straight ahead of a pawn, `[color][square]`.
    pub push: [[u8; N]; 2],
    /// The two squares a pawn captures on, `[color][square]`.
    pub captures: [[[u8; 2]; N]; 2],
    /// The squares from which a pawn of `color` attacks the square, `[color][square]`.
    pub attackers: [[Bb; N]; 2],
    /// The squares from which a pawn of `color` attacks a neighbour of the square,
    /// `[color][square]`; entry [`NONE`] is empty.
    pub zone_attackers: [[Bb; N + 1]; 2],
}

const fn pawn_tables(reversed: bool) -> PawnTables {
    let mut push = [[0u8; N]; 2];
    let mut captures = [[[0u8; 2]; N]; 2];
    let mut att = [[[0u64; 3]; N]; 2];
    let mut c = 0;
    while c < 2 {
        let mut s = 0;
        while s < N {
            let (x, y) = ((s % 12) as i32, (s / 12) as i32);
            let dy = pawn_dy(reversed, c, y as usize);
            push[c][s] = sq(x, y + dy) as u8;
            let l = sq(x - 1, y + dy);
            let r = sq(x + 1, y + dy);
            captures[c][s] = [l as u8, r as u8];
            att[c][l] = bb_with(att[c][l], s);
            att[c][r] = bb_with(att[c][r], s);
            s += 1;
        }
        c += 1;
    }
    let mut attackers = [[Wide([0; 3]); N]; 2];
    let mut zone_attackers = [[Wide([0; 3]); N + 1]; 2];
    let mut c = 0;
    while c < 2 {
        let mut s = 0;
        while s < N {
            attackers[c][s] = Wide(att[c][s]);
            let steps = king_steps(s);
            let mut zone = [0u64; 3];
            let mut i = 0;
            while i < 8 {
                let a = att[c][steps[i] as usize];
                zone = [zone[0] | a[0], zone[1] | a[1], zone[2] | a[2]];
                i += 1;
            }
            zone_attackers[c][s] = Wide(zone);
            s += 1;
        }
        c += 1;
    }
    PawnTables {
        push,
        captures,
        attackers,
        zone_attackers,
    }
}

/// Pawn tables: `[0]` the rulings (R5), `[1]` the option `reversed-back-pawns`.
pub static PAWNS: [PawnTables; 2] = [pawn_tables(false), pawn_tables(true)];

/// Pushes a pawn of each colour still needs to reach its promotion rank, `[color][square]`,
/// under one reading of the pawn rules (0 on the promotion rank itself).
const fn pawn_steps(reversed: bool) -> [[u8; N]; 2] {
    let mut out = [[0u8; N]; 2];
    let mut c = 0;
    while c < 2 {
        let mut s = 0;
        while s < N {
            let mut y = (s / 12) as i32;
            let mut steps = 0;
            while y as usize != PROMOTION_Y[c] && steps < 12 {
                y = (y + pawn_dy(reversed, c, y as usize)).rem_euclid(12);
                steps += 1;
            }
            out[c][s] = steps;
            s += 1;
        }
        c += 1;
    }
    out
}

/// [`pawn_steps`] for `[0]` the rulings and `[1]` the option `reversed-back-pawns`.
pub static PAWN_STEPS: [[[u8; N]; 2]; 2] = [pawn_steps(false), pawn_steps(true)];

/// Whether a pawn of `color` may stand on row `y` under the chosen pawn reading.
pub const fn pawn_row_ok(reversed: bool, color: usize, y: usize) -> bool {
    if reversed {
        y != PROMOTION_Y[color]
    } else if color == 0 {
        y >= 1 && y <= 8 // ranks 12 and 1-7
    } else {
        y >= 3 && y <= 10 // ranks 2-9
    }
}

/// Castling rights lost when a unit leaves or lands on a square (K = 1, Q = 2, k = 4, q = 8).
pub static CASTLE_LOSS: [u8; N] = {
    let mut t = [0u8; N];
    t[sq(6, 2)] = 1 | 2; // E1
    t[sq(9, 2)] = 1; // H1
    t[sq(2, 2)] = 2; // A1
    t[sq(6, 9)] = 4 | 8; // E8
    t[sq(9, 9)] = 4; // H8
    t[sq(2, 9)] = 8; // A8
    t
};

#[cfg(test)]
mod tests {
    use super::*;
    use menagerie_core::{BitBoard, Square};

    #[test]
    fn lines_are_circles() {
        for f in 0..4 {
            for l in 0..12 {
                for p in 0..12 {
                    let s = LINE_SQS[f][l][p] as usize;
                    assert_eq!(SQ_LINES[s][f], (l as u8, p as u8));
                }
            }
        }
        // the diagonals through a square meet again at (x + 6, y + 6)
        let e3 = sq(6, 4);
        let k9 = sq(0, 10);
        let (dl, dp) = SQ_LINES[e3][2];
        let (al, ap) = SQ_LINES[e3][3];
        assert_eq!(
            LINE_SQS[2][dl as usize][(dp as usize + 6) % 12] as usize,
            k9
        );
        assert_eq!(
            LINE_SQS[3][al as usize][(ap as usize + 6) % 12] as usize,
            k9
        );
    }

    #[test]
    fn circle_attacks_stop_before_the_origin() {
        assert_eq!(circle_attack(1 << 5, 5), 0xFFF & !(1 << 5));
        // blockers at 3 and 8 seen from 5: 3, 4, 6, 7, 8
        let occ = (1 << 3) | (1 << 5) | (1 << 8);
        assert_eq!(
            circle_attack(occ, 5),
            (1 << 3) | (1 << 4) | (1 << 6) | (1 << 7) | (1 << 8)
        );
        // one blocker: reached both ways round, everything else too
        assert_eq!(circle_attack((1 << 0) | (1 << 11), 0), 0xFFE);
    }

    #[test]
    fn leapers_have_eight_targets_everywhere() {
        for s in 0..N {
            assert_eq!(KNIGHT[s].count(), 8);
            assert_eq!(KING[s].count(), 8);
        }
    }

    #[test]
    fn every_square_shares_a_line_with_43_others() {
        // 11 along the rank, 11 along the file, 11 along each diagonal, less the square
        // opposite, where the two diagonals meet again.
        for s in 0..N {
            assert_eq!(LINES_THROUGH[s].count(), 43);
            assert!(!LINES_THROUGH[s].has(Square(s as u16)));
            assert!(LINES_THROUGH[s].has(Square(sq(s as i32 % 12 + 6, s as i32 / 12 + 6) as u16)));
        }
    }
}
