//! Limits per client (issue 15 item 4): games created per address per minute and open at
//! once, websockets per address, and the size and rate of websocket messages. Each refusal
//! is a JSON sentence with 429 or 413 (`docs/api.md`, Limits).

use axum::extract::connect_info::ConnectInfo;
use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use std::collections::{HashMap, HashSet, VecDeque};
use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::app::ApiError;

/// The address a request comes from (`None` when the server was started without connection
/// information, as a router inside a test may be).
#[derive(Clone, Copy, Debug)]
pub struct ClientIp(pub Option<IpAddr>);

impl<S: Send + Sync> FromRequestParts<S> for ClientIp {
    type Rejection = std::convert::Infallible;
    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        Ok(ClientIp(
            parts
                .extensions
                .get::<ConnectInfo<SocketAddr>>()
                .map(|c| c.0.ip()),
        ))
    }
}

/// The limits in force; tests lower them through [`crate::app::App::limits`].
#[derive(Debug)]
pub struct Limits {
    /// Games one address may create in a minute.
    pub games_per_minute: AtomicUsize,
    /// Games created by one address that may be unfinished at once.
    pub open_games: AtomicUsize,
    /// Websockets one address may hold open at once.
    pub sockets_per_ip: AtomicUsize,
    /// Seeks and quick pairings opened from one address that may be open at once.
    pub seeks_per_ip: AtomicUsize,
    /// The largest websocket message a client may send, in bytes.
    pub ws_message_bytes: AtomicUsize,
    /// Websocket messages a client may send in [`WS_WINDOW`].
    pub ws_messages_per_window: AtomicUsize,
    usage: Mutex<Usage>,
}

/// The window over which websocket messages are counted.
pub const WS_WINDOW: Duration = Duration::from_secs(10);

#[derive(Debug, Default)]
struct Usage {
    /// When each address created its recent games.
    created: HashMap<IpAddr, VecDeque<Instant>>,
    /// The unfinished games each address created.
    open: HashMap<IpAddr, HashSet<String>>,
    /// Who created each unfinished game.
    creator: HashMap<String, IpAddr>,
    /// Open websockets per address.
    sockets: HashMap<IpAddr, usize>,
    /// Failed logins per name (lower case) from each address and from all of them, login
    /// attempts per address, and sign-ups per address.
    failures_by_name_ip: HashMap<(String, IpAddr), VecDeque<Instant>>,
    logins_by_name: HashMap<String, VecDeque<Instant>>,
    logins_by_ip: HashMap<IpAddr, VecDeque<Instant>>,
    signups_by_ip: HashMap<IpAddr, VecDeque<Instant>>,
    /// Analysis searches running or queued per address.
    analyses: HashMap<IpAddr, usize>,
}

/// Seeks and quick pairings open at once from one address unless `serve` says otherwise
/// (several people behind one address each keep [`crate::lobby::MAX_OPEN`]).
pub const DEFAULT_SEEKS_PER_ADDRESS: usize = 50;

/// The window login attempts are counted over (lichess's).
pub const LOGIN_WINDOW: Duration = Duration::from_secs(600);
/// Failed logins one name may have from one address in [`LOGIN_WINDOW`].
pub const LOGINS_PER_NAME: usize = 10;
/// Failed logins one name may have from all addresses together in [`LOGIN_WINDOW`] (a guess
/// spread over many addresses; ten addresses are needed to reach it, where one was before).
pub const LOGINS_PER_NAME_EVERYWHERE: usize = 100;
/// Login attempts one address may make in [`LOGIN_WINDOW`].
pub const LOGINS_PER_ADDRESS: usize = 200;
/// Accounts one address may create in [`LOGIN_WINDOW`].
pub const SIGNUPS_PER_ADDRESS: usize = 20;
/// Analysis searches one address may have running or queued at once.
pub const ANALYSES_PER_ADDRESS: usize = 2;

/// Counts one event in a sliding window; `false` (and nothing counted) when `max` are in it.
fn within(q: &mut VecDeque<Instant>, window: Duration, max: usize, now: Instant) -> bool {
    if !recent_below(q, window, max, now) {
        return false;
    }
    q.push_back(now);
    true
}

/// Whether fewer than `max` of `q`'s times fall within `window` of `now` (older ones dropped).
fn recent_below(q: &mut VecDeque<Instant>, window: Duration, max: usize, now: Instant) -> bool {
    while q.front().is_some_and(|t| now.duration_since(*t) > window) {
        q.pop_front();
    }
    q.len() < max
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            games_per_minute: AtomicUsize::new(30),
            open_games: AtomicUsize::new(100),
            sockets_per_ip: AtomicUsize::new(64),
            seeks_per_ip: AtomicUsize::new(DEFAULT_SEEKS_PER_ADDRESS),
            ws_message_bytes: AtomicUsize::new(4096),
            ws_messages_per_window: AtomicUsize::new(50),
            usage: Mutex::new(Usage::default()),
        }
    }
}

