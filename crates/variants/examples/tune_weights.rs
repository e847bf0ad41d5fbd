//! Tunes a variant's hand-written weights (the piece values and the named weights of
//! [`menagerie_variants::weights`]) on self-play positions, as Texel tuning does: the weights
//! that make the static evaluation's winning chances nearest the data's, by a local search
//! one weight at a time. The data are `variant_nets generate` files (`game;position;score;
//! result;terms`); the target is `lambda x chances(score) + (1 - lambda) x result`, the
//! chances `1 / (1 + e^(-cp/400))` as in `variant_nets train`. Every twentieth game is held
//! out and its loss printed before and after.
//!
//! ```sh
//! cargo run --release -p menagerie-variants --example tune_weights -- cypher cypher-1.txt
//! # also vyrt, little-cheops (Common) and little-cheops-imperial, each style its own weights
//! ```
//!
//! Prints the tuned weights as a `MENAGERIE_WEIGHTS` file and the values as lines of
//! `piece-values.txt`, to be tried in a match against the shipped ones before anything is
//! kept (a better fit is not always a stronger player). The fit starts from the evaluation
//! the engine plays with (so from `MENAGERIE_WEIGHTS` and `MENAGERIE_VALUES` files when
//! set). Options: `--lambda L` (1.0), `--rounds N` (40), `--fix NAME,NAME` (weights left alone), `--fit-scale` (fit the
//! scale of centipawns to chances first and keep it: results are flatter than scores).

use menagerie_cheops::{CheopsPosition, Style};
use menagerie_core::{Position, RuleOptions};
use menagerie_cypher::CypherPosition;
use menagerie_engine::{Evaluator, Mobility};
use menagerie_variants::eval::{cheops::CheopsEval, cypher::CypherEval, vyrt::VyrtEval};
use menagerie_variants::weights::NamedWeights;
use menagerie_vyrt::VyrtPosition;
use std::process::ExitCode;

/// Centipawns to winning chances, as the networks' trainer scales them.
const SCALE: f64 = 400.0;

fn chances(cp: f64) -> f64 {
    1.0 / (1.0 + (-cp / SCALE).exp())
}

/// An evaluation whose values (Pawn left as the unit) and named weights can be set.
trait Tunable<P: Position>: Evaluator<P> + NamedWeights + Clone {
    /// The piece values the tuner moves, with their letters.
    fn values_mut(&mut self) -> Vec<(String, &mut i32)>;
}

/// Knight, Bishop, Rook and Queen of a `values` table ordered P N B R Q.
fn nbrq(values: &mut [i32; 5]) -> Vec<(String, &mut i32)> {
    "NBRQ"
        .chars()
        .zip(values[1..].iter_mut())
        .map(|(c, v)| (format!("value.{c}"), v))
        .collect()
}

impl Tunable<CypherPosition> for CypherEval {
    fn values_mut(&mut self) -> Vec<(String, &mut i32)> {
        nbrq(&mut self.values)
    }
}

impl Tunable<VyrtPosition> for VyrtEval {
    fn values_mut(&mut self) -> Vec<(String, &mut i32)> {
        nbrq(&mut self.values)
    }
}

impl Tunable<CheopsPosition> for CheopsEval {
    /// The Common pieces' values (the King and the Civilian count nothing, the Pawn is the
    /// unit; Imperial's own one-step pieces are not in Common's data, and an Imperial fit
    /// leaves them alone too).
    fn values_mut(&mut self) -> Vec<(String, &mut i32)> {
        self.values
            .iter_mut()
            .filter(|(l, _)| "QEITMN".contains(*l))
            .map(|(l, v)| (format!("value.{l}"), v))
            .collect()
    }
}

/// The weights' names and values, values first.
fn read<P: Position, E: Tunable<P>>(e: &mut E) -> Vec<(String, i32)> {
    let mut out: Vec<(String, i32)> = e.values_mut().into_iter().map(|(n, v)| (n, *v)).collect();
    out.extend(e.named_weights().into_iter().map(|(n, v)| (n, *v)));
    out
}

/// `base` with the weights `theta` (in [`read`]'s order).
fn build<P: Position, E: Tunable<P>>(base: &E, theta: &[i32]) -> E {
    let mut e = base.clone();
    let nv = e.values_mut().len();
    for ((_, v), t) in e.values_mut().into_iter().zip(theta) {
        *v = *t;
    }
    for ((_, w), t) in e.named_weights().into_iter().zip(&theta[nv..]) {
        *w = *t;
    }
    e
}

/// The mean squared difference of chances, the evaluation's centipawns times `k`.
fn loss<P: Position, E: Evaluator<P>>(e: &E, data: &[(P, f64)], k: f64) -> f64 {
    let mobility = Mobility {
        own: 0,
        other: None,
    };
    let sum: f64 = data
        .iter()
        .map(|(p, target)| (chances(k * f64::from(e.evaluate(p, mobility))) - target).powi(2))
        .sum();
    sum / data.len().max(1) as f64
}

type Data<P> = (Vec<(P, f64)>, Vec<(P, f64)>);

