//! Searching any game: the [`Engine`] object, apart from the rules ([`AnyGame`] holds only
//! the rules of a game in progress).
//!
//! Each registry entry carries a factory for a searcher typed to its game (its position type
//! and its evaluation); the engine keeps one such searcher per variant, with its hash table
//! and history, and hands it the typed game inside an [`AnyGame`] by downcasting
//! ([`AnyGame::as_any`]). The position searched is the game's current one, the positions
//! before it count for repetitions; in a game with hidden information the engine searches
//! what the side to move knows (its view), never the umpire's position.

use crate::{find, AnyGame, Variant, VariantError};
use menagerie_core::{Game, Position};
use menagerie_engine::{Evaluator, Iteration, Limits, Mobility, Score, SearchResult, Searcher};
use serde::{Deserialize, Serialize};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

/// The default transposition table size of an [`Engine`], in megabytes.
pub const HASH_MB: usize = 16;

/// One completed search iteration, with moves as text.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SearchInfo {
    /// The iteration depth in plies.
    pub depth: u32,
    /// The deepest ply reached.
    pub seldepth: u32,
    /// The score for the side to move: `{"cp":N}` or `{"mate":N}` in JSON.
    pub score: Score,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time spent so far (`elapsed_ms` in JSON, whole milliseconds).
    #[serde(rename = "elapsed_ms", with = "duration_ms")]
    pub elapsed: Duration,
    /// Nodes per second so far.
    pub nps: u64,
    /// The principal variation in canonical text.
    pub pv: Vec<String>,
    /// The principal variation in human notation.
    pub pv_human: Vec<String>,
    /// Which line this is, 1-based (1: the best move; more with [`Limits::multipv`]).
    #[serde(default = "first_line")]
    pub multipv: u32,
}

fn first_line() -> u32 {
    1
}

/// The outcome of a search: the move to play, the line that belongs to it, and why.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SearchReport {
    /// The chosen move in canonical text; `None` when there is no legal move or the game
    /// is over.
    pub best: Option<String>,
    /// The chosen move in human notation.
    pub best_human: Option<String>,
    /// The last completed iteration, or with hidden information the chosen move's line.
    pub info: SearchInfo,
    /// Nodes searched in all.
    pub nodes: u64,
    /// Time spent in all (`elapsed_ms` in JSON).
    #[serde(rename = "elapsed_ms", with = "duration_ms")]
    pub elapsed: Duration,
    /// Why the move and line are what they are, when that is not plain: the game is over,
    /// or the search reasoned over the opponent's possible secrets.
    pub note: Option<String>,
}

impl SearchReport {
    /// A report with no move, saying why.
    fn nothing(note: Option<String>) -> Self {
        SearchReport {
            best: None,
            best_human: None,
            info: SearchInfo {
                depth: 0,
                seldepth: 0,
                score: Score::Cp(0),
                nodes: 0,
                elapsed: Duration::ZERO,
                nps: 0,
                pv: Vec::new(),
                pv_human: Vec::new(),
                multipv: 1,
            },
            nodes: 0,
            elapsed: Duration::ZERO,
            note,
        }
    }
}

mod duration_ms {
    use serde::{Deserialize, Deserializer, Serializer};
    use std::time::Duration;

    pub fn serialize<S: Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u64(u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Duration, D::Error> {
        Ok(Duration::from_millis(u64::deserialize(d)?))
    }
}

/// A searcher for one variant, typed inside.
pub(crate) trait VariantSearcher: Send {
    /// Searches `game`; `None` when the game is not of this searcher's type.
    fn search(
        &mut self,
        game: &dyn AnyGame,
        limits: &Limits,
        stop: Arc<AtomicBool>,
        on_iteration: &mut dyn FnMut(&SearchInfo),
    ) -> Option<SearchReport>;
    /// Forgets what was learnt.
    fn clear(&mut self);
}

/// An evaluation for one variant, typed inside.
pub(crate) trait VariantEval: Send + Sync {
    /// The static evaluation; `None` when the game is not of this type.
    fn evaluate(&self, game: &dyn AnyGame) -> Option<i32>;
    /// The material balance; `None` when the game is not of this type.
    fn material(&self, game: &dyn AnyGame) -> Option<i32>;
}

/// Makes a variant's searcher with a hash table of the given size in megabytes.
pub(crate) type SearcherFactory = Arc<dyn Fn(usize) -> Box<dyn VariantSearcher> + Send + Sync>;

struct Typed<P: Position, E: Evaluator<P>> {
    eval: E,
    hash_mb: usize,
    // Built on the first search: its hash table is megabytes an evaluation does not need.
    searcher: Option<Searcher<P, E>>,
}

pub(crate) fn typed_searcher<P: Position, E: Evaluator<P> + Clone + 'static>(
    eval: E,
) -> SearcherFactory {
    Arc::new(move |hash_mb| {
        Box::new(Typed {
            eval: eval.clone(),
            hash_mb,
            searcher: None,
        }) as Box<dyn VariantSearcher>
    })
}

