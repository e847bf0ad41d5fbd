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
use menagerie_core::{Color, Position};
use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The deepest the search goes, in plies from the root (extensions included).
pub const MAX_PLY: usize = 128;
/// The shallowest depth limit a search accepts.
pub const MIN_DEPTH: u32 = 1;
/// The deepest iteration, and the largest depth limit a search accepts.
pub const MAX_DEPTH: u32 = 64;
/// The shortest time limit a search accepts, in milliseconds.
pub const MIN_MOVETIME_MS: u64 = 1;
/// The longest time limit a search accepts, in milliseconds (24 hours).
pub const MAX_MOVETIME_MS: u64 = 24 * 60 * 60 * 1000;
/// The smallest node limit a search accepts.
pub const MIN_NODES: u64 = 1;
/// The largest node limit a search accepts (a million million).
pub const MAX_NODES: u64 = 1_000_000_000_000;
/// The most threads a search accepts.
pub const MAX_THREADS: u32 = 64;
/// The most principal variations a search reports.
pub const MAX_MULTIPV: u32 = 64;
/// The deepest quiescence goes beyond the horizon, in plies: past it the position is scored
/// as it stands, so long capture chains (pawn walls on a torus) cannot run away.
pub const QS_MAX_DEPTH: usize = 8;
/// From this many plies beyond the horizon on, quiescence tries only the
/// [`QS_NARROW_WIDTH`] best-ordered captures of a position.
pub const QS_NARROW_DEPTH: usize = 2;
/// How many captures quiescence tries per position from [`QS_NARROW_DEPTH`] on.
pub const QS_NARROW_WIDTH: usize = 4;
/// How near the horizon quiescence still searches every evasion of a check; deeper, a side
/// in check stands pat or captures like any other.
pub const QS_CHECK_DEPTH: usize = 2;
/// The margin of delta pruning: a capture whose gain plus this cannot reach alpha is skipped.
pub const DELTA_MARGIN: i32 = 200;
/// Reverse futility pruning acts at this depth and below.
const RFP_DEPTH: i32 = 6;
/// Reverse futility pruning's margin per ply of depth, in centipawns.
const RFP_MARGIN: i32 = 90;
/// Late-move pruning acts at this depth and below.
const LMP_DEPTH: i32 = 4;
/// Futility pruning acts at this depth and below.
const FUTILITY_DEPTH: i32 = 5;
/// Futility pruning's margin: this much plus [`FUTILITY_MARGIN`] per ply of depth.
const FUTILITY_BASE: i32 = 100;
/// Futility pruning's margin per ply of depth, in centipawns.
const FUTILITY_MARGIN: i32 = 80;
/// Captures that lose the exchange are skipped at this depth and below (non-PV nodes).
const SEE_PRUNE_DEPTH: i32 = 3;
/// Internal iterative reduction acts from this depth on.
const IIR_DEPTH: i32 = 4;
/// Iterations from this depth on start inside an aspiration window.
const ASPIRATION_DEPTH: i32 = 4;
/// Past this half-width the window opens fully.
const ASPIRATION_MAX: i32 = 600;
/// The clock is read once every this many nodes, a power of two (the node limit and the stop signal are
/// checked at every node).
const TIME_CHECK_NODES: u64 = 256;
/// How far below the table's score the other moves must all stay for the hash move to be
/// singular, per ply of depth, in centipawns.
const SINGULAR_MARGIN: i32 = 2;
/// History slots per side to move (moves are folded into them by a hash).
const HISTORY_SIZE: usize = 16384;
/// The bound of a history score: updates are scaled by the distance to it (gravity), so a
/// score saturates smoothly and old successes fade as new results come in.
const HISTORY_MAX: i32 = 16384;
/// Slots of the continuation history (pairs of a move and the move before it, by a hash):
/// 256 KB, so it stays in the L2 cache (2^20 slots cost 10 to 20 % of chess nodes/s in misses).
const CONT_SIZE: usize = 1 << 16;
/// History scores lower or raise a late move's reduction by one ply per this much.
const HISTORY_LMR_DIVISOR: i32 = 12288;

/// Correction-history slots per side to move (structures are folded into them by their key).
const CORRECTION_SIZE: usize = 16384;
/// A correction is kept in this many units per centipawn, so small updates add up.
const CORRECTION_GRAIN: i32 = 256;
/// The largest correction, in centipawns.
const CORRECTION_MAX: i32 = 128;

/// A limit outside its range, in one sentence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LimitError(pub String);

impl fmt::Display for LimitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for LimitError {}

/// When to stop searching; the first limit reached wins. The ranges a front end should
/// accept are [`MIN_DEPTH`]..=[`MAX_DEPTH`], [`MIN_MOVETIME_MS`]..=[`MAX_MOVETIME_MS`] and
/// [`MIN_NODES`]..=[`MAX_NODES`] ([`Limits::validate`]); the search itself clamps anything
/// else, so no limit can make it run for ever or overflow the clock.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Deepest iteration, in plies.
    pub depth: Option<u32>,
    /// Node budget.
    pub nodes: Option<u64>,
    /// Time budget for this move.
    pub movetime: Option<Duration>,
    /// Threads searching together (Lazy SMP over one shared hash table); 1 when unset. With
    /// one thread the search is deterministic.
    pub threads: Option<u32>,
    /// How many best root moves to report, each with its own line (MultiPV); 1 when unset.
    pub multipv: Option<u32>,
    /// A deliberate weakening for people (engine levels); none when unset.
    pub skill: Option<Skill>,
    /// Contempt for a draw against a weaker opponent, in centipawns: a repetition or a draw
    /// by rule scores this much below an even position for the side to move at the root
    /// (and as much above for the opponent), so the engine avoids a draw unless it stands
    /// worse by more. Unset (0) in self-play, where a draw is worth what it is.
    pub contempt: Option<i32>,
}

/// A weakening a person feels as natural: now and then the engine plays its second-best
/// move, when that scores within a small margin of the best (never when either is a forced
/// result). Which moves deviate is decided by a hash of the position and the search count,
/// so a search is reproducible.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Skill {
    /// How far below the best the second-best may score and still be played, in centipawns.
    pub margin_cp: u32,
    /// How often the second-best is considered, in per cent of moves.
    pub chance_percent: u32,
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
    /// A depth limit, checked against [`MIN_DEPTH`]..=[`MAX_DEPTH`].
    pub fn checked_depth(depth: u64) -> Result<u32, LimitError> {
        if (u64::from(MIN_DEPTH)..=u64::from(MAX_DEPTH)).contains(&depth) {
            Ok(depth as u32)
        } else {
            Err(LimitError(format!(
                "depth {depth} is not in {MIN_DEPTH}..={MAX_DEPTH} plies"
            )))
        }
    }
    /// A time limit in milliseconds, checked against [`MIN_MOVETIME_MS`]..=[`MAX_MOVETIME_MS`].
    pub fn checked_movetime(ms: u64) -> Result<Duration, LimitError> {
        if (MIN_MOVETIME_MS..=MAX_MOVETIME_MS).contains(&ms) {
            Ok(Duration::from_millis(ms))
        } else {
            Err(LimitError(format!(
                "movetime {ms} is not in {MIN_MOVETIME_MS}..={MAX_MOVETIME_MS} milliseconds (24 hours)"
            )))
        }
    }
    /// A thread count, checked against 1..=[`MAX_THREADS`].
    pub fn checked_threads(threads: u64) -> Result<u32, LimitError> {
        if (1..=u64::from(MAX_THREADS)).contains(&threads) {
            Ok(threads as u32)
        } else {
            Err(LimitError(format!(
                "threads {threads} is not in 1..={MAX_THREADS}"
            )))
        }
    }
    /// A number of principal variations, checked against 1..=[`MAX_MULTIPV`].
    pub fn checked_multipv(lines: u64) -> Result<u32, LimitError> {
        if (1..=u64::from(MAX_MULTIPV)).contains(&lines) {
            Ok(lines as u32)
        } else {
            Err(LimitError(format!(
                "multipv {lines} is not in 1..={MAX_MULTIPV}"
            )))
        }
    }
    /// A node limit, checked against [`MIN_NODES`]..=[`MAX_NODES`].
    pub fn checked_nodes(nodes: u64) -> Result<u64, LimitError> {
        if (MIN_NODES..=MAX_NODES).contains(&nodes) {
            Ok(nodes)
        } else {
            Err(LimitError(format!(
                "nodes {nodes} is not in {MIN_NODES}..={MAX_NODES}"
            )))
        }
    }
    /// A fixed depth, validated.
    pub fn try_depth(depth: u64) -> Result<Self, LimitError> {
        Ok(Self::depth(Self::checked_depth(depth)?))
    }
    /// A fixed time per move in milliseconds, validated.
    pub fn try_movetime(ms: u64) -> Result<Self, LimitError> {
        Ok(Limits {
            movetime: Some(Self::checked_movetime(ms)?),
            ..Limits::default()
        })
    }
    /// A node budget, validated.
    pub fn try_nodes(nodes: u64) -> Result<Self, LimitError> {
        Ok(Self::nodes(Self::checked_nodes(nodes)?))
    }
    /// Whether every limit set is within its range; the error names the first that is not.
    pub fn validate(&self) -> Result<(), LimitError> {
        if let Some(d) = self.depth {
            Self::checked_depth(u64::from(d))?;
        }
        if let Some(t) = self.movetime {
            if t < Duration::from_millis(MIN_MOVETIME_MS) {
                return Err(LimitError(format!(
                    "movetime {} is not in {MIN_MOVETIME_MS}..={MAX_MOVETIME_MS} milliseconds (24 hours)",
                    t.as_millis()
                )));
            }
            Self::checked_movetime(u64::try_from(t.as_millis()).unwrap_or(u64::MAX))?;
        }
        if let Some(n) = self.nodes {
            Self::checked_nodes(n)?;
        }
        if let Some(t) = self.threads {
            Self::checked_threads(u64::from(t))?;
        }
        if let Some(k) = self.multipv {
            Self::checked_multipv(u64::from(k))?;
        }
        Ok(())
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
    /// Which line this is, 1-based: 1 is the best move ([`Limits::multipv`]).
    pub multipv: u32,
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
    /// The move to play; `None` when the root has no legal move or the game is over.
    pub best: Option<M>,
    /// The last completed iteration (depth 0 and an empty PV when there was none).
    pub last: Iteration<M>,
    /// Nodes searched in all, the unfinished iteration included.
    pub nodes: u64,
    /// Time spent in all.
    pub elapsed: Duration,
    /// Why the move and line are what they are, when it is not plain (a search over the
    /// opponent's possible secrets).
    pub note: Option<String>,
}

