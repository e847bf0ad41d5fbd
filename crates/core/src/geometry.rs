//! Board geometry as data: shape, wrap-around, square names, regions and precomputed
//! step, leap and ray tables.
//!
//! A square is an index `rank * width + file` with rank 0 at White's side and file 0 at
//! White's left. Every game describes its board with a [`Geometry`]; move generators read the
//! tables built here instead of doing coordinate arithmetic of their own, so a new board shape
//! (a torus, a pyramid level) is a new `Geometry`, not new move code.

use crate::error::SquareError;
use std::fmt;

/// A square of a board, as an index `rank * width + file` into its [`Geometry`].
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
pub struct Square(pub u16);

impl Square {
    /// The index as a `usize`, for table look-ups.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// A displacement of a step, leap or ray: `dx` towards White's right, `dy` towards Black.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Offset {
    /// Files to the right (negative: left), seen from White.
    pub dx: i8,
    /// Ranks forward for White (negative: towards White).
    pub dy: i8,
}

impl Offset {
    /// Builds an offset.
    pub const fn new(dx: i8, dy: i8) -> Self {
        Offset { dx, dy }
    }
    /// The same offset seen from the other side of the board (turned half a turn).
    pub const fn flipped(self) -> Self {
        Offset {
            dx: -self.dx,
            dy: -self.dy,
        }
    }
}

/// The four orthogonal directions.
pub const ORTHOGONAL: [Offset; 4] = [
    Offset::new(0, 1),
    Offset::new(1, 0),
    Offset::new(0, -1),
    Offset::new(-1, 0),
];
/// The four diagonal directions.
pub const DIAGONAL: [Offset; 4] = [
    Offset::new(1, 1),
    Offset::new(1, -1),
    Offset::new(-1, -1),
    Offset::new(-1, 1),
];
/// The eight King directions (orthogonal first, then diagonal).
pub const KING: [Offset; 8] = [
    Offset::new(0, 1),
    Offset::new(1, 0),
    Offset::new(0, -1),
    Offset::new(-1, 0),
    Offset::new(1, 1),
    Offset::new(1, -1),
    Offset::new(-1, -1),
    Offset::new(-1, 1),
];
/// The eight Knight leaps.
pub const KNIGHT: [Offset; 8] = [
    Offset::new(1, 2),
    Offset::new(2, 1),
    Offset::new(2, -1),
    Offset::new(1, -2),
    Offset::new(-1, -2),
    Offset::new(-2, -1),
    Offset::new(-2, 1),
    Offset::new(-1, 2),
];

/// A named set of squares (Cypher's Court, a Little Cheops castle block, ...).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Region {
    /// The region's name in the game's own words.
    pub name: String,
    members: Vec<bool>,
}

impl Region {
    /// Whether `sq` belongs to the region.
    #[inline]
    pub fn contains(&self, sq: Square) -> bool {
        self.members.get(sq.index()).copied().unwrap_or(false)
    }
    /// The region as a bitboard of the chosen width.
    pub fn mask<B: crate::bitboard::BitBoard>(&self) -> B {
        let mut b = B::EMPTY;
        for sq in self.squares() {
            b.set(sq);
        }
        b
    }
    /// The region's squares in index order.
    pub fn squares(&self) -> impl Iterator<Item = Square> + '_ {
        self.members
            .iter()
            .enumerate()
            .filter(|(_, &m)| m)
            .map(|(i, _)| Square(i as u16))
    }
}

/// A board's shape and names; every table a move generator needs derives from it.
#[derive(Clone, Debug)]
pub struct Geometry {
    width: u8,
    height: u8,
    wrap_files: bool,
    wrap_ranks: bool,
    file_names: Vec<String>,
    rank_names: Vec<String>,
    regions: Vec<Region>,
}

impl Geometry {
    /// A flat `width` x `height` rectangle with files `a b c ...` and ranks `1 2 3 ...`.
    pub fn rectangle(width: u8, height: u8) -> Self {
        assert!(
            width > 0 && height > 0 && width <= 26 && height <= 26,
            "board size out of range"
        );
        Geometry {
            width,
            height,
            wrap_files: false,
            wrap_ranks: false,
            file_names: (0..width)
                .map(|f| ((b'a' + f) as char).to_string())
                .collect(),
            rank_names: (1..=height).map(|r| r.to_string()).collect(),
            regions: Vec::new(),
        }
    }

