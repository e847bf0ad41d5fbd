//! A board snapshot for front ends: the geometry, every square with its name, piece and
//! marks, whose turn it is, check and the last turn's squares.
//!
//! Take it of the position a viewer may see (a player's view for a player): it shows what
//! the position it is taken of knows, nothing more.

use crate::geometry::{Geometry, Square};
use crate::position::{Color, Position};
use crate::turn::TurnShape;

/// A mark on a square (JSON: kebab-case strings, `castle-active`, `deputy-known`, ...).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "kebab-case")
)]
pub enum Mark {
    /// Cypher: a Court square.
    Court,
    /// Cypher: a Border square.
    Border,
    /// Cypher: a Field square.
    Field,
    /// Little Cheops: a bastion (a corner of a Castle).
    Bastion,
    /// Little Cheops: the chair of a Castle.
    Chair,
    /// Little Cheops: a room of a Castle (a hall other than the chair).
    Room,
    /// Little Cheops: the square belongs to an active Castle.
    CastleActive,
    /// Little Cheops: the square belongs to an inactive Castle.
    CastleInactive,
    /// Little Cheops: the square's active Castle is held by White.
    CastleWhite,
    /// Little Cheops: the square's active Castle is held by Black.
    CastleBlack,
    /// Little Cheops: the piece here is an arrestee.
    Arrestee,
    /// Little Cheops: the piece here is a known Deputy.
    DeputyKnown,
    /// Little Cheops: the piece here is a sealed Deputy (only in its owner's or the umpire's
    /// view).
    DeputySealed,
}

/// A piece on a square: its kind in the game's own words, its owner and its board letter.
#[derive(Clone, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PieceInfo {
    /// The kind, lower case (`king`, `spy`, `civilian`, `deputy`, ...).
    pub kind: String,
    /// The side it belongs to.
    pub owner: Color,
    /// The board letter, upper case for White.
    pub letter: char,
}

impl PieceInfo {
    /// A piece of `kind` owned by `owner`, drawn with `letter`.
    pub fn new(kind: impl Into<String>, owner: Color, letter: char) -> Self {
        PieceInfo {
            kind: kind.into(),
            owner,
            letter,
        }
    }
    /// The piece a board letter names, with `kind` as its name (owner from the case).
    pub fn from_letter(letter: char, kind: impl Into<String>) -> Self {
        let owner = if letter.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        PieceInfo::new(kind, owner, letter)
    }
}

/// The board's shape for a front end.
#[derive(Clone, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct GeometryInfo {
    /// Files.
    pub width: u8,
    /// Ranks.
    pub height: u8,
    /// Whether the left and right edges join.
    pub wrap_files: bool,
    /// Whether the bottom and top edges join.
    pub wrap_ranks: bool,
    /// File names from White's left.
    pub files: Vec<String>,
    /// Rank names from White's side.
    pub ranks: Vec<String>,
}

impl GeometryInfo {
    /// The description of `g`.
    pub fn of(g: &Geometry) -> Self {
        GeometryInfo {
            width: g.width(),
            height: g.height(),
            wrap_files: g.wraps_files(),
            wrap_ranks: g.wraps_ranks(),
            files: (0..g.width()).map(|f| g.file_name(f).to_string()).collect(),
            ranks: (0..g.height())
                .map(|r| g.rank_name(r).to_string())
                .collect(),
        }
    }
}

/// One square of a snapshot.
#[derive(Clone, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SquareInfo {
    /// The square's name in the game's coordinates.
    pub name: String,
    /// Its file, 0 at White's left.
    pub file: u8,
    /// Its rank, 0 at White's side.
    pub rank: u8,
    /// The piece on it, if any.
    pub piece: Option<PieceInfo>,
    /// Its marks.
    pub marks: Vec<Mark>,
}

/// The whole board as a front end draws it.
#[derive(Clone, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct BoardSnapshot {
    /// The variant id.
    pub variant: String,
    /// The board's shape and names.
    pub geometry: GeometryInfo,
    /// Every square in index order (`rank * width + file`).
    pub squares: Vec<SquareInfo>,
    /// The side to move.
    pub turn: Color,
    /// Whether the side to move is in check.
    pub check: bool,
    /// The squares of the last turn (from, to, captured, room), by name.
    pub last_turn: Vec<String>,
}

impl BoardSnapshot {
    /// The snapshot of `pos`, with the squares of `last` (the last turn's shape) marked.
    pub fn of<P: Position>(pos: &P, last: Option<&TurnShape>) -> Self {
        let g = pos.geometry();
        let squares = g
            .squares()
            .map(|sq: Square| SquareInfo {
                name: g.square_name(sq),
                file: g.file(sq),
                rank: g.rank(sq),
                piece: pos.piece_info(sq),
                marks: pos.square_marks(sq),
            })
            .collect();
        BoardSnapshot {
            variant: pos.variant().to_string(),
            geometry: GeometryInfo::of(g),
            squares,
            turn: pos.turn(),
            check: pos.is_check(),
            last_turn: last
                .map(|s| s.squares().into_iter().map(|q| g.square_name(q)).collect())
                .unwrap_or_default(),
        }
    }
}
