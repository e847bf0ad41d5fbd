//! Who is at the table (issue 32 item 5): whether each player of a game has a websocket open,
//! on this process or on another one sharing the PostgreSQL database, and since when a seat
//! has had none (for the claims on absence).
//!
//! Each process counts its own players' sockets. On PostgreSQL it tells the others when a
//! seat's first socket opens or its last one closes (`NOTIFY` on [`CHANNEL`]), and every
//! [`HEARTBEAT`] it repeats which seats it holds, so a process that starts late learns them
//! and one that dies is forgotten after [`EXPIRY`] (its players count as gone since its last
//! heartbeat). Nothing is stored: after a restart every seat is absent from the moment the
//! process started until its player's page reconnects.

use crate::store::now_ms;
use menagerie_core::Color;
use std::collections::HashMap;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Mutex as StdMutex, OnceLock};
use std::time::Duration;
use tokio::sync::mpsc;

/// The PostgreSQL channel of presence notices.
pub const CHANNEL: &str = "menagerie_presence";
/// How often a process repeats which seats it holds (PostgreSQL).
pub const HEARTBEAT: Duration = Duration::from_secs(5);
/// How long a process's word stands without a heartbeat.
pub const EXPIRY_MS: i64 = 15_000;
/// The default absence after which the present player may claim (lichess's 30 s).
pub const DEFAULT_ABSENCE_MS: i64 = 30_000;

/// One seat's presence as the table shows it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SeatPresence {
    /// Whether a page of this seat has a websocket open on any process.
    pub connected: bool,
    /// Since when it has had none (Unix ms), when not connected.
    pub gone_since: Option<i64>,
}

type Seat = (String, usize);

#[derive(Default)]
struct Inner {
    /// This process's open sockets per seat.
    local: HashMap<Seat, usize>,
    /// Other processes holding a seat: process id → when last heard of (Unix ms).
    remote: HashMap<Seat, HashMap<String, i64>>,
    /// When each seat was last seen leaving (Unix ms).
    left: HashMap<Seat, i64>,
}

impl Inner {
    fn connected(&self, seat: &Seat, now: i64) -> bool {
        self.local.get(seat).is_some_and(|n| *n > 0)
            || self
                .remote
                .get(seat)
                .is_some_and(|m| m.values().any(|at| now - at < EXPIRY_MS))
    }
}

/// The presence of every seat this process knows of.
pub struct Presence {
    /// This process's id in the notices (random).
    process: String,
    /// When this process started (no seat is known absent from before).
    started: i64,
    /// The absence after which a claim may be made (`--absence-seconds`).
    absence_ms: AtomicI64,
    inner: StdMutex<Inner>,
    /// Notices to send to the other processes: `(channel, payload)` (PostgreSQL only).
    out: OnceLock<mpsc::UnboundedSender<(&'static str, String)>>,
}

impl Default for Presence {
    fn default() -> Self {
        Presence {
            process: crate::app::random_hex().unwrap_or_else(|_| format!("p{}", now_ms())),
            started: now_ms(),
            absence_ms: AtomicI64::new(DEFAULT_ABSENCE_MS),
            inner: StdMutex::new(Inner::default()),
            out: OnceLock::new(),
        }
    }
}

fn key(game: &str, c: Color) -> Seat {
    (game.to_string(), c.index())
}

fn color_at(i: usize) -> &'static str {
    if i == 0 {
        "white"
    } else {
        "black"
    }
}

impl Presence {
    /// The absence after which the present player may claim, in milliseconds.
    pub fn absence_ms(&self) -> i64 {
        self.absence_ms.load(Ordering::Relaxed)
    }

    /// Sets the absence after which a claim may be made (`--absence-seconds`; tests shorten it).
    pub fn set_absence_ms(&self, ms: i64) {
        self.absence_ms.store(ms.max(1), Ordering::Relaxed);
    }

    /// This process's id in the notices.
    pub fn process(&self) -> &str {
        &self.process
    }

