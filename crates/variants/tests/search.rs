//! Search behaviour on chess and on a toy game with immediate wins and losses.

use menagerie_chess::Chess;
use menagerie_core::{Color, Geometry, Outcome, Position, Square, Termination};
use menagerie_engine::{GenericEval, Limits, Score, Searcher};
use menagerie_variants::eval::chess::ChessEval;
use std::sync::OnceLock;

fn best_chess(fen: &str, limits: Limits) -> (String, Score) {
    let pos = Chess::from_fen(fen).unwrap();
    let mut s = Searcher::new(ChessEval, 4);
    let r = s.search(&pos, &[], &limits, |_| {});
    (pos.move_text(r.best.unwrap()), r.last.score)
}

#[test]
fn mate_in_one_at_depth_one() {
    let (mv, score) = best_chess("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", Limits::depth(1));
    assert_eq!(mv, "a1a8");
    assert_eq!(score, Score::WinIn(1));
    let (mv, score) = best_chess(
        "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
        Limits::depth(1),
    );
    assert_eq!((mv.as_str(), score), ("h5f7", Score::WinIn(1)));
}

#[test]
fn mate_in_one_found_at_every_depth() {
    for depth in 1..=5 {
        let (mv, score) = best_chess("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", Limits::depth(depth));
        assert_eq!(
            (mv.as_str(), score),
            ("a1a8", Score::WinIn(1)),
            "depth {depth}"
        );
    }
}

#[test]
fn mate_in_two_at_depth_three() {
    // 1.Ra6! bxa6 2.b7#
    let (mv, score) = best_chess("kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1", Limits::depth(3));
    assert_eq!((mv.as_str(), score), ("a1a6", Score::WinIn(3)));
    // 1.Nf6+ gxf6 2.Bxf7#
    let (mv, score) = best_chess(
        "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1",
        Limits::depth(3),
    );
    assert_eq!((mv.as_str(), score), ("d5f6", Score::WinIn(3)));
}

#[test]
fn the_mated_side_knows_it() {
    // Black to move is mated next move whatever it does.
    let (_, score) = best_chess("k7/8/1K6/8/8/8/8/7R b - - 0 1", Limits::depth(3));
    assert!(matches!(score, Score::LossIn(_)), "{score:?}");
}

#[test]
fn a_capture_of_the_queen_is_taken() {
    let (mv, score) = best_chess("4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1", Limits::depth(2));
    assert_eq!(mv, "d1d5");
    assert!(matches!(score, Score::Cp(cp) if cp > 300));
}

#[test]
fn node_and_time_limits_stop_the_search() {
    let pos = Chess::start();
    let mut s = Searcher::new(ChessEval, 4);
    let r = s.search(&pos, &[], &Limits::nodes(20_000), |_| {});
    assert!(r.best.is_some());
    assert!(r.last.nodes < 60_000);
    let t = std::time::Instant::now();
    let r = s.search(&pos, &[], &Limits::movetime(100), |_| {});
    assert!(r.best.is_some() && r.last.depth >= 2);
    assert!(t.elapsed().as_millis() < 400);
}

#[test]
fn iterations_are_reported_in_order_with_a_legal_pv() {
    let pos = Chess::start();
    let mut s = Searcher::new(ChessEval, 4);
    let mut depths = Vec::new();
    let r = s.search(&pos, &[], &Limits::depth(4), |it| {
        depths.push(it.depth);
        let mut p = pos.clone();
        for &m in &it.pv {
            let mut legal = Vec::new();
            p.legal_moves(&mut legal);
            assert!(legal.contains(&m));
            p.play(m);
        }
    });
    assert_eq!(depths, vec![1, 2, 3, 4]);
    assert_eq!(r.last.pv.first(), r.best.as_ref());
}

#[test]
fn the_generic_evaluation_searches_chess_too() {
    let pos = Chess::from_fen("6k1/5ppp/8/8/8/8/q7/1Q4K1 w - - 0 1").unwrap();
    let mut s = Searcher::new(GenericEval::default(), 4);
    let r = s.search(&pos, &[], &Limits::depth(4), |_| {});
    assert!(r.best.is_some());
}

/// Race to 21: add 1, 2 or 3; reaching 21 exactly wins, passing it loses.
#[derive(Clone, Debug)]
struct Race {
    total: u8,
    turn: Color,
    last_mover_bust: bool,
}

fn race_geometry() -> &'static Geometry {
    static G: OnceLock<Geometry> = OnceLock::new();
    G.get_or_init(|| Geometry::rectangle(1, 1))
}

impl Position for Race {
    type Move = u8;
    fn variant(&self) -> &'static str {
        "race"
    }
    fn geometry(&self) -> &Geometry {
        race_geometry()
    }
    fn turn(&self) -> Color {
        self.turn
    }
    fn legal_moves(&self, moves: &mut Vec<u8>) {
        if self.total < 21 {
            moves.extend([1, 2, 3]);
        }
    }
    fn play(&mut self, mv: u8) {
        self.total += mv;
        self.last_mover_bust = self.total > 21;
        self.turn = self.turn.other();
    }
    fn is_check(&self) -> bool {
        false
    }
    fn outcome(&self) -> Option<Outcome> {
        let rule = || Termination::rule("race", "race");
        if self.total == 21 {
            Some(Outcome::win(self.turn.other(), rule()))
        } else if self.last_mover_bust {
            Some(Outcome::win(self.turn, rule()))
        } else {
            None
        }
    }
    fn key(&self) -> u64 {
        u64::from(self.total) * 2 + self.turn.index() as u64
    }
    fn fen(&self) -> String {
        self.total.to_string()
    }
    fn move_text(&self, mv: u8) -> String {
        mv.to_string()
    }
    fn move_human(&self, mv: u8) -> String {
        format!("+{mv}")
    }
    fn piece_char(&self, _sq: Square) -> Option<char> {
        None
    }
    fn is_noisy(&self, _mv: u8) -> bool {
        false
    }
}

fn race_best(total: u8, depth: u32) -> (u8, Score) {
    let pos = Race {
        total,
        turn: Color::White,
        last_mover_bust: false,
    };
    let mut s = Searcher::new(GenericEval::default(), 1);
    let r = s.search(&pos, &[], &Limits::depth(depth), |_| {});
    (r.best.unwrap(), r.last.score)
}

#[test]
fn immediate_game_specific_wins_are_played_and_losses_avoided() {
    for depth in 1..=4 {
        assert_eq!(race_best(19, depth), (2, Score::WinIn(1)));
        assert_eq!(race_best(20, depth), (1, Score::WinIn(1)));
        assert_eq!(race_best(18, depth), (3, Score::WinIn(1)));
    }
    // At 19 after +1 the opponent wins at once; +3 loses at once: neither is played.
    let (mv, _) = race_best(19, 1);
    assert_ne!(mv, 3);
}

#[test]
fn the_shortest_win_is_preferred_and_distances_are_exact() {
    // From 14, +3 reaches 17 and every reply lets us reach 21: a win in 3 plies.
    assert_eq!(race_best(14, 3), (3, Score::WinIn(3)));
    assert_eq!(race_best(14, 6), (3, Score::WinIn(3)));
    // From 17 every move lets the opponent win at once.
    let (_, score) = race_best(17, 2);
    assert_eq!(score, Score::LossIn(2));
}