    /// Joins the left and right edges (`files`) and/or the top and bottom edges (`ranks`).
    pub fn with_wrap(mut self, files: bool, ranks: bool) -> Self {
        self.wrap_files = files;
        self.wrap_ranks = ranks;
        self
    }

    /// Replaces the file names (index 0 = White's left) and rank names (index 0 = White's side).
    pub fn with_names<F: ToString, R: ToString>(mut self, files: &[F], ranks: &[R]) -> Self {
        assert_eq!(files.len(), self.width as usize, "one name per file");
        assert_eq!(ranks.len(), self.height as usize, "one name per rank");
        self.file_names = files.iter().map(|s| s.to_string()).collect();
        self.rank_names = ranks.iter().map(|s| s.to_string()).collect();
        self
    }

    /// Adds a named region made of the squares for which `member` is true.
    pub fn with_region(mut self, name: &str, member: impl Fn(u8, u8) -> bool) -> Self {
        let mut members = vec![false; self.len()];
        for rank in 0..self.height {
            for file in 0..self.width {
                members[rank as usize * self.width as usize + file as usize] = member(file, rank);
            }
        }
        self.regions.push(Region {
            name: name.to_string(),
            members,
        });
        self
    }

    /// Number of files.
    #[inline]
    pub fn width(&self) -> u8 {
        self.width
    }
    /// Number of ranks.
    #[inline]
    pub fn height(&self) -> u8 {
        self.height
    }
    /// Number of squares.
    #[inline]
    pub fn len(&self) -> usize {
        self.width as usize * self.height as usize
    }
    /// Whether the board has no squares (never true for a built geometry).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Whether the left and right edges are joined.
    pub fn wraps_files(&self) -> bool {
        self.wrap_files
    }
    /// Whether the top and bottom edges are joined.
    pub fn wraps_ranks(&self) -> bool {
        self.wrap_ranks
    }
    /// All squares in index order.
    pub fn squares(&self) -> impl Iterator<Item = Square> {
        (0..self.len() as u16).map(Square)
    }
    /// The square on `file`, `rank`, if it is on the board.
    #[inline]
    pub fn square(&self, file: u8, rank: u8) -> Option<Square> {
        (file < self.width && rank < self.height)
            .then(|| Square(rank as u16 * self.width as u16 + file as u16))
    }
    /// The file index of `sq`.
    #[inline]
    pub fn file(&self, sq: Square) -> u8 {
        (sq.0 % self.width as u16) as u8
    }
    /// The rank index of `sq`.
    #[inline]
    pub fn rank(&self, sq: Square) -> u8 {
        (sq.0 / self.width as u16) as u8
    }
    /// The name of file index `file`.
    pub fn file_name(&self, file: u8) -> &str {
        &self.file_names[file as usize]
    }
    /// The name of rank index `rank`.
    pub fn rank_name(&self, rank: u8) -> &str {
        &self.rank_names[rank as usize]
    }
    /// The region called `name`.
    pub fn region(&self, name: &str) -> Option<&Region> {
        self.regions.iter().find(|r| r.name == name)
    }
    /// All regions.
    pub fn regions(&self) -> &[Region] {
        &self.regions
    }

    /// The square one `offset` away from `sq`, wrapping where the board is joined.
    pub fn step(&self, sq: Square, offset: Offset) -> Option<Square> {
        let f = self.file(sq) as i32 + offset.dx as i32;
        let r = self.rank(sq) as i32 + offset.dy as i32;
        let (w, h) = (self.width as i32, self.height as i32);
        let f = if self.wrap_files {
            f.rem_euclid(w)
        } else if (0..w).contains(&f) {
            f
        } else {
            return None;
        };
        let r = if self.wrap_ranks {
            r.rem_euclid(h)
        } else if (0..h).contains(&r) {
            r
        } else {
            return None;
        };
        self.square(f as u8, r as u8)
    }

