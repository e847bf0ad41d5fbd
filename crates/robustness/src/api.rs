//! Every call this crate makes into the library, in one place, so that a change of the
//! library's shape (the engine object, the play crate) is adapted here only.

use menagerie_core::{Position, RuleOptions, VariantSpec};
pub use menagerie_variants::AnyGame;
use menagerie_variants::{find, registry, Engine, Limits, Variant};
use std::time::{Duration, Instant};

/// One variant id with the rule options each variant offers.
pub fn variant_ids() -> Vec<&'static str> {
    registry().iter().map(|v| v.id).collect()
}

/// The variant called `id`.
pub fn variant(id: &str) -> Option<Variant> {
    find(id).ok()
}

/// Every combination of rule options `id` offers, as `name=value` lists (the defaults first).
pub fn option_sets(id: &str) -> Vec<Vec<String>> {
    let Some(v) = variant(id) else {
        return vec![Vec::new()];
    };
    let mut sets: Vec<Vec<String>> = vec![Vec::new()];
    for opt in v.options {
        let mut next = Vec::new();
        for set in &sets {
            for (i, value) in opt.values.iter().enumerate() {
                let mut s = set.clone();
                if i > 0 {
                    s.push(format!("{}={value}", opt.name));
                }
                next.push(s);
            }
        }
        sets = next;
    }
    sets
}

/// Rule options from `name=value` strings.
pub fn options(items: &[String]) -> Result<RuleOptions, String> {
    RuleOptions::parse(items).map_err(|e| e.to_string())
}

/// Opens a game of `id` at `fen` (the start when `None`); the error as its sentence.
pub fn open(id: &str, fen: Option<&str>, opts: &[String]) -> Result<Box<dyn AnyGame>, String> {
    let v = variant(id).ok_or_else(|| format!("unknown variant {id}"))?;
    let o = options(opts)?;
    v.open(fen, &o).map_err(|e| e.to_string())
}

/// What a search returned and what it cost.
#[derive(Debug)]
pub struct Searched {
    /// The chosen turn in canonical text.
    pub best: Option<String>,
    /// Nodes searched in all.
    pub nodes: u64,
    /// Wall time of the whole search.
    pub elapsed: Duration,
}

/// Searches `game` within a depth, node and time limit.
pub fn search(
    game: &mut dyn AnyGame,
    depth: Option<u32>,
    nodes: Option<u64>,
    movetime: Option<Duration>,
) -> Searched {
    let limits = Limits {
        depth,
        nodes,
        movetime,
        ..Limits::default()
    };
    let start = Instant::now();
    // A fresh engine with a small table each time: the result depends on the input only.
    let mut engine = Engine::new(1);
    let report = engine.search(game, &limits, None, &mut |_| {});
    Searched {
        best: report.best,
        nodes: report.nodes,
        elapsed: start.elapsed(),
    }
}

/// A Little Cheops variant (`imperial` or not) with the piece table `text`, opened at its
/// start; `Err` with the sentence when the table or the start position is refused.
pub fn open_with_pieces(imperial: bool, text: &str) -> Result<Box<dyn AnyGame>, String> {
    let id = if imperial {
        "little-cheops-imperial"
    } else {
        "little-cheops"
    };
    let v = variant(id).ok_or("no Little Cheops")?;
    let custom = v.with_pieces(text).map_err(|e| e.to_string())?;
    let _ = menagerie_variants::piece_help(id, Some(text));
    custom
        .open(None, &RuleOptions::new())
        .map_err(|e| e.to_string())
}

/// Checks on the typed game behind variant `id`, at `fen` under `opts`, through `f`.
pub fn with_typed<R>(id: &str, fen: &str, opts: &[String], f: impl TypedCheck<R>) -> Option<R> {
    let o = options(opts).ok()?;
    if let Some(s) = menagerie_chess::variants().into_iter().find(|s| s.id == id) {
        return Some(f.run(s, fen, &o));
    }
    if let Some(s) = menagerie_vyrt::variants().into_iter().find(|s| s.id == id) {
        return Some(f.run(s, fen, &o));
    }
    if let Some(s) = menagerie_cypher::variants()
        .into_iter()
        .find(|s| s.id == id)
    {
        return Some(f.run(s, fen, &o));
    }
    if let Some(s) = menagerie_cheops::variants()
        .into_iter()
        .find(|s| s.id == id)
    {
        return Some(f.run(s, fen, &o));
    }
    None
}

/// A check generic over the game type (a closure cannot be generic).
pub trait TypedCheck<R> {
    /// Runs the check on the game of `spec` at `fen`.
    fn run<P: Position>(self, spec: VariantSpec<P>, fen: &str, opts: &RuleOptions) -> R;
}

/// The game records (the play crate's): reading one and replaying it.
pub mod record {
    use menagerie_play::record as play_record;

    /// Reads a record and replays it on its variant; `Err` with the sentence when refused.
    /// Panics only where the library does.
    pub fn read_and_replay(text: &str) -> Result<(), String> {
        let rec = play_record::parse(text, "fuzz").map_err(|e| e.to_string())?;
        let _ = play_record::stated_outcome(&rec);
        let id = rec.tag("Variant").unwrap_or("chess").to_string();
        let fen = rec.tag("FEN").map(str::to_string);
        let mut game = super::open(&id, fen.as_deref(), &[])?;
        play_record::replay(game.as_mut(), &rec, "fuzz").map_err(|e| e.to_string())?;
        let start = game.start_fen();
        let v = super::variant(&id).ok_or("no variant")?;
        let outcome = game.outcome();
        let written = play_record::write(game.as_ref(), v.start_fen, &[], outcome.as_ref());
        // What the writer writes, the reader reads back to the same game.
        let again = play_record::parse(&written, "rewritten")
            .unwrap_or_else(|e| panic!("a written record is refused: {e}\n{written}"));
        let mut replayed = super::open(&id, Some(&start), &[])
            .unwrap_or_else(|e| panic!("the start {start} does not reopen: {e}"));
        if let Err(e) = play_record::replay(replayed.as_mut(), &again, "rewritten") {
            panic!("a written record does not replay: {e}\n{written}");
        }
        assert_eq!(replayed.fen(), game.fen(), "record round trip\n{written}");
        Ok(())
    }
}

/// A record of `game` as the record writer writes it (for seeds and round trips).
pub fn write_record(game: &dyn AnyGame) -> String {
    let start = variant(game.variant()).map_or(String::new(), |v| v.start_fen.to_string());
    let outcome = game.outcome();
    menagerie_play::record::write(game, &start, &[], outcome.as_ref())
}
