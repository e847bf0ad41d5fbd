//! The websocket of a game: every event with its version, projected for the viewer, with
//! catch-up from `since` and after any lag.

use crate::app::Handle;
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
async fn messages(
    h: &Handle,
    viewer: Viewer,
    token: Option<&str>,
    since: i64,
) -> (Vec<Value>, i64) {
    let live = h.live.lock().await;
    let version = live.version();
    let state = live.state_for(viewer, token);
    let from = since.clamp(0, version) as usize;
    let mut out: Vec<Value> = live.events[from..]
        .iter()
        .enumerate()
        .map(|(i, ev)| {
            json!({"version": from as i64 + i as i64 + 1, "event": live.project_for(ev, viewer, token), "state": null})
        })
        .collect();
    match out.last_mut() {
        Some(last) => last["state"] = state,
        None => out.push(json!({"version": version, "event": {"type": "sync"}, "state": state})),
    }
    (out, version)
}

/// Serves one websocket until the client goes away.
pub async fn run(
    socket: WebSocket,
    h: Arc<Handle>,
    viewer: Viewer,
    token: Option<String>,
    since: i64,
    mut meter: MessageMeter,
    _guard: SocketGuard,
) {
    let (mut sink, mut stream) = socket.split();
    let mut rx = h.tx.subscribe();
    let (first, mut sent) = messages(&h, viewer, token.as_deref(), since).await;
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
            got = rx.recv() => {
                match got {
                    Ok(v) if v <= sent => continue,
                    Ok(_) | Err(RecvError::Lagged(_)) => {}
                    Err(RecvError::Closed) => return,
                }
                let (msgs, version) = messages(&h, viewer, token.as_deref(), sent).await;
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
