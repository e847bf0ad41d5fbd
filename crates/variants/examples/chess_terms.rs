//! Shows what the chess evaluation's terms make of positions.
//!
//! `chess_terms FEN...` prints each group of weights' share of the evaluation (White's
//! view, tapered by phase) and the counts behind it; `chess_terms --worst N DATA` lists the
//! N positions of a `FEN;score` file whose evaluation is furthest from the score (in
//! winning chances); `chess_terms --buckets DATA` counts the positions in each bucket of
//! the King-danger table.

use menagerie_chess::Chess;
use menagerie_core::Color;
use menagerie_variants::eval::chess::terms::{
    terms, white_score, Sink, COUNT, DANGER_BUCKETS, KING_DANGER, LAYOUT,
};
use menagerie_variants::eval::chess::tune::win_chance;
use menagerie_variants::eval::chess::weights::WEIGHTS;
use std::process::ExitCode;

/// Every term's count (White's minus Black's).
struct Counts([i32; COUNT]);

impl Sink for Counts {
    fn add(&mut self, param: usize, count: i32) {
        self.0[param] += count;
    }
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("chess_terms: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The positions and White's scores of a `FEN;score` file (scores from the side to move's
/// view in the file); lines that do not read are skipped.
fn read_data(path: &str) -> Result<Vec<(Chess, String, i32)>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    Ok(text
        .lines()
        .filter_map(|line| {
            let (fen, score) = line.rsplit_once(';')?;
            let pos = Chess::from_fen(fen.trim()).ok()?;
            let score: i32 = score.trim().parse().ok()?;
            let white = if pos.side() == Color::White {
                score
            } else {
                -score
            };
            Some((pos, fen.trim().to_string(), white))
        })
        .collect())
}

fn run() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("--worst") => {
            let (Some(n), Some(path)) = (args.get(1), args.get(2)) else {
                return Err("--worst takes a count and a data file".into());
            };
            let n: usize = n.parse().map_err(|_| "--worst takes a whole number")?;
            let mut rows: Vec<(f64, i32, i32, String)> = read_data(path)?
                .into_iter()
                .map(|(pos, fen, sf)| {
                    let ours = white_score(&pos);
                    let err = win_chance(f64::from(ours)) - win_chance(f64::from(sf));
                    (err, ours, sf, fen)
                })
                .collect();
            rows.sort_by(|a, b| b.0.abs().total_cmp(&a.0.abs()));
            for (err, ours, sf, fen) in rows.iter().take(n) {
                println!("{err:+.3} ours {ours:+} score {sf:+} {fen}");
            }
        }
        Some("--buckets") => {
            let path = args.get(1).ok_or("--buckets takes a data file")?;
            let mut counts = [0u32; DANGER_BUCKETS];
            for (pos, _, _) in read_data(path)? {
                let mut c = Counts([0; COUNT]);
                terms(&pos, &mut c);
                for (b, n) in counts.iter_mut().enumerate() {
                    *n += c.0[KING_DANGER + b].unsigned_abs();
                }
            }
            println!("{counts:?}");
        }
        _ => {
            for fen in &args {
                let pos = Chess::from_fen(fen).map_err(|e| format!("the FEN {fen:?}: {e}"))?;
                show(&pos, fen);
            }
        }
    }
    Ok(())
}

/// Prints each group's share of `pos`'s evaluation and its non-zero counts.
fn show(pos: &Chess, fen: &str) {
    let mut c = Counts([0; COUNT]);
    let phase = terms(pos, &mut c);
    println!("{fen}  phase {phase}");
    for &(name, first, len) in LAYOUT.iter().filter(|l| l.2 > 0) {
        let (mut mg, mut eg) = (0, 0);
        let mut nonzero = Vec::new();
        let group = c.0[first..first + len]
            .iter()
            .zip(&WEIGHTS[first..first + len]);
        for (k, (&n, &(wm, we))) in group.enumerate() {
            if n != 0 {
                mg += n * wm;
                eg += n * we;
                // The square tables' counts are too many to list.
                if len <= 32 {
                    nonzero.push(format!("[{k}]{n}"));
                }
            }
        }
        if mg != 0 || eg != 0 {
            let share = f64::from(mg * phase + eg * (24 - phase)) / 24.0;
            println!(
                "  {name:18} {share:8.1}  (mg {mg}, eg {eg}) {}",
                nonzero.join(" ")
            );
        }
    }
    println!("  total {}", white_score(pos));
}
