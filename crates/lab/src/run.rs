//! Playing a study: self-play games on many threads, each game fixed by the study seed and
//! its index alone (so a slice of a study on another machine plays the same games), with the
//! figures the report needs recorded ply by ply.

use menagerie_core::{Color, Outcome, RuleOptions, Termination};
use menagerie_play::openings::balanced_opening;
use menagerie_play::players::{EnginePlayer, Player, Rng};
use menagerie_play::record;
use menagerie_variants::{AnyGame, Evaluation, Limits, Variant, VariantError};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// What a study plays (one or two rule sets).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct StudyConfig {
    /// The variant id.
    pub variant: String,
    /// The rule options of set A, as `NAME=VALUE`.
    pub rules: Vec<String>,
    /// The rule options of set B (compared with A), if any.
    pub vs_rules: Option<Vec<String>>,
    /// Games per rule set.
    pub games: u32,
    /// Node limit per move (deterministic), if any.
    pub nodes: Option<u64>,
    /// Time limit per move in milliseconds, if any.
    pub movetime: Option<u64>,
    /// The study seed.
    pub seed: u64,
    /// Random plies before the engines take over (each opening played both ways).
    pub openings: u32,
    /// A draw is adjudicated after this many plies.
    pub max_plies: u32,
    /// The piece table set A plays with (`--pieces`), if not the game's own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pieces: Option<PieceFile>,
    /// The piece table set B plays with (`--vs-pieces`), if not set A's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vs_pieces: Option<PieceFile>,
    /// The position set A starts from (`--fen`), if not the game's start.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fen: Option<String>,
    /// The position set B starts from (`--vs-fen`), if not set A's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vs_fen: Option<String>,
}

/// A piece table a study plays with (Little Cheops, whose pieces are data): the file's name,
/// for the report, and its text, so that a shard or a merge plays and checks the same table.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct PieceFile {
    /// The file's name as given (only shown).
    pub name: String,
    /// The table.
    pub text: String,
}

impl StudyConfig {
    /// Whether the study compares two sets (other rules, another piece table, another start).
    pub fn compares(&self) -> bool {
        self.vs_rules.is_some() || self.vs_pieces.is_some() || self.vs_fen.is_some()
    }

    /// The number of sets the study plays (1 or 2).
    pub fn set_count(&self) -> usize {
        if self.compares() {
            2
        } else {
            1
        }
    }

    /// The rule options of set `set` (0 is A): set B has its `--vs-rule` options, or A's when
    /// it differs only in its pieces or its start.
    pub fn set_rules(&self, set: u8) -> &[String] {
        self.vs_rules
            .as_deref()
            .filter(|_| set == 1)
            .unwrap_or(&self.rules)
    }

    /// The piece table of set `set`: set B keeps A's table unless `--vs-pieces` gives one.
    pub fn set_pieces(&self, set: u8) -> Option<&PieceFile> {
        self.vs_pieces
            .as_ref()
            .filter(|_| set == 1)
            .or(self.pieces.as_ref())
    }

    /// The position set `set` starts from (`None`: the game's start): set B keeps A's unless
    /// `--vs-fen` gives one.
    pub fn set_fen(&self, set: u8) -> Option<&str> {
        self.vs_fen
            .as_deref()
            .filter(|_| set == 1)
            .or(self.fen.as_deref())
    }

    /// What set `set` plays, as the report shows it: its rule options, then
    /// `pieces=<file>` and `fen=<position>` when it has a table or a start of its own.
    pub fn set_label(&self, set: u8) -> Vec<String> {
        let mut label = self.set_rules(set).to_vec();
        if let Some(p) = self.set_pieces(set) {
            label.push(format!("pieces={}", p.name));
        }
        if let Some(f) = self.set_fen(set) {
            label.push(format!("fen={f}"));
        }
        label
    }
}

pub use menagerie_play::openings::{BALANCED_CP, OPENING_NODES};
/// Every how many plies the piece counts are sampled for the piece-value regression.
pub const SAMPLE_EVERY: usize = 2;

/// One game of a study with everything the report needs.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct GameData {
    /// 0 for rule set A, 1 for B.
    pub set: u8,
    /// The game's index in its rule set (0-based).
    pub index: u32,
    /// The game's own seed (from the study seed and the index).
    pub seed: u64,
    /// The random opening played before the engines (canonical moves).
    pub opening: Vec<String>,
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
    /// The termination code (`checkmate`, `max-plies`, ...).
    pub termination: String,
    /// White's points (the game's own table, else 1, ½, 0).
    pub white_points: f64,
    /// Black's points.
    pub black_points: f64,
    /// Plies played (the opening included).
    pub plies: usize,
    /// Material balance for White (centipawns, the engine's values) before each ply and at
    /// the end.
    pub material: Vec<i32>,
    /// Legal moves of the side to move before each ply.
    pub mobility: Vec<u32>,
    /// Every [`SAMPLE_EVERY`] plies from the end of the opening: the ply, the engine's
    /// material balance for White, and White's minus Black's count of each piece letter.
    pub samples: Vec<(usize, i32, BTreeMap<char, i32>)>,
    /// The game record.
    pub record: String,
    /// Turns where the engine proposed a move the game refused and the lab chose among the
    /// offered ones instead (see [`choose`]); 0 in a sound game.
    #[serde(default)]
    pub fallbacks: u32,
}

