//! Game records in a PGN-like form (tags, then movetext), written per viewer and read back.

use crate::app::{ApiError, App, Created, Live, NewGame, Player, Seating};
use crate::games::{self, color_word, Viewer};
use menagerie_core::Color;
use menagerie_play::record::Record;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::sync::Arc;

fn tag(out: &mut String, name: &str, value: &str) {
    out.push_str(&format!(
        "[{name} \"{}\"]\n",
        value.replace(['"', '\n', '\r', ']'], "'")
    ));
}

/// The server's absolute address for records' `Site`: `--public-url`, else the address the
/// request was sent to.
pub fn site_base(app: &App, headers: &axum::http::HeaderMap) -> String {
    if let Some(u) = &app.public_url {
        return u.clone();
    }
    let host = headers
        .get(axum::http::header::HOST)
        .and_then(|h| h.to_str().ok())
        .filter(|h| {
            h.chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | ':' | '-' | '[' | ']'))
        })
        .unwrap_or("localhost");
    format!("http://{host}")
}

/// A date in PGN's form, `YYYY.MM.DD` (UTC), from Unix milliseconds.
pub fn pgn_date(ms: i64) -> String {
    match time::OffsetDateTime::from_unix_timestamp(ms.div_euclid(1000)) {
        Ok(t) => format!("{:04}.{:02}.{:02}", t.year(), u8::from(t.month()), t.day()),
        Err(_) => "????.??.??".to_string(),
    }
}

/// The name a record gives the player of `c`: the account, "Anonymous", or the engine.
pub fn player_name(live: &Live, c: Color) -> String {
    match live.players[c.index()] {
        Player::Engine(level) => format!("Menagerie level {level}"),
        Player::Human => live.seats[c.index()]
            .name
            .clone()
            .unwrap_or_else(|| "Anonymous".to_string()),
    }
}

/// The record of a game as `viewer` may read it: the umpire's (every secret) for the umpire
/// and for everyone once the game is over; each player's own view while it runs. The tags
/// begin with the Seven Tag Roster (`site` is the server's absolute address).
pub fn write(live: &Live, viewer: Viewer, site: &str) -> String {
    let g = live.game.as_ref();
    let outcome = live.outcome();
    let full = viewer == Viewer::Umpire || outcome.is_some();
    let mut out = String::new();
    let result = outcome.as_ref().map_or("*", games::result_of);
    tag(&mut out, "Event", "Menagerie game");
    tag(&mut out, "Site", &format!("{site}/game/{}", live.row.id));
    tag(&mut out, "Date", &pgn_date(live.row.created_at));
    tag(&mut out, "Round", "-");
    tag(&mut out, "White", &player_name(live, Color::White));
    tag(&mut out, "Black", &player_name(live, Color::Black));
    tag(&mut out, "Result", result);
    tag(&mut out, "Variant", g.variant());
    tag(&mut out, "WhitePlayer", &live.players[0].text());
    tag(&mut out, "BlackPlayer", &live.players[1].text());
    if live.row.start_fen.is_some() {
        // The start as this reader may see it: a start's sealed papers are the umpire's
        // until the game is over.
        let fen = if full {
            g.start_fen()
        } else {
            games::at_ply_json(g, viewer, 0)["fen"]
                .as_str()
                .unwrap_or_default()
                .to_string()
        };
        tag(&mut out, "FEN", &fen);
    }
    let rules: BTreeMap<String, Value> = serde_json::from_str(&live.row.rules).unwrap_or_default();
    if !rules.is_empty() {
        let list: Vec<String> = rules
            .iter()
            .map(|(k, v)| match v {
                Value::String(s) => format!("{k}={s}"),
                other => format!("{k}={other}"),
            })
            .collect();
        tag(&mut out, "Rules", &list.join(","));
    }
    // The rulebook claims made (public: R38's challenge is announced to both players).
    let claims = live.game.made_claims();
    if !claims.is_empty() {
        let list: Vec<String> = claims
            .iter()
            .map(|c| format!("{} {} {}", c.ply, color_word(c.by), c.code))
            .collect();
        tag(&mut out, "Claims", &list.join(", "));
    }
    if let Some(o) = &outcome {
        tag(&mut out, "Termination", &o.termination.code());
        if let Some(p) = o.points {
            tag(
                &mut out,
                "Points",
                &format!("White {}, Black {}", p.white, p.black),
            );
        }
    }
    out.push('\n');
    let texts: Vec<String> = if full {
        menagerie_play::record::movetext(live.game.as_ref())
    } else {
        games::moves_seen(g, viewer)
            .into_iter()
            .map(|(_, h)| h)
            .collect()
    };
    let first = games::start_turn(g);
    let mut words = Vec::new();
    let claimed_at = |words: &mut Vec<String>, ply: usize| {
        for c in claims.iter().filter(|c| c.ply == ply) {
            words.push(format!("{{{} claims {}}}", color_word(c.by), c.code));
        }
    };
    for (i, t) in texts.iter().enumerate() {
        claimed_at(&mut words, i);
        let ply = i + usize::from(first == Color::Black);
        if ply % 2 == 0 {
            words.push(format!("{}.", ply / 2 + 1));
        } else if i == 0 {
            words.push(format!("{}...", ply / 2 + 1));
        }
        words.push(t.replace(' ', "_"));
    }
    claimed_at(&mut words, texts.len());
    words.push(result.to_string());
    let mut line = String::new();
    for w in words {
        if !line.is_empty() && line.len() + 1 + w.len() > 80 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&w);
    }
    out.push_str(&line);
    out.push('\n');
    out
}

