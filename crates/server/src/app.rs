//! The server's state: the games in memory (each its events replayed), the commit path every
//! turn takes (database first, then memory, then the websockets), and the engine pool.

use crate::games::{self, color_word, parse_color, Game, Viewer};
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
    /// The engine at a level (1..=10).
    Engine(u32),
}

impl Player {
    /// Reads `human`, `engine` or `engine:LEVEL`.
    pub fn parse(text: &str) -> Result<Player, ApiError> {
        match text {
            "human" => Ok(Player::Human),
            "engine" => Ok(Player::Engine(3)),
            other => match other.strip_prefix("engine:").map(str::parse::<u32>) {
                Some(Ok(n)) => match menagerie_variants::level_limits(n) {
                    Ok(_) => Ok(Player::Engine(n)),
                    Err(why) => Err(ApiError::bad(format!("\"{other}\": {why}"))),
                },
                _ => Err(ApiError::bad(format!(
                    "a player is \"human\", \"engine\" or \"engine:LEVEL\" with LEVEL from 1 to 8, not \"{other}\""
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
        match kind {
            "turn" => {
                let text = ev["canonical"].as_str().unwrap_or("");
                self.game
                    .push(text)
                    .map_err(|e| format!("stored turn '{text}' cannot be replayed: {e}"))?;
                self.draw_offer = None;
                self.takeback_request = None;
            }
            "end" => {
                if ev["by"].as_str() != Some("board") {
                    let code = ev["code"].as_str().unwrap_or("rule");
                    let winner = ev["winner"].as_str().and_then(parse_color);
                    self.ended = Some(games::external_outcome(code, winner));
                }
                self.draw_offer = None;
                self.takeback_request = None;
            }
            "draw-offer" => self.draw_offer = color,
            "draw-decline" => self.draw_offer = None,
            "takeback-request" => self.takeback_request = color,
            "takeback-decline" => self.takeback_request = None,
            "takeback" => {
                let plies = ev["plies"].as_u64().unwrap_or(0);
                for _ in 0..plies {
                    self.game.pop();
                }
                self.takeback_request = None;
                self.draw_offer = None;
            }
            _ => {}
        }
        self.events.push(ev.clone());
        Ok(())
    }

    /// The event as `viewer` may see it.
    pub fn project(&self, ev: &Value, viewer: Viewer) -> Value {
        if ev["type"] != "turn" {
            return ev.clone();
        }
        let (c, h) = games::event_seen(ev, viewer);
        json!({"type": "turn", "color": ev["color"], "ply": ev["ply"], "canonical": c, "human": h})
    }

    /// The game as `viewer` may see it (Contract 3's state JSON).
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
            "claims": if may_move && outcome.is_none() { games::claims(g) } else { Vec::new() },
            "clock": null,
        })
    }
}

/// One game's handle: its state behind a lock, and the channel announcing new versions.
pub struct Handle {
    /// The state.
    pub live: Mutex<Live>,
    /// New versions, for the websockets.
    pub tx: broadcast::Sender<i64>,
}

/// The whole server.
pub struct App {
    /// The database.
    pub store: Store,
    games: StdMutex<HashMap<String, Arc<Handle>>>,
    /// Engine jobs that may search at once.
    pub engine_slots: Arc<Semaphore>,
    /// Analysis requests that may search at once.
    pub analysis_slots: Arc<Semaphore>,
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
}

impl App {
    /// A server on `store` with `engine_threads` engine searches at once.
    pub fn new(store: Store, engine_threads: usize) -> Arc<App> {
        Arc::new(App {
            store,
            games: StdMutex::new(HashMap::new()),
            engine_slots: Arc::new(Semaphore::new(engine_threads.max(1))),
            analysis_slots: Arc::new(Semaphore::new(engine_threads.max(1))),
        })
    }

    fn cached(&self, id: &str) -> Option<Arc<Handle>> {
        self.games.lock().ok()?.get(id).cloned()
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
        };
        let events = self
            .store
            .events(id, 0)
            .await
            .map_err(ApiError::unavailable)?;
        for (_, data) in events {
            let ev: Value = serde_json::from_str(&data)
                .map_err(|e| ApiError::new(500, format!("a stored event is corrupt: {e}")))?;
            live.apply(&ev).map_err(|e| ApiError::new(500, e))?;
        }
        let (tx, _) = broadcast::channel(256);
        let handle = Arc::new(Handle {
            live: Mutex::new(live),
            tx,
        });
        let mut map = self
            .games
            .lock()
            .map_err(|_| ApiError::new(500, "the game table is poisoned"))?;
        Ok(map.entry(id.to_string()).or_insert(handle).clone())
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
            let _ = h.tx.send(live.version());
        }
        Ok(())
    }

