//! Seeks and quick pairing: creating, listing, cancelling and accepting seeks; quick pairing
//! across sets of variants and time controls; the matching rule (lichess's hooks: anonymous
//! only with anonymous, accounts with accounts, rated only between accounts); and the game
//! two entries start.

use super::{db, person_key, Control, Entry, MAX_OPEN};
use crate::accounts::{self, Me, Owner};
use crate::api::JsonBody;
use crate::app::{random_id, ApiError, App, NewGame, Player, Seating};
use crate::clock::ClockSpec;
use crate::games;
use crate::limits::ClientIp;
use crate::ratings::{self, Rater};
use crate::store::now_ms;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::sync::Arc;
use tower_sessions::Session;

/// What a late accept is told.
const TAKEN: &str =
    "this seek is no longer open: another player took it first, or its owner cancelled it";

/// The lowest and highest rating a range may name.
const RATINGS: std::ops::RangeInclusive<i64> = 0..=4000;

/// `POST /api/seeks`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeekBody {
    variant: String,
    #[serde(default)]
    clock: Option<ClockSpec>,
    #[serde(default)]
    days: Option<u32>,
    #[serde(default)]
    rated: bool,
    #[serde(default)]
    color: Option<String>,
    #[serde(default)]
    rating_range: Option<[i64; 2]>,
}

/// `POST /api/pairing`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PairingBody {
    variants: Vec<String>,
    #[serde(default)]
    clocks: Vec<ClockSpec>,
    #[serde(default)]
    days: Vec<u32>,
    #[serde(default)]
    rated: bool,
    #[serde(default)]
    rating_range: Option<[i64; 2]>,
}

/// Reads the colour a player wants.
pub(crate) fn wanted_color(text: Option<&str>) -> Result<String, ApiError> {
    match text.unwrap_or("random") {
        c @ ("white" | "black" | "random") => Ok(c.to_string()),
        other => Err(ApiError::bad(format!(
            "color is \"white\", \"black\" or \"random\", not \"{}\"",
            other.chars().take(20).collect::<String>()
        ))),
    }
}

/// Checks a rating range `[LOW, HIGH]`.
fn checked_range(range: Option<[i64; 2]>, me: &Me) -> Result<Option<[i64; 2]>, ApiError> {
    let Some([lo, hi]) = range else {
        return Ok(None);
    };
    if me.account.is_none() {
        return Err(ApiError::bad(
            "a rating range needs an account: anonymous players have no rating",
        ));
    }
    if !(RATINGS.contains(&lo) && RATINGS.contains(&hi) && lo <= hi) {
        return Err(ApiError::bad(format!(
            "rating_range is [LOW, HIGH] with 0 <= LOW <= HIGH <= 4000, not [{lo}, {hi}]"
        )));
    }
    Ok(Some([lo, hi]))
}

/// Refuses what only accounts may seek: rated games and correspondence.
pub(crate) fn account_rules(me: &Me, rated: bool, correspondence: bool) -> Result<(), ApiError> {
    if me.account.is_some() {
        return Ok(());
    }
    if rated {
        return Err(ApiError::new(
            401,
            "rated games are for players logged in to an account: log in, or play casual",
        ));
    }
    if correspondence {
        return Err(ApiError::new(
            401,
            "correspondence games are for players logged in to an account: log in first",
        ));
    }
    Ok(())
}

/// `me`'s ratings in `variants` (none for anonymous players), and whether the first is
/// provisional.
pub(crate) async fn ratings_of(
    app: &App,
    me: &Me,
    variants: &[String],
) -> Result<(BTreeMap<String, f64>, bool), ApiError> {
    let mut out = BTreeMap::new();
    let mut provisional = false;
    if let Some(a) = &me.account {
        for (i, v) in variants.iter().enumerate() {
            let s = ratings::shown(app, &Rater::Account(a.id.clone()), v).await?;
            if i == 0 {
                provisional = s.provisional;
            }
            out.insert(v.clone(), s.rating);
        }
    }
    Ok((out, provisional))
}

