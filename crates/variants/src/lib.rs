//! Every game Menagerie plays, by variant id, behind one object-safe interface
//! ([`AnyGame`]), so front ends (the command line, engine protocols, the server) handle any
//! game without generics.
//!
//! Adding a game: one crate under `crates/`, one line in [`registry`].

#![warn(missing_docs)]

use menagerie_core::diagram::{diagram, DiagramOptions};
use menagerie_core::options::RuleOption;
use menagerie_core::perft::divide;
use menagerie_core::{
    Color, Game, Geometry, MoveError, Outcome, Position, PositionError, RuleError, RuleOptions,
    Square, VariantSpec,
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
    fn history_seen_by(&self, viewer: Option<Color>) -> Vec<(String, String)> {
        self.game
            .positions()
            .iter()
            .zip(self.game.moves())
            .map(|(p, &m)| p.move_seen_by(m, viewer))
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
    fn divide_parallel(&self, depth: u32, threads: usize) -> Vec<(String, u64)> {
        menagerie_core::perft::divide_parallel(self.game.position(), depth, threads)
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
        let me = root.turn();
        if let Some(view) = self.eval.view(root, me) {
            // Hidden information: the engine sees what the side to move sees, never the
            // umpire's position, and its history as that side saw it.
            let history: Vec<u64> = positions[..positions.len() - 1]
                .iter()
                .map(|p| self.eval.view(p, me).map_or(0, |v| v.key()))
                .collect();
            let hypotheses = self.eval.hypotheses(&view);
            return search_hidden(searcher, &view, &hypotheses, &history, limits, on_iteration);
        }
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

/// `limits` with the time and node budgets divided by `parts`.
fn share(limits: &Limits, parts: u32) -> Limits {
    let parts = parts.max(1);
    Limits {
        depth: limits.depth,
        nodes: limits.nodes.map(|n| (n / u64::from(parts)).max(1)),
        movetime: limits.movetime.map(|t| t / parts),
    }
}

/// Searches for the side to move of a game with hidden information, from its `view` only.
///
/// With one hypothesis (or none) about the opponent's secret, this is a plain search of the
/// view. With several (each a possible umpire position consistent with the view), each is
/// searched for its best move; then each candidate move is scored under every hypothesis
/// (a search restricted to that root move) and the move with the best worst-case score is
/// played, ties going to the better average. The result depends only on the view.
fn search_hidden<P: Position, E: Evaluator<P>>(
    searcher: &mut Searcher<P, E>,
    view: &P,
    hypotheses: &[P],
    history: &[u64],
    limits: &Limits,
    on_iteration: &mut dyn FnMut(&SearchInfo),
) -> SearchReport {
    let report = |root: &P, best: Option<P::Move>, last: &Iteration<P::Move>| SearchReport {
        best: best.map(|m| root.move_text(m)),
        best_human: best.map(|m| root.move_human(m)),
        info: info_of(root, last),
    };
    if hypotheses.len() <= 1 {
        let result = searcher.search(view, history, limits, |it| on_iteration(&info_of(view, it)));
        return report(view, result.best, &result.last);
    }
    let h = hypotheses.len() as u32;
    // Phase 1: each hypothesis's own best move (half the budget).
    let first = share(limits, 2 * h);
    let mut bests = Vec::new();
    for (i, hyp) in hypotheses.iter().enumerate() {
        let result = searcher.search(hyp, history, &first, |it| {
            if i == 0 {
                on_iteration(&info_of(view, it))
            }
        });
        bests.push(result);
    }
    let mut candidates: Vec<P::Move> = Vec::new();
    for r in &bests {
        if let Some(m) = r.best {
            if !candidates.contains(&m) {
                candidates.push(m);
            }
        }
    }
    if candidates.len() <= 1 {
        return report(view, candidates.first().copied(), &bests[0].last);
    }
    // Phase 2: every candidate under every hypothesis (the other half).
    let second = share(limits, 2 * h * candidates.len() as u32);
    // (worst score, total score, move, the iteration reported with it)
    type Choice<M> = (i32, i32, M, Iteration<M>);
    let mut chosen: Option<Choice<P::Move>> = None;
    for &mv in &candidates {
        let mut worst = i32::MAX;
        let mut total = 0;
        let mut line = None;
        for (hyp, own) in hypotheses.iter().zip(&bests) {
            let (score, last) = if own.best == Some(mv) {
                (own.last.score.raw(), own.last.clone())
            } else {
                searcher.restrict_root(vec![mv]);
                let r = searcher.search(hyp, history, &second, |_| {});
                (r.last.score.raw(), r.last)
            };
            worst = worst.min(score);
            total += score;
            line.get_or_insert(last);
        }
        let better = chosen
            .as_ref()
            .is_none_or(|&(w, t, _, _)| (worst, total) > (w, t));
        if better {
            if let Some(last) = line {
                chosen = Some((worst, total, mv, last));
            }
        }
    }
    match chosen {
        Some((_, _, mv, last)) => report(view, Some(mv), &last),
        None => report(view, bests[0].best, &bests[0].last),
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
            menagerie_cheops::load_pieces(text).map_err(|e| VariantError::Other(e.to_string()))?,
        );
        let eval = CheopsEval::default();
        Ok(Variant {
            opener: Arc::new(move |fen: &str, options: &RuleOptions| {
                let pos = menagerie_cheops::CheopsPosition::from_fen_with_pieces(
                    style, fen, &table, options,
                )?;
                Ok(Box::new(DynGame::new(pos, eval.clone())) as Box<dyn AnyGame>)
            }),
            ..self.clone()
        })
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

    fn best_at(variant: &str, fen: &str, depth: u32) -> Option<String> {
        let v = find(variant).unwrap();
        let mut g = v.open(Some(fen), &RuleOptions::new()).unwrap();
        g.search(&Limits::depth(depth), None, &mut |_| {}).best
    }

    /// Cypher positions from the rulebook's test cases (section 17) with a move that wins
    /// at once: the engine plays it at every depth.
    #[test]
    fn cypher_immediate_wins_are_played_at_every_depth() {
        let cases = [
            // T13: the Field King flips the colluding Spy.
            (
                "1s8/10/5k4/10/3BS5/10/10/10/10/2K7/10 b - Ii 1+0 0/0 0 1",
                "e8-e7",
            ),
            // T14: the King flips the Spy where no other man covers the square.
            (
                "10/8k1/10/10/4s1p3/10/5K4/10/10/10/4S5 w - Ii 0+0 0/0 0 1",
                "e4-d5",
            ),
            // T20b: infiltration captures the King on d10.
            (
                "1s2k5/10/10/10/10/10/5K4/10/10/1R8/9S w - Ii 0+0 0/0 0 1",
                "e4-e5*a1-d10",
            ),
        ];
        for (fen, win) in cases {
            for depth in 1..=4 {
                assert_eq!(
                    best_at("cypher", fen, depth).as_deref(),
                    Some(win),
                    "{fen} d{depth}"
                );
            }
        }
    }

    /// Positions where most turns lose at once (T17: every Spy move off d0-g0, Se0-d0, Kd1
    /// and Sg0 flip White; T15: a Spy landing next to the enemy King; T2, the start: four
    /// turns put King and Spy side by side): the engine never chooses one of them.
    #[test]
    fn cypher_never_plays_a_move_that_loses_at_once() {
        let fens = [
            "10/10/8k1/10/10/10/4R5/10/10/10/3K1S2s1 w - Ii 0+0 0/0 0 1",
            "1s8/10/5k4/10/10/10/1S8/10/10/2K7/10 w - Ii 0+0 0/0 0 1",
            menagerie_cypher::START_FEN,
        ];
        let v = find("cypher").unwrap();
        for fen in fens {
            for depth in 1..=3 {
                let mut g = v.open(Some(fen), &RuleOptions::new()).unwrap();
                let me = g.turn();
                let best = g.search(&Limits::depth(depth), None, &mut |_| {}).best;
                let best = best.expect("a legal move exists");
                g.push(&best).unwrap();
                let lost = g.outcome().is_some_and(|o| o.winner == Some(me.other()));
                assert!(!lost, "{fen} d{depth}: {best} loses at once");
            }
        }
    }

    /// Little Cheops Imperial: the engine playing Black must not use White's sealed papers.
    /// Three umpire positions differ only in White's secret (Deputy g5, Deputy h5, none); the
    /// search sees Black's view and reasons over the possible appointments, so the move is
    /// the same. (Searching the umpire's position instead gave j6-i5 at depth 3 with the
    /// Deputy on g5, where the Deputy can hop over h5 and arrest the Baron, and a13-b12
    /// otherwise.)
    #[test]
    fn imperial_bestmove_ignores_the_opponents_secret() {
        let board = "k12/13/2c1c8/3K9/2t1t8/13/5n7/9b3/6CC5/13/13/13/13 b d10:w@d10 - 1 1";
        for depth in [2, 3, 4] {
            let moves: Vec<Option<String>> = ["g5", "h5", "-"]
                .iter()
                .map(|papers| {
                    best_at(
                        "little-cheops-imperial",
                        &format!("{board} {papers}"),
                        depth,
                    )
                })
                .collect();
            assert!(moves[0].is_some());
            assert!(
                moves.iter().all(|m| *m == moves[0]),
                "depth {depth}: {moves:?}"
            );
        }
    }
}
