//! Who may do what, decided in one place: which seat a request speaks for (a seat's token,
//! the seat's cookie, or the session of the person who owns the seat), and which requests
//! another site may make (none that change anything).

use crate::accounts::{self, Me, Owner};
use crate::app::{token_hash, ApiError, App, Player, Seating};
use crate::both;
use crate::games::{parse_color, Viewer};
use crate::store::{db_err, Store};
use axum::extract::Request;
use axum::http::{header, HeaderMap, Method};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use menagerie_core::Color;
use sqlx::Row;
use std::sync::Arc;
use tower_sessions::Session;

/// The cookie that holds the seat token of game `id`.
pub fn cookie_name(id: &str) -> String {
    format!("menagerie-seat-{id}")
}

/// The token a request carries for game `id`: `Authorization: Bearer TOKEN`, else the seat's
/// cookie. An empty `Authorization` is no token; any other scheme is refused (401).
pub fn token_of(headers: &HeaderMap, id: &str) -> Result<Option<String>, ApiError> {
    if let Some(v) = headers.get(header::AUTHORIZATION) {
        let v = v.to_str().map_err(|_| bad_authorization())?.trim();
        // An empty header, or "Bearer" with nothing after it, is no token: a spectator.
        if !v.is_empty() && !v.eq_ignore_ascii_case("bearer") {
            let (scheme, token) = v.split_once(' ').ok_or_else(bad_authorization)?;
            let token = token.trim();
            if !scheme.eq_ignore_ascii_case("bearer") {
                return Err(bad_authorization());
            }
            if !token.is_empty() {
                return Ok(Some(token.to_string()));
            }
        }
    }
    let name = cookie_name(id);
    Ok(headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|kv| kv.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v.to_string()))
}

fn bad_authorization() -> ApiError {
    ApiError::new(
        401,
        "the Authorization header reads 'Bearer TOKEN' with a seat's token",
    )
}

/// Who the request is for game `id`: a seat's or the umpire's token; else the seat its
/// session's person owns; else a spectator. A token that opens no seat of this game: 403.
pub async fn viewer_of(
    app: &App,
    headers: &HeaderMap,
    session: &Session,
    id: &str,
) -> Result<Viewer, ApiError> {
    if let Some(token) = token_of(headers, id)? {
        let seat = app
            .seat(&token_hash(&token))
            .await
            .map_err(ApiError::unavailable)?;
        return match seat {
            Some((game, seat)) if game == id => match seat.as_str() {
                "umpire" => Ok(Viewer::Umpire),
                other => parse_color(other)
                    .map(Viewer::Player)
                    .ok_or_else(|| ApiError::forbidden("this token opens no seat of this game")),
            },
            _ => Err(ApiError::forbidden("this token opens no seat of this game")),
        };
    }
    let me = accounts::me(app, session).await?;
    Ok(match owned_seat(&app.store, id, &me).await? {
        Some(c) => Viewer::Player(c),
        None => Viewer::Spectator,
    })
}

/// The seat of game `id` that `me` owns (White first if both).
pub async fn owned_seat(store: &Store, id: &str, me: &Me) -> Result<Option<Color>, ApiError> {
    let account = me.account.as_ref().map(|a| a.id.clone());
    if account.is_none() && me.anon.is_none() {
        return Ok(None);
    }
    let q = store.query_text(
        "SELECT seat FROM seat_owners WHERE game_id = ? AND (account_id = ? OR anon_id = ?) ORDER BY seat DESC",
    );
    let seats: Vec<String> = both!(store, p => {
        let rows = sqlx::query(&q).bind(id).bind(&account).bind(&me.anon)
            .fetch_all(p).await.map_err(|e| ApiError::unavailable(db_err(e)))?;
        rows.iter().map(|r| r.try_get::<String, _>("seat")).collect::<Result<Vec<_>, _>>()
            .map_err(|e| ApiError::unavailable(db_err(e)))
    })?;
    // ORDER BY seat DESC: "white" before "black".
    Ok(seats.iter().find_map(|s| parse_color(s)))
}

/// The seat a request acts for: a player's token, cookie or session is required.
pub async fn seat_of(
    app: &App,
    headers: &HeaderMap,
    session: &Session,
    id: &str,
) -> Result<Color, ApiError> {
    match viewer_of(app, headers, session, id).await? {
        Viewer::Player(c) => Ok(c),
        Viewer::Umpire => Err(ApiError::forbidden(
            "the umpire's token watches the game; only a seat's token may act in it",
        )),
        Viewer::Spectator => Err(ApiError::forbidden(
            "only a player may act in this game: send the seat's token (Authorization: Bearer TOKEN)",
        )),
    }
}