pub(crate) fn typed_evaluation<P: Position, E: Evaluator<P> + Clone + 'static>(
    eval: E,
) -> Arc<dyn VariantEval> {
    Arc::new(TypedEval {
        eval,
        _p: std::marker::PhantomData::<fn() -> P>,
    })
}

struct TypedEval<P, E> {
    eval: E,
    _p: std::marker::PhantomData<fn() -> P>,
}

impl<P: Position, E: Evaluator<P>> VariantEval for TypedEval<P, E> {
    fn evaluate(&self, game: &dyn AnyGame) -> Option<i32> {
        let pos = game.as_any().downcast_ref::<Game<P>>()?.position();
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        let mobility = Mobility {
            own: moves.len(),
            other: None,
        };
        Some(self.eval.evaluate(pos, mobility))
    }
    fn material(&self, game: &dyn AnyGame) -> Option<i32> {
        let pos = game.as_any().downcast_ref::<Game<P>>()?.position();
        Some(self.eval.material(pos))
    }
}

impl<P: Position, E: Evaluator<P> + Clone> VariantSearcher for Typed<P, E> {
    fn search(
        &mut self,
        game: &dyn AnyGame,
        limits: &Limits,
        stop: Arc<AtomicBool>,
        on_iteration: &mut dyn FnMut(&SearchInfo),
    ) -> Option<SearchReport> {
        let game = game.as_any().downcast_ref::<Game<P>>()?;
        let (eval, hash_mb) = (&self.eval, self.hash_mb);
        let searcher = self
            .searcher
            .get_or_insert_with(|| Searcher::new(eval.clone(), hash_mb));
        searcher.set_stop(stop);
        let positions = game.positions();
        let earlier = &positions[..positions.len() - 1];
        let root = game.position();
        let me = root.turn();
        // At a repetition where the rules offer a choice instead of the draw (Little
        // Cheops R36), only the choices may be played: the board moves among them are
        // searched, and the claim of the draw is taken unless one of them scores above it.
        let offered = game.legal_moves();
        let mut on_board = Vec::new();
        root.legal_moves(&mut on_board);
        // (A player's view when it is not that player's turn offers nothing: no choice.)
        let choice = !offered.is_empty()
            && (offered.len() != on_board.len() || offered.iter().any(|m| !on_board.contains(m)));
        let (playable, claim) = if choice {
            let playable: Vec<P::Move> = offered
                .iter()
                .copied()
                .filter(|m| on_board.contains(m))
                .collect();
            (
                playable,
                offered.iter().copied().find(|m| !on_board.contains(m)),
            )
        } else {
            (Vec::new(), None)
        };
        if choice && playable.is_empty() {
            let mut r = SearchResult::empty();
            r.best = claim;
            r.note =
                Some("the position has occurred again and the rules offer only the draw".into());
            return Some(report(root, root, r));
        }
        searcher.allow_root(playable);
        // Moves that change nothing the mover can see lose near ties to moves that make
        // progress (the evaluation says which: a re-inspection, a step back and forth).
        let earlier_turns: Vec<(P, P::Move)> = earlier
            .iter()
            .cloned()
            .zip(game.moves().iter().copied())
            .collect();
        searcher.set_idle_moves(eval.idle_moves(root, &earlier_turns, &on_board));
        let (text_root, line_root, mut result) = if let Some(view) = root.hidden_view(me) {
            // Hidden information: the engine sees what the side to move sees, never the
            // umpire's position, and its history as that side saw it.
            // (The search keeps the last 100 positions of the game only.)
            let seen: Vec<P> = earlier[earlier.len().saturating_sub(100)..]
                .iter()
                .map(|p| p.hidden_view(me).unwrap_or_else(|| p.clone()))
                .collect();
            let hidden = searcher
                .search_hidden(&view, &seen, limits, |it| on_iteration(&info_of(&view, it)));
            (view, hidden.line_root, hidden.result)
        } else {
            let history: Vec<u64> = earlier.iter().map(|p| p.key()).collect();
            let result = searcher.search(root, &history, limits, |it| {
                on_iteration(&info_of(root, it))
            });
            (root.clone(), root.clone(), result)
        };
        searcher.allow_root(Vec::new());
        searcher.set_idle_moves(Vec::new());
        if let Some(claim) = claim {
            let best = result.best.map(|m| root.move_human(m));
            // The draw is worth the contempt's score against a weaker opponent.
            let draw = -limits.contempt.unwrap_or(0);
            if result.best.is_none() || result.last.score.raw() <= draw {
                result.best = Some(claim);
                result.note = Some(format!(
                    "the position has occurred again and the rules offer a choice: the draw is taken ({} scores {} at best)",
                    best.unwrap_or_else(|| "no other choice".into()),
                    result.last.score
                ));
            }
        }
        Some(report(&text_root, &line_root, result))
    }