impl Limits {
    fn get(v: &AtomicUsize) -> usize {
        v.load(Ordering::Relaxed)
    }

    /// Whether `ip` may create a game now; counts it when it may.
    pub fn may_create(&self, ip: Option<IpAddr>) -> Result<(), ApiError> {
        let Some(ip) = ip else { return Ok(()) };
        let Ok(mut u) = self.usage.lock() else {
            return Ok(());
        };
        let per_minute = Self::get(&self.games_per_minute);
        let open = Self::get(&self.open_games);
        let now = Instant::now();
        let recent = u.created.entry(ip).or_default();
        while recent
            .front()
            .is_some_and(|t| now.duration_since(*t) > Duration::from_secs(60))
        {
            recent.pop_front();
        }
        if recent.len() >= per_minute {
            return Err(ApiError::new(
                429,
                format!("this address has created {per_minute} games in the last minute, the most allowed; wait a minute and try again"),
            ));
        }
        if u.open.get(&ip).map_or(0, HashSet::len) >= open {
            return Err(ApiError::new(
                429,
                format!("this address has {open} unfinished games, the most allowed; finish or resign one first"),
            ));
        }
        u.created.entry(ip).or_default().push_back(now);
        Ok(())
    }

    /// Records that `ip` created the unfinished game `id`.
    pub fn created(&self, ip: Option<IpAddr>, id: &str) {
        let (Some(ip), Ok(mut u)) = (ip, self.usage.lock()) else {
            return;
        };
        u.open.entry(ip).or_default().insert(id.to_string());
        u.creator.insert(id.to_string(), ip);
    }

    /// The address that created the unfinished game `id`, if this process saw it created.
    pub fn creator(&self, id: &str) -> Option<IpAddr> {
        self.usage.lock().ok()?.creator.get(id).copied()
    }

    /// Game `id` is over: it no longer counts against its creator.
    pub fn finished(&self, id: &str) {
        let Ok(mut u) = self.usage.lock() else { return };
        if let Some(ip) = u.creator.remove(id) {
            if let Some(set) = u.open.get_mut(&ip) {
                set.remove(id);
                if set.is_empty() {
                    u.open.remove(&ip);
                }
            }
        }
    }

    /// Opens a websocket for `ip` if it may hold one more; the guard closes it.
    pub fn open_socket(self: &Arc<Self>, ip: Option<IpAddr>) -> Result<SocketGuard, ApiError> {
        let max = Self::get(&self.sockets_per_ip);
        if let (Some(ip), Ok(mut u)) = (ip, self.usage.lock()) {
            let n = u.sockets.entry(ip).or_default();
            if *n >= max {
                return Err(ApiError::new(
                    429,
                    format!(
                        "this address has {max} websockets open, the most allowed; close one first"
                    ),
                ));
            }
            *n += 1;
        }
        crate::metrics::websockets(1);
        Ok(SocketGuard {
            limits: self.clone(),
            ip,
        })
    }

