//! People's games (issue 29): the lists of games with names, turns and results; a player's
//! profile and history; "my games" for the caller's session; a player's games as one PGN.

use crate::accounts;
use crate::app::{ApiError, App};
use crate::both;
use crate::games::{parse_color, Viewer};
use crate::store::{db_err, GameRow, Store};
use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap, HeaderValue};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::{json, Map, Value};
use sqlx::Row;
use std::collections::BTreeMap;
use std::sync::Arc;
use tower_sessions::Session;

/// Games a page of a profile's history holds.
pub const PROFILE_PAGE: i64 = 20;
/// Games a page of `GET /api/games` holds.
pub const LIST_PAGE: i64 = 50;
/// The most games one PGN download holds (the newest).
pub const PGN_GAMES: i64 = 500;

/// A game in a list, with its players' names.
#[derive(Clone, Debug)]
pub struct Listed {
    /// The game.
    pub row: GameRow,
    /// White's and Black's account names (`deleted` for a deleted account).
    pub names: [Option<String>; 2],
}

/// A text to bind to a query built piece by piece.
#[derive(Clone, Debug)]
enum Bind {
    Text(String),
}

/// The games joined with their seats' owners and accounts (`g`, `wo`, `bo`, `wa`, `ba`).
fn listed_sql() -> String {
    format!("SELECT {}, {LISTED_REST}", crate::store::G_GAME_COLUMNS)
}

const LISTED_REST: &str = "wa.name AS white_name, wa.deleted AS white_deleted, \
     ba.name AS black_name, ba.deleted AS black_deleted, wo.account_id AS white_account, \
     bo.account_id AS black_account \
     FROM games g \
     LEFT JOIN seat_owners wo ON wo.game_id = g.id AND wo.seat = 'white' \
     LEFT JOIN accounts wa ON wa.id = wo.account_id \
     LEFT JOIN seat_owners bo ON bo.game_id = g.id AND bo.seat = 'black' \
     LEFT JOIN accounts ba ON ba.id = bo.account_id";

macro_rules! listed {
    ($r:expr) => {
        (|| -> Result<(Listed, [Option<String>; 2]), sqlx::Error> {
            let name = |n: Option<String>, d: Option<bool>| {
                if d == Some(true) {
                    Some("deleted".to_string())
                } else {
                    n
                }
            };
            Ok((
                Listed {
                    row: crate::game_row!($r)?,
                    names: [
                        name($r.try_get("white_name")?, $r.try_get("white_deleted")?),
                        name($r.try_get("black_name")?, $r.try_get("black_deleted")?),
                    ],
                },
                [$r.try_get("white_account")?, $r.try_get("black_account")?],
            ))
        })()
    };
}

impl Store {
    /// Games matching `filter` (SQL over `g`, `wo`, `bo`, `wa`, `ba` with `?` placeholders),
    /// newest first by `order`, with each game's owning account ids.
    async fn listed(
        &self,
        filter: &str,
        binds: &[Bind],
        order: &str,
        limit: i64,
        offset: i64,
    ) -> Result<Vec<(Listed, [Option<String>; 2])>, String> {
        let q = self.query_text(&format!(
            "{} WHERE {filter} ORDER BY {order} LIMIT ? OFFSET ?",
            listed_sql()
        ));
        both!(self, p => {
            let mut query = sqlx::query(&q);
            for Bind::Text(t) in binds {
                query = query.bind(t.clone());
            }
            let rows = query.bind(limit).bind(offset).fetch_all(p).await.map_err(db_err)?;
            rows.iter().map(|r| listed!(r)).collect::<Result<Vec<_>, _>>().map_err(db_err)
        })
    }

    /// How many games match `filter`.
    async fn count(&self, filter: &str, binds: &[Bind]) -> Result<i64, String> {
        let q = self.query_text(&format!(
            "SELECT COUNT(*) AS n FROM ({} WHERE {filter}) AS matched",
            listed_sql()
        ));
        both!(self, p => {
            let mut query = sqlx::query(&q);
            for Bind::Text(t) in binds {
                query = query.bind(t.clone());
            }
            query.fetch_one(p).await.and_then(|r| r.try_get::<i64, _>("n")).map_err(db_err)
        })
    }