/// The caller as an owner of seats (an anonymous id is made for a visitor with none).
async fn owner(app: &App, session: &Session, me: &Me) -> Result<Owner, ApiError> {
    match me.owner() {
        Some(o) => Ok(o),
        None => accounts::owner(app, session).await,
    }
}

/// Whether `b`'s rating in `variant` is inside `a`'s range.
fn in_range(a: &Entry, b: &Entry, variant: &str) -> bool {
    match a.range {
        None => true,
        Some([lo, hi]) => b
            .ratings
            .get(variant)
            .is_some_and(|r| (lo as f64..=hi as f64).contains(r)),
    }
}

/// What `older` and `newer` would play together (the variant and time control, in `older`'s
/// order of preference), or `None` when they may not meet.
pub(crate) fn compatible(older: &Entry, newer: &Entry) -> Option<(String, Control)> {
    if older.owner == newer.owner || older.account() != newer.account() {
        return None;
    }
    if older.rated != newer.rated {
        return None;
    }
    if older.color != "random" && older.color == newer.color {
        return None;
    }
    let control = older.controls.iter().find(|c| newer.controls.contains(c))?;
    let variant = older.variants.iter().find(|v| {
        newer.variants.contains(v) && in_range(older, newer, v) && in_range(newer, older, v)
    })?;
    Some((variant.clone(), *control))
}

/// Who takes an entry: a person (with its own entry: a quick pairing, or the acceptor of a
/// seek) or a bot.
pub(crate) enum Taker<'a> {
    /// A person.
    Person(&'a Entry),
    /// The engine at a level.
    Bot(u32),
}

/// Starts the game of `a` (whose owner's colour wish comes first) against `taker`; both
/// hear of it on their lobby websockets. Returns the game's id.
pub(crate) async fn start_game(
    app: &Arc<App>,
    a: &Entry,
    taker: Taker<'_>,
    variant: &str,
    control: Control,
    source: &str,
) -> Result<String, ApiError> {
    let taker_color = match &taker {
        Taker::Person(b) => b.color.as_str(),
        Taker::Bot(_) => "random",
    };
    let a_white = match (a.color.as_str(), taker_color) {
        ("white", _) => true,
        ("black", _) => false,
        (_, "white") => false,
        (_, "black") => true,
        _ => {
            let mut b = [0u8; 1];
            getrandom::fill(&mut b)
                .map_err(|e| ApiError::unavailable(format!("no randomness available: {e}")))?;
            b[0] & 1 == 0
        }
    };
    let ai = usize::from(!a_white);
    let mut players = [Player::Human; 2];
    let mut owners: [Option<Owner>; 2] = [None, None];
    owners[ai] = super::owner_of(&a.owner);
    match &taker {
        Taker::Person(b) => owners[1 - ai] = super::owner_of(&b.owner),
        Taker::Bot(n) => players[1 - ai] = Player::Engine(*n),
    }
    let made = app
        .create(NewGame {
            variant: variant.to_string(),
            fen: None,
            rules: BTreeMap::new(),
            players,
            clock: control.spec(),
            // Each player acts through its own session (account or anonymous), no key.
            seating: Seating::Tokens([false, false]),
            owners,
            client: None,
            rated: a.rated,
            days_per_turn: control.days_per_turn(),
        })
        .await?;
    let game = made.id;
    let url = format!("/game/{game}");
    let event =
        |id: &str| json!({"type": "game", "game": game, "url": url, "from": source, "id": id});
    app.lobby.tell(&a.owner, event(&a.id));
    if let Taker::Person(b) = taker {
        app.lobby.tell(&b.owner, event(&b.id));
    }
    Ok(game)
}

