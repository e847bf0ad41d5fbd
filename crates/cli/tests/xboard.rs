//! `menagerie xboard` driven through pipes, with XBoard's exact replies.

mod common;
use common::run_ok;

/// Runs `menagerie xboard` with `args` on `input` and returns stdout.
fn xboard(args: &[&str], input: &str) -> String {
    let mut all = vec!["xboard"];
    all.extend_from_slice(args);
    run_ok(&all, input)
}

const FEATURES: &str = "feature myname=\"Menagerie\" \
variants=\"normal,vyrt,cypher,little-cheops,little-cheops-imperial\" setboard=1 usermove=1 \
san=0 sigint=0 sigterm=0 ping=1 colors=0 analyze=1 playother=1 time=1 draw=0 reuse=1 smp=1 done=1\n";

const VYRT_SETUP: &str = "setup (PNBRQ................Kpnbrq................k) 12x12+0_fairy \
12/1pppppppppp1/1prnbqkbnrp1/1pppppppppp1/12/12/12/12/1PPPPPPPPPP1/1PRNBQKBNRP1/1PPPPPPPPPP1/12 \
w - - 0 1\n";

#[test]
fn handshake_announces_every_variant() {
    let out = xboard(&[], "xboard\nprotover 2\nping 1\nquit\n");
    assert_eq!(out, format!("{FEATURES}pong 1\n"));
}

#[test]
fn variant_boards_are_set_up_with_size_and_letters() {
    let out = xboard(&[], "xboard\nnew\nvariant vyrt\nvariant cypher\nvariant little-cheops\nvariant little-cheops-imperial\nvariant nope\nquit\n");
    let expected = format!(
        "{VYRT_SETUP}\
setup (PNBRQ..............S.Kpnbrq..............s.k) 10x11+0_fairy \
4s5/2rn2nr2/3bqkb3/1pppppppp1/10/10/10/1PPPPPPPP1/3BQKB3/2RN2NR2/4S5 w - - 0 1\n\
setup (PN.TQ.E.C....I.......Kpn.tq.e.c....i.......k) 9x9+0_fairy \
tnnqkeiit/ppppppppp/9/2c3c2/9/2C3C2/9/PPPPPPPPP/TIIEKQNNT w - - 0 1\n\
setup (PNBTQ.EAC.MO.I..D...UKpnbtq.eac.mo.i..d...uk) 13x13+0_fairy \
tnnouqkedbiit/ppppppppppppp/2m1a3a1m2/3c5c3/13/13/13/13/13/3C5C3/2M1A3A1M2/PPPPPPPPPPPPP/TIIBDEKQUONNT w - - 0 1\n\
Error (unknown variant): nope\n"
    );
    assert_eq!(out, expected);
}

#[test]
fn moves_are_translated_and_illegal_ones_get_the_rules_reason() {
    // Vyrt's E2-E4 is g4g6 on XBoard's board (files K L A.., ranks 11 12 1..).
    let out = xboard(
        &[],
        "new\nvariant vyrt\nforce\nusermove g4g6\nusermove g4g6\nundo\nundo\nusermove a1a2\nping 2\nquit\n",
    );
    assert_eq!(
        out,
        format!(
            "{VYRT_SETUP}Illegal move (there is no unit on E2): g4g6\n\
Error (command not legal now): undo\n\
Illegal move (there is no unit on K11): a1a2\npong 2\n"
        )
    );
    // Cypher's d3-d5 is e4e6 (files z a.., ranks 0..10 become a.., 1..11).
    let out = xboard(
        &[],
        "new\nvariant cypher\nforce\nusermove e4e6\nusermove e4e5\nquit\n",
    );
    assert!(
        out.ends_with("Illegal move (there is no man on d3): e4e5\n"),
        "{out}"
    );
}

