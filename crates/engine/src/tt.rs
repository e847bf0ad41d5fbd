//! The transposition table: a fixed-size array indexed by the position key, keeping the
//! deeper result when two positions compete for a slot (entries from older searches give way).
//! It is shared by the threads of a parallel search: each slot has its own lock, so a probe
//! never sees half an entry and threads seldom wait for one another.

use crate::score::WIN_BOUND;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::Mutex;

/// What a stored score says about the true value.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
    /// The exact value.
    Exact,
    /// At least this value (the search failed high).
    Lower,
    /// At most this value (the search failed low).
    Upper,
}

/// One stored search result.
#[derive(Clone, Copy, Debug)]
pub struct Entry<M> {
    /// The full key, to tell colliding positions apart.
    pub key: u64,
    /// The best move found, if any.
    pub mv: Option<M>,
    /// The score, with wins counted from this node (see [`to_tt`]).
    pub score: i32,
    /// The depth searched.
    pub depth: i16,
    /// How the score bounds the true value.
    pub bound: Bound,
    age: u8,
}

/// A fixed-size transposition table for moves of type `M`, safe to share between threads.
pub struct Table<M> {
    slots: Vec<Mutex<Option<Entry<M>>>>,
    age: AtomicU8,
}

impl<M: Copy> Table<M> {
    /// A table of about `mb` megabytes (a power of two number of slots, at least 1024).
    pub fn new(mb: usize) -> Self {
        let size = std::mem::size_of::<Mutex<Option<Entry<M>>>>().max(1);
        let wanted = (mb.max(1) * 1024 * 1024 / size).max(1024);
        let slots = 1usize << (usize::BITS - 1 - wanted.leading_zeros());
        Table {
            slots: (0..slots).map(|_| Mutex::new(None)).collect(),
            age: AtomicU8::new(0),
        }
    }
    /// Forgets everything.
    pub fn clear(&self) {
        self.slots.iter().for_each(|s| *lock(s) = None);
        self.age.store(0, Ordering::Relaxed);
    }
    /// Marks a new search: older entries become replaceable.
    pub fn new_search(&self) {
        self.age.fetch_add(1, Ordering::Relaxed);
    }
    fn index(&self, key: u64) -> usize {
        (key as usize) & (self.slots.len() - 1)
    }
    /// The entry for `key`, if stored.
    pub fn probe(&self, key: u64) -> Option<Entry<M>> {
        lock(&self.slots[self.index(key)]).filter(|e| e.key == key)
    }
    /// Stores a result, replacing by depth (or when the old entry is stale).
    pub fn store(&self, key: u64, mv: Option<M>, score: i32, depth: i16, bound: Bound) {
        let age = self.age.load(Ordering::Relaxed);
        let i = self.index(key);
        let mut slot = lock(&self.slots[i]);
        let replace = match *slot {
            None => true,
            Some(old) => old.key == key || old.age != age || depth >= old.depth,
        };
        if replace {
            // Keep the old move when the new result has none for the same position.
            let mv = mv.or((*slot).filter(|o| o.key == key).and_then(|o| o.mv));
            *slot = Some(Entry {
                key,
                mv,
                score,
                depth,
                bound,
                age,
            });
        }
    }
}

/// A slot's lock; a thread that panicked while holding one left a whole entry behind (an
/// entry is written in one assignment), so a poisoned lock is still usable.
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// A score as stored: wins counted from this node rather than from the root.
pub fn to_tt(score: i32, ply: usize) -> i32 {
    if score > WIN_BOUND {
        score + ply as i32
    } else if score < -WIN_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// A stored score brought back to distances from the root.
pub fn from_tt(score: i32, ply: usize) -> i32 {
    if score > WIN_BOUND {
        score - ply as i32
    } else if score < -WIN_BOUND {
        score + ply as i32
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deeper_results_survive_and_mates_keep_their_distance() {
        let t: Table<u16> = Table::new(1);
        t.store(5, Some(1), 10, 4, Bound::Exact);
        t.store(5 + (1 << 40), Some(2), 20, 2, Bound::Lower);
        assert_eq!(t.probe(5).map(|e| e.mv), Some(Some(1)));
        assert!(t.probe(5 + (1 << 40)).is_none());
        t.new_search();
        t.store(5 + (1 << 40), None, 20, 2, Bound::Lower);
        assert!(t.probe(5).is_none());
        let w = crate::score::WIN - 5;
        assert_eq!(from_tt(to_tt(w, 3), 3), w);
        assert_eq!(from_tt(to_tt(w, 3), 1), w + 2);
    }
}