    /// An announcement from another process that game `id` has new events.
    pub async fn remote_event(self: &Arc<Self>, id: &str) {
        if let Some(h) = self.cached(id) {
            let mut live = h.live.lock().await;
            if let Err(e) = self.sync(&h, &mut live).await {
                eprintln!("menagerie serve: cannot catch up game {id}: {}", e.message);
            }
        }
    }

    /// Creates a game; returns its id and the tokens of its human seats and its umpire.
    pub async fn create(
        self: &Arc<Self>,
        new: NewGame,
    ) -> Result<(String, Vec<(Color, String)>, String), ApiError> {
        let rules = games::rule_options(&new.rules)?;
        let variant = games::variant_id(&new.variant)?;
        let game = games::open(variant, new.fen.as_deref(), &rules)?;
        let start_fen = new.fen.as_ref().map(|_| game.start_fen());
        let id = random_id()?;
        let mut seats = Vec::new();
        let mut tokens = Vec::new();
        for c in Color::BOTH {
            if new.players[c.index()] == Player::Human {
                let t = random_hex()?;
                seats.push((token_hash(&t), color_word(c).to_string()));
                tokens.push((c, t));
            }
        }
        let umpire = random_hex()?;
        seats.push((token_hash(&umpire), "umpire".to_string()));
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
        };
        self.store
            .create_game(&row, &seats)
            .await
            .map_err(ApiError::unavailable)?;
        drop(game);
        let h = self.handle(&id).await?;
        {
            let mut live = h.live.lock().await;
            self.maybe_engine(&h, &mut live);
        }
        Ok((id, tokens, umpire))
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
        let datas: Vec<String> = events.iter().map(|e| e.to_string()).collect();
        // The state after these events, for the `finished` flag.
        let finishes = live.outcome().is_some() || events.iter().any(|e| e["type"] == "end");
        match self
            .store
            .append(&live.row.id, first, &datas, finishes)
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
        for ev in &events {
            if let Err(e) = live.apply(ev) {
                eprintln!("menagerie serve: game {}: {e}", live.row.id);
            }
        }
        let _ = h.tx.send(live.version());
        self.maybe_engine(h, live);
        Ok(())
    }

    /// Plays a turn for `mover`: checks, commits and returns when it is stored.
    pub async fn play_turn(
        self: &Arc<Self>,
        h: &Arc<Handle>,
        live: &mut Live,
        mover: Color,
        text: &str,
    ) -> Result<(), ApiError> {
        if let Some(o) = live.outcome() {
            return Err(ApiError::conflict(format!("the game is over: {o}")));
        }
        if live.game.turn() != mover {
            return Err(ApiError::conflict(format!(
                "it is not your turn: {} is to move",
                live.game.turn()
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
        let app = self.clone();
        let h = h.clone();
        tokio::spawn(async move {
            let chosen = app.think(game, level).await;
            let mut live = h.live.lock().await;
            live.thinking = false;
            match chosen {
                Some(text) if live.version() == version => {
                    if let Err(e) = app.play_turn(&h, &mut live, mover, &text).await {
                        eprintln!(
                            "menagerie serve: game {}: the engine's turn {text} was not played: {}",
                            live.row.id, e.message
                        );
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
    async fn think(&self, game: Game, level: u32) -> Option<String> {
        let _permit = self.engine_slots.clone().acquire_owned().await.ok()?;
        let limits = games::level_limits(level);
        let job = tokio::task::spawn_blocking(move || {
            std::panic::catch_unwind(AssertUnwindSafe(|| {
                games::search(game.as_ref(), &limits, None, &mut |_| {})
            }))
        });
        match job.await {
            Ok(Ok(found)) => found.map(|(c, _)| c),
            Ok(Err(_)) | Err(_) => {
                eprintln!("menagerie serve: an engine search panicked; the game waits");
                None
            }
        }
    }

    /// Loads every unfinished game with an engine seat and resumes its engine's thinking.
    pub async fn resume_engines(self: &Arc<Self>) {
        let ids = match self.store.unfinished_with_engine().await {
            Ok(ids) => ids,
            Err(e) => {
                eprintln!("menagerie serve: cannot list unfinished games: {e}");
                return;
            }
        };
        for id in ids {
            match self.handle(&id).await {
                Ok(h) => {
                    let mut live = h.live.lock().await;
                    self.maybe_engine(&h, &mut live);
                }
                Err(e) => eprintln!("menagerie serve: cannot load game {id}: {}", e.message),
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