    /// The squares a rider reaches from `sq` by repeating `offset` on an empty board, nearest
    /// first. On a joined board the ray stops before it would come back to `sq`.
    pub fn ray(&self, sq: Square, offset: Offset) -> Vec<Square> {
        let mut out = Vec::new();
        let mut t = sq;
        while let Some(next) = self.step(t, offset) {
            if next == sq || out.len() >= self.len() {
                break;
            }
            out.push(next);
            t = next;
        }
        out
    }

    /// Precomputes the rays from every square in each of `offsets`.
    pub fn ray_table(&self, offsets: &[Offset]) -> RayTable {
        let mut starts = Vec::with_capacity(self.len() * offsets.len() + 1);
        let mut squares = Vec::new();
        for sq in self.squares() {
            for &o in offsets {
                starts.push(squares.len() as u32);
                squares.extend(self.ray(sq, o));
            }
        }
        starts.push(squares.len() as u32);
        RayTable {
            directions: offsets.to_vec(),
            starts,
            squares,
        }
    }

    /// Precomputes the single-step (leap) targets from every square for `offsets`.
    /// Targets that coincide (possible on a small torus) are listed once.
    pub fn leap_table(&self, offsets: &[Offset]) -> LeapTable {
        let mut starts = Vec::with_capacity(self.len() + 1);
        let mut squares = Vec::new();
        for sq in self.squares() {
            starts.push(squares.len() as u32);
            let first = squares.len();
            for &o in offsets {
                if let Some(t) = self.step(sq, o) {
                    if t != sq && !squares[first..].contains(&t) {
                        squares.push(t);
                    }
                }
            }
        }
        starts.push(squares.len() as u32);
        LeapTable { starts, squares }
    }

    /// The name of `sq` in the game's own coordinates (`e4`, `z0`, `K11`).
    pub fn square_name(&self, sq: Square) -> String {
        format!(
            "{}{}",
            self.file_names[self.file(sq) as usize],
            self.rank_names[self.rank(sq) as usize]
        )
    }

    /// Reads a square name, ignoring case; the whole of `text` must be the name.
    pub fn parse_square(&self, text: &str) -> Result<Square, SquareError> {
        let (sq, used) = self
            .parse_square_prefix(text)
            .ok_or_else(|| SquareError(text.to_string()))?;
        if used == text.len() {
            Ok(sq)
        } else {
            Err(SquareError(text.to_string()))
        }
    }

    /// Reads the longest square name at the start of `text`; returns it and the bytes used.
    pub fn parse_square_prefix(&self, text: &str) -> Option<(Square, usize)> {
        let mut best: Option<(Square, usize)> = None;
        for (fi, fname) in self.file_names.iter().enumerate() {
            if !starts_with_ignore_case(text, fname) {
                continue;
            }
            let rest = &text[fname.len()..];
            for (ri, rname) in self.rank_names.iter().enumerate() {
                if starts_with_ignore_case(rest, rname) {
                    let used = fname.len() + rname.len();
                    // A longer rank name wins ("10" over "1"), but only when it does not
                    // leave a digit glued behind ("A01" is no square).
                    if best.is_none_or(|(_, u)| used > u) {
                        best = self.square(fi as u8, ri as u8).map(|s| (s, used));
                    }
                }
            }
        }
        let (sq, used) = best?;
        // A rank name followed directly by another digit is not a square name ("a13").
        let next = text.as_bytes().get(used);
        if matches!(next, Some(b) if b.is_ascii_digit())
            && self
                .rank_names
                .iter()
                .any(|r| r.chars().all(|c| c.is_ascii_digit()))
        {
            return None;
        }
        Some((sq, used))
    }
}

fn starts_with_ignore_case(text: &str, prefix: &str) -> bool {
    text.len() >= prefix.len()
        && text.as_bytes()[..prefix.len()].eq_ignore_ascii_case(prefix.as_bytes())
}

/// Rays from every square in a fixed list of directions, stored flat.
#[derive(Clone, Debug)]
pub struct RayTable {
    directions: Vec<Offset>,
    starts: Vec<u32>,
    squares: Vec<Square>,
}