impl<M> SearchResult<M> {
    /// A result with no move and no iteration.
    pub fn empty() -> Self {
        SearchResult {
            best: None,
            last: Iteration {
                depth: 0,
                seldepth: 0,
                score: Score::Cp(0),
                nodes: 0,
                elapsed: Duration::ZERO,
                pv: Vec::new(),
                multipv: 1,
            },
            nodes: 0,
            elapsed: Duration::ZERO,
            note: None,
        }
    }
}

/// What the threads of a parallel search share besides the hash table: the depth the main
/// thread is searching, and the deepest iteration a helper has finished, which the main
/// thread takes over instead of finishing the same depth itself (so a second thread shortens
/// the time to a depth, not only fills the table).
struct Shared<M> {
    main_depth: AtomicU32,
    /// The depth of `finished`, readable without the lock.
    finished_depth: AtomicU32,
    finished: Mutex<Option<Finished<M>>>,
}

/// An iteration a helper thread completed.
#[derive(Clone)]
struct Finished<M> {
    depth: u32,
    seldepth: u32,
    score: i32,
    pv: Vec<M>,
}

impl<M: Clone> Shared<M> {
    fn new() -> Self {
        Shared {
            main_depth: AtomicU32::new(0),
            finished_depth: AtomicU32::new(0),
            finished: Mutex::new(None),
        }
    }

    /// Records a helper's completed iteration when it is the deepest so far.
    fn publish(&self, done: Finished<M>) {
        let mut slot = self.finished.lock().unwrap_or_else(|e| e.into_inner());
        if slot.as_ref().is_none_or(|f| f.depth < done.depth) {
            self.finished_depth.store(done.depth, Ordering::Release);
            *slot = Some(done);
        }
    }

    /// The deepest iteration a helper completed, if deeper than `depth`.
    fn deeper_than(&self, depth: u32) -> Option<Finished<M>> {
        if self.finished_depth.load(Ordering::Acquire) <= depth {
            return None;
        }
        let slot = self.finished.lock().unwrap_or_else(|e| e.into_inner());
        slot.as_ref().filter(|f| f.depth > depth).cloned()
    }
}

/// The result of a search with hidden information ([`Searcher::search_hidden`]): the line
/// reported belongs to one of the positions the side to move had to reckon with.
#[derive(Clone, Debug)]
pub struct HiddenSearch<P: Position> {
    /// The move, the line and the note.
    pub result: SearchResult<P::Move>,
    /// The position the reported line starts from (the view itself, or one hypothesis about
    /// the opponent's secret); the move chosen is legal in every one of them.
    pub line_root: P,
}

/// A searcher for positions of type `P`, evaluated by `E`; it keeps its transposition
/// table and history between searches.
pub struct Searcher<P: Position, E: Evaluator<P>> {
    eval: Arc<E>,
    tt: Arc<Table<P::Move>>,
    /// The other threads of a parallel search, kept between searches (their history).
    helpers: Vec<Searcher<P, E>>,
    /// In a parallel search, the nodes the helper threads have counted so far.
    helper_nodes: Option<Arc<AtomicU64>>,
    is_helper: bool,
    /// In a parallel search, what the threads tell one another about their iterations.
    smp: Option<Arc<Shared<P::Move>>>,
    /// A helper's lead over the main thread's depth (0 or 1).
    lead: u32,
    /// The depth of the iteration under way.
    iter_depth: u32,
    /// Move lists kept between nodes, so a node allocates nothing (allocating at every node
    /// was a tenth of a search, and threads contended for the allocator's locks).
    move_pool: Pool<P::Move>,
    /// Ordered move lists of the main search, kept the same way.
    scored_pool: Pool<Ordered<P::Move>>,
    /// Ordered capture lists of quiescence, kept the same way.
    capture_pool: Pool<(i32, P::Move)>,
    /// The iteration under way was given up because another thread finished it (or, for
    /// a helper, because the main thread passed it); the search goes on.
    overtaken: bool,
    /// Root moves already reported as better lines of this iteration (MultiPV).
    root_excluded: Vec<P::Move>,
    searches: u64,
    killers: Vec<[Option<P::Move>; 2]>,
    history: Vec<i32>,
    /// Continuation history: how often a quiet move cut off right after a given move of
    /// the opponent (by [`cont_slot`]), with the same bounds and updates as `history`.
    cont: Vec<i32>,
    /// Follow-up history: the same for a quiet move after the side's own move before
    /// (two plies back).
    follow: Vec<i32>,
    /// The quiet move that last refuted each move of the opponent (by its history slot).
    countermoves: Vec<Option<P::Move>>,
    /// The history slot of the move that led to each ply (`None` at the root and after a
    /// pass).
    prev_slot: Vec<Option<usize>>,
    pv: Vec<Vec<P::Move>>,
    counts: Vec<usize>,
    path: Vec<u64>,
    /// Where in `path` the last null move stands: positions before it cannot repeat, as
    /// the pass is no real move.
    rep_floor: usize,
    /// Whether the position at each ply was reached by a null move (no two in a row).
    after_null: Vec<bool>,
    /// Whether the node at each ply is expected to fail high (a zero-window child of a
    /// late move, or the first child of an expected fail-low): its late moves are reduced
    /// more.
    cut_node: Vec<bool>,
    /// The static score at each ply of the current line (`None` in check), corrected.
    evals: Vec<Option<i32>>,
    /// Correction history: by side to move and structure ([`Evaluator::correction_key`]),
    /// the running mean of search score minus static score, in [`CORRECTION_GRAIN`] units.
    correction: Vec<i32>,
    /// The move a singular-extension search leaves out at each ply (`None` in every other
    /// search).
    excluded: Vec<Option<P::Move>>,
    /// Late-move reductions by depth and move number, `ln d · ln i / 2.25` rounded down.
    lmr: Vec<[u8; 64]>,
    nodes: u64,
    seldepth: usize,
    stop: Arc<AtomicBool>,
    stopped: bool,
    start: Instant,
    deadline: Option<Instant>,
    /// Stop once the half of the time is spent, between iterations.
    half_time: Option<Instant>,
    node_limit: u64,
    root_best: Option<P::Move>,
    /// The last root move after the first that raised alpha in the iteration under way
    /// (it beat the move searched first), with its score.
    root_raised: Option<(P::Move, i32)>,
    root_only: Vec<P::Move>,
    /// The root moves the game allows (all legal moves when empty), kept over every search
    /// until changed: at a repetition Little Cheops offers only a choice (R36).
    root_allowed: Vec<P::Move>,
    /// Root moves that change nothing the mover can see (a re-inspection, a step back), each
    /// with how much less it is worth than its search score, kept until changed
    /// ([`Searcher::set_idle_moves`]).
    root_idle: Vec<(P::Move, i32)>,
    /// The best root move that is not idle in the root search under way, with its score
    /// (a bound when it failed low), when idle moves are set.
    root_progress: Option<(P::Move, i32)>,
    /// The score of a draw for the side to move at the root ([`Limits::contempt`], negated).
    draw_root: i32,
}

/// Lists lent to the nodes of a search and given back, empty, when a node is done, so
/// nodes reuse their memory instead of allocating.
struct Pool<T>(Vec<Vec<T>>);

