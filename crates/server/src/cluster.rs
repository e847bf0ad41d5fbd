//! Several processes on one PostgreSQL (`docs/deploy.md`): how each learns of the turns the
//! others commit, off the turn's own path.
//!
//! A turn is one statement (`Store::append`). Its announcement goes out afterwards: this
//! process's announcer batches the new versions and sends them as `NOTIFY`s in one
//! transaction on its own connection. PostgreSQL takes a cluster-wide lock for a notifying
//! transaction and holds it until that transaction's commit is flushed, so a `NOTIFY` inside
//! each turn's commit serialised every turn of every process behind one disk flush at a time
//! (p99 about a second at 500 games); batched, one flush carries every turn committed
//! meanwhile, and no turn waits for it. One listener per process wakes the games it holds,
//! which read what they missed by version. A poll every second catches what an announcement
//! never said (a process killed between its commit and its `NOTIFY`, a listener
//! reconnecting after PostgreSQL restarted).

use crate::app::App;
use crate::log;
use crate::store::{now_ms, Store, CHANNEL};
use sqlx::postgres::{PgConnection, PgListener, PgPool};
use sqlx::{Connection, Row};
use std::collections::HashMap;
use std::sync::{Arc, Mutex as StdMutex, OnceLock};
use std::time::Duration;
use tokio::sync::{mpsc, Notify};

/// How often a process asks PostgreSQL which games changed (the safety net under `NOTIFY`).
const POLL: Duration = Duration::from_secs(1);

/// How far back each poll looks before the previous one began: a game's `updated_at` is the
/// writer's clock before its commit, so a slow commit or another host's clock may date it a
/// little in the past.
const POLL_MARGIN_MS: i64 = 10_000;

/// How many seat lookups a process keeps (each about 150 bytes); past it the table starts again.
const SEAT_CACHE: usize = 50_000;

/// This process's part in a shared deployment: the announcer's queue and the seats it has
/// looked up. Inert on SQLite.
#[derive(Default)]
pub struct Cluster {
    /// The announcer's queue, once started (PostgreSQL only).
    announce: OnceLock<mpsc::UnboundedSender<(String, i64)>>,
    /// Seats by token hash: `(game, seat)`. A seat's row never changes once written, so a
    /// token looked up once need not be looked up again (one round trip less per turn).
    seats: StdMutex<HashMap<String, (String, String)>>,
    /// The last version each game is known to have reached (committed here, announced or
    /// polled), with when it was learnt (Unix ms): the poll wakes only the games nothing
    /// told of, and a process's own announcements echo back without waking anything.
    known: StdMutex<HashMap<String, (i64, i64)>>,
}

impl Cluster {
    /// Tells the other processes that game `id` has events up to `version` (after the commit;
    /// does nothing on SQLite).
    pub fn announce(&self, id: &str, version: i64) {
        if let Some(tx) = self.announce.get() {
            self.learn(id, version);
            let _ = tx.send((id.to_string(), version));
        }
    }

    /// Forgets the games learnt of before `ms` (Unix ms).
    fn forget_before(&self, ms: i64) {
        if let Ok(mut m) = self.known.lock() {
            m.retain(|_, (_, at)| *at >= ms);
        }
    }

    /// Records that game `id` reached `version`; true when that is news.
    fn learn(&self, id: &str, version: i64) -> bool {
        let Ok(mut m) = self.known.lock() else {
            return true;
        };
        match m.get_mut(id) {
            Some((v, _)) if *v >= version => false,
            Some(entry) => {
                *entry = (version, now_ms());
                true
            }
            None => {
                m.insert(id.to_string(), (version, now_ms()));
                true
            }
        }
    }
}

impl App {
    /// The game and seat (`white`, `black`, `umpire`) a token hash opens, from this process's
    /// table when it has looked the token up before.
    pub async fn seat(&self, token_hash: &str) -> Result<Option<(String, String)>, String> {
        if let Some(s) = self
            .cluster
            .seats
            .lock()
            .ok()
            .and_then(|m| m.get(token_hash).cloned())
        {
            return Ok(Some(s));
        }
        let found = self.store.seat(token_hash).await?;
        if let (Some(s), Ok(mut m)) = (&found, self.cluster.seats.lock()) {
            if m.len() >= SEAT_CACHE {
                m.clear();
            }
            m.insert(token_hash.to_string(), s.clone());
        }
        Ok(found)
    }
}