/// Reads a record with the play library's reader (the one format every front end shares);
/// a turn the server wrote as a viewer's human text has its spaces as `_`.
fn parse(text: &str) -> Result<Record, ApiError> {
    let mut rec = menagerie_play::record::parse(text, "the record")
        .map_err(|e| ApiError::bad(e.to_string()))?;
    for (mv, _) in &mut rec.moves {
        if mv.contains('_') {
            *mv = mv.replace('_', " ");
        }
    }
    Ok(rec)
}

/// Reads the `Claims` tag: `PLY COLOR CODE, ...`.
fn read_claims(text: &str) -> Result<Vec<(usize, Color, String)>, ApiError> {
    let mut out = Vec::new();
    for item in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let words: Vec<&str> = item.split_whitespace().collect();
        let parsed = match words.as_slice() {
            [ply, color, code] => ply
                .parse::<usize>()
                .ok()
                .zip(games::parse_color(color))
                .map(|(p, c)| (p, c, code.to_string())),
            _ => None,
        };
        out.push(parsed.ok_or_else(|| {
            ApiError::bad(format!(
                "the record's Claims tag holds '{item}', not 'PLY COLOR CODE'"
            ))
        })?);
    }
    Ok(out)
}

/// The most turns a record imported by the server may hold: replaying it takes about
/// 50 µs a turn off the async runtime, and the game is kept in memory while played.
pub const MAX_IMPORT_TURNS: usize = 6000;

/// A record read and replayed: what the game is created with and the events it stores.
struct Prepared {
    variant: String,
    fen: Option<String>,
    rules: BTreeMap<String, Value>,
    events: Vec<Value>,
}

/// Creates a game from a record; returns its keys (every seat and the umpire's: the
/// importer holds the whole record anyway). The record is
/// read and replayed on a blocking thread, and its events are applied in memory off the
/// runtime's worker: a long record never holds up other requests.
pub async fn import(
    app: &Arc<App>,
    text: &str,
    players: [Player; 2],
    client: Option<std::net::IpAddr>,
) -> Result<Created, ApiError> {
    let text = text.to_string();
    let Prepared {
        variant,
        fen,
        rules,
        events,
    } = tokio::task::spawn_blocking(move || prepare(&text))
        .await
        .map_err(|_| ApiError::new(500, "reading the record failed inside the server"))??;
    let made = app
        .create(NewGame {
            variant,
            fen,
            rules,
            players,
            clock: None,
            seating: Seating::All,
            owners: [None, None],
            client,
            rated: false,
            days_per_turn: None,
        })
        .await?;
    let id = made.id.clone();
    if !events.is_empty() {
        let h = app.handle(&id).await?;
        let mut live = h.live.lock().await;
        if live.version() != 0 {
            return Err(ApiError::conflict(
                "the imported game changed before its turns were stored",
            ));
        }
        let commit = app.commit(&h, &mut live, events);
        // Storing applies every turn to the game in memory: on a worker of a multi-thread
        // runtime this moves the worker's other tasks to another thread meanwhile.
        if tokio::runtime::Handle::current().runtime_flavor()
            == tokio::runtime::RuntimeFlavor::MultiThread
        {
            tokio::task::block_in_place(|| tokio::runtime::Handle::current().block_on(commit))?;
        } else {
            commit.await?;
        }
    }
    Ok(made)
}

