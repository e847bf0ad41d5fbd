//! Every call into the game library, in one place: opening games, views per viewer, the
//! JSON shapes of Contract 1 (turns, snapshots, outcomes, search lines) and engine searches.
//!
//! Where the library does not offer a call yet (structured turns, snapshots, views), this
//! module builds the same JSON from what it does offer, so the rest of the server never
//! changes when the library grows.

use menagerie_core::{Claim, Color, Outcome, RuleOptions};
use menagerie_variants::{find, registry, AnyGame, Limits, Score, SearchInfo, VariantError};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// Who is looking at a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Viewer {
    /// The player of one side (a seat's token).
    Player(Color),
    /// Anyone without a token.
    Spectator,
    /// The umpire (the umpire's token): sees everything.
    Umpire,
}

impl Viewer {
    /// The library's viewer.
    pub fn library(self) -> menagerie_core::Viewer {
        match self {
            Viewer::Player(c) => menagerie_core::Viewer::Player(c),
            Viewer::Spectator => menagerie_core::Viewer::Spectator,
            Viewer::Umpire => menagerie_core::Viewer::Umpire,
        }
    }

    /// The word the API uses for this viewer (`you`).
    pub fn word(self) -> &'static str {
        match self {
            Viewer::Player(c) => color_word(c),
            Viewer::Spectator => "spectator",
            Viewer::Umpire => "umpire",
        }
    }
}

/// `white` or `black`.
pub fn color_word(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// Reads `white` or `black`.
pub fn parse_color(text: &str) -> Option<Color> {
    match text {
        "white" => Some(Color::White),
        "black" => Some(Color::Black),
        _ => None,
    }
}

/// A game of any variant.
pub type Game = Box<dyn AnyGame>;

/// Why a game cannot be opened or a turn played, in one sentence, and what kind of fault.
#[derive(Debug)]
pub enum GameError {
    /// No variant has this id.
    UnknownVariant(String),
    /// Anything else the caller supplied wrongly (position string, rule option, move).
    Bad(String),
}

impl From<VariantError> for GameError {
    fn from(e: VariantError) -> Self {
        match e {
            VariantError::Unknown(id) => GameError::UnknownVariant(format!(
                "unknown variant '{id}'; GET /api/variants lists them"
            )),
            other => GameError::Bad(other.to_string()),
        }
    }
}

/// Reads rule options from a JSON object of `NAME: VALUE` (strings, numbers or booleans).
pub fn rule_options(rules: &BTreeMap<String, Value>) -> Result<RuleOptions, GameError> {
    let items: Vec<String> = rules
        .iter()
        .map(|(k, v)| match v {
            Value::String(s) => format!("{k}={s}"),
            Value::Bool(true) => format!("{k}=on"),
            Value::Bool(false) => format!("{k}=off"),
            other => format!("{k}={other}"),
        })
        .collect();
    RuleOptions::parse(&items).map_err(|e| GameError::Bad(e.to_string()))
}

/// Opens a game of `variant` at `fen` (the start when `None`) under `rules`.
pub fn open(variant: &str, fen: Option<&str>, rules: &RuleOptions) -> Result<Game, GameError> {
    let v = find(variant)?;
    Ok(v.open(fen, rules)?)
}

/// The canonical id of a variant (as the registry spells it).
pub fn variant_id(variant: &str) -> Result<&'static str, GameError> {
    Ok(find(variant)?.id)
}

/// The canonical id and the human name of a variant.
pub fn variant_names(variant: &str) -> Result<(&'static str, &'static str), GameError> {
    let v = find(variant)?;
    Ok((v.id, v.name))
}

/// `GET /api/variants`: ids, names, one-line descriptions, geometry and rule options.
pub fn variants_json() -> Value {
    let list: Vec<Value> = registry()
        .iter()
        .filter_map(|v| {
            let g = v.open(None, &RuleOptions::new()).ok()?;
            Some(json!({
                "id": v.id,
                "name": v.name,
                "summary": v.summary,
                "start_fen": v.start_fen,
                "geometry": geometry_json(g.as_ref()),
                "pieces": pieces_json(v.id),
                "options": v.options.iter().map(|o| json!({
                    "name": o.name, "values": o.values, "default": o.values.first(), "help": o.help,
                })).collect::<Vec<_>>(),
            }))
        })
        .collect();
    Value::Array(list)
}

