//! Iterative-deepening principal-variation search, generic over any [`Position`].
//!
//! Copy-make negamax with a transposition table, quiescence over the game's own noisy
//! moves, check extensions, late-move reductions, killer and history ordering. Game-ending
//! positions are recognised at every node, main search and quiescence alike: a position
//! with no legal move is terminal and [`Position::outcome`] says who won, so a move that
//! wins at once is found at depth 1 and shorter wins always score higher.

use crate::eval::{Evaluator, Mobility};
use crate::score::{Score, INFINITY, WIN, WIN_BOUND};
use crate::tt::{from_tt, to_tt, Bound, Table};
use menagerie_core::Position;
use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The deepest the search goes, in plies from the root (extensions included).
pub const MAX_PLY: usize = 128;
/// The deepest iteration.
pub const MAX_DEPTH: u32 = 64;
const HISTORY_SIZE: usize = 4096;

/// When to stop searching; the first limit reached wins. Depth 1 always completes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Deepest iteration, in plies.
    pub depth: Option<u32>,
    /// Node budget.
    pub nodes: Option<u64>,
    /// Time budget for this move.
    pub movetime: Option<Duration>,
}

impl Limits {
    /// A fixed depth.
    pub fn depth(depth: u32) -> Self {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }
    /// A fixed time per move.
    pub fn movetime(ms: u64) -> Self {
        Limits {
            movetime: Some(Duration::from_millis(ms)),
            ..Limits::default()
        }
    }
    /// A node budget.
    pub fn nodes(nodes: u64) -> Self {
        Limits {
            nodes: Some(nodes),
            ..Limits::default()
        }
    }
}

/// What one completed iteration found.
#[derive(Clone, Debug)]
pub struct Iteration<M> {
    /// The depth of the iteration.
    pub depth: u32,
    /// The deepest ply reached (quiescence included).
    pub seldepth: u32,
    /// The score for the side to move at the root.
    pub score: Score,
    /// Nodes searched so far in this search.
    pub nodes: u64,
    /// Time since the search started.
    pub elapsed: Duration,
    /// The principal variation, the best move first.
    pub pv: Vec<M>,
}

impl<M> Iteration<M> {
    /// Nodes per second so far.
    pub fn nps(&self) -> u64 {
        (self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-6)) as u64
    }
}

/// The result of a search.
#[derive(Clone, Debug)]
pub struct SearchResult<M> {
    /// The move to play; `None` when the root has no legal move.
    pub best: Option<M>,
    /// The last completed iteration (depth 0 and an empty PV when there was none).
    pub last: Iteration<M>,
}

/// A searcher for positions of type `P`, evaluated by `E`; it keeps its transposition
/// table and history between searches.
pub struct Searcher<P: Position, E: Evaluator<P>> {
    eval: E,
    tt: Table<P::Move>,
    killers: Vec<[Option<P::Move>; 2]>,
    history: Vec<i32>,
    pv: Vec<Vec<P::Move>>,
    counts: Vec<usize>,
    path: Vec<u64>,
    nodes: u64,
    seldepth: usize,
    stop: Arc<AtomicBool>,
    stopped: bool,
    can_stop: bool,
    start: Instant,
    limits: Limits,
    root_only: Vec<P::Move>,
}

/// FNV-1a, to fold any move into a history slot.
struct Fnv(u64);
impl Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
        }
    }
}

fn history_slot<M: Hash>(mv: &M) -> usize {
    let mut h = Fnv(0xcbf2_9ce4_8422_2325);
    mv.hash(&mut h);
    (h.finish() ^ (h.finish() >> 29)) as usize & (HISTORY_SIZE - 1)
}

impl<P: Position, E: Evaluator<P>> Searcher<P, E> {
    /// A searcher with a transposition table of about `hash_mb` megabytes.
    pub fn new(eval: E, hash_mb: usize) -> Self {
        Searcher {
            eval,
            tt: Table::new(hash_mb),
            killers: vec![[None; 2]; MAX_PLY + 1],
            history: vec![0; HISTORY_SIZE],
            pv: vec![Vec::new(); MAX_PLY + 2],
            counts: vec![0; MAX_PLY + 1],
            path: Vec::new(),
            nodes: 0,
            seldepth: 0,
            stop: Arc::new(AtomicBool::new(false)),
            stopped: false,
            can_stop: false,
            start: Instant::now(),
            limits: Limits::default(),
            root_only: Vec::new(),
        }
    }