impl<T> Pool<T> {
    /// An empty list (with room left by an earlier node when there is one).
    fn take(&mut self) -> Vec<T> {
        self.0.pop().unwrap_or_default()
    }
    /// Gives a list back for the next node.
    fn give(&mut self, mut list: Vec<T>) {
        list.clear();
        self.0.push(list);
    }
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

/// A move of a node's list with what its ordering found: its score, whether it is noisy,
/// its history slot once known ([`NO_SLOT`] before), so the move is hashed once, and
/// whether it may give check once asked (`CHECK_*`).
#[derive(Clone, Copy)]
struct Ordered<M> {
    score: i32,
    mv: M,
    noisy: bool,
    check: u8,
    /// A noisy move the evaluation says loses the exchange.
    losing: bool,
    slot: usize,
}

/// [`Ordered::check`]: not asked yet.
const CHECK_UNKNOWN: u8 = 0;
/// [`Ordered::check`]: the move may give check ([`Position::may_give_check`]).
const CHECK_MAY: u8 = 1;
/// [`Ordered::check`]: the move cannot give check.
const CHECK_NOT: u8 = 2;

impl<M: Copy> Ordered<M> {
    /// [`Position::may_give_check`] of the move, asked once.
    #[inline]
    fn may_give_check<P: Position<Move = M>>(&mut self, pos: &P) -> bool {
        if self.check == CHECK_UNKNOWN {
            self.check = if pos.may_give_check(self.mv) {
                CHECK_MAY
            } else {
                CHECK_NOT
            };
        }
        self.check == CHECK_MAY
    }
}

/// [`Ordered::score`] of a quiet move whose history is not read yet: below every noisy
/// move, killer and countermove, above every history score (at most twice
/// [`HISTORY_MAX`]).
const QUIET_PENDING: i32 = 1 << 20;

/// The history slots of the two moves before a node's: the opponent's last (`None` at the
/// root and after a pass) and the side's own before it.
type Previous = (Option<usize>, Option<usize>);

/// The history slot of a move not hashed yet.
const NO_SLOT: usize = usize::MAX;

/// The index of the best-scored move of `scored` from `i` on: the last of the best scores,
/// as `max_by_key` chooses.
fn best_from<M>(scored: &[Ordered<M>], i: usize) -> usize {
    let mut j = i;
    let mut top = scored[i].score;
    for (k, o) in scored.iter().enumerate().skip(i + 1) {
        if o.score >= top {
            top = o.score;
            j = k;
        }
    }
    j
}

/// The history slot of `mv` played by `side`: one table per side, as the same move is
/// seldom good for both.
fn history_slot<M: Hash>(side: Color, mv: &M) -> usize {
    let mut h = Fnv(0xcbf2_9ce4_8422_2325);
    mv.hash(&mut h);
    let slot = (h.finish() ^ (h.finish() >> 29)) as usize & (HISTORY_SIZE - 1);
    match side {
        Color::White => slot,
        Color::Black => slot + HISTORY_SIZE,
    }
}

/// The continuation-history slot of a move (by its history slot `slot`) answering the
/// move whose history slot is `prev`.
fn cont_slot(prev: usize, slot: usize) -> usize {
    (((prev as u64) << 16 | slot as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 44) as usize
        & (CONT_SIZE - 1)
}

/// A correction-history entry `entry` (in [`CORRECTION_GRAIN`] units) moved towards a
/// search at `depth` that ended `diff` centipawns from the static score: a running mean
/// that weighs deeper searches more (1/256 a ply plus one, at most 16/256), within
/// ±[`CORRECTION_MAX`] centipawns.
fn corrected_entry(entry: i32, diff: i32, depth: i32) -> i32 {
    let target = diff.clamp(-CORRECTION_MAX, CORRECTION_MAX) * CORRECTION_GRAIN;
    let weight = (depth + 1).clamp(1, 16);
    (entry * (256 - weight) + target * weight) / 256
}

/// Moves `h` towards `bonus`'s sign by `bonus`, less the nearer it already is to the bound
/// ([`HISTORY_MAX`]): the "gravity" update, which keeps every score within the bound.
fn update_history(h: &mut i32, bonus: i32) {
    *h += bonus - *h * bonus.abs() / HISTORY_MAX;
}

impl<P: Position, E: Evaluator<P>> Searcher<P, E> {
    /// A searcher with a transposition table of about `hash_mb` megabytes.
    pub fn new(eval: E, hash_mb: usize) -> Self {
        Self::with_table(Arc::new(eval), Arc::new(Table::new(hash_mb)))
    }

    /// A searcher over a given evaluation and hash table (a helper thread shares both).
    fn with_table(eval: Arc<E>, tt: Arc<Table<P::Move>>) -> Self {
        Searcher {
            eval,
            tt,
            helpers: Vec::new(),
            helper_nodes: None,
            is_helper: false,
            smp: None,
            lead: 0,
            iter_depth: 0,
            overtaken: false,
            move_pool: Pool(Vec::new()),
            scored_pool: Pool(Vec::new()),
            capture_pool: Pool(Vec::new()),
            root_excluded: Vec::new(),
            searches: 0,
            killers: vec![[None; 2]; MAX_PLY + 1],
            history: vec![0; 2 * HISTORY_SIZE],
            cont: vec![0; CONT_SIZE],
            follow: vec![0; CONT_SIZE],
            countermoves: vec![None; 2 * HISTORY_SIZE],
            prev_slot: vec![None; MAX_PLY + 2],
            pv: vec![Vec::new(); MAX_PLY + 2],
            counts: vec![0; MAX_PLY + 1],
            path: Vec::new(),
            rep_floor: 0,
            after_null: vec![false; MAX_PLY + 2],
            cut_node: vec![false; MAX_PLY + 2],
            evals: vec![None; MAX_PLY + 2],
            correction: vec![0; 2 * CORRECTION_SIZE],
            excluded: vec![None; MAX_PLY + 2],
            lmr: (0..64)
                .map(|d| {
                    let mut row = [0u8; 64];
                    for (i, r) in row.iter_mut().enumerate().skip(1) {
                        if d > 0 {
                            *r = (0.75 + (d as f64).ln() * (i as f64).ln() / 2.25) as u8;
                        }
                    }
                    row
                })
                .collect(),
            nodes: 0,
            seldepth: 0,
            stop: Arc::new(AtomicBool::new(false)),
            stopped: false,
            start: Instant::now(),
            deadline: None,
            half_time: None,
            node_limit: u64::MAX,
            root_best: None,
            root_raised: None,
            root_only: Vec::new(),
            root_allowed: Vec::new(),
            root_idle: Vec::new(),
            root_progress: None,
            draw_root: 0,
        }
    }

    /// The evaluation in use.
    pub fn evaluator(&self) -> &E {
        &self.eval
    }

    /// Uses `flag` as the stop signal: setting it ends the search at once (the move is then
    /// the best found so far, or the first legal move when depth 1 did not finish).
    pub fn set_stop(&mut self, flag: Arc<AtomicBool>) {
        self.stop = flag;
    }

    /// Restricts the next search to these root moves (all legal moves when empty); the
    /// restriction lasts for one search.
    pub fn restrict_root(&mut self, moves: Vec<P::Move>) {
        self.root_only = moves;
    }

    /// Restricts every search from now on to these root moves (all legal moves when empty),
    /// hidden-information searches over several hypotheses included, until called again.
    pub fn allow_root(&mut self, moves: Vec<P::Move>) {
        self.root_allowed = moves;
    }

    /// Marks root moves as idle, each with a margin: such a move is chosen only when every
    /// other move scores at least that much below it, so a move that makes progress wins a
    /// near tie against a re-inspection or a step back and forth. Kept over every search
    /// (hidden-information searches included) until called again; empty for none.
    pub fn set_idle_moves(&mut self, moves: Vec<(P::Move, i32)>) {
        self.root_idle = moves;
    }

    /// The margin of an idle root move ([`Searcher::set_idle_moves`]), 0 for any other.
    fn idle_margin(&self, mv: P::Move) -> i32 {
        self.root_idle
            .iter()
            .find(|(m, _)| *m == mv)
            .map_or(0, |&(_, margin)| margin)
    }

    /// The score of a draw at `ply` for the side to move there: the contempt's, negative
    /// for the side to move at the root, positive for its opponent.
    #[inline]
    fn draw_score(&self, ply: usize) -> i32 {
        if ply.is_multiple_of(2) {
            self.draw_root
        } else {
            -self.draw_root
        }
    }

    /// Forgets everything learnt (a new game).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.history.iter_mut().for_each(|h| *h = 0);
        self.cont.iter_mut().for_each(|h| *h = 0);
        self.follow.iter_mut().for_each(|h| *h = 0);
        self.countermoves.iter_mut().for_each(|m| *m = None);
        self.killers.iter_mut().for_each(|k| *k = [None; 2]);
        self.correction.iter_mut().for_each(|c| *c = 0);
        for h in &mut self.helpers {
            h.correction.iter_mut().for_each(|c| *c = 0);
            h.history.iter_mut().for_each(|h| *h = 0);
            h.cont.iter_mut().for_each(|h| *h = 0);
            h.follow.iter_mut().for_each(|h| *h = 0);
            h.countermoves.iter_mut().for_each(|m| *m = None);
            h.killers.iter_mut().for_each(|k| *k = [None; 2]);
        }
    }

    /// Searches `root`, whose game reached it through positions with keys `history`
    /// (oldest first, the root excluded), and reports each completed iteration.
    ///
    /// The limits are honoured at every node, from the first iteration on and in
    /// quiescence alike; stopped before depth 1 completes, the move is the best found so far
    /// (or the first legal move). A root with no legal move, or drawn by a rule the position
    /// decides ([`Position::rule_draw`]), gets no move.
    pub fn search(
        &mut self,
        root: &P,
        history: &[u64],
        limits: &Limits,
        on_iteration: impl FnMut(&Iteration<P::Move>),
    ) -> SearchResult<P::Move> {
        let threads = limits.threads.unwrap_or(1).clamp(1, MAX_THREADS) as usize;
        if threads <= 1 {
            self.helper_nodes = None;
            return self.search_main(root, history, limits, on_iteration);
        }
        // Lazy SMP: the helpers search the same root over the shared hash table, half of
        // them a ply ahead, so the main thread finds more of its tree already searched. Only
        // the main thread's result counts.
        while self.helpers.len() < threads - 1 {
            let mut h = Searcher::with_table(self.eval.clone(), self.tt.clone());
            h.is_helper = true;
            self.helpers.push(h);
        }
        let mut helpers = std::mem::take(&mut self.helpers);
        let done = Arc::new(AtomicBool::new(false));
        let counter = Arc::new(AtomicU64::new(0));
        let shared = Arc::new(Shared::new());
        self.helper_nodes = Some(counter.clone());
        self.smp = Some(shared.clone());
        // The table's new search begins before any helper stores into it.
        self.tt.new_search();
        let mut result = std::thread::scope(|scope| {
            for (i, h) in helpers.iter_mut().take(threads - 1).enumerate() {
                h.stop = done.clone();
                h.helper_nodes = Some(counter.clone());
                h.smp = Some(shared.clone());
                scope.spawn(move || h.search_helper(root, history, i + 1));
            }
            let r = self.search_main(root, history, limits, on_iteration);
            done.store(true, Ordering::Relaxed);
            r
        });
        self.helpers = helpers;
        self.helper_nodes = None;
        self.smp = None;
        result.nodes = self.nodes + counter.load(Ordering::Relaxed);
        result
    }

    /// A helper thread of a parallel search: iterative deepening over the shared table
    /// until the main thread is done; odd helpers start a ply deeper.
    fn search_helper(&mut self, root: &P, history: &[u64], index: usize) {
        self.start = Instant::now();
        self.begin(&Limits::default());
        self.killers.iter_mut().for_each(|k| *k = [None; 2]);
        self.history.iter_mut().for_each(|h| *h /= 2);
        self.cont.iter_mut().for_each(|h| *h /= 2);
        self.follow.iter_mut().for_each(|h| *h /= 2);
        self.prev_slot[0] = None;
        let keep = history.len().saturating_sub(100);
        self.path = history[keep..].to_vec();
        self.path.push(root.key());
        self.root_only.clear();
        self.root_excluded.clear();
        let root_check = root.is_check();
        self.lead = (index % 2) as u32;
        let mut depth = 1 + self.lead;
        while depth <= MAX_DEPTH {
            // Never behind the main thread: it would only search what is already known.
            if let Some(s) = &self.smp {
                depth = depth.max(s.main_depth.load(Ordering::Relaxed) + self.lead);
            }
            self.iter_depth = depth;
            self.overtaken = false;
            let score = self.negamax(root, depth as i32, -INFINITY, INFINITY, 0, true, root_check);
            if self.overtaken && !self.stop.load(Ordering::Relaxed) {
                // The main thread passed this depth: start again ahead of it.
                self.stopped = false;
                continue;
            }
            if self.stopped {
                break;
            }
            if let (Some(s), Some(_)) = (&self.smp, self.pv[0].first()) {
                s.publish(Finished {
                    depth,
                    seldepth: self.seldepth as u32,
                    score,
                    pv: self.pv[0].clone(),
                });
            }
            depth += 1;
        }
        if let Some(c) = &self.helper_nodes {
            c.fetch_add(self.nodes & (TIME_CHECK_NODES - 1), Ordering::Relaxed);
        }
    }

    /// Nodes searched so far by every thread.
    fn total_nodes(&self) -> u64 {
        self.nodes
            + self
                .helper_nodes
                .as_ref()
                .map_or(0, |c| c.load(Ordering::Relaxed))
    }

    /// The search of the main thread (the only one with one thread).
    fn search_main(
        &mut self,
        root: &P,
        history: &[u64],
        limits: &Limits,
        mut on_iteration: impl FnMut(&Iteration<P::Move>),
    ) -> SearchResult<P::Move> {
        self.start = Instant::now();
        self.begin(limits);
        self.searches = self.searches.wrapping_add(1);
        if self.smp.is_none() {
            self.tt.new_search();
        }
        self.killers.iter_mut().for_each(|k| *k = [None; 2]);
        self.history.iter_mut().for_each(|h| *h /= 2);
        self.cont.iter_mut().for_each(|h| *h /= 2);
        self.follow.iter_mut().for_each(|h| *h /= 2);
        self.prev_slot[0] = None;
        // Only the last 100 plies can repeat under any move-count rule we know of.
        let keep = history.len().saturating_sub(100);
        self.path = history[keep..].to_vec();
        self.path.push(root.key());
        self.root_excluded.clear();

        let mut result = SearchResult::empty();
        let mut moves = Vec::new();
        root.legal_moves(&mut moves);
        if !self.root_only.is_empty() {
            moves.retain(|m| self.root_only.contains(m));
        }
        if !self.root_allowed.is_empty() {
            moves.retain(|m| self.root_allowed.contains(m));
        }
        if moves.is_empty() || root.rule_draw() || root.quick_outcome().is_some() {
            self.root_only.clear();
            result.elapsed = self.start.elapsed();
            return result;
        }
        result.best = Some(moves[0]);
        let max_depth = limits
            .depth
            .unwrap_or(MAX_DEPTH)
            .clamp(MIN_DEPTH, MAX_DEPTH);
        // Lines reported, and lines searched: a weakened engine needs the second best.
        let wanted = limits.multipv.unwrap_or(1).clamp(1, MAX_MULTIPV) as usize;
        let searched = if limits.skill.is_some() {
            wanted.max(2)
        } else {
            wanted
        }
        .min(moves.len());
        let root_check = root.is_check();
        let mut lines: Vec<Iteration<P::Move>> = Vec::new();
        // With threads, a deeper iteration a helper finished is taken over (one line, no
        // fixed depth, every root move allowed: helpers search them all).
        let adopt = self.smp.is_some()
            && searched == 1
            && limits.depth.is_none()
            && self.root_only.is_empty()
            && self.root_allowed.is_empty();
        let mut depth = 1;
        'deepen: while depth <= max_depth {
            if let Some(s) = &self.smp {
                s.main_depth.store(depth, Ordering::Relaxed);
            }
            self.iter_depth = if adopt { depth } else { 0 };
            self.overtaken = false;
            let mut found: Vec<Iteration<P::Move>> = Vec::with_capacity(searched);
            self.root_excluded.clear();
            // One line searched: a window around the last iteration's score.
            let previous = lines
                .first()
                .filter(|_| searched == 1)
                .map(|l| l.score.raw());
            for _ in 0..searched {
                self.seldepth = 0;
                self.root_best = None;
                self.root_raised = None;
                let mut score = self.aspirated(root, depth as i32, root_check, previous);
                if searched == 1 && !self.stopped && !self.overtaken {
                    score = self.prefer_progress(root, &moves, depth as i32, root_check, score);
                }
                if self.overtaken {
                    // A helper finished this depth first: its line stands for this one.
                    self.stopped = false;
                    self.overtaken = false;
                    if let Some(line) = self.finished_by_helper(depth - 1) {
                        found.push(line);
                    }
                    break;
                }
                if self.stopped {
                    // An unfinished first iteration still found something better than
                    // nothing: its best line if one is complete, else the best move so far.
                    // (With threads a helper's finished line may still take over below.)
                    if depth > 1
                        && searched == 1
                        && !adopt
                        && self.eval.aspiration_window().is_some()
                    {
                        // A move that beat the first one searched (the last iteration's
                        // best) in this unfinished iteration is better informed: play it,
                        // and report its line so the move played is the last line's.
                        if let Some((m, score)) = self.root_raised {
                            if result.best != Some(m) && self.pv[0].first() == Some(&m) {
                                result.best = Some(m);
                                result.last = Iteration {
                                    depth,
                                    seldepth: self.seldepth as u32,
                                    score: Score::from_raw(score),
                                    nodes: self.total_nodes(),
                                    elapsed: self.start.elapsed(),
                                    pv: self.pv[0].clone(),
                                    multipv: 1,
                                };
                                on_iteration(&result.last);
                            }
                        }
                    }
                    if depth == 1 {
                        if let Some(first) = found.first() {
                            result.best = first.pv.first().copied();
                            result.last = Iteration {
                                multipv: 1,
                                ..first.clone()
                            };
                            lines = found;
                        } else if let Some(m) = self.root_best {
                            result.best = Some(m);
                        }
                    }
                    break 'deepen;
                }
                let pv = self.pv[0].clone();
                let Some(&first) = pv.first() else {
                    break;
                };
                self.root_excluded.push(first);
                found.push(Iteration {
                    depth,
                    seldepth: self.seldepth as u32,
                    score: Score::from_raw(score),
                    nodes: self.total_nodes(),
                    elapsed: self.start.elapsed(),
                    pv,
                    multipv: 0,
                });
            }
            self.root_excluded.clear();
            if adopt {
                if let Some(line) = self.finished_by_helper(found.first().map_or(0, |l| l.depth)) {
                    if let Some(own) = found.first() {
                        on_iteration(own);
                    }
                    found = vec![line];
                }
            }
            if found.is_empty() {
                break;
            }
            let reached = found[0].depth;
            // Each line was searched without the better ones, so they come best first;
            // the sort only settles the rare line that came out better than the one before.
            found.sort_by_key(|l| std::cmp::Reverse(l.score.raw()));
            for (k, line) in found.iter_mut().enumerate() {
                line.multipv = k as u32 + 1;
                line.nodes = self.total_nodes();
            }
            result.best = found[0].pv.first().copied();
            result.last = found[0].clone();
            for line in found.iter().take(wanted) {
                on_iteration(line);
            }
            lines = found;
            if self.out_of_budget_between() {
                break;
            }
            // A forced result inside the horizon will not change by looking deeper.
            let forced = |l: &Iteration<P::Move>| match l.score {
                Score::WinIn(p) | Score::LossIn(p) => reached > p + 1,
                Score::Cp(_) => false,
            };
            if lines.iter().all(forced) {
                break;
            }
            depth = reached + 1;
        }
        // Stopped in the middle of an iteration a helper had already finished.
        if adopt {
            if let Some(line) = self.finished_by_helper(result.last.depth) {
                if !lines.is_empty() {
                    on_iteration(&line);
                    result.best = line.pv.first().copied();
                    result.last = line;
                }
            }
        }
        self.iter_depth = 0;
        self.root_only.clear();
        self.root_excluded.clear();
        if let Some(skill) = limits.skill {
            self.apply_skill(root, skill, &lines, &mut result);
        }
        result.nodes = self.total_nodes();
        result.elapsed = self.start.elapsed();
        result
    }

