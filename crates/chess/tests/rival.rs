//! Perft on random positions against an independent implementation (Fairy-Stockfish).
//!
//! The cross-check needs the rival installed, so it is ignored by a plain `cargo test`
//! (reported as ignored, never as passed); `.ci/run` installs the rival and runs it with
//! `cargo test -p menagerie-chess --test rival -- --ignored`, where a missing rival fails.

use menagerie_chess::Chess;
use menagerie_core::zobrist::KeyGen;
use menagerie_core::Position;
use std::io::Write;
use std::process::{Command, Stdio};

const RIVAL: &str = "/usr/games/fairy-stockfish";

/// Runs `go perft` for each FEN in one rival session; returns the totals in order.
fn rival_perft(fens: &[String], depth: u32) -> Vec<u64> {
    let mut child = Command::new(RIVAL)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("rival starts");
    let mut script = String::from("uci\n");
    for fen in fens {
        script.push_str(&format!("position fen {fen}\ngo perft {depth}\n"));
    }
    script.push_str("quit\n");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(script.as_bytes())
        .expect("write");
    let out = child.wait_with_output().expect("rival ends");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.strip_prefix("Nodes searched: "))
        .map(|n| n.trim().parse().expect("a number"))
        .collect()
}

#[test]
#[ignore = "needs Fairy-Stockfish at /usr/games/fairy-stockfish; .ci/run runs it with --ignored"]
fn random_positions_agree_with_fairy_stockfish() {
    assert!(
        std::path::Path::new(RIVAL).exists(),
        "{RIVAL} is not installed: this cross-check cannot run (install fairy-stockfish)"
    );
    let mut rng = KeyGen::new(2026);
    let mut fens = Vec::new();
    while fens.len() < 300 {
        let mut pos = Chess::start();
        let plies = 4 + rng.next() % 80;
        for _ in 0..plies {
            let mut moves = Vec::new();
            pos.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            // Prefer captures and promotions now and then, to reach sharper positions.
            let noisy: Vec<_> = moves.iter().copied().filter(|&m| pos.is_noisy(m)).collect();
            let pool = if !noisy.is_empty() && rng.next().is_multiple_of(3) {
                &noisy
            } else {
                &moves
            };
            pos.play(pool[(rng.next() as usize) % pool.len()]);
        }
        fens.push(pos.fen());
    }
    let theirs = rival_perft(&fens, 3);
    assert_eq!(theirs.len(), fens.len());
    for (fen, n) in fens.iter().zip(theirs) {
        let ours = Chess::from_fen(fen).expect("own FEN").perft(3);
        assert_eq!(ours, n, "{fen}");
    }
}
