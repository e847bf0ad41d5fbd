//! The database: SQLite (embedded, WAL) or PostgreSQL, behind one small set of queries.
//!
//! A game is a row of `games` plus its events, one row of `events` each, unique by
//! `(game_id, version)`; the state of a game is its events replayed. Seats are rows of
//! `seats` keyed by the SHA-256 of their token (the token itself is never stored).

use sqlx::postgres::{PgListener, PgPool, PgPoolOptions};
use sqlx::sqlite::SqliteSynchronous;
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions};
use sqlx::Row;
use std::path::Path;
use std::str::FromStr;
use std::time::Duration;

/// The channel events are announced on (PostgreSQL `NOTIFY`).
pub const CHANNEL: &str = "menagerie_events";

/// The schema, one statement per entry; every statement can run again harmlessly.
const MIGRATIONS: &[&str] = &[
    "CREATE TABLE IF NOT EXISTS games (
        id TEXT PRIMARY KEY,
        variant TEXT NOT NULL,
        rules TEXT NOT NULL,
        start_fen TEXT,
        white TEXT NOT NULL,
        black TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL,
        finished BOOLEAN NOT NULL DEFAULT FALSE
    )",
    "CREATE TABLE IF NOT EXISTS events (
        game_id TEXT NOT NULL REFERENCES games(id),
        version BIGINT NOT NULL,
        data TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        PRIMARY KEY (game_id, version)
    )",
    "CREATE TABLE IF NOT EXISTS seats (
        token_hash TEXT PRIMARY KEY,
        game_id TEXT NOT NULL REFERENCES games(id),
        seat TEXT NOT NULL
    )",
    "CREATE INDEX IF NOT EXISTS games_updated ON games (updated_at)",
    "CREATE TABLE IF NOT EXISTS clocks (
        game_id TEXT PRIMARY KEY REFERENCES games(id),
        initial_ms BIGINT NOT NULL,
        increment_ms BIGINT NOT NULL
    )",
    "CREATE INDEX IF NOT EXISTS seats_game ON seats (game_id)",
    // People (issue 29): accounts, who owns each seat, and the invitations to seats.
    "CREATE TABLE IF NOT EXISTS accounts (
        id TEXT PRIMARY KEY,
        name TEXT,
        name_key TEXT UNIQUE,
        password_hash TEXT,
        created_at BIGINT NOT NULL,
        deleted BOOLEAN NOT NULL DEFAULT FALSE,
        session_epoch BIGINT NOT NULL DEFAULT 0
    )",
    "CREATE TABLE IF NOT EXISTS seat_owners (
        game_id TEXT NOT NULL REFERENCES games(id),
        seat TEXT NOT NULL,
        account_id TEXT,
        anon_id TEXT,
        PRIMARY KEY (game_id, seat)
    )",
    "CREATE INDEX IF NOT EXISTS seat_owners_account ON seat_owners (account_id)",
    "CREATE INDEX IF NOT EXISTS seat_owners_anon ON seat_owners (anon_id)",
    "CREATE TABLE IF NOT EXISTS invites (
        code_hash TEXT PRIMARY KEY,
        game_id TEXT NOT NULL REFERENCES games(id),
        seat TEXT NOT NULL,
        taken BOOLEAN NOT NULL DEFAULT FALSE
    )",
    "CREATE INDEX IF NOT EXISTS invites_game ON invites (game_id)",
    // Chat (issue 32 item 6): each game's two rooms, numbered from 1 in each; `person` is
    // who answers for a message (an account, a browser session or a seat), for the rate.
    "CREATE TABLE IF NOT EXISTS chat (
        game_id TEXT NOT NULL REFERENCES games(id),
        room TEXT NOT NULL,
        seq BIGINT NOT NULL,
        person TEXT NOT NULL,
        color TEXT,
        name TEXT,
        text TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        PRIMARY KEY (game_id, room, seq)
    )",
    "CREATE INDEX IF NOT EXISTS chat_person ON chat (person, created_at)",
    // The lobby (issue 32): open seeks and quick pairings (each a JSON entry, `lobby/`), the
    // challenges between players, and each server process's heartbeat with its online count.
    "CREATE TABLE IF NOT EXISTS seeks (
        id TEXT PRIMARY KEY,
        owner TEXT NOT NULL,
        data TEXT NOT NULL,
        pairing BOOLEAN NOT NULL,
        correspondence BOOLEAN NOT NULL,
        created_at BIGINT NOT NULL,
        seen_at BIGINT NOT NULL
    )",
    "CREATE INDEX IF NOT EXISTS seeks_owner ON seeks (owner)",
    "CREATE TABLE IF NOT EXISTS challenges (
        id TEXT PRIMARY KEY,
        from_account TEXT NOT NULL,
        to_account TEXT NOT NULL,
        data TEXT NOT NULL,
        status TEXT NOT NULL,
        reason TEXT,
        game_id TEXT,
        created_at BIGINT NOT NULL,
        expires_at BIGINT NOT NULL
    )",
    "CREATE INDEX IF NOT EXISTS challenges_to ON challenges (to_account, status)",
    "CREATE INDEX IF NOT EXISTS challenges_from ON challenges (from_account, status)",
    "CREATE TABLE IF NOT EXISTS lobby_processes (
        id TEXT PRIMARY KEY,
        online BIGINT NOT NULL,
        beat_at BIGINT NOT NULL
    )",
];

