//! Piece values from the networks' self-play data (issue 34, item 3): reads the files of
//! `variant_nets generate` (`game;position;score;result;terms`, one searched position a
//! line, the score, result and terms from the mover's view) and estimates each piece's value
//! the way a study does ([`menagerie_lab::report::piece_values`]: a logistic regression of
//! the game's result on the two sides' piece counts, scaled by the engine's material slope,
//! with a game-clustered 95 % interval), on many more games than a study plays. Beside it,
//! the least-squares shift of each piece that the deeper search's scores ask of the terms
//! (the network's label minus the terms, on the count differences): what the data says the
//! hand-written values miss.
//!
//! ```sh
//! cargo run --release -p menagerie-lab --example selfplay_values -- little-cheops \
//!     little-cheops-1.txt [more files of the same variant]
//! ```

use menagerie_core::{Color, RuleOptions};
use menagerie_lab::report::piece_values;
use menagerie_lab::run::{piece_counts, GameData, SAMPLE_EVERY};
use menagerie_lab::stats;
use menagerie_variants::find;
use std::collections::{BTreeMap, BTreeSet};

/// One searched position of a game: (white material, white-minus-black counts, the label's
/// shift over the terms from White's view).
type Sample = (i32, BTreeMap<char, i32>, f64);

fn main() {
    if let Err(e) = run() {
        eprintln!("{e}");
        std::process::exit(1);
    }
}

fn run() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (id, files) = args
        .split_first()
        .ok_or("usage: selfplay_values VARIANT FILE...")?;
    let variant = find(id).map_err(|e| e.to_string())?;
    let eval = variant.evaluation();
    let options = RuleOptions::new();
    // Games in file order: (white's score, samples).
    let mut games: Vec<(String, f64, Vec<Sample>)> = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(f).map_err(|e| format!("{f} does not read: {e}"))?;
        for (n, line) in text.lines().enumerate() {
            let fields: Vec<&str> = line.split(';').collect();
            let [gid, fen, score, result, terms] = fields[..] else {
                return Err(format!(
                    "{f}:{}: not game;position;score;result;terms",
                    n + 1
                ));
            };
            let num = |s: &str| {
                s.parse::<f64>()
                    .map_err(|_| format!("{f}:{}: '{s}' is not a number", n + 1))
            };
            let (score, result, terms) = (num(score)?, num(result)?, num(terms)?);
            let g = variant
                .open(Some(fen), &options)
                .map_err(|e| format!("{f}:{}: {e}", n + 1))?;
            let white = g.turn() == Color::White;
            let m = eval.material(g.as_ref());
            let (m, shift, white_result) = if white {
                (m, score - terms, result)
            } else {
                (-m, terms - score, 1.0 - result)
            };
            let key = format!("{f}#{gid}");
            if games.last().is_none_or(|(k, _, _)| *k != key) {
                games.push((key, white_result, Vec::new()));
            }
            if let Some(last) = games.last_mut() {
                last.2.push((m, piece_counts(g.as_ref()), shift));
            }
        }
    }
    let data: Vec<GameData> = games
        .iter()
        .enumerate()
        .map(|(i, (_, w, samples))| GameData {
            set: 0,
            index: i as u32,
            seed: 0,
            opening: Vec::new(),
            result: String::new(),
            termination: String::new(),
            white_points: *w,
            black_points: 1.0 - *w,
            plies: samples.len(),
            material: Vec::new(),
            mobility: Vec::new(),
            samples: samples
                .iter()
                .enumerate()
                .filter(|(k, _)| k % SAMPLE_EVERY == 0)
                .map(|(k, (m, c, _))| (k, *m, c.clone()))
                .collect(),
            record: String::new(),
            fallbacks: 0,
        })
        .collect();
    let refs: Vec<&GameData> = data.iter().collect();
    let (values, slope) = piece_values(&refs);
    // The labels' shift: least squares of (label - terms) on the count differences.
    let kinds: Vec<char> = games
        .iter()
        .flat_map(|(_, _, s)| s.iter().flat_map(|(_, c, _)| c.keys().copied()))
        .collect::<BTreeSet<char>>()
        .into_iter()
        .collect();
    let (mut x, mut y) = (Vec::new(), Vec::new());
    for (_, _, samples) in &games {
        for (_, c, shift) in samples {
            let mut row: Vec<f64> = kinds
                .iter()
                .map(|k| f64::from(*c.get(k).unwrap_or(&0)))
                .collect();
            row.push(1.0);
            x.push(row);
            y.push(*shift);
        }
    }
    let shifts = stats::least_squares(&x, &y, 1.0).unwrap_or_default();
    let positions: usize = games.iter().map(|g| g.2.len()).sum();
    println!(
        "{id}: {} games, {positions} positions; material slope {}",
        games.len(),
        slope.map_or("none".to_string(), |s| format!(
            "{:.3} [{:.3}, {:.3}] log-odds per 100 cp",
            s.value, s.lo, s.hi
        ))
    );
    println!("piece | engine | from results [95 %] | unequal games | label - terms shift | note");
    for v in &values {
        let shift = kinds
            .iter()
            .position(|&k| k == v.piece)
            .and_then(|i| shifts.get(i))
            .map_or("-".to_string(), |s| format!("{s:+.0}"));
        println!(
            "{} | {} | {} | {} | {} | {}",
            v.piece,
            v.engine.map_or("-".to_string(), |e| format!("{e:.0}")),
            v.estimated.as_ref().map_or("-".to_string(), |e| format!(
                "{:.0} [{:.0}, {:.0}]",
                e.value, e.lo, e.hi
            )),
            v.unequal_games,
            shift,
            v.note.as_deref().unwrap_or("")
        );
    }
    Ok(())
}
