//! Plays a long random game of a variant through the library (quiet turns preferred, so the
//! game lasts) and prints it as a record, with the time taken to replay it turn by turn:
//! `cargo run --release -p menagerie-variants --example long_game -- VARIANT PLIES [SEED]`;
//! `-- --replay VARIANT FILE` replays the record in FILE (canonical turns) ten times and
//! prints the time of one replay.

use menagerie_core::RuleOptions;
use std::time::Instant;

fn replay(variant: &str, file: &str) -> Result<(), String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("{file}: {e}"))?;
    // The record this example writes: tags, then move numbers and turns (spaces as `_`).
    let turns: Vec<String> = text
        .lines()
        .filter(|l| !l.starts_with('['))
        .flat_map(str::split_whitespace)
        .filter(|w| !w.ends_with('.') && *w != "*")
        .map(|w| w.replace('_', " "))
        .collect();
    let v = menagerie_variants::find(variant).map_err(|e| e.to_string())?;
    let started = Instant::now();
    for _ in 0..10 {
        let mut game = v
            .open(None, &RuleOptions::new())
            .map_err(|e| e.to_string())?;
        for t in &turns {
            game.push(t).map_err(|e| e.to_string())?;
        }
    }
    eprintln!(
        "{} plies replayed in {:.3} s (mean of 10)",
        turns.len(),
        started.elapsed().as_secs_f64() / 10.0
    );
    Ok(())
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some("--replay") {
        return replay(
            args.get(2).map_or("little-cheops-imperial", String::as_str),
            args.get(3).map_or("", String::as_str),
        );
    }
    let variant = args.get(1).map_or("little-cheops-imperial", String::as_str);
    let plies: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(4000);
    let mut seed: u64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(1);
    let v = menagerie_variants::find(variant).map_err(|e| e.to_string())?;
    let mut next = || {
        // xorshift64*: a fixed, dependency-free stream.
        seed ^= seed >> 12;
        seed ^= seed << 25;
        seed ^= seed >> 27;
        seed.wrapping_mul(0x2545_f491_4f6c_dd1d)
    };
    let started = Instant::now();
    let mut game = v
        .open(None, &RuleOptions::new())
        .map_err(|e| e.to_string())?;
    while game.ply() < plies {
        let moves = game.legal_moves();
        if moves.is_empty() || game.outcome().is_some() {
            break;
        }
        let quiet: Vec<&String> = moves.iter().filter(|m| !m.contains('x')).collect();
        let pick = if !quiet.is_empty() && next() % 20 != 0 {
            quiet[(next() % quiet.len() as u64) as usize].clone()
        } else {
            moves[(next() % moves.len() as u64) as usize].clone()
        };
        let mut trial = game.fork();
        trial.push(&pick).map_err(|e| e.to_string())?;
        if trial.outcome().is_some() && game.ply() + 1 < plies {
            continue;
        }
        game.push(&pick).map_err(|e| e.to_string())?;
    }
    let played = started.elapsed();
    let texts = game.history_canonical();
    let replay = Instant::now();
    let mut again = v
        .open(None, &RuleOptions::new())
        .map_err(|e| e.to_string())?;
    for t in &texts {
        again.push(t).map_err(|e| e.to_string())?;
    }
    let replayed = replay.elapsed();
    eprintln!(
        "{} plies generated in {:.2} s, replayed in {:.3} s",
        texts.len(),
        played.as_secs_f64(),
        replayed.as_secs_f64()
    );
    println!("[Variant \"{variant}\"]\n");
    let mut line = String::new();
    for (i, t) in texts.iter().enumerate() {
        if i % 2 == 0 {
            line.push_str(&format!("{}. ", i / 2 + 1));
        }
        line.push_str(&t.replace(' ', "_"));
        line.push(' ');
        if line.len() > 70 {
            println!("{}", line.trim_end());
            line.clear();
        }
    }
    println!("{}*", line);
    Ok(())
}
