//! Challenges (issue 32 item 2): a logged-in player challenges a named player (or a bot) to a
//! game with chosen settings; the challenged player sees it at once on any open page, accepts
//! or declines with a reason; an unanswered challenge expires.

use super::seeks::{account_rules, ratings_of, start_game, wanted_color, Taker};
use super::{bots, db, person_key, Control, Entry};
use crate::accounts::{self, Me};
use crate::api::JsonBody;
use crate::app::{random_id, ApiError, App};
use crate::clock::ClockSpec;
use crate::games;
use crate::log;
use crate::ratings::{self, Rater};
use crate::store::now_ms;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::sync::Arc;
use tower_sessions::Session;

/// How many challenges one player may have waiting at once.
pub const MAX_WAITING: usize = 10;

/// One side of a challenge: an account.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Party {
    /// The account's id (never shown).
    pub account: String,
    /// Its name.
    pub name: String,
}

/// A challenge as stored.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Challenge {
    /// Its id.
    pub id: String,
    /// Who challenges.
    pub from: Party,
    /// Who is challenged.
    pub to: Party,
    /// The variant.
    pub variant: String,
    /// The time control.
    pub control: Control,
    /// Rated or casual.
    pub rated: bool,
    /// The challenger's colour: `white`, `black` or `random`.
    pub color: String,
    /// The challenger's rating in the variant, and whether it is provisional.
    pub rating: f64,
    /// Whether that rating is provisional.
    pub provisional: bool,
    /// When it was made (Unix ms).
    pub created_at: i64,
    /// When it expires (Unix ms).
    pub expires_at: i64,
}

impl Challenge {
    /// As the pages show it.
    pub fn json(&self) -> Value {
        let (clock, days) = self.control.fields();
        json!({
            "id": self.id,
            "from": {"name": self.from.name, "rating": self.rating.round() as i64, "provisional": self.provisional},
            "to": {"name": self.to.name},
            "variant": self.variant, "clock": clock, "days": days, "rated": self.rated,
            "color": self.color, "created_at": self.created_at, "expires_at": self.expires_at,
        })
    }
}

/// `POST /api/challenges`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChallengeBody {
    to: String,
    variant: String,
    #[serde(default)]
    clock: Option<ClockSpec>,
    #[serde(default)]
    days: Option<u32>,
    #[serde(default)]
    rated: bool,
    #[serde(default)]
    color: Option<String>,
}

/// `POST /api/challenges/{id}/decline`.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct DeclineBody {
    #[serde(default)]
    reason: Option<String>,
}

/// The reasons a challenge may be declined with, and what the challenger is told.
pub const REASONS: &[(&str, &str)] = &[
    ("generic", "declined your challenge"),
    ("later", "cannot play now: ask again later"),
    (
        "too-fast",
        "declined: this time control is too fast for them",
    ),
    (
        "too-slow",
        "declined: this time control is too slow for them",
    ),
    (
        "variant",
        "declined: they do not want to play this variant now",
    ),
];

/// The level a challenge's `to` names for a bot: `engine:N` or "Engine level N".
fn bot_level(to: &str) -> Option<u32> {
    let t = to.trim().to_ascii_lowercase();
    let n = t
        .strip_prefix("engine:")
        .or_else(|| t.strip_prefix("engine level "))
        .or_else(|| t.strip_prefix("engine-level-"))?;
    n.trim()
        .parse::<u32>()
        .ok()
        .filter(|n| games::level_exists(*n))
}