    /// An account's `(id, name, created_at)` by name (ignoring case), unless deleted.
    pub async fn profile(&self, name: &str) -> Result<Option<(String, String, i64)>, String> {
        let q = self.query_text(
            "SELECT id, name, created_at FROM accounts WHERE name_key = ? AND deleted = FALSE",
        );
        let key = name.to_ascii_lowercase();
        both!(self, p => {
            let row = sqlx::query(&q).bind(&key).fetch_optional(p).await.map_err(db_err)?;
            row.map(|r| Ok((r.try_get::<String, _>("id")?, r.try_get::<String, _>("name")?, r.try_get::<i64, _>("created_at")?)))
                .transpose()
                .map_err(|e: sqlx::Error| db_err(e))
        })
    }

    /// The games whose seats `owner` (an account id or an anonymous id) owns, with the seat.
    pub async fn owned_games(
        &self,
        account: Option<&str>,
        anon: Option<&str>,
        limit: i64,
    ) -> Result<Vec<(Listed, String)>, String> {
        let q = self.query_text(&format!(
            "SELECT l.*, mine.seat AS seat FROM ({}) AS l JOIN seat_owners mine ON mine.game_id = l.id \
             WHERE mine.account_id = ? OR mine.anon_id = ? ORDER BY l.updated_at DESC LIMIT ?",
            listed_sql()
        ));
        both!(self, p => {
            let rows = sqlx::query(&q).bind(account).bind(anon).bind(limit)
                .fetch_all(p).await.map_err(db_err)?;
            rows.iter()
                .map(|r| Ok((listed!(r)?.0, r.try_get::<String, _>("seat")?)))
                .collect::<Result<Vec<_>, sqlx::Error>>()
                .map_err(db_err)
        })
    }
}

/// A game of a list as JSON (`color`: the seat of the player whose list it is, if any).
pub fn game_json(l: &Listed, color: Option<&str>) -> Value {
    let r = &l.row;
    let s = &r.summary;
    let mut v = json!({
        "id": r.id,
        "url": format!("/game/{}", r.id),
        "variant": r.variant,
        "white": r.white,
        "black": r.black,
        "names": {"white": l.names[0], "black": l.names[1]},
        "created_at": r.created_at,
        "updated_at": r.updated_at,
        "finished": r.finished,
        "rated": r.rated,
        "turns": s.turns,
        "to_move": if s.to_move.is_empty() { Value::Null } else { json!(s.to_move) },
        "result": s.result,
        "winner": s.winner,
        "termination": s.termination,
        "outcome": s.sentence,
    });
    if let Some(c) = color {
        v["color"] = json!(c);
        let mine = parse_color(c);
        v["your_turn"] = json!(!r.finished && mine.is_some() && s.to_move == c);
        let other = if c == "white" { "black" } else { "white" };
        let i = usize::from(other == "black");
        v["opponent"] = json!({"player": if other == "white" { &r.white } else { &r.black }, "name": l.names[i]});
        v["score"] = match (&s.winner, r.finished) {
            (_, false) => Value::Null,
            (Some(w), true) if w == c => json!("won"),
            (Some(_), true) => json!("lost"),
            (None, true) if s.termination.as_deref() == Some(crate::games::ABORTED) => {
                json!("aborted")
            }
            (None, true) => json!("drawn"),
        };
    }
    v
}

/// The query of the lists: `variant`, `player`, `result` and `page` (from 1).
#[derive(Deserialize, Default)]
pub struct ListQuery {
    variant: Option<String>,
    player: Option<String>,
    result: Option<String>,
    page: Option<String>,
}

fn page_of(q: &ListQuery) -> Result<i64, ApiError> {
    match q.page.as_deref() {
        None | Some("") => Ok(1),
        Some(p) => p
            .parse::<i64>()
            .ok()
            .filter(|p| (1..=100_000).contains(p))
            .ok_or_else(|| ApiError::bad("page is a whole number from 1")),
    }
}

