//! The dynamic engine: limits honoured in positions that used to hang, games already over,
//! the line and note of a search over hidden information, and search reports as JSON.

use menagerie_core::RuleOptions;
use menagerie_variants::{find, AnyGame, Engine, Limits, Score, SearchReport};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Vyrt positions where pawn walls meet (issue 14 item 0, issue 15): the first iteration's
/// quiescence once ran for seconds and ignored every limit.
const WALLS: [&str; 2] = [
    "12/12/1pr1bqkb1rp1/2pppp1pppp1/2n9/1p4p5/1P4P5/1pppppppppp1/2PPPPKPPPP1/1PRNBQ1BNRP1/1PPPPPPPPPP1/7n4 w kq L6 - 0 6",
    "12/12/5qk5/1pppppppppp1/1PPPPPPPPPP1/5QK5/12/12/12/12/12/12 w - - - 0 1",
];

fn open(variant: &str, fen: &str) -> Box<dyn AnyGame> {
    find(variant)
        .unwrap()
        .open(Some(fen), &RuleOptions::new())
        .unwrap()
}

fn search(game: &dyn AnyGame, limits: Limits) -> SearchReport {
    Engine::new(1).search(game, &limits, None, &mut |_| {})
}

fn assert_legal(game: &dyn AnyGame, r: &SearchReport) {
    let best = r.best.as_deref().expect("a move");
    assert!(game.legal_moves().iter().any(|m| m == best), "{best}");
}

#[test]
fn pawn_walls_answer_within_the_time_limit() {
    for fen in WALLS {
        let g = open("vyrt", fen);
        let t = Instant::now();
        let r = search(&*g, Limits::movetime(100));
        // 100 ms asked; a generous margin, since the machine may be busy.
        assert!(
            t.elapsed() < Duration::from_millis(1000),
            "{fen}: {:?}",
            t.elapsed()
        );
        assert_legal(&*g, &r);
    }
}

#[test]
fn pawn_walls_answer_within_the_node_limit() {
    for fen in WALLS {
        let g = open("vyrt", fen);
        let r = search(&*g, Limits::nodes(5000));
        assert!(r.nodes <= 5000, "{fen}: {} nodes", r.nodes);
        assert_legal(&*g, &r);
        // Depth 3 with no other limit ends too (quiescence is bounded).
        let r = search(&*g, Limits::depth(3));
        assert_eq!(r.info.depth, 3);
        assert_legal(&*g, &r);
    }
}

#[test]
fn finished_searches_do_not_overrun_their_node_limit() {
    let g = find("chess")
        .unwrap()
        .open(None, &RuleOptions::new())
        .unwrap();
    for limit in [1, 10, 1000, 20_000] {
        let r = search(&*g, Limits::nodes(limit));
        assert!(r.nodes <= limit, "{limit}: {}", r.nodes);
        assert_legal(&*g, &r);
    }
}

#[test]
fn the_stop_signal_ends_an_unlimited_search() {
    let g = open("vyrt", WALLS[1]);
    let flag = Arc::new(AtomicBool::new(false));
    let raiser = {
        let flag = flag.clone();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(50));
            flag.store(true, Ordering::Relaxed);
        })
    };
    let t = Instant::now();
    let r = Engine::new(1).search(&*g, &Limits::default(), Some(flag), &mut |_| {});
    assert!(
        t.elapsed() < Duration::from_millis(1000),
        "{:?}",
        t.elapsed()
    );
    assert_legal(&*g, &r);
    let _ = raiser.join();
}

#[test]
fn a_game_already_over_gets_no_move() {
    // The fifty-move rule, a dead position, and a threefold repetition.
    let fifty = open("chess", "4k3/8/8/8/8/8/4P3/4K2R w - - 100 80");
    let dead = open("chess", "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    let mut repeated = find("chess")
        .unwrap()
        .open(None, &RuleOptions::new())
        .unwrap();
    for mv in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"] {
        repeated.push(mv).unwrap();
    }
    for g in [fifty, dead, repeated] {
        assert!(g.outcome().is_some());
        let r = search(&*g, Limits::depth(3));
        assert_eq!(r.best, None, "{}", g.fen());
        assert!(r.note.is_some_and(|n| n.starts_with("the game is over")));
    }
}