    /// Sends `payload` on `channel` to the other processes (nothing on SQLite).
    pub fn notify(&self, channel: &'static str, payload: String) {
        if let Some(tx) = self.out.get() {
            let _ = tx.send((channel, payload));
        }
    }

    /// Starts sending notices through `tx` (PostgreSQL); false if already started.
    pub fn start_notices(&self, tx: mpsc::UnboundedSender<(&'static str, String)>) -> bool {
        self.out.set(tx).is_ok()
    }

    /// The presence of seat `c` of `game` now.
    pub fn seat(&self, game: &str, c: Color) -> SeatPresence {
        let now = now_ms();
        let Ok(inner) = self.inner.lock() else {
            return SeatPresence::default();
        };
        let seat = key(game, c);
        if inner.connected(&seat, now) {
            return SeatPresence {
                connected: true,
                gone_since: None,
            };
        }
        // The latest moment it was seen: a socket closing, a silent process's last word.
        let expired = inner
            .remote
            .get(&seat)
            .and_then(|m| m.values().max().copied());
        let since = [inner.left.get(&seat).copied(), expired, Some(self.started)]
            .into_iter()
            .flatten()
            .max();
        SeatPresence {
            connected: false,
            gone_since: since,
        }
    }

    /// A socket of seat `c` opened on this process; true when the seat was not connected.
    pub fn open(&self, game: &str, c: Color) -> bool {
        let now = now_ms();
        let Ok(mut inner) = self.inner.lock() else {
            return false;
        };
        let seat = key(game, c);
        let was = inner.connected(&seat, now);
        let n = inner.local.entry(seat).or_insert(0);
        *n += 1;
        if *n == 1 {
            self.notify(
                CHANNEL,
                format!("c|{}|{game}|{}|1", self.process, color_at(c.index())),
            );
        }
        !was
    }

    /// A socket of seat `c` closed on this process; true when the seat is now gone.
    pub fn close(&self, game: &str, c: Color) -> bool {
        let now = now_ms();
        let Ok(mut inner) = self.inner.lock() else {
            return false;
        };
        let seat = key(game, c);
        let Some(n) = inner.local.get_mut(&seat) else {
            return false;
        };
        *n = n.saturating_sub(1);
        if *n > 0 {
            return false;
        }
        inner.local.remove(&seat);
        inner.left.insert(seat.clone(), now);
        self.notify(
            CHANNEL,
            format!("c|{}|{game}|{}|0", self.process, color_at(c.index())),
        );
        !inner.connected(&seat, now)
    }

    /// A notice from another process; returns the games whose presence changed.
    pub fn notice(&self, payload: &str) -> Vec<String> {
        let now = now_ms();
        let mut parts = payload.split('|');
        let (Some(kind), Some(process)) = (parts.next(), parts.next()) else {
            return Vec::new();
        };
        if process == self.process {
            return Vec::new();
        }
        let Ok(mut inner) = self.inner.lock() else {
            return Vec::new();
        };
        let mut changed = Vec::new();
        let mut hear = |inner: &mut Inner, game: &str, color: &str, on: bool| {
            let i = match color {
                "white" => 0,
                "black" => 1,
                _ => return,
            };
            let seat = (game.to_string(), i);
            let was = inner.connected(&seat, now);
            if on {
                inner
                    .remote
                    .entry(seat.clone())
                    .or_default()
                    .insert(process.to_string(), now);
            } else if let Some(m) = inner.remote.get_mut(&seat) {
                if m.remove(process).is_some() {
                    inner.left.insert(seat.clone(), now);
                }
                if m.is_empty() {
                    inner.remote.remove(&seat);
                }
            }
            if inner.connected(&seat, now) != was && !changed.iter().any(|g| g == game) {
                changed.push(game.to_string());
            }
        };
        match kind {
            "c" => {
                let (Some(game), Some(color), Some(on)) =
                    (parts.next(), parts.next(), parts.next())
                else {
                    return Vec::new();
                };
                hear(&mut inner, game, color, on == "1");
            }
            "h" => {
                for item in parts.next().unwrap_or("").split(',') {
                    if let Some((game, color)) = item.split_once(':') {
                        hear(&mut inner, game, color, true);
                    }
                }
            }
            _ => {}
        }
        changed
    }

    /// The heartbeat's payloads: every seat this process holds, in notices of at most about
    /// 7,000 bytes (PostgreSQL's limit is 8,000).
    pub fn heartbeat_payloads(&self) -> Vec<String> {
        let Ok(inner) = self.inner.lock() else {
            return Vec::new();
        };
        let mut out = Vec::new();
        let head = format!("h|{}|", self.process);
        let mut cur = head.clone();
        for ((game, i), n) in &inner.local {
            if *n == 0 {
                continue;
            }
            let item = format!("{game}:{}", color_at(*i));
            if cur.len() + item.len() + 1 > 7000 {
                out.push(std::mem::replace(&mut cur, head.clone()));
            }
            if cur.len() > head.len() {
                cur.push(',');
            }
            cur.push_str(&item);
        }
        if cur.len() > head.len() {
            out.push(cur);
        }
        out
    }

    /// Forgets what other processes said and have not repeated within [`EXPIRY_MS`] (a
    /// process that died), and old departures; returns the games whose presence changed.
    pub fn sweep(&self) -> Vec<String> {
        let now = now_ms();
        let Ok(mut inner) = self.inner.lock() else {
            return Vec::new();
        };
        let mut changed = Vec::new();
        let mut gone = Vec::new();
        for (seat, m) in inner.remote.iter_mut() {
            let expired: Vec<(String, i64)> = m
                .iter()
                .filter(|(_, at)| now - **at >= EXPIRY_MS)
                .map(|(p, at)| (p.clone(), *at))
                .collect();
            for (p, at) in expired {
                m.remove(&p);
                gone.push((seat.clone(), at));
            }
        }
        inner.remote.retain(|_, m| !m.is_empty());
        for (seat, at) in gone {
            let e = inner.left.entry(seat.clone()).or_insert(at);
            *e = (*e).max(at);
            if !inner.connected(&seat, now) && !changed.contains(&seat.0) {
                changed.push(seat.0.clone());
            }
        }
        // A departure older than a day matters to no claim any more.
        inner.left.retain(|_, at| now - *at < 86_400_000);
        changed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seat_is_connected_while_any_socket_of_it_is_open_here_or_elsewhere() {
        let p = Presence::default();
        assert!(!p.seat("g", Color::White).connected);
        assert!(p.open("g", Color::White));
        assert!(
            !p.open("g", Color::White),
            "a second socket changes nothing"
        );
        assert!(!p.close("g", Color::White));
        assert!(p.seat("g", Color::White).connected);
        assert!(p.close("g", Color::White));
        let s = p.seat("g", Color::White);
        assert!(!s.connected);
        assert!(s.gone_since.is_some_and(|t| t >= p.started));
        // Another process says Black is there, then that it left.
        assert_eq!(p.notice("c|other|g|black|1"), vec!["g".to_string()]);
        assert!(p.seat("g", Color::Black).connected);
        assert_eq!(p.notice("h|other|g:black"), Vec::<String>::new());
        assert_eq!(p.notice("c|other|g|black|0"), vec!["g".to_string()]);
        assert!(!p.seat("g", Color::Black).connected);
        // Our own echo is not news.
        let own = format!("c|{}|g|black|1", p.process());
        assert!(p.notice(&own).is_empty());
        assert!(!p.seat("g", Color::Black).connected);
    }

    #[test]
    fn heartbeats_list_every_seat_held_here() {
        let p = Presence::default();
        p.open("a", Color::White);
        p.open("b", Color::Black);
        let beats = p.heartbeat_payloads();
        assert_eq!(beats.len(), 1);
        let head = format!("h|{}|", p.process());
        let mut items: Vec<&str> = beats[0].strip_prefix(&head).unwrap().split(',').collect();
        items.sort();
        assert_eq!(items, ["a:white", "b:black"]);
    }
}
