//! The server's state: the games in memory (each its events replayed), the commit path every
//! turn takes (database first, then memory, then the websockets), and the engine pool.

use crate::clock::{Clock, ClockSpec};
use crate::games::{self, color_word, parse_color, Game, Viewer};
use crate::log;
use crate::store::{now_ms, AppendError, GameRow, Store};
use menagerie_core::{Color, Outcome, RuleOptions};
use serde_json::{json, Value};
use std::collections::{BTreeMap, HashMap};
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex as StdMutex};
use tokio::sync::{broadcast, Mutex, Semaphore};

/// An error answered as `{"error": SENTENCE}` with an HTTP status.
#[derive(Debug)]
pub struct ApiError {
    /// The HTTP status code.
    pub status: u16,
    /// One sentence saying what is wrong.
    pub message: String,
}

impl ApiError {
    /// An error with `status`.
    pub fn new(status: u16, message: impl Into<String>) -> Self {
        ApiError {
            status,
            message: message.into(),
        }
    }
    /// 400.
    pub fn bad(message: impl Into<String>) -> Self {
        Self::new(400, message)
    }
    /// 403.
    pub fn forbidden(message: impl Into<String>) -> Self {
        Self::new(403, message)
    }
    /// 404.
    pub fn not_found(message: impl Into<String>) -> Self {
        Self::new(404, message)
    }
    /// 409.
    pub fn conflict(message: impl Into<String>) -> Self {
        Self::new(409, message)
    }
    /// 503: the database failed.
    pub fn unavailable(message: impl Into<String>) -> Self {
        Self::new(503, message)
    }
}

impl From<games::GameError> for ApiError {
    fn from(e: games::GameError) -> Self {
        match e {
            games::GameError::UnknownVariant(s) => ApiError::bad(s),
            games::GameError::Bad(s) => ApiError::bad(s),
        }
    }
}

/// Who plays a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    /// A person with the seat's token.
    Human,
    /// The engine at a level (one of [`games::LEVELS`]).
    Engine(u32),
}

impl Player {
    /// Reads `human`, `engine` or `engine:LEVEL`.
    pub fn parse(text: &str) -> Result<Player, ApiError> {
        match text {
            "human" => Ok(Player::Human),
            "engine" => Ok(Player::Engine(3)),
            other => match other.strip_prefix("engine:").map(str::parse::<u32>) {
                Some(Ok(n)) if games::level_exists(n) => Ok(Player::Engine(n)),
                _ => Err(ApiError::bad(format!(
                    "a player is \"human\", \"engine\" or \"engine:LEVEL\" with LEVEL from {} to {}, not \"{}\"",
                    games::LEVELS.start(),
                    games::LEVELS.end(),
                    other.chars().take(40).collect::<String>()
                ))),
            },
        }
    }
    /// The text form.
    pub fn text(self) -> String {
        match self {
            Player::Human => "human".into(),
            Player::Engine(n) => format!("engine:{n}"),
        }
    }
}

/// A seat as the game page shows it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SeatInfo {
    /// Whether a person has taken it (always, for an engine's seat).
    pub taken: bool,
    /// The name of its account (`deleted` once deleted); `None` for anonymous people and
    /// engines.
    pub name: Option<String>,
    /// The account's id (never shown): to rename the seat when the account is deleted.
    pub account: Option<String>,
}

/// A game in memory: its facts, the umpire's game and its events.
pub struct Live {
    /// The fixed facts.
    pub row: GameRow,
    /// The rule options.
    pub rules: RuleOptions,
    /// White's and Black's players.
    pub players: [Player; 2],
    /// The umpire's game (everything, secrets included).
    pub game: Game,
    /// The events in umpire form; event `i` has version `i + 1`.
    pub events: Vec<Value>,
    /// An ending from outside the board (resignation, agreement, claim).
    pub ended: Option<Outcome>,
    /// The side offering a draw.
    pub draw_offer: Option<Color>,
    /// The side asking to take back.
    pub takeback_request: Option<Color>,
    /// Whether an engine search is running for this game.
    pub thinking: bool,
    /// The clock, if the game has one.
    pub clock: Option<Clock>,
    /// The side that offered a rematch.
    pub rematch_offer: Option<Color>,
    /// White's and Black's seats as people see them: taken or not, and by whom.
    pub seats: [SeatInfo; 2],
    /// Whether someone holds the umpire's key (the players are told so).
    pub umpire_key: bool,
    /// The rematch's game id, once it has started.
    pub rematch: Option<String>,
    /// A rated game's rating change once it has ended and been rated (`ratings.rs`).
    pub rating_change: Option<crate::ratings::Settled>,
    /// The timer that ends the game when the running side's flag falls.
    flag_task: Option<tokio::task::AbortHandle>,
    /// Whether White's and Black's players are at the table, as `presence.rs` last said.
    pub presence: [crate::presence::SeatPresence; 2],
    /// When the side to move's turn began (Unix ms; the load time for events stored
    /// without a time).
    pub turn_since: i64,
    /// Who played each turn so far, in order (a takeback removes the last ones).
    pub movers: Vec<Color>,
    /// The absence after which the present player may claim (`--absence-seconds`).
    pub absence_ms: i64,
    /// A correspondence game's days per turn and when the current turn began.
    pub corr: Option<Corr>,
}

/// A correspondence game's time (issue 32 item 4): days per turn, counted from the last turn
/// (from the game's creation for the first), so it is rebuilt from the events after a restart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Corr {
    /// Days per turn (one of [`crate::lobby::DAYS`]).
    pub days: u32,
    /// The length of a day in milliseconds (a day, except in tests: `--day-ms`).
    pub day_ms: i64,
    /// When the side to move's turn began (Unix ms).
    pub since: i64,
}

impl Corr {
    /// When the side to move's time runs out (Unix ms).
    pub fn deadline(&self) -> i64 {
        self.since
            .saturating_add(i64::from(self.days).saturating_mul(self.day_ms))
    }
}