    fn clear(&mut self) {
        if let Some(s) = self.searcher.as_mut() {
            s.clear();
        }
    }
}

/// The report of a search of `root` whose line starts from `line_root`.
fn report<P: Position>(root: &P, line_root: &P, r: SearchResult<P::Move>) -> SearchReport {
    SearchReport {
        best: r.best.map(|m| root.move_text(m)),
        best_human: r.best.map(|m| root.move_human(m)),
        info: info_of(line_root, &r.last),
        nodes: r.nodes,
        elapsed: r.elapsed,
        note: r.note,
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
        multipv: it.multipv,
    }
}

/// A searcher for any game of the registry, apart from the games themselves: it keeps one
/// typed searcher (hash table, history) per variant it has searched, so what it learns
/// lives across the moves of a game.
///
/// ```
/// use menagerie_variants::{find, Engine, Limits};
/// let game = find("chess").unwrap().open(None, &Default::default()).unwrap();
/// let mut engine = Engine::new(1);
/// let report = engine.search(&*game, &Limits::depth(2), None, &mut |_| {});
/// assert!(report.best.is_some());
/// ```
pub struct Engine {
    hash_mb: usize,
    searchers: Vec<(&'static str, Box<dyn VariantSearcher>)>,
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new(HASH_MB)
    }
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine")
            .field("hash_mb", &self.hash_mb)
            .finish()
    }
}

impl Engine {
    /// An engine whose hash table for each variant takes about `hash_mb` megabytes
    /// (at least 1).
    pub fn new(hash_mb: usize) -> Self {
        Engine {
            hash_mb: hash_mb.max(1),
            searchers: Vec::new(),
        }
    }

    /// The hash table size per variant, in megabytes.
    pub fn hash_mb(&self) -> usize {
        self.hash_mb
    }

    /// Searches the current position of `game` within `limits`, calling `on_iteration`
    /// after each completed depth; `stop`, when set, ends the search at once (the move is
    /// then the best found so far). Repetitions of positions earlier in the game count as
    /// draws. A game already over gets no move, with a note saying why.
    pub fn search(
        &mut self,
        game: &dyn AnyGame,
        limits: &Limits,
        stop: Option<Arc<AtomicBool>>,
        on_iteration: &mut dyn FnMut(&SearchInfo),
    ) -> SearchReport {
        if let Some(outcome) = game.outcome() {
            return SearchReport::nothing(Some(format!("the game is over: {outcome}")));
        }
        let stop = stop.unwrap_or_else(|| Arc::new(AtomicBool::new(false)));
        let id = game.variant();
        for _ in 0..2 {
            let at = match self.searchers.iter().position(|(v, _)| *v == id) {
                Some(at) => at,
                None => {
                    let Ok(variant) = find(id) else {
                        break;
                    };
                    self.searchers
                        .push((variant.id, variant.new_searcher(self.hash_mb)));
                    self.searchers.len() - 1
                }
            };
            match self.searchers[at]
                .1
                .search(game, limits, stop.clone(), on_iteration)
            {
                Some(report) => return report,
                // A game of another type under the same id: build its searcher afresh.
                None => {
                    self.searchers.remove(at);
                }
            }
        }
        SearchReport::nothing(Some(format!("no searcher knows games of variant '{id}'")))
    }

