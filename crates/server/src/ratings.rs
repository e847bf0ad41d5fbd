//! Ratings on the server (issue 33): one Glicko-2 rating per player and variant, changed once
//! at the end of each rated game, stored with the game (before and after, both players) so
//! that every figure can be recomputed from the games in order. The maths is the crate
//! `menagerie-ratings`; this module stores, shows and checks.
//!
//! | what | where |
//! |---|---|
//! | who holds a rating, where a bot starts | [`Rater`], [`bot_start`] |
//! | a game rated at its end, exactly once | [`settle`], [`Store::settle_game`], [`settle_pending`] |
//! | which games are not rated | [`unrated_reason`] |
//! | the figures again from the games | [`recompute`] |
//! | profile, history, leaderboard, bots | [`user_ratings`], [`rating_history`], [`leaderboard`], [`bots`] |
//!
//! Exactly once, across `kill -9`: the change of game G is one row of `rating_changes` keyed
//! by G, written in one transaction with both players' new standings, after a write to G's
//! row that takes the database's write lock (SQLite) or G's row lock (PostgreSQL), and only
//! when no row for G exists yet. The server rates a game as soon as its end is stored; if it
//! dies in between, [`settle_pending`] rates the finished rated games without a row at the next
//! start. The order of `seq` (one more than the greatest so far, unique: two processes that
//! take the same number retry) is the order the games were rated, the order [`recompute`]
//! replays them in.

use crate::accounts::{self, Owner};
use crate::app::{ApiError, App, Live, Player};
use crate::both;
use crate::games;
use crate::store::{db_err, now_ms, Store};
use axum::extract::{Path, State};
use axum::response::{IntoResponse, Response};
use menagerie_core::Color;
use menagerie_ratings::{rate_game, Params, RatedGame, Rating};
use serde_json::{json, Map, Value};
use sqlx::Row;
use std::collections::BTreeMap;
use std::sync::Arc;
use tower_sessions::Session;

/// Leaderboards list people with at least this many rated games in the variant (pychess's
/// threshold: pools are small).
pub const LEADERBOARD_GAMES: i64 = 10;
/// ... and a rated game in the variant within this many days.
pub const LEADERBOARD_DAYS: i64 = 30;
/// How many people a leaderboard lists at most.
pub const LEADERBOARD_SIZE: i64 = 100;
/// Milliseconds in a day, as the ratings crate counts the time between games.
const MS_PER_DAY: f64 = 86_400_000.0;

/// Who holds a rating: an account (by id) or an engine level (a bot).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Rater {
    /// A person's account, by its id.
    Account(String),
    /// Engine level N, shown as "Engine level N".
    Bot(u32),
}

impl Rater {
    /// The key stored in the tables: `account:ID` or `bot:N`.
    pub fn key(&self) -> String {
        match self {
            Rater::Account(id) => format!("account:{id}"),
            Rater::Bot(n) => format!("bot:{n}"),
        }
    }

    /// Reads a stored key.
    pub fn parse(key: &str) -> Option<Rater> {
        if let Some(id) = key.strip_prefix("account:") {
            return Some(Rater::Account(id.to_string()));
        }
        key.strip_prefix("bot:")?.parse().ok().map(Rater::Bot)
    }

    /// The rating before the first rated game: a person's 1500 / 500 / 0.09, a bot's
    /// [`bot_start`] with RD 500.
    pub fn start(&self) -> Rating {
        match self {
            Rater::Account(_) => Rating::new_player(),
            Rater::Bot(level) => Rating::starting_at(bot_start(*level)),
        }
    }
}

/// Where engine level `level` starts in every variant: its chess strength measured on
/// Stockfish's `UCI_Elo` scale (`menagerie_variants::levels::LEVEL_ELO`: 1260 for level 1 up
/// to 2200 for level 8), the only measurement of the levels we have. lichess starts every bot
/// at 2000; one start for eight levels would list them all alike until each has played. With
/// RD 500 a start that is wrong for a variant is corrected within a few games.
pub fn bot_start(level: u32) -> f64 {
    level
        .checked_sub(1)
        .and_then(|i| menagerie_variants::levels::LEVEL_ELO.get(i as usize))
        .map_or(1500.0, |&elo| f64::from(elo))
}

/// A rating as the lobby and the pages show it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Shown {
    /// The rating.
    pub rating: f64,
    /// Its deviation (RD), as of the holder's last rated game.
    pub rd: f64,
    /// Whether it is provisional (RD ≥ 110): shown with "?".
    pub provisional: bool,
}

/// `who`'s rating in `variant` now (a new player's defaults when it has none).
pub async fn shown(app: &App, who: &Rater, variant: &str) -> Result<Shown, ApiError> {
    let rating = app
        .store
        .standing(who, variant)
        .await
        .map_err(ApiError::unavailable)?
        .map_or_else(|| who.start(), |s| s.today(now_ms()).rating);
    Ok(Shown {
        rating: rating.rating,
        rd: rating.deviation,
        provisional: rating.is_provisional(),
    })
}

/// A holder's figures in one variant.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Standing {
    /// The rating after the last rated game.
    pub rating: Rating,
    /// Rated games played.
    pub games: i64,
    /// Rated games won.
    pub wins: i64,
    /// Rated games drawn.
    pub draws: i64,
    /// Rated games lost.
    pub losses: i64,
    /// The highest rating after a rated game while not provisional (none while it always was).
    pub best: Option<f64>,
    /// When the last rated game was rated (Unix milliseconds).
    pub last_ms: i64,
}

impl Standing {
    /// A holder before its first rated game.
    pub fn first(start: Rating) -> Standing {
        Standing {
            rating: start,
            games: 0,
            wins: 0,
            draws: 0,
            losses: 0,
            best: None,
            last_ms: 0,
        }
    }

