//! The one place the play library (and the front ends built on it) asks the engine for a
//! move: an [`Engine`] owns its searcher, so its hash table lives across the moves of a
//! game, and searches any game it is handed.

use menagerie_variants::{AnyGame, Limits, SearchInfo, SearchReport};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// A searcher that can search any game handed to it.
#[derive(Default)]
pub struct Engine {
    /// Today's searcher lives inside a game: the engine keeps its own copy of the game it
    /// was last asked about and catches it up with the moves played since.
    mine: Option<Box<dyn AnyGame>>,
}

impl Engine {
    /// A fresh engine.
    pub fn new() -> Self {
        Engine::default()
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
        let theirs = game.history_canonical();
        // Catch up with the moves played since the last search, or start afresh.
        let synced = match self.mine.as_mut() {
            Some(mine) if mine.start_fen() == game.start_fen() => {
                let ours = mine.history_canonical();
                if theirs.len() >= ours.len() && theirs[..ours.len()] == ours[..] {
                    theirs[ours.len()..].iter().all(|mv| mine.push(mv).is_ok())
                } else {
                    while mine.pop().is_some() {}
                    theirs.iter().all(|mv| mine.push(mv).is_ok())
                }
            }
            _ => false,
        };
        let mine = match self.mine.as_mut() {
            Some(mine) if synced && mine.fen() == game.fen() => mine,
            _ => self.mine.insert(game.fork()),
        };
        mine.search(limits, stop, on_iteration)
    }

    /// Forgets what it learnt (a new game begins).
    pub fn new_game(&mut self) {
        if let Some(m) = self.mine.as_mut() {
            m.clear_search();
        }
    }
}
