//! Bit sets over squares, one width per board size.
//!
//! `u64` serves 8x8, `u128` every board up to 128 squares (Cypher's 10x11, Little Cheops'
//! 9x9), and [`Wide<N>`] anything larger (12x12 = 144, 13x13 = 169 squares with `N = 3`).
//! Code generic over [`BitBoard`] compiles to the native operations of each width.

use crate::geometry::Square;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of squares stored as bits, index = square index.
pub trait BitBoard:
    Copy
    + Eq
    + std::fmt::Debug
    + Default
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
    + Send
    + Sync
    + 'static
{
    /// How many squares the type can hold.
    const CAPACITY: usize;
    /// The empty set.
    const EMPTY: Self;
    /// The set holding only `sq`.
    fn single(sq: Square) -> Self;
    /// Whether `sq` is in the set.
    fn has(self, sq: Square) -> bool;
    /// Number of squares in the set.
    fn count(self) -> u32;
    /// Whether the set is empty.
    fn is_empty(self) -> bool;
    /// The lowest square, if any.
    fn first(self) -> Option<Square>;
    /// The highest square, if any.
    fn last(self) -> Option<Square>;
    /// Adds `sq`.
    #[inline(always)]
    fn set(&mut self, sq: Square) {
        *self |= Self::single(sq);
    }
    /// Removes `sq`.
    #[inline(always)]
    fn clear(&mut self, sq: Square) {
        *self &= !Self::single(sq);
    }
    /// Removes and returns the lowest square.
    #[inline(always)]
    fn pop_first(&mut self) -> Option<Square> {
        let sq = self.first()?;
        self.clear(sq);
        Some(sq)
    }
    /// Iterates the squares from lowest to highest.
    fn iter(self) -> Squares<Self> {
        Squares(self)
    }
    /// The set holding `squares`.
    fn from_squares(squares: &[Square]) -> Self {
        let mut b = Self::EMPTY;
        for &s in squares {
            b.set(s);
        }
        b
    }
}

/// Iterator over a bitboard's squares.
pub struct Squares<B>(B);

impl<B: BitBoard> Iterator for Squares<B> {
    type Item = Square;
    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        self.0.pop_first()
    }
}

macro_rules! native_bitboard {
    ($t:ty, $bits:expr) => {
        impl BitBoard for $t {
            const CAPACITY: usize = $bits;
            const EMPTY: Self = 0;
            #[inline(always)]
            fn single(sq: Square) -> Self {
                1 << sq.0
            }
            #[inline(always)]
            fn has(self, sq: Square) -> bool {
                self >> sq.0 & 1 != 0
            }
            #[inline(always)]
            fn count(self) -> u32 {
                self.count_ones()
            }
            #[inline(always)]
            fn is_empty(self) -> bool {
                self == 0
            }
            #[inline(always)]
            fn first(self) -> Option<Square> {
                (self != 0).then(|| Square(self.trailing_zeros() as u16))
            }
            #[inline(always)]
            fn last(self) -> Option<Square> {
                (self != 0).then(|| Square(($bits - 1 - self.leading_zeros()) as u16))
            }
            #[inline(always)]
            fn pop_first(&mut self) -> Option<Square> {
                let sq = self.first()?;
                *self &= *self - 1;
                Some(sq)
            }
        }
    };
}
native_bitboard!(u64, 64);
native_bitboard!(u128, 128);

/// A bitboard of `64 * N` squares, for boards larger than 128 squares.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Wide<const N: usize>(pub [u64; N]);

impl<const N: usize> Default for Wide<N> {
    fn default() -> Self {
        Wide([0; N])
    }
}

macro_rules! wide_op {
    ($trait:ident, $f:ident, $assign:ident, $fa:ident, $op:tt) => {
        impl<const N: usize> $trait for Wide<N> {
            type Output = Self;
            #[inline(always)]
            fn $f(self, rhs: Self) -> Self {
                let mut out = self;
                for i in 0..N {
                    out.0[i] = self.0[i] $op rhs.0[i];
                }
                out
            }
        }
        impl<const N: usize> $assign for Wide<N> {
            #[inline(always)]
            fn $fa(&mut self, rhs: Self) {
                for i in 0..N {
                    self.0[i] = self.0[i] $op rhs.0[i];
                }
            }
        }
    };
}
wide_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
wide_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
wide_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl<const N: usize> Not for Wide<N> {
    type Output = Self;
    #[inline(always)]
    fn not(self) -> Self {
        let mut out = self;
        for w in out.0.iter_mut() {
            *w = !*w;
        }
        out
    }
}

impl<const N: usize> BitBoard for Wide<N> {
    const CAPACITY: usize = 64 * N;
    const EMPTY: Self = Wide([0; N]);
    #[inline(always)]
    fn single(sq: Square) -> Self {
        let mut b = Self::EMPTY;
        b.0[sq.index() / 64] = 1 << (sq.0 % 64);
        b
    }
    #[inline(always)]
    fn has(self, sq: Square) -> bool {
        self.0[sq.index() / 64] >> (sq.0 % 64) & 1 != 0
    }
    // One word, not the whole set: a whole-set read-modify-write right after a position is
    // copied reads across the copy's stores and stalls (a tenth of a Little Cheops search).
    #[inline(always)]
    fn set(&mut self, sq: Square) {
        self.0[sq.index() / 64] |= 1 << (sq.0 % 64);
    }
    #[inline(always)]
    fn clear(&mut self, sq: Square) {
        self.0[sq.index() / 64] &= !(1 << (sq.0 % 64));
    }
    #[inline(always)]
    fn count(self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
    #[inline(always)]
    fn is_empty(self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }
    #[inline(always)]
    fn first(self) -> Option<Square> {
        for (i, &w) in self.0.iter().enumerate() {
            if w != 0 {
                return Some(Square((i * 64) as u16 + w.trailing_zeros() as u16));
            }
        }
        None
    }
    #[inline(always)]
    fn last(self) -> Option<Square> {
        for (i, &w) in self.0.iter().enumerate().rev() {
            if w != 0 {
                return Some(Square((i * 64 + 63) as u16 - w.leading_zeros() as u16));
            }
        }
        None
    }
    #[inline(always)]
    fn pop_first(&mut self) -> Option<Square> {
        for i in 0..N {
            let w = self.0[i];
            if w != 0 {
                self.0[i] = w & (w - 1);
                return Some(Square((i * 64) as u16 + w.trailing_zeros() as u16));
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exercise<B: BitBoard>(squares: &[u16]) {
        let sqs: Vec<Square> = squares.iter().map(|&s| Square(s)).collect();
        let b = B::from_squares(&sqs);
        assert_eq!(b.count() as usize, sqs.len());
        assert_eq!(b.iter().collect::<Vec<_>>(), sqs);
        assert_eq!(b.first(), sqs.first().copied());
        assert_eq!(b.last(), sqs.last().copied());
        for &s in &sqs {
            assert!(b.has(s));
            let mut c = b;
            c.clear(s);
            assert!(!c.has(s));
            assert_eq!(c.count() + 1, b.count());
        }
        assert!((b & !b).is_empty());
        let same = B::from_squares(&sqs);
        assert_eq!(b ^ same, B::EMPTY);
    }

    #[test]
    fn every_width_behaves_alike() {
        exercise::<u64>(&[0, 7, 33, 63]);
        exercise::<u128>(&[0, 64, 100, 127]);
        exercise::<Wide<3>>(&[0, 63, 64, 143, 168, 191]);
        exercise::<Wide<3>>(&[]);
    }
}