/// Columns added to existing tables after their creation: `(table, column, type)`. Each is
/// added when missing, so a database of an earlier version is brought up to date.
const ADDED_COLUMNS: &[(&str, &str, &str)] = &[
    // A game's summary for lists (issue 29): kept by every append.
    ("games", "turns", "BIGINT NOT NULL DEFAULT 0"),
    ("games", "to_move", "TEXT"),
    ("games", "result", "TEXT"),
    ("games", "termination", "TEXT"),
    ("games", "sentence", "TEXT"),
    ("games", "winner", "TEXT"),
    // Rated games (issue 33): rated at their end (`ratings.rs`).
    ("games", "rated", "INTEGER NOT NULL DEFAULT 0"),
    // Correspondence (issue 32 item 4): days per turn, and when the side to move's time runs
    // out (kept by every append, so a restarted server finds the games to end).
    ("games", "days_per_turn", "INTEGER"),
    ("games", "deadline_at", "BIGINT"),
    // The lobby's count of people over processes (a person on two counts once) and the
    // address that opened each seek (a limit per address).
    ("lobby_processes", "strangers", "BIGINT"),
    ("lobby_processes", "people", "TEXT"),
    ("seeks", "address", "TEXT"),
];

/// What lists show of a game, as it stands after an append.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Whether the game has ended.
    pub finished: bool,
    /// Turns played.
    pub turns: i64,
    /// The side to move (`white`, `black`).
    pub to_move: String,
    /// `1-0`, `0-1`, `1/2-1/2` once over.
    pub result: Option<String>,
    /// How it ended (the outcome's code).
    pub termination: Option<String>,
    /// How it ended, in one sentence.
    pub sentence: Option<String>,
    /// The winner (`white`, `black`), if any.
    pub winner: Option<String>,
    /// A correspondence game in progress: when the side to move's time runs out (Unix ms).
    pub deadline_at: Option<i64>,
}

/// A game's fixed facts.
#[derive(Clone, Debug)]
pub struct GameRow {
    /// The game id.
    pub id: String,
    /// The variant id.
    pub variant: String,
    /// The rule options as a JSON object.
    pub rules: String,
    /// The start position string, when not the variant's start.
    pub start_fen: Option<String>,
    /// White's player: `human`, `engine:N`.
    pub white: String,
    /// Black's player.
    pub black: String,
    /// Unix milliseconds.
    pub created_at: i64,
    /// Unix milliseconds of the last event.
    pub updated_at: i64,
    /// Whether the game has ended.
    pub finished: bool,
    /// What lists show of it (turns, result), as of its last event.
    pub summary: Summary,
    /// Whether the game is rated (issue 33): its players' ratings change at its end.
    pub rated: bool,
    /// Days per turn of a correspondence game.
    pub days_per_turn: Option<i64>,
}

