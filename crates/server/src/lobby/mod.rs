//! The lobby (issue 32 items 1-4): where strangers meet. Open seeks (a live list on a
//! websocket), quick pairing across sets of variants and time controls, challenges to a named
//! player, the engine's levels as bots, and correspondence games (days per turn).
//!
//! Seeks and quick pairings are rows of `seeks` (so every server process on one PostgreSQL
//! sees them and a correspondence seek survives `kill -9`); each process keeps a mirror of
//! them in memory, changed by its own writes and by the other processes' announcements on
//! [`LOBBY_CHANNEL`], and read again from the database every few seconds. Whoever deletes an
//! entry's row takes it: two players accepting one seek, one `DELETE` removes it, the other
//! finds nothing and is told so. A live seek lives while its owner holds a lobby websocket
//! (on any process: each process stamps `seen_at` of its connected owners' entries every
//! second); a correspondence seek stays until it is cancelled or taken.
//!
//! Every person also receives notices on the same websocket (a page's header holds one
//! without the list): a game that started from their seek, a challenge, a challenge declined
//! or expired, "your turn" in a correspondence game.

mod bots;
mod challenges;
mod db;
mod seeks;

pub use challenges::{
    accept_challenge, cancel_challenge, create_challenge, decline_challenge, list_challenges,
};
pub use seeks::{accept_seek, cancel_seek, create_pairing, create_seek, list_seeks, lobby_info};

use crate::accounts::{self, Owner};
use crate::app::{ApiError, App, Live};
use crate::clock::ClockSpec;
use crate::limits::{ClientIp, MessageMeter, SocketGuard};
use crate::log;
use crate::store::now_ms;
use axum::extract::ws::{Message, Utf8Bytes, WebSocket};
use axum::extract::{Query, State};
use axum::response::Response;
use futures_util::{SinkExt, StreamExt};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::atomic::{AtomicI64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex as StdMutex, OnceLock, Weak};
use std::time::Duration;
use tokio::sync::{broadcast, mpsc};
use tower_sessions::Session;

/// The PostgreSQL channel the lobby's changes and notices go out on to the other processes.
pub const LOBBY_CHANNEL: &str = "menagerie_lobby";

/// The days per turn a correspondence game may have.
pub const DAYS: [u32; 7] = [1, 2, 3, 5, 7, 10, 14];

/// A day, in milliseconds (the default of `--day-ms`).
pub const DAY_MS: i64 = 86_400_000;

/// How long a live seek stays with no lobby websocket of its owner on any process (created
/// by a program that never connects, or held by a process that was killed).
pub const LIVE_GRACE_MS: i64 = 15_000;

/// How long after its owner's last websocket closed a live seek goes (a page reloading or
/// going from one page to another keeps its seeks).
pub const CLOSE_GRACE_MS: i64 = 3_000;

/// How many seeks and quick pairings one person may have open at once.
pub const MAX_OPEN: i64 = 10;

/// The sentence for days per turn the game does not have.
pub fn days_sentence(d: u32) -> String {
    format!("days per turn are 1, 2, 3, 5, 7, 10 or 14, not {d}")
}

/// A time control of the lobby: a clock, or days per turn (correspondence).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Control {
    /// Minutes and increment, in milliseconds.
    Clock {
        /// Each side's time at the start.
        initial_ms: i64,
        /// Added after each turn.
        increment_ms: i64,
    },
    /// Days per turn.
    Days(u32),
}