impl GameData {
    /// White's share of the points, in [0, 1].
    pub fn white_score(&self) -> f64 {
        let total = self.white_points + self.black_points;
        if total <= 0.0 {
            0.5
        } else {
            self.white_points / total
        }
    }
}

/// The game's own seed: SplitMix64 of the study seed and the pair index, so both games of an
/// opening pair share it, and so does the same pair of a second rule set: the sets are
/// compared on the same openings (where both sets' rules allow the same random plies) and
/// node budgets.
pub fn game_seed(study_seed: u64, index: u32) -> u64 {
    let mut r = Rng::new(study_seed ^ (u64::from(index / 2) << 1));
    r.next_u64()
}

/// White's minus Black's count of each piece letter (lower case) on the board.
pub fn piece_counts(game: &dyn AnyGame) -> BTreeMap<char, i32> {
    let mut counts = BTreeMap::new();
    let g = game.geometry();
    for sq in g.squares() {
        if let Some(c) = game.piece_at(sq) {
            let sign = if c.is_ascii_uppercase() { 1 } else { -1 };
            *counts.entry(c.to_ascii_lowercase()).or_insert(0) += sign;
        }
    }
    counts
}

fn white_material(eval: &Evaluation, game: &dyn AnyGame) -> i32 {
    let m = eval.material(game);
    if game.turn() == Color::White {
        m
    } else {
        -m
    }
}

/// The node limit of each side: the study's, scaled per side by a factor in [0.5, 1.5] drawn
/// from the pair's seed, so that the games of a study differ; the second game of a pair
/// swaps the two (the opening is played both ways).
fn side_limits(config: &StudyConfig, seed: u64, index: u32) -> (Limits, Limits) {
    let base = Limits {
        depth: None,
        nodes: config.nodes,
        movetime: config.movetime.map(Duration::from_millis),
        ..Limits::default()
    };
    let Some(n) = config.nodes else {
        return (base, base);
    };
    let mut r = Rng::new(seed ^ 0xB0D6E7);
    let mut jitter = || {
        let f = 0.5 + (r.next_u64() % 10_001) as f64 / 10_000.0;
        Limits {
            nodes: Some(((n as f64 * f).round() as u64).max(1)),
            ..base
        }
    };
    let (a, b) = (jitter(), jitter());
    if index.is_multiple_of(2) {
        (a, b)
    } else {
        (b, a)
    }
}

/// A random opening of `plies` plies from the pair's seed, balanced as every match's
/// ([`balanced_opening`]).
fn opening(
    variant: &Variant,
    fen: Option<&str>,
    options: &RuleOptions,
    plies: u32,
    seed: u64,
) -> Result<Vec<String>, VariantError> {
    balanced_opening(variant, fen, options, plies, &mut Rng::new(seed ^ 0x0_9E11))
}

/// Plays game `index` of rule set `set` (options `options`).
pub fn play_one(
    config: &StudyConfig,
    variant: &Variant,
    options: &RuleOptions,
    set: u8,
    index: u32,
) -> Result<GameData, VariantError> {
    let seed = game_seed(config.seed, index);
    let fen = config.set_fen(set);
    let line = opening(variant, fen, options, config.openings, seed)?;
    let mut g = variant.open(fen, options)?;
    let (wl, bl) = side_limits(config, seed, index);
    let mut white = EnginePlayer::new(wl);
    let mut black = EnginePlayer::new(bl);
    let mut material = Vec::new();
    let mut mobility = Vec::new();
    let mut samples = Vec::new();
    let mut fallbacks = 0;
    let eval = variant.evaluation();
    let observe =
        |g: &dyn AnyGame, material: &mut Vec<i32>, samples: &mut Vec<_>, in_opening: bool| {
            let m = white_material(&eval, g);
            material.push(m);
            if !in_opening && (g.ply() - line.len()).is_multiple_of(SAMPLE_EVERY) {
                samples.push((g.ply(), m, piece_counts(g)));
            }
        };
    for mv in &line {
        mobility.push(g.legal_moves().len() as u32);
        observe(g.as_ref(), &mut material, &mut samples, true);
        g.push(mv)?;
    }
    let outcome: Outcome = loop {
        if let Some(o) = g.outcome() {
            break o;
        }
        let moves = g.legal_moves().len() as u32;
        if g.ply() >= config.max_plies as usize {
            break Outcome::draw(Termination::rule(
                "max-plies",
                format!("adjudicated a draw after {} plies", config.max_plies),
            ));
        }
        mobility.push(moves);
        observe(g.as_ref(), &mut material, &mut samples, false);
        let player: &mut dyn Player = if g.turn() == Color::White {
            &mut white
        } else {
            &mut black
        };
        let (mv, fell_back) = choose(player, g.as_mut(), &eval)?;
        fallbacks += u32::from(fell_back);
        // The fifty-round challenge (R38), claimed by an engine that is not ahead; one the
        // game refuses changes nothing.
        if let Some(code) = player.claim(g.as_ref()) {
            let side = g.turn();
            let _ = g.claim_by(side, &code);
        }
        g.push(&mv)?;
    };
    material.push(white_material(&eval, g.as_ref()));
    let (w, b) = record::points(&outcome);
    let tags = [
        ("Event", format!("menagerie study, seed {}", config.seed)),
        ("Round", format!("{}", index + 1)),
        (
            "RuleSet",
            if set == 0 {
                "A".to_string()
            } else {
                "B".to_string()
            },
        ),
        ("Rules", options.to_strings().join(" ")),
    ];
    let rec = record::write(g.as_ref(), variant.start_fen, &tags, Some(&outcome));
    Ok(GameData {
        set,
        index,
        seed,
        opening: line,
        result: outcome.result().to_string(),
        termination: outcome.termination.code(),
        white_points: f64::from(w),
        black_points: f64::from(b),
        plies: g.ply(),
        material,
        mobility,
        samples,
        record: rec,
        fallbacks,
    })
}

