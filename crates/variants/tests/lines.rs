//! MultiPV, threads and levels through the `Engine` object.

use menagerie_core::RuleOptions;
use menagerie_variants::{find, level_limits, Engine, Limits, Score, SearchInfo};

fn lines(fen: &str, limits: Limits) -> (Vec<SearchInfo>, Option<String>) {
    let g = find("chess")
        .unwrap()
        .open(Some(fen), &RuleOptions::new())
        .unwrap();
    let mut seen = Vec::new();
    let r = Engine::new(1).search(&*g, &limits, None, &mut |it| seen.push(it.clone()));
    (seen, r.best_human)
}

/// Three mates in one (Ra8#, Qd8#, Re8#) and nothing else: the three lines are the three
/// mates, the fourth is an ordinary score, and every depth reports four lines in order.
#[test]
fn multipv_lists_the_three_mates_in_one_first() {
    let limits = Limits {
        depth: Some(2),
        multipv: Some(4),
        ..Limits::default()
    };
    let (seen, best) = lines("6k1/5ppp/8/8/8/8/8/R2QR1K1 w - - 0 1", limits);
    assert_eq!(seen.len(), 8);
    let order: Vec<(u32, u32)> = seen.iter().map(|l| (l.depth, l.multipv)).collect();
    assert_eq!(
        order,
        vec![
            (1, 1),
            (1, 2),
            (1, 3),
            (1, 4),
            (2, 1),
            (2, 2),
            (2, 3),
            (2, 4)
        ]
    );
    let last = &seen[4..];
    let mut mates: Vec<&str> = last[..3].iter().map(|l| l.pv_human[0].as_str()).collect();
    mates.sort();
    assert_eq!(mates, vec!["Qd8#", "Ra8#", "Re8#"]);
    assert!(last[..3].iter().all(|l| l.score == Score::WinIn(1)));
    assert!(matches!(last[3].score, Score::Cp(_)));
    assert!(best.is_some_and(|b| mates.contains(&b.as_str())));
}

/// King h1, pawn a2 against a lone King: exactly five legal moves, so eight lines asked
/// give five, one per move.
#[test]
fn multipv_gives_no_more_lines_than_legal_moves() {
    let limits = Limits {
        depth: Some(3),
        multipv: Some(8),
        ..Limits::default()
    };
    let (seen, _) = lines("k7/8/8/8/8/8/P7/7K w - - 0 1", limits);
    let last: Vec<&SearchInfo> = seen.iter().filter(|l| l.depth == 3).collect();
    assert_eq!(last.len(), 5);
    let mut first: Vec<&str> = last.iter().map(|l| l.pv[0].as_str()).collect();
    first.sort();
    assert_eq!(first, vec!["a2a3", "a2a4", "h1g1", "h1g2", "h1h2"]);
    let ks: Vec<u32> = last.iter().map(|l| l.multipv).collect();
    assert_eq!(ks, vec![1, 2, 3, 4, 5]);
    // Best first.
    assert!(last
        .windows(2)
        .all(|w| w[0].score.raw() >= w[1].score.raw()));
}

/// Two threads find the same mate and report every thread's nodes.
#[test]
fn two_threads_search_together() {
    let limits = Limits {
        depth: Some(5),
        threads: Some(2),
        ..Limits::default()
    };
    let (seen, best) = lines("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", limits);
    assert_eq!(best.as_deref(), Some("Ra8#"));
    assert!(seen.iter().all(|l| l.multipv == 1));
    let (seen, best) = lines(
        "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
        limits,
    );
    assert!(best.is_some());
    assert_eq!(seen.last().map(|l| l.depth), Some(5));
    let nodes = Limits {
        depth: None,
        nodes: Some(20_000),
        threads: Some(2),
        ..Limits::default()
    };
    let g = find("chess")
        .unwrap()
        .open(None, &RuleOptions::new())
        .unwrap();
    let r = Engine::new(1).search(&*g, &nodes, None, &mut |_| {});
    // The node limit counts every thread's nodes, checked every 256 nodes of the main
    // thread: approximate (a helper runs on until told to stop), but it ends the search.
    assert!(r.best.is_some() && r.nodes >= 20_000, "{}", r.nodes);
}

/// A weakened level never lets a forced win go: the second-best move is only ever played
/// when both are ordinary scores within the margin.
#[test]
fn every_level_plays_a_mate_in_one() {
    for level in 1..=8 {
        let (_, best) = lines(
            "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",
            level_limits("chess", level).unwrap(),
        );
        assert_eq!(best.as_deref(), Some("Ra8#"), "level {level}");
    }
}

/// With two threads and no fixed depth, the main thread may take over a helper's deeper
/// iteration: every reported line is then still legal from the root, the depths rise, and
/// the move played is the last line's first move.
#[test]
fn lines_taken_from_a_helper_are_legal_and_in_order() {
    let fens = [
        "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R w KQ - 0 8",
    ];
    for fen in fens {
        let limits = Limits {
            nodes: Some(400_000),
            threads: Some(2),
            ..Limits::default()
        };
        let g = find("chess")
            .unwrap()
            .open(Some(fen), &RuleOptions::new())
            .unwrap();
        let mut seen: Vec<SearchInfo> = Vec::new();
        let r = Engine::new(4).search(&*g, &limits, None, &mut |it| seen.push(it.clone()));
        assert!(!seen.is_empty(), "{fen}");
        assert!(seen.windows(2).all(|w| w[0].depth < w[1].depth), "{fen}");
        for line in &seen {
            let mut replay = g.fork();
            for mv in &line.pv {
                assert!(replay.push(mv).is_ok(), "{fen}: {mv} in {:?}", line.pv);
            }
        }
        let last = seen.last().map(|l| l.pv[0].clone());
        assert_eq!(r.best, last, "{fen}");
    }
}
