//! The transposition table: a fixed-size array of two-entry buckets indexed by the position
//! key. The first entry keeps the deeper result when two positions compete for it (entries
//! from older searches give way), the second always takes the newest, so a deep result
//! never locks recent work out (which matters most when several threads fill one table).
//! It is shared by the threads of a parallel search: each bucket has its own lock, so a
//! probe never sees half an entry and threads seldom wait for one another; a probe or a
//! store takes that one lock once.

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

/// A bucket: two entries under one lock, on a cache line of its own so a probe reads one
/// line, not two (a bucket is 56 bytes for most moves, and unaligned most straddled two).
#[repr(align(64))]
struct Bucket<M>(Mutex<[Option<Entry<M>>; 2]>);

/// A fixed-size transposition table for moves of type `M`, safe to share between threads.
pub struct Table<M> {
    buckets: Vec<Bucket<M>>,
    age: AtomicU8,
}

impl<M: Copy> Table<M> {
    /// A table of about `mb` megabytes (a power of two number of buckets of two entries, at
    /// least 512).
    pub fn new(mb: usize) -> Self {
        let size = std::mem::size_of::<Bucket<M>>().max(1);
        let wanted = (mb.max(1) * 1024 * 1024 / size).max(512);
        let buckets = 1usize << (usize::BITS - 1 - wanted.leading_zeros());
        Table {
            buckets: (0..buckets)
                .map(|_| Bucket(Mutex::new([None, None])))
                .collect(),
            age: AtomicU8::new(0),
        }
    }
    /// Forgets everything.
    pub fn clear(&self) {
        self.buckets.iter().for_each(|b| *lock(&b.0) = [None, None]);
        self.age.store(0, Ordering::Relaxed);
    }
    /// Marks a new search: older entries become replaceable.
    pub fn new_search(&self) {
        self.age.fetch_add(1, Ordering::Relaxed);
    }
    /// `key`'s bucket (keys that differ only in the lowest bit share one).
    fn bucket(&self, key: u64) -> &Mutex<[Option<Entry<M>>; 2]> {
        &self.buckets[(key >> 1) as usize & (self.buckets.len() - 1)].0
    }
    /// Starts bringing `key`'s bucket into the cache, so a probe soon after does not wait
    /// for memory (a table of many megabytes is mostly outside the caches).
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let bucket: *const Mutex<[Option<Entry<M>>; 2]> = self.bucket(key);
            // SAFETY: a prefetch only hints the cache; it reads nothing and cannot fault,
            // and the address is that of a live bucket besides.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(bucket.cast::<i8>()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }
    /// The entry for `key`, if stored.
    pub fn probe(&self, key: u64) -> Option<Entry<M>> {
        let b = lock(self.bucket(key));
        b[0].filter(|e| e.key == key)
            .or_else(|| b[1].filter(|e| e.key == key))
    }
    /// Stores a result: over the same position's entry if either slot holds it, else in the
    /// first slot when it is deeper (or the old one is stale), else in the second.
    pub fn store(&self, key: u64, mv: Option<M>, score: i32, depth: i16, bound: Bound) {
        let age = self.age.load(Ordering::Relaxed);
        let mut b = lock(self.bucket(key));
        let same = |e: &Option<Entry<M>>| e.is_some_and(|o| o.key == key);
        let target = if same(&b[0]) {
            0
        } else if same(&b[1]) {
            1
        } else {
            match b[0] {
                Some(old) if old.age == age && depth < old.depth => 1,
                _ => 0,
            }
        };
        let slot = &mut b[target];
        // Keep the old move when the new result has none for the same position.
        let mv = mv.or(slot.filter(|o| o.key == key).and_then(|o| o.mv));
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
        t.store(4, Some(1), 10, 4, Bound::Exact);
        // Same bucket, shallower: kept beside the deep one, in the always-replace slot.
        t.store(4 + (1 << 40), Some(2), 20, 2, Bound::Lower);
        assert_eq!(t.probe(4).map(|e| e.mv), Some(Some(1)));
        assert_eq!(t.probe(4 + (1 << 40)).map(|e| e.mv), Some(Some(2)));
        // A third shallow result takes the second slot; the deep one stays.
        t.store(5 + (2 << 40), Some(3), 30, 1, Bound::Upper);
        assert!(t.probe(4 + (1 << 40)).is_none());
        assert_eq!(t.probe(4).map(|e| e.mv), Some(Some(1)));
        assert_eq!(t.probe(5 + (2 << 40)).map(|e| e.mv), Some(Some(3)));
        // An entry of an older search gives way even to a shallower result.
        t.new_search();
        t.store(4 + (3 << 40), None, 20, 2, Bound::Lower);
        assert!(t.probe(4).is_none());
        // Updating a position keeps its move when the new result has none.
        t.store(5 + (2 << 40), None, 31, 1, Bound::Upper);
        assert_eq!(
            t.probe(5 + (2 << 40)).map(|e| (e.mv, e.score)),
            Some((Some(3), 31))
        );
        // A bucket of small moves fills one cache line; larger ones whole lines.
        assert_eq!(std::mem::size_of::<Bucket<u16>>(), 64);
        assert_eq!(std::mem::size_of::<Bucket<[u32; 4]>>(), 128);
        let w = crate::score::WIN - 5;
        assert_eq!(from_tt(to_tt(w, 3), 3), w);
        assert_eq!(from_tt(to_tt(w, 3), 1), w + 2);
    }
}
