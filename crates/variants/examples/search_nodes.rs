//! One game's search from its start position with a node budget, for profilers (`perf`,
//! `valgrind --tool=callgrind`) without the command-line program's other dependencies:
//! `cargo run --release -p menagerie-variants --example search_nodes -- VARIANT [NODES] [RUNS]
//! [FEN]` (from FEN instead of the start position when given). Prints depth, nodes, seconds
//! and knodes/s per run: the whole search's, then the last completed iteration's (what
//! `menagerie bench --search` reports; with hidden information the two differ), then the
//! best move, score and principal variation (to check that two builds search the same tree).

use menagerie_core::RuleOptions;
use menagerie_variants::{registry, Engine, Limits};
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let id = args.first().map_or("cypher", String::as_str);
    let nodes: u64 = args.get(1).and_then(|n| n.parse().ok()).unwrap_or(300_000);
    let runs: usize = args.get(2).and_then(|n| n.parse().ok()).unwrap_or(1);
    let fen = args.get(3).map(String::as_str);
    let Some(variant) = registry().into_iter().find(|v| v.id == id) else {
        eprintln!("no variant '{id}'");
        return ExitCode::FAILURE;
    };
    for _ in 0..runs {
        let game = match variant.open(fen, &RuleOptions::new()) {
            Ok(g) => g,
            Err(e) => {
                eprintln!("{e}");
                return ExitCode::FAILURE;
            }
        };
        // A fresh engine each run: a fresh hash table.
        let r = Engine::new(16).search(game.as_ref(), &Limits::nodes(nodes), None, &mut |_| {});
        let secs = r.info.elapsed.as_secs_f64();
        let all = r.elapsed.as_secs_f64();
        println!(
            "{} nodes {} {:.3} s {:.0} knodes/s; last iteration: depth {} nodes {} {:.3} s {:.0} knodes/s; best {} score {:?} pv {}",
            id,
            r.nodes,
            all,
            r.nodes as f64 / all.max(1e-9) / 1e3,
            r.info.depth,
            r.info.nodes,
            secs,
            r.info.nodes as f64 / secs.max(1e-9) / 1e3,
            r.best.as_deref().unwrap_or("-"),
            r.info.score,
            r.info.pv.join(" ")
        );
    }
    ExitCode::SUCCESS
}