/// Wakes game `id` if this process holds it: it reads its events after its own version, up
/// to `version`, and forwards them to its websockets. Off the caller's loop: catching up
/// waits for the game's lock and the database.
fn wake(app: &Arc<App>, id: &str, version: i64) {
    if app.cluster.learn(id, version) {
        let (app, id) = (app.clone(), id.to_string());
        tokio::spawn(async move { app.remote_event(&id, version).await });
    }
}

/// Starts the listener, the announcer and the poll (PostgreSQL only); fails when PostgreSQL
/// refuses to listen.
pub async fn start(app: &Arc<App>) -> Result<(), String> {
    let Store::Postgres(pool) = &app.store else {
        return Ok(());
    };
    let Some(mut listener) = app.store.listener().await? else {
        return Ok(());
    };
    // Who is at which table, and chat messages (issue 32 items 5, 6).
    listener
        .listen_all([crate::presence::CHANNEL, crate::chat::CHANNEL])
        .await
        .map_err(|e| format!("cannot listen on PostgreSQL: {e}"))?;
    let (notices, queue) = mpsc::unbounded_channel();
    if !app.presence.start_notices(notices) {
        return Err("the presence notices of this server were started twice".into());
    }
    tokio::spawn(notifier(pool.clone(), queue));
    tokio::spawn(heartbeat(Arc::downgrade(app)));
    let poll_now = Arc::new(Notify::new());
    let (tx, rx) = mpsc::unbounded_channel();
    if app.cluster.announce.set(tx).is_err() {
        return Err("the announcer of this server was started twice".into());
    }
    tokio::spawn(announcer(pool.clone(), rx));
    app.lobby.start_sender(pool.clone());
    tokio::spawn(listen(Arc::downgrade(app), listener, poll_now.clone()));
    tokio::spawn(poll(Arc::downgrade(app), pool.clone(), poll_now));
    Ok(())
}

/// The listener: one connection, every process's announcements (this one's own echo finds
/// its games already there and reads nothing).
async fn listen(app: std::sync::Weak<App>, mut listener: PgListener, poll_now: Arc<Notify>) {
    loop {
        let got = listener.try_recv().await;
        let Some(app) = app.upgrade() else { return };
        match got {
            Ok(Some(n)) if n.channel() == crate::presence::CHANNEL => {
                for game in app.presence.notice(n.payload()) {
                    let app = app.clone();
                    tokio::spawn(async move { app.presence_changed(&game).await });
                }
            }
            Ok(Some(n)) if n.channel() == crate::chat::CHANNEL => {
                crate::chat::notice(&app, n.payload());
            }
            Ok(Some(n)) if n.channel() == crate::lobby::LOBBY_CHANNEL => {
                app.lobby.remote(&app, n.payload());
            }
            Ok(Some(n)) => {
                // `GAME:VERSION`; anything else is not ours (the poll would catch it anyway).
                if let Some((id, Ok(last))) = n
                    .payload()
                    .split_once(':')
                    .map(|(id, v)| (id, v.parse::<i64>()))
                {
                    wake(&app, id, last);
                }
            }
            // The connection was lost and made again: what was announced meanwhile is lost,
            // so the poll looks now.
            Ok(None) => poll_now.notify_one(),
            Err(e) => {
                log(&format!("PostgreSQL listener: {e}; retrying"));
                tokio::time::sleep(Duration::from_millis(500)).await;
                poll_now.notify_one();
            }
        }
    }
}