/// `POST /api/challenges`: to a person, `201 {"id", "status": "pending", "expires_at"}`; to a
/// bot (`"to": "engine:N"`), the game at once: `201 {"status": "accepted", "game", "url"}`,
/// or `429` when the engine is too busy.
pub async fn create_challenge(
    State(app): State<Arc<App>>,
    session: Session,
    JsonBody(b): JsonBody<ChallengeBody>,
) -> Result<Response, ApiError> {
    let me = accounts::me(&app, &session).await?;
    let variant = games::variant_id(&b.variant)?.to_string();
    let control = Control::one_of(b.clock, b.days, "a challenge")?;
    let color = wanted_color(b.color.as_deref())?;
    account_rules(&me, b.rated, control.days_per_turn().is_some())?;
    if let Some(level) = bot_level(&b.to) {
        return challenge_bot(&app, &session, &me, level, variant, control, b.rated, color).await;
    }
    let Some(account) = me.account.clone() else {
        return Err(ApiError::new(
            401,
            "log in to challenge a player (anyone may challenge the engine's levels)",
        ));
    };
    let Some((to_id, to_name, _)) = app
        .store
        .profile(&b.to)
        .await
        .map_err(ApiError::unavailable)?
    else {
        return Err(ApiError::not_found(format!(
            "there is no player named '{}'",
            b.to.chars().take(40).collect::<String>()
        )));
    };
    if to_id == account.id {
        return Err(ApiError::bad("you cannot challenge yourself"));
    }
    let now = now_ms();
    let waiting = db::pending(&app.store, &account.id, now)
        .await
        .map_err(ApiError::unavailable)?
        .iter()
        .filter(|c| c.from.account == account.id)
        .count();
    if waiting >= MAX_WAITING {
        return Err(ApiError::new(
            429,
            format!("you have {MAX_WAITING} challenges waiting for an answer: cancel one first"),
        ));
    }
    let rating = ratings::shown(&app, &Rater::Account(account.id.clone()), &variant).await?;
    let life = match control {
        Control::Days(_) => 7 * app.lobby.day_ms(),
        Control::Clock { .. } => app.lobby.challenge_ms(),
    };
    let c = Challenge {
        id: random_id()?,
        from: Party {
            account: account.id.clone(),
            name: account.name.clone(),
        },
        to: Party {
            account: to_id.clone(),
            name: to_name,
        },
        variant,
        control,
        rated: b.rated,
        color,
        rating: rating.rating,
        provisional: rating.provisional,
        created_at: now,
        expires_at: now + life,
    };
    db::insert_challenge(&app.store, &c)
        .await
        .map_err(ApiError::unavailable)?;
    app.lobby.tell(
        &format!("a:{to_id}"),
        json!({"type": "challenge", "challenge": c.json()}),
    );
    app.lobby.tell(
        &format!("a:{}", account.id),
        json!({"type": "challenge-sent", "challenge": c.json()}),
    );
    Ok(crate::api::no_store(
        (
            StatusCode::CREATED,
            axum::Json(json!({"id": c.id, "status": "pending", "expires_at": c.expires_at})),
        )
            .into_response(),
    ))
}

/// A challenge to a bot: it accepts at once unless the engine pool is too busy.
#[allow(clippy::too_many_arguments)]
async fn challenge_bot(
    app: &Arc<App>,
    session: &Session,
    me: &Me,
    level: u32,
    variant: String,
    control: Control,
    rated: bool,
    color: String,
) -> Result<Response, ApiError> {
    if let Some(sentence) = bots::busy(app, level) {
        return Err(ApiError::new(429, sentence));
    }
    let owner = match me.owner() {
        Some(o) => o,
        None => accounts::owner(app, session).await?,
    };
    let variants = vec![variant.clone()];
    let (ratings, provisional) = ratings_of(app, me, &variants).await?;
    let entry = Entry {
        id: String::new(),
        owner: person_key(&owner),
        name: me.account.as_ref().map(|a| a.name.clone()),
        variants,
        controls: vec![control],
        rated,
        color,
        range: None,
        ratings,
        provisional,
        pairing: false,
        created_at: now_ms(),
        address: None,
    };
    let game = start_game(
        app,
        &entry,
        Taker::Bot(level),
        &variant,
        control,
        "challenge",
    )
    .await?;
    Ok(crate::api::no_store(
        (
            StatusCode::CREATED,
            axum::Json(json!({
                "status": "accepted", "game": game, "url": format!("/game/{game}"),
                "bot": {"level": level, "name": bots::name(level)},
            })),
        )
            .into_response(),
    ))
}