impl Control {
    /// A clock, checked.
    pub fn clock(spec: ClockSpec) -> Result<Control, ApiError> {
        let c = spec.checked().map_err(ApiError::bad)?;
        Ok(Control::Clock {
            initial_ms: c.initial_ms,
            increment_ms: c.increment_ms,
        })
    }
    /// Days per turn, checked.
    pub fn days(d: u32) -> Result<Control, ApiError> {
        if DAYS.contains(&d) {
            Ok(Control::Days(d))
        } else {
            Err(ApiError::bad(days_sentence(d)))
        }
    }
    /// The one control a seek or a challenge (`what`) names: a clock or days per turn.
    pub fn one_of(
        clock: Option<ClockSpec>,
        days: Option<u32>,
        what: &str,
    ) -> Result<Control, ApiError> {
        match (clock, days) {
            (Some(c), None) => Control::clock(c),
            (None, Some(d)) => Control::days(d),
            (Some(_), Some(_)) => Err(ApiError::bad(format!(
                "{what} has a clock or days per turn (correspondence), not both"
            ))),
            (None, None) => Err(ApiError::bad(format!(
                "{what} has a clock {{\"initial_ms\", \"increment_ms\"}} or \"days\" per turn (1, 2, 3, 5, 7, 10 or 14)"
            ))),
        }
    }
    /// The clock of a game with this control.
    pub fn spec(self) -> Option<ClockSpec> {
        match self {
            Control::Clock {
                initial_ms,
                increment_ms,
            } => Some(ClockSpec {
                initial_ms,
                increment_ms,
            }),
            Control::Days(_) => None,
        }
    }
    /// The days per turn of a game with this control.
    pub fn days_per_turn(self) -> Option<u32> {
        match self {
            Control::Days(d) => Some(d),
            Control::Clock { .. } => None,
        }
    }
    /// `"clock"` and `"days"` as the API writes them (one of them null).
    pub fn fields(self) -> (Value, Value) {
        match self {
            Control::Clock {
                initial_ms,
                increment_ms,
            } => (
                json!({"initial_ms": initial_ms, "increment_ms": increment_ms}),
                Value::Null,
            ),
            Control::Days(d) => (Value::Null, json!(d)),
        }
    }
}

/// An open seek, or a quick pairing waiting for a partner.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Entry {
    /// Its id.
    pub id: String,
    /// Its owner as a person key ([`person_key`]); never shown.
    pub owner: String,
    /// The owner's account name (`None`: anonymous).
    pub name: Option<String>,
    /// The variants it takes (a seek: one).
    pub variants: Vec<String>,
    /// The time controls it takes (a seek: one).
    pub controls: Vec<Control>,
    /// Rated or casual.
    pub rated: bool,
    /// The colour its owner wants: `white`, `black` or `random`.
    pub color: String,
    /// The opponents' ratings it takes, if limited.
    pub range: Option<[i64; 2]>,
    /// The owner's rating in each of its variants (accounts only).
    pub ratings: BTreeMap<String, f64>,
    /// Whether the owner's rating is provisional (in the first variant).
    pub provisional: bool,
    /// A quick pairing (not listed) rather than a seek.
    pub pairing: bool,
    /// When it was made (Unix ms).
    pub created_at: i64,
    /// The address it was opened from (a limit per address); never shown.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub address: Option<String>,
}

impl Entry {
    /// Whether every time control is days per turn: it stays until cancelled or taken.
    pub fn correspondence(&self) -> bool {
        self.controls.iter().all(|c| matches!(c, Control::Days(_)))
    }
    /// Whether its owner has an account.
    pub fn account(&self) -> bool {
        self.owner.starts_with("a:")
    }
    /// The seek as the list shows it.
    pub fn public_json(&self) -> Value {
        let variant = self.variants.first().cloned().unwrap_or_default();
        let (clock, days) = self
            .controls
            .first()
            .map_or((Value::Null, Value::Null), |c| c.fields());
        let rating = self.ratings.get(&variant).map(|r| r.round() as i64);
        json!({
            "id": self.id,
            "player": {"name": self.name, "rating": rating, "provisional": rating.is_some() && self.provisional, "bot": false},
            "variant": variant,
            "clock": clock,
            "days": days,
            "rated": self.rated,
            "color": self.color,
            "rating_range": self.range,
            "created_at": self.created_at,
        })
    }
}

/// The key of a person: `a:ACCOUNT` or `n:ANONYMOUS` (never shown).
pub fn person_key(owner: &Owner) -> String {
    match owner {
        Owner::Account(a) => format!("a:{a}"),
        Owner::Anon(a) => format!("n:{a}"),
    }
}

