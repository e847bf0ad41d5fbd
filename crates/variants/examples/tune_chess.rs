//! Tunes the chess evaluation's weights on scored positions and writes a new `weights.rs`.
//!
//! `cargo run --release -p menagerie-variants --example tune_chess -- [--epochs N] [--rate R]
//! [--ridge L] [--freeze GROUP,...] [--out FILE] DATA...`, each DATA file holding lines `FEN;score` (centipawns, side to move's
//! view). Every tenth position is held out to measure the loss on positions not tuned on.

use menagerie_variants::eval::chess::terms::LAYOUT;
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

fn run() -> Result<(), String> {
    let mut epochs = 400usize;
    let mut rate = 1.0f64;
    let mut ridge = 0.0f64;
    let mut frozen: Vec<String> = Vec::new();
    let mut out = None;
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
    let start: Vec<[f64; 2]> = WEIGHTS
        .iter()
        .map(|&(m, e)| [f64::from(m), f64::from(e)])
        .collect();
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
    for &(name, first, len) in LAYOUT.iter().filter(|l| l.2 > 0 && l.2 <= 28) {
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