impl Live {
    /// The number of events so far.
    pub fn version(&self) -> i64 {
        self.events.len() as i64
    }
    /// The ending, if the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        self.ended.clone().or_else(|| self.game.outcome())
    }
    /// The player of `c`.
    pub fn player(&self, c: Color) -> Player {
        self.players[c.index()]
    }

    /// Applies one event (umpire form) to the game in memory.
    fn apply(&mut self, ev: &Value) -> Result<(), String> {
        let kind = ev["type"].as_str().unwrap_or("");
        let color = ev["color"].as_str().and_then(parse_color);
        let at = ev["at"].as_i64().unwrap_or(0);
        match kind {
            "turn" => {
                let text = ev["canonical"].as_str().unwrap_or("");
                self.game
                    .push(text)
                    .map_err(|e| format!("stored turn '{text}' cannot be replayed: {e}"))?;
                if let Some(c) = color {
                    self.movers.push(c);
                }
                self.turn_since = ev["at"].as_i64().unwrap_or_else(now_ms);
                self.draw_offer = None;
                self.takeback_request = None;
                if let (Some(clock), Some(mover)) = (&mut self.clock, color) {
                    clock.turn(mover, at, Some(self.game.turn()));
                }
                if let Some(c) = &mut self.corr {
                    c.since = c.since.max(at);
                }
            }
            "end" => {
                if let Some(clock) = &mut self.clock {
                    match ev["winner"].as_str().and_then(parse_color) {
                        Some(w) if ev["by"] == "time" => clock.flag(w.other(), at),
                        _ => clock.switch(at, None),
                    }
                }
                if ev["by"].as_str() != Some("board") {
                    let code = ev["code"].as_str().unwrap_or("rule");
                    let winner = ev["winner"].as_str().and_then(parse_color);
                    self.ended = Some(games::external_outcome(self.game.as_ref(), code, winner));
                }
                self.draw_offer = None;
                self.takeback_request = None;
            }
            "claim" => {
                let code = ev["code"].as_str().unwrap_or("");
                let by = color.ok_or_else(|| format!("stored claim '{code}' names no player"))?;
                self.game
                    .claim_by(by, code)
                    .map_err(|e| format!("stored claim '{code}' cannot be replayed: {e}"))?;
            }
            "rematch-offer" => self.rematch_offer = color,
            "joined" => {
                if let Some(c) = color {
                    self.seats[c.index()].taken = true;
                    self.seats[c.index()].name = ev["name"].as_str().map(str::to_string);
                }
            }
            "rematch" => self.rematch = ev["game"].as_str().map(str::to_string),
            "draw-offer" => self.draw_offer = color,
            "draw-decline" => self.draw_offer = None,
            "takeback-request" => self.takeback_request = color,
            "takeback-decline" => self.takeback_request = None,
            "takeback" => {
                let plies = ev["plies"].as_u64().unwrap_or(0);
                for _ in 0..plies {
                    self.game.pop();
                    self.movers.pop();
                }
                self.turn_since = ev["at"].as_i64().unwrap_or_else(now_ms);
                self.takeback_request = None;
                self.draw_offer = None;
                if let Some(c) = &mut self.corr {
                    c.since = c.since.max(at);
                }
                if let Some(clock) = &mut self.clock {
                    // Back at the start the first turn is untimed again.
                    let next = (self.game.ply() > 0).then(|| self.game.turn());
                    clock.switch(at, next);
                }
            }
            _ => {}
        }
        self.events.push(ev.clone());
        Ok(())
    }

    /// What the lists show of the game once `events` are applied (the game in memory is
    /// changed only after they are stored, so this plays them on a copy when they move it).
    pub fn summary_after(&self, events: &[Value]) -> crate::store::Summary {
        let moves = events
            .iter()
            .any(|e| matches!(e["type"].as_str(), Some("turn" | "takeback")));
        let (turns, to_move) = if moves {
            let mut g = self.game.fork();
            for ev in events {
                match ev["type"].as_str() {
                    Some("turn") => {
                        let _ = g.push(ev["canonical"].as_str().unwrap_or(""));
                    }
                    Some("takeback") => {
                        for _ in 0..ev["plies"].as_u64().unwrap_or(0) {
                            g.pop();
                        }
                    }
                    _ => {}
                }
            }
            (g.ply(), g.turn())
        } else {
            (self.game.ply(), self.game.turn())
        };
        let end = events.iter().rev().find(|e| e["type"] == "end");
        let mut s = crate::store::Summary {
            finished: false,
            turns: turns as i64,
            to_move: color_word(to_move).to_string(),
            ..Default::default()
        };
        let text = |v: &Value| v.as_str().map(str::to_string);
        if let Some(end) = end {
            s.finished = true;
            s.result = text(&end["result"]);
            s.termination = text(&end["code"]);
            s.sentence = text(&end["sentence"]);
            s.winner = text(&end["winner"]);
        } else if let Some(o) = self.outcome() {
            let j = games::outcome_json(&o);
            s.finished = true;
            s.result = text(&j["result"]);
            s.termination = text(&j["code"]);
            s.sentence = text(&j["sentence"]);
            s.winner = text(&j["winner"]);
        }
        s
    }

    /// The event as `viewer` may see it (no event carries a seat token).
    pub fn project(&self, ev: &Value, viewer: Viewer) -> Value {
        if ev["type"] != "turn" {
            let mut ev = ev.clone();
            if let Some(o) = ev.as_object_mut() {
                o.remove("at");
                o.remove("seat_hash");
            }
            if ev["type"] == "rematch" {
                ev["url"] = json!(self.rematch_url(viewer));
            }
            return ev;
        }
        let (c, h) = games::event_seen(ev, viewer);
        json!({"type": "turn", "color": ev["color"], "ply": ev["ply"], "canonical": c, "human": h})
    }

    /// The link by which a player takes its own seat in this game's rematch (a fresh token
    /// is made for whoever holds this game's seat when it is opened); none for others.
    fn rematch_url(&self, viewer: Viewer) -> Option<String> {
        match viewer {
            Viewer::Player(_) => Some(format!("/game/{}/rematch", self.row.id)),
            _ => None,
        }
    }

    /// Whether both players have made a turn (then the game can no longer be aborted).
    pub fn both_moved(&self) -> bool {
        Color::BOTH.iter().all(|c| self.movers.contains(c))
    }

    /// Whether a player may abort the game now: it is not over and not both have moved.
    pub fn abortable(&self) -> bool {
        self.outcome().is_none() && !self.both_moved()
    }

    /// Whether the game is played by correspondence (days per turn), where nobody need stay
    /// at the table (so no claim on absence).
    pub fn correspondence(&self) -> bool {
        self.corr.is_some()
    }

    /// Whether each side is at the table: a person with a socket open, an engine always.
    pub fn connected(&self) -> [bool; 2] {
        [0, 1].map(|i| matches!(self.players[i], Player::Engine(_)) || self.presence[i].connected)
    }

    /// The side to move when it is away in a live game between two people that both have
    /// moved in, with the milliseconds until its opponent may claim (0: now). The absence
    /// counts from the later of its departure and the start of its turn.
    pub fn absence(&self, now: i64) -> Option<(Color, i64)> {
        if self.outcome().is_some()
            || !self.both_moved()
            || self.correspondence()
            || self.players != [Player::Human, Player::Human]
        {
            return None;
        }
        let mover = self.game.turn();
        let p = self.presence[mover.index()];
        if p.connected {
            return None;
        }
        let since = p.gone_since.unwrap_or(self.turn_since).max(self.turn_since);
        Some((mover, (since + self.absence_ms - now).max(0)))
    }

    /// The presence as the state and the `presence` message carry it:
    /// `{"connected": {"white", "black"}, "absence": null | {"color", "claim_in_ms"}}`.
    pub fn presence_json(&self) -> Value {
        let [w, b] = self.connected();
        let absence = self
            .absence(now_ms())
            .map(|(c, ms)| json!({"color": color_word(c), "claim_in_ms": ms}));
        json!({"connected": {"white": w, "black": b}, "absence": absence})
    }

    /// The seats as the page shows them: `{"white": {"player", "name", "taken"}, ...}`.
    pub fn seats_json(&self) -> Value {
        let one = |c: Color| {
            let s = &self.seats[c.index()];
            json!({"player": self.players[c.index()].text(), "name": s.name, "taken": s.taken})
        };
        json!({"white": one(Color::White), "black": one(Color::Black)})
    }

    /// The game as `viewer` may see it (Contract 3's state JSON; it carries no seat token).
    pub fn state(&self, viewer: Viewer) -> Value {
        let g = self.game.as_ref();
        let moves = games::moves_seen(g, viewer);
        let view = games::view_position(g, viewer, &self.rules);
        let outcome = self.outcome();
        let may_move = match viewer {
            Viewer::Player(c) => c == g.turn(),
            Viewer::Umpire => true,
            Viewer::Spectator => false,
        };
        let legal = if outcome.is_none() && may_move {
            games::legal_json(view.as_ref())
        } else {
            Vec::new()
        };
        let rules: BTreeMap<String, Value> =
            serde_json::from_str(&self.row.rules).unwrap_or_default();
        let presence = self.presence_json();
        json!({
            "id": self.row.id,
            "variant": self.row.variant,
            "rules": rules,
            "fen": games::view_fen(g, viewer),
            "turn": color_word(g.turn()),
            "moves": moves.iter().map(|(c, h)| json!({"canonical": c, "human": h})).collect::<Vec<_>>(),
            "legal": legal,
            "board": games::snapshot_json(view.as_ref()),
            "outcome": outcome.as_ref().map(games::outcome_json),
            "version": self.version(),
            "players": {"white": self.players[0].text(), "black": self.players[1].text()},
            "you": viewer.word(),
            "draw_offer": self.draw_offer.map(color_word),
            "takeback_request": self.takeback_request.map(color_word),
            "claims": if outcome.is_none() { games::claims_json(&games::claims(g, viewer)) } else { Vec::new() },
            "clock": self.clock.as_ref().map(|c| c.json(now_ms())),
            "rematch_offer": self.rematch_offer.map(color_word),
            "rematch": self.rematch.as_ref().map(|g| json!({"game": g, "url": self.rematch_url(viewer)})),
            "seats": self.seats_json(),
            "umpire_key": self.umpire_key,
            "rated": self.row.rated,
            "rating_change": self.rating_change.as_ref().and_then(crate::ratings::Settled::change_json),
            "unrated_because": self.rating_change.as_ref().and_then(crate::ratings::Settled::unrated_because),
            "abortable": self.abortable(),
            "connected": presence["connected"],
            "absence": presence["absence"],
            "correspondence": self.corr.map(|c| json!({
                "days_per_turn": c.days,
                "deadline_ms": if outcome.is_none() { json!(c.deadline()) } else { Value::Null },
            })),
        })
    }
}