/// Reads `text` and replays it: every turn and claim checked before anything is stored.
fn prepare(text: &str) -> Result<Prepared, ApiError> {
    let rec = parse(text)?;
    if rec.moves.len() > MAX_IMPORT_TURNS {
        return Err(ApiError::bad(format!(
            "a record imported here holds at most {MAX_IMPORT_TURNS} turns, and this one has {}",
            rec.moves.len()
        )));
    }
    let variant = rec
        .tag("Variant")
        .ok_or_else(|| ApiError::bad("the record has no [Variant \"...\"] tag"))?
        .to_string();
    let mut rules = BTreeMap::new();
    if let Some(list) = rec.tag("Rules") {
        for item in list.split(',').filter(|s| !s.trim().is_empty()) {
            let (k, v) = item.split_once('=').unwrap_or((item, "on"));
            rules.insert(k.trim().to_string(), json!(v.trim()));
        }
    }
    let fen = rec.tag("FEN").map(str::to_string);
    // Check every turn before anything is stored.
    let options = games::rule_options(&rules)?;
    let mut game = games::open(&variant, fen.as_deref(), &options)?;
    let claims = read_claims(rec.tag("Claims").unwrap_or(""))?;
    let mut events = Vec::new();
    let claim_events = |game: &mut dyn menagerie_variants::AnyGame,
                        events: &mut Vec<Value>,
                        ply: usize|
     -> Result<(), ApiError> {
        for (by, code) in claims
            .iter()
            .filter(|(p, _, _)| *p == ply)
            .map(|(_, b, c)| (*b, c))
        {
            let sentence = game
                .claims()
                .into_iter()
                .find(|c| &c.code == code)
                .map(|c| c.sentence)
                .unwrap_or_default();
            game.claim_by(by, code).map_err(|e| {
                ApiError::bad(format!(
                    "the record's claim '{code}' after {ply} turns cannot be made: {e}"
                ))
            })?;
            events.push(json!({"type": "claim", "color": color_word(by), "code": code, "sentence": sentence}));
        }
        Ok(())
    };
    for (i, (mv, line)) in rec.moves.iter().enumerate() {
        claim_events(game.as_mut(), &mut events, i)?;
        let mover = game.turn();
        let (c, h) = game.push(mv).map_err(|e| {
            ApiError::bad(format!(
                "record line {line}: turn {} '{mv}' cannot be played: {e}",
                i + 1
            ))
        })?;
        events.push(
            json!({"type": "turn", "color": color_word(mover), "ply": i + 1,
            "canonical": c, "human": h, "seen": games::last_turn_seen(game.as_ref())}),
        );
    }
    claim_events(game.as_mut(), &mut events, rec.moves.len())?;
    if let Some(o) = game.outcome() {
        let mut end = games::outcome_json(&o);
        end["type"] = json!("end");
        end["by"] = json!("board");
        events.push(end);
    } else if let Some(result) = rec.tag("Result") {
        let winner = match result {
            "1-0" => Some(Some(Color::White)),
            "0-1" => Some(Some(Color::Black)),
            "1/2-1/2" => Some(None),
            _ => None,
        };
        if let Some(w) = winner {
            let code = rec.tag("Termination").unwrap_or("adjudication");
            let o = games::external_outcome(game.as_ref(), code, w);
            let mut end = games::outcome_json(&o);
            end["type"] = json!("end");
            end["by"] = json!("record");
            events.push(end);
        }
    }
    Ok(Prepared {
        variant,
        fen,
        rules,
        events,
    })
}
