//! The fuzz targets on the stable toolchain: each replays its committed seeds under
//! `fuzz/seeds/<target>/`, then a few thousand fresh mutations of them from a seed printed
//! at the start (set `MENAGERIE_FUZZ_SEED` to replay a run, `MENAGERIE_FUZZ_MUTATIONS` to
//! change how many). A failing input is printed and written under `target/fuzz-failures/`.

use menagerie_robustness::checks;
use menagerie_robustness::mutate::{mutate, run_seed, Rng};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::time::{Duration, Instant};

fn seeds_dir(target: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../fuzz/seeds")
        .join(target)
}

fn seeds(target: &str) -> Vec<Vec<u8>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(seeds_dir(target))
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    files.sort();
    files.iter().filter_map(|p| std::fs::read(p).ok()).collect()
}

fn mutations(default: usize) -> usize {
    std::env::var("MENAGERIE_FUZZ_MUTATIONS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

/// Runs `check` on `input`; on a panic, prints and saves the input, then fails.
fn run_one(target: &str, check: fn(&[u8]), input: &[u8], seed: u64) {
    if let Err(panic) = catch_unwind(AssertUnwindSafe(|| check(input))) {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/fuzz-failures");
        let _ = std::fs::create_dir_all(&dir);
        let file = dir.join(format!("{target}-{seed}"));
        let _ = std::fs::write(&file, input);
        eprintln!(
            "fuzz target {target} failed (seed {seed}) on {:?}; saved as {}",
            String::from_utf8_lossy(input),
            file.display()
        );
        std::panic::resume_unwind(panic);
    }
}

/// The seeds, then `count` mutations (or until `budget` is spent).
fn replay(target: &str, check: fn(&[u8]), count: usize, budget: Duration) {
    let corpus = seeds(target);
    assert!(
        !corpus.is_empty(),
        "no seeds under {}",
        seeds_dir(target).display()
    );
    let seed = run_seed();
    eprintln!("{target}: {} seeds, mutation seed {seed}", corpus.len());
    for input in &corpus {
        run_one(target, check, input, seed);
    }
    let mut rng = Rng::new(seed);
    let start = Instant::now();
    let mut done = 0;
    while done < mutations(count) && start.elapsed() < budget {
        let a = &corpus[rng.below(corpus.len())];
        let b = &corpus[rng.below(corpus.len())];
        let input = mutate(&mut rng, a, b);
        run_one(target, check, &input, seed);
        done += 1;
    }
    eprintln!("{target}: {done} mutations in {:?}", start.elapsed());
}

#[test]
fn position_strings() {
    replay("position", checks::position, 2_000, Duration::from_secs(20));
}

#[test]
fn move_texts() {
    replay(
        "move_text",
        checks::move_text,
        3_000,
        Duration::from_secs(10),
    );
}

#[test]
fn piece_tables() {
    replay("pieces", checks::pieces, 1_000, Duration::from_secs(10));
}

#[test]
fn records() {
    replay("record", checks::record, 2_000, Duration::from_secs(10));
}

#[test]
fn uci_sessions() {
    replay("uci", checks::uci, 150, Duration::from_secs(10));
}

#[test]
fn xboard_sessions() {
    replay("xboard", checks::xboard, 150, Duration::from_secs(10));
}

#[test]
fn server_requests() {
    replay("server", checks::server, 300, Duration::from_secs(10));
}