/// A game's piece table where its pieces are data (Little Cheops): `[{"letter", "name",
/// "abbreviation", "betza", "provisional"}]` read from the library's listing; empty for the
/// games whose rulebook fixes the pieces.
pub fn pieces_json(variant: &str) -> Vec<Value> {
    let Ok(Some(lines)) = menagerie_variants::piece_help(variant, None) else {
        return Vec::new();
    };
    // Each line after the heading: LETTER NAME... ABBREVIATION BETZA STATUS.
    lines
        .iter()
        .skip(1)
        .filter_map(|line| {
            let words: Vec<&str> = line.split_whitespace().collect();
            let n = words.len();
            if n < 5 {
                return None;
            }
            Some(json!({
                "letter": words[0].trim_matches(|c| c == '(' || c == ')'),
                "name": words[1..n - 3].join(" "),
                "abbreviation": words[n - 3],
                "betza": words[n - 2],
                "provisional": words[n - 1] == "[provisional]",
            }))
        })
        .collect()
}

/// Whether the game keeps secrets from its players (Little Cheops Imperial).
fn has_secrets(game: &dyn AnyGame) -> bool {
    game.variant() == "little-cheops-imperial"
}

/// The position string as `viewer` may see it: players their own string, spectators the
/// public string, the umpire everything.
pub fn view_fen(game: &dyn AnyGame, viewer: Viewer) -> String {
    match viewer {
        Viewer::Umpire => game.fen(),
        Viewer::Player(c) => game.view_fen(c),
        Viewer::Spectator => {
            if has_secrets(game) {
                // The umpire string is the public string plus the sealed papers.
                let fen = game.fen();
                match fen.rsplit_once(' ') {
                    Some((public, _papers)) => public.to_string(),
                    None => fen,
                }
            } else {
                game.fen()
            }
        }
    }
}

/// The game as `viewer` knows it (position and history, from the library's views, never
/// re-read from strings): what its board, check and legal turns are read from.
pub fn view_position(game: &dyn AnyGame, viewer: Viewer, _rules: &RuleOptions) -> Game {
    game.view(viewer.library())
}

/// The library's name for a viewer of a turn: a player, or `None` (spectators).
fn seen_by(viewer: Viewer) -> Option<Option<Color>> {
    match viewer {
        Viewer::Umpire => None,
        Viewer::Player(c) => Some(Some(c)),
        Viewer::Spectator => Some(None),
    }
}

/// The turns played so far as `viewer` may know them: `(canonical, human)` (Contract 4).
pub fn moves_seen(game: &dyn AnyGame, viewer: Viewer) -> Vec<(String, String)> {
    match seen_by(viewer) {
        None => game
            .history()
            .into_iter()
            .zip(game.history_seen_by(None))
            .map(|(umpire, public)| with_public_answer(umpire, public))
            .collect(),
        Some(v) => game.history_seen_by(v),
    }
}

/// The umpire's text of a turn with what everyone was told of it: where the public text
/// extends the umpire's (an inspection's answer, `inspect:g5` → `inspect:g5=D`), the public
/// one, so that the umpire knows at least what the players know.
fn with_public_answer(umpire: (String, String), public: (String, String)) -> (String, String) {
    if public.0.len() > umpire.0.len() && public.0.starts_with(&umpire.0) {
        public
    } else {
        umpire
    }
}

/// The last turn of `game` as each viewer may know it, for a stored event:
/// `{"white": {"canonical","human"}, "black": ..., "spectator": ...}`.
pub fn last_turn_seen(game: &dyn AnyGame) -> Value {
    let text = |v: Option<Color>| {
        let (c, h) = game.last_seen_by(v).unwrap_or_default();
        json!({"canonical": c, "human": h})
    };
    json!({
        "white": text(Some(Color::White)),
        "black": text(Some(Color::Black)),
        "spectator": text(None),
    })
}