fn query_of(
    q: Result<Query<ListQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<ListQuery, ApiError> {
    q.map(|Query(q)| q)
        .map_err(|_| ApiError::bad("the query holds variant, player, result and page only"))
}

/// `GET /api/games?variant=&player=&page=`: games, the most recently active first.
pub async fn recent(
    State(app): State<Arc<App>>,
    q: Result<Query<ListQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Response, ApiError> {
    let q = query_of(q)?;
    let page = page_of(&q)?;
    let mut filter = String::from("1 = 1");
    let mut binds = Vec::new();
    if let Some(v) = q.variant.as_deref().filter(|v| !v.is_empty()) {
        filter.push_str(" AND g.variant = ?");
        binds.push(Bind::Text(v.chars().take(64).collect()));
    }
    if let Some(p) = q.player.as_deref().filter(|p| !p.is_empty()) {
        filter.push_str(" AND (wa.name_key = ? OR ba.name_key = ?)");
        let key: String = p.chars().take(64).collect::<String>().to_ascii_lowercase();
        binds.push(Bind::Text(key.clone()));
        binds.push(Bind::Text(key));
    }
    let rows = app
        .store
        .listed(
            &filter,
            &binds,
            "g.updated_at DESC",
            LIST_PAGE,
            (page - 1) * LIST_PAGE,
        )
        .await
        .map_err(ApiError::unavailable)?;
    let list: Vec<Value> = rows.iter().map(|(l, _)| game_json(l, None)).collect();
    Ok(crate::api::no_store(
        axum::Json(Value::Array(list)).into_response(),
    ))
}

/// The filter of a profile's games: the account's, with `variant` and `result`.
fn profile_filter(account: &str, q: &ListQuery) -> Result<(String, Vec<Bind>), ApiError> {
    let a = || Bind::Text(account.to_string());
    let mut filter = String::from("(wo.account_id = ? OR bo.account_id = ?)");
    let mut binds = vec![a(), a()];
    if let Some(v) = q.variant.as_deref().filter(|v| !v.is_empty()) {
        filter.push_str(" AND g.variant = ?");
        binds.push(Bind::Text(v.chars().take(64).collect()));
    }
    match q.result.as_deref() {
        None | Some("") => {}
        Some("won") => {
            filter.push_str(" AND ((wo.account_id = ? AND g.winner = 'white') OR (bo.account_id = ? AND g.winner = 'black'))");
            binds.extend([a(), a()]);
        }
        Some("lost") => {
            filter.push_str(" AND ((wo.account_id = ? AND g.winner = 'black') OR (bo.account_id = ? AND g.winner = 'white'))");
            binds.extend([a(), a()]);
        }
        Some("drawn") => filter.push_str(
            " AND g.finished = TRUE AND g.winner IS NULL AND COALESCE(g.termination, '') <> 'aborted'",
        ),
        Some(_) => return Err(ApiError::bad("result is won, drawn or lost")),
    }
    Ok((filter, binds))
}

/// The seat `account` owns in a listed game.
fn color_of(owners: &[Option<String>; 2], account: &str) -> Option<&'static str> {
    if owners[0].as_deref() == Some(account) {
        Some("white")
    } else if owners[1].as_deref() == Some(account) {
        Some("black")
    } else {
        None
    }
}

pub(crate) async fn find_user(app: &App, name: &str) -> Result<(String, String, i64), ApiError> {
    app.store
        .profile(name)
        .await
        .map_err(ApiError::unavailable)?
        .ok_or_else(|| {
            ApiError::not_found(format!(
                "there is no player named '{}'",
                name.chars().take(40).collect::<String>()
            ))
        })
}

/// `GET /api/users/{name}`: the name, per-variant counts and the games in progress.
pub async fn user(
    State(app): State<Arc<App>>,
    Path(name): Path<String>,
) -> Result<Response, ApiError> {
    let (id, name, created_at) = find_user(&app, &name).await?;
    let all = app
        .store
        .listed(
            "(wo.account_id = ? OR bo.account_id = ?)",
            &[Bind::Text(id.clone()), Bind::Text(id.clone())],
            "g.updated_at DESC",
            10_000,
            0,
        )
        .await
        .map_err(ApiError::unavailable)?;
    let mut counts: BTreeMap<String, [i64; 4]> = BTreeMap::new();
    let mut playing = Vec::new();
    for (l, owners) in &all {
        let color = color_of(owners, &id);
        let c = counts.entry(l.row.variant.clone()).or_default();
        c[0] += 1;
        if !l.row.finished {
            playing.push(game_json(l, color));
            continue;
        }
        // An aborted game has no result: counted among the games only.
        let aborted = l.row.summary.termination.as_deref() == Some(crate::games::ABORTED);
        match (&l.row.summary.winner, color) {
            (None, _) if aborted => {}
            (None, _) => c[2] += 1,
            (Some(w), Some(me)) if w == me => c[1] += 1,
            (Some(_), Some(_)) => c[3] += 1,
            (Some(_), None) => {}
        }
    }
    let counts: Map<String, Value> = counts
        .into_iter()
        .map(|(v, [games, wins, draws, losses])| {
            (
                v,
                json!({"games": games, "wins": wins, "draws": draws, "losses": losses}),
            )
        })
        .collect();
    Ok(crate::api::no_store(
        axum::Json(json!({
            "name": name,
            "created_at": created_at,
            "counts": counts,
            "playing": playing,
            "ratings": crate::ratings::user_ratings(&app, &id).await?,
        }))
        .into_response(),
    ))
}

/// `GET /api/users/{name}/games?variant=&result=&page=`: newest first, 20 a page.
pub async fn user_games(
    State(app): State<Arc<App>>,
    Path(name): Path<String>,
    q: Result<Query<ListQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Response, ApiError> {
    let q = query_of(q)?;
    let page = page_of(&q)?;
    let (id, _, _) = find_user(&app, &name).await?;
    let (filter, binds) = profile_filter(&id, &q)?;
    let total = app
        .store
        .count(&filter, &binds)
        .await
        .map_err(ApiError::unavailable)?;
    let rows = app
        .store
        .listed(
            &filter,
            &binds,
            "g.created_at DESC",
            PROFILE_PAGE,
            (page - 1) * PROFILE_PAGE,
        )
        .await
        .map_err(ApiError::unavailable)?;
    let games: Vec<Value> = rows
        .iter()
        .map(|(l, owners)| game_json(l, color_of(owners, &id)))
        .collect();
    let pages = ((total + PROFILE_PAGE - 1) / PROFILE_PAGE).max(1);
    Ok(crate::api::no_store(
        axum::Json(json!({"games": games, "page": page, "pages": pages, "total": total}))
            .into_response(),
    ))
}

/// `GET /api/users/{name}/games.pgn`: the player's newest 500 games, one record each, as
/// everyone may read them (a game still running: the public record).
pub async fn user_pgn(
    State(app): State<Arc<App>>,
    Path(name): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let (id, name, _) = find_user(&app, &name).await?;
    let rows = app
        .store
        .listed(
            "(wo.account_id = ? OR bo.account_id = ?)",
            &[Bind::Text(id.clone()), Bind::Text(id)],
            "g.created_at DESC",
            PGN_GAMES,
            0,
        )
        .await
        .map_err(ApiError::unavailable)?;
    let site = crate::record::site_base(&app, &headers);
    let mut out = String::new();
    for (l, _) in &rows {
        let h = match app.handle(&l.row.id).await {
            Ok(h) => h,
            Err(e) => {
                crate::log(&format!(
                    "game {}: left out of a PGN download: {}",
                    l.row.id, e.message
                ));
                continue;
            }
        };
        let live = h.live.lock().await;
        out.push_str(&crate::record::write(&live, Viewer::Spectator, &site));
        out.push('\n');
    }
    let mut r = out.into_response();
    r.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/x-chess-pgn; charset=utf-8"),
    );
    if let Ok(v) = HeaderValue::from_str(&format!("attachment; filename=\"menagerie-{name}.pgn\""))
    {
        r.headers_mut().insert(header::CONTENT_DISPOSITION, v);
    }
    Ok(crate::api::no_store(r))
}

/// `GET /api/account/games`: the caller's games (account and this browser's anonymous
/// ones): in progress first, the caller's turn first among them, then finished, newest first.
pub async fn my_games(State(app): State<Arc<App>>, session: Session) -> Result<Response, ApiError> {
    let me = accounts::me(&app, &session).await?;
    let account = me.account.as_ref().map(|a| a.id.as_str());
    if account.is_none() && me.anon.is_none() {
        return Ok(crate::api::no_store(axum::Json(json!([])).into_response()));
    }
    let rows = app
        .store
        .owned_games(account, me.anon.as_deref(), 300)
        .await
        .map_err(ApiError::unavailable)?;
    let mut games: Vec<Value> = rows
        .iter()
        .map(|(l, seat)| game_json(l, Some(seat.as_str())))
        .collect();
    // Stable: newest first within each group.
    games.sort_by_key(|g| {
        (
            g["finished"].as_bool().unwrap_or(true),
            !g["your_turn"].as_bool().unwrap_or(false),
        )
    });
    Ok(crate::api::no_store(
        axum::Json(Value::Array(games)).into_response(),
    ))
}