/// The owner a person key stands for.
pub fn owner_of(key: &str) -> Option<Owner> {
    if let Some(a) = key.strip_prefix("a:") {
        Some(Owner::Account(a.to_string()))
    } else {
        key.strip_prefix("n:").map(|a| Owner::Anon(a.to_string()))
    }
}

/// A person's lobby websockets on this process and their notices.
struct Person {
    sockets: usize,
    tx: broadcast::Sender<Utf8Bytes>,
}

/// The lobby's state in this process.
pub struct Lobby {
    /// This process's random id (its announcements' echo is ignored).
    process: String,
    day_ms: AtomicI64,
    bot_wait_ms: AtomicI64,
    challenge_ms: AtomicI64,
    /// Open seeks and quick pairings by id (a mirror of `seeks`).
    entries: StdMutex<BTreeMap<String, Entry>>,
    /// Entries taken or cancelled lately (a late accept is told "taken", not "unknown").
    gone: StdMutex<HashSet<String>>,
    /// Changes of the list and the counts, for every lobby page.
    public: broadcast::Sender<Utf8Bytes>,
    persons: StdMutex<HashMap<String, Person>>,
    /// Lobby websockets of visitors with no session yet.
    strangers: AtomicUsize,
    /// People online and playing, all processes together, as last counted.
    counts: StdMutex<(i64, i64)>,
    /// The announcer's queue (PostgreSQL).
    sender: OnceLock<mpsc::UnboundedSender<String>>,
    /// Seeks a bot has looked at (each is tried once).
    bots_tried: StdMutex<HashSet<String>>,
}

impl Default for Lobby {
    fn default() -> Self {
        Self::new()
    }
}

impl Lobby {
    /// An empty lobby with the default times.
    pub fn new() -> Lobby {
        let process = crate::app::random_hex().unwrap_or_else(|_| format!("p{}", now_ms()));
        Lobby {
            process,
            day_ms: AtomicI64::new(DAY_MS),
            bot_wait_ms: AtomicI64::new(5_000),
            challenge_ms: AtomicI64::new(10 * 60_000),
            entries: StdMutex::new(BTreeMap::new()),
            gone: StdMutex::new(HashSet::new()),
            public: broadcast::channel(4096).0,
            persons: StdMutex::new(HashMap::new()),
            strangers: AtomicUsize::new(0),
            counts: StdMutex::new((0, 0)),
            sender: OnceLock::new(),
            bots_tried: StdMutex::new(HashSet::new()),
        }
    }

    /// Sets the length of a day (correspondence), how long a seek waits before a bot may
    /// answer it (0: never) and how long a challenge lives, in milliseconds.
    pub fn configure(&self, day_ms: i64, bot_wait_ms: i64, challenge_ms: i64) {
        self.day_ms.store(day_ms.max(1), Ordering::Relaxed);
        self.bot_wait_ms
            .store(bot_wait_ms.max(0), Ordering::Relaxed);
        self.challenge_ms
            .store(challenge_ms.max(1), Ordering::Relaxed);
    }

    /// The length of a correspondence day in milliseconds.
    pub fn day_ms(&self) -> i64 {
        self.day_ms.load(Ordering::Relaxed)
    }

    fn bot_wait_ms(&self) -> i64 {
        self.bot_wait_ms.load(Ordering::Relaxed)
    }

    fn challenge_ms(&self) -> i64 {
        self.challenge_ms.load(Ordering::Relaxed)
    }

    /// The entries, oldest first.
    fn snapshot(&self) -> Vec<Entry> {
        let mut v: Vec<Entry> = self
            .entries
            .lock()
            .map(|m| m.values().cloned().collect())
            .unwrap_or_default();
        v.sort_by(|a, b| (a.created_at, &a.id).cmp(&(b.created_at, &b.id)));
        v
    }

    /// The open seeks as the list shows them, oldest first.
    pub fn seeks_json(&self) -> Vec<Value> {
        self.snapshot()
            .iter()
            .filter(|e| !e.pairing)
            .map(Entry::public_json)
            .collect()
    }

