//! The chat of a game (issue 32 item 6): one room for its two players and one for everyone
//! else. Messages are stored in the database (table `chat`), never as game events, so a
//! message never changes a game's version; they reach the room's websockets live, on every
//! process (PostgreSQL `NOTIFY` on [`CHANNEL`]).
//!
//! Players read and write the players' room only; spectators (and the umpire's token) the
//! spectators' room only, as on lichess during a game. A spectator writes only when logged
//! in (a name answers for each message). The server adds nothing of its own to a chat, so in
//! Little Cheops Imperial nothing in it depends on a sealed paper.

use crate::access::viewer_of;
use crate::api::{no_store, JsonBody};
use crate::app::{ApiError, App};
use crate::both;
use crate::games::{color_word, Viewer};
use crate::store::{db_err, now_ms, Store};
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::{json, Value};
use sqlx::Row;
use std::sync::Arc;
use tower_sessions::Session;

/// The PostgreSQL channel on which a process tells the others of a new message.
pub const CHANNEL: &str = "menagerie_chat";
/// The longest message, in characters.
pub const MAX_CHARS: usize = 140;
/// Messages one person may send in [`WINDOW_MS`].
pub const PER_WINDOW: i64 = 5;
/// The window over which a person's messages are counted (10 s).
pub const WINDOW_MS: i64 = 10_000;
/// How many of a room's latest messages `GET .../chat` returns.
pub const HISTORY: i64 = 200;

/// A game's chat room.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Room {
    /// The two players.
    Players,
    /// Everyone watching (spectators, the umpire's token).
    Spectators,
}

impl Room {
    /// The word the API uses.
    pub fn word(self) -> &'static str {
        match self {
            Room::Players => "players",
            Room::Spectators => "spectators",
        }
    }

    /// Reads the word.
    pub fn parse(text: &str) -> Option<Room> {
        match text {
            "players" => Some(Room::Players),
            "spectators" => Some(Room::Spectators),
            _ => None,
        }
    }
}

/// The room `viewer` reads and writes.
pub fn room_of(viewer: Viewer) -> Room {
    match viewer {
        Viewer::Player(_) => Room::Players,
        Viewer::Spectator | Viewer::Umpire => Room::Spectators,
    }
}

/// A message's text made ready to store: line breaks and tabs become spaces, other control
/// characters are dropped, the ends trimmed; refused when empty or longer than
/// [`MAX_CHARS`].
pub fn clean(text: &str) -> Result<String, ApiError> {
    let t: String = text
        .chars()
        .filter_map(|c| match c {
            '\n' | '\r' | '\t' => Some(' '),
            c if c.is_control() => None,
            c => Some(c),
        })
        .collect();
    let t = t.trim();
    let n = t.chars().count();
    if n == 0 {
        return Err(ApiError::bad("a chat message needs some text"));
    }
    if n > MAX_CHARS {
        return Err(ApiError::bad(format!(
            "a chat message is at most {MAX_CHARS} characters; this one has {n}"
        )));
    }
    Ok(t.to_string())
}

/// A stored message as the API writes it.
fn message_json(
    room: Room,
    seq: i64,
    color: Option<&str>,
    name: Option<&str>,
    text: &str,
) -> Value {
    json!({"seq": seq, "room": room.word(), "color": color, "name": name, "text": text})
}

/// The latest [`HISTORY`] messages of a room, oldest first.
pub async fn recent(store: &Store, game: &str, room: Room) -> Result<Vec<Value>, String> {
    let q = store.query_text(
        "SELECT seq, color, name, text FROM chat WHERE game_id = ? AND room = ? ORDER BY seq DESC LIMIT ?",
    );
    let mut out: Vec<Value> = both!(store, p => {
        let rows = sqlx::query(&q).bind(game).bind(room.word()).bind(HISTORY)
            .fetch_all(p).await.map_err(db_err)?;
        rows.iter().map(|r| -> Result<Value, sqlx::Error> {
            let color: Option<String> = r.try_get("color")?;
            let name: Option<String> = r.try_get("name")?;
            let text: String = r.try_get("text")?;
            Ok(message_json(room, r.try_get("seq")?, color.as_deref(), name.as_deref(), &text))
        }).collect::<Result<Vec<_>, _>>().map_err(db_err)
    })?;
    out.reverse();
    Ok(out)
}

/// How many messages `person` sent since `since_ms`, in every game.
async fn sent_since(store: &Store, person: &str, since_ms: i64) -> Result<i64, String> {
    let q = store.query_text("SELECT COUNT(*) AS n FROM chat WHERE person = ? AND created_at > ?");
    both!(store, p => {
        let row = sqlx::query(&q).bind(person).bind(since_ms).fetch_one(p).await.map_err(db_err)?;
        row.try_get::<i64, _>("n").map_err(db_err)
    })
}

