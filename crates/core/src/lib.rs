//! Menagerie's rules core: geometry, bitboards, pieces as Betza data, the [`Position`]
//! trait, game history and perft. It does no I/O; each game lives in its own crate on top.

#![warn(missing_docs)]

pub mod betza;
pub mod bitboard;
pub mod board_text;
pub mod diagram;
pub mod error;
pub mod game;
pub mod geometry;
pub mod options;
pub mod perft;
pub mod position;
pub mod snapshot;
pub mod turn;
pub mod zobrist;

pub use bitboard::{BitBoard, Wide};
pub use error::{BetzaError, MoveError, PositionError, RuleError, SquareError};
pub use game::{Claim, Game};
pub use geometry::{Geometry, Offset, Square};
pub use options::{ChosenOptions, RuleOption, RuleOptions};
pub use position::{
    fmt_points, ClaimRule, Color, Outcome, Points, Position, Termination, VariantSpec, Viewer,
};
pub use snapshot::{BoardSnapshot, GeometryInfo, Mark, PieceInfo, SquareInfo};
pub use turn::{PartInfo, TurnInfo, TurnKind, TurnPart, TurnShape};