/// What reaches a game's websockets besides its events (no version): a `presence` message
/// for everyone, a `chat` message for its room. Each is the message's JSON text.
#[derive(Clone, Debug)]
pub enum Side {
    /// `{"presence": ...}`.
    Presence(Arc<str>),
    /// `{"chat": ...}`, for the sockets of this room.
    Chat(crate::chat::Room, Arc<str>),
}

/// One game's handle: its state behind a lock, and the channel announcing new versions.
pub struct Handle {
    /// The state.
    pub live: Mutex<Live>,
    /// New versions, for the websockets.
    pub tx: broadcast::Sender<i64>,
    /// Presence and chat messages, for the websockets.
    pub side: broadcast::Sender<Side>,
    /// When a request last asked for this game (Unix milliseconds).
    touched: std::sync::atomic::AtomicI64,
}

/// How long a game nobody watches stays in memory after its last request.
pub const IDLE_EVICTION: std::time::Duration = std::time::Duration::from_secs(600);

/// The whole server.
pub struct App {
    /// The database.
    pub store: Store,
    games: StdMutex<HashMap<String, Arc<Handle>>>,
    /// The engine pool: people's games first, round robin by address (engine_pool.rs).
    pub engine_pool: Arc<crate::engine_pool::Pool>,
    /// Analysis requests that may search at once.
    pub analysis_slots: Arc<Semaphore>,
    /// The limits per client.
    pub limits: Arc<crate::limits::Limits>,
    /// The sessions' store (the same database).
    pub sessions: crate::accounts::Sessions,
    /// The address people reach the server at (`--public-url`), if given: records' `Site`,
    /// the origin checks.
    pub public_url: Option<String>,
    /// Whether cookies are marked `Secure` (the public address is HTTPS).
    pub secure_cookies: bool,
    /// Announcements to the other processes and the seats looked up (`cluster.rs`).
    pub cluster: crate::cluster::Cluster,
    /// Who is at which table (`presence.rs`).
    pub presence: crate::presence::Presence,
    /// The lobby: seeks, quick pairing, challenges, bots, notices (`lobby/`).
    pub lobby: crate::lobby::Lobby,
}