    /// Whether `id` was an entry this process knew: taken or cancelled lately, or still in
    /// the mirror (another process may have taken it a moment ago, its news on the way).
    fn was_gone(&self, id: &str) -> bool {
        self.gone.lock().is_ok_and(|g| g.contains(id))
            || self.entries.lock().is_ok_and(|m| m.contains_key(id))
    }

    fn broadcast(&self, ev: &Value) {
        let _ = self.public.send(Utf8Bytes::from(ev.to_string()));
    }

    /// Puts `e` in the mirror; tells the pages when it is a new seek.
    fn add_local(&self, e: Entry) {
        let public = (!e.pairing).then(|| json!({"type": "seek", "seek": e.public_json()}));
        let fresh = self
            .entries
            .lock()
            .map(|mut m| m.insert(e.id.clone(), e).is_none())
            .unwrap_or(false);
        if let (true, Some(ev)) = (fresh, public) {
            self.broadcast(&ev);
        }
    }

    /// Takes `ids` out of the mirror; tells the pages of the seeks that were in it.
    fn remove_local(&self, ids: &[String]) {
        for id in ids {
            let was = self.entries.lock().ok().and_then(|mut m| m.remove(id));
            if let Ok(mut g) = self.gone.lock() {
                if g.len() > 20_000 {
                    g.clear();
                }
                g.insert(id.clone());
            }
            if was.is_some() {
                self.broadcast(&json!({"type": "unseek", "id": id}));
            }
        }
    }

    /// A new entry: in the mirror, on the pages, and to the other processes.
    fn added(&self, e: &Entry) {
        self.add_local(e.clone());
        self.announce(json!({"from": self.process, "add": e}));
    }

    /// Entries taken or cancelled: out of the mirror, off the pages, and to the others.
    fn removed(&self, ids: &[String]) {
        if ids.is_empty() {
            return;
        }
        self.remove_local(ids);
        self.announce(json!({"from": self.process, "remove": ids}));
    }

    /// Sends `event` to every lobby websocket of `person`, on every process.
    pub fn tell(&self, person: &str, event: Value) {
        self.deliver(person, &event);
        self.announce(json!({"from": self.process, "to": person, "event": event}));
    }

    fn deliver(&self, person: &str, event: &Value) {
        if let Ok(m) = self.persons.lock() {
            if let Some(p) = m.get(person) {
                let _ = p.tx.send(Utf8Bytes::from(event.to_string()));
            }
        }
    }

    /// Queues `message` for the other processes (PostgreSQL only).
    fn announce(&self, message: Value) {
        if let Some(tx) = self.sender.get() {
            let _ = tx.send(message.to_string());
        }
    }

    /// An announcement from another process (this process's own echo is ignored).
    pub fn remote(&self, _app: &Arc<App>, payload: &str) {
        let Ok(m) = serde_json::from_str::<Value>(payload) else {
            return;
        };
        if m["from"].as_str() == Some(self.process.as_str()) {
            return;
        }
        if let Ok(e) = serde_json::from_value::<Entry>(m["add"].clone()) {
            self.add_local(e);
        }
        if let Some(ids) = m["remove"].as_array() {
            let ids: Vec<String> = ids
                .iter()
                .filter_map(|v| v.as_str().map(str::to_string))
                .collect();
            self.remove_local(&ids);
        }
        if let Some(to) = m["to"].as_str() {
            self.deliver(to, &m["event"]);
        }
    }