fn load<P>(
    files: &[String],
    lambda: f64,
    parse: impl Fn(&str) -> Option<P>,
) -> Result<Data<P>, String> {
    let (mut train, mut held) = (Vec::new(), Vec::new());
    for file in files {
        let text =
            std::fs::read_to_string(file).map_err(|e| format!("{file} does not read: {e}"))?;
        for (n, line) in text.lines().enumerate() {
            let fields: Vec<&str> = line.split(';').collect();
            let bad = || {
                format!(
                    "line {} of {file} is not game;position;score;result;terms",
                    n + 1
                )
            };
            let [game, fen, score, result, _] = fields[..] else {
                return Err(bad());
            };
            let (Ok(game), Ok(score), Ok(result)) = (
                game.parse::<u64>(),
                score.parse::<f64>(),
                result.parse::<f64>(),
            ) else {
                return Err(bad());
            };
            let pos =
                parse(fen).ok_or_else(|| format!("line {} of {file}: a bad position", n + 1))?;
            let target = lambda * chances(score) + (1.0 - lambda) * result;
            if game % 20 == 0 {
                held.push((pos, target));
            } else {
                train.push((pos, target));
            }
        }
    }
    Ok((train, held))
}

/// Texel's local search: each weight in turn one step up or down while that lowers the
/// training loss; the steps halve when a round changes nothing.
fn tune<P: Position, E: Tunable<P>>(
    mut base: E,
    data: &Data<P>,
    rounds: usize,
    fixed: &[String],
    fit_scale: bool,
) -> (E, Vec<(String, i32)>) {
    let (train, held) = data;
    let names = read(&mut base);
    let mut theta: Vec<i32> = names.iter().map(|(_, v)| *v).collect();
    let mut steps: Vec<i32> = theta.iter().map(|v| (v.abs() / 8).max(1)).collect();
    // The results' scale is not the search's: with the Pawn fixed at 100 the other weights
    // would shrink to fit it, so the scale is fitted first (Texel's K) and kept.
    let k = if fit_scale {
        let start = build(&base, &theta);
        let k = (1..=60)
            .map(|i| f64::from(i) * 0.05)
            .min_by(|a, b| loss(&start, train, *a).total_cmp(&loss(&start, train, *b)))
            .unwrap_or(1.0);
        eprintln!("scale fitted: the evaluation's centipawns times {k:.2}");
        k
    } else {
        1.0
    };
    let loss = |e: &E, d: &[(P, f64)]| loss(e, d, k);
    let mut best = loss(&build(&base, &theta), train);
    eprintln!(
        "start: training loss {best:.7}, held out {:.7} ({} + {} positions)",
        loss(&build(&base, &theta), held),
        train.len(),
        held.len()
    );
    for round in 1..=rounds {
        let mut moved = false;
        for i in 0..theta.len() {
            if fixed.contains(&names[i].0) {
                continue;
            }
            for dir in [1, -1] {
                let mut trial = theta.clone();
                trial[i] += dir * steps[i];
                let l = loss(&build(&base, &trial), train);
                if l < best {
                    best = l;
                    theta = trial;
                    moved = true;
                    break;
                }
            }
        }
        eprintln!(
            "round {round}: training loss {best:.7}, held out {:.7}",
            loss(&build(&base, &theta), held)
        );
        if !moved {
            if steps.iter().all(|&s| s == 1) {
                break;
            }
            for s in &mut steps {
                *s = (*s / 2).max(1);
            }
        }
    }
    let tuned = build(&base, &theta);
    let out = names.into_iter().map(|(n, _)| n).zip(theta).collect();
    (tuned, out)
}

fn run(args: &[String]) -> Result<(), String> {
    let mut files = Vec::new();
    let (mut lambda, mut rounds, mut fixed, mut fit_scale) = (1.0, 40, Vec::new(), false);
    let variant = args
        .first()
        .ok_or("usage: tune_weights VARIANT FILE... [--lambda L] [--rounds N] [--fix A,B]")?;
    let mut rest = args[1..].iter();
    while let Some(a) = rest.next() {
        let mut value = || rest.next().ok_or(format!("{a} needs a value"));
        match a.as_str() {
            "--lambda" => lambda = value()?.parse().map_err(|_| "--lambda needs a number")?,
            "--rounds" => rounds = value()?.parse().map_err(|_| "--rounds needs a number")?,
            "--fix" => fixed = value()?.split(',').map(str::to_string).collect(),
            "--fit-scale" => fit_scale = true,
            _ => files.push(a.clone()),
        }
    }
    let options = RuleOptions::new();
    let printed = match variant.as_str() {
        "cypher" => {
            let data = load(&files, lambda, |f| {
                CypherPosition::from_fen(f, &options).ok()
            })?;
            let base = menagerie_variants::cypher_eval();
            tune(base, &data, rounds, &fixed, fit_scale).1
        }
        "vyrt" => {
            let data = load(&files, lambda, |f| {
                VyrtPosition::from_fen_with_options(f, &options).ok()
            })?;
            let base = menagerie_variants::vyrt_eval();
            tune(base, &data, rounds, &fixed, fit_scale).1
        }
        "little-cheops" | "little-cheops-imperial" => {
            let style = Style::from_id(variant).unwrap_or(Style::Common);
            let data = load(&files, lambda, |f| CheopsPosition::from_fen(style, f).ok())?;
            let base = menagerie_variants::cheops_eval(style);
            tune(base, &data, rounds, &fixed, fit_scale).1
        }
        other => {
            return Err(format!(
                "tune_weights knows vyrt, cypher, little-cheops and little-cheops-imperial, not '{other}'"
            ))
        }
    };
    for (name, v) in printed {
        match name.strip_prefix("value.") {
            Some(letter) => println!("# piece-values.txt: {variant} {letter} {v}"),
            None => println!("{variant} {name} {v}"),
        }
    }
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tune_weights: {e}");
            ExitCode::FAILURE
        }
    }
}