    /// The standing after a game scored `score` (1 a win) that left the rating at `after`.
    pub fn after(&self, after: Rating, score: f64, at_ms: i64) -> Standing {
        let best = if after.is_provisional() {
            self.best
        } else {
            Some(self.best.map_or(after.rating, |b| b.max(after.rating)))
        };
        Standing {
            rating: after,
            games: self.games + 1,
            wins: self.wins + i64::from(score == 1.0),
            draws: self.draws + i64::from(score == 0.5),
            losses: self.losses + i64::from(score == 0.0),
            best,
            last_ms: at_ms,
        }
    }

    /// The days since the last rated game at `at_ms` (0 before the first), as the ratings
    /// crate's `recompute` counts them.
    fn days_to(&self, at_ms: i64) -> f64 {
        if self.games == 0 {
            return 0.0;
        }
        (i128::from(at_ms) - i128::from(self.last_ms)) as f64 / MS_PER_DAY
    }

    /// The standing as of `now_ms`: its deviation grown by each whole rating period without a
    /// rated game (Glicko-2: φ* = √(φ² + σ²) a period; the rating and volatility stay), as the
    /// pages, the lobby and the leaderboards show it. A game rates from the exact time
    /// instead (`rate_game`), so the shown figure is at most one period behind that.
    pub fn today(&self, now_ms: i64) -> Standing {
        let params = Params::default();
        let periods = (self.days_to(now_ms).max(0.0) * params.rating_periods_per_day).floor();
        let days = periods / params.rating_periods_per_day;
        Standing {
            rating: self
                .rating
                .after_inactivity(days, &params)
                .unwrap_or(self.rating),
            ..*self
        }
    }

    /// The figures as `GET /api/users/NAME` shows them.
    pub fn json(&self) -> Value {
        json!({
            "rating": self.rating.rating,
            "rd": self.rating.deviation,
            "volatility": self.rating.volatility,
            "provisional": self.rating.is_provisional(),
            "games": self.games,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "best": self.best,
        })
    }
}

/// One rated game's change: both players' ratings before and after.
#[derive(Clone, Debug, PartialEq)]
pub struct Change {
    /// The game.
    pub game: String,
    /// Its place in the order games were rated (from 1).
    pub seq: i64,
    /// The variant.
    pub variant: String,
    /// When it was rated (Unix milliseconds): the time between games counts from here.
    pub at_ms: i64,
    /// White's and Black's rating holders.
    pub raters: [Rater; 2],
    /// White's score: 1, ½ or 0.
    pub score_white: f64,
    /// White's and Black's ratings before (as after their previous game).
    pub before: [Rating; 2],
    /// White's and Black's ratings after.
    pub after: [Rating; 2],
}

/// What became of a rated game at its end.
#[derive(Clone, Debug, PartialEq)]
pub enum Settled {
    /// Its players' ratings changed.
    Rated(Change),
    /// It ended without changing any rating; the sentence says why.
    Unrated(String),
}

impl Settled {
    /// The state JSON's `rating_change`: `{"white": {"before", "after", "diff", "rd",
    /// "provisional"}, "black": ...}`, or nothing when no rating changed.
    pub fn change_json(&self) -> Option<Value> {
        let Settled::Rated(c) = self else {
            return None;
        };
        let side = |i: usize| {
            json!({
                "before": c.before[i].rating,
                "after": c.after[i].rating,
                "diff": c.after[i].rating - c.before[i].rating,
                "rd": c.after[i].deviation,
                "provisional": c.after[i].is_provisional(),
            })
        };
        Some(json!({"white": side(0), "black": side(1)}))
    }

    /// The state JSON's `unrated_because`: why a rated game changed no rating.
    pub fn unrated_because(&self) -> Option<Value> {
        match self {
            Settled::Unrated(why) => Some(json!(why)),
            Settled::Rated(_) => None,
        }
    }
}

/// What a game's end is rated from.
#[derive(Clone, Debug, PartialEq)]
pub struct Facts {
    /// The game.
    pub id: String,
    /// Its variant.
    pub variant: String,
    /// White's and Black's holders (none: a seat no account holds).
    pub raters: [Option<Rater>; 2],
    /// White's score.
    pub score_white: f64,
    /// How it ended (the outcome's code).
    pub termination: String,
    /// Turns White and Black played.
    pub turns: [u64; 2],
}

/// Why a finished rated game changes no rating, or `None` when it does: aborted games
/// (`aborted`), games in which a player made fewer than two turns, seats without an account.
pub fn unrated_reason(f: &Facts) -> Option<&'static str> {
    if f.termination == "aborted" {
        return Some("the game was aborted");
    }
    if f.turns.iter().any(|&t| t < 2) {
        return Some("a player made fewer than two turns");
    }
    match &f.raters {
        [Some(w), Some(b)] if w == b => Some("the same player held both seats"),
        [Some(_), Some(_)] => None,
        _ => Some("a seat was not held by an account"),
    }
}

/// A game's end as read from the game in memory; the people's accounts are read from the
/// database when it is rated ([`settle`]), so that nothing of the game is held meanwhile.
#[derive(Clone, Debug)]
pub struct Ending {
    /// The facts, engine seats' holders filled in.
    facts: Facts,
    /// Which seats people hold.
    human: [bool; 2],
}

/// The end of `live`'s game, to rate.
pub fn ending_of(live: &Live) -> Ending {
    let raters = [0, 1].map(|i| match live.players[i] {
        Player::Engine(level) => Some(Rater::Bot(level)),
        Player::Human => None,
    });
    let outcome = live.outcome();
    let score_white = match outcome.as_ref().and_then(|o| o.winner) {
        Some(Color::White) => 1.0,
        Some(Color::Black) => 0.0,
        None => 0.5,
    };
    let termination = outcome
        .as_ref()
        .map(|o| o.termination.code())
        .unwrap_or_default();
    let ply = live.game.ply() as u64;
    let first = games::start_turn(live.game.as_ref());
    let mut turns = [0, 0];
    turns[first.index()] = ply.div_ceil(2);
    turns[first.other().index()] = ply / 2;
    Ending {
        facts: Facts {
            id: live.row.id.clone(),
            variant: live.row.variant.clone(),
            raters,
            score_white,
            termination,
            turns,
        },
        human: [0, 1].map(|i| live.players[i] == Player::Human),
    }
}