    /// Starts the task that sends this process's announcements, batched, on its own
    /// connection (as `cluster.rs` does for turns).
    pub fn start_sender(&self, pool: sqlx::PgPool) {
        let (tx, mut rx) = mpsc::unbounded_channel::<String>();
        if self.sender.set(tx).is_err() {
            return;
        }
        tokio::spawn(async move {
            use sqlx::Connection as _;
            let mut conn: Option<sqlx::PgConnection> = None;
            while let Some(first) = rx.recv().await {
                let mut batch = vec![first];
                while let Ok(more) = rx.try_recv() {
                    batch.push(more);
                }
                // A payload PostgreSQL would refuse (8000 bytes) is left to the reload.
                batch.retain(|p| p.len() < 7900);
                if conn.is_none() {
                    match sqlx::PgConnection::connect_with(&pool.connect_options()).await {
                        Ok(c) => conn = Some(c),
                        Err(e) => {
                            log(&format!("the lobby cannot announce: {e}"));
                            continue;
                        }
                    }
                }
                let Some(c) = conn.as_mut() else { continue };
                let sent = sqlx::query("SELECT pg_notify($1, p) FROM unnest($2::text[]) AS p")
                    .bind(LOBBY_CHANNEL)
                    .bind(&batch)
                    .execute(&mut *c)
                    .await;
                if let Err(e) = sent {
                    log(&format!(
                        "the lobby cannot announce {} changes: {e}; the others read them within seconds",
                        batch.len()
                    ));
                    conn = None;
                }
            }
        });
    }

    /// A websocket of `person` opens: its notices' receiver.
    fn register(&self, person: Option<&str>) -> Option<broadcast::Receiver<Utf8Bytes>> {
        let Some(key) = person else {
            self.strangers.fetch_add(1, Ordering::Relaxed);
            return None;
        };
        let mut m = self.persons.lock().ok()?;
        let p = m.entry(key.to_string()).or_insert_with(|| Person {
            sockets: 0,
            tx: broadcast::channel(256).0,
        });
        p.sockets += 1;
        Some(p.tx.subscribe())
    }

    /// A websocket of `person` closed; true when it was the person's last one here.
    fn unregister(&self, person: Option<&str>) -> bool {
        let Some(key) = person else {
            self.strangers.fetch_sub(1, Ordering::Relaxed);
            return false;
        };
        let Ok(mut m) = self.persons.lock() else {
            return false;
        };
        let last = match m.get_mut(key) {
            Some(p) => {
                p.sockets = p.sockets.saturating_sub(1);
                p.sockets == 0
            }
            None => false,
        };
        if last {
            m.remove(key);
        }
        last
    }

    fn connected(&self, person: &str) -> bool {
        self.persons.lock().is_ok_and(|m| m.contains_key(person))
    }

    /// The people (person keys) and the strangers with a lobby websocket on this process.
    fn online_here(&self) -> (Vec<String>, i64) {
        let people = self
            .persons
            .lock()
            .map_or_else(|_| Vec::new(), |m| m.keys().cloned().collect());
        (people, self.strangers.load(Ordering::Relaxed) as i64)
    }

    /// `(online, playing)` as last counted.
    pub fn counts(&self) -> (i64, i64) {
        self.counts.lock().map_or((0, 0), |c| *c)
    }

    /// A turn was played in correspondence game `live`: the player to move is told.
    pub fn your_turn(&self, live: &Live) {
        if live.outcome().is_some() {
            return;
        }
        let mover = live.game.turn();
        let Some(account) = live.seats[mover.index()].account.as_ref() else {
            return;
        };
        let opponent = live.seats[mover.other().index()].name.clone();
        let id = &live.row.id;
        self.tell(
            &format!("a:{account}"),
            json!({
                "type": "your-turn", "game": id, "url": format!("/game/{id}"),
                "variant": live.row.variant, "opponent": opponent,
                "deadline_ms": live.corr.map(|c| c.deadline()),
            }),
        );
    }
}

/// The lobby's background work: keeping live seeks of connected owners, dropping the others,
/// counting people, reading the list again, bots answering seeks, challenges expiring, and
/// correspondence games ending on time (also those whose time ran out while no server ran).
pub async fn start(app: &Arc<App>) {
    // The open seeks are in the list from the first request on (a restart keeps them).
    reload(app).await;
    let weak = Arc::downgrade(app);
    tokio::spawn(every_second(weak.clone()));
    tokio::spawn(every_few_seconds(weak.clone()));
    tokio::spawn(correspondence(weak));
}