impl RayTable {
    /// The directions, in the order their rays are indexed.
    pub fn directions(&self) -> &[Offset] {
        &self.directions
    }
    /// The ray from `sq` in direction number `dir`, nearest square first.
    #[inline(always)]
    pub fn ray(&self, sq: Square, dir: usize) -> &[Square] {
        let i = sq.index() * self.directions.len() + dir;
        &self.squares[self.starts[i] as usize..self.starts[i + 1] as usize]
    }
}

/// Leap targets from every square, stored flat.
#[derive(Clone, Debug)]
pub struct LeapTable {
    starts: Vec<u32>,
    squares: Vec<Square>,
}

impl LeapTable {
    /// The squares one leap away from `sq`.
    #[inline(always)]
    pub fn targets(&self, sq: Square) -> &[Square] {
        &self.squares[self.starts[sq.index()] as usize..self.starts[sq.index() + 1] as usize]
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rectangle_names_and_rays() {
        let g = Geometry::rectangle(8, 8);
        let e4 = g.parse_square("e4").unwrap();
        assert_eq!(g.square_name(e4), "e4");
        assert_eq!(g.parse_square("E4").unwrap(), e4);
        assert!(g.parse_square("e9").is_err());
        assert!(g.parse_square("e44").is_err());
        assert!(g.parse_square("i1").is_err());
        let up: Vec<String> = g
            .ray(e4, Offset::new(0, 1))
            .into_iter()
            .map(|s| g.square_name(s))
            .collect();
        assert_eq!(up, ["e5", "e6", "e7", "e8"]);
        let a1 = g.parse_square("a1").unwrap();
        assert_eq!(g.leap_table(&KNIGHT).targets(a1).len(), 2);
    }

    #[test]
    fn thirteen_files_and_two_digit_ranks() {
        let g = Geometry::rectangle(13, 13);
        let m13 = g.parse_square("m13").unwrap();
        assert_eq!(g.file(m13), 12);
        assert_eq!(g.rank(m13), 12);
        assert_eq!(g.parse_square("a1").unwrap(), Square(0));
        assert!(g.parse_square("a14").is_err());
        assert!(g.parse_square("a01").is_err());
        assert_eq!(g.parse_square_prefix("a10b3"), Some((Square(9 * 13), 3)));
    }

    #[test]
    fn torus_rays_stop_before_their_origin() {
        // Vyrt's labels: files K L A..J, ranks 11 12 1..10.
        let files = ["K", "L", "A", "B", "C", "D", "E", "F", "G", "H", "I", "J"];
        let ranks = [
            "11", "12", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10",
        ];
        let g = Geometry::rectangle(12, 12)
            .with_wrap(true, true)
            .with_names(&files, &ranks);
        let e3 = g.parse_square("E3").unwrap();
        assert_eq!((g.file(e3), g.rank(e3)), (6, 4));
        let rook: usize = ORTHOGONAL.iter().map(|&o| g.ray(e3, o).len()).sum();
        assert_eq!(rook, 44); // 22 squares, each reached both ways round
        let ray = g.ray(e3, Offset::new(-1, 1));
        assert_eq!(ray.len(), 11);
        assert_eq!(g.square_name(ray[5]), "K9");
        let k11 = g.parse_square("k11").unwrap();
        assert_eq!(g.leap_table(&KING).targets(k11).len(), 8);
        assert!(g.parse_square("M1").is_err());
        assert!(g.parse_square("A0").is_err());
        assert!(g.parse_square("A13").is_err());
        assert!(g.parse_square("A01").is_err());
        assert!(g.parse_square("1A").is_err());
    }

    #[test]
    fn regions_are_data() {
        let g = Geometry::rectangle(10, 11)
            .with_region("Court", |f, r| f == 0 || f == 9 || r == 0 || r == 10);
        let court = g.region("Court").unwrap();
        assert_eq!(court.squares().count(), 38);
        assert!(court.contains(Square(0)));
        assert!(!court.contains(g.square(1, 1).unwrap()));
        assert_eq!(crate::BitBoard::count(court.mask::<u128>()), 38);
    }
}
