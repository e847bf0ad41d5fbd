//! Search limits on the command line: out-of-range limits are refused in one sentence, and
//! the positions that used to hang answer within their limit (issue 14 items 0 and 8).

mod common;
use common::{menagerie, stderr, stdout};
use std::time::{Duration, Instant};

#[test]
fn limits_that_would_never_end_are_refused() {
    for (args, says) in [
        (
            &["bestmove", "chess", "--movetime", "18446744073709551615"][..],
            "movetime 18446744073709551615 is not in 1..=86400000 milliseconds",
        ),
        (
            &["bestmove", "chess", "--movetime", "4000000000"],
            "movetime 4000000000 is not in 1..=86400000 milliseconds",
        ),
        (
            &["bestmove", "chess", "--nodes", "18446744073709551615"],
            "nodes 18446744073709551615 is not in 1..=1000000000000",
        ),
        (
            &["analyse", "chess", "--movetime", "0"],
            "movetime 0 is not in 1..=86400000 milliseconds",
        ),
        (
            &["bestmove", "chess", "--depth", "65"],
            "depth 65 is not in 1..=64 plies",
        ),
        (
            &["bestmove", "chess", "--depth", "99999999999"],
            "depth 99999999999 is not in 1..=64 plies",
        ),
    ] {
        let o = menagerie(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        let err = stderr(&o);
        assert_eq!(err.trim().lines().count(), 1, "{err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

#[test]
fn pawn_walls_answer_within_the_time_limit() {
    for fen in [
        "12/12/1pr1bqkb1rp1/2pppp1pppp1/2n9/1p4p5/1P4P5/1pppppppppp1/2PPPPKPPPP1/1PRNBQ1BNRP1/1PPPPPPPPPP1/7n4 w kq L6 - 0 6",
        "12/12/5qk5/1pppppppppp1/1PPPPPPPPPP1/5QK5/12/12/12/12/12/12 w - - - 0 1",
    ] {
        let t = Instant::now();
        let o = menagerie(&["bestmove", "vyrt", "--fen", fen, "--movetime", "100"]);
        // 100 ms asked; generous, as the machine may be busy and the process must start.
        assert!(t.elapsed() < Duration::from_millis(2000), "{:?}", t.elapsed());
        assert!(o.status.success(), "{}", stderr(&o));
        let mv = stdout(&o);
        assert!(mv.trim().contains('-'), "{mv}");
    }
}

#[test]
fn imperial_analysis_says_why_its_move_is_not_the_last_lines() {
    // Black cannot know which of White's Civilians on g5 and h5, if any, is a Deputy.
    let fen = "k12/13/2c1c8/3K9/2t1t8/13/5n7/9b3/6CC5/13/13/13/13 b d10:w@d10 - 1 1 g5";
    let o = menagerie(&[
        "analyse",
        "little-cheops-imperial",
        "--fen",
        fen,
        "--depth",
        "2",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    let note = lines
        .iter()
        .find(|l| l.starts_with("note "))
        .expect("a note");
    assert!(note.contains("the opponent may hold a secret"), "{note}");
    let line = lines
        .iter()
        .find(|l| l.starts_with("line "))
        .expect("a line");
    let last = lines.last().expect("a best move");
    // `bestmove CANONICAL (HUMAN) score ...`: the line shown starts with that move.
    let human = last
        .split(['(', ')'])
        .nth(1)
        .expect("the move in human notation");
    assert!(line.contains(&format!(" pv {human}")), "{line} / {last}");
}