/// The test seam for a crash at a game's end: when the environment variable
/// `MENAGERIE_DIE_BEFORE_RATING` is `1`, the process aborts (no cleanup, as `kill -9`) after a
/// rated game's end is stored and before it is rated. Unset, it costs one load.
pub fn die_here_if_asked() {
    static DIE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    if *DIE.get_or_init(|| std::env::var("MENAGERIE_DIE_BEFORE_RATING").as_deref() == Ok("1")) {
        std::process::abort();
    }
}

/// Rates a game that has just ended (exactly once: a game already rated keeps its change).
/// `None` when the database failed; [`settle_pending`] tries again later.
pub async fn settle(app: &App, ending: Ending) -> Option<Settled> {
    let Ending { mut facts, human } = ending;
    let done = async {
        let owners = app.store.seat_owners(&facts.id).await?;
        for i in 0..2 {
            if let (true, Some(Owner::Account(id))) = (human[i], &owners[i]) {
                facts.raters[i] = Some(Rater::Account(id.clone()));
            }
        }
        app.store.settle_game(&facts).await
    }
    .await;
    match done {
        Ok(s) => Some(s),
        Err(e) => {
            crate::log(&format!(
                "game {}: the rating change waits for the next try: {e}",
                facts.id
            ));
            None
        }
    }
}

/// Rates the finished rated games that were not rated (the server died between a game's end
/// and its rating, or the database failed then), in the order they ended. Returns how many.
pub async fn settle_pending(app: &Arc<App>) -> usize {
    let ids = match app.store.unsettled_games().await {
        Ok(ids) => ids,
        Err(e) => {
            crate::log(&format!("cannot list the games waiting to be rated: {e}"));
            return 0;
        }
    };
    let mut done = 0;
    for id in ids {
        let h = match app.handle(&id).await {
            Ok(h) => h,
            Err(e) => {
                crate::log(&format!("game {id}: cannot be rated: {}", e.message));
                continue;
            }
        };
        let mut live = h.live.lock().await;
        if live.outcome().is_none() || live.rating_change.is_some() {
            continue;
        }
        let ending = ending_of(&live);
        if let Some(s) = settle(app, ending).await {
            live.rating_change = Some(s);
            done += 1;
            let _ = h.tx.send(live.version());
        }
    }
    done
}

/// The columns of `rating_changes` a [`Change`] is read from.
const CHANGE_COLUMNS: &str = "game_id, seq, variant, at_ms, white, black, score_white, \
wb_rating, wb_rd, wb_vol, wa_rating, wa_rd, wa_vol, bb_rating, bb_rd, bb_vol, ba_rating, ba_rd, ba_vol, unrated";

/// The columns of `ratings` a [`Standing`] is read from.
const STANDING_COLUMNS: &str = "rating, rd, volatility, games, wins, draws, losses, best, last_ms";

/// Reads a [`Settled`] from a row holding [`CHANGE_COLUMNS`].
fn settled_of<R>(r: &R) -> Result<Settled, sqlx::Error>
where
    R: Row,
    for<'a> &'a str: sqlx::ColumnIndex<R>,
    for<'a> Option<String>: sqlx::Decode<'a, R::Database> + sqlx::Type<R::Database>,
    for<'a> Option<f64>: sqlx::Decode<'a, R::Database> + sqlx::Type<R::Database>,
    for<'a> Option<i64>: sqlx::Decode<'a, R::Database> + sqlx::Type<R::Database>,
    for<'a> String: sqlx::Decode<'a, R::Database> + sqlx::Type<R::Database>,
    for<'a> i64: sqlx::Decode<'a, R::Database> + sqlx::Type<R::Database>,
{
    if let Some(why) = r.try_get::<Option<String>, _>("unrated")? {
        return Ok(Settled::Unrated(why));
    }
    let f = |c: &str| -> Result<f64, sqlx::Error> {
        r.try_get::<Option<f64>, _>(c)?
            .ok_or_else(|| sqlx::Error::Decode(format!("rating_changes.{c} is empty").into()))
    };
    let rating = |p: &str| -> Result<Rating, sqlx::Error> {
        Ok(Rating::new(
            f(&format!("{p}_rating"))?,
            f(&format!("{p}_rd"))?,
            f(&format!("{p}_vol"))?,
        ))
    };
    let rater = |c: &str| -> Result<Rater, sqlx::Error> {
        r.try_get::<Option<String>, _>(c)?
            .as_deref()
            .and_then(Rater::parse)
            .ok_or_else(|| sqlx::Error::Decode(format!("rating_changes.{c} is no holder").into()))
    };
    Ok(Settled::Rated(Change {
        game: r.try_get("game_id")?,
        seq: r.try_get::<Option<i64>, _>("seq")?.unwrap_or(0),
        variant: r.try_get("variant")?,
        at_ms: r.try_get("at_ms")?,
        raters: [rater("white")?, rater("black")?],
        score_white: f("score_white")?,
        before: [rating("wb")?, rating("bb")?],
        after: [rating("wa")?, rating("ba")?],
    }))
}

/// Reads a [`Standing`] from a row holding [`STANDING_COLUMNS`].
fn standing_of<R>(r: &R) -> Result<Standing, sqlx::Error>
where
    R: Row,
    for<'a> &'a str: sqlx::ColumnIndex<R>,
    for<'a> Option<f64>: sqlx::Decode<'a, R::Database> + sqlx::Type<R::Database>,
    for<'a> f64: sqlx::Decode<'a, R::Database> + sqlx::Type<R::Database>,
    for<'a> i64: sqlx::Decode<'a, R::Database> + sqlx::Type<R::Database>,
{
    Ok(Standing {
        rating: Rating::new(
            r.try_get("rating")?,
            r.try_get("rd")?,
            r.try_get("volatility")?,
        ),
        games: r.try_get("games")?,
        wins: r.try_get("wins")?,
        draws: r.try_get("draws")?,
        losses: r.try_get("losses")?,
        best: r.try_get("best")?,
        last_ms: r.try_get("last_ms")?,
    })
}

