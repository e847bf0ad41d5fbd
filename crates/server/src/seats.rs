//! Seats that belong to people (issue 29): invitations taken once, seat links, the seat a
//! player takes in a rematch. Every token is drawn at random, stored only as its SHA-256, and
//! handed only to the one who takes the seat.

use crate::access::{self, cookie_name};
use crate::accounts::{self, Owner};
use crate::app::{random_hex, token_hash, ApiError, App, SeatInfo};
use crate::both;
use crate::games::{color_word, parse_color, Viewer};
use crate::store::{db_err, Store};
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use menagerie_core::Color;
use serde_json::json;
use sqlx::Row;
use std::sync::Arc;
use tower_sessions::Session;

/// What became of an attempt to take an invitation.
#[derive(Debug, PartialEq, Eq)]
pub enum Taken {
    /// This caller took it: the game and the seat.
    Now(String, Color),
    /// Someone took it before: the game.
    Before(String),
    /// No such invitation.
    Unknown,
}

impl Store {
    /// White's and Black's seats as people see them (taken unless an invitation still waits;
    /// the owner's account name), and whether an umpire's token exists.
    pub async fn seat_info(&self, id: &str) -> Result<([SeatInfo; 2], bool), String> {
        let waiting =
            self.query_text("SELECT seat FROM invites WHERE game_id = ? AND taken = FALSE");
        let umpire = self
            .query_text("SELECT COUNT(*) AS n FROM seats WHERE game_id = ? AND seat = 'umpire'");
        let names = self.query_text(
            "SELECT so.seat AS seat, a.id AS account, a.name AS name, a.deleted AS deleted FROM seat_owners so \
             JOIN accounts a ON a.id = so.account_id WHERE so.game_id = ?",
        );
        let taken = SeatInfo {
            taken: true,
            ..SeatInfo::default()
        };
        let mut info: [SeatInfo; 2] = [taken.clone(), taken];
        let umpire_key = both!(self, p => {
            for r in sqlx::query(&waiting).bind(id).fetch_all(p).await.map_err(db_err)? {
                let seat: String = r.try_get("seat").map_err(db_err)?;
                if let Some(c) = parse_color(&seat) {
                    info[c.index()].taken = false;
                }
            }
            for r in sqlx::query(&names).bind(id).fetch_all(p).await.map_err(db_err)? {
                let seat: String = r.try_get("seat").map_err(db_err)?;
                let deleted: bool = r.try_get("deleted").map_err(db_err)?;
                let name: Option<String> = r.try_get("name").map_err(db_err)?;
                if let Some(c) = parse_color(&seat) {
                    info[c.index()].name = if deleted { Some("deleted".into()) } else { name };
                    info[c.index()].account = r.try_get("account").map_err(db_err)?;
                }
            }
            let n: i64 = sqlx::query(&umpire).bind(id).fetch_one(p).await
                .and_then(|r| r.try_get("n")).map_err(db_err)?;
            n > 0
        });
        Ok((info, umpire_key))
    }

    /// Takes the invitation whose code hashes to `code_hash`, once: in one transaction the
    /// invitation dies, the seat's new token hash is stored and the seat gets its owner.
    pub async fn take_invite(
        &self,
        code_hash: &str,
        token_hash: &str,
        owner: &Owner,
    ) -> Result<Taken, String> {
        let find = self.query_text("SELECT game_id, seat, taken FROM invites WHERE code_hash = ?");
        let take = self
            .query_text("UPDATE invites SET taken = TRUE WHERE code_hash = ? AND taken = FALSE");
        let seat =
            self.query_text("INSERT INTO seats (token_hash, game_id, seat) VALUES (?, ?, ?)");
        let own = self.query_text(
            "INSERT INTO seat_owners (game_id, seat, account_id, anon_id) VALUES (?, ?, ?, ?) \
             ON CONFLICT (game_id, seat) DO UPDATE SET account_id = excluded.account_id, anon_id = excluded.anon_id",
        );
        let (account, anon) = owner.columns();
        both!(self, p => {
            let mut tx = p.begin().await.map_err(db_err)?;
            // The one UPDATE that flips `taken` decides who wins a race. It comes first, so
            // that the transaction writes before it reads (SQLite: a read-then-write
            // transaction loses to a concurrent writer with "database is locked").
            let won = sqlx::query(&take).bind(code_hash).execute(&mut *tx).await.map_err(db_err)?.rows_affected() == 1;
            let Some(row) = sqlx::query(&find).bind(code_hash).fetch_optional(&mut *tx).await.map_err(db_err)? else {
                return Ok(Taken::Unknown);
            };
            let game: String = row.try_get("game_id").map_err(db_err)?;
            let seat_word: String = row.try_get("seat").map_err(db_err)?;
            let Some(color) = parse_color(&seat_word) else {
                return Ok(Taken::Unknown);
            };
            if !won {
                return Ok(Taken::Before(game));
            }
            sqlx::query(&seat).bind(token_hash).bind(&game).bind(&seat_word).execute(&mut *tx).await.map_err(db_err)?;
            sqlx::query(&own).bind(&game).bind(&seat_word).bind(&account).bind(&anon).execute(&mut *tx).await.map_err(db_err)?;
            tx.commit().await.map_err(db_err)?;
            Ok(Taken::Now(game, color))
        })
    }

