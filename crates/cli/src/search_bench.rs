//! `menagerie bench --search`: engine search speed in nodes per second for each game, as
//! medians over several runs from fixed positions (a fresh hash table each run).

use menagerie_core::RuleOptions;
use menagerie_play::engine::Engine;
use menagerie_variants::{registry, Limits, VariantError};

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

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
}

/// Runs the search benchmark.
pub fn run(only: &[String], runs: usize, nodes: u64) -> Result<(), VariantError> {
    println!(
        "{:<24} {:>6} {:>10} {:>10} {:>12}  position",
        "variant", "depth", "nodes", "median s", "knodes/s"
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
            for _ in 0..runs {
                let g = v.open(Some(&fen), &RuleOptions::new())?;
                // A fresh engine each run: a fresh hash table.
                let r = Engine::new().search(g.as_ref(), &Limits::nodes(nodes), None, &mut |_| {});
                times.push(r.info.elapsed.as_secs_f64());
                searched = r.info.nodes;
                depth = r.info.depth;
            }
            let secs = median(times);
            println!(
                "{:<24} {:>6} {:>10} {:>10.3} {:>12.0}  {}",
                v.id,
                depth,
                searched,
                secs,
                searched as f64 / secs.max(1e-9) / 1e3,
                fen
            );
        }
    }
    Ok(())
}
