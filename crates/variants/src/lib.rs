//! Every game Menagerie plays, by variant id, behind one object-safe interface
//! ([`AnyGame`]), so front ends (the command line, engine protocols, the server) handle any
//! game without generics.
//!
//! Adding a game: one crate under `crates/`, one line in [`registry`].

#![warn(missing_docs)]

pub mod structured;

use engine::{typed_evaluation, typed_searcher, SearcherFactory, VariantEval};
use eval::cheops::CheopsEval;
use eval::chess::ChessEval;
use eval::cypher::CypherEval;
use eval::vyrt::VyrtEval;
use menagerie_core::diagram::{diagram, DiagramOptions};
use menagerie_core::game::MadeClaim;
use menagerie_core::options::RuleOption;
use menagerie_core::perft::divide;
use menagerie_core::{
    BoardSnapshot, Claim, Color, Game, Geometry, MoveError, Outcome, Position, PositionError,
    RuleError, RuleOptions, Square, TurnInfo, VariantSpec, Viewer,
};
use menagerie_engine::Evaluator;
use std::any::Any;
use std::fmt;
use std::sync::Arc;
use thiserror::Error;

mod data_file;
pub mod engine;
pub mod eval;
pub mod levels;
pub mod values;
pub mod weights;

pub use engine::{Engine, Evaluation, SearchInfo, SearchReport, HASH_MB};
pub use levels::{level_for_elo, level_for_skill, level_limits, MAX_LEVEL, MIN_LEVEL};
pub use menagerie_engine::{LimitError, Limits, Score, Skill, MAX_MULTIPV, MAX_THREADS};

/// The longest position string any game reads, in bytes (the longest a game writes is
/// under 1,000): a longer one is refused before it is parsed (docs/limits.md).
pub const MAX_POSITION_BYTES: usize = 4096;

/// The largest piece table (`--pieces`) read, in bytes (the built-in one is under 3,000).
pub const MAX_PIECE_TABLE_BYTES: usize = 64 * 1024;

/// A piece table's text, refused when longer than [`MAX_PIECE_TABLE_BYTES`].
fn bounded_table(text: &str) -> Result<&str, VariantError> {
    if text.len() > MAX_PIECE_TABLE_BYTES {
        return Err(VariantError::Other(format!(
            "the piece table is {} bytes long; a piece table is at most {MAX_PIECE_TABLE_BYTES} bytes",
            text.len()
        )));
    }
    Ok(text)
}

/// Reads a piece table file (`--pieces`), refusing a file too long to be one before reading
/// it whole.
pub fn read_piece_table(path: &std::path::Path) -> Result<String, VariantError> {
    let cannot =
        |e: std::io::Error| VariantError::Other(format!("cannot read {}: {e}", path.display()));
    let len = std::fs::metadata(path).map_err(cannot)?.len();
    if len > MAX_PIECE_TABLE_BYTES as u64 {
        return Err(VariantError::Other(format!(
            "the piece table is {len} bytes long; a piece table is at most {MAX_PIECE_TABLE_BYTES} bytes"
        )));
    }
    std::fs::read_to_string(path).map_err(cannot)
}

