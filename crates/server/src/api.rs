//! The HTTP API (`docs/api.md`): handlers, authentication and JSON errors.

use crate::app::{ApiError, App, Created, Handle, Live, NewGame, Player, Seating};
use crate::games::{self, color_word, Viewer};
use crate::limits::ClientIp;
use crate::record;
use axum::body::{Body, Bytes};
use axum::extract::{FromRequest, Path, Query, Request, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use menagerie_core::Color;
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

/// The largest request body accepted, in bytes.
pub const MAX_BODY: usize = 64 * 1024;

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        if self.status == 503 || self.status == 500 {
            // Every failed write and every defect leaves one line in the log.
            crate::log(&format!("answered {}: {}", self.status, self.message));
        }
        let status = StatusCode::from_u16(self.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        (status, axum::Json(json!({"error": self.message}))).into_response()
    }
}

/// A JSON body read with a size limit; every failure is a JSON error sentence.
pub struct JsonBody<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for JsonBody<T> {
    type Rejection = ApiError;
    async fn from_request(req: Request, _state: &S) -> Result<Self, ApiError> {
        let json = is_json(req.headers());
        let bytes = read_body(req).await?;
        let text = if bytes.iter().all(|b| b.is_ascii_whitespace()) {
            &b"{}"[..]
        } else if !json {
            // A form, text/plain or multipart body is what another site's page can send
            // without asking: only JSON is read.
            return Err(ApiError::new(
                415,
                "the request body must be JSON, sent with Content-Type: application/json",
            ));
        } else {
            &bytes[..]
        };
        let value: Value = serde_json::from_slice(text).map_err(|e| {
            ApiError::bad(format!("the request body is not the JSON expected: {e}"))
        })?;
        if !value.is_object() {
            return Err(ApiError::bad(
                "the request body is not the JSON expected: an object {...} is expected",
            ));
        }
        serde_json::from_value(value)
            .map(JsonBody)
            .map_err(|e| ApiError::bad(format!("the request body is not the JSON expected: {e}")))
    }
}

/// Whether the request says its body is JSON (`application/json`, parameters allowed).
pub fn is_json(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|v| v.trim().eq_ignore_ascii_case("application/json"))
}

/// The body as bytes, at most [`MAX_BODY`].
pub async fn read_body(req: Request) -> Result<Bytes, ApiError> {
    if let Some(len) = req
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok())
    {
        if len > MAX_BODY as u64 {
            return Err(too_large());
        }
    }
    axum::body::to_bytes(req.into_body(), MAX_BODY)
        .await
        .map_err(|_| too_large())
}

fn too_large() -> ApiError {
    ApiError::new(
        413,
        format!("the request body is larger than the {MAX_BODY} bytes this server accepts"),
    )
}

use crate::access::{seat_of, viewer_of};
use tower_sessions::Session;

type AppState = State<Arc<App>>;