#[test]
fn the_hidden_search_reports_the_chosen_moves_line_and_why() {
    // Black cannot know whether White's Civilian on g5 or h5 is a Deputy.
    let fen = "k12/13/2c1c8/3K9/2t1t8/13/5n7/9b3/6CC5/13/13/13/13 b d10:w@d10 - 1 1 g5";
    let g = open("little-cheops-imperial", fen);
    let mut iterations = Vec::new();
    let r = Engine::new(1).search(&*g, &Limits::depth(3), None, &mut |it| {
        iterations.push(it.clone())
    });
    let best = r.best.clone().expect("a move");
    assert!(!iterations.is_empty());
    let note = r.note.as_deref().expect("a note");
    assert!(note.contains("the opponent may hold a secret"), "{note}");
    // The line reported is the chosen move's.
    assert_eq!(r.info.pv.first(), Some(&best), "{note}");
    // And it does not depend on the secret: the same without White's papers.
    let public = open("little-cheops-imperial", &fen.replace(" g5", " -"));
    let again = Engine::new(1).search(&*public, &Limits::depth(3), None, &mut |_| {});
    assert_eq!(again.best, r.best);
    assert_eq!(again.note, r.note);
    assert_eq!(again.info.pv, r.info.pv);
    assert_eq!(again.info.score, r.info.score);
    assert_eq!(again.nodes, r.nodes);
}

#[test]
fn search_reports_read_and_write_json() {
    let g = open("chess", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    let r = search(&*g, Limits::depth(2));
    let json = serde_json::to_string(&r).unwrap();
    assert!(json.contains(r#""best":"a1a8""#), "{json}");
    assert!(json.contains(r#""score":{"mate":1}"#), "{json}");
    assert!(json.contains(r#""pv_human":["Ra8#"]"#), "{json}");
    let back: SearchReport = serde_json::from_str(&json).unwrap();
    assert_eq!(back.best, r.best);
    assert_eq!(back.info.score, Score::WinIn(1));
    assert_eq!(back.info.pv, r.info.pv);
    let cp = serde_json::to_value(Score::Cp(-25)).unwrap();
    assert_eq!(cp, serde_json::json!({"cp": -25}));
}

#[test]
fn one_engine_serves_every_variant_and_forgets_on_request() {
    let mut engine = Engine::new(1);
    for v in [
        "chess",
        "vyrt",
        "cypher",
        "little-cheops",
        "little-cheops-imperial",
    ] {
        let g = find(v).unwrap().open(None, &RuleOptions::new()).unwrap();
        let r = engine.search(&*g, &Limits::depth(1), None, &mut |_| {});
        assert_legal(&*g, &r);
        assert!(engine.material(&*g).is_ok());
    }
    engine.new_game();
    assert_eq!(engine.hash_mb(), 1);
}

/// Little Cheops R36: at a repetition with an abdication available the rules offer only the
/// abdication or the draw, and the engine answers with one of them (it once searched the
/// board's ordinary moves and played one, which the game refused as illegal).
#[test]
fn a_repetition_choice_is_answered_with_one_of_its_choices() {
    let fen = "12k/13/13/13/5t7/13/13/13/13/13/13/13/K11D w - - 0 1 -";
    let mut g = open("little-cheops-imperial", fen);
    for mv in ["a1a2", "m13l13", "a2a1", "l13m13"].repeat(2) {
        g.push(mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
    }
    assert_eq!(g.legal_moves(), ["a1->m1", "draw"]);
    for limits in [Limits::depth(1), Limits::depth(5), Limits::nodes(3_000)] {
        let r = search(&*g, limits);
        assert_legal(&*g, &r);
        let best = r.best.clone().unwrap_or_default();
        let mut next = g.fork();
        next.push(&best).expect("the engine's choice is playable");
        if best == "draw" {
            assert!(r
                .note
                .as_deref()
                .is_some_and(|n| n.contains("the draw is taken")));
            assert!(next.outcome().is_some_and(|o| o.winner.is_none()));
        } else {
            assert_eq!(next.outcome(), None);
        }
    }
    // One ply earlier nothing repeats yet: every ordinary move may be searched.
    g.pop();
    let r = search(&*g, Limits::depth(3));
    assert_legal(&*g, &r);
}
