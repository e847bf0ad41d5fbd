//! A toy game for the engine's own tests: no game crate is needed to exercise the search.
//!
//! Each turn takes one of `width` tokens-moves; the game lasts `left` more plies and whoever
//! makes the last move wins. Every move may be declared noisy, which turns quiescence into a
//! search to the end of the game: the explosion a pawn wall causes in Vyrt, in miniature.

use crate::eval::{Evaluator, Mobility};
use menagerie_core::{Color, Geometry, Outcome, Position, Square, Termination};
use std::sync::OnceLock;

fn geometry() -> &'static Geometry {
    static G: OnceLock<Geometry> = OnceLock::new();
    G.get_or_init(|| Geometry::rectangle(8, 1))
}

/// The toy position.
#[derive(Clone, Copy, Debug)]
pub struct Toy {
    /// Plies left until the game ends.
    pub left: u32,
    /// Moves offered each turn.
    pub width: u8,
    /// Whether every move is noisy (searched in quiescence).
    pub all_noisy: bool,
    /// Whether the position is drawn by a rule.
    pub drawn: bool,
    /// Board letters, `.` for empty, square 0 first.
    pub letters: &'static str,
    turn: Color,
    key: u64,
}

impl Toy {
    /// A toy game `left` plies long with `width` moves a turn.
    pub fn new(left: u32, width: u8, all_noisy: bool) -> Self {
        Toy {
            left,
            width,
            all_noisy,
            drawn: false,
            letters: "........",
            turn: Color::White,
            key: 0x9e37_79b9_7f4a_7c15,
        }
    }
}

fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl Position for Toy {
    type Move = u8;
    fn variant(&self) -> &'static str {
        "toy"
    }
    fn geometry(&self) -> &Geometry {
        geometry()
    }
    fn turn(&self) -> Color {
        self.turn
    }
    fn legal_moves(&self, moves: &mut Vec<u8>) {
        if self.left > 0 {
            moves.extend(0..self.width);
        }
    }
    fn play(&mut self, mv: u8) {
        self.left -= 1;
        self.turn = self.turn.other();
        self.key = mix(self.key ^ u64::from(mv + 1));
    }
    fn is_check(&self) -> bool {
        false
    }
    fn outcome(&self) -> Option<Outcome> {
        (self.left == 0).then(|| Outcome::win(self.turn.other(), Termination::Checkmate))
    }
    fn key(&self) -> u64 {
        self.key
    }
    fn fen(&self) -> String {
        format!("toy {} {}", self.left, self.width)
    }
    fn move_text(&self, mv: u8) -> String {
        format!("m{mv}")
    }
    fn move_human(&self, mv: u8) -> String {
        format!("M{mv}")
    }
    fn piece_char(&self, sq: Square) -> Option<char> {
        self.letters.chars().nth(sq.index()).filter(|&c| c != '.')
    }
    fn is_noisy(&self, _mv: u8) -> bool {
        self.all_noisy
    }
    fn rule_draw(&self) -> bool {
        self.drawn
    }
}

/// An evaluation that scores each position by a hash of its key: no two siblings agree,
/// so alpha-beta prunes little.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoisyEval;

impl Evaluator<Toy> for NoisyEval {
    fn evaluate(&self, pos: &Toy, _mobility: Mobility) -> i32 {
        (mix(pos.key) % 201) as i32 - 100
    }
    fn material(&self, _pos: &Toy) -> i32 {
        0
    }
    fn uses_mobility(&self) -> bool {
        false
    }
}

/// [`NoisyEval`] with singular extensions from depth 2, so small searches exercise them.
#[derive(Clone, Copy, Debug, Default)]
pub struct SingularEval;

