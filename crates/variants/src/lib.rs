//! Every game Menagerie plays, by variant id, behind one object-safe interface
//! ([`AnyGame`]), so front ends (the command line, engine protocols, the server) handle any
//! game without generics.
//!
//! Adding a game: one crate under `crates/`, one line in [`registry`].

use menagerie_core::diagram::{diagram, DiagramOptions};
use menagerie_core::options::RuleOption;
use menagerie_core::perft::divide;
use menagerie_core::{
    Color, Game, MoveError, Outcome, Position, PositionError, RuleError, RuleOptions, VariantSpec,
};
use menagerie_engine::eval::cheops::CheopsEval;
use menagerie_engine::eval::chess::ChessEval;
use menagerie_engine::eval::cypher::CypherEval;
use menagerie_engine::eval::vyrt::VyrtEval;
use menagerie_engine::{Evaluator, Iteration, Mobility, Searcher};
use std::fmt;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use thiserror::Error;

pub use menagerie_engine::{Limits, Score};

/// Transposition table size of each game's searcher, in megabytes.
pub const HASH_MB: usize = 16;

/// One completed search iteration, with moves as text.
#[derive(Clone, Debug)]
pub struct SearchInfo {
    /// The iteration depth in plies.
    pub depth: u32,
    /// The deepest ply reached.
    pub seldepth: u32,
    /// The score for the side to move.
    pub score: Score,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time spent so far.
    pub elapsed: std::time::Duration,
    /// Nodes per second so far.
    pub nps: u64,
    /// The principal variation in canonical text.
    pub pv: Vec<String>,
    /// The principal variation in human notation.
    pub pv_human: Vec<String>,
}

/// The outcome of a search: the move to play and the last completed iteration.
#[derive(Clone, Debug)]
pub struct SearchReport {
    /// The chosen move in canonical text, `None` when there is no legal move.
    pub best: Option<String>,
    /// The chosen move in human notation.
    pub best_human: Option<String>,
    /// The last completed iteration.
    pub info: SearchInfo,
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
    /// The current position string.
    fn fen(&self) -> String;
    /// The position string as `player` may see it (the umpire's [`AnyGame::fen`] hides
    /// nothing; games with hidden information hide the opponent's secrets).
    fn view_fen(&self, player: Color) -> String;
    /// The start position string of this game.
    fn start_fen(&self) -> String;
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
    /// Searches the current position within `limits`, calling `on_iteration` after each
    /// completed depth; `stop`, when set, ends the search (after depth 1). Repetitions of
    /// positions earlier in the game count as draws.
    fn search(
        &mut self,
        limits: &Limits,
        stop: Option<Arc<AtomicBool>>,
        on_iteration: &mut dyn FnMut(&SearchInfo),
    ) -> SearchReport;
    /// The static evaluation in centipawns for the side to move.
    fn evaluate(&self) -> i32;
    /// The material balance in centipawns for the side to move.
    fn material(&self) -> i32;
    /// Forgets what the searcher learnt (its hash table and history), as for a new game.
    fn clear_search(&mut self);
    /// A copy of the game (position and history) with a searcher of its own.
    fn fork(&self) -> Box<dyn AnyGame>;
}

/// The concrete [`AnyGame`] for one game type, searched with evaluation `E`.
pub struct DynGame<P: Position, E: Evaluator<P> + Clone> {
    game: Game<P>,
    eval: E,
    // Built on the first search: its hash table is megabytes a move list does not need.
    searcher: Option<Searcher<P, E>>,
}

impl<P: Position, E: Evaluator<P> + Clone + 'static> DynGame<P, E> {
    /// Wraps a game.
    pub fn new(start: P, eval: E) -> Self {
        DynGame {
            game: Game::new(start),
            eval,
            searcher: None,
        }
    }
    /// The typed game inside.
    pub fn game(&self) -> &Game<P> {
        &self.game
    }
}

impl<P: Position, E: Evaluator<P> + Clone + 'static> AnyGame for DynGame<P, E> {
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
        let mv = self.game.pop()?;
        Some(self.game.position().move_text(mv))
    }
    fn history(&self) -> Vec<(String, String)> {
        self.game
            .positions()
            .iter()
            .zip(self.game.moves())
            .map(|(p, &m)| (p.move_text(m), p.move_human(m)))
            .collect()
    }
    fn history_canonical(&self) -> Vec<String> {
        self.game
            .positions()
            .iter()
            .zip(self.game.moves())
            .map(|(p, &m)| p.move_text(m))
            .collect()
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
    fn search(
        &mut self,
        limits: &Limits,
        stop: Option<Arc<AtomicBool>>,
        on_iteration: &mut dyn FnMut(&SearchInfo),
    ) -> SearchReport {
        let eval = &self.eval;
        let searcher = self
            .searcher
            .get_or_insert_with(|| Searcher::new(eval.clone(), HASH_MB));
        if let Some(flag) = stop {
            searcher.set_stop(flag);
        }
        let positions = self.game.positions();
        let root = self.game.position();
        let history: Vec<u64> = positions[..positions.len() - 1]
            .iter()
            .map(|p| p.key())
            .collect();
        let result = searcher.search(root, &history, limits, |it| {
            on_iteration(&info_of(root, it))
        });
        SearchReport {
            best: result.best.map(|m| root.move_text(m)),
            best_human: result.best.map(|m| root.move_human(m)),
            info: info_of(root, &result.last),
        }
    }
    fn evaluate(&self) -> i32 {
        let pos = self.game.position();
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        self.eval.evaluate(
            pos,
            Mobility {
                own: moves.len(),
                other: None,
            },
        )
    }
    fn material(&self) -> i32 {
        self.eval.material(self.game.position())
    }
    fn clear_search(&mut self) {
        if let Some(s) = self.searcher.as_mut() {
            s.clear();
        }
    }
    fn fork(&self) -> Box<dyn AnyGame> {
        Box::new(DynGame {
            game: self.game.clone(),
            eval: self.eval.clone(),
            searcher: None,
        })
    }
}