    fn close_socket(&self, ip: Option<IpAddr>) {
        let (Some(ip), Ok(mut u)) = (ip, self.usage.lock()) else {
            return;
        };
        if let Some(n) = u.sockets.get_mut(&ip) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                u.sockets.remove(&ip);
            }
        }
    }

    /// Seeks and quick pairings one address may have open at once.
    pub fn seeks_per_address(&self) -> usize {
        Self::get(&self.seeks_per_ip)
    }

    /// Sets the limits `menagerie serve` was given.
    pub fn configure(
        &self,
        games_per_minute: usize,
        open_games: usize,
        sockets_per_ip: usize,
        seeks_per_ip: usize,
    ) {
        self.seeks_per_ip.store(seeks_per_ip, Ordering::Relaxed);
        self.games_per_minute
            .store(games_per_minute, std::sync::atomic::Ordering::Relaxed);
        self.open_games
            .store(open_games, std::sync::atomic::Ordering::Relaxed);
        self.sockets_per_ip
            .store(sockets_per_ip, std::sync::atomic::Ordering::Relaxed);
    }

    /// Forgets creation times older than a minute and login attempts older than their
    /// window (called now and then).
    pub fn sweep(&self) {
        let Ok(mut u) = self.usage.lock() else { return };
        let now = Instant::now();
        u.created.retain(|_, q| {
            q.retain(|t| now.duration_since(*t) <= Duration::from_secs(60));
            !q.is_empty()
        });
        let fresh = |q: &mut VecDeque<Instant>| {
            q.retain(|t| now.duration_since(*t) <= LOGIN_WINDOW);
            !q.is_empty()
        };
        u.logins_by_name.retain(|_, q| fresh(q));
        u.failures_by_name_ip.retain(|_, q| fresh(q));
        u.logins_by_ip.retain(|_, q| fresh(q));
        u.signups_by_ip.retain(|_, q| fresh(q));
    }

    /// Counts a login attempt for `name` from `ip`; 429 past 200 attempts from the address,
    /// 10 failed logins of the name from the address or 100 from everywhere, in ten minutes.
    /// Only failures count for a name ([`Limits::login_failed`]), and each address apart, so
    /// a stranger who guesses wrong from one address cannot lock the owner out.
    pub fn may_log_in(&self, ip: Option<IpAddr>, name: &str) -> Result<(), ApiError> {
        let Ok(mut u) = self.usage.lock() else {
            return Ok(());
        };
        let now = Instant::now();
        let key = name.to_ascii_lowercase();
        if let Some(ip) = ip {
            let q = u.logins_by_ip.entry(ip).or_default();
            if !within(q, LOGIN_WINDOW, LOGINS_PER_ADDRESS, now) {
                return Err(ApiError::new(429, format!("this address has tried to log in {LOGINS_PER_ADDRESS} times in ten minutes, the most allowed; wait and try again")));
            }
            if let Some(q) = u.failures_by_name_ip.get_mut(&(key.clone(), ip)) {
                if !recent_below(q, LOGIN_WINDOW, LOGINS_PER_NAME, now) {
                    return Err(ApiError::new(429, format!("this name has had {LOGINS_PER_NAME} failed logins from this address in ten minutes, the most allowed; wait and try again")));
                }
            }
        }
        if let Some(q) = u.logins_by_name.get_mut(&key) {
            if !recent_below(q, LOGIN_WINDOW, LOGINS_PER_NAME_EVERYWHERE, now) {
                return Err(ApiError::new(429, format!("this name has had {LOGINS_PER_NAME_EVERYWHERE} failed logins in ten minutes, the most allowed; wait and try again")));
            }
        }
        Ok(())
    }

    /// Counts a failed login of `name` from `ip` (see [`Limits::may_log_in`]).
    pub fn login_failed(&self, ip: Option<IpAddr>, name: &str) {
        let Ok(mut u) = self.usage.lock() else { return };
        let now = Instant::now();
        let key = name.to_ascii_lowercase();
        if let Some(ip) = ip {
            u.failures_by_name_ip
                .entry((key.clone(), ip))
                .or_default()
                .push_back(now);
        }
        u.logins_by_name.entry(key).or_default().push_back(now);
    }

    /// Counts an account created from `ip`; 429 past 20 in ten minutes.
    pub fn may_sign_up(&self, ip: Option<IpAddr>) -> Result<(), ApiError> {
        let (Some(ip), Ok(mut u)) = (ip, self.usage.lock()) else {
            return Ok(());
        };
        let q = u.signups_by_ip.entry(ip).or_default();
        if !within(q, LOGIN_WINDOW, SIGNUPS_PER_ADDRESS, Instant::now()) {
            return Err(ApiError::new(429, format!("this address has created {SIGNUPS_PER_ADDRESS} accounts in ten minutes, the most allowed; wait and try again")));
        }
        Ok(())
    }

    /// Starts an analysis for `ip` if it has fewer than [`ANALYSES_PER_ADDRESS`] running or
    /// queued; the guard ends it.
    pub fn start_analysis(self: &Arc<Self>, ip: Option<IpAddr>) -> Result<AnalysisGuard, ApiError> {
        if let (Some(ip), Ok(mut u)) = (ip, self.usage.lock()) {
            let n = u.analyses.entry(ip).or_default();
            if *n >= ANALYSES_PER_ADDRESS {
                return Err(ApiError::new(429, format!("this address has {ANALYSES_PER_ADDRESS} analyses running, the most allowed; stop one or wait for it to end")));
            }
            *n += 1;
        }
        Ok(AnalysisGuard {
            limits: self.clone(),
            ip,
        })
    }
}

/// One analysis of an address, running or queued; dropping it ends the count.
pub struct AnalysisGuard {
    limits: Arc<Limits>,
    ip: Option<IpAddr>,
}

