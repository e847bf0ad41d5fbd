//! `menagerie bench`: perft speed of each game against Fairy-Stockfish, measured in the
//! same run and reported as medians and ratios (the machines are noisy).

use menagerie_core::RuleOptions;
use menagerie_variants::{find, VariantError};
use std::io::Write;
use std::process::{Child, Command, Stdio};
use std::time::Instant;

/// Options of `menagerie bench`.
#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// Timed runs per measurement; the median is reported.
    #[arg(long, default_value_t = 3)]
    runs: usize,
    /// The rival engine (Fairy-Stockfish) to measure in the same run.
    #[arg(long, default_value = "/usr/games/fairy-stockfish")]
    rival: String,
    /// Only these variants (default: every case).
    variants: Vec<String>,
    /// Measure engine search speed (nodes/s) instead of perft.
    #[arg(long)]
    search: bool,
    /// Nodes per search in `--search` mode.
    #[arg(long, default_value_t = 1_000_000)]
    search_nodes: u64,
}

/// One benchmark: our perft of a position, and the rival's perft it is compared with.
struct Case {
    variant: &'static str,
    depth: u32,
    rival_variant: &'static str,
    rival_depth: u32,
}

const CASES: &[Case] = &[
    Case {
        variant: "chess",
        depth: 6,
        rival_variant: "chess",
        rival_depth: 6,
    },
    Case {
        variant: "vyrt",
        depth: 5,
        rival_variant: "capablanca",
        rival_depth: 5,
    },
    Case {
        variant: "cypher",
        depth: 5,
        rival_variant: "capablanca",
        rival_depth: 5,
    },
    Case {
        variant: "little-cheops",
        depth: 5,
        rival_variant: "capablanca",
        rival_depth: 5,
    },
    Case {
        variant: "little-cheops-imperial",
        depth: 4,
        rival_variant: "capablanca",
        rival_depth: 5,
    },
];

/// The median of `v` (the upper one of an even count), NaN when empty.
pub(crate) fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
}

/// Starts the rival with piped input and output.
pub(crate) fn spawn_rival(path: &str) -> Result<Child, String> {
    Command::new(path)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot start {path}: {e}"))
}

/// Runs the rival's `go perft`; returns (leaves, seconds).
fn rival_perft(path: &str, variant: &str, depth: u32) -> Result<(u64, f64), String> {
    let start = Instant::now();
    let mut child = spawn_rival(path)?;
    let script = format!(
        "uci\nsetoption name UCI_Variant value {variant}\nposition startpos\ngo perft {depth}\nquit\n"
    );
    if let Some(mut stdin) = child.stdin.take() {
        stdin
            .write_all(script.as_bytes())
            .map_err(|e| format!("cannot talk to {path}: {e}"))?;
    }
    let out = child
        .wait_with_output()
        .map_err(|e| format!("{path} failed: {e}"))?;
    let secs = start.elapsed().as_secs_f64();
    let text = String::from_utf8_lossy(&out.stdout);
    let leaves = text
        .lines()
        .find_map(|l| l.strip_prefix("Nodes searched: "))
        .and_then(|n| n.trim().parse().ok())
        .ok_or_else(|| format!("{path} printed no perft total"))?;
    Ok((leaves, secs))
}

/// Runs the benchmark table.
pub fn run(args: BenchArgs) -> Result<(), VariantError> {
    let runs = args.runs.max(1);
    // An unknown variant is an error here as everywhere.
    for v in &args.variants {
        find(v)?;
    }
    if args.search {
        return crate::search_bench::run(&args.variants, runs, args.search_nodes, &args.rival);
    }
    let rival_ok = std::path::Path::new(&args.rival).exists();
    if !rival_ok {
        eprintln!(
            "note: rival {} not found (apt-get install fairy-stockfish); measuring Menagerie alone",
            args.rival
        );
    }
    println!(
        "{:<24} {:>5} {:>13} {:>9} {:>10} | {:>22} {:>13} {:>9} {:>10} | {:>7}",
        "variant",
        "depth",
        "leaves",
        "median s",
        "Mleaves/s",
        "rival",
        "leaves",
        "median s",
        "Mleaves/s",
        "speed x"
    );
    for case in CASES {
        if !args.variants.is_empty() && !args.variants.iter().any(|v| v == case.variant) {
            continue;
        }
        let Ok(variant) = find(case.variant) else {
            continue;
        };
        let game = variant.open(None, &RuleOptions::new())?;
        let mut ours = Vec::new();
        let mut leaves = 0;
        let mut theirs = Vec::new();
        let mut rival_leaves = 0;
        // Interleave the runs so that both sides see the same machine noise.
        for _ in 0..runs {
            let t = Instant::now();
            leaves = game.perft(case.depth);
            ours.push(t.elapsed().as_secs_f64());
            if rival_ok {
                match rival_perft(&args.rival, case.rival_variant, case.rival_depth) {
                    Ok((n, s)) => {
                        rival_leaves = n;
                        theirs.push(s);
                    }
                    Err(e) => eprintln!("note: {e}"),
                }
            }
        }
        let ours_s = median(ours);
        let ours_rate = leaves as f64 / ours_s / 1e6;
        if theirs.is_empty() {
            println!(
                "{:<24} {:>5} {:>13} {:>9.3} {:>10.1} |",
                case.variant, case.depth, leaves, ours_s, ours_rate
            );
        } else {
            let theirs_s = median(theirs);
            let theirs_rate = rival_leaves as f64 / theirs_s / 1e6;
            println!(
                "{:<24} {:>5} {:>13} {:>9.3} {:>10.1} | {:>22} {:>13} {:>9.3} {:>10.1} | {:>7.2}",
                case.variant,
                case.depth,
                leaves,
                ours_s,
                ours_rate,
                format!("fsf {} perft {}", case.rival_variant, case.rival_depth),
                rival_leaves,
                theirs_s,
                theirs_rate,
                ours_rate / theirs_rate
            );
        }
    }
    Ok(())
}