/// The pending challenges to and from `account` as the pages show them: `(in, out)`.
pub async fn pending_json(app: &Arc<App>, account: &str) -> (Vec<Value>, Vec<Value>) {
    match db::pending(&app.store, account, now_ms()).await {
        Ok(all) => {
            let (incoming, outgoing): (Vec<_>, Vec<_>) =
                all.into_iter().partition(|c| c.to.account == account);
            (
                incoming.iter().map(Challenge::json).collect(),
                outgoing.iter().map(Challenge::json).collect(),
            )
        }
        Err(e) => {
            log(&format!("cannot read a player's challenges: {e}"));
            (Vec::new(), Vec::new())
        }
    }
}

fn logged_in(me: &Me) -> Result<&accounts::Account, ApiError> {
    me.account
        .as_ref()
        .ok_or_else(|| ApiError::new(401, "log in to see and answer your challenges"))
}

/// `GET /api/challenges`: `{"in": [...], "out": [...]}`, the pending ones.
pub async fn list_challenges(
    State(app): State<Arc<App>>,
    session: Session,
) -> Result<Response, ApiError> {
    let me = accounts::me(&app, &session).await?;
    let account = logged_in(&me)?;
    let (incoming, outgoing) = pending_json(&app, &account.id).await;
    Ok(crate::api::no_store(
        axum::Json(json!({"in": incoming, "out": outgoing})).into_response(),
    ))
}

/// Why a challenge that is not pending cannot be answered.
fn settled(status: &str) -> ApiError {
    ApiError::conflict(match status {
        "accepted" => "this challenge has already been accepted",
        "declined" => "this challenge has already been declined",
        "cancelled" => "this challenge was cancelled by the challenger",
        _ => "this challenge has expired",
    })
}

/// The challenge `id` for `account` on side `to` (or the challenger's side).
async fn find(
    app: &App,
    id: &str,
    account: &str,
    challenged: bool,
) -> Result<(Challenge, String), ApiError> {
    let found = db::challenge(&app.store, id)
        .await
        .map_err(ApiError::unavailable)?;
    match found {
        Some((c, status)) => {
            let party = if challenged { &c.to } else { &c.from };
            if party.account != account {
                return Err(ApiError::forbidden(if challenged {
                    "this challenge is not addressed to you"
                } else {
                    "only the challenger may cancel a challenge"
                }));
            }
            Ok((c, status))
        }
        None => Err(ApiError::not_found("there is no such challenge")),
    }
}

/// `POST /api/challenges/{id}/accept`: `201 {"game", "url"}`.
pub async fn accept_challenge(
    State(app): State<Arc<App>>,
    session: Session,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let me = accounts::me(&app, &session).await?;
    let account = logged_in(&me)?.clone();
    let (c, status) = find(&app, &id, &account.id, true).await?;
    let now = now_ms();
    if status != "pending" {
        return Err(settled(&status));
    }
    if !db::settle(&app.store, &id, "accepted", None, now)
        .await
        .map_err(ApiError::unavailable)?
    {
        let status = db::challenge(&app.store, &id)
            .await
            .map_err(ApiError::unavailable)?
            .map_or_else(|| "expired".to_string(), |(_, s)| s);
        return Err(settled(if status == "pending" {
            "expired"
        } else {
            status.as_str()
        }));
    }
    let variants = vec![c.variant.clone()];
    let challenger = Entry {
        id: c.id.clone(),
        owner: format!("a:{}", c.from.account),
        name: Some(c.from.name.clone()),
        variants: variants.clone(),
        controls: vec![c.control],
        rated: c.rated,
        color: c.color.clone(),
        range: None,
        ratings: Default::default(),
        provisional: c.provisional,
        pairing: false,
        created_at: c.created_at,
        address: None,
    };
    let (ratings, provisional) = ratings_of(&app, &me, &variants).await?;
    let challenged = Entry {
        id: c.id.clone(),
        owner: format!("a:{}", account.id),
        name: Some(account.name.clone()),
        variants,
        controls: vec![c.control],
        rated: c.rated,
        color: "random".into(),
        range: None,
        ratings,
        provisional,
        pairing: false,
        created_at: now,
        address: None,
    };
    let game = start_game(
        &app,
        &challenger,
        Taker::Person(&challenged),
        &c.variant,
        c.control,
        "challenge",
    )
    .await?;
    if let Err(e) = db::set_challenge_game(&app.store, &id, &game).await {
        log(&format!("challenge {id}: its game was not recorded: {e}"));
    }
    Ok(crate::api::no_store(
        (
            StatusCode::CREATED,
            axum::Json(json!({"game": game, "url": format!("/game/{game}")})),
        )
            .into_response(),
    ))
}

