//! The engine pool's scheduler: which waiting engine search runs next.
//!
//! Searches of games a person plays come first: they have every one of the pool's slots, and
//! among them the next slot goes to the address that has had the fewest turns (round robin by
//! address, then first come). Games of the engine against itself run only when no person's
//! search waits, and at most `engine_only` of them at once, on slots of their own: however
//! many an address starts, a person's engine reply waits for no such game (one search per
//! game at a time is the app's rule: a game is `thinking` until its search ends).

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Instant;
use tokio::sync::oneshot;

/// Whose search it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Class {
    /// A game with a person in it: the reply is awaited.
    People,
    /// The engine against itself: nobody waits on a turn.
    EngineOnly,
}

/// A search waiting for a slot.
struct Waiting {
    class: Class,
    address: Option<IpAddr>,
    /// Order of arrival.
    number: u64,
    wake: oneshot::Sender<Slot>,
}

#[derive(Default)]
struct State {
    waiting: VecDeque<Waiting>,
    running: HashMap<Class, usize>,
    /// When each address was last given a slot (a count of slots given): round robin, the
    /// address served longest ago first. Forgotten whenever the pool is idle.
    served: HashMap<Option<IpAddr>, u64>,
    arrivals: u64,
    given: u64,
}

/// The scheduler: `people` slots for games with a person, `engine_only` more for games of
/// the engine against itself.
pub struct Pool {
    people: usize,
    engine_only: usize,
    state: Mutex<State>,
}

/// A slot of the pool, held while a search runs; dropping it gives the slot to the next.
pub struct Slot {
    /// `None` once the slot was handed back by the scheduler itself.
    pool: Option<Arc<Pool>>,
    class: Class,
}

impl Drop for Slot {
    fn drop(&mut self) {
        let Some(pool) = self.pool.take() else { return };
        let Ok(mut s) = pool.state.lock() else { return };
        if let Some(n) = s.running.get_mut(&self.class) {
            *n = n.saturating_sub(1);
        }
        pool.dispatch(&mut s);
        drop(s);
    }
}

impl Pool {
    /// A pool of `threads` slots for people's games and half as many (at least one) for
    /// games of the engine against itself.
    pub fn new(threads: usize) -> Arc<Pool> {
        Self::with_slots(threads.max(1), (threads / 2).max(1))
    }

    /// A pool with `people` and `engine_only` slots.
    pub fn with_slots(people: usize, engine_only: usize) -> Arc<Pool> {
        Arc::new(Pool {
            people: people.max(1),
            engine_only: engine_only.max(1),
            state: Mutex::new(State::default()),
        })
    }

    /// How many searches may run at once for games with a person (the pool's size).
    pub fn slots(&self) -> usize {
        self.people
    }

    /// How many searches wait for a slot.
    pub fn queued(&self) -> usize {
        self.state.lock().map_or(0, |s| s.waiting.len())
    }

    /// Waits for a slot for a search of `class` for a game created from `address`.
    pub async fn acquire(self: &Arc<Self>, class: Class, address: Option<IpAddr>) -> Option<Slot> {
        let started = Instant::now();
        let (tx, rx) = oneshot::channel();
        {
            let mut s = self.state.lock().ok()?;
            let number = s.arrivals;
            s.arrivals += 1;
            s.waiting.push_back(Waiting {
                class,
                address,
                number,
                wake: tx,
            });
            crate::metrics::engine_queue(1);
            self.dispatch(&mut s);
        }
        let slot = rx.await.ok();
        crate::metrics::engine_waited(started.elapsed());
        slot
    }

    /// Gives free slots to the searches that come next (see the module's rule).
    fn dispatch(self: &Arc<Self>, s: &mut State) {
        loop {
            // A waiter that went away (its request ended) gives up its place.
            let before = s.waiting.len();
            s.waiting.retain(|w| !w.wake.is_closed());
            for _ in s.waiting.len()..before {
                crate::metrics::engine_queue(-1);
            }
            if s.waiting.is_empty() && s.running.values().all(|&n| n == 0) {
                s.served.clear();
            }
            let Some(i) = self.next(s) else { return };
            let Some(w) = s.waiting.remove(i) else { return };
            crate::metrics::engine_queue(-1);
            *s.running.entry(w.class).or_insert(0) += 1;
            s.given += 1;
            let given = s.given;
            s.served.insert(w.address, given);
            let slot = Slot {
                pool: Some(self.clone()),
                class: w.class,
            };
            if let Err(mut slot) = w.wake.send(slot) {
                // Gone between the check and now: the slot goes back at once (its drop must
                // not lock the state held here).
                slot.pool = None;
                if let Some(n) = s.running.get_mut(&w.class) {
                    *n = n.saturating_sub(1);
                }
                continue;
            }
        }
    }