/// Why events could not be appended.
#[derive(Debug)]
pub enum AppendError {
    /// Another writer added an event with the same version first.
    Conflict,
    /// The database failed; the sentence says how.
    Db(String),
}

/// The database.
#[derive(Clone, Debug)]
pub enum Store {
    /// An embedded SQLite file.
    Sqlite(SqlitePool),
    /// A PostgreSQL server.
    Postgres(PgPool),
}

/// Turns `?` placeholders into PostgreSQL's `$n`.
fn pg(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len() + 8);
    let mut n = 0;
    for c in sql.chars() {
        if c == '?' {
            n += 1;
            out.push('$');
            out.push_str(&n.to_string());
        } else {
            out.push(c);
        }
    }
    out
}

/// The test seam for database faults: when the environment variable `MENAGERIE_FAULT_FILE`
/// names a file and that file exists, every write fails midway through its transaction (which
/// is then rolled back), as a full disk or a lost connection would. Unset, it costs nothing.
fn injected_fault() -> Option<String> {
    static FILE: std::sync::OnceLock<Option<std::path::PathBuf>> = std::sync::OnceLock::new();
    let file = FILE.get_or_init(|| std::env::var_os("MENAGERIE_FAULT_FILE").map(Into::into));
    match file {
        Some(f) if f.exists() => {
            Some("the database failed: a fault injected for testing (MENAGERIE_FAULT_FILE)".into())
        }
        _ => None,
    }
}

/// A database error as a sentence (counted in the metrics).
pub(crate) fn db_err(e: sqlx::Error) -> String {
    crate::metrics::database_error();
    format!("the database failed: {e}")
}

/// Unix time in milliseconds.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

/// Runs `$body` with `$pool` bound to whichever pool the store has (the queries are the same
/// text on both, through [`Store::query_text`]).
#[macro_export]
#[doc(hidden)]
macro_rules! both {
    ($self:expr, $pool:ident => $body:expr) => {
        match $self {
            Store::Sqlite($pool) => $body,
            Store::Postgres($pool) => $body,
        }
    };
}

/// The columns of `games` a [`GameRow`] is read from, named (never `SELECT *`: SQLite's
/// prepared statements keep the column count they were made with, and a column added by a
/// migration would not be in it).
pub const GAME_COLUMNS: &str = "id, variant, rules, start_fen, white, black, created_at, \
updated_at, finished, turns, to_move, result, termination, sentence, winner, rated, days_per_turn, deadline_at";

/// The same, each prefixed by `g.` (a query joining `games g` with other tables).
pub const G_GAME_COLUMNS: &str = "g.id, g.variant, g.rules, g.start_fen, g.white, g.black, \
g.created_at, g.updated_at, g.finished, g.turns, g.to_move, g.result, g.termination, g.sentence, g.winner, \
g.rated, g.days_per_turn, g.deadline_at";

/// Reads a [`GameRow`] from a row holding [`GAME_COLUMNS`].
#[macro_export]
#[doc(hidden)]
macro_rules! game_row {
    ($r:expr) => {
        (|| -> Result<GameRow, sqlx::Error> {
            Ok(GameRow {
                id: $r.try_get("id")?,
                variant: $r.try_get("variant")?,
                rules: $r.try_get("rules")?,
                start_fen: $r.try_get("start_fen")?,
                white: $r.try_get("white")?,
                black: $r.try_get("black")?,
                created_at: $r.try_get("created_at")?,
                updated_at: $r.try_get("updated_at")?,
                finished: $r.try_get("finished")?,
                summary: $crate::store::Summary {
                    finished: $r.try_get("finished")?,
                    turns: $r.try_get("turns")?,
                    to_move: $r
                        .try_get::<Option<String>, _>("to_move")?
                        .unwrap_or_default(),
                    result: $r.try_get("result")?,
                    termination: $r.try_get("termination")?,
                    sentence: $r.try_get("sentence")?,
                    winner: $r.try_get("winner")?,
                    deadline_at: $r.try_get("deadline_at")?,
                },
                rated: $r.try_get::<i32, _>("rated")? != 0,
                days_per_turn: $r
                    .try_get::<Option<i32>, _>("days_per_turn")?
                    .map(i64::from),
            })
        })()
    };
}