async fn every_second(app: Weak<App>) {
    let mut tick = tokio::time::interval(Duration::from_secs(1));
    loop {
        tick.tick().await;
        let Some(app) = app.upgrade() else { return };
        let now = now_ms();
        // The live entries whose owners are connected here stay.
        let mine: Vec<String> = app
            .lobby
            .snapshot()
            .into_iter()
            .filter(|e| !e.correspondence() && app.lobby.connected(&e.owner))
            .map(|e| e.id)
            .collect();
        if !mine.is_empty() {
            if let Err(e) = db::touch(&app.store, &mine, now).await {
                log(&format!("the lobby cannot keep its seeks: {e}"));
            }
        }
        match db::sweep_stale(&app.store, now - LIVE_GRACE_MS).await {
            Ok(ids) => app.lobby.removed(&ids),
            Err(e) => log(&format!("the lobby cannot drop stale seeks: {e}")),
        }
        challenges::expire(&app).await;
        bots::answer_seeks(&app).await;
    }
}

async fn every_few_seconds(app: Weak<App>) {
    let mut tick = tokio::time::interval(Duration::from_secs(2));
    let mut round: u64 = 0;
    loop {
        tick.tick().await;
        round += 1;
        let Some(app) = app.upgrade() else { return };
        let (people, strangers) = app.lobby.online_here();
        match db::heartbeat(&app.store, &app.lobby.process, &people, strangers, now_ms()).await {
            Ok(counts) => {
                let changed = app
                    .lobby
                    .counts
                    .lock()
                    .map(|mut c| std::mem::replace(&mut *c, counts) != counts)
                    .unwrap_or(false);
                if changed {
                    app.lobby.broadcast(
                        &json!({"type": "counts", "online": counts.0, "playing": counts.1}),
                    );
                }
            }
            Err(e) => log(&format!("the lobby cannot count people: {e}")),
        }
        if round.is_multiple_of(2) {
            reload(&app).await;
        }
    }
}

/// Reads every entry again: what an announcement never said (another process killed, a
/// listener reconnecting) is caught here; quick pairings that missed each other meet.
async fn reload(app: &Arc<App>) {
    let began = now_ms();
    let stored = match db::entries(&app.store).await {
        Ok(v) => v,
        Err(e) => {
            log(&format!("the lobby cannot read the seeks: {e}"));
            return;
        }
    };
    let ids: HashSet<String> = stored.iter().map(|e| e.id.clone()).collect();
    // An entry made while the rows were read is not among them: only older ones are gone.
    let missing: Vec<String> = app
        .lobby
        .snapshot()
        .into_iter()
        .filter(|e| !ids.contains(&e.id) && e.created_at < began - 2_000)
        .map(|e| e.id)
        .collect();
    app.lobby.remove_local(&missing);
    // An entry taken while the rows were read is not put back.
    for e in stored.iter().filter(|e| !app.lobby.was_gone(&e.id)) {
        app.lobby.add_local(e.clone());
    }
    for e in stored
        .into_iter()
        .filter(|e| e.pairing && app.lobby.connected(&e.owner))
    {
        if let Err(err) = seeks::match_new(app, &e, false).await {
            log(&format!("a quick pairing failed: {}", err.message));
        }
    }
}

/// Ends the correspondence games whose time ran out, often enough for the day's length.
async fn correspondence(app: Weak<App>) {
    loop {
        let period = match app.upgrade() {
            Some(a) => (a.lobby.day_ms() / 20).clamp(100, 5_000),
            None => return,
        };
        tokio::time::sleep(Duration::from_millis(period as u64)).await;
        let Some(app) = app.upgrade() else { return };
        let due = match db::due_games(&app.store, now_ms()).await {
            Ok(v) => v,
            Err(e) => {
                log(&format!("cannot read the correspondence games: {e}"));
                continue;
            }
        };
        for id in due {
            let h = match app.handle(&id).await {
                Ok(h) => h,
                Err(e) => {
                    log(&format!("cannot load game {id}: {}", e.message));
                    continue;
                }
            };
            let mut live = h.live.lock().await;
            let Some(c) = live.corr else { continue };
            if live.outcome().is_some() || c.deadline() > now_ms() {
                continue;
            }
            let side = live.game.turn();
            match app.flag(&h, &mut live, side).await {
                Ok(()) => {}
                // Another process ended it first.
                Err(e) if e.status == 409 => {}
                Err(e) => log(&format!(
                    "game {id}: the time ran out but the game could not end: {}",
                    e.message
                )),
            }
        }
    }
}