#[test]
fn the_engine_moves_and_results_name_the_rule() {
    let mate = "setboard 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1\n";
    // The engine mates.
    let out = xboard(&[], &format!("new\n{mate}sd 2\ngo\nping 3\nquit\n"));
    assert_eq!(out, "move a1a8\n1-0 {White wins by checkmate}\npong 3\n");
    // The user mates: the engine announces it and does not move.
    let out = xboard(&[], &format!("new\n{mate}usermove a1a8\nping 4\nquit\n"));
    assert_eq!(out, "1-0 {White wins by checkmate}\npong 4\n");
    // A bare coordinate move is a move too; a bad position is refused in one sentence.
    let out = xboard(
        &["--variant", "little-cheops"],
        "force\nsetboard xx w 0 1\nfoo\nquit\n",
    );
    assert_eq!(
        out,
        "tellusererror Illegal position: invalid position string: board: expected 9 rows, found 1\n\
Error (unknown command): foo\n"
    );
}

#[test]
fn setboard_takes_xboards_fen_for_variant_boards() {
    let fen = "12/1pppppppppp1/1prnbqkbnrp1/1pppppppppp1/12/12/12/12/1PPPPPPPPPP1/1PRNBQKBNRP1/1PPPPPPPPPP1/12 w - - 0 1";
    let out = xboard(
        &[],
        &format!("new\nvariant vyrt\nforce\nsetboard {fen}\nusermove g4g6\nping 1\nquit\n"),
    );
    assert_eq!(out, format!("{VYRT_SETUP}pong 1\n"));
}

#[test]
fn engine_moves_in_every_variant_are_coordinates() {
    for v in ["vyrt", "cypher", "little-cheops", "little-cheops-imperial"] {
        let out = xboard(&[], &format!("new\nvariant {v}\nsd 1\ngo\nping 1\nquit\n"));
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 3, "{v}: {out}");
        let mv = lines[1].strip_prefix("move ").unwrap_or_default();
        let ok = mv.len() >= 4
            && mv.chars().next().is_some_and(|c| c.is_ascii_lowercase())
            && mv.chars().all(|c| c.is_ascii_alphanumeric());
        assert!(ok, "{v}: {out}");
        assert_eq!(lines[2], "pong 1");
    }
}

/// Commands sent during analysis or an endless search stop it first, errors are refused
/// with `Error (...)` and the session goes on, and `quit` always ends it.
#[test]
fn stray_commands_never_hang_or_end_the_session() {
    let out = xboard(
        &[],
        "xboard\nanalyze\nsd 2\nnew\nfrobnicate\nanalyze\nusermove e2e4\nundo\nexit\nping 7\nquit\n",
    );
    assert!(out.contains("Error (unknown command): frobnicate"), "{out}");
    assert!(out.trim_end().ends_with("pong 7"), "{out}");
    // A search with no clock at all is still ended by quit.
    let out = xboard(&[], "xboard\nst 99999999999\ngo\nquit\n");
    assert!(!out.contains("move "), "{out}");
}

#[test]
fn uci_quit_and_stray_commands_end_an_infinite_search() {
    let out = common::with_input(
        &["uci"],
        "uci\ngo infinite\nposition startpos moves e2e4\ngo depth 1\nquit\n",
    );
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(text.matches("bestmove ").count(), 2, "{text}");
}

/// Lines held behind a move being chosen are still read once analysis starts, so a `quit`
/// queued behind `analyze` ends the session.
#[test]
fn held_lines_reach_a_later_analysis() {
    let out = xboard(&[], "xboard\nsd 1\ngo\nfrobnicate\nanalyze\nping 9\nquit\n");
    assert!(out.starts_with("move "), "{out}");
    assert!(out.contains("Error (unknown command): frobnicate"), "{out}");
    assert!(out.contains("pong 9"), "{out}");
}

/// The end of input lets a move with a clock of days run only a few seconds, then plays
/// the best found so far (as `?` would): the session ends by itself and the move is not lost.
#[test]
fn end_of_input_plays_a_long_move_at_once() {
    let start = std::time::Instant::now();
    let out = xboard(&[], "xboard\nnew\nst 4294967295\ne2e4\n");
    assert_eq!(out.matches("move ").count(), 1, "{out}");
    assert!(
        start.elapsed() < std::time::Duration::from_secs(25),
        "{:?}",
        start.elapsed()
    );
}