/// SHA-256 of a token, in hex.
pub fn token_hash(token: &str) -> String {
    use sha2::{Digest, Sha256};
    let d = Sha256::digest(token.as_bytes());
    d.iter().map(|b| format!("{b:02x}")).collect()
}

/// 128 random bits in hex.
pub fn random_hex() -> Result<String, ApiError> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes)
        .map_err(|e| ApiError::unavailable(format!("no randomness available: {e}")))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// A short random game id (64 bits, base 62-ish hex).
pub fn random_id() -> Result<String, ApiError> {
    let mut bytes = [0u8; 6];
    getrandom::fill(&mut bytes)
        .map_err(|e| ApiError::unavailable(format!("no randomness available: {e}")))?;
    const ALPHABET: &[u8] = b"abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
    Ok(bytes
        .iter()
        .flat_map(|b| [b % 57, (b / 57) % 57])
        .map(|i| ALPHABET[i as usize] as char)
        .collect())
}

/// Parameters of a new game.
pub struct NewGame {
    /// The variant id.
    pub variant: String,
    /// The start position, when not the variant's start.
    pub fen: Option<String>,
    /// The rule options as given.
    pub rules: BTreeMap<String, Value>,
    /// White's and Black's players.
    pub players: [Player; 2],
    /// The clock, if any (checked).
    pub clock: Option<ClockSpec>,
    /// Who gets which key.
    pub seating: Seating,
    /// Who owns White's and Black's seats from the start (the creator's seat; a rematch's
    /// players).
    pub owners: [Option<crate::accounts::Owner>; 2],
    /// The address that asks for it (counted against its limits).
    pub client: Option<std::net::IpAddr>,
    /// Whether the game is rated (stored and rated by the ratings feature, issue 33).
    pub rated: bool,
    /// Days per turn of a correspondence game (one of [`crate::lobby::DAYS`]); `None`: not
    /// correspondence.
    pub days_per_turn: Option<u32>,
}

/// Who receives which key of a new game (issue 29: no key in the wrong hands).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seating {
    /// Every human seat's token and the umpire's, to the creator: two players at one
    /// screen, tools and tests (a request without `"as"`).
    All,
    /// The creator takes this seat only: an invitation for the other human seat, no umpire.
    As(Color),
    /// The creator takes no seat (an organiser, an arbiter): an invitation for each human
    /// seat, and the umpire's token.
    Organiser,
    /// Tokens for these seats only (a rematch: the caller's), no invitation, no umpire.
    Tokens([bool; 2]),
}

/// The keys of a new game, each for the creator to hand on as it should.
#[derive(Debug, Default)]
pub struct Created {
    /// The game's id.
    pub id: String,
    /// The seat tokens the creator receives.
    pub tokens: Vec<(Color, String)>,
    /// The umpire's token, when the creator receives it.
    pub umpire: Option<String>,
    /// Invitation codes for seats still to be taken.
    pub invites: Vec<(Color, String)>,
}

impl App {
    /// A server on `store` with `engine_threads` engine searches at once.
    pub fn new(store: Store, engine_threads: usize) -> Arc<App> {
        Self::with_public_url(store, engine_threads, None)
    }

    /// A server reached at `public_url` (cookies `Secure` when it is HTTPS).
    pub fn with_public_url(
        store: Store,
        engine_threads: usize,
        public_url: Option<String>,
    ) -> Arc<App> {
        let public_url = public_url.map(|u| u.trim_end_matches('/').to_string());
        Arc::new(App {
            sessions: crate::accounts::Sessions::new(&store),
            secure_cookies: public_url
                .as_deref()
                .is_some_and(|u| u.starts_with("https://")),
            public_url,
            store,
            games: StdMutex::new(HashMap::new()),
            engine_pool: crate::engine_pool::Pool::new(engine_threads),
            analysis_slots: Arc::new(Semaphore::new(engine_threads.max(1))),
            limits: Arc::new(crate::limits::Limits::default()),
            cluster: Default::default(),
            presence: Default::default(),
            lobby: crate::lobby::Lobby::new(),
        })
    }

    fn cached(&self, id: &str) -> Option<Arc<Handle>> {
        let h = self.games.lock().ok()?.get(id).cloned()?;
        h.touched.store(now_ms(), Ordering::Relaxed);
        Some(h)
    }

    /// The game `id` if this process holds it in memory (nothing is read).
    pub fn cached_handle(&self, id: &str) -> Option<Arc<Handle>> {
        self.cached(id)
    }

    /// Reads the presence of both seats of the game in memory into it.
    pub fn refresh_presence(&self, live: &mut Live) {
        for c in Color::BOTH {
            live.presence[c.index()] = self.presence.seat(&live.row.id, c);
        }
    }

    /// The presence of game `id` changed: if this process holds it, its sockets are told.
    pub async fn presence_changed(&self, id: &str) {
        let Some(h) = self.cached(id) else { return };
        let mut live = h.live.lock().await;
        self.refresh_presence(&mut live);
        let line = json!({"presence": live.presence_json()}).to_string();
        let _ = h.side.send(Side::Presence(line.into()));
    }

    /// How many games are in memory.
    pub fn cached_count(&self) -> usize {
        self.games.lock().map_or(0, |m| m.len())
    }

    /// An account was deleted: the games in memory name its seats `deleted`, as the
    /// database now does.
    pub async fn account_deleted(&self, account: &str) {
        let handles: Vec<Arc<Handle>> = match self.games.lock() {
            Ok(map) => map.values().cloned().collect(),
            Err(_) => return,
        };
        for h in handles {
            let mut live = h.live.lock().await;
            for seat in &mut live.seats {
                if seat.account.as_deref() == Some(account) {
                    seat.name = Some("deleted".to_string());
                }
            }
        }
    }