    /// The root search of one iteration, first inside a window around the score of the
    /// iteration before (`previous`), widened on each failure until the score falls inside.
    fn aspirated(&mut self, root: &P, depth: i32, root_check: bool, previous: Option<i32>) -> i32 {
        let (Some(previous), Some(mut delta)) = (
            previous.filter(|&p| depth >= ASPIRATION_DEPTH && !is_win_score(p)),
            self.eval.aspiration_window(),
        ) else {
            return self.negamax(root, depth, -INFINITY, INFINITY, 0, true, root_check);
        };
        let (mut alpha, mut beta) = (previous - delta, previous + delta);
        loop {
            self.root_raised = None;
            let score = self.negamax(root, depth, alpha, beta, 0, true, root_check);
            let full = alpha == -INFINITY && beta == INFINITY;
            if self.stopped || full || (score > alpha && score < beta) {
                return score;
            }
            delta *= 2;
            if score <= alpha {
                alpha = (score - delta).max(-INFINITY);
            } else {
                beta = (score + delta).min(INFINITY);
            }
            if delta > ASPIRATION_MAX {
                (alpha, beta) = (-INFINITY, INFINITY);
            }
        }
    }

    /// When an iteration ends with an idle best move (and no forced result), searches the
    /// best move that makes progress again, alone, with a full window, at the same depth,
    /// and takes it when it scores at least the idle move's lowered score (within the
    /// margin). So the choice rests on two exact scores of that depth, not on one
    /// zero-window search in a tree whose table and history the idle move's own search has
    /// just changed. The iteration counts as unfinished if this search is stopped.
    fn prefer_progress(
        &mut self,
        root: &P,
        moves: &[P::Move],
        depth: i32,
        root_check: bool,
        score: i32,
    ) -> i32 {
        let Some(&best) = self.pv[0].first() else {
            return score;
        };
        if self.idle_margin(best) == 0 || is_win_score(score) {
            return score;
        }
        let Some((progress, _)) = self.root_progress else {
            return score;
        };
        let (pv, seldepth) = (self.pv[0].clone(), self.seldepth);
        // Every other root move excluded: no root entry is stored for this partial search.
        self.root_excluded = moves.iter().copied().filter(|&m| m != progress).collect();
        let s = self.negamax(root, depth, -INFINITY, INFINITY, 0, true, root_check);
        self.root_excluded.clear();
        if self.stopped || self.overtaken {
            return score;
        }
        if s >= score && self.pv[0].first() == Some(&progress) {
            self.root_best = Some(progress);
            return s;
        }
        self.pv[0] = pv;
        self.seldepth = seldepth;
        score
    }