/// A stored turn event's text as `viewer` may know it.
pub fn event_seen(ev: &Value, viewer: Viewer) -> (String, String) {
    let key = match viewer {
        Viewer::Umpire => None,
        Viewer::Player(c) => Some(color_word(c)),
        Viewer::Spectator => Some("spectator"),
    };
    let pick = |v: &Value| {
        (
            v["canonical"].as_str().unwrap_or("").to_string(),
            v["human"].as_str().unwrap_or("").to_string(),
        )
    };
    match key {
        None if ev["seen"]["spectator"].is_object() => {
            with_public_answer(pick(ev), pick(&ev["seen"]["spectator"]))
        }
        None => pick(ev),
        Some(k) if ev["seen"][k].is_object() => pick(&ev["seen"][k]),
        // An event without its viewers' texts: only games with no secrets store those.
        Some(_) => pick(ev),
    }
}

/// The side to move in the start position.
pub fn start_turn(game: &dyn AnyGame) -> Color {
    let start = game.start_fen();
    let mover_letter = start.split_whitespace().nth(1);
    if mover_letter == Some("b") {
        Color::Black
    } else {
        Color::White
    }
}

/// The legal turns of a (view) game, as Contract 1's `TurnInfo` list.
pub fn legal_json(view: &dyn AnyGame) -> Vec<Value> {
    view.turns()
        .iter()
        .filter_map(|t| serde_json::to_value(t).ok())
        .collect()
}

/// The board's shape and coordinate names.
pub fn geometry_json(game: &dyn AnyGame) -> Value {
    let g = game.geometry();
    json!({
        "width": g.width(),
        "height": g.height(),
        "wrap_files": g.wraps_files(),
        "wrap_ranks": g.wraps_ranks(),
        "files": (0..g.width()).map(|f| g.file_name(f).to_string()).collect::<Vec<_>>(),
        "ranks": (0..g.height()).map(|r| g.rank_name(r).to_string()).collect::<Vec<_>>(),
    })
}

/// The board snapshot (Contract 1) of a view game: squares, pieces, marks, the last turn
/// as the viewer knows it, and what lies off the board (`off_board`, [`off_board_json`]).
pub fn snapshot_json(view: &dyn AnyGame) -> Value {
    let mut v = serde_json::to_value(view.snapshot()).unwrap_or(Value::Null);
    if let Value::Object(m) = &mut v {
        m.insert("off_board".into(), off_board_json(view));
    }
    v
}

/// The game's state that is not on the squares, read from the view's own position string
/// (so it holds nothing the viewer may not see): Cypher's re-take square, infiltration
/// rights, consecutive-check counts and prisoner pools (guide §18); Little Cheops' halfmove
/// count and the fifty-round challenge once made (`count`: turns counted since the later of
/// the challenge and the last Pawn move, capture or arrest, guide §11). `{}` for chess and Vyrt.
pub fn off_board_json(view: &dyn AnyGame) -> Value {
    let fen = view.fen();
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let pair = |text: &str, sep: char| -> Option<(u64, u64)> {
        let (w, b) = text.split_once(sep)?;
        Some((w.parse().ok()?, b.parse().ok()?))
    };
    match view.variant() {
        "cypher" if fields.len() >= 6 => {
            let (checks_w, checks_b) = pair(fields[4], '+').unwrap_or((0, 0));
            let (pool_w, pool_b) = pair(fields[5], '/').unwrap_or((0, 0));
            json!({
                "re_take": (fields[2] != "-").then_some(fields[2]),
                "infiltration": {"white": fields[3].contains('I'), "black": fields[3].contains('i')},
                "checks": {"white": checks_w, "black": checks_b},
                "pools": {"white": pool_w, "black": pool_b},
            })
        }
        variant if variant.starts_with("little-cheops") => {
            // Common: board side halfmove fullmove; Imperial: board side castles deputies halfmove ...
            let at = if variant == "little-cheops" { 2 } else { 4 };
            let halfmove: u64 = fields.get(at).and_then(|h| h.parse().ok()).unwrap_or(0);
            let challenge = view
                .made_claims()
                .into_iter()
                .find(|c| c.code == "challenge")
                .map(|c| {
                    let since = view.ply().saturating_sub(c.ply) as u64;
                    json!({"by": color_word(c.by), "ply": c.ply, "count": halfmove.min(since)})
                });
            json!({"halfmove": halfmove, "challenge": challenge})
        }
        _ => json!({}),
    }
}

