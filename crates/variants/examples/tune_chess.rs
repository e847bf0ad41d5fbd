//! Tunes the chess evaluation's weights on scored positions and writes a new `weights.rs`.
//!
//! `cargo run --release -p menagerie-variants --example tune_chess -- [--epochs N] [--rate R]
//! [--ridge L] [--freeze GROUP,...] [--start WEIGHTS_FILE] [--danger-curve SCALE] [--out FILE]
//! DATA...`, each DATA file holding lines `FEN;score` (centipawns, side to move's
//! view). Every tenth position is held out to measure the loss on positions not tuned on.

use menagerie_variants::eval::chess::terms::{DANGER_BUCKETS, DANGER_STEP, KING_DANGER, LAYOUT};
use menagerie_variants::eval::chess::tune::{loss, parse_line, weights_file, Adam, Sample};
use menagerie_variants::eval::chess::weights::WEIGHTS;
use std::process::ExitCode;

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tune_chess: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The weights of a file written like `weights.rs`: every `(mg, eg)` pair after the
/// table's opening bracket, in order.
fn read_weights(path: &str) -> Result<Vec<[f64; 2]>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    let body = text
        .split_once("= [")
        .ok_or(format!("{path} holds no table of weights"))?
        .1;
    let mut w = Vec::new();
    for pair in body.split('(').skip(1) {
        let inner = pair.split(')').next().unwrap_or("");
        let mut nums = inner.split(',').map(|x| x.trim().parse::<f64>());
        match (nums.next(), nums.next()) {
            (Some(Ok(m)), Some(Ok(e))) => w.push([m, e]),
            _ => return Err(format!("{path}: {inner:?} is not a pair of weights")),
        }
    }
    if w.len() != WEIGHTS.len() {
        return Err(format!(
            "{path} holds {} weights where {} are needed",
            w.len(),
            WEIGHTS.len()
        ));
    }
    Ok(w)
}

fn run() -> Result<(), String> {
    let mut epochs = 400usize;
    let mut rate = 1.0f64;
    let mut ridge = 0.0f64;
    let mut frozen: Vec<String> = Vec::new();
    let mut out = None;
    let mut start_file = None;
    let mut danger_curve = None;
    let mut files = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = |name: &str| args.next().ok_or(format!("{name} needs a value"));
        match a.as_str() {
            "--epochs" => {
                epochs = value("--epochs")?
                    .parse()
                    .map_err(|_| "--epochs takes a whole number".to_string())?
            }
            "--rate" => {
                rate = value("--rate")?
                    .parse()
                    .map_err(|_| "--rate takes a number".to_string())?
            }
            "--ridge" => {
                ridge = value("--ridge")?
                    .parse()
                    .map_err(|_| "--ridge takes a number".to_string())?
            }
            "--freeze" => frozen.extend(value("--freeze")?.split(',').map(str::to_string)),
            "--out" => out = Some(value("--out")?),
            "--start" => start_file = Some(value("--start")?),
            "--danger-curve" => {
                danger_curve = Some(
                    value("--danger-curve")?
                        .parse::<f64>()
                        .map_err(|_| "--danger-curve takes a number".to_string())?,
                )
            }
            _ => files.push(a),
        }
    }
    if files.is_empty() {
        return Err("give at least one data file of `FEN;score` lines".into());
    }
    let (mut train, mut held): (Vec<Sample>, Vec<Sample>) = (Vec::new(), Vec::new());
    let mut refused = 0;
    for f in &files {
        let text = std::fs::read_to_string(f).map_err(|e| format!("cannot read {f}: {e}"))?;
        for (n, line) in text.lines().filter(|l| !l.trim().is_empty()).enumerate() {
            match parse_line(line) {
                Ok(s) if n % 10 == 9 => held.push(s),
                Ok(s) => train.push(s),
                Err(_) => refused += 1,
            }
        }
    }
    eprintln!(
        "{} positions to tune on, {} held out, {refused} lines refused",
        train.len(),
        held.len()
    );
    let mut start: Vec<[f64; 2]> = match &start_file {
        Some(path) => read_weights(path)?,
        None => WEIGHTS
            .iter()
            .map(|&(m, e)| [f64::from(m), f64::from(e)])
            .collect(),
    };
    if let Some(scale) = danger_curve {
        // Stockfish's map of King danger d to a score, (d² / 4096, d / 16), times `scale`,
        // at the middle of each bucket (the first, below one step, stays zero).
        for b in 1..DANGER_BUCKETS {
            let d = f64::from(DANGER_STEP) * (b as f64 + 0.5);
            start[KING_DANGER + b] = [(scale * d * d / 4096.0).round(), (scale * d / 16.0).round()];
        }
    }
    let mut w = start.clone();
    eprintln!(
        "loss before: {:.6} (held out {:.6})",
        loss(&w, &train),
        loss(&w, &held)
    );
    let mut adam = Adam::new(rate);
    for name in &frozen {
        let &(_, first, len) = LAYOUT.iter().find(|l| l.0 == name).ok_or(format!(
            "--freeze: there is no group of weights named {name:?}"
        ))?;
        adam.frozen[first..first + len].fill(true);
    }
    if ridge > 0.0 {
        adam.anchor = Some((start.clone(), ridge));
    }
    for epoch in 1..=epochs {
        let l = adam.step(&mut w, &train);
        if epoch % 50 == 0 || epoch == epochs {
            eprintln!(
                "epoch {epoch}: loss {l:.6}, held out {:.6}",
                loss(&w, &held)
            );
        }
    }
    for &(name, first, len) in LAYOUT.iter().filter(|l| l.2 > 0 && l.2 <= 32) {
        let moved: Vec<String> = (first..first + len)
            .map(|i| format!("{:.0}/{:.0}", w[i][0], w[i][1]))
            .collect();
        eprintln!("{name}: {}", moved.join(" "));
    }
    let text = weights_file(&w);
    match out {
        Some(path) => {
            std::fs::write(&path, text).map_err(|e| format!("cannot write {path}: {e}"))?
        }
        None => print!("{text}"),
    }
    Ok(())
}