/// `?list=0`: a page's header wants its notices only, not the list of seeks.
#[derive(Deserialize)]
pub struct WsQuery {
    list: Option<String>,
}

/// `GET /api/lobby/ws?list=0|1` (WebSocket): the list of seeks live (unless `list=0`), the
/// counts, and the caller's notices.
pub async fn websocket(
    State(app): State<Arc<App>>,
    ClientIp(ip): ClientIp,
    q: Result<Query<WsQuery>, axum::extract::rejection::QueryRejection>,
    session: Session,
    ws: Result<
        axum::extract::ws::WebSocketUpgrade,
        axum::extract::ws::rejection::WebSocketUpgradeRejection,
    >,
) -> Result<Response, ApiError> {
    let Query(q) = q.map_err(|_| ApiError::bad("the query holds list=0 or list=1 only"))?;
    let list = !matches!(q.list.as_deref(), Some("0" | "false"));
    let me = accounts::me(&app, &session).await?;
    let ws =
        ws.map_err(|e| ApiError::bad(format!("this path takes a websocket: {}", e.body_text())))?;
    let guard = app.limits.open_socket(ip)?;
    let meter = MessageMeter::new(&app.limits);
    Ok(ws
        .max_message_size(4096)
        .read_buffer_size(4096)
        .write_buffer_size(0)
        .on_upgrade(move |socket| run(socket, app, me, list, meter, guard)))
}

/// The first message of a lobby websocket: everything the page shows.
async fn hello(app: &Arc<App>, me: &accounts::Me, person: Option<&str>, list: bool) -> Value {
    let (online, playing) = app.lobby.counts();
    let mine: Vec<String> = match person {
        Some(p) => app
            .lobby
            .snapshot()
            .into_iter()
            .filter(|e| e.owner == p)
            .map(|e| e.id)
            .collect(),
        None => Vec::new(),
    };
    let (incoming, outgoing, your_turn) = match &me.account {
        Some(a) => {
            let (i, o) = challenges::pending_json(app, &a.id).await;
            (i, o, your_turn_games(app, &a.id).await)
        }
        None => (Vec::new(), Vec::new(), Vec::new()),
    };
    let mut v = json!({
        "type": "hello",
        "you": {
            "name": me.account.as_ref().map(|a| a.name.clone()),
            "account": me.account.is_some(),
            "person": person.is_some(),
        },
        "mine": mine,
        "online": online,
        "playing": playing,
        "challenges": {"in": incoming, "out": outgoing},
        "your_turn": your_turn,
    });
    if list {
        v["seeks"] = json!(app.lobby.seeks_json());
        v["bots"] = json!(bots::list_json(app).await);
    }
    v
}

/// The caller's correspondence games where it is their turn.
async fn your_turn_games(app: &Arc<App>, account: &str) -> Vec<Value> {
    let rows = match app.store.owned_games(Some(account), None, 300).await {
        Ok(r) => r,
        Err(e) => {
            log(&format!("cannot read a player's games: {e}"));
            return Vec::new();
        }
    };
    rows.iter()
        .filter(|(l, seat)| {
            !l.row.finished && l.row.days_per_turn.is_some() && l.row.summary.to_move == *seat
        })
        .map(|(l, seat)| {
            let other = usize::from(seat == "white");
            json!({
                "type": "your-turn", "game": l.row.id, "url": format!("/game/{}", l.row.id),
                "variant": l.row.variant, "opponent": l.names[other],
                "deadline_ms": l.row.summary.deadline_at,
            })
        })
        .collect()
}