/// The tables, made by [`migrate`] after the games' own.
const TABLES: &[&str] = &[
    "CREATE TABLE IF NOT EXISTS ratings (
        rater TEXT NOT NULL,
        variant TEXT NOT NULL,
        rating DOUBLE PRECISION NOT NULL,
        rd DOUBLE PRECISION NOT NULL,
        volatility DOUBLE PRECISION NOT NULL,
        games BIGINT NOT NULL,
        wins BIGINT NOT NULL,
        draws BIGINT NOT NULL,
        losses BIGINT NOT NULL,
        best DOUBLE PRECISION,
        last_ms BIGINT NOT NULL,
        PRIMARY KEY (rater, variant)
    )",
    "CREATE INDEX IF NOT EXISTS ratings_board ON ratings (variant, rating)",
    // One row per finished rated game: its change (seq set), or why it changed nothing.
    "CREATE TABLE IF NOT EXISTS rating_changes (
        game_id TEXT PRIMARY KEY REFERENCES games(id),
        seq BIGINT UNIQUE,
        variant TEXT NOT NULL,
        at_ms BIGINT NOT NULL,
        white TEXT,
        black TEXT,
        score_white DOUBLE PRECISION,
        wb_rating DOUBLE PRECISION, wb_rd DOUBLE PRECISION, wb_vol DOUBLE PRECISION,
        wa_rating DOUBLE PRECISION, wa_rd DOUBLE PRECISION, wa_vol DOUBLE PRECISION,
        bb_rating DOUBLE PRECISION, bb_rd DOUBLE PRECISION, bb_vol DOUBLE PRECISION,
        ba_rating DOUBLE PRECISION, ba_rd DOUBLE PRECISION, ba_vol DOUBLE PRECISION,
        unrated TEXT
    )",
    "CREATE INDEX IF NOT EXISTS rating_changes_white ON rating_changes (white)",
    "CREATE INDEX IF NOT EXISTS rating_changes_black ON rating_changes (black)",
];

/// Creates the ratings' tables when missing (run by `Store::open`).
pub async fn migrate(store: &Store) -> Result<(), String> {
    for t in TABLES {
        both!(store, p => sqlx::query(t).execute(p).await.map(|_| ()))
            .map_err(|e| format!("the schema migration failed: {e}"))?;
    }
    Ok(())
}

/// Why one attempt at rating a game stopped.
enum Attempt {
    /// Another process took the same place in the order: try again.
    Race,
    /// The database failed.
    Failed(String),
}

impl From<sqlx::Error> for Attempt {
    fn from(e: sqlx::Error) -> Attempt {
        match &e {
            sqlx::Error::Database(d) if d.is_unique_violation() => Attempt::Race,
            _ => Attempt::Failed(db_err(e)),
        }
    }
}

impl Store {
    /// `who`'s standing in `variant`, if it has played a rated game there.
    pub async fn standing(&self, who: &Rater, variant: &str) -> Result<Option<Standing>, String> {
        let q = self.query_text(&format!(
            "SELECT {STANDING_COLUMNS} FROM ratings WHERE rater = ? AND variant = ?"
        ));
        both!(self, p => {
            let row = sqlx::query(&q).bind(who.key()).bind(variant).fetch_optional(p).await.map_err(db_err)?;
            row.map(|r| standing_of(&r)).transpose().map_err(db_err)
        })
    }

    /// `who`'s standings, by variant.
    pub async fn standings(&self, who: &Rater) -> Result<BTreeMap<String, Standing>, String> {
        let q = self.query_text(&format!(
            "SELECT variant, {STANDING_COLUMNS} FROM ratings WHERE rater = ?"
        ));
        both!(self, p => {
            let rows = sqlx::query(&q).bind(who.key()).fetch_all(p).await.map_err(db_err)?;
            rows.iter()
                .map(|r| Ok((r.try_get::<String, _>("variant")?, standing_of(r)?)))
                .collect::<Result<BTreeMap<_, _>, sqlx::Error>>()
                .map_err(db_err)
        })
    }

    /// Every holder's standing in every variant: `(holder key, variant, standing)`.
    pub async fn all_standings(&self) -> Result<Vec<(String, String, Standing)>, String> {
        let q = format!("SELECT rater, variant, {STANDING_COLUMNS} FROM ratings");
        both!(self, p => {
            let rows = sqlx::query(&q).fetch_all(p).await.map_err(db_err)?;
            rows.iter()
                .map(|r| Ok((r.try_get::<String, _>("rater")?, r.try_get::<String, _>("variant")?, standing_of(r)?)))
                .collect::<Result<Vec<_>, sqlx::Error>>()
                .map_err(db_err)
        })
    }

    /// What became of rated game `id` at its end, once rated.
    pub async fn rating_change(&self, id: &str) -> Result<Option<Settled>, String> {
        let q = self.query_text(&format!(
            "SELECT {CHANGE_COLUMNS} FROM rating_changes WHERE game_id = ?"
        ));
        both!(self, p => {
            let row = sqlx::query(&q).bind(id).fetch_optional(p).await.map_err(db_err)?;
            row.map(|r| settled_of(&r)).transpose().map_err(db_err)
        })
    }

    /// Every rating change in the order the games were rated, with each game's stored winner
    /// (`white`, `black`, none: a draw).
    pub async fn rated_in_order(&self) -> Result<Vec<(Change, Option<String>)>, String> {
        let cols: String = CHANGE_COLUMNS
            .split(", ")
            .map(|c| format!("c.{c}"))
            .collect::<Vec<_>>()
            .join(", ");
        let q = format!(
            "SELECT {cols}, g.winner AS winner FROM rating_changes c JOIN games g ON g.id = c.game_id \
             WHERE c.seq IS NOT NULL ORDER BY c.seq"
        );
        both!(self, p => {
            let rows = sqlx::query(&q).fetch_all(p).await.map_err(db_err)?;
            let mut out = Vec::new();
            for r in &rows {
                if let Settled::Rated(c) = settled_of(r).map_err(db_err)? {
                    out.push((c, r.try_get::<Option<String>, _>("winner").map_err(db_err)?));
                }
            }
            Ok(out)
        })
    }

