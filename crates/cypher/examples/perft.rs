//! Perft for a position string and depth, with the time: `perft [FEN] [DEPTH]`.
//! A FEN of `start` (or none) means the start position.

use menagerie_core::Position;
use menagerie_cypher::{CypherPosition, START_FEN};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (fen, depth) = match args.as_slice() {
        [] => (START_FEN.to_string(), 4),
        [d] if d.parse::<u32>().is_ok() => (START_FEN.to_string(), d.parse().unwrap_or(4)),
        [f] => (f.clone(), 4),
        [f, d, ..] => (f.clone(), d.parse().unwrap_or(4)),
    };
    let fen = if fen == "start" {
        START_FEN.to_string()
    } else {
        fen
    };
    let pos = match CypherPosition::from_fen_default(&fen) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    for d in 1..=depth {
        let t = Instant::now();
        let n = pos.perft(d);
        let s = t.elapsed().as_secs_f64();
        println!(
            "perft {d}: {n} leaves in {s:.3} s ({:.2} M leaves/s)",
            n as f64 / s.max(1e-9) / 1e6
        );
    }
}