/// The termination code of an aborted game (issue 32 item 5): no result, unrated.
pub const ABORTED: &str = "aborted";
/// The termination code of a game won or drawn by claim when a player left the table.
pub const ABSENCE: &str = "absence";

/// Whether the game was aborted (it ended without a result).
pub fn is_aborted(o: &Outcome) -> bool {
    o.termination.code_str() == ABORTED
}

/// The result as a record writes it: `1-0`, `0-1`, `1/2-1/2`, or `*` for an aborted game.
pub fn result_of(o: &Outcome) -> &'static str {
    if is_aborted(o) {
        "*"
    } else {
        o.result()
    }
}

/// The ending in one sentence (with the points, where the game scores them).
pub fn describe(o: &Outcome) -> String {
    if is_aborted(o) {
        "the game was aborted: no result".to_string()
    } else {
        o.to_string()
    }
}

/// Contract 1's outcome JSON.
pub fn outcome_json(o: &Outcome) -> Value {
    json!({
        "winner": o.winner.map(color_word),
        "code": o.termination.code(),
        "sentence": describe(o),
        "points": o.points.map(|p| json!({"white": p.white, "black": p.black})),
        "result": result_of(o),
    })
}

/// An ending from outside the board: `code` is `resignation`, `agreement`, `forfeit`, ...
pub fn external_outcome(game: &dyn AnyGame, code: &str, winner: Option<Color>) -> Outcome {
    use menagerie_core::Termination;
    match (code, winner) {
        // No result and no points: the rules of the game never saw it.
        (ABORTED, _) => {
            return Outcome::draw(Termination::rule(ABORTED, "the game was aborted"));
        }
        (ABSENCE, Some(w)) => {
            let sentence = format!("{} left the game", w.other());
            return Outcome::win(w, Termination::rule(ABSENCE, &sentence));
        }
        (ABSENCE, None) => {
            let sentence = "a player left the game and the other claimed a draw";
            return Outcome::draw(Termination::rule(ABSENCE, sentence));
        }
        _ => {}
    }
    let t = match code {
        "resignation" => Termination::Resignation,
        "agreement" => Termination::Agreement,
        "forfeit" => Termination::Forfeit,
        "time-forfeit" => Termination::TimeForfeit,
        other => Termination::from_code(other, other),
    };
    let o = match winner {
        Some(w) => Outcome::win(w, t),
        None => Outcome::draw(t),
    };
    // Ended through the library on a copy, so the game's own scoring table gives the points
    // (Cypher: a resignation scores 4).
    let mut trial = game.fork();
    match trial.adjudicate(o.clone()) {
        Ok(()) => trial.outcome().unwrap_or(o),
        Err(_) => o,
    }
}

/// The claims `viewer` may make now (the library's `claims()`, from that player's view):
/// a player sees the repetition choice on its own turn and the rulebook's claims either
/// player may make; spectators and the umpire make none.
pub fn claims(game: &dyn AnyGame, viewer: Viewer) -> Vec<Claim> {
    match viewer {
        Viewer::Player(c) => game
            .view(viewer.library())
            .claims()
            .into_iter()
            .filter(|k| k.by.is_none_or(|b| b == c))
            .collect(),
        Viewer::Spectator | Viewer::Umpire => Vec::new(),
    }
}

/// Claims as the API writes them: `[{"code","sentence"}]`.
pub fn claims_json(claims: &[Claim]) -> Vec<Value> {
    claims
        .iter()
        .map(|c| json!({"code": c.code, "sentence": c.sentence}))
        .collect()
}

/// `POST /api/position`: a position with no game (the analysis board), every secret shown
/// since the caller supplied it.
pub fn position_json(game: &dyn AnyGame, rules: &BTreeMap<String, Value>) -> Value {
    let outcome = game.outcome();
    json!({
        "variant": game.variant(),
        "rules": rules,
        "fen": game.fen(),
        "turn": color_word(game.turn()),
        "moves": game.history().iter().map(|(c, h)| json!({"canonical": c, "human": h})).collect::<Vec<_>>(),
        "legal": if outcome.is_none() { legal_json(game) } else { Vec::new() },
        "board": snapshot_json(game),
        "outcome": outcome.as_ref().map(outcome_json),
        "claims": claims_json(&game.claims()),
    })
}