    /// Teaches the engine a variant that is not in [`crate::registry`] (a game registered
    /// by a program of its own, such as a test's toy game); games of the built-in
    /// registry need no such call.
    pub fn add_variant(&mut self, variant: &Variant) {
        self.searchers.retain(|(id, _)| *id != variant.id);
        self.searchers
            .push((variant.id, variant.new_searcher(self.hash_mb)));
    }

    /// Forgets everything learnt (hash tables, history), as for a new game.
    pub fn clear(&mut self) {
        for (_, s) in &mut self.searchers {
            s.clear();
        }
    }

    /// Prepares for a new game: the same as [`Engine::clear`].
    pub fn new_game(&mut self) {
        self.clear();
    }

    /// The static evaluation of `game`'s position in centipawns for the side to move.
    pub fn evaluate(&self, game: &dyn AnyGame) -> Result<i32, VariantError> {
        Ok(Evaluation::for_game(game)?.evaluate(game))
    }

    /// The material balance of `game`'s position in centipawns for the side to move.
    pub fn material(&self, game: &dyn AnyGame) -> Result<i32, VariantError> {
        Ok(Evaluation::for_game(game)?.material(game))
    }
}

/// One variant's own evaluation, for front ends and players that score positions without
/// searching (the `greedy` player counts material with it).
#[derive(Clone)]
pub struct Evaluation(Arc<dyn VariantEval>);

impl std::fmt::Debug for Evaluation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Evaluation")
    }
}

impl Evaluation {
    pub(crate) fn new(inner: Arc<dyn VariantEval>) -> Self {
        Evaluation(inner)
    }

    /// The evaluation of `game`'s variant.
    pub fn for_game(game: &dyn AnyGame) -> Result<Self, VariantError> {
        Ok(find(game.variant())?.evaluation())
    }

    /// The static evaluation in centipawns for the side to move (0 for a game of another
    /// variant).
    pub fn evaluate(&self, game: &dyn AnyGame) -> i32 {
        self.0.evaluate(game).unwrap_or(0)
    }

    /// The material balance in centipawns for the side to move (0 for a game of another
    /// variant).
    pub fn material(&self, game: &dyn AnyGame) -> i32 {
        self.0.material(game).unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use menagerie_core::RuleOptions;

    #[test]
    fn search_through_the_dynamic_interface_speaks_text() {
        let chess = find("chess").unwrap();
        let g = chess
            .open(
                Some("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"),
                &RuleOptions::new(),
            )
            .unwrap();
        let mut depths = Vec::new();
        let mut engine = Engine::new(1);
        let r = engine.search(&*g, &Limits::depth(2), None, &mut |it| {
            depths.push(it.depth)
        });
        assert_eq!(r.best.as_deref(), Some("a1a8"));
        assert_eq!(r.best_human.as_deref(), Some("Ra8#"));
        assert_eq!(r.info.pv_human, vec!["Ra8#".to_string()]);
        assert_eq!(r.info.score, Score::WinIn(1));
        assert_eq!(depths, vec![1, 2]);
        assert_eq!(engine.material(&*g).unwrap(), 200);
        assert!(engine.evaluate(&*g).unwrap() > 100);
        let mut f = g.fork();
        f.push("Ra8").unwrap();
        assert!(f.outcome().is_some() && g.outcome().is_none());
        let over = engine.search(&*f, &Limits::depth(3), None, &mut |_| {});
        assert!(over.best.is_none());
        assert!(over.note.is_some_and(|n| n.starts_with("the game is over")));
    }

    fn best_at(variant: &str, fen: &str, depth: u32) -> Option<String> {
        let v = find(variant).unwrap();
        let g = v.open(Some(fen), &RuleOptions::new()).unwrap();
        Engine::new(1)
            .search(&*g, &Limits::depth(depth), None, &mut |_| {})
            .best
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
                let best = Engine::new(1)
                    .search(&*g, &Limits::depth(depth), None, &mut |_| {})
                    .best;
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