    /// The changes of `who`'s rated games, in the order they were rated.
    pub async fn changes_of(&self, who: &Rater) -> Result<Vec<Change>, String> {
        let q = self.query_text(&format!(
            "SELECT {CHANGE_COLUMNS} FROM rating_changes WHERE seq IS NOT NULL AND (white = ? OR black = ?) ORDER BY seq"
        ));
        let key = who.key();
        both!(self, p => {
            let rows = sqlx::query(&q).bind(&key).bind(&key).fetch_all(p).await.map_err(db_err)?;
            let mut out = Vec::new();
            for r in &rows {
                if let Settled::Rated(c) = settled_of(r).map_err(db_err)? {
                    out.push(c);
                }
            }
            Ok(out)
        })
    }

    /// The finished rated games not rated yet, in the order they ended.
    pub async fn unsettled_games(&self) -> Result<Vec<String>, String> {
        let q = "SELECT g.id AS id FROM games g LEFT JOIN rating_changes c ON c.game_id = g.id \
                 WHERE g.rated = 1 AND g.finished = TRUE AND c.game_id IS NULL ORDER BY g.updated_at, g.id";
        both!(self, p => {
            let rows = sqlx::query(q).fetch_all(p).await.map_err(db_err)?;
            rows.iter().map(|r| r.try_get::<String, _>("id")).collect::<Result<Vec<_>, _>>().map_err(db_err)
        })
    }

    /// The people on `variant`'s leaderboard, best first: `(name, standing)` of those with
    /// at least [`LEADERBOARD_GAMES`] rated games, one within [`LEADERBOARD_DAYS`] days of
    /// `now_ms`, and a deviation below 110.
    pub async fn leaderboard(
        &self,
        variant: &str,
        now_ms: i64,
    ) -> Result<Vec<(String, Standing)>, String> {
        let cols: String = STANDING_COLUMNS
            .split(", ")
            .map(|c| format!("r.{c}"))
            .collect::<Vec<_>>()
            .join(", ");
        let q = self.query_text(&format!(
            "SELECT a.name AS name, {cols} FROM ratings r JOIN accounts a ON r.rater = 'account:' || a.id \
             WHERE r.variant = ? AND a.deleted = FALSE AND r.games >= ? AND r.last_ms >= ? AND r.rd < ? \
             ORDER BY r.rating DESC, a.name_key LIMIT ?"
        ));
        let since = now_ms - LEADERBOARD_DAYS * 86_400_000;
        both!(self, p => {
            let rows = sqlx::query(&q)
                .bind(variant).bind(LEADERBOARD_GAMES).bind(since)
                .bind(menagerie_ratings::PROVISIONAL_DEVIATION).bind(LEADERBOARD_SIZE)
                .fetch_all(p).await.map_err(db_err)?;
            rows.iter()
                .map(|r| Ok((r.try_get::<String, _>("name")?, standing_of(r)?)))
                .collect::<Result<Vec<_>, sqlx::Error>>()
                .map_err(db_err)
        })
    }

    /// Rates a finished rated game once: its change (or why it has none) and both players'
    /// new standings in one transaction; a game rated before keeps its first change.
    pub async fn settle_game(&self, facts: &Facts) -> Result<Settled, String> {
        // Two processes that take the same `seq` at once: the later one retries.
        for _ in 0..8 {
            match self.try_settle(facts).await {
                Ok(s) => return Ok(s),
                Err(Attempt::Race) => continue,
                Err(Attempt::Failed(e)) => return Err(e),
            }
        }
        Err("the game could not be rated: other games kept taking its place".into())
    }