    /// The evaluation in use.
    pub fn evaluator(&self) -> &E {
        &self.eval
    }

    /// Uses `flag` as the stop signal: setting it ends the search after depth 1.
    pub fn set_stop(&mut self, flag: Arc<AtomicBool>) {
        self.stop = flag;
    }

    /// Restricts the next search to these root moves (all legal moves when empty); the
    /// restriction lasts for one search.
    pub fn restrict_root(&mut self, moves: Vec<P::Move>) {
        self.root_only = moves;
    }

    /// Forgets everything learnt (a new game).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.history.iter_mut().for_each(|h| *h = 0);
        self.killers.iter_mut().for_each(|k| *k = [None; 2]);
    }

    /// Searches `root`, whose game reached it through positions with keys `history`
    /// (oldest first, the root excluded), and reports each completed iteration.
    pub fn search(
        &mut self,
        root: &P,
        history: &[u64],
        limits: &Limits,
        mut on_iteration: impl FnMut(&Iteration<P::Move>),
    ) -> SearchResult<P::Move> {
        self.start = Instant::now();
        self.limits = *limits;
        self.nodes = 0;
        self.stopped = false;
        self.can_stop = false;
        self.tt.new_search();
        self.killers.iter_mut().for_each(|k| *k = [None; 2]);
        self.history.iter_mut().for_each(|h| *h /= 8);
        // Only the last 100 plies can repeat under any move-count rule we know of.
        let keep = history.len().saturating_sub(100);
        self.path = history[keep..].to_vec();
        self.path.push(root.key());

        let mut result = SearchResult {
            best: None,
            last: Iteration {
                depth: 0,
                seldepth: 0,
                score: Score::Cp(0),
                nodes: 0,
                elapsed: Duration::ZERO,
                pv: Vec::new(),
            },
        };
        let mut moves = Vec::new();
        root.legal_moves(&mut moves);
        if !self.root_only.is_empty() {
            moves.retain(|m| self.root_only.contains(m));
        }
        if moves.is_empty() {
            self.root_only.clear();
            return result;
        }
        result.best = Some(moves[0]);
        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let root_check = root.is_check();
        for depth in 1..=max_depth {
            self.seldepth = 0;
            let score = self.negamax(root, depth as i32, -INFINITY, INFINITY, 0, true, root_check);
            if self.stopped {
                break;
            }
            let pv = self.pv[0].clone();
            if let Some(&first) = pv.first() {
                result.best = Some(first);
            }
            result.last = Iteration {
                depth,
                seldepth: self.seldepth as u32,
                score: Score::from_raw(score),
                nodes: self.nodes,
                elapsed: self.start.elapsed(),
                pv,
            };
            on_iteration(&result.last);
            self.can_stop = true;
            if self.out_of_budget(true) {
                break;
            }
            // A forced result inside the horizon will not change by looking deeper.
            if let Score::WinIn(p) | Score::LossIn(p) = result.last.score {
                if depth > p + 1 {
                    break;
                }
            }
        }
        self.root_only.clear();
        result
    }

    /// Whether a limit has been reached; `between` asks before starting an iteration,
    /// when half the time already spent means the next one would not finish.
    fn out_of_budget(&self, between: bool) -> bool {
        if self.stop.load(Ordering::Relaxed) {
            return true;
        }
        if let Some(n) = self.limits.nodes {
            if self.nodes >= n {
                return true;
            }
        }
        if let Some(t) = self.limits.movetime {
            let spent = self.start.elapsed();
            if spent >= t || (between && spent * 2 >= t) {
                return true;
            }
        }
        false
    }

    fn check_stop(&mut self) -> bool {
        if !self.stopped && self.can_stop && self.nodes & 1023 == 0 && self.out_of_budget(false) {
            self.stopped = true;
        }
        self.stopped
    }

    /// The score of a position with no legal move, from the side to move's view.
    fn terminal(&self, pos: &P, ply: usize) -> i32 {
        match pos.outcome().and_then(|o| o.winner) {
            Some(w) if w == pos.turn() => WIN - ply as i32,
            Some(_) => -(WIN - ply as i32),
            None => 0,
        }
    }

    fn is_repetition(&self) -> bool {
        let n = self.path.len();
        let key = self.path[n - 1];
        // Same side to move: every second earlier position.
        self.path[..n - 1]
            .iter()
            .rev()
            .skip(1)
            .step_by(2)
            .any(|&k| k == key)
    }

    fn mobility(&self, ply: usize) -> Mobility {
        Mobility {
            own: self.counts[ply],
            other: ply.checked_sub(1).map(|p| self.counts[p]),
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn negamax(
        &mut self,
        pos: &P,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        pv_node: bool,
        in_check: bool,
    ) -> i32 {
        if depth <= 0 && ply > 0 {
            self.pv[ply].clear();
            if self.is_repetition() {
                return 0;
            }
            return self.quiesce(pos, alpha, beta, ply, Some(in_check));
        }
        self.pv[ply].clear();
        self.nodes += 1;
        if self.check_stop() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if ply > 0 && self.is_repetition() {
            return 0;
        }
        let rule_draw = ply > 0 && self.eval.rule_draw(pos);
        // The hash table first: a cut-off there saves generating the moves. Only positions
        // with legal moves are ever stored, so a hit is never a terminal position.
        let key = pos.key();
        let mut tt_move = None;
        if !rule_draw {
            if let Some(e) = self.tt.probe(key) {
                tt_move = e.mv;
                let s = from_tt(e.score, ply);
                if !pv_node && ply > 0 && i32::from(e.depth) >= depth {
                    let cut = match e.bound {
                        Bound::Exact => true,
                        Bound::Lower => s >= beta,
                        Bound::Upper => s <= alpha,
                    };
                    if cut {
                        return s;
                    }
                }
            }
        }
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        if moves.is_empty() {
            return self.terminal(pos, ply);
        }
        self.counts[ply] = moves.len();
        if ply == 0 && !self.root_only.is_empty() {
            let only = &self.root_only;
            moves.retain(|m| only.contains(m));
        }
        if rule_draw {
            return 0;
        }
        if ply > 0 {
            // No line from here can beat a win already found closer to the root.
            alpha = alpha.max(-WIN + ply as i32);
            beta = beta.min(WIN - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }
        if ply >= MAX_PLY - 1 {
            return self.eval.evaluate(pos, self.mobility(ply));
        }
        let hash_move = tt_move.filter(|m| moves.contains(m));

        let killers = self.killers[ply];
        let mut scored: Vec<(i32, P::Move, bool)> = moves
            .iter()
            .map(|&m| {
                let noisy = pos.is_noisy(m);
                let s = if Some(m) == hash_move {
                    1 << 30
                } else if noisy {
                    (1 << 24) + self.eval.move_hint(pos, m)
                } else if Some(m) == killers[0] {
                    1 << 22
                } else if Some(m) == killers[1] {
                    (1 << 22) - 1
                } else {
                    self.history[history_slot(&m)]
                };
                (s, m, noisy)
            })
            .collect();

        let alpha_orig = alpha;
        let mut best = -INFINITY;
        let mut best_move = None;
        for i in 0..scored.len() {
            // Selection sort: a cut-off usually comes early, so sorting everything is waste.
            let j = (i..scored.len()).max_by_key(|&k| scored[k].0).unwrap_or(i);
            scored.swap(i, j);
            let (_, mv, noisy) = scored[i];
            let mut child = pos.clone();
            child.play(mv);
            self.path.push(child.key());
            let gives_check = child.is_check();
            let extension = i32::from(gives_check && ply < 2 * depth as usize + 4);
            let new_depth = depth - 1 + extension;
            let score = if i == 0 {
                -self.negamax(
                    &child,
                    new_depth,
                    -beta,
                    -alpha,
                    ply + 1,
                    pv_node,
                    gives_check,
                )
            } else {
                let quiet = !noisy && !in_check && !gives_check;
                let is_killer = Some(mv) == killers[0] || Some(mv) == killers[1];
                // Never reduce at the root, so a short forced win is always seen at its depth.
                let r = if ply > 0 && depth >= 3 && i >= 3 && quiet && !is_killer {
                    1 + i32::from(i >= 10 && depth >= 5)
                } else {
                    0
                };
                let mut s = -self.negamax(
                    &child,
                    new_depth - r,
                    -alpha - 1,
                    -alpha,
                    ply + 1,
                    false,
                    gives_check,
                );
                if s > alpha && r > 0 {
                    s = -self.negamax(
                        &child,
                        new_depth,
                        -alpha - 1,
                        -alpha,
                        ply + 1,
                        false,
                        gives_check,
                    );
                }
                if s > alpha && s < beta {
                    s = -self.negamax(&child, new_depth, -beta, -alpha, ply + 1, true, gives_check);
                }
                s
            };
            self.path.pop();
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                best_move = Some(mv);
                if score > alpha {
                    alpha = score;
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    head[ply].clear();
                    head[ply].push(mv);
                    head[ply].extend_from_slice(&tail[0]);
                    if alpha >= beta {
                        if !noisy {
                            if killers[0] != Some(mv) {
                                self.killers[ply] = [Some(mv), killers[0]];
                            }
                            let h = &mut self.history[history_slot(&mv)];
                            *h = (*h + depth * depth).min(1 << 20);
                        }
                        break;
                    }
                }
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha_orig {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt
            .store(key, best_move, to_tt(best, ply), depth as i16, bound);
        best
    }

    /// Quiescence from a node whose legal moves are already known (and not empty).
    #[allow(clippy::too_many_arguments)]
    fn quiesce_with(
        &mut self,
        pos: &P,
        moves: Vec<P::Move>,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        in_check: bool,
        stand: Option<i32>,
    ) -> i32 {
        self.seldepth = self.seldepth.max(ply);
        self.counts[ply] = moves.len();
        let mut best = if in_check {
            // Every evasion is searched, so standing pat is not an option.
            -(WIN - ply as i32)
        } else {
            let stand = match stand {
                Some(s) => s,
                None => self.eval.evaluate(pos, self.mobility(ply)),
            };
            if stand >= beta || ply >= MAX_PLY - 1 {
                return stand;
            }
            alpha = alpha.max(stand);
            stand
        };
        if ply >= MAX_PLY - 1 {
            return self.eval.evaluate(pos, self.mobility(ply));
        }
        let mut candidates: Vec<(i32, P::Move)> = moves
            .into_iter()
            .filter_map(|m| {
                if pos.is_noisy(m) {
                    Some(((1 << 24) + self.eval.move_hint(pos, m), m))
                } else {
                    in_check.then_some((0, m))
                }
            })
            .collect();
        candidates.sort_by_key(|&(h, _)| std::cmp::Reverse(h));
        for (_, mv) in candidates {
            let mut child = pos.clone();
            child.play(mv);
            let score = -self.quiesce(&child, -beta, -alpha, ply + 1, None);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    fn quiesce(
        &mut self,
        pos: &P,
        alpha: i32,
        beta: i32,
        ply: usize,
        in_check: Option<bool>,
    ) -> i32 {
        self.pv[ply].clear();
        self.nodes += 1;
        if self.check_stop() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        // Endings seen without generating moves come first, so a flip or a captured King
        // is never scored as an ordinary position when standing pat.
        if let Some(result) = self.eval.quick_outcome(pos) {
            return match result {
                Some(w) if w == pos.turn() => WIN - ply as i32,
                Some(_) => -(WIN - ply as i32),
                None => 0,
            };
        }
        let in_check = in_check.unwrap_or_else(|| pos.is_check());
        let mut stand = None;
        if !in_check && !self.eval.uses_mobility() && ply < MAX_PLY - 1 {
            // Stand pat before generating moves: most quiescence nodes end here. A position
            // without legal moves and not in check (stalemate) is then scored as usual.
            if self.eval.rule_draw(pos) {
                return 0;
            }
            let s = self.eval.evaluate(pos, Mobility::default());
            if s >= beta {
                return s;
            }
            stand = Some(s);
        }
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        if moves.is_empty() {
            return self.terminal(pos, ply);
        }
        if stand.is_none() && self.eval.rule_draw(pos) {
            return 0;
        }
        self.quiesce_with(pos, moves, alpha, beta, ply, in_check, stand)
    }
}

/// Whether `raw` is a game-ending score.
pub fn is_win_score(raw: i32) -> bool {
    raw.abs() > WIN_BOUND
}
