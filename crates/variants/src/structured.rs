//! Structured data for front ends, through [`crate::AnyGame`]: the legal turns with their
//! kinds and squares ([`crate::AnyGame::turns`]), the board snapshot
//! ([`crate::AnyGame::snapshot`]), the game as one viewer may see it
//! ([`crate::AnyGame::view`]), and the endings and claims from outside the position. All of
//! it serialises with serde (core's `serde` feature, on in this crate).

pub use menagerie_core::game::MadeClaim;
pub use menagerie_core::{
    BoardSnapshot, Claim, GeometryInfo, Mark, PartInfo, PieceInfo, SquareInfo, TurnInfo, TurnKind,
    Viewer,
};