    async fn try_settle(&self, f: &Facts) -> Result<Settled, Attempt> {
        // A write first: SQLite takes its write lock now (a read-then-write transaction
        // loses to a concurrent writer), PostgreSQL locks the game's row, so a second
        // process rating the same game waits here and then finds its change.
        let touch = self.query_text("UPDATE games SET rated = rated WHERE id = ?");
        let existing = self.query_text(&format!(
            "SELECT {CHANGE_COLUMNS} FROM rating_changes WHERE game_id = ?"
        ));
        let standing = self.query_text(&format!(
            "SELECT {STANDING_COLUMNS} FROM ratings WHERE rater = ? AND variant = ?"
        ));
        let next_seq = "SELECT COALESCE(MAX(seq), 0) + 1 AS n FROM rating_changes";
        let insert = self.query_text(&format!(
            "INSERT INTO rating_changes ({CHANGE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
        ));
        let upsert = self.query_text(&format!(
            "INSERT INTO ratings (rater, variant, {STANDING_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) \
             ON CONFLICT (rater, variant) DO UPDATE SET rating = excluded.rating, rd = excluded.rd, \
             volatility = excluded.volatility, games = excluded.games, wins = excluded.wins, \
             draws = excluded.draws, losses = excluded.losses, best = excluded.best, last_ms = excluded.last_ms"
        ));
        let none = || None::<f64>;
        both!(self, p => {
            let mut tx = p.begin().await?;
            sqlx::query(&touch).bind(&f.id).execute(&mut *tx).await?;
            if let Some(r) = sqlx::query(&existing).bind(&f.id).fetch_optional(&mut *tx).await? {
                return Ok(settled_of(&r)?);
            }
            let now = now_ms();
            let (Some(white), Some(black), None) = (&f.raters[0], &f.raters[1], unrated_reason(f)) else {
                let why = unrated_reason(f).unwrap_or("a seat was not held by an account");
                let mut q = sqlx::query(&insert).bind(&f.id).bind(None::<i64>).bind(&f.variant).bind(now)
                    .bind(f.raters[0].as_ref().map(Rater::key)).bind(f.raters[1].as_ref().map(Rater::key))
                    .bind(f.score_white);
                for _ in 0..12 {
                    q = q.bind(none());
                }
                q.bind(why).execute(&mut *tx).await?;
                tx.commit().await?;
                return Ok(Settled::Unrated(why.to_string()));
            };
            let mut before = [Standing::first(white.start()), Standing::first(black.start())];
            for (i, who) in [white, black].into_iter().enumerate() {
                if let Some(r) = sqlx::query(&standing).bind(who.key()).bind(&f.variant).fetch_optional(&mut *tx).await? {
                    before[i] = standing_of(&r)?;
                }
            }
            // Never before either player's last game: the time between games is not negative
            // even if the clock stepped back.
            let at = now.max(before[0].last_ms).max(before[1].last_ms);
            let (w, b) = rate_game(
                &before[0].rating,
                &before[1].rating,
                f.score_white,
                before[0].days_to(at),
                before[1].days_to(at),
                &Params::default(),
            )
            .map_err(|e| Attempt::Failed(format!("the game could not be rated: {e}")))?;
            let seq: i64 = sqlx::query(next_seq).fetch_one(&mut *tx).await?.try_get("n")?;
            let mut q = sqlx::query(&insert).bind(&f.id).bind(seq).bind(&f.variant).bind(at)
                .bind(white.key()).bind(black.key()).bind(f.score_white);
            for r in [before[0].rating, w, before[1].rating, b] {
                q = q.bind(Some(r.rating)).bind(Some(r.deviation)).bind(Some(r.volatility));
            }
            q.bind(None::<String>).execute(&mut *tx).await?;
            let scores = [f.score_white, 1.0 - f.score_white];
            for (i, (who, after)) in [(white, w), (black, b)].into_iter().enumerate() {
                let s = before[i].after(after, scores[i], at);
                sqlx::query(&upsert).bind(who.key()).bind(&f.variant)
                    .bind(s.rating.rating).bind(s.rating.deviation).bind(s.rating.volatility)
                    .bind(s.games).bind(s.wins).bind(s.draws).bind(s.losses).bind(s.best).bind(s.last_ms)
                    .execute(&mut *tx).await?;
            }
            tx.commit().await?;
            Ok(Settled::Rated(Change {
                game: f.id.clone(),
                seq,
                variant: f.variant.clone(),
                at_ms: at,
                raters: [white.clone(), black.clone()],
                score_white: f.score_white,
                before: [before[0].rating, before[1].rating],
                after: [w, b],
            }))
        })
    }
}

/// Refuses the invitation `code_hash` to a seat of a rated game unless the caller may take it
/// (`access::may_take_rated_seat`); any other invitation passes.
pub async fn check_rated_invite(
    app: &App,
    session: &Session,
    code_hash: &str,
) -> Result<(), ApiError> {
    let q = app.store.query_text(
        "SELECT i.game_id AS game_id, i.seat AS seat, g.rated AS rated FROM invites i \
         JOIN games g ON g.id = i.game_id WHERE i.code_hash = ? AND i.taken = FALSE",
    );
    let found: Option<(String, String, i32)> = both!(&app.store, p => {
        let row = sqlx::query(&q).bind(code_hash).fetch_optional(p).await
            .map_err(|e| ApiError::unavailable(db_err(e)))?;
        row.map(|r| Ok((r.try_get("game_id")?, r.try_get("seat")?, r.try_get("rated")?)))
            .transpose()
            .map_err(|e: sqlx::Error| ApiError::unavailable(db_err(e)))?
    });
    let Some((game, seat, rated)) = found else {
        return Ok(());
    };
    let Some(color) = games::parse_color(&seat).filter(|_| rated != 0) else {
        return Ok(());
    };
    let me = accounts::me(app, session).await?;
    let owners = app
        .store
        .seat_owners(&game)
        .await
        .map_err(ApiError::unavailable)?;
    crate::access::may_take_rated_seat(&me, owners[color.other().index()].as_ref())
}

// ----- recomputing -----

/// What [`recompute`] found.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Report {
    /// Rated games replayed.
    pub games: usize,
    /// Standings (holder and variant) recomputed.
    pub standings: usize,
    /// Each figure that came out different, one sentence each; empty when identical.
    pub differences: Vec<String>,
}

/// Every rating again from the rated games in the order they were rated (their stored
/// holders, times and the games' own results), compared bit for bit with every stored figure:
/// each game's before and after, and each holder's standing.
pub async fn recompute(store: &Store) -> Result<Report, String> {
    let rated = store.rated_in_order().await?;
    let mut differences = Vec::new();
    let mut games = Vec::new();
    for (c, winner) in &rated {
        let score = match winner.as_deref() {
            Some("white") => 1.0,
            Some("black") => 0.0,
            _ => 0.5,
        };
        if score != c.score_white {
            differences.push(format!(
                "game {}: White's stored score {} is not the game's result {score}",
                c.game, c.score_white
            ));
        }
        games.push(RatedGame {
            white: (c.variant.clone(), c.raters[0].clone()),
            black: (c.variant.clone(), c.raters[1].clone()),
            score_white: score,
            ended_ms: c.at_ms,
        });
    }
    let again = menagerie_ratings::recompute(
        games.clone(),
        |(_, who): &(String, Rater)| who.start(),
        &Params::default(),
    )
    .map_err(|e| format!("the rated games cannot be replayed: {e}"))?;
    let mut standings: BTreeMap<(String, Rater), Standing> = BTreeMap::new();
    for (((c, _), g), r) in rated.iter().zip(&games).zip(&again.games) {
        let stored = [c.before[0], c.after[0], c.before[1], c.after[1]];
        let computed = [r.white_before, r.white_after, r.black_before, r.black_after];
        for ((s, k), what) in stored.iter().zip(&computed).zip([
            "White's rating before",
            "White's rating after",
            "Black's rating before",
            "Black's rating after",
        ]) {
            if s != k {
                differences.push(format!(
                    "game {}: {what} is stored as {s:?} but recomputes to {k:?}",
                    c.game
                ));
            }
        }
        for (id, after, score) in [
            (&g.white, r.white_after, g.score_white),
            (&g.black, r.black_after, 1.0 - g.score_white),
        ] {
            let s = standings
                .entry(id.clone())
                .or_insert_with(|| Standing::first(id.1.start()));
            *s = s.after(after, score, g.ended_ms);
        }
    }
    let stored: BTreeMap<(String, Rater), Standing> = store
        .all_standings()
        .await?
        .into_iter()
        .filter_map(|(key, variant, s)| Some(((variant, Rater::parse(&key)?), s)))
        .collect();
    for (id, s) in &standings {
        match stored.get(id) {
            Some(t) if t == s => {}
            Some(t) => differences.push(format!(
                "{} in {}: stored {t:?} but recomputes to {s:?}",
                id.1.key(),
                id.0
            )),
            None => differences.push(format!(
                "{} in {}: no stored standing but recomputes to {s:?}",
                id.1.key(),
                id.0
            )),
        }
    }
    for id in stored.keys().filter(|id| !standings.contains_key(*id)) {
        differences.push(format!(
            "{} in {}: a stored standing that no rated game gives",
            id.1.key(),
            id.0
        ));
    }
    Ok(Report {
        games: rated.len(),
        standings: standings.len(),
        differences,
    })
}