    /// Adds a token for a seat (a player's own seat in a rematch), giving the seat `owner`
    /// when it has none.
    pub async fn add_seat_token(
        &self,
        game: &str,
        color: Color,
        token_hash: &str,
        owner: Option<&Owner>,
    ) -> Result<(), String> {
        let seat =
            self.query_text("INSERT INTO seats (token_hash, game_id, seat) VALUES (?, ?, ?)");
        let own = self.query_text(
            "INSERT INTO seat_owners (game_id, seat, account_id, anon_id) VALUES (?, ?, ?, ?) \
             ON CONFLICT (game_id, seat) DO NOTHING",
        );
        let word = color_word(color);
        both!(self, p => {
            let mut tx = p.begin().await.map_err(db_err)?;
            sqlx::query(&seat).bind(token_hash).bind(game).bind(word).execute(&mut *tx).await.map_err(db_err)?;
            if let Some(o) = owner {
                let (account, anon) = o.columns();
                sqlx::query(&own).bind(game).bind(word).bind(&account).bind(&anon).execute(&mut *tx).await.map_err(db_err)?;
            }
            tx.commit().await.map_err(db_err)
        })
    }

    /// Who owns White's and Black's seats of game `id`.
    pub async fn seat_owners(&self, id: &str) -> Result<[Option<Owner>; 2], String> {
        let q =
            self.query_text("SELECT seat, account_id, anon_id FROM seat_owners WHERE game_id = ?");
        let mut out: [Option<Owner>; 2] = [None, None];
        both!(self, p => {
            for r in sqlx::query(&q).bind(id).fetch_all(p).await.map_err(db_err)? {
                let seat: String = r.try_get("seat").map_err(db_err)?;
                let account: Option<String> = r.try_get("account_id").map_err(db_err)?;
                let anon: Option<String> = r.try_get("anon_id").map_err(db_err)?;
                if let Some(c) = parse_color(&seat) {
                    out[c.index()] = account.map(Owner::Account).or(anon.map(Owner::Anon));
                }
            }
        });
        Ok(out)
    }
}

/// The `Set-Cookie` value that opens seat `token` of game `game` in this browser (`Secure`
/// when the server is reached over HTTPS).
pub fn seat_cookie(app: &App, game: &str, token: &str) -> Option<HeaderValue> {
    let secure = if app.secure_cookies { "; Secure" } else { "" };
    HeaderValue::from_str(&format!(
        "{}={token}; Path=/; HttpOnly; SameSite=Lax; Max-Age=31536000{secure}",
        cookie_name(game)
    ))
    .ok()
}

fn see_other(location: &str, cookie: Option<HeaderValue>) -> Response {
    let mut r = StatusCode::SEE_OTHER.into_response();
    let h = r.headers_mut();
    if let Some(c) = cookie {
        h.insert(header::SET_COOKIE, c);
    }
    if let Ok(v) = HeaderValue::from_str(location) {
        h.insert(header::LOCATION, v);
    }
    crate::api::no_store(r)
}

/// Takes invitation `code` for the caller's session; the new seat token on success.
async fn take(app: &Arc<App>, session: &Session, code: &str) -> Result<(Taken, String), ApiError> {
    if code.len() > 128 {
        return Ok((Taken::Unknown, String::new()));
    }
    crate::ratings::check_rated_invite(app, session, &token_hash(code)).await?;
    let owner = accounts::owner(app, session).await?;
    let token = random_hex()?;
    let taken = app
        .store
        .take_invite(&token_hash(code), &token_hash(&token), &owner)
        .await
        .map_err(ApiError::unavailable)?;
    if let Taken::Now(game, color) = &taken {
        let me = accounts::me(app, session).await?;
        announce_joined(app, game, *color, me.account).await;
    }
    Ok((taken, token))
}