impl Store {
    /// Opens the database at `url` (`postgres://...`, `sqlite://FILE`, or a file path) and
    /// runs the migrations.
    pub async fn open(url: &str) -> Result<Store, String> {
        let store = if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            let pool = PgPoolOptions::new()
                .max_connections(16)
                .acquire_timeout(Duration::from_secs(10))
                .connect(url)
                .await
                .map_err(|e| format!("cannot connect to PostgreSQL: {e}"))?;
            Store::Postgres(pool)
        } else {
            let path = url.strip_prefix("sqlite://").unwrap_or(url);
            let path = path.strip_prefix("sqlite:").unwrap_or(path);
            if let Some(dir) = Path::new(path).parent() {
                if !dir.as_os_str().is_empty() {
                    std::fs::create_dir_all(dir)
                        .map_err(|e| format!("cannot create the folder {}: {e}", dir.display()))?;
                }
            }
            let opts = SqliteConnectOptions::from_str(&format!("sqlite://{path}"))
                .map_err(|e| format!("bad SQLite path '{path}': {e}"))?
                .create_if_missing(true)
                .journal_mode(SqliteJournalMode::Wal)
                // WAL with NORMAL: a commit is in the database file's log before the turn
                // is acknowledged, so a killed process loses nothing (the kill -9 tests);
                // only a power cut can lose the last commits. FULL would add one disk flush
                // per turn (10 ms here), capping the whole server near 90 turns/s.
                .synchronous(SqliteSynchronous::Normal)
                .foreign_keys(true)
                .busy_timeout(Duration::from_secs(10));
            let pool = SqlitePoolOptions::new()
                .max_connections(8)
                .connect_with(opts)
                .await
                .map_err(|e| format!("cannot open the SQLite database {path}: {e}"))?;
            Store::Sqlite(pool)
        };
        // Processes starting together on one PostgreSQL take turns at the schema: two
        // concurrent `CREATE TABLE IF NOT EXISTS` can both try to create the same type.
        let lock = match &store {
            Store::Postgres(p) => {
                let mut conn = p
                    .acquire()
                    .await
                    .map_err(|e| format!("cannot connect to PostgreSQL: {e}"))?;
                sqlx::query("SELECT pg_advisory_lock(7265431)")
                    .execute(&mut *conn)
                    .await
                    .map_err(|e| format!("the schema migration failed: {e}"))?;
                Some(conn)
            }
            Store::Sqlite(_) => None,
        };
        let migrated = async {
            store.migrate().await?;
            crate::accounts::Sessions::new(&store).migrate().await
        }
        .await;
        if let Some(mut conn) = lock {
            let _ = sqlx::query("SELECT pg_advisory_unlock(7265431)")
                .execute(&mut *conn)
                .await;
        }
        migrated?;
        Ok(store)
    }

    /// Whether the database answers a trivial query (`GET /healthz`).
    pub async fn ping(&self) -> Result<(), String> {
        both!(self, p => sqlx::query("SELECT 1").execute(p).await.map(|_| ()).map_err(db_err))
    }

    /// Closes the database's connections: every later query fails (a test's outage).
    pub async fn close(&self) {
        both!(self, p => p.close().await)
    }

    /// Whether several processes may share this database (PostgreSQL).
    pub fn is_shared(&self) -> bool {
        matches!(self, Store::Postgres(_))
    }

    async fn migrate(&self) -> Result<(), String> {
        for m in MIGRATIONS {
            both!(self, p => sqlx::query(m).execute(p).await.map(|_| ()))
                .map_err(|e| format!("the schema migration failed: {e}"))?;
        }
        for (table, column, kind) in ADDED_COLUMNS {
            let fail = |e: sqlx::Error| format!("the schema migration failed: {e}");
            match self {
                Store::Postgres(p) => {
                    let q = format!("ALTER TABLE {table} ADD COLUMN IF NOT EXISTS {column} {kind}");
                    sqlx::query(&q).execute(p).await.map_err(fail)?;
                }
                Store::Sqlite(p) => {
                    let q = format!("SELECT COUNT(*) AS n FROM pragma_table_info('{table}') WHERE name = '{column}'");
                    let n: i64 = sqlx::query(&q)
                        .fetch_one(p)
                        .await
                        .and_then(|r| r.try_get("n"))
                        .map_err(fail)?;
                    if n == 0 {
                        let q = format!("ALTER TABLE {table} ADD COLUMN {column} {kind}");
                        // Two processes may race here; the loser's "duplicate column" is harmless.
                        if let Err(e) = sqlx::query(&q).execute(p).await {
                            if !e.to_string().contains("duplicate column") {
                                return Err(fail(e));
                            }
                        }
                    }
                }
            }
        }
        crate::ratings::migrate(self).await
    }

    /// The SQL text for this database (`?` placeholders become `$n` on PostgreSQL).
    pub fn query_text(&self, s: &str) -> String {
        self.sql(s)
    }

    fn sql(&self, s: &str) -> String {
        match self {
            Store::Sqlite(_) => s.to_string(),
            Store::Postgres(_) => pg(s),
        }
    }

    /// Creates a game with its seats.
    pub async fn create_game(&self, g: &GameRow, seats: &[(String, String)]) -> Result<(), String> {
        self.create_game_with_clock(g, seats, None).await
    }

    /// Creates a game with its seats and its clock `(initial_ms, increment_ms)`, if any.
    pub async fn create_game_with_clock(
        &self,
        g: &GameRow,
        seats: &[(String, String)],
        clock: Option<(i64, i64)>,
    ) -> Result<(), String> {
        self.create_game_full(g, seats, clock, &[], &[]).await
    }

    /// Creates a game in one transaction: its row, its seats' token hashes `(hash, seat)`,
    /// its clock, who owns which seat `(seat, account id, anonymous id)` and its invitations
    /// `(code hash, seat)`.
    pub async fn create_game_full(
        &self,
        g: &GameRow,
        seats: &[(String, String)],
        clock: Option<(i64, i64)>,
        owners: &[(String, Option<String>, Option<String>)],
        invites: &[(String, String)],
    ) -> Result<(), String> {
        let insert_owner = self.sql(
            "INSERT INTO seat_owners (game_id, seat, account_id, anon_id) VALUES (?, ?, ?, ?)",
        );
        let insert_invite =
            self.sql("INSERT INTO invites (code_hash, game_id, seat, taken) VALUES (?, ?, ?, ?)");
        let insert_clock =
            self.sql("INSERT INTO clocks (game_id, initial_ms, increment_ms) VALUES (?, ?, ?)");
        let insert_game = self.sql(
            "INSERT INTO games (id, variant, rules, start_fen, white, black, created_at, updated_at, finished, to_move, rated, days_per_turn, deadline_at)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        );
        let insert_seat =
            self.sql("INSERT INTO seats (token_hash, game_id, seat) VALUES (?, ?, ?)");
        both!(self, p => {
            let mut tx = p.begin().await.map_err(db_err)?;
            sqlx::query(&insert_game)
                .bind(&g.id).bind(&g.variant).bind(&g.rules).bind(&g.start_fen)
                .bind(&g.white).bind(&g.black).bind(g.created_at).bind(g.updated_at).bind(g.finished)
                .bind(&g.summary.to_move)
                .bind(i32::from(g.rated))
                .bind(g.days_per_turn.and_then(|d| i32::try_from(d).ok()))
                .bind(g.summary.deadline_at)
                .execute(&mut *tx).await.map_err(db_err)?;
            if let Some(e) = injected_fault() {
                return Err(e);
            }
            for (hash, seat) in seats {
                sqlx::query(&insert_seat).bind(hash).bind(&g.id).bind(seat)
                    .execute(&mut *tx).await.map_err(db_err)?;
            }
            if let Some((initial, increment)) = clock {
                sqlx::query(&insert_clock).bind(&g.id).bind(initial).bind(increment)
                    .execute(&mut *tx).await.map_err(db_err)?;
            }
            for (seat, account, anon) in owners {
                sqlx::query(&insert_owner).bind(&g.id).bind(seat).bind(account).bind(anon)
                    .execute(&mut *tx).await.map_err(db_err)?;
            }
            for (hash, seat) in invites {
                sqlx::query(&insert_invite).bind(hash).bind(&g.id).bind(seat).bind(false)
                    .execute(&mut *tx).await.map_err(db_err)?;
            }
            tx.commit().await.map_err(db_err)
        })
    }

    /// The game `id`, if it exists.
    pub async fn game(&self, id: &str) -> Result<Option<GameRow>, String> {
        let q = self.sql(&format!("SELECT {GAME_COLUMNS} FROM games WHERE id = ?"));
        both!(self, p => {
            let row = sqlx::query(&q).bind(id).fetch_optional(p).await.map_err(db_err)?;
            row.map(|r| game_row!(r)).transpose().map_err(db_err)
        })
    }

    /// The most recently active games, newest first.
    pub async fn recent(&self, limit: i64) -> Result<Vec<GameRow>, String> {
        let q = self.sql(&format!(
            "SELECT {GAME_COLUMNS} FROM games ORDER BY updated_at DESC LIMIT ?"
        ));
        both!(self, p => {
            let rows = sqlx::query(&q).bind(limit).fetch_all(p).await.map_err(db_err)?;
            rows.iter().map(|r| game_row!(r)).collect::<Result<Vec<_>, _>>().map_err(db_err)
        })
    }

    /// The clock of game `id`: `(initial_ms, increment_ms)`, if it has one.
    pub async fn clock(&self, id: &str) -> Result<Option<(i64, i64)>, String> {
        let q = self.sql("SELECT initial_ms, increment_ms FROM clocks WHERE game_id = ?");
        both!(self, p => {
            let row = sqlx::query(&q).bind(id).fetch_optional(p).await.map_err(db_err)?;
            row.map(|r| Ok((r.try_get::<i64, _>("initial_ms")?, r.try_get::<i64, _>("increment_ms")?)))
                .transpose()
                .map_err(|e: sqlx::Error| db_err(e))
        })
    }

    /// The ids of the games not finished that have a clock (their flags must fall even
    /// when nobody asks).
    pub async fn unfinished_with_clock(&self) -> Result<Vec<String>, String> {
        let q = "SELECT games.id AS id FROM games JOIN clocks ON clocks.game_id = games.id WHERE games.finished = FALSE";
        both!(self, p => {
            let rows = sqlx::query(q).fetch_all(p).await.map_err(db_err)?;
            rows.iter().map(|r| r.try_get::<String, _>("id")).collect::<Result<Vec<_>, _>>().map_err(db_err)
        })
    }

    /// The ids of the games not finished that have an engine seat.
    pub async fn unfinished_with_engine(&self) -> Result<Vec<String>, String> {
        let q = "SELECT id FROM games WHERE finished = FALSE AND (white LIKE 'engine%' OR black LIKE 'engine%')";
        both!(self, p => {
            let rows = sqlx::query(q).fetch_all(p).await.map_err(db_err)?;
            rows.iter().map(|r| r.try_get::<String, _>("id")).collect::<Result<Vec<_>, _>>().map_err(db_err)
        })
    }

    /// The events of game `id` after version `since`, in order: `(version, data)`.
    pub async fn events(&self, id: &str, since: i64) -> Result<Vec<(i64, String)>, String> {
        let q = self.sql(
            "SELECT version, data FROM events WHERE game_id = ? AND version > ? ORDER BY version",
        );
        both!(self, p => {
            let rows = sqlx::query(&q).bind(id).bind(since).fetch_all(p).await.map_err(db_err)?;
            rows.iter()
                .map(|r| Ok((r.try_get::<i64, _>("version")?, r.try_get::<String, _>("data")?)))
                .collect::<Result<Vec<_>, sqlx::Error>>()
                .map_err(db_err)
        })
    }

    /// Appends `events` to game `id` as versions `first`, `first + 1`, ... in one
    /// transaction; `summary` is the game as it stands after them (for the lists). (On
    /// PostgreSQL the caller announces them afterwards: `cluster.rs`.)
    pub async fn append(
        &self,
        id: &str,
        first: i64,
        events: &[String],
        summary: &Summary,
    ) -> Result<(), AppendError> {
        let finished = summary.finished;
        let now = now_ms();
        let conflict = |e: sqlx::Error| match &e {
            sqlx::Error::Database(d) if d.is_unique_violation() => AppendError::Conflict,
            _ => AppendError::Db(db_err(e)),
        };
        let dberr = |e: sqlx::Error| AppendError::Db(db_err(e));
        match self {
            Store::Sqlite(p) => {
                let mut tx = p.begin().await.map_err(dberr)?;
                for (i, data) in events.iter().enumerate() {
                    sqlx::query(
                        "INSERT INTO events (game_id, version, data, created_at) VALUES (?, ?, ?, ?)",
                    )
                        .bind(id)
                        .bind(first + i as i64)
                        .bind(data)
                        .bind(now)
                        .execute(&mut *tx)
                        .await
                        .map_err(conflict)?;
                    if let Some(e) = injected_fault() {
                        return Err(AppendError::Db(e));
                    }
                }
                sqlx::query("UPDATE games SET updated_at = ?, finished = ?, turns = ?, to_move = ?, result = ?, termination = ?, sentence = ?, winner = ?, deadline_at = ? WHERE id = ?")
                    .bind(now)
                    .bind(finished)
                    .bind(summary.turns)
                    .bind(&summary.to_move)
                    .bind(&summary.result)
                    .bind(&summary.termination)
                    .bind(&summary.sentence)
                    .bind(&summary.winner)
                    .bind(summary.deadline_at)
                    .bind(id)
                    .execute(&mut *tx)
                    .await
                    .map_err(dberr)?;
                tx.commit().await.map_err(dberr)
            }
            Store::Postgres(p) => {
                if let Some(e) = injected_fault() {
                    return Err(AppendError::Db(e));
                }
                // One statement, so one round trip and its own transaction: the events and
                // the game's row together or not at all. No NOTIFY here: PostgreSQL holds a
                // cluster-wide lock from a notifying commit until it is flushed, which
                // serialised every turn; the announcement follows the commit, batched
                // (`cluster.rs`).
                sqlx::query(
                    "WITH ins AS (INSERT INTO events (game_id, version, data, created_at) \
                     SELECT $1, $2 + t.o - 1, t.d, $4 FROM unnest($3::text[]) WITH ORDINALITY AS t(d, o)) \
                     UPDATE games SET updated_at = $4, finished = $5, turns = $6, to_move = $7, \
                     result = $8, termination = $9, sentence = $10, winner = $11, deadline_at = $12 WHERE id = $1",
                )
                .bind(id)
                .bind(first)
                .bind(events)
                .bind(now)
                .bind(finished)
                .bind(summary.turns)
                .bind(&summary.to_move)
                .bind(&summary.result)
                .bind(&summary.termination)
                .bind(&summary.sentence)
                .bind(&summary.winner)
                .bind(summary.deadline_at)
                .execute(p)
                .await
                .map_err(conflict)?;
                Ok(())
            }
        }
    }

    /// The game and seat (`white`, `black`, `umpire`) a token hash opens.
    pub async fn seat(&self, token_hash: &str) -> Result<Option<(String, String)>, String> {
        let q = self.sql("SELECT game_id, seat FROM seats WHERE token_hash = ?");
        both!(self, p => {
            let row = sqlx::query(&q).bind(token_hash).fetch_optional(p).await.map_err(db_err)?;
            row.map(|r| Ok((r.try_get::<String, _>("game_id")?, r.try_get::<String, _>("seat")?)))
                .transpose()
                .map_err(|e: sqlx::Error| db_err(e))
        })
    }

    /// A listener for event announcements (PostgreSQL only).
    pub async fn listener(&self) -> Result<Option<PgListener>, String> {
        match self {
            Store::Sqlite(_) => Ok(None),
            Store::Postgres(p) => {
                let mut l = PgListener::connect_with(p)
                    .await
                    .map_err(|e| format!("cannot listen on PostgreSQL: {e}"))?;
                l.listen_all([CHANNEL, crate::lobby::LOBBY_CHANNEL])
                    .await
                    .map_err(|e| format!("cannot listen on PostgreSQL: {e}"))?;
                Ok(Some(l))
            }
        }
    }
}