    /// The deepest iteration a helper thread finished, if deeper than `depth`, as a line of
    /// the main thread's report.
    fn finished_by_helper(&self, depth: u32) -> Option<Iteration<P::Move>> {
        let f = self.smp.as_ref()?.deeper_than(depth)?;
        Some(Iteration {
            depth: f.depth,
            seldepth: f.seldepth,
            score: Score::from_raw(f.score),
            nodes: self.total_nodes(),
            elapsed: self.start.elapsed(),
            pv: f.pv,
            multipv: 1,
        })
    }

    /// Now and then plays the second-best line instead of the best, when it is close.
    fn apply_skill(
        &self,
        root: &P,
        skill: Skill,
        lines: &[Iteration<P::Move>],
        result: &mut SearchResult<P::Move>,
    ) {
        let [best, second, ..] = lines else {
            return;
        };
        let mut h = Fnv(0xcbf2_9ce4_8422_2325);
        root.key().hash(&mut h);
        self.searches.hash(&mut h);
        let roll = (h.finish() ^ (h.finish() >> 32)) % 100;
        let close = !best.score.is_decisive()
            && !second.score.is_decisive()
            && best.score.raw() - second.score.raw() <= skill.margin_cp as i32;
        if roll < u64::from(skill.chance_percent) && close {
            result.best = second.pv.first().copied();
            result.last = Iteration {
                multipv: 1,
                ..second.clone()
            };
        }
    }