/// Stores a message as the room's next (numbered from 1 in each room); returns its number.
async fn insert(
    store: &Store,
    game: &str,
    room: Room,
    person: &str,
    color: Option<&str>,
    name: Option<&str>,
    text: &str,
) -> Result<i64, String> {
    let q = store.query_text(
        "INSERT INTO chat (game_id, room, seq, person, color, name, text, created_at) \
         SELECT ?, ?, COALESCE(MAX(seq), 0) + 1, ?, ?, ?, ?, ? FROM chat WHERE game_id = ? AND room = ? \
         RETURNING seq",
    );
    let mut last = String::new();
    // Two processes numbering the same room at once: the loser's key is taken; it numbers again.
    for _ in 0..5 {
        let now = now_ms();
        let got: Result<i64, sqlx::Error> = both!(store, p => {
            match sqlx::query(&q)
                .bind(game).bind(room.word()).bind(person).bind(color).bind(name).bind(text)
                .bind(now).bind(game).bind(room.word())
                .fetch_one(p).await
            {
                Ok(r) => r.try_get::<i64, _>("seq"),
                Err(e) => Err(e),
            }
        });
        match got {
            Ok(seq) => return Ok(seq),
            Err(sqlx::Error::Database(d)) if d.is_unique_violation() => {
                last = d.to_string();
            }
            Err(e) => return Err(db_err(e)),
        }
    }
    Err(format!("the message could not be numbered: {last}"))
}

/// The body of `POST /api/games/{id}/chat`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChatBody {
    text: String,
}

/// `GET /api/games/{id}/chat`: the caller's room and its latest messages.
pub async fn read(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    session: Session,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let viewer = viewer_of(&app, &headers, &session, &id).await?;
    // The game must exist.
    app.handle(&id).await?;
    let room = room_of(viewer);
    let messages = recent(&app.store, &id, room)
        .await
        .map_err(ApiError::unavailable)?;
    Ok(no_store(
        axum::Json(json!({"room": room.word(), "messages": messages})).into_response(),
    ))
}

/// `POST /api/games/{id}/chat` `{"text"}`: a message to the caller's room.
pub async fn write(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    session: Session,
    headers: HeaderMap,
    JsonBody(b): JsonBody<ChatBody>,
) -> Result<Response, ApiError> {
    let viewer = viewer_of(&app, &headers, &session, &id).await?;
    let h = app.handle(&id).await?;
    let room = room_of(viewer);
    let text = clean(&b.text)?;
    let me = crate::accounts::me(&app, &session).await?;
    // Who answers for the message, and the key its rate is counted by (a person, across games).
    let (color, name, person) = match viewer {
        Viewer::Player(c) => {
            let seat = h.live.lock().await.seats[c.index()].clone();
            // The seat's account answers for it (its messages read "deleted" with it), else
            // whoever the request's session is, else the seat itself.
            let person = match (&seat.account, &me.account, &me.anon) {
                (Some(a), _, _) | (None, Some(crate::accounts::Account { id: a, .. }), _) => {
                    format!("a:{a}")
                }
                (None, None, Some(anon)) => format!("s:{anon}"),
                (None, None, None) => format!("t:{id}:{}", color_word(c)),
            };
            (Some(color_word(c)), seat.name, person)
        }
        Viewer::Spectator | Viewer::Umpire => match &me.account {
            Some(a) => (None, Some(a.name.clone()), format!("a:{}", a.id)),
            None => {
                return Err(ApiError::forbidden(
                    "log in to write in the spectators' chat (anyone may read it)",
                ))
            }
        },
    };
    let sent = sent_since(&app.store, &person, now_ms() - WINDOW_MS)
        .await
        .map_err(ApiError::unavailable)?;
    if sent >= PER_WINDOW {
        return Err(ApiError::new(
            429,
            format!(
                "you may send at most {PER_WINDOW} chat messages in {} seconds; wait a moment",
                WINDOW_MS / 1000
            ),
        ));
    }
    let seq = insert(
        &app.store,
        &id,
        room,
        &person,
        color,
        name.as_deref(),
        &text,
    )
    .await
    .map_err(ApiError::unavailable)?;
    let message = message_json(room, seq, color, name.as_deref(), &text);
    let line: Arc<str> = json!({"chat": message}).to_string().into();
    let _ = h.side.send(crate::app::Side::Chat(room, line.clone()));
    app.presence.notify(
        CHANNEL,
        format!("{}|{id}|{}|{line}", app.presence.process(), room.word()),
    );
    Ok(no_store(
        (StatusCode::CREATED, axum::Json(json!({"message": message}))).into_response(),
    ))
}

/// A message another process stored (`PROCESS|GAME|ROOM|LINE`): sent to this process's
/// sockets of that room, if it holds the game.
pub fn notice(app: &App, payload: &str) {
    let mut parts = payload.splitn(4, '|');
    let (Some(process), Some(game), Some(room), Some(line)) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return;
    };
    if process == app.presence.process() {
        return;
    }
    let (Some(room), Some(h)) = (Room::parse(room), app.cached_handle(game)) else {
        return;
    };
    let _ = h.side.send(crate::app::Side::Chat(room, line.into()));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_cleaned_and_measured_in_characters() {
        assert_eq!(clean("  hi\nthere\u{7}  ").unwrap(), "hi there");
        assert_eq!(clean(&"é".repeat(140)).unwrap().chars().count(), 140);
        assert_eq!(
            clean(&"é".repeat(141)).unwrap_err().message,
            "a chat message is at most 140 characters; this one has 141"
        );
        assert_eq!(
            clean(" \n ").unwrap_err().message,
            "a chat message needs some text"
        );
    }
}