/// The player's move, and whether the lab had to choose instead. An engine searching a
/// hidden-information view (Little Cheops Imperial) does not see that a third repetition
/// leaves only a choice (abdicate or accept the draw, rule 12.2) and may propose an ordinary
/// move; the game refuses it, and the lab then plays the offered move that is best one ply
/// ahead (a win first, then the draw against the static evaluation of the rest), rather than
/// abandoning the study.
pub fn choose(
    player: &mut dyn Player,
    g: &mut dyn AnyGame,
    eval: &Evaluation,
) -> Result<(String, bool), VariantError> {
    let mv = player.choose(g)?;
    let legal = g.legal_moves();
    if legal.is_empty() || legal.iter().any(|m| m == &mv) {
        return Ok((mv, false));
    }
    let me = g.turn();
    let mut best: Option<(i64, String)> = None;
    for m in legal {
        g.push(&m)?;
        let score = match g.outcome() {
            Some(o) => match o.winner {
                Some(c) if c == me => i64::MAX,
                Some(_) => i64::MIN,
                None => 0,
            },
            None => -i64::from(eval.evaluate(&*g)),
        };
        g.pop();
        if best.as_ref().is_none_or(|(b, _)| score > *b) {
            best = Some((score, m));
        }
    }
    best.map(|(_, m)| (m, true))
        .ok_or_else(|| VariantError::Other("there is no legal move".into()))
}

/// Which games a shard plays: the pairs `p` with `p % count == part - 1` (so both games of
/// an opening pair stay together); `(1, 1)` plays everything.
pub fn in_shard(index: u32, part: u32, count: u32) -> bool {
    count <= 1 || (index / 2) % count == part.saturating_sub(1)
}

/// Plays the games of `config` in shard `part`/`count` on `threads` threads; `on_game` sees
/// each finished game (in the order they finish). Returns the games in (set, index) order.
pub fn run(
    config: &StudyConfig,
    shard: (u32, u32),
    threads: usize,
    on_game: &(dyn Fn(&GameData) + Sync),
) -> Result<Vec<GameData>, VariantError> {
    let game = menagerie_variants::find(&config.variant)?;
    let mut sets = Vec::new();
    for set in 0..config.set_count() as u8 {
        let options = RuleOptions::parse(config.set_rules(set))?;
        let variant = match config.set_pieces(set) {
            Some(p) => game.with_pieces(&p.text)?,
            None => game.clone(),
        };
        variant.open(config.set_fen(set), &options)?;
        sets.push((variant, options));
    }
    let mut tasks = Vec::new();
    for index in 0..config.games {
        if in_shard(index, shard.0, shard.1) {
            for set in 0..sets.len() {
                tasks.push((set as u8, index));
            }
        }
    }
    let next = AtomicUsize::new(0);
    let out: Mutex<Vec<Result<GameData, VariantError>>> = Mutex::new(Vec::new());
    let tasks = Arc::new(tasks);
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(&(set, index)) = tasks.get(i) else {
                    break;
                };
                let (variant, options) = &sets[set as usize];
                let r = play_one(config, variant, options, set, index);
                if let Ok(g) = &r {
                    on_game(g);
                }
                let failed = r.is_err();
                if let Ok(mut o) = out.lock() {
                    o.push(r);
                }
                if failed {
                    next.store(tasks.len(), Ordering::Relaxed);
                }
            });
        }
    });
    let results = out
        .into_inner()
        .map_err(|_| VariantError::Other("a study thread panicked".into()))?;
    let mut games = Vec::new();
    for r in results {
        games.push(r?);
    }
    games.sort_by_key(|g| (g.set, g.index));
    Ok(games)
}