/// The announcer: waits for a version to announce, takes every other one queued meanwhile
/// (the last version of each game), and sends them in one transaction of `NOTIFY`s on its
/// own connection. While that commit is flushed the next turns queue, so under load one
/// flush announces many turns; idle, a turn is announced at once.
async fn announcer(pool: PgPool, mut rx: mpsc::UnboundedReceiver<(String, i64)>) {
    let mut conn: Option<PgConnection> = None;
    let mut batch: HashMap<String, i64> = HashMap::new();
    while let Some((id, v)) = rx.recv().await {
        batch.insert(id, v);
        while let Ok((id, v)) = rx.try_recv() {
            let e = batch.entry(id).or_insert(v);
            *e = (*e).max(v);
        }
        let payloads: Vec<String> = batch.drain().map(|(id, v)| format!("{id}:{v}")).collect();
        if conn.is_none() {
            match PgConnection::connect_with(&pool.connect_options()).await {
                Ok(c) => conn = Some(c),
                Err(e) => {
                    // The poll tells the other processes within a second.
                    log(&format!(
                        "cannot announce turns: PostgreSQL refused a connection: {e}"
                    ));
                    continue;
                }
            }
        }
        let Some(c) = conn.as_mut() else { continue };
        let sent = sqlx::query("SELECT pg_notify($1, p) FROM unnest($2::text[]) AS p")
            .bind(CHANNEL)
            .bind(&payloads)
            .execute(&mut *c)
            .await;
        if let Err(e) = sent {
            log(&format!(
                "cannot announce {} turns: {e}; the other processes read them within a second",
                payloads.len()
            ));
            conn = None;
        }
    }
    if let Some(c) = conn {
        let _ = c.close().await;
    }
}

/// Sends the presence and chat notices in order, one `NOTIFY` each, on its own connection
/// (order matters: a seat's arrival must not overtake its departure).
async fn notifier(pool: PgPool, mut rx: mpsc::UnboundedReceiver<(&'static str, String)>) {
    let mut conn: Option<PgConnection> = None;
    while let Some((channel, payload)) = rx.recv().await {
        if conn.is_none() {
            match PgConnection::connect_with(&pool.connect_options()).await {
                Ok(c) => conn = Some(c),
                Err(e) => {
                    // The next heartbeat says again who is at which table.
                    log(&format!(
                        "cannot send a presence or chat notice: PostgreSQL refused a connection: {e}"
                    ));
                    continue;
                }
            }
        }
        let Some(c) = conn.as_mut() else { continue };
        let sent = sqlx::query("SELECT pg_notify($1, $2)")
            .bind(channel)
            .bind(&payload)
            .execute(&mut *c)
            .await;
        if let Err(e) = sent {
            log(&format!("cannot send a presence or chat notice: {e}"));
            conn = None;
        }
    }
}

/// Every [`crate::presence::HEARTBEAT`]: tells the other processes which seats this one
/// holds (the sweeper of `lib.rs` forgets those of processes that fell silent).
async fn heartbeat(app: std::sync::Weak<App>) {
    loop {
        tokio::time::sleep(crate::presence::HEARTBEAT).await;
        let Some(app) = app.upgrade() else { return };
        for payload in app.presence.heartbeat_payloads() {
            app.presence.notify(crate::presence::CHANNEL, payload);
        }
    }
}

/// The poll: every second (and at once after the listener reconnects), the games changed
/// since shortly before the previous poll, with their last version; those no announcement
/// told of are woken.
async fn poll(app: std::sync::Weak<App>, pool: PgPool, poll_now: Arc<Notify>) {
    let mut since = now_ms() - POLL_MARGIN_MS;
    loop {
        tokio::select! {
            _ = tokio::time::sleep(POLL) => {}
            _ = poll_now.notified() => {}
        }
        let Some(app) = app.upgrade() else { return };
        let began = now_ms();
        let rows = sqlx::query(
            "SELECT g.id AS id, COALESCE((SELECT max(e.version) FROM events e WHERE e.game_id = g.id), 0) AS v \
             FROM games g WHERE g.updated_at >= $1",
        )
        .bind(since)
        .fetch_all(&pool)
        .await;
        let rows = match rows {
            Ok(rows) => rows,
            // PostgreSQL is away: the next poll looks from the same moment.
            Err(_) => continue,
        };
        for r in rows {
            if let (Ok(id), Ok(v)) = (r.try_get::<String, _>("id"), r.try_get::<i64, _>("v")) {
                wake(&app, &id, v);
            }
        }
        since = began - POLL_MARGIN_MS;
        // Forget what is older than any poll still looks at.
        app.cluster.forget_before(began - 3 * POLL_MARGIN_MS);
    }
}
