//! Evaluations: how good a position is for the side to move, without searching.
//!
//! Each game may have its own module here (`chess.rs`, `vyrt.rs`, `cypher.rs`, `cheops.rs`). A game with
//! none uses [`generic::GenericEval`]: material from the board letters with a per-game value
//! table passed as data, plus mobility from the legal move count.

pub mod cheops;
pub mod chess;
pub mod cypher;
pub mod generic;
pub mod vyrt;

use menagerie_core::{Color, Position};

/// How many legal moves each side has, as the search already knows them.
#[derive(Clone, Copy, Debug, Default)]
pub struct Mobility {
    /// Legal moves of the side to move.
    pub own: usize,
    /// Legal moves the opponent had one ply earlier, when known.
    pub other: Option<usize>,
}

/// A static evaluation of one game's positions.
pub trait Evaluator<P: Position>: Send + Sync {
    /// The position's value in centipawns for the side to move (positive: better for it).
    /// `mobility` carries the move counts the search has already computed.
    fn evaluate(&self, pos: &P, mobility: Mobility) -> i32;

    /// An ordering hint for a noisy move (higher is searched first), such as MVV-LVA.
    fn move_hint(&self, _pos: &P, _mv: P::Move) -> i32 {
        0
    }

    /// Whether the position is drawn by a rule the position alone decides but that
    /// [`Position::outcome`] leaves to the game history (dead position, move counts).
    fn rule_draw(&self, _pos: &P) -> bool {
        false
    }

    /// The material balance in centipawns for the side to move, for players that only
    /// count material (the `greedy` match player).
    fn material(&self, pos: &P) -> i32;

    /// Whether [`Evaluator::evaluate`] reads the legal move counts in [`Mobility`]. When it
    /// does not, quiescence may stand pat before generating any move.
    fn uses_mobility(&self) -> bool {
        true
    }

    /// An ending the position decides that can be seen without generating moves (a flip, a
    /// captured King): `Some(Some(winner))`, `Some(None)` for a draw, `None` when unknown.
    /// Quiescence consults it before standing pat, so such endings are never scored as
    /// ordinary positions.
    fn quick_outcome(&self, _pos: &P) -> Option<Option<Color>> {
        None
    }

    /// The position as `player` knows it, when the game hides something from players
    /// (Little Cheops Imperial's sealed papers): the umpire's position with the opponent's
    /// secrets removed. `None` when nothing is hidden. An engine playing `player` searches
    /// this, never the umpire's position.
    fn view(&self, _pos: &P, _player: Color) -> Option<P> {
        None
    }

    /// The umpire positions consistent with `view` (a [`Evaluator::view`] of the side to
    /// move): one per possible secret of the opponent, `view` itself (no secret) included.
    /// Empty when nothing is hidden.
    fn hypotheses(&self, _view: &P) -> Vec<P> {
        Vec::new()
    }
}