/// `GET /api/variants`.
pub async fn variants() -> Response {
    axum::Json(games::variants_json()).into_response()
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateBody {
    variant: String,
    #[serde(default)]
    fen: Option<String>,
    #[serde(default)]
    rules: BTreeMap<String, Value>,
    #[serde(default)]
    white: Option<String>,
    #[serde(default)]
    black: Option<String>,
    #[serde(default)]
    clock: Option<crate::clock::ClockSpec>,
    /// The creator's seat: `white`, `black`, `random` or `none` (absent: every key).
    #[serde(default, rename = "as")]
    seat: Option<String>,
    /// Whether the game is rated (issue 33).
    #[serde(default)]
    rated: bool,
}

/// The answer to a game's creation: only the keys its creator may hold.
fn created(c: &Created) -> Response {
    let mut seats = serde_json::Map::new();
    for (color, t) in &c.tokens {
        seats.insert(
            color_word(*color).to_string(),
            json!({"token": t, "url": format!("/play/{t}")}),
        );
    }
    let mut invites = serde_json::Map::new();
    for (color, code) in &c.invites {
        invites.insert(
            color_word(*color).to_string(),
            json!({"url": format!("/join/{code}"), "color": color_word(*color)}),
        );
    }
    // The one invitation of a game whose creator took a seat.
    let invite = if c.invites.len() == 1 && c.tokens.len() == 1 {
        invites.values().next().cloned()
    } else {
        None
    };
    let id = &c.id;
    no_store(
        (
            StatusCode::CREATED,
            axum::Json(json!({
                "id": id,
                "url": format!("/game/{id}"),
                "seats": seats,
                "umpire": c.umpire.as_ref().map(|t| json!({"token": t})),
                "invite": invite,
                "invites": invites,
            })),
        )
            .into_response(),
    )
}

/// Reads `"as"`: who receives which key.
fn seating(seat: Option<&str>) -> Result<Seating, ApiError> {
    Ok(match seat {
        None => Seating::All,
        Some("white") => Seating::As(Color::White),
        Some("black") => Seating::As(Color::Black),
        Some("random") => {
            let mut b = [0u8; 1];
            getrandom::fill(&mut b)
                .map_err(|e| ApiError::unavailable(format!("no randomness available: {e}")))?;
            Seating::As(if b[0] & 1 == 0 {
                Color::White
            } else {
                Color::Black
            })
        }
        Some("none") => Seating::Organiser,
        Some(other) => {
            return Err(ApiError::bad(format!(
                "\"as\" is \"white\", \"black\", \"random\" or \"none\", not \"{}\"",
                other.chars().take(20).collect::<String>()
            )))
        }
    })
}

/// `POST /api/games`.
pub async fn create(
    State(app): AppState,
    ClientIp(ip): ClientIp,
    session: Session,
    JsonBody(b): JsonBody<CreateBody>,
) -> Result<Response, ApiError> {
    let white = Player::parse(b.white.as_deref().unwrap_or("human"))?;
    let black = Player::parse(b.black.as_deref().unwrap_or("human"))?;
    let seating = seating(b.seat.as_deref())?;
    if b.rated {
        let me = crate::accounts::me(&app, &session).await?;
        crate::access::may_create_rated(&me, seating, [white, black], b.fen.is_some())?;
    }
    let mut owners = [None, None];
    if let Seating::As(me) = seating {
        if [white, black][me.index()] != Player::Human {
            return Err(ApiError::bad(format!(
                "you cannot take {}'s seat: the engine plays it",
                color_word(me)
            )));
        }
        owners[me.index()] = Some(crate::accounts::owner(&app, &session).await?);
    }
    if let Some(f) = &b.fen {
        if f.len() > 4096 {
            return Err(ApiError::bad(
                "the position string is longer than 4096 characters",
            ));
        }
    }
    app.limits.may_create(ip)?;
    let made = app
        .create(NewGame {
            variant: b.variant,
            fen: b.fen,
            rules: b.rules,
            players: [white, black],
            clock: b
                .clock
                .map(|c| c.checked())
                .transpose()
                .map_err(ApiError::bad)?,
            seating,
            owners,
            client: ip,
            rated: b.rated,
            days_per_turn: None,
        })
        .await?;
    Ok(created(&made))
}

/// `GET /api/games/{id}`.
pub async fn state(
    State(app): AppState,
    Path(id): Path<String>,
    session: Session,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let viewer = viewer_of(&app, &headers, &session, &id).await?;
    let h = app.handle(&id).await?;
    let live = h.live.lock().await;
    Ok(no_store(axum::Json(live.state(viewer)).into_response()))
}

/// Marks an answer as one no cache may keep (it depends on who asks).
pub fn no_store(mut r: Response) -> Response {
    r.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    r
}

/// The seat a request acts for, and the game.
async fn acting(
    app: &Arc<App>,
    headers: &HeaderMap,
    session: &Session,
    id: &str,
) -> Result<(Color, Arc<Handle>), ApiError> {
    let me = seat_of(app, headers, session, id).await?;
    let h = app.handle(id).await?;
    Ok((me, h))
}

fn ok_state(live: &Live, me: Color) -> Result<Response, ApiError> {
    Ok(no_store(
        axum::Json(live.state(Viewer::Player(me))).into_response(),
    ))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveBody {
    #[serde(rename = "move")]
    mv: String,
}

/// `POST /api/games/{id}/move`.
pub async fn play(
    State(app): AppState,
    Path(id): Path<String>,
    session: Session,
    headers: HeaderMap,
    JsonBody(b): JsonBody<MoveBody>,
) -> Result<Response, ApiError> {
    // A turn reads nothing before its append (one round trip); `play_turn` catches up and
    // checks again when this process's copy of the game was behind.
    let me = seat_of(&app, &headers, &session, &id).await?;
    let h = app.handle_for_turn(&id).await?;
    let mut live = h.live.lock().await;
    if b.mv.len() > 256 {
        return Err(ApiError::bad("a turn's text is at most 256 characters"));
    }
    app.play_turn(&h, &mut live, me, &b.mv).await?;
    ok_state(&live, me)
}

fn over(live: &Live) -> Result<(), ApiError> {
    match live.outcome() {
        Some(o) => Err(ApiError::conflict(format!(
            "the game is over: {}",
            games::describe(&o)
        ))),
        None => Ok(()),
    }
}

/// `POST /api/games/{id}/abort`: a player ends the game before both players have moved;
/// no result (`*`), termination `aborted`. The events `{"type":"abort","color"}` and `end`.
pub async fn abort(
    State(app): AppState,
    Path(id): Path<String>,
    session: Session,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let (me, h) = acting(&app, &headers, &session, &id).await?;
    let mut live = h.live.lock().await;
    over(&live)?;
    if live.both_moved() {
        return Err(ApiError::conflict(
            "the game can no longer be aborted: both players have moved (resign or offer a draw instead)",
        ));
    }
    let mut end = games::outcome_json(&games::external_outcome(
        live.game.as_ref(),
        games::ABORTED,
        None,
    ));
    end["type"] = json!("end");
    end["by"] = json!("abort");
    let events = vec![json!({"type": "abort", "color": color_word(me)}), end];
    app.commit(&h, &mut live, events).await?;
    ok_state(&live, me)
}

/// A claim on the opponent's absence (`win-on-absence`, `draw-on-absence`): refused unless
/// the game is live between two people who both moved, the absent opponent is to move, and it
/// has had no connection for the absence the server allows (30 s) during that turn.
async fn claim_on_absence(
    app: &Arc<App>,
    h: &Arc<Handle>,
    live: &mut Live,
    me: Color,
    win: bool,
) -> Result<(), ApiError> {
    if live.correspondence() {
        return Err(ApiError::conflict(
            "a claim on absence is for live games; a correspondence game waits for its days per turn",
        ));
    }
    if matches!(live.player(me.other()), Player::Engine(_)) {
        return Err(ApiError::conflict("the engine never leaves the table"));
    }
    if !live.both_moved() {
        return Err(ApiError::conflict(
            "a claim on absence needs both players to have moved; abort the game instead",
        ));
    }
    if live.game.turn() == me {
        return Err(ApiError::conflict(
            "it is your turn: a claim on absence is made while the absent opponent is to move",
        ));
    }
    app.refresh_presence(live);
    let limit = live.absence_ms / 1000;
    match live.absence(crate::store::now_ms()) {
        None => Err(ApiError::conflict(format!(
            "your opponent is at the table; a claim needs {limit} seconds without any connection on their turn"
        ))),
        Some((_, left)) if left > 0 => Err(ApiError::conflict(format!(
            "your opponent has not been away for {limit} seconds on their turn yet; you may claim in {} s",
            (left + 999) / 1000
        ))),
        Some(_) => {
            let o = games::external_outcome(
                live.game.as_ref(),
                games::ABSENCE,
                win.then_some(me),
            );
            app.end(h, live, o, "claim").await
        }
    }
}

/// `POST /api/games/{id}/resign`.
pub async fn resign(
    State(app): AppState,
    Path(id): Path<String>,
    session: Session,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let (me, h) = acting(&app, &headers, &session, &id).await?;
    let mut live = h.live.lock().await;
    over(&live)?;
    let o = games::external_outcome(live.game.as_ref(), "resignation", Some(me.other()));
    app.end(&h, &mut live, o, "resignation").await?;
    ok_state(&live, me)
}

/// `POST /api/games/{id}/offer-draw`: an offer, or the acceptance of the opponent's.
pub async fn offer_draw(
    State(app): AppState,
    Path(id): Path<String>,
    session: Session,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let (me, h) = acting(&app, &headers, &session, &id).await?;
    let mut live = h.live.lock().await;
    over(&live)?;
    if live.draw_offer == Some(me.other()) {
        let o = games::external_outcome(live.game.as_ref(), "agreement", None);
        app.end(&h, &mut live, o, "agreement").await?;
        return ok_state(&live, me);
    }
    if live.draw_offer == Some(me) {
        return Err(ApiError::conflict("you have already offered a draw"));
    }
    let mut events = vec![json!({"type": "draw-offer", "color": color_word(me)})];
    if matches!(live.player(me.other()), Player::Engine(_)) {
        // The engine plays on.
        events.push(json!({"type": "draw-decline", "color": color_word(me.other())}));
    }
    app.commit(&h, &mut live, events).await?;
    ok_state(&live, me)
}

/// Refuses unless the opponent of `me` has offered a draw (to `verb`: accept, decline).
fn opponents_draw_offer(live: &Live, me: Color, verb: &str) -> Result<(), ApiError> {
    if live.draw_offer == Some(me.other()) {
        Ok(())
    } else {
        Err(ApiError::conflict(format!(
            "there is no draw offer from your opponent to {verb}"
        )))
    }
}

/// `POST /api/games/{id}/accept-draw`.
pub async fn accept_draw(
    State(app): AppState,
    Path(id): Path<String>,
    session: Session,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let (me, h) = acting(&app, &headers, &session, &id).await?;
    let mut live = h.live.lock().await;
    over(&live)?;
    opponents_draw_offer(&live, me, "accept")?;
    let o = games::external_outcome(live.game.as_ref(), "agreement", None);
    app.end(&h, &mut live, o, "agreement").await?;
    ok_state(&live, me)
}

/// `POST /api/games/{id}/decline-draw`.
pub async fn decline_draw(
    State(app): AppState,
    Path(id): Path<String>,
    session: Session,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let (me, h) = acting(&app, &headers, &session, &id).await?;
    let mut live = h.live.lock().await;
    over(&live)?;
    opponents_draw_offer(&live, me, "decline")?;
    let ev = json!({"type": "draw-decline", "color": color_word(me)});
    app.commit(&h, &mut live, vec![ev]).await?;
    ok_state(&live, me)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClaimBody {
    claim: String,
}

/// `POST /api/games/{id}/claim`: one of the claims the state lists for this seat. A choice
/// at a repetition (R36) is played as the turn it is; a rulebook claim (the fifty-round
/// challenge, R38) is an event and its count starts.
pub async fn claim(
    State(app): AppState,
    Path(id): Path<String>,
    session: Session,
    headers: HeaderMap,
    JsonBody(b): JsonBody<ClaimBody>,
) -> Result<Response, ApiError> {
    let (me, h) = acting(&app, &headers, &session, &id).await?;
    let mut live = h.live.lock().await;
    over(&live)?;
    let wanted = b.claim.trim();
    if let Some(win) = match wanted {
        "win-on-absence" => Some(true),
        "draw-on-absence" => Some(false),
        _ => None,
    } {
        claim_on_absence(&app, &h, &mut live, me, win).await?;
        return ok_state(&live, me);
    }
    let offered = games::claims(live.game.as_ref(), Viewer::Player(me));
    let Some(found) = offered
        .iter()
        .find(|c| c.code.eq_ignore_ascii_case(wanted))
        .cloned()
    else {
        let shown: String = wanted.chars().take(40).collect();
        return Err(ApiError::bad(if offered.is_empty() {
            format!("'{shown}' cannot be claimed: the rules offer you no claim now")
        } else {
            let codes: Vec<&str> = offered.iter().map(|c| c.code.as_str()).collect();
            format!(
                "'{shown}' cannot be claimed now; the rules offer you {}",
                codes.join(", ")
            )
        }));
    };
    if found.by.is_some() {
        app.play_turn(&h, &mut live, me, &found.code).await?;
    } else {
        app.make_claim(&h, &mut live, me, &found).await?;
    }
    ok_state(&live, me)
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct TakebackBody {
    #[serde(default)]
    action: Option<String>,
}

/// `POST /api/games/{id}/takeback`: `{"action": "request"|"accept"|"decline"}`; with no
/// action, accepts the opponent's request if there is one, else asks.
pub async fn takeback(
    State(app): AppState,
    Path(id): Path<String>,
    session: Session,
    headers: HeaderMap,
    JsonBody(b): JsonBody<TakebackBody>,
) -> Result<Response, ApiError> {
    let (me, h) = acting(&app, &headers, &session, &id).await?;
    let mut live = h.live.lock().await;
    over(&live)?;
    let pending = live.takeback_request;
    let action = match b.action.as_deref() {
        Some(a @ ("request" | "accept" | "decline")) => a,
        Some(other) => {
            return Err(ApiError::bad(format!(
                "a takeback action is request, accept or decline, not '{other}'"
            )))
        }
        None if pending == Some(me.other()) => "accept",
        None => "request",
    };
    match action {
        "request" => {
            if pending == Some(me) {
                return Err(ApiError::conflict("you have already asked to take back"));
            }
            let plies = plies_to_take_back(&live, me)?;
            if matches!(live.player(me.other()), Player::Engine(_)) {
                // The engine agrees at once.
                let events = vec![
                    json!({"type": "takeback-request", "color": color_word(me)}),
                    json!({"type": "takeback", "color": color_word(me), "plies": plies}),
                ];
                app.commit(&h, &mut live, events).await?;
            } else {
                let ev = json!({"type": "takeback-request", "color": color_word(me)});
                app.commit(&h, &mut live, vec![ev]).await?;
            }
        }
        "accept" => {
            if pending != Some(me.other()) {
                return Err(ApiError::conflict(
                    "your opponent has not asked to take back",
                ));
            }
            let plies = plies_to_take_back(&live, me.other())?;
            let ev = json!({"type": "takeback", "color": color_word(me.other()), "plies": plies});
            app.commit(&h, &mut live, vec![ev]).await?;
        }
        _ => {
            if pending != Some(me.other()) {
                return Err(ApiError::conflict(
                    "your opponent has not asked to take back",
                ));
            }
            let ev = json!({"type": "takeback-decline", "color": color_word(me)});
            app.commit(&h, &mut live, vec![ev]).await?;
        }
    }
    ok_state(&live, me)
}

/// How many plies go back so that `side` is to move again before its last turn.
fn plies_to_take_back(live: &Live, side: Color) -> Result<u64, ApiError> {
    let ply = live.game.ply() as u64;
    let first = games::start_turn(live.game.as_ref());
    // Plies played by `side` so far.
    let own = if side == first {
        ply.div_ceil(2)
    } else {
        ply / 2
    };
    if own == 0 {
        return Err(ApiError::conflict("you have played no turn to take back"));
    }
    Ok(if live.game.turn() == side { 2 } else { 1 })
}

/// `GET /api/games/{id}/record`.
pub async fn get_record(
    State(app): AppState,
    Path(id): Path<String>,
    session: Session,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let viewer = viewer_of(&app, &headers, &session, &id).await?;
    let h = app.handle(&id).await?;
    let live = h.live.lock().await;
    let text = record::write(&live, viewer, &record::site_base(&app, &headers));
    let mut r = text.into_response();
    r.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/x-chess-pgn; charset=utf-8"),
    );
    if let Ok(v) = HeaderValue::from_str(&format!("attachment; filename=\"menagerie-{id}.pgn\"")) {
        r.headers_mut().insert(header::CONTENT_DISPOSITION, v);
    }
    Ok(no_store(r))
}

/// `POST /api/games/import`: a record as text, or `{"record", "white", "black"}`.
pub async fn import(
    State(app): AppState,
    ClientIp(ip): ClientIp,
    req: Request,
) -> Result<Response, ApiError> {
    let is_json = is_json(req.headers());
    // A record as text comes as `application/x-chess-pgn`: a type that another site's page
    // cannot send without asking first (text/plain and forms it can).
    let is_pgn = req
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|v| {
            let v = v.trim();
            v.eq_ignore_ascii_case("application/x-chess-pgn")
                || v.eq_ignore_ascii_case("application/vnd.chess-pgn")
        });
    if !is_json && !is_pgn {
        return Err(ApiError::new(
            415,
            "a record is sent as JSON {\"record\": TEXT} (Content-Type: application/json) or as text with Content-Type: application/x-chess-pgn",
        ));
    }
    let bytes = read_body(req).await?;
    let (text, white, black) = if is_json {
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct ImportBody {
            record: String,
            #[serde(default)]
            white: Option<String>,
            #[serde(default)]
            black: Option<String>,
        }
        let v: Value = serde_json::from_slice(&bytes).map_err(|e| {
            ApiError::bad(format!("the request body is not the JSON expected: {e}"))
        })?;
        if !v.is_object() {
            return Err(ApiError::bad(
                "the request body is not the JSON expected: an object {...} is expected",
            ));
        }
        let b: ImportBody = serde_json::from_value(v).map_err(|e| {
            ApiError::bad(format!("the request body is not the JSON expected: {e}"))
        })?;
        (b.record, b.white, b.black)
    } else {
        let t = String::from_utf8(bytes.to_vec())
            .map_err(|_| ApiError::bad("the record is not UTF-8 text"))?;
        (t, None, None)
    };
    let white = Player::parse(white.as_deref().unwrap_or("human"))?;
    let black = Player::parse(black.as_deref().unwrap_or("human"))?;
    app.limits.may_create(ip)?;
    let made = record::import(&app, &text, [white, black], ip).await?;
    Ok(created(&made))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnalysisBody {
    variant: String,
    #[serde(default)]
    fen: Option<String>,
    #[serde(default)]
    rules: BTreeMap<String, Value>,
    #[serde(default)]
    moves: Vec<String>,
    #[serde(default)]
    limits: LimitsBody,
    /// How many best moves to show, each with its line (1..=8).
    #[serde(default)]
    multipv: Option<u32>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct LimitsBody {
    depth: Option<u32>,
    nodes: Option<u64>,
    movetime: Option<u64>,
}

/// The most an analysis request may ask for.
pub const MAX_ANALYSIS_DEPTH: u32 = 30;
/// Nodes.
pub const MAX_ANALYSIS_NODES: u64 = 50_000_000;
/// Milliseconds.
pub const MAX_ANALYSIS_MS: u64 = 30_000;
/// Lines (MultiPV).
pub const MAX_ANALYSIS_LINES: u32 = 8;

/// `POST /api/analysis`: NDJSON lines, one per iteration, then the best turn.
pub async fn analysis(
    State(app): AppState,
    ClientIp(ip): ClientIp,
    JsonBody(b): JsonBody<AnalysisBody>,
) -> Result<Response, ApiError> {
    let rules = games::rule_options(&b.rules)?;
    let mut game = games::open(&b.variant, b.fen.as_deref(), &rules)?;
    if b.moves.len() > MAX_POSITION_MOVES {
        return Err(ApiError::bad(format!(
            "at most {MAX_POSITION_MOVES} moves may follow the position"
        )));
    }
    for m in &b.moves {
        game.push(m).map_err(|e| ApiError::bad(e.to_string()))?;
    }
    let l = b.limits;
    if l.depth.is_some_and(|d| d == 0 || d > MAX_ANALYSIS_DEPTH) {
        return Err(ApiError::bad(format!(
            "limits.depth is from 1 to {MAX_ANALYSIS_DEPTH}"
        )));
    }
    if l.nodes.is_some_and(|n| n == 0 || n > MAX_ANALYSIS_NODES) {
        return Err(ApiError::bad(format!(
            "limits.nodes is from 1 to {MAX_ANALYSIS_NODES}"
        )));
    }
    if l.movetime.is_some_and(|t| t == 0 || t > MAX_ANALYSIS_MS) {
        return Err(ApiError::bad(format!(
            "limits.movetime is from 1 to {MAX_ANALYSIS_MS} milliseconds"
        )));
    }
    if b.multipv.is_some_and(|k| k == 0 || k > MAX_ANALYSIS_LINES) {
        return Err(ApiError::bad(format!(
            "multipv is from 1 to {MAX_ANALYSIS_LINES} lines"
        )));
    }
    let limits = menagerie_variants::Limits {
        multipv: b.multipv,
        depth: Some(l.depth.unwrap_or(MAX_ANALYSIS_DEPTH)),
        nodes: l.nodes,
        movetime: Some(Duration::from_millis(l.movetime.unwrap_or(
            if l.depth.is_some() || l.nodes.is_some() {
                MAX_ANALYSIS_MS
            } else {
                2000
            },
        ))),
        ..Default::default()
    };
    // Counted from here until the stream ends (the client reads it or goes away).
    let guard = app.limits.start_analysis(ip)?;
    let (tx, rx) = tokio::sync::mpsc::channel::<Value>(64);
    app.analyse(game, limits, tx);
    let rx = (rx, guard);
    let stream = futures_util::stream::unfold(rx, |(mut rx, guard)| async move {
        let v = rx.recv().await?;
        let line = format!("{v}\n");
        Some((
            Ok::<_, std::convert::Infallible>(Bytes::from(line)),
            (rx, guard),
        ))
    });
    let mut r = Response::new(Body::from_stream(stream));
    r.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/x-ndjson"),
    );
    Ok(no_store(r))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PositionBody {
    variant: String,
    #[serde(default)]
    fen: Option<String>,
    #[serde(default)]
    rules: BTreeMap<String, Value>,
    #[serde(default)]
    moves: Vec<String>,
}

/// The most turns `POST /api/position` and `POST /api/analysis` replay.
pub const MAX_POSITION_MOVES: usize = 1000;
/// The longest position string accepted.
pub const MAX_FEN: usize = 4096;

/// `POST /api/position`: a position and the turns after it, checked and described; creates
/// nothing.
pub async fn position(JsonBody(b): JsonBody<PositionBody>) -> Result<Response, ApiError> {
    if b.fen.as_ref().is_some_and(|f| f.len() > MAX_FEN) {
        return Err(ApiError::bad(format!(
            "the position string is longer than {MAX_FEN} characters"
        )));
    }
    if b.moves.len() > MAX_POSITION_MOVES {
        return Err(ApiError::bad(format!(
            "at most {MAX_POSITION_MOVES} moves may follow the position"
        )));
    }
    // Up to a thousand turns replayed: CPU work, on a blocking thread (ops: issue 30).
    let json = tokio::task::spawn_blocking(move || -> Result<Value, ApiError> {
        let rules = games::rule_options(&b.rules)?;
        let mut game = games::open(&b.variant, b.fen.as_deref(), &rules)?;
        for (i, m) in b.moves.iter().enumerate() {
            if m.len() > 256 {
                return Err(ApiError::bad(format!(
                    "move {} is longer than 256 characters",
                    i + 1
                )));
            }
            game.push(m)
                .map_err(|e| ApiError::bad(format!("move {} ('{m}') is not legal: {e}", i + 1)))?;
        }
        Ok(games::position_json(game.as_ref(), &b.rules))
    })
    .await
    .map_err(|_| ApiError::new(500, "the position failed inside the server"))??;
    Ok(axum::Json(json).into_response())
}

/// `GET /api/games/{id}/at/{ply}`: the position after `ply` turns, as the caller may see it.
pub async fn at_ply(
    State(app): AppState,
    Path((id, ply)): Path<(String, String)>,
    session: Session,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let viewer = viewer_of(&app, &headers, &session, &id).await?;
    let h = app.handle(&id).await?;
    let live = h.live.lock().await;
    let turns = live.game.ply();
    let Ok(ply) = ply.parse::<usize>() else {
        return Err(ApiError::bad(format!(
            "a ply is a whole number from 0 to {turns} (the turns played)"
        )));
    };
    if ply > turns {
        return Err(ApiError::not_found(format!(
            "there is no ply {ply}: the game has {turns} turns so far"
        )));
    }
    Ok(no_store(
        axum::Json(games::at_ply_json(live.game.as_ref(), viewer, ply)).into_response(),
    ))
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct RematchBody {
    /// The opponent's seat token, when one browser holds both seats.
    #[serde(default)]
    opponent: Option<String>,
}

/// `POST /api/games/{id}/rematch`: after the game, a new one with colours swapped; at once
/// against the engine or when the caller holds both seats, else an offer the opponent's
/// call accepts.
pub async fn rematch(
    State(app): AppState,
    ClientIp(ip): ClientIp,
    Path(id): Path<String>,
    session: Session,
    headers: HeaderMap,
    JsonBody(b): JsonBody<RematchBody>,
) -> Result<Response, ApiError> {
    let (me, h) = acting(&app, &headers, &session, &id).await?;
    let mut live = h.live.lock().await;
    if live.outcome().is_none() {
        return Err(ApiError::conflict(
            "a rematch can be asked for once the game is over",
        ));
    }
    if let Some(next) = &live.rematch {
        return Err(ApiError::conflict(format!(
            "the rematch has already started: /game/{next}"
        )));
    }
    let opp = me.other();
    // The seats of this game the caller holds, by old colour.
    let mut held = [false, false];
    held[me.index()] = true;
    if let Some(t) = &b.opponent {
        let seat = app
            .store
            .seat(&crate::app::token_hash(t))
            .await
            .map_err(ApiError::unavailable)?;
        if seat != Some((id.clone(), color_word(opp).to_string())) {
            return Err(ApiError::forbidden(
                "the opponent's token opens no seat of this game",
            ));
        }
        held[opp.index()] = true;
    }
    let both_seats = held == [true, true];
    let at_once = both_seats || matches!(live.player(opp), Player::Engine(_));
    if !at_once {
        match live.rematch_offer {
            Some(c) if c == opp => {}
            Some(_) => {
                return Err(ApiError::conflict(
                    "you have already offered a rematch; your opponent has not answered",
                ))
            }
            None => {
                let ev = json!({"type": "rematch-offer", "color": color_word(me)});
                app.commit(&h, &mut live, vec![ev]).await?;
                return ok_state(&live, me);
            }
        }
    }
    app.limits.may_create(ip)?;
    let rules: BTreeMap<String, Value> = serde_json::from_str(&live.row.rules).unwrap_or_default();
    // The people keep their seats' owners, colours swapped; fresh random tokens go to the
    // caller's seats only (the opponent takes its own by the rematch link).
    let [white_owner, black_owner] = app
        .store
        .seat_owners(&id)
        .await
        .map_err(ApiError::unavailable)?;
    let made = app
        .create(NewGame {
            variant: live.row.variant.clone(),
            fen: live.row.start_fen.clone(),
            rules,
            players: [live.players[1], live.players[0]],
            clock: live.clock.as_ref().map(|c| c.spec),
            // One screen: both seats and the umpire as before; otherwise only the caller's.
            seating: if both_seats {
                Seating::All
            } else {
                Seating::Tokens([held[1], held[0]])
            },
            owners: [black_owner, white_owner],
            client: ip,
            // A rematch of a rated game is rated: the same two players, colours swapped.
            rated: live.row.rated && !both_seats,
            days_per_turn: live.corr.map(|c| c.days),
        })
        .await?;
    app.commit(
        &h,
        &mut live,
        vec![json!({"type": "rematch", "game": made.id})],
    )
    .await?;
    Ok(created(&made))
}

/// `GET /play/{token}`: puts the seat's token in a cookie and opens the game page.
pub async fn seat_link(
    State(app): AppState,
    Path(token): Path<String>,
) -> Result<Response, ApiError> {
    if token.len() > 128 {
        return Err(ApiError::forbidden("this link opens no seat"));
    }
    let seat = app
        .seat(&crate::app::token_hash(&token))
        .await
        .map_err(ApiError::unavailable)?;
    // The umpire's token is used as a bearer token only: it opens no seat in a browser.
    let Some((game, _)) = seat.filter(|(_, seat)| seat != "umpire") else {
        return Err(ApiError::forbidden("this link opens no seat"));
    };
    let mut r = StatusCode::SEE_OTHER.into_response();
    let h = r.headers_mut();
    if let Some(v) = crate::seats::seat_cookie(&app, &game, &token) {
        h.insert(header::SET_COOKIE, v);
    }
    if let Ok(v) = HeaderValue::from_str(&format!("/game/{game}")) {
        h.insert(header::LOCATION, v);
    }
    Ok(no_store(r))
}

#[derive(Deserialize)]
pub struct SinceQuery {
    since: Option<i64>,
}

/// `GET /api/games/{id}/ws?since=V`.
pub async fn websocket(
    State(app): AppState,
    ClientIp(ip): ClientIp,
    Path(id): Path<String>,
    q: Result<Query<SinceQuery>, axum::extract::rejection::QueryRejection>,
    session: Session,
    headers: HeaderMap,
    ws: Result<
        axum::extract::ws::WebSocketUpgrade,
        axum::extract::ws::rejection::WebSocketUpgradeRejection,
    >,
) -> Result<Response, ApiError> {
    let Query(q) = q.map_err(|_| {
        ApiError::bad("since is the last version the client saw, a whole number from 0")
    })?;
    let viewer = viewer_of(&app, &headers, &session, &id).await?;
    let h = app.handle(&id).await?;
    let ws =
        ws.map_err(|e| ApiError::bad(format!("this path takes a websocket: {}", e.body_text())))?;
    let since = q.since.unwrap_or(0).max(0);
    let guard = app.limits.open_socket(ip)?;
    let meter = crate::limits::MessageMeter::new(&app.limits);
    // Messages up to 64 KiB are read so that a large one is refused with a sentence. The
    // buffers are small (clients send little; each message is flushed as it is sent): the
    // defaults, 128 KiB each way, made a thousand sockets cost about 190 MiB.
    Ok(ws
        .max_message_size(MAX_BODY)
        .read_buffer_size(4096)
        .write_buffer_size(0)
        .on_upgrade(move |socket| crate::ws::run(socket, app, h, viewer, since, meter, guard)))
}

/// `GET /api/rules/{variant}`: the players' guide in Markdown.
pub async fn rules_text(Path(variant): Path<String>) -> Result<Response, ApiError> {
    let id = games::variant_id(&variant).map_err(|e| match e {
        games::GameError::UnknownVariant(s) | games::GameError::Bad(s) => ApiError::not_found(s),
    })?;
    let base = id.strip_suffix("-imperial").unwrap_or(id);
    let text = crate::pages::RULES
        .iter()
        .find(|(name, _)| *name == id)
        .or_else(|| crate::pages::RULES.iter().find(|(name, _)| *name == base))
        .map(|(_, t)| *t)
        .ok_or_else(|| ApiError::not_found(format!("there is no players' guide for {id} yet")))?;
    let mut r = text.into_response();
    r.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/markdown; charset=utf-8"),
    );
    Ok(r)
}

/// Any `/api/...` path not served.
pub async fn api_not_found() -> ApiError {
    ApiError::not_found("there is no such API endpoint; see docs/api.md")
}