    /// A new account took over its browser's anonymous seats: the games in memory show its
    /// name on them.
    pub async fn account_named(&self, account: &str, name: &str) {
        let seats = match self.store.account_seats(account).await {
            Ok(s) => s,
            Err(e) => {
                log(&format!("cannot read a new account's seats: {e}"));
                return;
            }
        };
        for (game, seat) in seats {
            let (Some(h), Some(c)) = (self.cached(&game), games::parse_color(&seat)) else {
                continue;
            };
            let mut live = h.live.lock().await;
            live.seats[c.index()].name = Some(name.to_string());
            live.seats[c.index()].account = Some(account.to_string());
        }
    }

    /// Drops from memory the games no request, websocket or engine holds that are over or
    /// were last asked for more than `idle` ago (a running clock keeps its game: its flag
    /// must fall); they are read again from the database on demand. Returns how many.
    pub fn evict_idle(&self, idle: std::time::Duration) -> usize {
        let Ok(mut map) = self.games.lock() else {
            return 0;
        };
        let before = map.len();
        let cutoff = now_ms() - i64::try_from(idle.as_millis()).unwrap_or(i64::MAX);
        map.retain(|_, h| {
            // Only the table holds it: no request, websocket or engine task is using it.
            if Arc::strong_count(h) > 1 {
                return true;
            }
            let Ok(live) = h.live.try_lock() else {
                return true;
            };
            let over = live.outcome().is_some();
            let clock_runs = live.clock.as_ref().is_some_and(|c| c.running().is_some());
            let idle = h.touched.load(Ordering::Relaxed) <= cutoff;
            live.thinking || !(over || idle && !clock_runs)
        });
        before - map.len()
    }

    /// The game `id` as this process holds it, without first reading what other processes
    /// added (loaded from the database when not in memory): for a turn, whose append fails on
    /// a stale version and whose refusal is checked again after reading (`play_turn`), so that
    /// a turn is one round trip.
    pub async fn handle_for_turn(self: &Arc<Self>, id: &str) -> Result<Arc<Handle>, ApiError> {
        match self.cached(id) {
            Some(h) => Ok(h),
            None => self.handle(id).await,
        }
    }

    /// The game `id`, loaded from the database when not in memory.
    pub async fn handle(self: &Arc<Self>, id: &str) -> Result<Arc<Handle>, ApiError> {
        if let Some(h) = self.cached(id) {
            if self.store.is_shared() {
                let mut live = h.live.lock().await;
                self.sync(&h, &mut live).await?;
            }
            return Ok(h);
        }
        let row = self
            .store
            .game(id)
            .await
            .map_err(ApiError::unavailable)?
            .ok_or_else(|| ApiError::not_found(format!("there is no game '{id}'")))?;
        let rules_map: BTreeMap<String, Value> =
            serde_json::from_str(&row.rules).unwrap_or_default();
        let rules = games::rule_options(&rules_map)?;
        let game = games::open(&row.variant, row.start_fen.as_deref(), &rules)?;
        let players = [Player::parse(&row.white)?, Player::parse(&row.black)?];
        let mut live = Live {
            row,
            rules,
            players,
            game,
            events: Vec::new(),
            ended: None,
            draw_offer: None,
            takeback_request: None,
            thinking: false,
            clock: None,
            flag_task: None,
            rematch_offer: None,
            rematch: None,
            rating_change: None,
            seats: Default::default(),
            umpire_key: false,
            presence: Default::default(),
            turn_since: now_ms(),
            movers: Vec::new(),
            absence_ms: self.presence.absence_ms(),
            corr: None,
        };
        self.refresh_presence(&mut live);
        live.corr = live.row.days_per_turn.map(|d| Corr {
            days: u32::try_from(d).unwrap_or(1),
            day_ms: self.lobby.day_ms(),
            since: live.row.created_at,
        });
        let (seats, umpire_key) = self
            .store
            .seat_info(id)
            .await
            .map_err(ApiError::unavailable)?;
        for c in Color::BOTH {
            live.seats[c.index()] = if matches!(live.players[c.index()], Player::Engine(_)) {
                SeatInfo {
                    taken: true,
                    ..SeatInfo::default()
                }
            } else {
                seats[c.index()].clone()
            };
        }
        live.umpire_key = umpire_key;
        if let Some((initial_ms, increment_ms)) =
            self.store.clock(id).await.map_err(ApiError::unavailable)?
        {
            live.clock = Some(Clock::new(ClockSpec {
                initial_ms,
                increment_ms,
            }));
        }
        let events = self
            .store
            .events(id, 0)
            .await
            .map_err(ApiError::unavailable)?;
        if live.row.rated && live.row.finished {
            live.rating_change = self
                .store
                .rating_change(id)
                .await
                .map_err(ApiError::unavailable)?;
        }
        // Replaying a long game is CPU work: on a blocking thread, never the runtime's.
        let live = tokio::task::spawn_blocking(move || -> Result<Live, ApiError> {
            for (_, data) in events {
                let ev: Value = serde_json::from_str(&data)
                    .map_err(|e| ApiError::new(500, format!("a stored event is corrupt: {e}")))?;
                live.apply(&ev).map_err(|e| ApiError::new(500, e))?;
            }
            Ok(live)
        })
        .await
        .map_err(|_| ApiError::new(500, "replaying the game failed inside the server"))??;
        let (tx, _) = broadcast::channel(256);
        let (side, _) = broadcast::channel(256);
        let handle = Arc::new(Handle {
            live: Mutex::new(live),
            tx,
            side,
            touched: std::sync::atomic::AtomicI64::new(now_ms()),
        });
        let h = {
            let mut map = self
                .games
                .lock()
                .map_err(|_| ApiError::new(500, "the game table is poisoned"))?;
            map.entry(id.to_string()).or_insert(handle).clone()
        };
        {
            let mut live = h.live.lock().await;
            if live.flag_task.is_none() {
                self.schedule_flag(&h, &mut live);
            }
        }
        Ok(h)
    }