/// Whether `me` may create a rated game (issue 33) seated by `seating` against `players`:
/// a logged-in person in one seat, against a person (whose invitation a logged-in browser
/// must take: [`may_take_rated_seat`]) or an engine level, from the variant's own start.
pub fn may_create_rated(
    me: &Me,
    seating: Seating,
    players: [Player; 2],
    from_position: bool,
) -> Result<(), ApiError> {
    if me.account.is_none() {
        return Err(ApiError::forbidden(
            "only a logged-in player may start a rated game; log in or sign up first",
        ));
    }
    let Seating::As(mine) = seating else {
        return Err(ApiError::bad(
            "a rated game needs you in one seat: send \"as\": \"white\", \"black\" or \"random\"",
        ));
    };
    if players[mine.index()] != Player::Human {
        return Err(ApiError::bad(
            "a rated game needs you in one seat, not the engine",
        ));
    }
    if from_position {
        return Err(ApiError::bad(
            "a game from a set-up position cannot be rated; leave out \"fen\" or \"rated\"",
        ));
    }
    Ok(())
}

/// Whether `me` may take the invitation to a seat of a rated game whose other seat
/// `other_owner` holds: only a logged-in person, and not the account that holds the other seat.
pub fn may_take_rated_seat(me: &Me, other_owner: Option<&Owner>) -> Result<(), ApiError> {
    let Some(account) = &me.account else {
        return Err(ApiError::forbidden(
            "this game is rated: log in or sign up before taking its seat",
        ));
    };
    if other_owner == Some(&Owner::Account(account.id.clone())) {
        return Err(ApiError::forbidden(
            "you already hold the other seat of this rated game; a rated game needs two players",
        ));
    }
    Ok(())
}

/// Whether `origin` (an `Origin` header) is this server: the request's own host, or the
/// public address the server was given.
fn same_origin(origin: &str, headers: &HeaderMap, public: Option<&str>) -> bool {
    if origin == "null" {
        return false;
    }
    let Some((scheme, host)) = origin.split_once("://") else {
        return false;
    };
    if !matches!(scheme, "http" | "https") {
        return false;
    }
    if let Some(p) = public {
        if origin.eq_ignore_ascii_case(p.trim_end_matches('/')) {
            return true;
        }
    }
    headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .is_some_and(|h| h.eq_ignore_ascii_case(host))
}

/// Refuses, from another site, every request that could change anything (any method but
/// GET, HEAD and OPTIONS) and every websocket: browsers say where a request comes from in
/// `Sec-Fetch-Site` and `Origin`; a request without either (a program, not a page) passes.
pub async fn refuse_other_sites(
    public: Arc<Option<String>>,
    request: Request,
    next: Next,
) -> Response {
    let headers = request.headers();
    let writes = !matches!(
        *request.method(),
        Method::GET | Method::HEAD | Method::OPTIONS
    );
    let websocket = headers
        .get(header::UPGRADE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.eq_ignore_ascii_case("websocket"));
    if writes || websocket {
        let site = headers
            .get("sec-fetch-site")
            .and_then(|v| v.to_str().ok())
            .unwrap_or("");
        let foreign_site = matches!(site, "cross-site" | "same-site");
        let foreign_origin = headers
            .get(header::ORIGIN)
            .map(|o| {
                !o.to_str()
                    .is_ok_and(|o| same_origin(o, headers, public.as_deref()))
            })
            .unwrap_or(false);
        if foreign_site || foreign_origin {
            return ApiError::forbidden("a request from another site may not change anything here")
                .into_response();
        }
    }
    next.run(request).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.append(*k, HeaderValue::from_str(v).unwrap());
        }
        h
    }

    #[test]
    fn authorization_is_bearer_or_nothing() {
        let h = headers(&[("authorization", "Bearer abc")]);
        assert_eq!(token_of(&h, "g").unwrap().as_deref(), Some("abc"));
        let h = headers(&[("authorization", "bearer  abc ")]);
        assert_eq!(token_of(&h, "g").unwrap().as_deref(), Some("abc"));
        let h = headers(&[("authorization", "abc")]);
        assert_eq!(token_of(&h, "g").unwrap_err().status, 401);
        let h = headers(&[("authorization", "Basic abc")]);
        assert_eq!(token_of(&h, "g").unwrap_err().status, 401);
        let h = headers(&[("authorization", "Bearer ")]);
        assert_eq!(token_of(&h, "g").unwrap(), None);
        // An empty header is no token: the cookie, else a spectator.
        let h = headers(&[
            ("authorization", ""),
            ("cookie", "x=1; menagerie-seat-g=tok"),
        ]);
        assert_eq!(token_of(&h, "g").unwrap().as_deref(), Some("tok"));
        let h = headers(&[("authorization", "  ")]);
        assert_eq!(token_of(&h, "g").unwrap(), None);
        let h = headers(&[("cookie", "menagerie-seat-other=tok")]);
        assert_eq!(token_of(&h, "g").unwrap(), None);
    }

    #[test]
    fn origins_are_compared_with_the_host() {
        let h = headers(&[("host", "127.0.0.1:8080")]);
        assert!(same_origin("http://127.0.0.1:8080", &h, None));
        assert!(same_origin("https://127.0.0.1:8080", &h, None));
        assert!(!same_origin("http://evil.example", &h, None));
        assert!(!same_origin("http://127.0.0.1:8081", &h, None));
        assert!(!same_origin("null", &h, None));
        assert!(!same_origin("127.0.0.1:8080", &h, None));
        let h = headers(&[("host", "internal:9000")]);
        assert!(same_origin(
            "https://play.example",
            &h,
            Some("https://play.example/")
        ));
    }
}
