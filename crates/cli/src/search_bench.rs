//! `menagerie bench --search`: engine search speed in nodes per second for each game, as
//! medians over several runs from fixed positions (a fresh hash table each run), beside
//! Fairy-Stockfish searching as many nodes in the same run (the same position in chess, its
//! capablanca start for the games it cannot play), the runs interleaved.

use crate::bench::median;
use menagerie_core::RuleOptions;
use menagerie_play::engine::Engine;
use menagerie_variants::{registry, Limits, VariantError};
use std::io::{BufRead, BufReader, Write};

/// Extra positions searched besides each variant's start.
const POSITIONS: &[(&str, &str)] = &[
    (
        "chess",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    ),
    (
        "chess",
        "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R w KQ - 0 8",
    ),
];

/// The rival's search of `nodes` nodes on one thread with a 16 MB hash: (nodes, seconds) by
/// its own last report, so its start-up is not counted.
fn rival_search(
    path: &str,
    variant: &str,
    fen: Option<&str>,
    nodes: u64,
) -> Result<(u64, f64), String> {
    let mut child = crate::bench::spawn_rival(path)?;
    let position = match fen {
        Some(f) => format!("position fen {f}"),
        None => "position startpos".to_string(),
    };
    let script = format!(
        "uci\nsetoption name UCI_Variant value {variant}\nsetoption name Threads value 1\n\
         setoption name Hash value 16\nucinewgame\nisready\n{position}\ngo nodes {nodes}\n"
    );
    let mut stdin = child
        .stdin
        .take()
        .ok_or_else(|| format!("cannot talk to {path}"))?;
    stdin
        .write_all(script.as_bytes())
        .map_err(|e| format!("cannot talk to {path}: {e}"))?;
    let stdout = child
        .stdout
        .take()
        .ok_or_else(|| format!("cannot read {path}"))?;
    let mut last = None;
    for line in BufReader::new(stdout).lines() {
        let line = line.map_err(|e| format!("cannot read {path}: {e}"))?;
        if line.starts_with("bestmove") {
            break;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        let field = |name: &str| {
            words
                .iter()
                .position(|w| *w == name)
                .and_then(|i| words.get(i + 1))
                .and_then(|v| v.parse::<u64>().ok())
        };
        if let (Some(n), Some(ms)) = (field("nodes"), field("time")) {
            last = Some((n, ms));
        }
    }
    // The rival may already have gone; a failed quit changes nothing measured.
    let _ = stdin.write_all(b"quit\n");
    drop(stdin);
    let _ = child.wait();
    let (n, ms) = last.ok_or_else(|| format!("{path} reported no search"))?;
    Ok((n, ms.max(1) as f64 / 1e3))
}

/// Runs the search benchmark, with `rival` (Fairy-Stockfish) in the same run when it exists.
pub fn run(only: &[String], runs: usize, nodes: u64, rival: &str) -> Result<(), VariantError> {
    let rival_ok = std::path::Path::new(rival).exists();
    if !rival_ok {
        eprintln!(
            "note: rival {rival} not found (apt-get install fairy-stockfish); measuring Menagerie alone"
        );
    }
    println!(
        "{:<24} {:>6} {:>10} {:>10} {:>12} | {:>16} {:>10} {:>12} | {:>7}  position",
        "variant",
        "depth",
        "nodes",
        "median s",
        "knodes/s",
        "rival",
        "nodes",
        "knodes/s",
        "speed x"
    );
    for v in registry() {
        if !only.is_empty() && !only.iter().any(|o| o == v.id) {
            continue;
        }
        let mut fens = vec![v.start_fen.to_string()];
        fens.extend(
            POSITIONS
                .iter()
                .filter(|(id, _)| *id == v.id)
                .map(|(_, f)| f.to_string()),
        );
        for fen in fens {
            let mut times = Vec::new();
            let mut searched = 0;
            let mut depth = 0;
            // Fairy-Stockfish plays chess itself; for the others its capablanca start stands in.
            let (rival_variant, rival_fen) = if v.id == "chess" {
                ("chess", Some(fen.as_str()))
            } else {
                ("capablanca", None)
            };
            let mut rival_rates = Vec::new();
            let mut rival_nodes = 0;
            for _ in 0..runs {
                let g = v.open(Some(&fen), &RuleOptions::new())?;
                // A fresh engine each run: a fresh hash table.
                let r = Engine::new().search(g.as_ref(), &Limits::nodes(nodes), None, &mut |_| {});
                times.push(r.info.elapsed.as_secs_f64());
                searched = r.info.nodes;
                depth = r.info.depth;
                if rival_ok {
                    match rival_search(rival, rival_variant, rival_fen, nodes) {
                        Ok((n, s)) => {
                            rival_nodes = n;
                            rival_rates.push(n as f64 / s / 1e3);
                        }
                        Err(e) => eprintln!("note: {e}"),
                    }
                }
            }
            let secs = median(times);
            let rate = searched as f64 / secs.max(1e-9) / 1e3;
            if rival_rates.is_empty() {
                println!(
                    "{:<24} {:>6} {:>10} {:>10.3} {:>12.0} | {:>16} {:>10} {:>12} | {:>7}  {}",
                    v.id, depth, searched, secs, rate, "-", "-", "-", "-", fen
                );
            } else {
                let rival_rate = median(rival_rates);
                println!(
                    "{:<24} {:>6} {:>10} {:>10.3} {:>12.0} | {:>16} {:>10} {:>12.0} | {:>7.2}  {}",
                    v.id,
                    depth,
                    searched,
                    secs,
                    rate,
                    format!("fsf {rival_variant}"),
                    rival_nodes,
                    rival_rate,
                    rate / rival_rate,
                    fen
                );
            }
        }
    }
    Ok(())
}