    /// Arms the timer that ends the game when the running side's flag falls (at once if it
    /// fell while nobody was looking, or while the server was down).
    fn schedule_flag(self: &Arc<Self>, h: &Arc<Handle>, live: &mut Live) {
        if let Some(t) = live.flag_task.take() {
            t.abort();
        }
        if live.outcome().is_some() {
            return;
        }
        let corr = live.corr.map(|c| (live.game.turn(), c.deadline()));
        let Some((side, at)) = live.clock.as_ref().and_then(Clock::flag_at).or(corr) else {
            return;
        };
        let version = live.version();
        let weak = Arc::downgrade(h);
        let app = self.clone();
        let wait = u64::try_from(at - now_ms()).unwrap_or(0);
        let task = tokio::spawn(async move {
            tokio::time::sleep(std::time::Duration::from_millis(wait + 1)).await;
            let Some(h) = weak.upgrade() else {
                return;
            };
            let mut live = h.live.lock().await;
            if live.version() != version || live.outcome().is_some() {
                return;
            }
            // This task is done: the commit must not abort it.
            live.flag_task = None;
            if let Err(e) = app.flag(&h, &mut live, side).await {
                log(&format!(
                    "game {}: the flag fell but the game could not end: {}",
                    live.row.id, e.message
                ));
            }
        });
        live.flag_task = Some(task.abort_handle());
    }

    /// `side`'s flag fell: the game ends with the library's `forfeit_on_time`.
    pub async fn flag(
        self: &Arc<Self>,
        h: &Arc<Handle>,
        live: &mut Live,
        side: Color,
    ) -> Result<(), ApiError> {
        let mut trial = live.game.fork();
        trial
            .forfeit_on_time(side)
            .map_err(|e| ApiError::conflict(e.to_string()))?;
        let o = trial.outcome().unwrap_or_else(|| {
            games::external_outcome(live.game.as_ref(), "time-forfeit", Some(side.other()))
        });
        self.end(h, live, o, "time").await
    }

    /// Reads the events other processes added (PostgreSQL) and announces them.
    pub async fn sync(&self, h: &Handle, live: &mut Live) -> Result<(), ApiError> {
        let events = self
            .store
            .events(&live.row.id, live.version())
            .await
            .map_err(ApiError::unavailable)?;
        let mut changed = false;
        for (version, data) in events {
            if version != live.version() + 1 {
                break;
            }
            let ev: Value = serde_json::from_str(&data)
                .map_err(|e| ApiError::new(500, format!("a stored event is corrupt: {e}")))?;
            live.apply(&ev).map_err(|e| ApiError::new(500, e))?;
            changed = true;
        }
        if changed {
            if live.row.rated && live.rating_change.is_none() && live.outcome().is_some() {
                // Another process ended the game and rated it before announcing it.
                live.rating_change = self
                    .store
                    .rating_change(&live.row.id)
                    .await
                    .map_err(ApiError::unavailable)?;
            }
            let _ = h.tx.send(live.version());
        }
        Ok(())
    }

    /// An announcement that game `id` has events up to version `last` (from another process,
    /// or this one's own echo, which finds the game already there and reads nothing).
    pub async fn remote_event(self: &Arc<Self>, id: &str, last: i64) {
        if let Some(h) = self.cached(id) {
            let mut live = h.live.lock().await;
            if live.version() >= last {
                return;
            }
            if let Err(e) = self.sync(&h, &mut live).await {
                log(&format!("cannot catch up game {id}: {}", e.message));
            }
        }
    }

    /// Creates a game; returns the keys its creator receives (`new.seating` says which).
    pub async fn create(self: &Arc<Self>, new: NewGame) -> Result<Created, ApiError> {
        let rules = games::rule_options(&new.rules)?;
        let variant = games::variant_id(&new.variant)?;
        if let Some(d) = new.days_per_turn {
            if !crate::lobby::DAYS.contains(&d) {
                return Err(ApiError::bad(crate::lobby::days_sentence(d)));
            }
            if new.clock.is_some() {
                return Err(ApiError::bad(
                    "a game has a clock or days per turn (correspondence), not both",
                ));
            }
        }
        let game = games::open(variant, new.fen.as_deref(), &rules)?;
        let start_fen = new.fen.as_ref().map(|_| game.start_fen());
        let id = random_id()?;
        let mut seats = Vec::new();
        let mut created = Created {
            id: id.clone(),
            ..Created::default()
        };
        let mut invite_rows = Vec::new();
        for c in Color::BOTH {
            if new.players[c.index()] != Player::Human {
                continue;
            }
            let token_for_creator = match new.seating {
                Seating::All => true,
                Seating::As(me) => me == c,
                Seating::Organiser => false,
                Seating::Tokens(which) => which[c.index()],
            };
            let invite = match new.seating {
                Seating::As(me) => me != c,
                Seating::Organiser => true,
                Seating::All | Seating::Tokens(_) => false,
            };
            if token_for_creator {
                let t = random_hex()?;
                seats.push((token_hash(&t), color_word(c).to_string()));
                created.tokens.push((c, t));
            }
            if invite {
                let code = random_hex()?;
                invite_rows.push((token_hash(&code), color_word(c).to_string()));
                created.invites.push((c, code));
            }
        }
        if matches!(new.seating, Seating::All | Seating::Organiser) {
            let umpire = random_hex()?;
            seats.push((token_hash(&umpire), "umpire".to_string()));
            created.umpire = Some(umpire);
        }
        let owners: Vec<(String, Option<String>, Option<String>)> = Color::BOTH
            .iter()
            .filter_map(|c| {
                let o = new.owners[c.index()].as_ref()?;
                let (account, anon) = o.columns();
                Some((color_word(*c).to_string(), account, anon))
            })
            .collect();
        let now = now_ms();
        let row = GameRow {
            id: id.clone(),
            variant: variant.to_string(),
            rules: serde_json::to_string(&new.rules).unwrap_or_else(|_| "{}".into()),
            start_fen,
            white: new.players[0].text(),
            black: new.players[1].text(),
            created_at: now,
            updated_at: now,
            finished: false,
            summary: crate::store::Summary {
                to_move: color_word(game.turn()).to_string(),
                deadline_at: new
                    .days_per_turn
                    .map(|d| now + i64::from(d) * self.lobby.day_ms()),
                ..Default::default()
            },
            rated: new.rated,
            days_per_turn: new.days_per_turn.map(i64::from),
        };
        let clock = new.clock.map(|c| (c.initial_ms, c.increment_ms));
        self.store
            .create_game_full(&row, &seats, clock, &owners, &invite_rows)
            .await
            .map_err(ApiError::unavailable)?;
        self.limits.created(new.client, &id);
        drop(game);
        let h = self.handle(&id).await?;
        {
            let mut live = h.live.lock().await;
            self.maybe_engine(&h, &mut live);
        }
        Ok(created)
    }