/// [`recompute`] on the database at `url` (`menagerie ratings recompute`), on a runtime of
/// its own. An SQLite file that does not exist is refused rather than created empty.
pub fn recompute_database(url: &str) -> Result<Report, String> {
    let is_pg = url.starts_with("postgres://") || url.starts_with("postgresql://");
    let file = url.strip_prefix("sqlite://").unwrap_or(url);
    if !is_pg && !std::path::Path::new(file).exists() {
        return Err(format!("there is no database at {file}"));
    }
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the runtime: {e}"))?;
    rt.block_on(async {
        let store = Store::open(url).await?;
        let report = recompute(&store).await;
        store.close().await;
        report
    })
}

// ----- routes -----

type AppState = State<Arc<App>>;

/// `ratings` of `GET /api/users/NAME`: `{VARIANT: {rating, rd, volatility, provisional,
/// games, wins, draws, losses, best}}` for each variant the account has a rated game in.
pub async fn user_ratings(app: &App, account: &str) -> Result<Value, ApiError> {
    let all = app
        .store
        .standings(&Rater::Account(account.to_string()))
        .await
        .map_err(ApiError::unavailable)?;
    Ok(Value::Object(
        all.into_iter()
            .map(|(v, s)| (v, s.today(now_ms()).json()))
            .collect(),
    ))
}

/// `GET /api/users/{name}/rating-history`: per variant, the rating after each rated game in
/// order: `{VARIANT: [{"game", "at", "rating", "rd", "diff"}]}`.
pub async fn rating_history(
    State(app): AppState,
    Path(name): Path<String>,
) -> Result<Response, ApiError> {
    let (id, _, _) = crate::profiles::find_user(&app, &name).await?;
    let me = Rater::Account(id);
    let changes = app
        .store
        .changes_of(&me)
        .await
        .map_err(ApiError::unavailable)?;
    let mut out: Map<String, Value> = Map::new();
    for c in changes {
        let i = usize::from(c.raters[1] == me);
        let point = json!({
            "game": c.game,
            "at": c.at_ms,
            "rating": c.after[i].rating,
            "rd": c.after[i].deviation,
            "diff": c.after[i].rating - c.before[i].rating,
        });
        if let Value::Array(list) = out
            .entry(c.variant.clone())
            .or_insert_with(|| Value::Array(Vec::new()))
        {
            list.push(point);
        }
    }
    Ok(crate::api::no_store(
        axum::Json(Value::Object(out)).into_response(),
    ))
}