/// Pairs the new entry `e` (already stored) with the oldest compatible entry that is still
/// there (only quick pairings when `only_pairings`: a new seek is taken by a waiting quick
/// pairing, never by another seek). Returns the game when `e` was paired here.
pub(crate) async fn match_new(
    app: &Arc<App>,
    e: &Entry,
    only_pairings: bool,
) -> Result<Option<String>, ApiError> {
    let candidates: Vec<(Entry, (String, Control))> = app
        .lobby
        .snapshot()
        .into_iter()
        .filter(|c| c.id != e.id && (!only_pairings || c.pairing))
        .filter_map(|c| {
            // The older one's wishes come first.
            let m = if (c.created_at, &c.id) <= (e.created_at, &e.id) {
                compatible(&c, e)
            } else {
                compatible(e, &c)
            };
            m.map(|m| (c, m))
        })
        .collect();
    for (c, (variant, control)) in candidates {
        if db::take_pair(&app.store, &e.id, &c.id)
            .await
            .map_err(ApiError::unavailable)?
        {
            app.lobby.removed(&[e.id.clone(), c.id.clone()]);
            let (first, second) = if (c.created_at, &c.id) <= (e.created_at, &e.id) {
                (&c, e)
            } else {
                (e, &c)
            };
            let source = if first.pairing { "pairing" } else { "seek" };
            let game =
                start_game(app, first, Taker::Person(second), &variant, control, source).await?;
            return Ok(Some(game));
        }
        // Either was taken meanwhile: if it was `e`, its game is someone else's to start.
        if db::entry(&app.store, &e.id)
            .await
            .map_err(ApiError::unavailable)?
            .is_none()
        {
            return Ok(None);
        }
    }
    Ok(None)
}

/// Stores a new entry and puts it in the lobby.
async fn open(app: &Arc<App>, e: &Entry) -> Result<(), ApiError> {
    if db::count_owned(&app.store, &e.owner)
        .await
        .map_err(ApiError::unavailable)?
        >= MAX_OPEN
    {
        return Err(ApiError::new(
            429,
            format!("you have {MAX_OPEN} seeks and quick pairings open: cancel one first"),
        ));
    }
    // Anonymous people are cheap to make (a new cookie each): the address bounds them.
    if let Some(a) = &e.address {
        let most = app.limits.seeks_per_address();
        let open = db::count_from_address(&app.store, a)
            .await
            .map_err(ApiError::unavailable)?;
        if open >= most as i64 {
            return Err(ApiError::new(
                429,
                format!("this address has {most} seeks and quick pairings open, the most allowed: cancel one or wait until one is taken"),
            ));
        }
    }
    db::insert_entry(&app.store, e, now_ms())
        .await
        .map_err(ApiError::unavailable)?;
    app.lobby.added(e);
    Ok(())
}

fn game_answer(status: StatusCode, mut body: Value, game: Option<&str>) -> Response {
    if let Some(g) = game {
        body["game"] = json!(g);
        body["url"] = json!(format!("/game/{g}"));
    }
    crate::api::no_store((status, axum::Json(body)).into_response())
}

/// `POST /api/seeks`: `201 {"id"}` (with `"game"` and `"url"` when a waiting quick pairing
/// took it at once).
pub async fn create_seek(
    State(app): State<Arc<App>>,
    ClientIp(ip): ClientIp,
    session: Session,
    JsonBody(b): JsonBody<SeekBody>,
) -> Result<Response, ApiError> {
    let me = accounts::me(&app, &session).await?;
    let variant = games::variant_id(&b.variant)?.to_string();
    let control = Control::one_of(b.clock, b.days, "a seek")?;
    let color = wanted_color(b.color.as_deref())?;
    account_rules(&me, b.rated, control.days_per_turn().is_some())?;
    let range = checked_range(b.rating_range, &me)?;
    let owner = owner(&app, &session, &me).await?;
    let variants = vec![variant];
    let (ratings, provisional) = ratings_of(&app, &me, &variants).await?;
    let e = Entry {
        id: random_id()?,
        owner: person_key(&owner),
        name: me.account.as_ref().map(|a| a.name.clone()),
        variants,
        controls: vec![control],
        rated: b.rated,
        color,
        range,
        ratings,
        provisional,
        pairing: false,
        created_at: now_ms(),
        address: ip.map(|ip| ip.to_string()),
    };
    open(&app, &e).await?;
    let game = match_new(&app, &e, true).await?;
    Ok(game_answer(
        StatusCode::CREATED,
        json!({"id": e.id}),
        game.as_deref(),
    ))
}

