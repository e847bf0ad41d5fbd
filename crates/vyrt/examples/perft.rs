//! Perft for a Vyrt position, timed.
//!
//! `cargo run --release -p menagerie-vyrt --example perft -- [DEPTH] [FEN] [--divide] [--rule NAME[=VALUE]]...`
//!
//! DEPTH defaults to 5, FEN to the start position. Prints the leaf count, the time and the
//! rate; `--divide` also prints the count under each first move.

use menagerie_core::options::RuleOptions;
use menagerie_core::perft::divide;
use menagerie_core::Position;
use menagerie_vyrt::{VyrtPosition, START_FEN};
use std::time::Instant;

fn main() {
    let mut depth = 5;
    let mut fen = START_FEN.to_string();
    let mut rules = Vec::new();
    let mut split = false;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        if arg == "--divide" {
            split = true;
        } else if arg == "--rule" {
            rules.push(args.next().unwrap_or_default());
        } else if let Ok(d) = arg.parse() {
            depth = d;
        } else {
            fen = arg;
        }
    }
    let options = match RuleOptions::parse(&rules) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let pos = match VyrtPosition::from_fen_with_options(&fen, &options) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    if split {
        for (mv, n) in divide(&pos, depth) {
            println!("{mv} {n}");
        }
    }
    let start = Instant::now();
    let nodes = pos.perft(depth);
    let secs = start.elapsed().as_secs_f64();
    println!(
        "perft {depth}: {nodes} leaves in {secs:.3} s ({:.2} M leaves/s)",
        nodes as f64 / secs / 1e6
    );
}