    /// The index in the queue of the search to start now, if a slot is free for it.
    fn next(&self, s: &State) -> Option<usize> {
        let running = |c: Class| s.running.get(&c).copied().unwrap_or(0);
        let people: Vec<(usize, &Waiting)> = s
            .waiting
            .iter()
            .enumerate()
            .filter(|(_, w)| w.class == Class::People)
            .collect();
        if !people.is_empty() {
            if running(Class::People) >= self.people {
                return None;
            }
            // The address served least so far, then the earliest.
            return people
                .iter()
                .min_by_key(|(_, w)| (s.served.get(&w.address).copied().unwrap_or(0), w.number))
                .map(|(i, _)| *i);
        }
        if running(Class::EngineOnly) >= self.engine_only {
            return None;
        }
        s.waiting
            .iter()
            .enumerate()
            .filter(|(_, w)| w.class == Class::EngineOnly)
            .min_by_key(|(_, w)| (s.served.get(&w.address).copied().unwrap_or(0), w.number))
            .map(|(i, _)| i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use futures_util::FutureExt as _;
    use std::net::Ipv4Addr;

    fn ip(n: u8) -> Option<IpAddr> {
        Some(IpAddr::V4(Ipv4Addr::new(10, 0, 0, n)))
    }

    /// Twenty games of the engine against itself from one address: a person's search from
    /// another starts at once (before: one queue, first come first served, it waited for all
    /// twenty).
    #[tokio::test]
    async fn a_person_never_waits_behind_the_engines_own_games() {
        let pool = Pool::with_slots(1, 1);
        let mut engines: Vec<_> = (0..20)
            .map(|_| Box::pin(pool.acquire(Class::EngineOnly, ip(1))))
            .collect();
        let first = engines[0].as_mut().now_or_never().flatten();
        assert!(first.is_some(), "the engine-only slot was free");
        for e in &mut engines[1..] {
            assert!(
                e.as_mut().now_or_never().is_none(),
                "only one engine-only search runs"
            );
        }
        assert_eq!(pool.queued(), 19);
        let person = pool.acquire(Class::People, ip(2)).now_or_never().flatten();
        assert!(person.is_some(), "the person's search waited");
    }

    /// People's searches take turns by address: one address with three waiting does not go
    /// before another's first.
    #[tokio::test]
    async fn people_take_turns_by_address() {
        let pool = Pool::with_slots(1, 1);
        let held = pool.acquire(Class::People, ip(1)).now_or_never().flatten();
        assert!(held.is_some());
        let mut waiting: Vec<(&str, _)> = vec![
            ("a1", Box::pin(pool.acquire(Class::People, ip(1)))),
            ("a2", Box::pin(pool.acquire(Class::People, ip(1)))),
            ("a3", Box::pin(pool.acquire(Class::People, ip(1)))),
            ("b1", Box::pin(pool.acquire(Class::People, ip(2)))),
        ];
        for (_, w) in &mut waiting {
            assert!(w.as_mut().now_or_never().is_none());
        }
        let mut order = Vec::new();
        let mut slot = held;
        while !waiting.is_empty() {
            drop(slot.take());
            let i = waiting
                .iter_mut()
                .position(|(_, w)| {
                    w.as_mut().now_or_never().is_some_and(|s| {
                        slot = s;
                        true
                    })
                })
                .expect("one search got the freed slot");
            order.push(waiting.remove(i).0);
        }
        assert_eq!(order, ["b1", "a1", "a2", "a3"]);
    }

    /// A game of the engine against itself waits while a person's search waits, then runs.
    #[tokio::test]
    async fn the_engines_own_games_wait_behind_people() {
        let pool = Pool::with_slots(1, 1);
        let held = pool.acquire(Class::People, ip(1)).now_or_never().flatten();
        let mut person = Box::pin(pool.acquire(Class::People, ip(2)));
        let mut engine = Box::pin(pool.acquire(Class::EngineOnly, ip(3)));
        assert!(person.as_mut().now_or_never().is_none());
        assert!(
            engine.as_mut().now_or_never().is_none(),
            "it went before a person"
        );
        drop(held);
        let p = person.as_mut().now_or_never().flatten();
        assert!(p.is_some());
        assert!(engine.as_mut().now_or_never().flatten().is_some());
        assert_eq!(pool.queued(), 0);
    }
}