/// Tells the game (its players' pages, live) that a seat was taken.
async fn announce_joined(
    app: &Arc<App>,
    game: &str,
    color: Color,
    account: Option<accounts::Account>,
) {
    let name = account.as_ref().map(|a| a.name.clone());
    let ev = json!({"type": "joined", "color": color_word(color), "name": name});
    for _ in 0..3 {
        let Ok(h) = app.handle(game).await else {
            return;
        };
        let mut live = h.live.lock().await;
        match app.commit(&h, &mut live, vec![ev.clone()]).await {
            Ok(()) => {
                live.seats[color.index()].account = account.map(|a| a.id);
                return;
            }
            // Another process wrote first: catch up and try again.
            Err(e) if e.status == 409 => continue,
            Err(e) => {
                crate::log(&format!(
                    "game {game}: the seat was taken but not announced: {}",
                    e.message
                ));
                return;
            }
        }
    }
}

/// `GET /join/{code}`: the first browser takes the seat (a fresh token in the seat's cookie)
/// and goes to the game; later ones go to the game as spectators, told the seat is taken.
pub async fn join_page(
    State(app): State<Arc<App>>,
    session: Session,
    Path(code): Path<String>,
) -> Result<Response, ApiError> {
    match take(&app, &session, &code).await? {
        (Taken::Now(game, _), token) => Ok(see_other(
            &format!("/game/{game}"),
            seat_cookie(&app, &game, &token),
        )),
        (Taken::Before(game), _) => Ok(see_other(&format!("/game/{game}?invite=taken"), None)),
        (Taken::Unknown, _) => Err(ApiError::not_found("this invitation does not exist")),
    }
}

/// `POST /api/join/{code}`: as `GET /join/{code}` for programs: `201 {"game", "url",
/// "color", "token"}`, or `409` when the seat is taken.
pub async fn join_api(
    State(app): State<Arc<App>>,
    session: Session,
    Path(code): Path<String>,
) -> Result<Response, ApiError> {
    match take(&app, &session, &code).await? {
        (Taken::Now(game, color), token) => {
            let mut r = (
                StatusCode::CREATED,
                axum::Json(json!({"game": game, "url": format!("/game/{game}"), "color": color_word(color), "token": token})),
            )
                .into_response();
            if let Some(c) = seat_cookie(&app, &game, &token) {
                r.headers_mut().insert(header::SET_COOKIE, c);
            }
            Ok(crate::api::no_store(r))
        }
        (Taken::Before(_), _) => Err(ApiError::conflict(
            "this invitation has already been used: the seat is taken",
        )),
        (Taken::Unknown, _) => Err(ApiError::not_found("this invitation does not exist")),
    }
}

/// The caller's seat in game `id`'s rematch: a fresh token for the seat of the other colour,
/// for whoever holds this game's seat.
async fn rematch_seat(
    app: &Arc<App>,
    headers: &HeaderMap,
    session: &Session,
    id: &str,
) -> Result<(String, Color, String), ApiError> {
    let viewer = access::viewer_of(app, headers, session, id).await?;
    let Viewer::Player(old) = viewer else {
        return Err(ApiError::forbidden(
            "only a player of this game has a seat in its rematch",
        ));
    };
    let h = app.handle(id).await?;
    let next = h.live.lock().await.rematch.clone();
    let Some(next) = next else {
        return Err(ApiError::not_found("this game has no rematch yet"));
    };
    let color = old.other();
    let me = accounts::me(app, session).await?;
    let token = random_hex()?;
    app.store
        .add_seat_token(&next, color, &token_hash(&token), me.owner().as_ref())
        .await
        .map_err(ApiError::unavailable)?;
    Ok((next, color, token))
}

/// `GET /game/{id}/rematch`: a player's link to its own seat in the rematch.
pub async fn rematch_page(
    State(app): State<Arc<App>>,
    session: Session,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let (next, _, token) = rematch_seat(&app, &headers, &session, &id).await?;
    Ok(see_other(
        &format!("/game/{next}"),
        seat_cookie(&app, &next, &token),
    ))
}

/// `POST /api/games/{id}/rematch-seat`: the same for programs: `{"game", "url", "color",
/// "token"}`.
pub async fn rematch_api(
    State(app): State<Arc<App>>,
    session: Session,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let (next, color, token) = rematch_seat(&app, &headers, &session, &id).await?;
    let mut r = axum::Json(json!({"game": next, "url": format!("/game/{next}"), "color": color_word(color), "token": token}))
        .into_response();
    if let Some(c) = seat_cookie(&app, &next, &token) {
        r.headers_mut().insert(header::SET_COOKIE, c);
    }
    Ok(crate::api::no_store(r))
}
