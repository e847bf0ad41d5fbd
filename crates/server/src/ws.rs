//! The websocket of a game: every event with its version, projected for the viewer, with
//! catch-up from `since` and after any lag.

use crate::app::Handle;
use crate::games::Viewer;
use axum::extract::ws::{Message, WebSocket};
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use std::sync::Arc;
use tokio::sync::broadcast::error::RecvError;

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

/// Serves one websocket until the client goes away.
pub async fn run(socket: WebSocket, h: Arc<Handle>, viewer: Viewer, since: i64) {
    let (mut sink, mut stream) = socket.split();
    let mut rx = h.tx.subscribe();
    let (first, mut sent) = messages(&h, viewer, since).await;
    for m in first {
        if sink
            .send(Message::Text(m.to_string().into()))
            .await
            .is_err()
        {
            return;
        }
    }
    loop {
        tokio::select! {
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
                    if sink.send(Message::Text(m.to_string().into())).await.is_err() {
                        return;
                    }
                }
                sent = version;
            }
            incoming = stream.next() => {
                match incoming {
                    None | Some(Err(_)) | Some(Ok(Message::Close(_))) => return,
                    Some(Ok(_)) => {}
                }
            }
        }
    }
}