/// Anything that can go wrong opening or driving a game from text.
#[derive(Debug, Error)]
pub enum VariantError {
    /// No game has this id.
    #[error("unknown variant '{0}'; `menagerie variants` lists them")]
    Unknown(String),
    /// The position string is malformed.
    #[error(transparent)]
    Position(#[from] PositionError),
    /// A rule option is unknown or has a bad value.
    #[error(transparent)]
    Rule(#[from] RuleError),
    /// A move cannot be read or played.
    #[error(transparent)]
    Move(#[from] MoveError),
    /// Anything else, in one sentence.
    #[error("{0}")]
    Other(String),
}

/// A game in progress of any variant, driven by text.
pub trait AnyGame: Send {
    /// The variant id.
    fn variant(&self) -> &'static str;
    /// The current position string: for a game seen by the umpire (an opened game), the
    /// umpire's string with every secret (Little Cheops Imperial's sealed papers), which is
    /// never for a player; a player gets [`AnyGame::view_fen`] or the `fen` of
    /// [`AnyGame::view`], a spectator the `fen` of the spectator's view.
    fn fen(&self) -> String;
    /// The position string as `player` may see it (the umpire's [`AnyGame::fen`] hides
    /// nothing; games with hidden information hide the opponent's secrets).
    fn view_fen(&self, player: Color) -> String;
    /// The start position string of this game.
    fn start_fen(&self) -> String;
    /// The board: size, wrap-around and square names.
    fn geometry(&self) -> &Geometry;
    /// The board letter of the piece on `sq` (upper case White), if any.
    fn piece_at(&self, sq: Square) -> Option<char>;
    /// The side to move.
    fn turn(&self) -> Color;
    /// Whether the side to move is in check.
    fn is_check(&self) -> bool;
    /// The legal moves in canonical text, sorted by byte order.
    fn legal_moves(&self) -> Vec<String>;
    /// The legal moves as `(canonical, human)` pairs, sorted by canonical text.
    fn legal_moves_with_human(&self) -> Vec<(String, String)>;
    /// Reads a move (canonical or human), plays it and returns `(canonical, human)`.
    fn push(&mut self, text: &str) -> Result<(String, String), MoveError>;
    /// Takes back the last move; returns its canonical text.
    fn pop(&mut self) -> Option<String>;
    /// The moves played so far as `(canonical, human)` pairs.
    fn history(&self) -> Vec<(String, String)>;
    /// The moves played so far in canonical text (cheaper than [`AnyGame::history`]).
    fn history_canonical(&self) -> Vec<String>;
    /// The moves played so far as `(canonical, human)` pairs as `viewer` may know them
    /// (`None`: a spectator; see [`Position::move_seen_by`]): for records, move lists and
    /// announcements shown to a player. [`AnyGame::history`] is the umpire's.
    fn history_seen_by(&self, viewer: Option<Color>) -> Vec<(String, String)>;
    /// The last move as [`AnyGame::history_seen_by`] gives it, without writing the whole
    /// history (a turn's cost must not grow with the game's length).
    fn last_seen_by(&self, viewer: Option<Color>) -> Option<(String, String)>;
    /// How many moves (plies) have been played.
    fn ply(&self) -> usize;
    /// The ending, counting history (repetition, move counts), if the game is over.
    fn outcome(&self) -> Option<Outcome>;
    /// A text diagram; `center` recentres a board whose edges wrap.
    fn diagram(&self, center: Option<&str>) -> Result<String, VariantError>;
    /// Perft from the current position.
    fn perft(&self, depth: u32) -> u64;
    /// Perft split by root move, sorted by move text.
    fn divide(&self, depth: u32) -> Vec<(String, u64)>;
    /// [`AnyGame::divide`] with the root moves shared among `threads` threads.
    fn divide_parallel(&self, depth: u32, threads: usize) -> Vec<(String, u64)>;
    /// A copy of the game (position and history).
    fn fork(&self) -> Box<dyn AnyGame>;

    // Structured data for front ends (see [`structured`]).

    /// The legal turns with their texts, kinds and squares (names), sorted by canonical
    /// text: the side to move's, none once the game is over (in a player's view of a game
    /// with secrets, only on that player's turn).
    fn turns(&self) -> Vec<TurnInfo>;
    /// The board as this game's viewer may see it (call it on a [`AnyGame::view`] for a
    /// player): every square's name, piece and marks, whose turn, check, the last turn.
    fn snapshot(&self) -> BoardSnapshot;
    /// The game (position and history) as `viewer` may see it; for games with no secrets,
    /// a copy. Built from the typed positions, never by re-reading view strings.
    fn view(&self, viewer: Viewer) -> Box<dyn AnyGame>;
    /// Who this game is seen by ([`Viewer::Umpire`] unless it is a view).
    fn viewer(&self) -> Viewer;
    /// `side` resigns; the other side wins.
    fn resign(&mut self, side: Color) -> Result<(), MoveError>;
    /// The players agree a draw.
    fn agree_draw(&mut self) -> Result<(), MoveError>;
    /// `side`'s clock ran out; the other side wins.
    fn forfeit_on_time(&mut self, side: Color) -> Result<(), MoveError>;
    /// An arbiter or a match rule decides the game with `outcome`.
    fn adjudicate(&mut self, outcome: Outcome) -> Result<(), MoveError>;
    /// The ending decided from outside the position (resignation, agreement, time,
    /// adjudication), if any, for records.
    fn ending(&self) -> Option<Outcome>;
    /// The claims that may be made now (Little Cheops: the repetition choice R36, the
    /// fifty-round challenge R38).
    fn claims(&self) -> Vec<Claim>;
    /// Makes the claim `code` for the side to move (a choice at a repetition is played as
    /// the turn it is; a challenge is recorded and its count starts).
    fn claim(&mut self, code: &str) -> Result<(), MoveError>;
    /// Makes the claim `code` for `by` (a challenge may be made by either player).
    fn claim_by(&mut self, by: Color, code: &str) -> Result<(), MoveError>;
    /// The rulebook claims made so far (for records).
    fn made_claims(&self) -> Vec<MadeClaim>;
    /// The typed game inside, a [`menagerie_core::Game`] of the game's own position type,
    /// for code generic over positions (the [`Engine`]) to downcast to.
    fn as_any(&self) -> &dyn Any;
}

/// The concrete [`AnyGame`] for one game type: the rules of one game in progress, nothing
/// else (searching is the [`Engine`]'s).
pub struct DynGame<P: Position> {
    game: Game<P>,
}

impl<P: Position> DynGame<P> {
    /// Wraps a game.
    pub fn new(start: P) -> Self {
        DynGame {
            game: Game::new(start),
        }
    }
    /// The typed game inside.
    pub fn game(&self) -> &Game<P> {
        &self.game
    }
}

impl<P: Position> AnyGame for DynGame<P> {
    fn variant(&self) -> &'static str {
        self.game.position().variant()
    }
    fn fen(&self) -> String {
        self.game.position().fen()
    }
    fn view_fen(&self, player: Color) -> String {
        self.game.position().view_fen(player)
    }
    fn start_fen(&self) -> String {
        self.game.start().fen()
    }
    fn geometry(&self) -> &Geometry {
        self.game.position().geometry()
    }
    fn piece_at(&self, sq: Square) -> Option<char> {
        self.game.position().piece_char(sq)
    }
    fn turn(&self) -> Color {
        self.game.position().turn()
    }
    fn is_check(&self) -> bool {
        self.game.position().is_check()
    }
    fn legal_moves(&self) -> Vec<String> {
        let pos = self.game.position();
        let mut v: Vec<String> = self
            .game
            .legal_moves()
            .into_iter()
            .map(|m| pos.move_text(m))
            .collect();
        v.sort();
        v
    }
    fn legal_moves_with_human(&self) -> Vec<(String, String)> {
        let pos = self.game.position();
        let mut v: Vec<(String, String)> = self
            .game
            .legal_moves()
            .into_iter()
            .map(|m| (pos.move_text(m), pos.move_human(m)))
            .collect();
        v.sort();
        v
    }
    fn push(&mut self, text: &str) -> Result<(String, String), MoveError> {
        let before = self.game.position().clone();
        let mv = self.game.push_text(text)?;
        Ok((before.move_text(mv), before.move_human(mv)))
    }
    fn pop(&mut self) -> Option<String> {
        let (text, _) = self
            .game
            .history_text(self.game.moves().len().checked_sub(1)?)?;
        self.game.pop()?;
        Some(text)
    }
    fn history(&self) -> Vec<(String, String)> {
        self.game.history_texts()
    }
    fn history_canonical(&self) -> Vec<String> {
        if self.game.viewer() != Viewer::Umpire {
            return self.game.history_texts().into_iter().map(|t| t.0).collect();
        }
        self.game
            .positions()
            .iter()
            .zip(self.game.moves())
            .map(|(p, &m)| p.move_text(m))
            .collect()
    }
    fn history_seen_by(&self, viewer: Option<Color>) -> Vec<(String, String)> {
        if self.game.viewer() != Viewer::Umpire {
            // A view knows the turns only as they were told to its viewer.
            return self.game.history_texts();
        }
        self.game
            .positions()
            .iter()
            .zip(self.game.moves())
            .map(|(p, &m)| p.move_seen_by(m, viewer))
            .collect()
    }
    fn last_seen_by(&self, viewer: Option<Color>) -> Option<(String, String)> {
        let last = self.game.moves().len().checked_sub(1)?;
        if self.game.viewer() != Viewer::Umpire {
            return self.game.history_text(last);
        }
        let mv = self.game.moves()[last];
        Some(self.game.positions()[last].move_seen_by(mv, viewer))
    }
    fn ply(&self) -> usize {
        self.game.moves().len()
    }
    fn outcome(&self) -> Option<Outcome> {
        self.game.outcome()
    }
    fn diagram(&self, center: Option<&str>) -> Result<String, VariantError> {
        let pos = self.game.position();
        let g = pos.geometry();
        let center = match center {
            None => None,
            Some(_) if !g.wraps_files() && !g.wraps_ranks() => {
                return Err(VariantError::Other(format!(
                    "--center needs a board whose edges wrap, and the {} board does not",
                    pos.variant()
                )))
            }
            Some(text) => Some(
                g.parse_square(text)
                    .map_err(|e| VariantError::Other(format!("--center: {e}")))?,
            ),
        };
        Ok(diagram(pos, DiagramOptions { center }))
    }
    fn perft(&self, depth: u32) -> u64 {
        self.game.position().perft(depth)
    }
    fn divide(&self, depth: u32) -> Vec<(String, u64)> {
        divide(self.game.position(), depth)
    }
    fn divide_parallel(&self, depth: u32, threads: usize) -> Vec<(String, u64)> {
        menagerie_core::perft::divide_parallel(self.game.position(), depth, threads)
    }
    fn fork(&self) -> Box<dyn AnyGame> {
        Box::new(DynGame {
            game: self.game.clone(),
        })
    }
    fn turns(&self) -> Vec<TurnInfo> {
        self.game.turns()
    }
    fn snapshot(&self) -> BoardSnapshot {
        self.game.snapshot()
    }
    fn view(&self, viewer: Viewer) -> Box<dyn AnyGame> {
        Box::new(DynGame {
            game: self.game.view(viewer),
        })
    }
    fn viewer(&self) -> Viewer {
        self.game.viewer()
    }
    fn resign(&mut self, side: Color) -> Result<(), MoveError> {
        self.game.resign(side)
    }
    fn agree_draw(&mut self) -> Result<(), MoveError> {
        self.game.agree_draw()
    }
    fn forfeit_on_time(&mut self, side: Color) -> Result<(), MoveError> {
        self.game.forfeit_on_time(side)
    }
    fn adjudicate(&mut self, outcome: Outcome) -> Result<(), MoveError> {
        self.game.adjudicate(outcome)
    }
    fn ending(&self) -> Option<Outcome> {
        self.game.ending().cloned()
    }
    fn claims(&self) -> Vec<Claim> {
        self.game.claims()
    }
    fn claim(&mut self, code: &str) -> Result<(), MoveError> {
        let me = self.game.position().turn();
        self.game.claim(me, code)
    }
    fn claim_by(&mut self, by: Color, code: &str) -> Result<(), MoveError> {
        self.game.claim(by, code)
    }
    fn made_claims(&self) -> Vec<MadeClaim> {
        self.game.made_claims().to_vec()
    }
    fn as_any(&self) -> &dyn Any {
        &self.game
    }
}

/// One playable variant: its description and how to open a game of it.
#[derive(Clone)]
pub struct Variant {
    /// The variant id.
    pub id: &'static str,
    /// The game's name.
    pub name: &'static str,
    /// One line about it.
    pub summary: &'static str,
    /// The start position string.
    pub start_fen: &'static str,
    /// The rule options it offers.
    pub options: &'static [RuleOption],
    opener: Opener,
    searcher: SearcherFactory,
    evaluation: Arc<dyn VariantEval>,
}

type Opener =
    Arc<dyn Fn(&str, &RuleOptions) -> Result<Box<dyn AnyGame>, VariantError> + Send + Sync>;

impl fmt::Debug for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Variant").field("id", &self.id).finish()
    }
}

