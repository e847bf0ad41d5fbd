//! Evaluations: how good a position is for the side to move, without searching.
//!
//! Each game's own evaluation lives beside the game (the variants registry keeps them), behind
//! the [`Evaluator`] trait. A game with none uses [`generic::GenericEval`]: material from the
//! board letters with a per-game value table passed as data, plus mobility from the legal
//! move count. What the rules decide (draws by rule, quick endings, hidden information) the
//! search asks the [`Position`] itself.

pub mod generic;

use menagerie_core::Position;

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

    /// [`Self::evaluate`] where only the score's side of the window `lo..hi` matters (a
    /// score at or below `lo`, or at or above `hi`, decides the same): an evaluator may then
    /// return a bound it is sure of instead, at or below `lo` for a score there, at or above
    /// `hi` for one there, and skip its costly part. The default is exact.
    fn evaluate_within(&self, pos: &P, mobility: Mobility, _lo: i32, _hi: i32) -> i32 {
        self.evaluate(pos, mobility)
    }

    /// An ordering hint for a noisy move (higher is searched first), such as MVV-LVA.
    fn move_hint(&self, _pos: &P, _mv: P::Move) -> i32 {
        0
    }

    /// The most material a noisy move can win (what it captures plus what a promotion
    /// adds), for delta pruning in quiescence: a capture that cannot lift the score to
    /// alpha even so is not searched. `None` (the default): unknown, never pruned.
    fn gain(&self, _pos: &P, _mv: P::Move) -> Option<i32> {
        None
    }

    /// Whether a noisy move loses material once the exchanges on its target square are
    /// played out (static exchange evaluation). Quiescence skips such moves and the main
    /// search tries them after the killers. `false` (the default): never known to lose.
    fn loses_exchange(&self, _pos: &P, _mv: P::Move) -> bool {
        false
    }

    /// The half-width in centipawns of the root's first aspiration window around the last
    /// iteration's score (it doubles on each failure), for games where it was measured to
    /// help. With a window the search also plays a root move that beat the first one in an
    /// iteration the limits cut short. `None` (the default): full windows, and only
    /// finished iterations choose the move.
    fn aspiration_window(&self) -> Option<i32> {
        None
    }

    /// The depth from which a hash move that every other move falls clearly below is
    /// searched a ply deeper (singular extension), for games where it was measured to
    /// help. `None` (the default): never.
    fn singular_depth(&self) -> Option<i32> {
        None
    }

    /// How many captures quiescence tries per position from
    /// [`crate::search::QS_NARROW_DEPTH`] plies past the horizon on, the best-ordered first.
    /// The default, [`crate::search::QS_NARROW_WIDTH`], bounds the capture chains of games
    /// where many pieces can take at once (Vyrt's pawn walls); `None`: every capture, for
    /// games whose exchange evaluation already prunes the hopeless ones.
    fn quiescence_width(&self) -> Option<usize> {
        Some(crate::search::QS_NARROW_WIDTH)
    }

    /// The material balance in centipawns for the side to move, for players that only
    /// count material (the `greedy` match player).
    fn material(&self, pos: &P) -> i32;

    /// A key of the position's slow-changing structure (chess: the pawns), under which the
    /// search learns how far its searches end from the static score and corrects the
    /// score by that (correction history). `None` (the default): no correction.
    fn correction_key(&self, _pos: &P) -> Option<u64> {
        None
    }

    /// Whether [`Evaluator::evaluate`] reads the legal move counts in [`Mobility`]. When it
    /// does not, quiescence may stand pat before generating any move.
    fn uses_mobility(&self) -> bool {
        true
    }

    /// The root moves of `root` that change nothing the side to move can see, each with the
    /// margin by which it must beat every other move to be chosen: a re-inspection of a
    /// piece already certified, a step straight back to where the piece stood before its
    /// last move. `earlier` holds the game's positions before the root, oldest first, each
    /// with the move played from it. The search then prefers a move that makes progress
    /// when the scores are about the same ([`crate::Searcher::set_idle_moves`]). None by
    /// default (chess, Cypher: their repetition rule and evaluation are enough).
    fn idle_moves(
        &self,
        _root: &P,
        _earlier: &[(P, P::Move)],
        _moves: &[P::Move],
    ) -> Vec<(P::Move, i32)> {
        Vec::new()
    }
}
