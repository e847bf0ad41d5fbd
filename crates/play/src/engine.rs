//! The one place the play library (and the front ends built on it) asks the engine for a
//! move: an [`Engine`] owns its searcher ([`menagerie_variants::Engine`]), so its hash table
//! lives across the moves of a game, and searches any game it is handed.

use menagerie_variants::{AnyGame, Limits, SearchInfo, SearchReport, VariantError, HASH_MB};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// A searcher that can search any game handed to it.
pub struct Engine {
    inner: menagerie_variants::Engine,
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new()
    }
}

impl Engine {
    /// A fresh engine with the default hash table size.
    pub fn new() -> Self {
        Engine {
            inner: menagerie_variants::Engine::new(HASH_MB),
        }
    }

    /// Searches `game` (not over) within `limits`; `stop` ends the search early and
    /// `on_iteration` sees each completed iteration.
    pub fn search(
        &mut self,
        game: &dyn AnyGame,
        limits: &Limits,
        stop: Option<Arc<AtomicBool>>,
        on_iteration: &mut dyn FnMut(&SearchInfo),
    ) -> SearchReport {
        self.inner.search(game, limits, stop, on_iteration)
    }

    /// The static evaluation of `game`'s position in centipawns for the side to move.
    pub fn evaluate(&self, game: &dyn AnyGame) -> Result<i32, VariantError> {
        self.inner.evaluate(game)
    }

    /// Forgets what it learnt (a new game begins).
    pub fn new_game(&mut self) {
        self.inner.new_game();
    }
}