impl Variant {
    /// Opens a game at `fen` (the start when `None`) under `options`.
    pub fn open(
        &self,
        fen: Option<&str>,
        options: &RuleOptions,
    ) -> Result<Box<dyn AnyGame>, VariantError> {
        options.validate(self.options)?;
        let fen = fen.unwrap_or(self.start_fen);
        if fen.len() > MAX_POSITION_BYTES {
            return Err(VariantError::Other(format!(
                "the position string is {} bytes long; a position string is at most {MAX_POSITION_BYTES} bytes",
                fen.len()
            )));
        }
        (self.opener)(fen, options)
    }

    /// The game's own evaluation, for players that score positions without searching.
    pub fn evaluation(&self) -> Evaluation {
        Evaluation::new(self.evaluation.clone())
    }

    /// A searcher for games of this variant with a hash table of `hash_mb` megabytes.
    pub(crate) fn new_searcher(&self, hash_mb: usize) -> Box<dyn engine::VariantSearcher> {
        (self.searcher)(hash_mb)
    }

    /// The same variant played with the piece table in `text`, for a game whose pieces are
    /// data (Little Cheops, `--pieces <file>`). The table belongs to the games this returned
    /// variant opens (they share it, and it goes with the last of them); nothing else changes.
    pub fn with_pieces(&self, text: &str) -> Result<Variant, VariantError> {
        let Some(style) = menagerie_cheops::Style::from_id(self.id) else {
            return Err(VariantError::Other(format!(
                "--pieces applies to Little Cheops, whose pieces are data, not to '{}'",
                self.id
            )));
        };
        let table = Arc::new(
            menagerie_cheops::load_pieces(bounded_table(text)?)
                .map_err(|e| VariantError::Other(e.to_string()))?,
        );
        Ok(Variant {
            opener: Arc::new(move |fen: &str, options: &RuleOptions| {
                let pos = menagerie_cheops::CheopsPosition::from_fen_with_pieces(
                    style, fen, &table, options,
                )?;
                Ok(Box::new(DynGame::new(pos)) as Box<dyn AnyGame>)
            }),
            ..self.clone()
        })
    }
}

