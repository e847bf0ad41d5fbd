//! A game in progress: a position plus its history, with push/pop like python-chess and the
//! endings that depend on history (repetition, move counts).

use crate::error::MoveError;
use crate::position::{Outcome, Position};

/// A game from a start position: the moves played so far and every position reached.
#[derive(Clone, Debug)]
pub struct Game<P: Position> {
    positions: Vec<P>,
    moves: Vec<P::Move>,
}

impl<P: Position> Game<P> {
    /// A new game starting from `start`.
    pub fn new(start: P) -> Self {
        Game {
            positions: vec![start],
            moves: Vec::new(),
        }
    }
    /// The current position.
    pub fn position(&self) -> &P {
        // Invariant: `positions` always holds the start position.
        &self.positions[self.positions.len() - 1]
    }
    /// The start position.
    pub fn start(&self) -> &P {
        &self.positions[0]
    }
    /// The moves played, in order.
    pub fn moves(&self) -> &[P::Move] {
        &self.moves
    }
    /// The positions reached, the start first and the current one last.
    pub fn positions(&self) -> &[P] {
        &self.positions
    }
    /// The legal moves now (none once the game has ended).
    pub fn legal_moves(&self) -> Vec<P::Move> {
        if self.outcome().is_some() {
            return Vec::new();
        }
        let mut moves = Vec::new();
        self.position().legal_moves(&mut moves);
        moves
    }
    /// Plays `mv` after checking that it is legal and the game is not over.
    pub fn push(&mut self, mv: P::Move) -> Result<(), MoveError> {
        if let Some(o) = self.outcome() {
            return Err(MoveError::GameOver(o.to_string()));
        }
        let pos = self.position();
        let mut legal = Vec::new();
        pos.legal_moves(&mut legal);
        if !legal.contains(&mv) {
            return Err(MoveError::Illegal {
                text: pos.move_text(mv),
                reason: "it is not a legal move in this position".into(),
            });
        }
        let mut next = pos.clone();
        next.play(mv);
        self.positions.push(next);
        self.moves.push(mv);
        Ok(())
    }
    /// Reads `text` (canonical or human notation) and plays it.
    pub fn push_text(&mut self, text: &str) -> Result<P::Move, MoveError> {
        if let Some(o) = self.outcome() {
            return Err(MoveError::GameOver(o.to_string()));
        }
        let mv = self.position().parse_move(text)?;
        self.push(mv)?;
        Ok(mv)
    }
    /// Takes back the last move and returns it.
    pub fn pop(&mut self) -> Option<P::Move> {
        let mv = self.moves.pop()?;
        self.positions.pop();
        Some(mv)
    }
    /// How many times the current position has occurred, this time included.
    pub fn repetitions(&self) -> usize {
        let key = self.position().key();
        self.positions.iter().filter(|p| p.key() == key).count()
    }
    /// The ending, counting history: the position's own outcome, then the game's draws
    /// by repetition or move count.
    pub fn outcome(&self) -> Option<Outcome> {
        self.position().outcome_in_play(self.repetitions())
    }
}