/// `POST /api/challenges/{id}/decline` with `{"reason"}` (one of [`REASONS`]; `generic` when
/// absent): the challenger is told in a sentence.
pub async fn decline_challenge(
    State(app): State<Arc<App>>,
    session: Session,
    Path(id): Path<String>,
    JsonBody(b): JsonBody<DeclineBody>,
) -> Result<Response, ApiError> {
    let me = accounts::me(&app, &session).await?;
    let account = logged_in(&me)?.clone();
    let reason = b.reason.unwrap_or_else(|| "generic".into());
    let Some((_, told)) = REASONS.iter().find(|(r, _)| *r == reason) else {
        return Err(ApiError::bad(format!(
            "reason is one of generic, later, too-fast, too-slow, variant, not \"{}\"",
            reason.chars().take(20).collect::<String>()
        )));
    };
    let (c, status) = find(&app, &id, &account.id, true).await?;
    if status != "pending"
        || !db::settle(&app.store, &id, "declined", Some(&reason), now_ms())
            .await
            .map_err(ApiError::unavailable)?
    {
        return Err(settled(if status == "pending" {
            "expired"
        } else {
            status.as_str()
        }));
    }
    let sentence = format!("{} {told}.", c.to.name);
    app.lobby.tell(
        &format!("a:{}", c.from.account),
        json!({"type": "challenge-declined", "id": id, "reason": reason, "sentence": sentence}),
    );
    app.lobby.tell(
        &format!("a:{}", c.to.account),
        json!({"type": "challenge-gone", "id": id, "status": "declined"}),
    );
    Ok(crate::api::no_store(
        axum::Json(json!({"id": id, "status": "declined", "reason": reason})).into_response(),
    ))
}

/// `DELETE /api/challenges/{id}`: the challenger takes it back.
pub async fn cancel_challenge(
    State(app): State<Arc<App>>,
    session: Session,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let me = accounts::me(&app, &session).await?;
    let account = logged_in(&me)?.clone();
    let (c, status) = find(&app, &id, &account.id, false).await?;
    if status != "pending"
        || !db::settle(&app.store, &id, "cancelled", None, now_ms())
            .await
            .map_err(ApiError::unavailable)?
    {
        return Err(settled(if status == "pending" {
            "expired"
        } else {
            status.as_str()
        }));
    }
    let gone = json!({"type": "challenge-gone", "id": id, "status": "cancelled",
        "sentence": format!("{} took back the challenge.", c.from.name)});
    app.lobby.tell(&format!("a:{}", c.to.account), gone.clone());
    app.lobby.tell(&format!("a:{}", c.from.account), gone);
    Ok(crate::api::no_store(
        axum::Json(json!({"id": id, "status": "cancelled"})).into_response(),
    ))
}

/// Challenges whose time is up expire; both players are told.
pub async fn expire(app: &Arc<App>) {
    match db::expire(&app.store, now_ms()).await {
        Ok(list) => {
            for c in list {
                let to = json!({"type": "challenge-gone", "id": c.id, "status": "expired",
                    "sentence": format!("The challenge from {} expired.", c.from.name)});
                let from = json!({"type": "challenge-gone", "id": c.id, "status": "expired",
                    "sentence": format!("Your challenge to {} expired without an answer.", c.to.name)});
                app.lobby.tell(&format!("a:{}", c.to.account), to);
                app.lobby.tell(&format!("a:{}", c.from.account), from);
            }
        }
        Err(e) => log(&format!("cannot expire challenges: {e}")),
    }
}
