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
    /// Login attempts per name (lower case) and per address, and sign-ups per address.
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
/// Login attempts one name may have in [`LOGIN_WINDOW`].
pub const LOGINS_PER_NAME: usize = 10;
/// Login attempts one address may make in [`LOGIN_WINDOW`].
pub const LOGINS_PER_ADDRESS: usize = 200;
/// Accounts one address may create in [`LOGIN_WINDOW`].
pub const SIGNUPS_PER_ADDRESS: usize = 20;
/// Analysis searches one address may have running or queued at once.
pub const ANALYSES_PER_ADDRESS: usize = 2;

/// Counts one event in a sliding window; `false` (and nothing counted) when `max` are in it.
fn within(q: &mut VecDeque<Instant>, window: Duration, max: usize, now: Instant) -> bool {
    while q.front().is_some_and(|t| now.duration_since(*t) > window) {
        q.pop_front();
    }
    if q.len() >= max {
        return false;
    }
    q.push_back(now);
    true
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
        u.logins_by_ip.retain(|_, q| fresh(q));
        u.signups_by_ip.retain(|_, q| fresh(q));
    }

    /// Counts a login attempt for `name` from `ip`; 429 past 10 a name or 200 an address in
    /// ten minutes (lichess's limits).
    pub fn may_log_in(&self, ip: Option<IpAddr>, name: &str) -> Result<(), ApiError> {
        let Ok(mut u) = self.usage.lock() else {
            return Ok(());
        };
        let now = Instant::now();
        if let Some(ip) = ip {
            let q = u.logins_by_ip.entry(ip).or_default();
            if !within(q, LOGIN_WINDOW, LOGINS_PER_ADDRESS, now) {
                return Err(ApiError::new(429, format!("this address has tried to log in {LOGINS_PER_ADDRESS} times in ten minutes, the most allowed; wait and try again")));
            }
        }
        let q = u
            .logins_by_name
            .entry(name.to_ascii_lowercase())
            .or_default();
        if !within(q, LOGIN_WINDOW, LOGINS_PER_NAME, now) {
            return Err(ApiError::new(429, format!("this name has had {LOGINS_PER_NAME} login attempts in ten minutes, the most allowed; wait and try again")));
        }
        Ok(())
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