/// `POST /api/pairing`: `201 {"game", "url"}` when paired at once, else `202 {"id",
/// "waiting": true}` (the game then comes on the lobby websocket).
pub async fn create_pairing(
    State(app): State<Arc<App>>,
    ClientIp(ip): ClientIp,
    session: Session,
    JsonBody(b): JsonBody<PairingBody>,
) -> Result<Response, ApiError> {
    let me = accounts::me(&app, &session).await?;
    if b.variants.is_empty() || b.variants.len() > 20 {
        return Err(ApiError::bad("a quick pairing names 1 to 20 variants"));
    }
    let mut variants: Vec<String> = Vec::new();
    for v in &b.variants {
        let id = games::variant_id(v)?.to_string();
        if !variants.contains(&id) {
            variants.push(id);
        }
    }
    if b.clocks.len() + b.days.len() == 0 || b.clocks.len() + b.days.len() > 20 {
        return Err(ApiError::bad(
            "a quick pairing names 1 to 20 time controls in \"clocks\" and \"days\"",
        ));
    }
    let mut controls = Vec::new();
    for c in &b.clocks {
        controls.push(Control::clock(*c)?);
    }
    for d in &b.days {
        controls.push(Control::days(*d)?);
    }
    account_rules(&me, b.rated, !b.days.is_empty())?;
    let range = checked_range(b.rating_range, &me)?;
    let owner = owner(&app, &session, &me).await?;
    let (ratings, provisional) = ratings_of(&app, &me, &variants).await?;
    let e = Entry {
        id: random_id()?,
        owner: person_key(&owner),
        name: me.account.as_ref().map(|a| a.name.clone()),
        variants,
        controls,
        rated: b.rated,
        color: "random".into(),
        range,
        ratings,
        provisional,
        pairing: true,
        created_at: now_ms(),
        address: ip.map(|ip| ip.to_string()),
    };
    open(&app, &e).await?;
    match match_new(&app, &e, false).await? {
        Some(game) => Ok(game_answer(StatusCode::CREATED, json!({}), Some(&game))),
        None => Ok(game_answer(
            StatusCode::ACCEPTED,
            json!({"id": e.id, "waiting": true}),
            None,
        )),
    }
}

/// `GET /api/seeks`: the open seeks, oldest first.
pub async fn list_seeks(State(app): State<Arc<App>>) -> Response {
    crate::api::no_store(axum::Json(app.lobby.seeks_json()).into_response())
}

/// `GET /api/lobby`: the counts, the bots and how many seeks are open.
pub async fn lobby_info(State(app): State<Arc<App>>) -> Response {
    let (online, playing) = app.lobby.counts();
    let bots = super::bots::list_json(&app).await;
    crate::api::no_store(
        axum::Json(json!({
            "online": online, "playing": playing, "bots": bots,
            "seeks": app.lobby.seeks_json().len(),
        }))
        .into_response(),
    )
}