    /// Commits `events` (umpire form) for the game: the database first, then memory, then
    /// the websockets. `undo` puts the game in memory back when the database refuses.
    pub async fn commit(
        self: &Arc<Self>,
        h: &Arc<Handle>,
        live: &mut Live,
        events: Vec<Value>,
    ) -> Result<(), ApiError> {
        let first = live.version() + 1;
        let mut events = events;
        // The clock is rebuilt from these times after a restart, and an absence counts from
        // the start of the absent side's turn.
        let now = now_ms();
        for ev in &mut events {
            ev["at"] = json!(now);
        }
        let datas: Vec<String> = events.iter().map(|e| e.to_string()).collect();
        // The game as it stands after these events, for the lists.
        let mut summary = live.summary_after(&events);
        let turned = events
            .iter()
            .any(|e| matches!(e["type"].as_str(), Some("turn" | "takeback")));
        summary.deadline_at = match live.corr {
            Some(c) if !summary.finished => Some(
                Corr {
                    since: if turned { now.max(c.since) } else { c.since },
                    ..c
                }
                .deadline(),
            ),
            _ => None,
        };
        let finishes = summary.finished;
        match self
            .store
            .append(&live.row.id, first, &datas, &summary)
            .await
        {
            Ok(()) => {}
            Err(AppendError::Conflict) => {
                self.sync(h, live).await?;
                return Err(ApiError::conflict(
                    "the game changed meanwhile (another turn was recorded first); reload it",
                ));
            }
            Err(AppendError::Db(e)) => {
                return Err(ApiError::unavailable(format!(
                    "the turn was not saved, so it was not played: {e}"
                )))
            }
        }
        if finishes {
            self.limits.finished(&live.row.id);
        }
        for ev in &events {
            if let Err(e) = live.apply(ev) {
                log(&format!("game {}: {e}", live.row.id));
            }
        }
        if finishes && live.row.rated && live.rating_change.is_none() {
            crate::ratings::die_here_if_asked();
            // Rated now, before anyone hears of the end; a crash before this is made good at
            // the next start (`ratings::settle_pending`), and never twice.
            let ending = crate::ratings::ending_of(live);
            live.rating_change = crate::ratings::settle(self, ending).await;
        }
        self.cluster
            .announce(&live.row.id, first + events.len() as i64 - 1);
        let _ = h.tx.send(live.version());
        if turned && live.corr.is_some() {
            self.lobby.your_turn(live);
        }
        self.schedule_flag(h, live);
        self.maybe_engine(h, live);
        Ok(())
    }

    /// Plays a turn for `mover`: checks, commits and returns when it is stored. Shared by
    /// several processes, the game in memory may miss a turn another process committed a
    /// moment ago (its announcement still on the way): a refusal is then checked again once
    /// the game has read what it missed.
    pub async fn play_turn(
        self: &Arc<Self>,
        h: &Arc<Handle>,
        live: &mut Live,
        mover: Color,
        text: &str,
    ) -> Result<(), ApiError> {
        // Before the attempt: an append that lost its version has already read the winner's.
        let before = live.version();
        match self.play_turn_once(h, live, mover, text).await {
            Err(e) if self.store.is_shared() && matches!(e.status, 400 | 409) => {
                self.sync(h, live).await?;
                if live.version() == before {
                    return Err(e);
                }
                self.play_turn_once(h, live, mover, text).await
            }
            done => done,
        }
    }

    /// One attempt at `play_turn` on the game as this process holds it.
    async fn play_turn_once(
        self: &Arc<Self>,
        h: &Arc<Handle>,
        live: &mut Live,
        mover: Color,
        text: &str,
    ) -> Result<(), ApiError> {
        if let Some(o) = live.outcome() {
            return Err(ApiError::conflict(format!(
                "the game is over: {}",
                games::describe(&o)
            )));
        }
        if live.game.turn() != mover {
            return Err(ApiError::conflict(format!(
                "it is not your turn: {} is to move",
                live.game.turn()
            )));
        }
        if live
            .clock
            .as_ref()
            .is_some_and(|c| c.running() == Some(mover) && c.left(mover, now_ms()) <= 0)
        {
            self.flag(h, live, mover).await?;
            return Err(ApiError::conflict(
                "your time ran out before this turn arrived; the game is over",
            ));
        }
        if let Some(c) = live.corr.filter(|c| c.deadline() <= now_ms()) {
            self.flag(h, live, mover).await?;
            return Err(ApiError::conflict(format!(
                "your {} days for this turn ran out before it arrived; the game is over",
                c.days
            )));
        }
        // Read and check the turn on a copy: the game in memory changes only once stored.
        let mut trial = live.game.fork();
        let (canonical, human) =
            games::play(trial.as_mut(), text, &live.rules).map_err(ApiError::bad)?;
        let ply = live.game.ply() + 1;
        let mut events = vec![json!({
            "type": "turn", "color": color_word(mover), "ply": ply,
            "canonical": canonical, "human": human,
            "seen": games::last_turn_seen(trial.as_ref()),
        })];
        if let Some(o) = trial.outcome() {
            let mut end = games::outcome_json(&o);
            end["type"] = json!("end");
            end["by"] = json!("board");
            events.push(end);
        }
        self.commit(h, live, events).await
    }

