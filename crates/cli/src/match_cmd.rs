//! `menagerie match`: two players over a number of games with alternating colours; the
//! score, the Elo difference with its 95% margin, endings and game lengths.

use crate::players::{build, Player, PlayerSpec, Rng};
use crate::record::{fmt_points, points};
use crate::search_cmd::LimitArgs;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use menagerie_core::{Color, Outcome, RuleOptions, Termination};
use menagerie_variants::{find, Limits, VariantError};
use serde::Serialize;
use std::collections::BTreeMap;

/// Options of `menagerie match`.
#[derive(clap::Args, Debug)]
pub struct MatchArgs {
    /// The variant id.
    variant: String,
    /// Start every game from this position instead of the start.
    #[arg(long)]
    fen: Option<String>,
    /// A rule option as name=value (repeatable).
    #[arg(long = "rule", value_name = "NAME=VALUE")]
    rules: Vec<String>,
    /// Player A: engine[:depth=N,movetime=MS,nodes=N], random, greedy, uci:PATH[:elo=N,...].
    #[arg(long)]
    a: String,
    /// Player B (same forms as --a).
    #[arg(long)]
    b: String,
    /// Number of games; A has White in the odd-numbered ones.
    #[arg(long, default_value_t = 2)]
    games: u32,
    #[command(flatten)]
    limits: LimitArgs,
    /// Seed for random players and random openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Random plies played before the players take over, for variety.
    #[arg(long, default_value_t = 0, value_name = "N")]
    opening_plies: u32,
    /// Adjudicate a draw after this many plies.
    #[arg(long, default_value_t = 400, value_name = "N")]
    max_plies: u32,
    /// Print one JSON object per game on stdout.
    #[arg(long, conflicts_with = "csv")]
    json: bool,
    /// Print one CSV row per game on stdout, after a header.
    #[arg(long)]
    csv: bool,
}

/// One finished game.
struct GameRecord {
    number: u32,
    result: &'static str,
    termination: String,
    plies: usize,
    points_a: f64,
    points_b: f64,
}

/// One game as a `--json` line: the players by their specs, the final position.
#[derive(Serialize)]
struct JsonRow<'a> {
    game: u32,
    white: &'a str,
    black: &'a str,
    result: &'a str,
    termination: &'a str,
    plies: usize,
    points_a: f64,
    points_b: f64,
    fen: String,
}

/// One game as a `--csv` row: the players as `A` and `B`, points as people write them.
#[derive(Serialize)]
struct CsvRow<'a> {
    game: u32,
    white: &'a str,
    black: &'a str,
    result: &'a str,
    termination: &'a str,
    plies: usize,
    points_a: String,
    points_b: String,
}

/// The Elo difference for score fraction `p` (`None` at 0% or 100%).
fn elo(p: f64) -> Option<f64> {
    (p > 0.0 && p < 1.0).then(|| -400.0 * (1.0 / p - 1.0).log10())
}

/// Elo difference and the half-width of its 95% interval, from per-game scores in [0, 1].
pub fn elo_with_margin(scores: &[f64]) -> (Option<f64>, Option<f64>) {
    let n = scores.len() as f64;
    if n == 0.0 {
        return (None, None);
    }
    let p = scores.iter().sum::<f64>() / n;
    let var = scores.iter().map(|s| (s - p).powi(2)).sum::<f64>() / n;
    let sd = (var / n).sqrt();
    let lo = elo(p - 1.96 * sd);
    let hi = elo(p + 1.96 * sd);
    let margin = match (lo, hi) {
        (Some(l), Some(h)) => Some((h - l) / 2.0),
        _ => None,
    };
    (elo(p), margin)
}

/// The progress bar with the running score, drawn on stderr only when it is a terminal.
fn progress_bar(games: u32) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(u64::from(games)), ProgressDrawTarget::stderr());
    let style = ProgressStyle::with_template("[{bar:30}] {pos}/{len}  {msg}")
        .map(|s| s.progress_chars("#>-"))
        .unwrap_or_else(|_| ProgressStyle::default_bar());
    bar.set_style(style);
    bar.set_message("A 0 - B 0");
    bar
}

fn io_error(e: impl std::fmt::Display) -> VariantError {
    VariantError::Other(format!("cannot write the game records: {e}"))
}