/// `DELETE /api/seeks/{id}` (and `/api/pairing/{id}`): the owner cancels it.
pub async fn cancel_seek(
    State(app): State<Arc<App>>,
    session: Session,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let me = accounts::me(&app, &session).await?;
    let Some(e) = db::entry(&app.store, &id)
        .await
        .map_err(ApiError::unavailable)?
    else {
        return Err(if app.lobby.was_gone(&id) {
            ApiError::conflict("this seek is no longer open: it was taken or cancelled")
        } else {
            ApiError::not_found("there is no such seek")
        });
    };
    let mine = me
        .account
        .as_ref()
        .map(|a| format!("a:{}", a.id))
        .as_deref()
        == Some(e.owner.as_str())
        || me.anon.as_ref().map(|a| format!("n:{a}")).as_deref() == Some(e.owner.as_str());
    if !mine {
        return Err(ApiError::forbidden("only its owner may cancel a seek"));
    }
    if !db::delete_owned(&app.store, &id, &e.owner)
        .await
        .map_err(ApiError::unavailable)?
    {
        return Err(ApiError::conflict(
            "this seek is no longer open: another player took it a moment ago",
        ));
    }
    app.lobby.removed(std::slice::from_ref(&id));
    Ok(crate::api::no_store(
        axum::Json(json!({"id": id, "cancelled": true})).into_response(),
    ))
}

/// `POST /api/seeks/{id}/accept`: `201 {"game", "url"}` for the one who gets it, `409
/// {"error"}` for the others.
pub async fn accept_seek(
    State(app): State<Arc<App>>,
    session: Session,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let me = accounts::me(&app, &session).await?;
    let found = db::entry(&app.store, &id)
        .await
        .map_err(ApiError::unavailable)?
        .filter(|e| !e.pairing);
    let Some(seek) = found else {
        return Err(if app.lobby.was_gone(&id) {
            ApiError::conflict(TAKEN)
        } else {
            ApiError::not_found("there is no such seek")
        });
    };
    let owner = owner(&app, &session, &me).await?;
    let key = person_key(&owner);
    if key == seek.owner {
        return Err(ApiError::bad(
            "this is your own seek: wait for an opponent, or cancel it",
        ));
    }
    if seek.account() && me.account.is_none() {
        return Err(ApiError::forbidden(
            "this seek is for players with an account: log in to accept it",
        ));
    }
    if !seek.account() && me.account.is_some() {
        return Err(ApiError::forbidden(
            "this seek is for anonymous players: accounts meet accounts, anonymous players meet anonymous ones",
        ));
    }
    let (Some(variant), Some(control)) = (seek.variants.first(), seek.controls.first()) else {
        return Err(ApiError::conflict(TAKEN));
    };
    let (ratings, provisional) = ratings_of(&app, &me, std::slice::from_ref(variant)).await?;
    if let (Some([lo, hi]), Some(r)) = (seek.range, ratings.get(variant)) {
        if !(lo as f64..=hi as f64).contains(r) {
            return Err(ApiError::forbidden(format!(
                "your rating in {variant} ({}) is outside this seek's range, {lo} to {hi}",
                r.round()
            )));
        }
    }
    let acceptor = Entry {
        id: String::new(),
        owner: key,
        name: me.account.as_ref().map(|a| a.name.clone()),
        variants: vec![variant.clone()],
        controls: vec![*control],
        rated: seek.rated,
        color: "random".into(),
        range: None,
        ratings,
        provisional,
        pairing: false,
        created_at: now_ms(),
        address: None,
    };
    // The one DELETE that removes the row decides who gets the game.
    let Some(seek) = db::take(&app.store, &id)
        .await
        .map_err(ApiError::unavailable)?
    else {
        return Err(ApiError::conflict(TAKEN));
    };
    app.lobby.removed(std::slice::from_ref(&id));
    let variant = variant.clone();
    let control = *control;
    match start_game(
        &app,
        &seek,
        Taker::Person(&acceptor),
        &variant,
        control,
        "seek",
    )
    .await
    {
        Ok(game) => Ok(game_answer(StatusCode::CREATED, json!({}), Some(&game))),
        Err(e) => {
            // No game: the seek is open again.
            if db::insert_entry(&app.store, &seek, now_ms()).await.is_ok() {
                app.lobby.added(&seek);
            }
            Err(e)
        }
    }
}
