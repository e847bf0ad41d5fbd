//! Perft for a Little Cheops variant: `cargo run --release -p menagerie-cheops --example perft
//! -- <variant> [<fen>|start] <depth> [--divide]`. Prints each depth's count, the time and
//! the leaves per second.

use menagerie_cheops::{CheopsPosition, Style};
use menagerie_core::Position;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 2 {
        eprintln!(
            "usage: perft <little-cheops|little-cheops-imperial> [<fen>|start] <depth> [--divide]"
        );
        std::process::exit(2);
    }
    let style = match args[0].as_str() {
        "little-cheops" | "common" => Style::Common,
        "little-cheops-imperial" | "imperial" => Style::Imperial,
        other => {
            eprintln!("unknown variant '{other}'");
            std::process::exit(2);
        }
    };
    let divide = args.iter().any(|a| a == "--divide");
    let rest: Vec<&String> = args[1..].iter().filter(|a| *a != "--divide").collect();
    let (fen, depth_text) = match rest.as_slice() {
        [d] => (None, d.as_str()),
        [f, d] => (Some(f.as_str()), d.as_str()),
        _ => {
            eprintln!("give a FEN (or 'start') and a depth");
            std::process::exit(2);
        }
    };
    let pos = match fen {
        None | Some("start") => CheopsPosition::start(style),
        Some(f) => match CheopsPosition::from_fen(style, f) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("{e}");
                std::process::exit(2);
            }
        },
    };
    let Ok(depth) = depth_text.parse::<u32>() else {
        eprintln!("'{depth_text}' is not a depth");
        std::process::exit(2);
    };
    if divide {
        for (mv, n) in menagerie_core::perft::divide(&pos, depth.saturating_sub(1)) {
            println!("{mv} {n}");
        }
    }
    for d in 1..=depth {
        let t = Instant::now();
        let n = pos.perft(d);
        let secs = t.elapsed().as_secs_f64();
        println!(
            "perft {d}: {n}  ({secs:.3} s, {:.0} leaves/s)",
            n as f64 / secs.max(1e-9)
        );
    }
}