    /// Searches for the side to move of a game with hidden information, from its `view`
    /// only ([`Position::hidden_view`]), whose game reached it through the positions
    /// `earlier` as that side saw them (its views, oldest first). Each hypothesis compares
    /// them by [`Position::key_under`], so every hypothesis's search sees repetitions of the
    /// game's earlier positions, not only the one without a secret.
    ///
    /// With one hypothesis about the opponent's secret (or none), this is a plain search of
    /// the view. With several ([`Position::hypotheses`], each an umpire position consistent
    /// with the view), each is searched for its best move; then each candidate move is
    /// scored under every hypothesis (a search restricted to that root move) and the move
    /// with the best worst case is played, ties going to the better total. The line
    /// reported is the chosen move's worst case, with a note saying so. The time and node
    /// budgets are shared among the searches, so the whole stays within `limits`. The result
    /// depends only on the view.
    pub fn search_hidden(
        &mut self,
        view: &P,
        earlier: &[P],
        limits: &Limits,
        mut on_iteration: impl FnMut(&Iteration<P::Move>),
    ) -> HiddenSearch<P> {
        // The search keeps the last 100 positions of the game only.
        let earlier = &earlier[earlier.len().saturating_sub(100)..];
        let history_under =
            |hyp: &P| -> Vec<u64> { earlier.iter().map(|p| p.key_under(hyp)).collect() };
        let hypotheses = view.hypotheses();
        if hypotheses.len() <= 1 {
            let history: Vec<u64> = earlier.iter().map(|p| p.key()).collect();
            let result = self.search(view, &history, limits, on_iteration);
            return HiddenSearch {
                result,
                line_root: view.clone(),
            };
        }
        let start = Instant::now();
        let deadline = limits.movetime.and_then(|t| start.checked_add(t));
        let h = hypotheses.len() as u64;
        let mut total_nodes = 0u64;
        // A share of what is left of the budgets: `parts` searches still to run.
        let share = |parts: u64, spent: u64| -> Limits {
            let parts = parts.max(1);
            Limits {
                depth: limits.depth,
                nodes: limits
                    .nodes
                    .map(|n| (n.saturating_sub(spent) / parts).max(1)),
                movetime: deadline.map(|d| {
                    let left = d.saturating_duration_since(Instant::now());
                    (left / parts.min(u64::from(u32::MAX)) as u32).max(Duration::from_millis(1))
                }),
                threads: limits.threads,
                multipv: None,
                skill: None,
                contempt: limits.contempt,
            }
        };
        let histories: Vec<Vec<u64>> = hypotheses.iter().map(history_under).collect();
        // Phase 1: each hypothesis's own best move (about half the budget).
        let mut bests = Vec::new();
        for (i, (hyp, history)) in hypotheses.iter().zip(&histories).enumerate() {
            let left = 2 * h - i as u64;
            let sub = share(left, total_nodes);
            let result = self.search(hyp, history, &sub, |it| {
                if i == 0 {
                    on_iteration(it)
                }
            });
            total_nodes += result.nodes;
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
        let stopped = self.stop.load(Ordering::Relaxed)
            || limits.nodes.is_some_and(|n| total_nodes >= n)
            || deadline.is_some_and(|d| Instant::now() >= d);
        let n_hyp = hypotheses.len();
        if candidates.len() <= 1 || stopped {
            let mut result = bests.swap_remove(0);
            result.nodes = total_nodes;
            result.elapsed = start.elapsed();
            result.note = Some(if candidates.len() <= 1 {
                format!(
                    "the opponent may hold a secret: the {n_hyp} positions it could be in all have the same best move"
                )
            } else {
                format!(
                    "the opponent may hold a secret: the search stopped before comparing the moves over the {n_hyp} positions it could be in, so the move is the best with no secret"
                )
            });
            return HiddenSearch {
                result,
                line_root: view.clone(),
            };
        }
        // Phase 2: every candidate under every hypothesis (the other half).
        let pairs = (n_hyp * candidates.len()) as u64;
        let mut done = 0u64;
        // (worst score, total score, move, the worst line and its root)
        type Choice<M> = (i32, i32, M, Iteration<M>, usize);
        let mut chosen: Option<Choice<P::Move>> = None;
        for &mv in &candidates {
            let mut worst: Option<(i32, Iteration<P::Move>, usize)> = None;
            let mut total = 0i32;
            for (k, ((hyp, own), history)) in
                hypotheses.iter().zip(&bests).zip(&histories).enumerate()
            {
                let last = if own.best == Some(mv) && own.last.pv.first() == Some(&mv) {
                    own.last.clone()
                } else {
                    let sub = share(pairs - done, total_nodes);
                    self.restrict_root(vec![mv]);
                    let r = self.search(hyp, history, &sub, |_| {});
                    total_nodes += r.nodes;
                    let mut last = r.last;
                    if last.pv.first() != Some(&mv) {
                        // Stopped before an iteration ended: the move, unscored.
                        last.pv = vec![mv];
                    }
                    last
                };
                done += 1;
                let score = last.score.raw();
                total = total.saturating_add(score);
                if worst.as_ref().is_none_or(|(w, _, _)| score < *w) {
                    worst = Some((score, last, k));
                }
            }
            if let Some((w, line, k)) = worst {
                let better = chosen
                    .as_ref()
                    .is_none_or(|&(cw, ct, _, _, _)| (w, total) > (cw, ct));
                if better {
                    chosen = Some((w, total, mv, line, k));
                }
            }
        }
        let Some((_, _, mv, line, k)) = chosen else {
            let mut result = bests.swap_remove(0);
            result.nodes = total_nodes;
            result.elapsed = start.elapsed();
            return HiddenSearch {
                result,
                line_root: view.clone(),
            };
        };
        let mv_text = view.move_human(mv);
        let case = if k == 0 {
            "if the opponent holds no secret".to_string()
        } else {
            format!("under possibility {k} of {}", n_hyp - 1)
        };
        let note = format!(
            "the opponent may hold a secret: each of the {n_hyp} positions it could be in was searched, then each of their {} best moves under all of them; {mv_text} has the best worst case, and the line shown is that worst case ({case})",
            candidates.len()
        );
        let result = SearchResult {
            best: Some(mv),
            last: line,
            nodes: total_nodes,
            elapsed: start.elapsed(),
            note: Some(note),
        };
        HiddenSearch {
            result,
            line_root: hypotheses[k].clone(),
        }
    }

    /// Sets the budgets of a new search from `limits`, saturating any that would overflow.
    fn begin(&mut self, limits: &Limits) {
        self.nodes = 0;
        self.rep_floor = 0;
        self.stopped = false;
        self.node_limit = limits.nodes.unwrap_or(u64::MAX).max(1);
        self.draw_root = -limits.contempt.unwrap_or(0).clamp(-1000, 1000);
        self.deadline = limits.movetime.and_then(|t| self.start.checked_add(t));
        self.half_time = limits.movetime.and_then(|t| self.start.checked_add(t / 2));
    }

    /// Whether to start no further iteration: a limit is reached, or half the time is
    /// spent and the next iteration would not finish. A game whose unfinished iterations
    /// still choose the move (those with an aspiration window: a root move that beats the
    /// last best is played) searches to the end of its time instead, as Stockfish does
    /// with `go movetime` (docs/engine.md, 2026-11-26).
    fn out_of_budget_between(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
            || self.nodes >= self.node_limit
            || (self.eval.aspiration_window().is_none()
                && self.half_time.is_some_and(|t| Instant::now() >= t))
    }

    /// Counts a node and says whether the search must stop: the node limit and the stop
    /// signal at every node, the clock every [`TIME_CHECK_NODES`] nodes.
    #[inline]
    fn count_node_and_check(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        self.nodes += 1;
        if self.nodes >= self.node_limit
            || self.stop.load(Ordering::Relaxed)
            || (self.nodes & (TIME_CHECK_NODES - 1) == 0 && self.tick())
        {
            self.stopped = true;
        } else if self.nodes & (TIME_CHECK_NODES - 1) == 0 && self.is_overtaken() {
            self.overtaken = true;
            self.stopped = true;
        }
        self.stopped
    }

    /// Every [`TIME_CHECK_NODES`] nodes: the clock, and in a parallel search the nodes of
    /// all threads against the node limit (a helper adds its own to the count).
    #[cold]
    fn tick(&self) -> bool {
        if let Some(c) = &self.helper_nodes {
            if self.is_helper {
                c.fetch_add(TIME_CHECK_NODES, Ordering::Relaxed);
                return false;
            }
            if self.nodes + c.load(Ordering::Relaxed) >= self.node_limit {
                return true;
            }
        }
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// In a parallel search, whether the iteration under way is no longer worth finishing:
    /// for the main thread, a helper has finished this depth (or a deeper one); for a
    /// helper, the main thread has gone past its depth.
    #[cold]
    fn is_overtaken(&self) -> bool {
        let Some(s) = &self.smp else { return false };
        if self.iter_depth == 0 {
            return false;
        }
        if self.is_helper {
            // Only once the main thread is past it: a helper a ply ahead that the main
            // thread has caught up with has a head start on that depth and usually wins.
            s.main_depth.load(Ordering::Relaxed) > self.iter_depth
        } else {
            s.finished_depth.load(Ordering::Acquire) >= self.iter_depth
        }
    }

    /// The ordering score of the quiet move of history slot `slot` after the moves of slots
    /// `prev` (the opponent's last, then the side's own before it): its history plus its
    /// continuation and follow-up histories.
    fn quiet_score(&self, prev: Previous, slot: usize) -> i32 {
        self.history[slot]
            + prev.0.map_or(0, |p| self.cont[cont_slot(p, slot)])
            + prev.1.map_or(0, |p| self.follow[cont_slot(p, slot)])
    }

    /// Adds `bonus` (a malus when negative) to the history, continuation and follow-up
    /// histories of the quiet move of history slot `slot`.
    fn reward_quiet(&mut self, prev: Previous, slot: usize, bonus: i32) {
        update_history(&mut self.history[slot], bonus);
        if let Some(p) = prev.0 {
            update_history(&mut self.cont[cont_slot(p, slot)], bonus);
        }
        if let Some(p) = prev.1 {
            update_history(&mut self.follow[cont_slot(p, slot)], bonus);
        }
    }

    /// The correction-history slot of `pos`, if its evaluation gives a structure key.
    fn correction_slot(&self, pos: &P) -> Option<usize> {
        let key = self.eval.correction_key(pos)?;
        let slot = (key.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 50) as usize & (CORRECTION_SIZE - 1);
        Some(match pos.turn() {
            Color::White => slot,
            Color::Black => slot + CORRECTION_SIZE,
        })
    }

    /// The static score of `pos` for the side to move, corrected by what searches of its
    /// structure found (correction history); also the uncorrected score and the slot.
    fn static_score(&self, pos: &P, ply: usize) -> (i32, i32, Option<usize>) {
        let raw = self.eval.evaluate(pos, self.mobility(ply));
        let slot = self.correction_slot(pos);
        (self.corrected(raw, slot), raw, slot)
    }

    /// `raw` moved by the correction history's entry in `slot` (unchanged without one).
    fn corrected(&self, raw: i32, slot: Option<usize>) -> i32 {
        match slot {
            Some(s) => {
                (raw + self.correction[s] / CORRECTION_GRAIN).clamp(-WIN_BOUND + 1, WIN_BOUND - 1)
            }
            None => raw,
        }
    }

    /// Quiescence's standing-pat score: [`Self::static_score`]'s corrected score where only
    /// its side of the window `alpha..beta` matters, so the evaluator may give a bound.
    fn stand_pat_score(&self, pos: &P, ply: usize, alpha: i32, beta: i32) -> i32 {
        let slot = self.correction_slot(pos);
        // The window as the uncorrected score sees it.
        let correction = self.corrected(0, slot);
        let raw = self.eval.evaluate_within(
            pos,
            self.mobility(ply),
            alpha.saturating_sub(correction),
            beta.saturating_sub(correction),
        );
        self.corrected(raw, slot)
    }

    /// The score of a position with no legal move, from the side to move's view.
    fn terminal(&self, pos: &P, ply: usize) -> i32 {
        match pos.outcome().and_then(|o| o.winner) {
            None => self.draw_score(ply),
            winner => ended(pos, winner, ply),
        }
    }

    fn is_repetition(&self) -> bool {
        let n = self.path.len();
        let key = self.path[n - 1];
        // Same side to move: every second earlier position, back to the last null move.
        self.path[self.rep_floor.min(n - 1)..n - 1]
            .iter()
            .rev()
            .skip(1)
            .step_by(2)
            .any(|&k| k == key)
    }

    /// Generates `pos`'s legal moves into `moves` and notes their count for the
    /// evaluation's mobility; `false` when there are none (the position has ended).
    fn node_moves(&mut self, pos: &P, ply: usize, moves: &mut Vec<P::Move>) -> bool {
        pos.legal_moves(moves);
        self.counts[ply] = moves.len();
        !moves.is_empty()
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
        alpha: i32,
        beta: i32,
        ply: usize,
        pv_node: bool,
        in_check: bool,
    ) -> i32 {
        let (mut moves, mut scored) = (self.move_pool.take(), self.scored_pool.take());
        let score = self.negamax_with(
            pos,
            depth,
            alpha,
            beta,
            ply,
            pv_node,
            in_check,
            &mut moves,
            &mut scored,
        );
        self.move_pool.give(moves);
        self.scored_pool.give(scored);
        score
    }

    /// [`Self::negamax`] over borrowed lists for this node's moves.
    #[allow(clippy::too_many_arguments)]
    fn negamax_with(
        &mut self,
        pos: &P,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        pv_node: bool,
        in_check: bool,
        moves: &mut Vec<P::Move>,
        scored: &mut Vec<Ordered<P::Move>>,
    ) -> i32 {
        if depth <= 0 && ply > 0 {
            self.pv[ply].clear();
            if self.is_repetition() {
                return self.draw_score(ply);
            }
            return self.quiesce(pos, alpha, beta, ply, 0, Some(in_check));
        }
        self.pv[ply].clear();
        if self.count_node_and_check() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if ply > 0 && self.is_repetition() {
            return self.draw_score(ply);
        }
        let rule_draw = ply > 0 && pos.rule_draw();
        // The hash table first: a cut-off there saves generating the moves. Only positions
        // with legal moves are ever stored, so a hit is never a terminal position.
        let key = pos.key();
        let excluded = self.excluded[ply];
        let mut tt_move = None;
        // The table's score, depth and bound, for singular extensions.
        let mut tt_found = None;
        if !rule_draw {
            if let Some(e) = self.tt.probe(key) {
                tt_move = e.mv;
                let s = from_tt(e.score, ply);
                tt_found = Some((s, i32::from(e.depth), e.bound));
                // A search without one move is no search of this position: no cut-off.
                if !pv_node && ply > 0 && excluded.is_none() && i32::from(e.depth) >= depth {
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
        // The moves wait until reverse futility and the null move have had their chance: a
        // node they cut off never needs them. Not where the evaluation reads their count, at
        // the root, in check (neither prunes there) or at a draw by rule (a mate comes first).
        // A position without moves that is not in check (stalemate) may so be pruned by its
        // static score, as in most engines; an ending the position sees without its moves
        // (a flip, a captured King) is scored here.
        let moves_first = ply == 0 || in_check || rule_draw || self.eval.uses_mobility();
        moves.clear();
        if moves_first {
            if !self.node_moves(pos, ply, moves) {
                return self.terminal(pos, ply);
            }
        } else if let Some(winner) = pos.quick_outcome() {
            return ended(pos, winner, ply);
        }
        if ply == 0 && !self.root_only.is_empty() {
            let only = &self.root_only;
            moves.retain(|m| only.contains(m));
        }
        if ply == 0 && !self.root_allowed.is_empty() {
            let allowed = &self.root_allowed;
            moves.retain(|m| allowed.contains(m));
        }
        if ply == 0 && !self.root_excluded.is_empty() {
            let excluded = &self.root_excluded;
            moves.retain(|m| !excluded.contains(m));
        }
        if rule_draw {
            return self.draw_score(ply);
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
        // Before the moves are known the table's move stands for the hash move (a wrong one,
        // from another position with the same key, is rare and only costs ordering).
        let hash_move = if moves_first {
            tt_move.filter(|m| moves.contains(m))
        } else {
            tt_move
        };
        // A node searched with a zero window where a fail high is expected; the root and
        // PV nodes never are.
        let cut_node = !pv_node && ply > 0 && self.cut_node[ply];
        // Internal iterative reduction: a node the table knows no move for is searched a
        // ply shallower (its ordering is a guess), and comes back deeper once stored.
        let depth = if ply > 0 && depth >= IIR_DEPTH && hash_move.is_none() {
            depth - 1
        } else {
            depth
        };
        let scored_static = (!in_check).then(|| self.static_score(pos, ply));
        let static_eval = scored_static.map(|(e, _, _)| e);
        self.evals[ply] = static_eval;
        // Whether the side to move stands better than two plies ago: if not, its late
        // moves are reduced more.
        let improving = match (static_eval, ply.checked_sub(2).map(|p| self.evals[p])) {
            (Some(e), Some(Some(before))) => e > before,
            (Some(_), _) => true,
            (None, _) => false,
        };
        // Reverse futility pruning: near the horizon, a static score this far above beta
        // will not fall below it in the few plies left.
        if !pv_node && ply > 0 && depth <= RFP_DEPTH && !is_win_score(beta) && excluded.is_none() {
            if let Some(e) = static_eval {
                if e - RFP_MARGIN * depth >= beta {
                    return e;
                }
            }
        }
        // Null-move pruning: when passing still holds beta after a shallower search, some
        // real move will too. The position refuses the pass where that reasoning fails
        // (in check, zugzwang-prone material); never at the root, in a PV node, twice in a
        // row, or against a forced result.
        if !pv_node
            && ply > 0
            && depth >= 3
            && !self.after_null[ply]
            && excluded.is_none()
            && !is_win_score(beta)
            && static_eval.is_some_and(|e| e >= beta)
        {
            if let Some(null) = pos.null_move() {
                // Reduced more the further the static score stands above beta.
                let margin = static_eval.map_or(0, |e| (e - beta) / 200);
                let r = 3 + depth / 4 + margin.min(3);
                let floor = self.rep_floor;
                self.path.push(null.key());
                self.rep_floor = self.path.len() - 1;
                self.after_null[ply + 1] = true;
                self.prev_slot[ply + 1] = None;
                self.cut_node[ply + 1] = !cut_node;
                let s = -self.negamax(
                    &null,
                    depth - 1 - r,
                    -beta,
                    -beta + 1,
                    ply + 1,
                    false,
                    false,
                );
                self.after_null[ply + 1] = false;
                self.rep_floor = floor;
                self.path.pop();
                if self.stopped {
                    return 0;
                }
                if s >= beta {
                    // A mate found after a pass is no proof of one after a real move.
                    return if is_win_score(s) { beta } else { s };
                }
            }
        }

        if !moves_first && !self.node_moves(pos, ply, moves) {
            return self.terminal(pos, ply);
        }
        let hash_move = hash_move.filter(|m| moves_first || moves.contains(m));
        // When the best move known is a capture, the quiet moves are less likely to matter.
        let tt_noisy = hash_move.is_some_and(|m| pos.is_noisy(m));
        let killers = self.killers[ply];
        let side = pos.turn();
        let prev = (
            self.prev_slot[ply],
            ply.checked_sub(1).and_then(|p| self.prev_slot[p]),
        );
        let countermove = prev.0.and_then(|p| self.countermoves[p]);
        scored.clear();
        scored.extend(moves.iter().map(|&m| {
            let noisy = pos.is_noisy(m);
            let losing = noisy && self.eval.loses_exchange(pos, m);
            let score = if Some(m) == hash_move {
                1 << 30
            } else if noisy {
                // A capture that loses the exchange comes after the killers.
                let base = if losing { 1 << 21 } else { 1 << 24 };
                base + self.eval.move_hint(pos, m)
            } else if Some(m) == killers[0] {
                1 << 22
            } else if Some(m) == killers[1] {
                (1 << 22) - 1
            } else if Some(m) == countermove {
                (1 << 22) - 2
            } else {
                // Scored when the loop reaches the quiet moves: a cut-off by the hash
                // move, a capture or a killer never needs their history.
                QUIET_PENDING
            };
            Ordered {
                score,
                mv: m,
                noisy,
                check: CHECK_UNKNOWN,
                losing,
                slot: NO_SLOT,
            }
        }));
        if ply == 0 && !self.root_idle.is_empty() {
            self.root_progress = None;
        }

        let alpha_orig = alpha;
        let mut best = -INFINITY;
        let mut best_move = None;
        // Shallow non-PV nodes not in check may skip quiet moves: the late ones (late-move
        // pruning) and all of them when the static score is far below alpha (futility).
        let prune_quiets = ply > 0 && !pv_node && !in_check;
        let lmp_limit = (3 + depth * depth) / if improving { 1 } else { 2 };
        let futile = static_eval.is_some_and(|e| {
            depth <= FUTILITY_DEPTH && e + FUTILITY_BASE + FUTILITY_MARGIN * depth <= alpha
        });
        let mut quiets_tried = 0;
        // Whether the moves left may hold one to search although pruning is on (false once
        // a look found one, until a move is searched).
        let mut look_ahead = true;
        for i in 0..scored.len() {
            // The first move is always searched, and nothing is skipped while every move so
            // far loses by force (a later one may escape). Once true, this stays true for
            // the rest of the node (`best` and `quiets_tried` only grow).
            let may_skip = prune_quiets && i > 0 && best > -WIN_BOUND;
            let may_prune =
                may_skip && ((depth <= LMP_DEPTH && quiets_tried >= lmp_limit) || futile);
            // When every move left is quiet and cannot give check, each would be skipped
            // below, whatever the order: the node is done.
            if may_prune && look_ahead {
                if scored[i..]
                    .iter_mut()
                    .all(|o| !o.noisy && !o.may_give_check(pos))
                {
                    break;
                }
                look_ahead = false;
            }
            // Selection sort: a cut-off usually comes early, so sorting everything is waste.
            let mut j = best_from(scored, i);
            if scored[j].score == QUIET_PENDING {
                // Every move left is an unscored quiet move: score them all, then choose.
                for o in scored[i..].iter_mut() {
                    if o.score == QUIET_PENDING {
                        o.slot = history_slot(side, &o.mv);
                        o.score = self.quiet_score(prev, o.slot);
                    }
                }
                j = best_from(scored, i);
            }
            scored.swap(i, j);
            let Ordered { mv, noisy, .. } = scored[i];
            if Some(mv) == excluded {
                scored[i].score = i32::MIN;
                continue;
            }
            // Singular extension: when every other move, searched shallower, falls clearly
            // below the table's score for the hash move, that move is the only good one and
            // is searched a ply deeper. When even the others hold beta, the node cuts off
            // (several moves refute the line).
            let mut singular = 0;
            if let Some((tt_score, tt_depth, tt_bound)) = tt_found {
                if ply > 0
                    && excluded.is_none()
                    && self.eval.singular_depth().is_some_and(|d| depth >= d)
                    && Some(mv) == hash_move
                    && tt_bound != Bound::Upper
                    && tt_depth >= depth - 3
                    && !is_win_score(tt_score)
                {
                    let singular_beta = tt_score - SINGULAR_MARGIN * depth;
                    self.excluded[ply] = Some(mv);
                    let s = self.negamax(
                        pos,
                        (depth - 1) / 2,
                        singular_beta - 1,
                        singular_beta,
                        ply,
                        false,
                        in_check,
                    );
                    self.excluded[ply] = None;
                    if self.stopped {
                        return 0;
                    }
                    if s < singular_beta {
                        singular = 1;
                    } else if singular_beta >= beta {
                        return singular_beta;
                    }
                }
            }
            // A quiet move that is pruned unless it gives check, and that the position says
            // cannot give check, is skipped without being played: the same decision as
            // below, without the copy, the move, its key and the check test.
            if may_prune && !noisy && !scored[i].may_give_check(pos) {
                // Marked as never searched: no history malus for it.
                scored[i].score = i32::MIN;
                continue;
            }
            if scored[i].slot == NO_SLOT {
                scored[i].slot = history_slot(side, &mv);
            }
            let slot = scored[i].slot;
            let losing = scored[i].losing;
            let mut child = pos.clone();
            child.play(mv);
            // The child's table bucket is fetched while its check and reduction are found
            // (a child at the horizon goes to quiescence, which does not probe it).
            let child_key = child.key();
            if depth > 1 {
                self.tt.prefetch(child_key);
            }
            self.path.push(child_key);
            self.prev_slot[ply + 1] = Some(slot);
            let gives_check = child.is_check();
            if !noisy && !gives_check {
                if may_prune {
                    // Marked as never searched: no history malus for it.
                    scored[i].score = i32::MIN;
                    self.path.pop();
                    continue;
                }
                quiets_tried += 1;
            } else if losing && !gives_check && may_skip && depth <= SEE_PRUNE_DEPTH {
                // A capture that loses the exchange, near the horizon: quiescence would
                // not even try it.
                scored[i].score = i32::MIN;
                self.path.pop();
                continue;
            }
            look_ahead = true;
            // A check extends the line unless the checking piece is simply lost (a check
            // that gives up material for nothing rarely needs the extra ply).
            let extension = i32::from(
                gives_check
                    && ply < 2 * depth as usize + 4
                    && if noisy {
                        !losing
                    } else {
                        !self.eval.loses_exchange(pos, mv)
                    },
            )
            .max(singular);
            let new_depth = depth - 1 + extension;
            // An idle root move is searched against a window raised by its margin and
            // scored that much lower, so it wins only by more than the margin. Not once a
            // forced win bounds the window: raised past the win scores, the window would
            // cut the child off by mate distance alone and score the idle move a win in
            // one ply, so it would be played instead of the mate (a won Imperial game went
            // back and forth to a repetition so, issue 36); a win is compared exactly.
            let idle = if ply == 0 && !self.root_idle.is_empty() {
                let margin = self.idle_margin(mv);
                if alpha.saturating_add(margin) > WIN_BOUND {
                    0
                } else {
                    margin
                }
            } else {
                0
            };
            let (lo, hi) = (alpha.saturating_add(idle), beta.saturating_add(idle));
            let score = if i == 0 {
                self.cut_node[ply + 1] = !pv_node && !cut_node;
                -self.negamax(&child, new_depth, -hi, -lo, ply + 1, pv_node, gives_check)
            } else {
                let quiet = !noisy && !in_check && !gives_check;
                let is_killer = Some(mv) == killers[0] || Some(mv) == killers[1];
                // Never reduce at the root, so a short forced win is always seen at its depth.
                // Elsewhere late quiet moves are reduced by the logarithms of depth and move
                // number: less in PV nodes, for killers and for moves with a good history,
                // more when not improving and for moves with a bad history.
                let r = if ply > 0 && depth >= 3 && i >= 2 && quiet {
                    let r = i32::from(self.lmr[depth.min(63) as usize][i.min(63)])
                        - i32::from(pv_node)
                        - i32::from(is_killer)
                        + i32::from(!improving)
                        + i32::from(cut_node)
                        + i32::from(tt_noisy)
                        - self.quiet_score(prev, slot) / HISTORY_LMR_DIVISOR;
                    r.clamp(0, new_depth - 1)
                } else {
                    0
                };
                self.cut_node[ply + 1] = r > 0 || !cut_node;
                let mut s = -self.negamax(
                    &child,
                    new_depth - r,
                    -lo - 1,
                    -lo,
                    ply + 1,
                    false,
                    gives_check,
                );
                if s > lo && r > 0 {
                    self.cut_node[ply + 1] = !cut_node;
                    s = -self.negamax(&child, new_depth, -lo - 1, -lo, ply + 1, false, gives_check);
                }
                if s > lo && s < hi {
                    s = -self.negamax(&child, new_depth, -hi, -lo, ply + 1, true, gives_check);
                }
                s
            };
            let score = if idle != 0 && !is_win_score(score) {
                score - idle
            } else {
                score
            };
            self.path.pop();
            if self.stopped {
                return 0;
            }
            if ply == 0
                && !self.root_idle.is_empty()
                && self.idle_margin(mv) == 0
                && self.root_progress.is_none_or(|(_, s)| score > s)
            {
                self.root_progress = Some((mv, score));
            }
            if score > best {
                best = score;
                best_move = Some(mv);
                if ply == 0 {
                    self.root_best = Some(mv);
                }
                if score > alpha {
                    alpha = score;
                    if ply == 0 && i > 0 {
                        self.root_raised = Some((mv, score));
                    }
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    head[ply].clear();
                    head[ply].push(mv);
                    head[ply].extend_from_slice(&tail[0]);
                    if alpha >= beta {
                        if !noisy {
                            if killers[0] != Some(mv) {
                                self.killers[ply] = [Some(mv), killers[0]];
                            }
                            // The quiet move that cut off gains, the quiet moves searched
                            // before it (and failed) lose as much.
                            let bonus = (32 * depth * depth).min(1536);
                            self.reward_quiet(prev, slot, bonus);
                            for o in &scored[..i] {
                                if !o.noisy && o.score != i32::MIN {
                                    self.reward_quiet(prev, o.slot, -bonus);
                                }
                            }
                            if let Some(p) = prev.0 {
                                self.countermoves[p] = Some(mv);
                            }
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
        // The correction history learns from a searched score that says more than the
        // static one: not a bound on the wrong side of it, not a capture's gain, no mate.
        if let Some((corrected, raw, Some(slot))) = scored_static {
            let capture = best_move.is_some_and(|m| pos.is_noisy(m));
            let fail_high_below = bound == Bound::Lower && best <= corrected;
            let fail_low_above = bound == Bound::Upper && best >= corrected;
            if excluded.is_none()
                && !capture
                && !fail_high_below
                && !fail_low_above
                && !is_win_score(best)
            {
                let c = &mut self.correction[slot];
                *c = corrected_entry(*c, best - raw, depth);
            }
        }
        // A root searched without its best moves (MultiPV), or a node without its hash
        // move, has no true score to store.
        if (ply > 0 || self.root_excluded.is_empty()) && excluded.is_none() {
            self.tt
                .store(key, best_move, to_tt(best, ply), depth as i16, bound);
        }
        best
    }

    /// Quiescence from a node whose legal moves are already known (not empty; only the
    /// noisy ones when standing pat, and then possibly none).
    #[allow(clippy::too_many_arguments)]
    fn quiesce_with(
        &mut self,
        pos: &P,
        moves: &[P::Move],
        candidates: &mut Vec<(i32, P::Move)>,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        qdepth: usize,
        in_check: bool,
        stand: Option<i32>,
    ) -> i32 {
        self.counts[ply] = moves.len();
        let mut best = if in_check {
            // Every evasion is searched, so standing pat is not an option.
            -(WIN - ply as i32)
        } else {
            let stand = match stand {
                Some(s) => s,
                None => self.static_score(pos, ply).0,
            };
            if stand >= beta || ply >= MAX_PLY - 1 || qdepth >= QS_MAX_DEPTH {
                return stand;
            }
            alpha = alpha.max(stand);
            stand
        };
        if ply >= MAX_PLY - 1 {
            return self.eval.evaluate(pos, self.mobility(ply));
        }
        let stand_score = best;
        candidates.clear();
        candidates.extend(moves.iter().filter_map(|&m| {
            if pos.is_noisy(m) {
                // Delta pruning: a capture that cannot lift the score to alpha even
                // with a margin is not worth a node.
                if !in_check {
                    if let Some(gain) = self.eval.gain(pos, m) {
                        if stand_score.saturating_add(gain + DELTA_MARGIN) <= alpha {
                            return None;
                        }
                    }
                    // A capture that loses the exchange rarely lifts the score.
                    if self.eval.loses_exchange(pos, m) {
                        return None;
                    }
                }
                Some(((1 << 24) + self.eval.move_hint(pos, m), m))
            } else {
                in_check.then_some((0, m))
            }
        }));
        candidates.sort_by_key(|&(h, _)| std::cmp::Reverse(h));
        // Deep in quiescence only the most promising captures are tried: where a pawn wall
        // meets another every pawn can take, and trying all of them at every ply explodes.
        if !in_check && qdepth >= QS_NARROW_DEPTH {
            if let Some(width) = self.eval.quiescence_width() {
                candidates.truncate(width);
            }
        }
        for &(_, mv) in candidates.iter() {
            let mut child = pos.clone();
            child.play(mv);
            let score = -self.quiesce(&child, -beta, -alpha, ply + 1, qdepth + 1, None);
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

    /// Quiescence: only noisy moves (and, near the horizon, every evasion of a check), at
    /// most [`QS_MAX_DEPTH`] plies beyond the horizon, delta-pruned where the evaluation
    /// says what a capture gains, and narrowed deeper down ([`QS_NARROW_DEPTH`]).
    fn quiesce(
        &mut self,
        pos: &P,
        alpha: i32,
        beta: i32,
        ply: usize,
        qdepth: usize,
        in_check: Option<bool>,
    ) -> i32 {
        let (mut moves, mut captures) = (self.move_pool.take(), self.capture_pool.take());
        let score = self.quiesce_in(
            pos,
            alpha,
            beta,
            ply,
            qdepth,
            in_check,
            &mut moves,
            &mut captures,
        );
        self.move_pool.give(moves);
        self.capture_pool.give(captures);
        score
    }

    /// [`Self::quiesce`] over borrowed lists for this node's moves and captures.
    #[allow(clippy::too_many_arguments)]
    fn quiesce_in(
        &mut self,
        pos: &P,
        alpha: i32,
        beta: i32,
        ply: usize,
        qdepth: usize,
        in_check: Option<bool>,
        moves: &mut Vec<P::Move>,
        captures: &mut Vec<(i32, P::Move)>,
    ) -> i32 {
        self.pv[ply].clear();
        if self.count_node_and_check() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        // Endings seen without generating moves come first, so a flip or a captured King
        // is never scored as an ordinary position when standing pat.
        if let Some(result) = pos.quick_outcome() {
            return ended(pos, result, ply);
        }
        // Far from the horizon a check is answered like any other position: stand pat or
        // capture (a mate is still seen when there is no legal move at all).
        let in_check = qdepth < QS_CHECK_DEPTH && in_check.unwrap_or_else(|| pos.is_check());
        let mut stand = None;
        if !in_check && !self.eval.uses_mobility() && ply < MAX_PLY - 1 {
            // Stand pat before generating moves: most quiescence nodes end here. A position
            // without legal moves and not in check (stalemate) is then scored as usual.
            if pos.rule_draw() {
                return self.draw_score(ply);
            }
            let s = self.stand_pat_score(pos, ply, alpha, beta);
            if s >= beta || qdepth >= QS_MAX_DEPTH {
                return s;
            }
            stand = Some(s);
        }
        moves.clear();
        if stand.is_some() {
            // Standing pat is allowed, so only the noisy moves are searched: they are all
            // that is generated (the mobility the list's length would give is read only
            // by evaluations that never stand pat here).
            if !pos.legal_noisy_moves(moves) {
                return self.terminal(pos, ply);
            }
        } else {
            pos.legal_moves(moves);
            if moves.is_empty() {
                return self.terminal(pos, ply);
            }
        }
        if stand.is_none() && pos.rule_draw() {
            return self.draw_score(ply);
        }
        self.quiesce_with(
            pos, moves, captures, alpha, beta, ply, qdepth, in_check, stand,
        )
    }
}

/// The score of a game over at `ply` with `winner` (`None`: drawn), from the side to
/// move's view: a win sooner is worth more.
fn ended<P: Position>(pos: &P, winner: Option<Color>, ply: usize) -> i32 {
    match winner {
        Some(w) if w == pos.turn() => WIN - ply as i32,
        Some(_) => -(WIN - ply as i32),
        None => 0,
    }
}

/// Whether `raw` is a game-ending score.
pub fn is_win_score(raw: i32) -> bool {
    raw.abs() > WIN_BOUND
}

#[cfg(test)]
mod smp_tests {
    use super::*;

    fn done(depth: u32) -> Finished<u8> {
        Finished {
            depth,
            seldepth: depth,
            score: 10,
            pv: vec![depth as u8],
        }
    }

    #[test]
    fn correction_entries_are_running_means_within_the_bound() {
        // One search 3 plies deep, 100 cp above the static score: 4/256 of the way.
        assert_eq!(corrected_entry(0, 100, 3), 100 * CORRECTION_GRAIN * 4 / 256);
        // Deep searches weigh 16/256 at most; a huge gap counts as the bound.
        assert_eq!(
            corrected_entry(0, 10_000, 40),
            CORRECTION_MAX * CORRECTION_GRAIN * 16 / 256
        );
        assert_eq!(
            corrected_entry(0, -10_000, 40),
            -CORRECTION_MAX * CORRECTION_GRAIN * 16 / 256
        );
        // Repeated, the entry converges on the gap and never passes it.
        let mut e = 0;
        for _ in 0..2_000 {
            e = corrected_entry(e, 60, 10);
            assert!(e <= 60 * CORRECTION_GRAIN);
        }
        assert!(e / CORRECTION_GRAIN >= 59, "{e}");
        // A contrary result pulls it back.
        assert!(corrected_entry(e, -60, 10) < e);
    }

    #[test]
    fn only_the_deepest_finished_iteration_is_kept() {
        let s: Shared<u8> = Shared::new();
        assert!(s.deeper_than(0).is_none());
        s.publish(done(5));
        s.publish(done(4));
        assert_eq!(s.deeper_than(3).map(|f| f.depth), Some(5));
        assert!(s.deeper_than(5).is_none());
        s.publish(done(7));
        assert_eq!(s.deeper_than(5).map(|f| f.pv), Some(vec![7]));
    }
}