/// Serves one lobby websocket until the client goes away.
async fn run(
    socket: WebSocket,
    app: Arc<App>,
    me: accounts::Me,
    list: bool,
    mut meter: MessageMeter,
    _guard: SocketGuard,
) {
    let person = me.owner().map(|o| person_key(&o));
    // Subscribed before the first message is made: nothing falls between them.
    let mut public = app.lobby.public.subscribe();
    let mut notices = app.lobby.register(person.as_deref());
    let (mut sink, mut stream) = socket.split();
    let first = hello(&app, &me, person.as_deref(), list).await;
    let mut alive = send(&mut sink, Utf8Bytes::from(first.to_string())).await;
    let mut ping = tokio::time::interval_at(
        tokio::time::Instant::now() + crate::ws::PING_EVERY,
        crate::ws::PING_EVERY,
    );
    let mut heard = tokio::time::Instant::now();
    while alive {
        tokio::select! {
            _ = ping.tick() => {
                alive = heard.elapsed() <= 2 * crate::ws::PING_EVERY
                    && tokio::time::timeout(crate::ws::WRITE_TIMEOUT, sink.send(Message::Ping(Default::default()))).await.is_ok_and(|r| r.is_ok());
            }
            got = public.recv() => {
                match got {
                    Ok(text) if list => alive = send(&mut sink, text).await,
                    // The counts reach every page; the list only lobby pages.
                    Ok(text) => {
                        if text.starts_with("{\"online\"") || text.contains("\"type\":\"counts\"") {
                            alive = send(&mut sink, text).await;
                        }
                    }
                    Err(broadcast::error::RecvError::Lagged(_)) => {
                        // Too slow to follow: the whole list again.
                        let again = hello(&app, &me, person.as_deref(), list).await;
                        alive = send(&mut sink, Utf8Bytes::from(again.to_string())).await;
                    }
                    Err(broadcast::error::RecvError::Closed) => alive = false,
                }
            }
            got = async {
                match notices.as_mut() {
                    Some(rx) => rx.recv().await,
                    None => std::future::pending().await,
                }
            } => {
                match got {
                    Ok(text) => alive = send(&mut sink, text).await,
                    Err(broadcast::error::RecvError::Lagged(_)) => {}
                    Err(broadcast::error::RecvError::Closed) => alive = false,
                }
            }
            incoming = stream.next() => {
                heard = tokio::time::Instant::now();
                let checked = match incoming {
                    None | Some(Ok(Message::Close(_))) | Some(Err(_)) => break,
                    Some(Ok(Message::Text(t))) => meter.check(t.len()),
                    Some(Ok(Message::Binary(b))) => meter.check(b.len()),
                    Some(Ok(_)) => continue,
                };
                if let Err((status, sentence)) = checked {
                    let m = json!({"error": sentence, "status": status});
                    let _ = send(&mut sink, Utf8Bytes::from(m.to_string())).await;
                    break;
                }
            }
        }
    }
    if app.lobby.unregister(person.as_deref()) {
        if let Some(p) = person {
            owner_left(&app, p);
        }
    }
}

/// Sends one text within the write timeout; false when the client is gone or too slow.
async fn send(
    sink: &mut futures_util::stream::SplitSink<WebSocket, Message>,
    text: Utf8Bytes,
) -> bool {
    matches!(
        tokio::time::timeout(crate::ws::WRITE_TIMEOUT, sink.send(Message::Text(text))).await,
        Ok(Ok(()))
    )
}

/// The last lobby websocket of `person` on this process closed: unless it comes back (or is
/// connected to another process, which keeps stamping its seeks), its live seeks go.
fn owner_left(app: &Arc<App>, person: String) {
    let app = Arc::downgrade(app);
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(CLOSE_GRACE_MS as u64)).await;
        let Some(app) = app.upgrade() else { return };
        if app.lobby.connected(&person) {
            return;
        }
        match db::drop_live_of(&app.store, &person, now_ms() - CLOSE_GRACE_MS).await {
            Ok(ids) => app.lobby.removed(&ids),
            Err(e) => log(&format!("the lobby cannot drop a player's seeks: {e}")),
        }
    });
}