/// An iteration with its moves written as text, canonical and human.
fn info_of<P: Position>(root: &P, it: &Iteration<P::Move>) -> SearchInfo {
    let mut pos = root.clone();
    let mut pv = Vec::new();
    let mut pv_human = Vec::new();
    for &m in &it.pv {
        pv.push(pos.move_text(m));
        pv_human.push(pos.move_human(m));
        pos.play(m);
    }
    SearchInfo {
        depth: it.depth,
        seldepth: it.seldepth,
        score: it.score,
        nodes: it.nodes,
        elapsed: it.elapsed,
        nps: it.nps(),
        pv,
        pv_human,
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
        (self.opener)(fen.unwrap_or(self.start_fen), options)
    }
}

/// The registry entries of one game crate, from its [`VariantSpec`]s, searched with `eval`
/// (the game's own evaluation, or a [`menagerie_engine::GenericEval`] with its piece values).
fn entries<P: Position, E: Evaluator<P> + Clone + 'static>(
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
                Ok(Box::new(DynGame::new(pos, eval.clone())) as Box<dyn AnyGame>)
            }),
        }
    })
}

/// Every variant, in the order `menagerie variants` lists them.
pub fn registry() -> Vec<Variant> {
    let mut all = Vec::new();
    all.extend(entries(menagerie_chess::variants(), ChessEval));
    all.extend(entries(menagerie_vyrt::variants(), VyrtEval::default()));
    all.extend(entries(menagerie_cypher::variants(), CypherEval::default()));
    all.extend(entries(menagerie_cheops::variants(), CheopsEval::default()));
    all
}

/// Replaces the piece table of a game whose pieces are data (Little Cheops) with the one in
/// `text`, for every position opened afterwards.
pub fn install_pieces(variant: &str, text: &str) -> Result<(), VariantError> {
    if !variant.to_ascii_lowercase().starts_with("little-cheops") {
        return Err(VariantError::Other(format!(
            "--pieces applies to Little Cheops, whose pieces are data, not to '{variant}'"
        )));
    }
    let table =
        menagerie_cheops::load_pieces(text).map_err(|e| VariantError::Other(e.to_string()))?;
    menagerie_cheops::use_pieces(table);
    Ok(())
}

/// The piece table with each piece's status (published or provisional), where the game's
/// pieces are data; `None` for games with fixed pieces.
pub fn piece_help(variant: &str, text: Option<&str>) -> Result<Option<Vec<String>>, VariantError> {
    if !variant.to_ascii_lowercase().starts_with("little-cheops") {
        return Ok(None);
    }
    let table = match text {
        Some(t) => {
            menagerie_cheops::load_pieces(t).map_err(|e| VariantError::Other(e.to_string()))?
        }
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
        let bad = RuleOptions::parse(&["x=y"]).unwrap();
        assert!(matches!(chess.open(None, &bad), Err(VariantError::Rule(_))));
        assert!(g.diagram(Some("e4")).is_err());
    }

    #[test]
    fn search_through_the_dynamic_interface_speaks_text() {
        let chess = find("chess").unwrap();
        let mut g = chess
            .open(
                Some("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"),
                &RuleOptions::new(),
            )
            .unwrap();
        let mut depths = Vec::new();
        let r = g.search(&Limits::depth(2), None, &mut |it| depths.push(it.depth));
        assert_eq!(r.best.as_deref(), Some("a1a8"));
        assert_eq!(r.best_human.as_deref(), Some("Ra8#"));
        assert_eq!(r.info.pv_human, vec!["Ra8#".to_string()]);
        assert_eq!(r.info.score, Score::WinIn(1));
        assert_eq!(depths, vec![1, 2]);
        assert_eq!(g.material(), 200);
        assert!(g.evaluate() > 100);
        let mut f = g.fork();
        f.push("Ra8").unwrap();
        assert!(f.outcome().is_some() && g.outcome().is_none());
        assert!(f
            .search(&Limits::depth(3), None, &mut |_| {})
            .best
            .is_none());
    }
}