/// The registry entries of one game crate (the one registry line a new game adds), from its
/// [`VariantSpec`]s, searched with `eval`
/// (the game's own evaluation, or a [`menagerie_engine::GenericEval`] with its piece values).
pub fn entries<P: Position, E: Evaluator<P> + Clone + 'static>(
    specs: Vec<VariantSpec<P>>,
    eval: E,
) -> impl Iterator<Item = Variant> {
    specs.into_iter().map(move |spec| {
        let eval = eval.clone();
        Variant {
            id: spec.id,
            name: spec.name,
            summary: spec.summary,
            start_fen: spec.start_fen,
            options: spec.options,
            opener: Arc::new(move |fen: &str, options: &RuleOptions| {
                let pos = (spec.from_fen)(fen, options)?;
                Ok(Box::new(DynGame::new(pos)) as Box<dyn AnyGame>)
            }),
            searcher: typed_searcher::<P, E>(eval.clone()),
            evaluation: typed_evaluation::<P, E>(eval),
        }
    })
}

/// The Vyrt evaluation the engine plays with: the code's weights, the values file's values
/// ([`values`]), and a `MENAGERIE_WEIGHTS` file's weights when one is set ([`weights`]).
pub fn vyrt_eval() -> VyrtEval {
    weights::current().apply("vyrt", values::current().vyrt(VyrtEval::default()))
}