    /// `by` makes a rulebook claim that is not a turn (the fifty-round challenge): an event
    /// `{"type":"claim","color","code","sentence"}`, then `end` if it ends the game at once.
    pub async fn make_claim(
        self: &Arc<Self>,
        h: &Arc<Handle>,
        live: &mut Live,
        by: Color,
        claim: &menagerie_core::Claim,
    ) -> Result<(), ApiError> {
        let mut trial = live.game.fork();
        trial
            .claim_by(by, &claim.code)
            .map_err(|e| ApiError::bad(e.to_string()))?;
        let mut events = vec![json!({
            "type": "claim", "color": color_word(by), "code": claim.code, "sentence": claim.sentence,
        })];
        if let Some(o) = trial.outcome() {
            let mut end = games::outcome_json(&o);
            end["type"] = json!("end");
            end["by"] = json!("board");
            events.push(end);
        }
        self.commit(h, live, events).await
    }

    /// Ends the game from outside the board.
    pub async fn end(
        self: &Arc<Self>,
        h: &Arc<Handle>,
        live: &mut Live,
        outcome: Outcome,
        by: &str,
    ) -> Result<(), ApiError> {
        let mut end = games::outcome_json(&outcome);
        end["type"] = json!("end");
        end["by"] = json!(by);
        self.commit(h, live, vec![end]).await
    }

    /// Starts the engine's search when it is an engine's turn and none is running.
    pub fn maybe_engine(self: &Arc<Self>, h: &Arc<Handle>, live: &mut Live) {
        if live.thinking || live.outcome().is_some() {
            return;
        }
        let mover = live.game.turn();
        let Player::Engine(level) = live.player(mover) else {
            return;
        };
        live.thinking = true;
        let version = live.version();
        let game = live.game.fork();
        let budget = live
            .clock
            .as_ref()
            .and_then(|c| c.engine_budget_ms(mover, now_ms()));
        let class = if live.players.iter().all(|p| *p != Player::Human) {
            crate::engine_pool::Class::EngineOnly
        } else {
            crate::engine_pool::Class::People
        };
        let address = self.limits.creator(&live.row.id);
        let app = self.clone();
        let h = h.clone();
        tokio::spawn(async move {
            let chosen = app.think(game, level, budget, class, address).await;
            let mut live = h.live.lock().await;
            live.thinking = false;
            match chosen {
                Some(text) if live.version() == version => {
                    if let Err(e) = app.play_turn(&h, &mut live, mover, &text).await {
                        log(&format!(
                            "game {}: the engine's turn {text} was not played: {}",
                            live.row.id, e.message
                        ));
                    }
                }
                // The game moved on while the engine thought (a takeback, a resignation,
                // another process): think again from where it is now.
                Some(_) => app.maybe_engine(&h, &mut live),
                None => {}
            }
        });
    }

    /// Runs one engine search in the bounded pool, off the async runtime; `None` when the
    /// search finds no turn or panics (the panic is caught and logged).
    async fn think(
        &self,
        game: Game,
        level: u32,
        budget_ms: Option<u64>,
        class: crate::engine_pool::Class,
        address: Option<std::net::IpAddr>,
    ) -> Option<String> {
        let _slot = self.engine_pool.acquire(class, address).await?;
        let mut limits = games::level_limits(game.variant(), level);
        if let Some(ms) = budget_ms {
            // A clock: spend about a thirtieth of the time left, never more than the level.
            let budget = std::time::Duration::from_millis(ms);
            limits.movetime = Some(limits.movetime.map_or(budget, |t| t.min(budget)));
        }
        let job = tokio::task::spawn_blocking(move || {
            std::panic::catch_unwind(AssertUnwindSafe(|| {
                games::search(game.as_ref(), &limits, None, &mut |_| {})
            }))
        });
        match job.await {
            Ok(Ok(found)) => found.map(|(c, _)| c),
            Ok(Err(_)) | Err(_) => {
                log("an engine search panicked; the game waits");
                None
            }
        }
    }

    /// Loads every unfinished game with an engine seat and resumes its engine's thinking.
    pub async fn resume_engines(self: &Arc<Self>) {
        let ids = match self.store.unfinished_with_engine().await {
            Ok(ids) => ids,
            Err(e) => {
                log(&format!("cannot list unfinished games: {e}"));
                return;
            }
        };
        // Games with a clock are loaded so that their flags fall even if nobody asks.
        let clocked = self
            .store
            .unfinished_with_clock()
            .await
            .unwrap_or_else(|e| {
                log(&format!("cannot list the games with clocks: {e}"));
                Vec::new()
            });
        for id in ids.into_iter().chain(clocked) {
            match self.handle(&id).await {
                Ok(h) => {
                    let mut live = h.live.lock().await;
                    self.maybe_engine(&h, &mut live);
                }
                Err(e) => log(&format!("cannot load game {id}: {}", e.message)),
            }
        }
    }

    /// Runs an analysis search off the runtime, sending each line to `tx`; ends when the
    /// receiver is dropped (the client went away).
    pub fn analyse(
        self: &Arc<Self>,
        game: Game,
        limits: menagerie_variants::Limits,
        tx: tokio::sync::mpsc::Sender<Value>,
    ) {
        let slots = self.analysis_slots.clone();
        tokio::spawn(async move {
            let Ok(_permit) = slots.acquire_owned().await else {
                return;
            };
            let stop = Arc::new(AtomicBool::new(false));
            let stop2 = stop.clone();
            let tx2 = tx.clone();
            let job = tokio::task::spawn_blocking(move || {
                std::panic::catch_unwind(AssertUnwindSafe(|| {
                    let mut on_iter = |info: &menagerie_variants::SearchInfo| {
                        if tx2.blocking_send(games::info_json(info)).is_err() {
                            stop2.store(true, Ordering::Relaxed);
                        }
                    };
                    games::search(game.as_ref(), &limits, Some(stop2.clone()), &mut on_iter)
                }))
            });
            let line = match job.await {
                Ok(Ok(Some((c, h)))) => json!({"bestmove": {"canonical": c, "human": h}}),
                Ok(Ok(None)) => json!({"bestmove": null}),
                _ => json!({"error": "the search failed inside the engine"}),
            };
            let _ = tx.send(line).await;
            drop(stop);
        });
    }
}