impl Evaluator<Toy> for SingularEval {
    fn evaluate(&self, pos: &Toy, mobility: Mobility) -> i32 {
        NoisyEval.evaluate(pos, mobility)
    }
    fn material(&self, _pos: &Toy) -> i32 {
        0
    }
    fn uses_mobility(&self) -> bool {
        false
    }
    fn singular_depth(&self) -> Option<i32> {
        Some(2)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{Limits, Searcher, MAX_DEPTH, MAX_MOVETIME_MS, MAX_NODES};
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    use std::time::{Duration, Instant};

    /// A game whose quiescence would search to the end: 60 plies of 30 noisy moves each.
    fn explosive() -> Toy {
        Toy::new(60, 30, true)
    }

    fn searcher() -> Searcher<Toy, NoisyEval> {
        Searcher::new(NoisyEval, 1)
    }

    #[test]
    fn node_limits_are_exact_even_inside_the_first_iteration() {
        for limit in [1, 2, 10, 1000, 5000] {
            let mut s = searcher();
            let r = s.search(&explosive(), &[], &Limits::nodes(limit), |_| {});
            assert!(r.nodes <= limit, "limit {limit}: {} nodes", r.nodes);
            assert!(r.best.is_some_and(|m| m < 30));
        }
    }

    #[test]
    fn time_limits_hold_from_the_first_node() {
        let mut s = searcher();
        let t = Instant::now();
        let r = s.search(&explosive(), &[], &Limits::movetime(30), |_| {});
        // Generous: the machine running the tests may be busy.
        assert!(
            t.elapsed() < Duration::from_millis(1000),
            "{:?}",
            t.elapsed()
        );
        assert!(r.best.is_some());
    }

    #[test]
    fn quiescence_stays_bounded() {
        // Depth 1 with no limit at all: every move is a capture, yet the first iteration
        // ends, and in far fewer nodes than a search to the end of the game would take.
        let mut s = searcher();
        let r = s.search(&explosive(), &[], &Limits::depth(1), |_| {});
        assert_eq!(r.last.depth, 1);
        assert!(r.nodes < 2_000_000, "{} nodes", r.nodes);
        assert!(r.last.seldepth <= crate::search::QS_MAX_DEPTH as u32 + 1);
    }

    #[test]
    fn the_stop_signal_ends_the_search_at_once() {
        // Raised before the search: the first legal move, at once.
        let mut s = searcher();
        let flag = Arc::new(AtomicBool::new(true));
        s.set_stop(flag.clone());
        let r = s.search(&explosive(), &[], &Limits::default(), |_| {});
        assert_eq!(r.best, Some(0));
        assert!(r.nodes <= 1);
        // Raised during a search with no limit: it ends soon after.
        flag.store(false, Ordering::Relaxed);
        let raiser = {
            let flag = flag.clone();
            std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(30));
                flag.store(true, Ordering::Relaxed);
            })
        };
        let t = Instant::now();
        let r = s.search(&explosive(), &[], &Limits::default(), |_| {});
        assert!(
            t.elapsed() < Duration::from_millis(1000),
            "{:?}",
            t.elapsed()
        );
        assert!(r.best.is_some());
        let _ = raiser.join();
    }

    #[test]
    fn limits_beyond_any_range_neither_hang_nor_overflow() {
        let mut s = searcher();
        let huge = Limits {
            depth: Some(u32::MAX),
            nodes: Some(2_000),
            movetime: Some(Duration::from_millis(u64::MAX)),
            ..Limits::default()
        };
        let r = s.search(&explosive(), &[], &huge, |_| {});
        assert!(r.nodes <= 2_000 && r.best.is_some());
        let r = s.search(
            &Toy::new(6, 2, false),
            &[],
            &Limits::nodes(u64::MAX),
            |_| {},
        );
        // Six plies: Black makes the last move, and the search sees it to the end.
        assert_eq!(r.last.score, crate::Score::LossIn(6));
    }

    /// Singular extensions change the tree (they fire), but a forced result is still found
    /// exactly: a search without the hash move never stores or returns a false score.
    #[test]
    fn singular_extensions_keep_forced_results() {
        let game = Toy::new(10, 3, false);
        let mut plain = searcher();
        let mut singular = Searcher::new(SingularEval, 1);
        let a = plain.search(&game, &[], &Limits::depth(8), |_| {});
        let b = singular.search(&game, &[], &Limits::depth(8), |_| {});
        assert_ne!(a.nodes, b.nodes);
        assert!(b.best.is_some_and(|m| m < 3));
        let deep = singular.search(&game, &[], &Limits::depth(12), |_| {});
        // Ten plies: Black makes the last move.
        assert_eq!(deep.last.score, crate::Score::LossIn(10));
    }

    #[test]
    fn a_game_that_is_over_gets_no_move() {
        let mut s = searcher();
        let r = s.search(&Toy::new(0, 3, false), &[], &Limits::depth(3), |_| {});
        assert_eq!(r.best, None);
        let mut drawn = Toy::new(10, 3, false);
        drawn.drawn = true;
        let r = s.search(&drawn, &[], &Limits::depth(3), |_| {});
        assert_eq!(r.best, None);
    }

    #[test]
    fn limits_have_ranges_and_say_which_one_is_wrong() {
        assert_eq!(Limits::try_depth(1), Ok(Limits::depth(1)));
        assert_eq!(Limits::try_depth(64), Ok(Limits::depth(MAX_DEPTH)));
        assert_eq!(
            Limits::try_depth(99_999_999_999).unwrap_err().to_string(),
            "depth 99999999999 is not in 1..=64 plies"
        );
        assert!(Limits::try_depth(0).is_err());
        assert!(Limits::try_movetime(0).is_err());
        assert!(Limits::try_movetime(MAX_MOVETIME_MS).is_ok());
        assert_eq!(
            Limits::try_movetime(4_000_000_000).unwrap_err().to_string(),
            "movetime 4000000000 is not in 1..=86400000 milliseconds (24 hours)"
        );
        assert!(Limits::try_movetime(u64::MAX).is_err());
        assert!(Limits::try_nodes(0).is_err());
        assert!(Limits::try_nodes(MAX_NODES).is_ok());
        assert_eq!(
            Limits::try_nodes(u64::MAX).unwrap_err().to_string(),
            "nodes 18446744073709551615 is not in 1..=1000000000000"
        );
        assert!(Limits::movetime(0).validate().is_err());
        assert!(Limits::depth(65).validate().is_err());
        assert!(Limits::default().validate().is_ok());
        let ok = Limits {
            depth: Some(5),
            nodes: Some(10),
            movetime: Some(Duration::from_millis(100)),
            ..Limits::default()
        };
        assert!(ok.validate().is_ok());
    }

    /// The depth-1 score of each root move of `root` under [`NoisyEval`]: minus the child's
    /// static score (the child stands pat in quiescence).
    fn depth_one_scores(root: &Toy) -> Vec<(u8, i32)> {
        (0..root.width)
            .map(|m| {
                let mut child = *root;
                child.play(m);
                (m, -NoisyEval.evaluate(&child, Mobility::default()))
            })
            .collect()
    }

    #[test]
    fn an_idle_root_move_is_chosen_only_when_it_wins_by_more_than_its_margin() {
        let root = Toy::new(20, 5, false);
        let mut scores = depth_one_scores(&root);
        scores.sort_by_key(|&(m, s)| (std::cmp::Reverse(s), m));
        let ((best, top), (second, next)) = (scores[0], scores[1]);
        assert!(top > next, "the toy position has one best move");
        let mut s = searcher();
        let r = s.search(&root, &[], &Limits::depth(1), |_| {});
        assert_eq!(r.best, Some(best));
        assert_eq!(r.last.score, crate::Score::Cp(top));
        // Marked idle with a margin larger than its lead, the best move gives way to the
        // second, which makes progress.
        s.set_idle_moves(vec![(best, top - next + 1)]);
        let r = s.search(&root, &[], &Limits::depth(1), |_| {});
        assert_eq!(r.best, Some(second));
        assert_eq!(r.last.score, crate::Score::Cp(next));
        // With a margin below its lead it is still chosen, scored its margin lower.
        s.set_idle_moves(vec![(best, top - next - 1)]);
        let r = s.search(&root, &[], &Limits::depth(1), |_| {});
        assert_eq!(r.best, Some(best));
        assert_eq!(r.last.score, crate::Score::Cp(next + 1));
        // The marks last until changed.
        s.set_idle_moves(Vec::new());
        let r = s.search(&root, &[], &Limits::depth(1), |_| {});
        assert_eq!(r.best, Some(best));
    }

    /// Scores the positions listed (by key, for the side to move) and every other 0, so a
    /// small search's exact scores can be worked out by hand.
    #[derive(Clone, Debug, Default)]
    struct ScriptedEval(std::collections::HashMap<u64, i32>);

    impl Evaluator<Toy> for ScriptedEval {
        fn evaluate(&self, pos: &Toy, _mobility: Mobility) -> i32 {
            self.0.get(&pos.key).copied().unwrap_or(0)
        }
        fn material(&self, _pos: &Toy) -> i32 {
            0
        }
        fn uses_mobility(&self) -> bool {
            false
        }
    }

    /// The position after `moves` from `root`.
    fn after(root: &Toy, moves: &[u8]) -> Toy {
        let mut pos = *root;
        for &m in moves {
            pos.play(m);
        }
        pos
    }

    #[test]
    fn an_idle_root_move_is_compared_by_exact_scores_not_by_a_pruned_zero_window() {
        // Two moves, searched to depth 2. Move 0 is idle (margin 30): after it every reply
        // leaves White `idle` cp. Move 1 makes progress: every reply leaves White +30, but
        // the position right after it looks good for Black (+200), so a zero-window search
        // of it is cut by reverse futility (200 - 90 is above its beta) and fails low.
        // Searched after the idle move (the hash move: at depth 1 move 1 scores -200), the
        // progressing move lost so to the idle move's lowered score, whatever its own; the
        // iteration's idle best move now sends it to a full-window search of its own.
        for (idle, chosen, score) in [(50, 1, 30), (59, 1, 30), (61, 0, 31), (70, 0, 40)] {
            let root = Toy::new(20, 2, false);
            let mut scores = std::collections::HashMap::new();
            scores.insert(after(&root, &[0]).key, -idle);
            scores.insert(after(&root, &[1]).key, 200);
            for reply in 0..2 {
                scores.insert(after(&root, &[0, reply]).key, idle);
                scores.insert(after(&root, &[1, reply]).key, 30);
            }
            let eval = ScriptedEval(scores);
            // The exact scores, each move searched alone by a new searcher.
            for (mv, exact) in [(0, idle), (1, 30)] {
                let mut alone = Searcher::new(eval.clone(), 1);
                alone.restrict_root(vec![mv]);
                let r = alone.search(&root, &[], &Limits::depth(2), |_| {});
                assert_eq!(r.last.score, crate::Score::Cp(exact), "move {mv}");
            }
            let mut s = Searcher::new(eval, 1);
            s.set_idle_moves(vec![(0, 30)]);
            let r = s.search(&root, &[], &Limits::depth(2), |_| {});
            assert_eq!(
                (r.best, r.last.score),
                (Some(chosen), crate::Score::Cp(score)),
                "idle move at {idle}"
            );
        }
    }

    #[test]
    fn an_idle_root_move_never_outscores_a_forced_win() {
        // Every move wins in three plies (the toy ends there, and White makes the last
        // move). Idle moves searched after the first win must keep that score: with their
        // window raised past the win scores they came back as a win in one ply and were
        // played instead of the mate.
        let root = Toy::new(3, 3, false);
        let mut s = searcher();
        let r = s.search(&root, &[], &Limits::depth(3), |_| {});
        let (first, score) = (r.best, r.last.score);
        assert_eq!(score, crate::Score::WinIn(3));
        let idle: Vec<(u8, i32)> = (0..3)
            .filter(|&m| Some(m) != first)
            .map(|m| (m, 30))
            .collect();
        s.clear();
        s.set_idle_moves(idle);
        let r = s.search(&root, &[], &Limits::depth(3), |_| {});
        assert_eq!(r.last.score, crate::Score::WinIn(3));
        assert_eq!(r.best, first);
    }

    #[test]
    fn a_repetition_scores_the_draw_less_the_contempt() {
        let root = Toy::new(20, 3, false);
        let mut child = root;
        child.play(0);
        // The game reached the position after move 0 two plies before the root: playing it
        // again repeats it.
        let history = [1, child.key()];
        let mut s = searcher();
        s.restrict_root(vec![0]);
        let r = s.search(&root, &history, &Limits::depth(3), |_| {});
        assert_eq!(r.last.score, crate::Score::Cp(0));
        let contempt = Limits {
            depth: Some(3),
            contempt: Some(50),
            ..Limits::default()
        };
        s.restrict_root(vec![0]);
        let r = s.search(&root, &history, &contempt, |_| {});
        assert_eq!(r.last.score, crate::Score::Cp(-50));
        // Without the repetition, move 0 is scored by the search as usual.
        s.restrict_root(vec![0]);
        let r = s.search(&root, &[], &Limits::depth(1), |_| {});
        assert_eq!(r.last.score, crate::Score::Cp(depth_one_scores(&root)[0].1));
    }
}