/// The Cypher evaluation the engine plays with (as [`vyrt_eval`]).
pub fn cypher_eval() -> CypherEval {
    weights::current().apply("cypher", values::current().cypher(CypherEval::default()))
}

/// The Little Cheops evaluation the engine plays with in `style` (as [`vyrt_eval`]): the two
/// styles share the evaluation's code; each has its own weights and piece values, fitted to
/// its own games (13x13 with Castles and Deputies is another game).
pub fn cheops_eval(style: menagerie_cheops::Style) -> CheopsEval {
    let values = values::current();
    let own = match style {
        menagerie_cheops::Style::Common => values.cheops(CheopsEval::default()),
        menagerie_cheops::Style::Imperial => values.imperial(CheopsEval::imperial()),
    };
    weights::current().apply(style.id(), own)
}

/// Every variant, in the order `menagerie variants` lists them.
pub fn registry() -> Vec<Variant> {
    use menagerie_cheops::Style;
    let mut all = Vec::new();
    all.extend(entries(menagerie_chess::variants(), ChessEval));
    all.extend(entries(menagerie_vyrt::variants(), vyrt_eval()));
    all.extend(entries(menagerie_cypher::variants(), cypher_eval()));
    let (imperial, common): (Vec<_>, Vec<_>) = menagerie_cheops::variants()
        .into_iter()
        .partition(|spec| spec.id == Style::Imperial.id());
    all.extend(entries(common, cheops_eval(Style::Common)));
    all.extend(entries(imperial, cheops_eval(Style::Imperial)));
    all
}