impl Drop for AnalysisGuard {
    fn drop(&mut self) {
        let (Some(ip), Ok(mut u)) = (self.ip, self.limits.usage.lock()) else {
            return;
        };
        if let Some(n) = u.analyses.get_mut(&ip) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                u.analyses.remove(&ip);
            }
        }
    }
}

/// One open websocket of an address; dropping it closes the count.
pub struct SocketGuard {
    limits: Arc<Limits>,
    ip: Option<IpAddr>,
}

impl Drop for SocketGuard {
    fn drop(&mut self) {
        crate::metrics::websockets(-1);
        self.limits.close_socket(self.ip);
    }
}

/// Counts one client's websocket messages: refuses those too large or too many.
pub struct MessageMeter {
    max_bytes: usize,
    per_window: usize,
    window: VecDeque<Instant>,
}

impl MessageMeter {
    /// A meter under `limits`.
    pub fn new(limits: &Limits) -> Self {
        MessageMeter {
            max_bytes: Limits::get(&limits.ws_message_bytes),
            per_window: Limits::get(&limits.ws_messages_per_window),
            window: VecDeque::new(),
        }
    }

    /// The refusal of a message too big (`len` bytes, when known).
    pub fn too_big(&self, len: Option<usize>) -> (u16, String) {
        let has = len.map_or_else(
            || "this one is larger".to_string(),
            |n| format!("this one has {n}"),
        );
        (
            413,
            format!(
                "a websocket message is at most {} bytes; {has}",
                self.max_bytes
            ),
        )
    }

    /// `Err((status, sentence))` when a message of `len` bytes is refused.
    pub fn check(&mut self, len: usize) -> Result<(), (u16, String)> {
        if len > self.max_bytes {
            return Err(self.too_big(Some(len)));
        }
        let now = Instant::now();
        while self
            .window
            .front()
            .is_some_and(|t| now.duration_since(*t) > WS_WINDOW)
        {
            self.window.pop_front();
        }
        if self.window.len() >= self.per_window {
            return Err((
                429,
                format!(
                    "at most {} websocket messages may be sent in {} seconds",
                    self.per_window,
                    WS_WINDOW.as_secs()
                ),
            ));
        }
        self.window.push_back(now);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(n: u8) -> Option<IpAddr> {
        Some(IpAddr::from([10, 0, 0, n]))
    }

    fn refused(l: &Limits, from: Option<IpAddr>, name: &str) -> Option<(u16, String)> {
        l.may_log_in(from, name)
            .err()
            .map(|e| (e.status, e.message))
    }

    #[test]
    fn failed_logins_shut_one_address_out_of_a_name_not_its_owner_elsewhere() {
        let l = Limits::default();
        // Successful logins never count against a name.
        for _ in 0..3 * LOGINS_PER_NAME {
            assert_eq!(refused(&l, ip(2), "carol"), None);
        }
        for _ in 0..LOGINS_PER_NAME {
            assert_eq!(refused(&l, ip(1), "Carol"), None);
            l.login_failed(ip(1), "Carol");
        }
        assert_eq!(
            refused(&l, ip(1), "carol"),
            Some((429, "this name has had 10 failed logins from this address in ten minutes, the most allowed; wait and try again".into()))
        );
        // The owner, from another address, and other names from the first address, go on.
        assert_eq!(refused(&l, ip(2), "carol"), None);
        assert_eq!(refused(&l, ip(1), "dave"), None);
    }

    #[test]
    fn a_guess_spread_over_many_addresses_is_stopped_at_a_hundred_failures() {
        let l = Limits::default();
        for n in 0..LOGINS_PER_NAME_EVERYWHERE {
            let from = ip(u8::try_from(n / LOGINS_PER_NAME).unwrap_or(0) + 10);
            assert_eq!(refused(&l, from, "carol"), None, "attempt {n}");
            l.login_failed(from, "carol");
        }
        assert_eq!(
            refused(&l, ip(99), "carol"),
            Some((429, "this name has had 100 failed logins in ten minutes, the most allowed; wait and try again".into()))
        );
        assert_eq!(refused(&l, ip(99), "dave"), None);
    }

    #[test]
    fn an_address_has_two_hundred_attempts_in_ten_minutes() {
        let l = Limits::default();
        for n in 0..LOGINS_PER_ADDRESS {
            assert_eq!(refused(&l, ip(3), &format!("name{n}")), None);
        }
        assert_eq!(
            refused(&l, ip(3), "carol"),
            Some((429, "this address has tried to log in 200 times in ten minutes, the most allowed; wait and try again".into()))
        );
    }
}
