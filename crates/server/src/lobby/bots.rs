//! Bots (issue 32 item 3): each engine level is a player of the lobby, "Engine level N",
//! marked as a bot. It accepts every challenge (any variant, any time control) and answers a
//! live seek nobody has taken after `--bot-wait-ms`; it thinks on the server's engine pool,
//! and declines with a sentence when the pool's queue is full.

use super::seeks::{start_game, Taker};
use super::{db, Entry};
use crate::app::App;
use crate::games;
use crate::log;
use crate::ratings::{self, Rater};
use crate::store::now_ms;
use serde_json::{json, Value};
use std::sync::Arc;

/// Searches that may wait for the pool per slot before the bots decline new games.
pub const QUEUE_PER_SLOT: usize = 4;

/// The bot's name.
pub fn name(level: u32) -> String {
    format!("Engine level {level}")
}

/// Why the bots take no new game now (the engine pool's queue is full), as a sentence.
pub fn busy(app: &App, level: u32) -> Option<String> {
    let slots = app.engine_pool.slots();
    let queued = app.engine_pool.queued();
    (queued >= QUEUE_PER_SLOT * slots).then(|| {
        format!(
            "{} declines: the engine is busy ({queued} searches are waiting for its {slots} thread{}); try again in a minute",
            name(level),
            if slots == 1 { "" } else { "s" }
        )
    })
}

/// The bots as the lobby lists them, with their ratings in every variant.
pub async fn list_json(app: &Arc<App>) -> Vec<Value> {
    // The variants' ids, read once (the list opens every game).
    static VARIANTS: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    let variants = VARIANTS.get_or_init(|| {
        games::variants_json()
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|v| v["id"].as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default()
    });
    let mut out = Vec::new();
    for level in games::LEVELS {
        let mut ratings = serde_json::Map::new();
        for v in variants {
            if let Ok(s) = ratings::shown(app, &Rater::Bot(level), v).await {
                ratings.insert(v.clone(), json!(s.rating.round() as i64));
            }
        }
        out.push(json!({
            "level": level, "name": name(level), "bot": true,
            "player": format!("engine:{level}"), "ratings": ratings,
        }));
    }
    out
}

/// The level that answers seek `e` in `variant`: the bot whose rating is nearest the
/// seeker's, inside the seek's range (level 3, the default engine, among equals).
async fn level_for(app: &Arc<App>, e: &Entry, variant: &str) -> Option<u32> {
    let seeker = e.ratings.get(variant).copied().unwrap_or(1500.0);
    let mut best: Option<(f64, u32, u32)> = None;
    for level in games::LEVELS {
        let r = ratings::shown(app, &Rater::Bot(level), variant)
            .await
            .ok()?
            .rating;
        if let Some([lo, hi]) = e.range {
            if !(lo as f64..=hi as f64).contains(&r) {
                continue;
            }
        }
        let key = ((r - seeker).abs(), level.abs_diff(3), level);
        if best.is_none_or(|b| (key.0, key.1) < (b.0, b.1)) {
            best = Some(key);
        }
    }
    best.map(|(_, _, level)| level)
}

/// A bot takes the live seeks nobody has taken after the wait (each seek is looked at once).
pub async fn answer_seeks(app: &Arc<App>) {
    let wait = app.lobby.bot_wait_ms();
    if wait <= 0 {
        return;
    }
    let now = now_ms();
    let due: Vec<Entry> = app
        .lobby
        .snapshot()
        .into_iter()
        .filter(|e| !e.pairing && !e.correspondence() && e.created_at + wait <= now)
        .collect();
    for e in due {
        // A full queue: nothing is taken now, and these are looked at again next time.
        if busy(app, 1).is_some() {
            return;
        }
        let fresh = app
            .lobby
            .bots_tried
            .lock()
            .is_ok_and(|mut t| t.insert(e.id.clone()));
        if !fresh {
            continue;
        }
        let (Some(variant), Some(control)) = (e.variants.first(), e.controls.first()) else {
            continue;
        };
        let Some(level) = level_for(app, &e, variant).await else {
            continue;
        };
        let seek = match db::take(&app.store, &e.id).await {
            Ok(Some(s)) => s,
            Ok(None) => continue,
            Err(err) => {
                log(&format!("a bot cannot take a seek: {err}"));
                continue;
            }
        };
        app.lobby.removed(std::slice::from_ref(&seek.id));
        if let Err(err) = start_game(app, &seek, Taker::Bot(level), variant, *control, "seek").await
        {
            log(&format!(
                "{} took a seek but its game did not start: {}",
                name(level),
                err.message
            ));
        }
    }
    if let Ok(mut t) = app.lobby.bots_tried.lock() {
        if t.len() > 10_000 {
            t.clear();
        }
    }
}