/// Every variant's id, in the registry's order.
fn variant_ids() -> Vec<String> {
    games::variants_json()
        .as_array()
        .map(|l| {
            l.iter()
                .filter_map(|v| v["id"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// A bot's rating in one variant as the lists show it.
fn bot_json(level: u32, variant: &str, stored: &BTreeMap<(String, String), Standing>) -> Value {
    let who = Rater::Bot(level);
    let s = stored
        .get(&(who.key(), variant.to_string()))
        .map_or_else(|| Standing::first(who.start()), |s| s.today(now_ms()));
    json!({
        "rating": s.rating.rating,
        "rd": s.rating.deviation,
        "provisional": s.rating.is_provisional(),
        "games": s.games,
    })
}

/// Every bot's standing, keyed by `(holder key, variant)`.
async fn bot_standings(app: &App) -> Result<BTreeMap<(String, String), Standing>, ApiError> {
    Ok(app
        .store
        .all_standings()
        .await
        .map_err(ApiError::unavailable)?
        .into_iter()
        .filter(|(k, _, _)| k.starts_with("bot:"))
        .map(|(k, v, s)| ((k, v), s))
        .collect())
}

/// `GET /api/bots`: each engine level with its rating in every variant: `{"bots": [{"level",
/// "name", "start", "ratings": {VARIANT: {"rating", "rd", "provisional", "games"}}}]}`.
pub async fn bots(State(app): AppState) -> Result<Response, ApiError> {
    let stored = bot_standings(&app).await?;
    let ids = variant_ids();
    let list: Vec<Value> = games::LEVELS
        .map(|level| {
            let ratings: Map<String, Value> = ids
                .iter()
                .map(|v| (v.clone(), bot_json(level, v, &stored)))
                .collect();
            json!({
                "level": level,
                "name": format!("Engine level {level}"),
                "start": bot_start(level),
                "ratings": ratings,
            })
        })
        .collect();
    Ok(crate::api::no_store(
        axum::Json(json!({"bots": list})).into_response(),
    ))
}

/// `GET /api/leaderboard/{variant}`: the people who qualify, best first, and the bots apart.
pub async fn leaderboard(
    State(app): AppState,
    Path(variant): Path<String>,
) -> Result<Response, ApiError> {
    let id = games::variant_id(&variant).map_err(|e| match e {
        games::GameError::UnknownVariant(s) | games::GameError::Bad(s) => ApiError::not_found(s),
    })?;
    let now = now_ms();
    // The stored deviation qualified; the deviation grown to today must qualify too.
    let people: Vec<(String, Standing)> = app
        .store
        .leaderboard(id, now)
        .await
        .map_err(ApiError::unavailable)?
        .into_iter()
        .map(|(name, s)| (name, s.today(now)))
        .filter(|(_, s)| s.rating.deviation < menagerie_ratings::PROVISIONAL_DEVIATION)
        .collect();
    let players: Vec<Value> = people
        .iter()
        .enumerate()
        .map(|(i, (name, s))| {
            json!({
                "rank": i + 1,
                "name": name,
                "rating": s.rating.rating,
                "rd": s.rating.deviation,
                "games": s.games,
                "wins": s.wins,
                "draws": s.draws,
                "losses": s.losses,
                "last_game_at": s.last_ms,
            })
        })
        .collect();
    let stored = bot_standings(&app).await?;
    let mut bots: Vec<Value> = games::LEVELS
        .map(|level| {
            let mut b = bot_json(level, id, &stored);
            b["level"] = json!(level);
            b["name"] = json!(format!("Engine level {level}"));
            b
        })
        .collect();
    bots.sort_by(|a, b| {
        let r = |v: &Value| v["rating"].as_f64().unwrap_or(0.0);
        r(b).total_cmp(&r(a))
    });
    Ok(crate::api::no_store(
        axum::Json(json!({
            "variant": id,
            "thresholds": {
                "games": LEADERBOARD_GAMES,
                "days": LEADERBOARD_DAYS,
                "rd_below": menagerie_ratings::PROVISIONAL_DEVIATION,
            },
            "players": players,
            "bots": bots,
        }))
        .into_response(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts() -> Facts {
        Facts {
            id: "g".into(),
            variant: "chess".into(),
            raters: [Some(Rater::Account("a".into())), Some(Rater::Bot(3))],
            score_white: 1.0,
            termination: "resignation".into(),
            turns: [2, 2],
        }
    }

    #[test]
    fn games_too_short_aborted_or_without_accounts_are_not_rated() {
        assert_eq!(unrated_reason(&facts()), None);
        let f = Facts {
            turns: [2, 1],
            ..facts()
        };
        assert_eq!(
            unrated_reason(&f),
            Some("a player made fewer than two turns")
        );
        let f = Facts {
            termination: "aborted".into(),
            ..facts()
        };
        assert_eq!(unrated_reason(&f), Some("the game was aborted"));
        let f = Facts {
            raters: [Some(Rater::Account("a".into())), None],
            ..facts()
        };
        assert_eq!(
            unrated_reason(&f),
            Some("a seat was not held by an account")
        );
        let f = Facts {
            raters: [
                Some(Rater::Account("a".into())),
                Some(Rater::Account("a".into())),
            ],
            ..facts()
        };
        assert_eq!(unrated_reason(&f), Some("the same player held both seats"));
    }

    #[test]
    fn holders_keys_read_back_and_bots_start_at_their_measured_strength() {
        for r in [Rater::Account("x:y".into()), Rater::Bot(8)] {
            assert_eq!(Rater::parse(&r.key()), Some(r.clone()));
        }
        assert_eq!(Rater::parse("nobody"), None);
        assert_eq!(bot_start(1), 1260.0);
        assert_eq!(bot_start(8), 2200.0);
        assert_eq!(Rater::Bot(3).start(), Rating::new(1590.0, 500.0, 0.09));
        assert_eq!(Rater::Account("a".into()).start(), Rating::new_player());
    }

    #[test]
    fn a_standing_counts_results_and_keeps_the_best_rating_once_not_provisional() {
        let s = Standing::first(Rating::new_player());
        let s = s.after(Rating::new(1700.0, 300.0, 0.09), 1.0, 10);
        assert_eq!((s.games, s.wins, s.best), (1, 1, None));
        let s = s.after(Rating::new(1650.0, 100.0, 0.09), 0.5, 20);
        assert_eq!((s.games, s.draws, s.best), (2, 1, Some(1650.0)));
        let s = s.after(Rating::new(1600.0, 95.0, 0.09), 0.0, 30);
        assert_eq!(
            (s.games, s.losses, s.best, s.last_ms),
            (3, 1, Some(1650.0), 30)
        );
        assert_eq!(s.days_to(30 + 86_400_000), 1.0);
    }

    #[test]
    fn a_shown_deviation_grows_by_each_whole_rating_period_without_a_game() {
        const DAY: i64 = 86_400_000;
        let s =
            Standing::first(Rating::new_player()).after(Rating::new(1700.0, 60.0, 0.06), 1.0, 0);
        // 0.21436 periods a day: the first whole period ends after 4.67 days.
        assert_eq!(s.today(4 * DAY), s);
        // A rating period: RD* = sqrt(60² + (173.7178 × 0.06)²) = 60.8973...
        let one = s.today(5 * DAY).rating;
        let sigma = menagerie_ratings::SCALE * 0.06;
        let close = |a: f64, b: f64| (a - b).abs() < 1e-9;
        assert!(close(
            one.deviation,
            (60.0f64 * 60.0 + sigma * sigma).sqrt()
        ));
        assert_eq!((one.rating, one.volatility), (1700.0, 0.06));
        // 100 days: 21 periods.
        assert!(close(
            s.today(100 * DAY).rating.deviation,
            (60.0f64 * 60.0 + sigma * sigma * 21.0).sqrt()
        ));
        // Off the leaderboard after 400 days (85 periods: 113.3).
        assert!(s.today(365 * DAY).rating.deviation < 110.0);
        assert!(s.today(400 * DAY).rating.deviation > 110.0);
        // Nothing grows before a holder's first game.
        let new = Standing::first(Rating::new_player());
        assert_eq!(new.today(365 * DAY), new);
    }
}
