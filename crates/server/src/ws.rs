//! The websocket of a game: every event with its version, projected for the viewer, with
//! catch-up from `since` and after any lag.

use crate::app::{App, Handle, Side};
use crate::games::Viewer;
use crate::limits::{MessageMeter, SocketGuard};
use axum::extract::ws::{CloseFrame, Message, WebSocket};
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::broadcast::error::RecvError;

/// How long one message may take to be written to the client: a client that stops reading
/// is dropped then, so what it holds is bounded by the socket's buffers and one message.
pub const WRITE_TIMEOUT: Duration = Duration::from_secs(10);
/// How often the server pings; a client that sends nothing (not even the pong) for two
/// intervals is dropped (a half-open connection is not held forever).
pub const PING_EVERY: Duration = Duration::from_secs(20);

/// Sends `m` within [`WRITE_TIMEOUT`]; `false` when the client is gone or too slow.
async fn send(sink: &mut futures_util::stream::SplitSink<WebSocket, Message>, m: Message) -> bool {
    matches!(
        tokio::time::timeout(WRITE_TIMEOUT, sink.send(m)).await,
        Ok(Ok(()))
    )
}

/// The messages for versions after `since`, the last one carrying the state; when there is
/// nothing new, one `sync` message with the state.
async fn messages(h: &Handle, viewer: Viewer, since: i64) -> (Vec<Value>, i64) {
    let live = h.live.lock().await;
    let version = live.version();
    let state = live.state(viewer);
    let from = since.clamp(0, version) as usize;
    let mut out: Vec<Value> = live.events[from..]
        .iter()
        .enumerate()
        .map(|(i, ev)| {
            json!({"version": from as i64 + i as i64 + 1, "event": live.project(ev, viewer), "state": null})
        })
        .collect();
    match out.last_mut() {
        Some(last) => last["state"] = state,
        None => out.push(json!({"version": version, "event": {"type": "sync"}, "state": state})),
    }
    (out, version)
}

/// A player's socket counted at the table (`presence.rs`) while it lives: the opponent is
/// told when the seat's first socket opens and when its last one closes.
struct AtTable {
    app: Arc<App>,
    game: String,
    seat: Option<menagerie_core::Color>,
}

impl AtTable {
    fn new(app: Arc<App>, game: String, viewer: Viewer) -> AtTable {
        let seat = match viewer {
            Viewer::Player(c) => Some(c),
            _ => None,
        };
        if let Some(c) = seat {
            if app.presence.open(&game, c) {
                let (app, game) = (app.clone(), game.clone());
                tokio::spawn(async move { app.presence_changed(&game).await });
            }
        }
        AtTable { app, game, seat }
    }
}

impl Drop for AtTable {
    fn drop(&mut self) {
        if let Some(c) = self.seat {
            if self.app.presence.close(&self.game, c) {
                let (app, game) = (self.app.clone(), std::mem::take(&mut self.game));
                tokio::spawn(async move { app.presence_changed(&game).await });
            }
        }
    }
}

/// Serves one websocket until the client goes away. Besides the game's events (each with its
/// version) it carries, without a version, `{"presence": ...}` when a player arrives or
/// leaves and `{"chat": MESSAGE}` for the viewer's chat room.
#[allow(clippy::too_many_arguments)]
pub async fn run(
    socket: WebSocket,
    app: Arc<App>,
    h: Arc<Handle>,
    viewer: Viewer,
    since: i64,
    mut meter: MessageMeter,
    _guard: SocketGuard,
) {
    let (mut sink, mut stream) = socket.split();
    let mut rx = h.tx.subscribe();
    let mut side = h.side.subscribe();
    let room = crate::chat::room_of(viewer);
    let game_id = h.live.lock().await.row.id.clone();
    let _at_table = AtTable::new(app, game_id, viewer);
    let (first, mut sent) = messages(&h, viewer, since).await;
    for m in first {
        if !send(&mut sink, Message::Text(m.to_string().into())).await {
            return;
        }
    }
    let mut ping = tokio::time::interval_at(tokio::time::Instant::now() + PING_EVERY, PING_EVERY);
    let mut heard = tokio::time::Instant::now();
    loop {
        tokio::select! {
            _ = ping.tick() => {
                if heard.elapsed() > 2 * PING_EVERY
                    || !send(&mut sink, Message::Ping(Default::default())).await
                {
                    return;
                }
            }
            got = side.recv() => {
                let line = match got {
                    Ok(Side::Presence(line)) => line,
                    Ok(Side::Chat(r, line)) if r == room => line,
                    Ok(Side::Chat(..)) | Err(RecvError::Lagged(_)) => continue,
                    Err(RecvError::Closed) => return,
                };
                if !send(&mut sink, Message::Text(line.to_string().into())).await {
                    return;
                }
            }
            got = rx.recv() => {
                match got {
                    Ok(v) if v <= sent => continue,
                    Ok(_) | Err(RecvError::Lagged(_)) => {}
                    Err(RecvError::Closed) => return,
                }
                let (msgs, version) = messages(&h, viewer, sent).await;
                if version <= sent {
                    continue;
                }
                for m in msgs {
                    if !send(&mut sink, Message::Text(m.to_string().into())).await {
                        return;
                    }
                }
                sent = version;
            }
            incoming = stream.next() => {
                heard = tokio::time::Instant::now();
                let checked = match incoming {
                    None | Some(Ok(Message::Close(_))) => return,
                    // Larger than the socket reads at all: refused like any message too big.
                    Some(Err(e)) if is_too_long(&e) => Err(meter.too_big(None)),
                    Some(Err(_)) => return,
                    Some(Ok(Message::Text(t))) => meter.check(t.len()),
                    Some(Ok(Message::Binary(b))) => meter.check(b.len()),
                    // Pings and pongs keep a connection alive (the answer to the server's
                    // own ping among them): they are not the client's messages.
                    Some(Ok(_)) => continue,
                };
                if let Err((status, sentence)) = checked {
                    // Refused: say why in one sentence, then close (1009 too big, 1008 policy).
                    let m = json!({"error": sentence, "status": status});
                    let _ = send(&mut sink, Message::Text(m.to_string().into())).await;
                    let code = if status == 413 { 1009 } else { 1008 };
                    let reason = if status == 413 { "message too big" } else { "too many messages" };
                    let _ = send(&mut sink, Message::Close(Some(CloseFrame { code, reason: reason.into() }))).await;
                    return;
                }
            }
        }
    }
}

/// Whether a read failed because the message is larger than the socket accepts.
fn is_too_long(e: &axum::Error) -> bool {
    let text = e.to_string().to_ascii_lowercase();
    text.contains("too long") || text.contains("space limit")
}