/// `GET /api/games/{id}/at/{ply}`: the moment after `ply` turns as `viewer` may see it
/// (`ply` at most the number of turns played).
pub fn at_ply_json(game: &dyn AnyGame, viewer: Viewer, ply: usize) -> Value {
    let mut then = game.fork();
    while then.ply() > ply && then.pop().is_some() {}
    let view = then.view(viewer.library());
    let last = moves_seen(then.as_ref(), viewer)
        .pop()
        .map(|(c, h)| json!({"canonical": c, "human": h}));
    json!({
        "ply": then.ply(),
        "fen": view_fen(then.as_ref(), viewer),
        "board": snapshot_json(view.as_ref()),
        "last": last,
        "turn": color_word(then.turn()),
    })
}

/// The engine levels a seat may ask for (`engine:LEVEL`): the library's levels.
pub const LEVELS: std::ops::RangeInclusive<u32> =
    menagerie_variants::MIN_LEVEL..=menagerie_variants::MAX_LEVEL;

/// Whether `level` is one of [`LEVELS`]: the one check `engine:LEVEL` goes through.
pub fn level_exists(level: u32) -> bool {
    LEVELS.contains(&level)
}

/// The search limits of an engine level in `variant` (1 weakest .. 8 strongest, the library's
/// levels, the game's own table where it has one); a level stored by an older server outside
/// that range plays at the nearest one.
pub fn level_limits(variant: &str, level: u32) -> Limits {
    let level = level.clamp(menagerie_variants::MIN_LEVEL, menagerie_variants::MAX_LEVEL);
    menagerie_variants::level_limits(variant, level).unwrap_or_default()
}

/// Searches `game` (the umpire's; the library searches from the mover's view where the game
/// hides information) and returns `(canonical, human)` of the chosen turn.
pub fn search(
    game: &dyn AnyGame,
    limits: &Limits,
    stop: Option<Arc<AtomicBool>>,
    on_iteration: &mut dyn FnMut(&SearchInfo),
) -> Option<(String, String)> {
    let mut engine = menagerie_variants::Engine::new(menagerie_variants::HASH_MB);
    let r = engine.search(game, limits, stop, on_iteration);
    Some((r.best?, r.best_human.unwrap_or_default()))
}

/// Contract 2's score JSON: `{"cp":N}` or `{"mate":N}` (N > 0: the side to move mates).
pub fn score_json(s: Score) -> Value {
    match s {
        Score::Cp(cp) => json!({"cp": cp}),
        Score::WinIn(plies) => json!({"mate": plies.div_ceil(2).max(1)}),
        Score::LossIn(plies) => json!({"mate": -(plies.div_ceil(2).max(1) as i64)}),
    }
}

/// One analysis line (NDJSON) of an iteration.
pub fn info_json(info: &SearchInfo) -> Value {
    json!({
        "depth": info.depth,
        "seldepth": info.seldepth,
        "score": score_json(info.score),
        "nodes": info.nodes,
        "nps": info.nps,
        "time_ms": info.elapsed.as_millis() as u64,
        "pv": info.pv_human,
        "pv_canonical": info.pv,
        "multipv": info.multipv,
    })
}

/// Plays `text` (canonical or human) on the umpire's game as `mover` sees it, returning the
/// `(canonical, human)` texts; error sentences depend only on what the mover sees.
pub fn play(
    game: &mut dyn AnyGame,
    text: &str,
    rules: &RuleOptions,
) -> Result<(String, String), String> {
    if has_secrets(game) {
        // Read the turn from the mover's own view, so that whether it is legal and what the
        // error says never depends on the opponent's secret (R41).
        let mover = game.turn();
        let mut view = view_position(game, Viewer::Player(mover), rules);
        let (canonical, _) = view.push(text).map_err(|e| e.to_string())?;
        return game.push(&canonical).map_err(|e| e.to_string());
    }
    game.push(text).map_err(|e| e.to_string())
}