/// The piece table with each piece's status (published or provisional), where the game's
/// pieces are data; `None` for games with fixed pieces.
pub fn piece_help(variant: &str, text: Option<&str>) -> Result<Option<Vec<String>>, VariantError> {
    if !variant.to_ascii_lowercase().starts_with("little-cheops") {
        return Ok(None);
    }
    let table = match text {
        Some(t) => menagerie_cheops::load_pieces(bounded_table(t)?)
            .map_err(|e| VariantError::Other(e.to_string()))?,
        None => menagerie_cheops::default_pieces(),
    };
    Ok(Some(menagerie_cheops::piece_help(&table)))
}

/// The variant called `id`.
pub fn find(id: &str) -> Result<Variant, VariantError> {
    registry()
        .into_iter()
        .find(|v| v.id.eq_ignore_ascii_case(id))
        .ok_or_else(|| VariantError::Unknown(id.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn open_play_and_undo_through_the_dynamic_interface() {
        let chess = find("chess").unwrap();
        let mut g = chess.open(None, &RuleOptions::new()).unwrap();
        assert_eq!(g.legal_moves().len(), 20);
        assert_eq!(g.push("e4").unwrap(), ("e2e4".into(), "e4".into()));
        assert_eq!(g.turn(), Color::Black);
        assert_eq!(g.pop().as_deref(), Some("e2e4"));
        assert_eq!(g.perft(3), 8902);
        assert!(matches!(find("nope"), Err(VariantError::Unknown(_))));
        // Inputs longer than their limits are refused before they are read (docs/limits.md).
        let chess = find("chess").unwrap();
        let long = format!("{} {}", chess.start_fen, " ".repeat(MAX_POSITION_BYTES));
        assert_eq!(
            chess
                .open(Some(&long), &RuleOptions::new())
                .err()
                .map(|e| e.to_string()),
            Some(format!(
                "the position string is {} bytes long; a position string is at most 4096 bytes",
                long.len()
            ))
        );
        let table = "#".repeat(MAX_PIECE_TABLE_BYTES + 1);
        let cheops = find("little-cheops").unwrap();
        assert_eq!(
            cheops.with_pieces(&table).err().map(|e| e.to_string()),
            Some(
                "the piece table is 65537 bytes long; a piece table is at most 65536 bytes".into()
            )
        );
        assert!(piece_help("little-cheops", Some(&table)).is_err());
        let bad = RuleOptions::parse(&["x=y"]).unwrap();
        assert!(matches!(chess.open(None, &bad), Err(VariantError::Rule(_))));
        assert!(g.diagram(Some("e4")).is_err());
    }
}