/// Runs `match`.
pub fn run(args: MatchArgs) -> Result<(), VariantError> {
    if args.games == 0 {
        return Err(VariantError::Other("--games needs at least 1 game".into()));
    }
    let variant = find(&args.variant)?;
    let options = RuleOptions::parse(&args.rules)?;
    // Opening once up front reports a bad position before any player starts.
    variant.open(args.fen.as_deref(), &options)?;
    let spec_a = PlayerSpec::parse(&args.a)?;
    let spec_b = PlayerSpec::parse(&args.b)?;
    if spec_a == PlayerSpec::Human || spec_b == PlayerSpec::Human {
        return Err(VariantError::Other(
            "a match is between programs; use `menagerie play` to play yourself".into(),
        ));
    }
    let default: Limits = args.limits.limits(100)?;
    let mut rng = Rng::new(args.seed ^ 0x5EED);
    let mut a: Box<dyn Player> = build(&spec_a, default, args.seed)?
        .ok_or_else(|| VariantError::Other("player A cannot be a human".into()))?;
    let mut b: Box<dyn Player> = build(&spec_b, default, args.seed.wrapping_mul(31) + 7)?
        .ok_or_else(|| VariantError::Other("player B cannot be a human".into()))?;
    let bar = progress_bar(args.games);
    let mut csv_out = args
        .csv
        .then(|| csv::Writer::from_writer(std::io::stdout()));
    let mut records = Vec::new();
    let (mut total_a, mut total_b) = (0.0, 0.0);
    for number in 1..=args.games {
        let a_white = number % 2 == 1;
        let mut g = variant.open(args.fen.as_deref(), &options)?;
        a.new_game();
        b.new_game();
        for _ in 0..args.opening_plies {
            let moves = g.legal_moves();
            if moves.is_empty() || g.outcome().is_some() {
                break;
            }
            g.push(&moves[rng.below(moves.len())])?;
        }
        let outcome: Outcome = loop {
            if let Some(o) = g.outcome() {
                break o;
            }
            if g.ply() >= args.max_plies as usize {
                break Outcome::draw(Termination::rule(
                    "max-plies",
                    format!(
                        "max-plies: adjudicated a draw after {} plies",
                        args.max_plies
                    ),
                ));
            }
            let white_to_move = g.turn() == Color::White;
            let player = if white_to_move == a_white {
                &mut a
            } else {
                &mut b
            };
            let mv = player.choose(g.as_mut())?;
            if g.push(&mv).is_err() {
                // An illegal move from an external engine loses the game, as in any arena.
                break Outcome::win(
                    g.turn().other(),
                    Termination::rule("forfeit", format!("forfeit: illegal move {mv}")),
                );
            }
        };
        let (w, bl) = points(&outcome);
        let (pa, pb) = if a_white { (w, bl) } else { (bl, w) };
        let rec = GameRecord {
            number,
            result: outcome.result(),
            termination: outcome.termination.code(),
            plies: g.ply(),
            points_a: f64::from(pa),
            points_b: f64::from(pb),
        };
        total_a += rec.points_a;
        total_b += rec.points_b;
        let (white, black) = if a_white { ("A", "B") } else { ("B", "A") };
        if args.json {
            let row = JsonRow {
                game: rec.number,
                white: if a_white { &args.a } else { &args.b },
                black: if a_white { &args.b } else { &args.a },
                result: rec.result,
                termination: &rec.termination,
                plies: rec.plies,
                points_a: rec.points_a,
                points_b: rec.points_b,
                fen: g.fen(),
            };
            bar.suspend(|| {
                serde_json::to_string(&row)
                    .map(|line| println!("{line}"))
                    .map_err(io_error)
            })?;
        } else if let Some(w) = csv_out.as_mut() {
            w.serialize(CsvRow {
                game: rec.number,
                white,
                black,
                result: rec.result,
                termination: &rec.termination,
                plies: rec.plies,
                points_a: fmt_points(rec.points_a),
                points_b: fmt_points(rec.points_b),
            })
            .map_err(io_error)?;
            w.flush().map_err(io_error)?;
        }
        records.push(rec);
        bar.set_message(format!(
            "A {} - B {}",
            fmt_points(total_a),
            fmt_points(total_b)
        ));
        bar.inc(1);
    }
    bar.finish_and_clear();

    let n = records.len();
    println!(
        "A = {}, B = {}, {} games of {}",
        args.a, args.b, n, variant.id
    );
    println!(
        "A {} - B {} ({:.1}%)",
        fmt_points(total_a),
        fmt_points(total_b),
        100.0 * total_a / (total_a + total_b).max(1e-9)
    );
    // Per-game scores in [0, 1] for the Elo estimate, whatever the game's points table.
    let fractions: Vec<f64> = records
        .iter()
        .map(|r| r.points_a / (r.points_a + r.points_b).max(1e-9))
        .collect();
    match elo_with_margin(&fractions) {
        (Some(e), Some(m)) => println!("elo difference {e:+.0} ± {m:.0} (95%)"),
        (Some(e), None) => println!("elo difference {e:+.0} (margin unbounded)"),
        (None, _) if total_a > total_b => println!("elo difference +inf (A won every game)"),
        (None, _) => println!("elo difference -inf (A lost every game)"),
    }
    let mut endings: BTreeMap<String, u32> = BTreeMap::new();
    for r in &records {
        *endings.entry(r.termination.clone()).or_default() += 1;
    }
    let list: Vec<String> = endings.iter().map(|(k, v)| format!("{k} {v}")).collect();
    println!("endings: {}", list.join(", "));
    let plies: usize = records.iter().map(|r| r.plies).sum();
    println!("average length {:.1} plies", plies as f64 / n.max(1) as f64);
    println!("score {}/{}", fmt_points(total_a), n);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_from_scores() {
        let (e, m) = elo_with_margin(&[1.0, 0.0]);
        assert_eq!(e, Some(0.0));
        assert!(m.is_none());
        let (e, m) = elo_with_margin(&[1.0, 1.0, 1.0, 0.0, 0.5, 0.5, 1.0, 0.0]);
        assert!((e.unwrap() - 88.7).abs() < 1.0, "{e:?}");
        assert!(m.unwrap() > 100.0);
    }
}
