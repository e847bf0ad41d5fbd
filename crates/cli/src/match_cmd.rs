//! `menagerie match`: two players over a number of games with alternating colours; the
//! score, the Elo difference with its 95% margin, endings and game lengths.

use crate::search_cmd::LimitArgs;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use menagerie_core::fmt_points;
use menagerie_play::matches::{self, GameResult, MatchConfig};
use menagerie_play::players::{build, Player, PlayerSpec};
use menagerie_variants::{find, Limits, VariantError};
use serde::Serialize;

/// Options of `menagerie match`.
#[derive(clap::Args, Debug)]
pub struct MatchArgs {
    /// The variant id.
    variant: String,
    /// Start every game from this position instead of the start.
    #[arg(long)]
    fen: Option<String>,
    /// A rule option as name=value (repeatable; `menagerie variants --options` lists them).
    #[arg(long = "rule", value_name = "NAME=VALUE")]
    rules: Vec<String>,
    /// A piece-table file replacing the built-in definitions (Little Cheops).
    #[arg(long, value_name = "FILE")]
    pieces: Option<std::path::PathBuf>,
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
    /// Print one JSON object per game on stdout (the summary goes to stderr).
    #[arg(long, conflicts_with = "csv")]
    json: bool,
    /// Print one CSV row per game on stdout, after a header (the summary goes to stderr).
    #[arg(long)]
    csv: bool,
}

/// One game as a `--json` line or a `--csv` row: the players as `A` and `B` (the summary
/// says who they are), points as numbers in JSON and as people write them in CSV.
#[derive(Serialize)]
struct Row<'a, P> {
    game: u32,
    white: &'a str,
    black: &'a str,
    result: &'a str,
    termination: String,
    plies: usize,
    points_a: P,
    points_b: P,
    #[serde(skip_serializing_if = "Option::is_none")]
    fen: Option<&'a str>,
}

fn row<P>(r: &GameResult, points: fn(f64) -> P, fen: bool) -> Row<'_, P> {
    let (white, black) = if r.a_white { ("A", "B") } else { ("B", "A") };
    Row {
        game: r.number,
        white,
        black,
        result: r.outcome.result(),
        termination: r.outcome.termination.code(),
        plies: r.plies,
        points_a: points(r.points_a),
        points_b: points(r.points_b),
        fen: fen.then_some(r.fen.as_str()),
    }
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
    let mut variant = find(&args.variant)?;
    if let Some(path) = &args.pieces {
        let text = std::fs::read_to_string(path)
            .map_err(|e| VariantError::Other(format!("cannot read {}: {e}", path.display())))?;
        variant = variant.with_pieces(&text)?;
    }
    let options = crate::rule_options(variant.id, &args.rules)?;
    let spec_a = PlayerSpec::parse(&args.a)?;
    let spec_b = PlayerSpec::parse(&args.b)?;
    if spec_a == PlayerSpec::Human || spec_b == PlayerSpec::Human {
        return Err(VariantError::Other(
            "a match is between programs; use `menagerie play` to play yourself".into(),
        ));
    }
    let config = MatchConfig {
        variant: variant.clone(),
        fen: args.fen.clone(),
        options,
        games: args.games,
        opening_plies: args.opening_plies,
        max_plies: args.max_plies,
        seed: args.seed,
    };
    let default: Limits = args.limits.limits(100)?;
    let mut a: Box<dyn Player> = build(&spec_a, default, args.seed)?
        .ok_or_else(|| VariantError::Other("player A cannot be a human".into()))?;
    let mut b: Box<dyn Player> = build(&spec_b, default, args.seed.wrapping_mul(31) + 7)?
        .ok_or_else(|| VariantError::Other("player B cannot be a human".into()))?;
    let bar = progress_bar(args.games);
    let mut csv_out = args
        .csv
        .then(|| csv::Writer::from_writer(std::io::stdout()));
    let summary = matches::run(&config, a.as_mut(), b.as_mut(), &mut |r, so_far| {
        if args.json {
            bar.suspend(|| {
                serde_json::to_string(&row(r, |p| p, true))
                    .map(|line| println!("{line}"))
                    .map_err(io_error)
            })?;
        } else if let Some(w) = csv_out.as_mut() {
            w.serialize(row(r, fmt_points, false)).map_err(io_error)?;
            w.flush().map_err(io_error)?;
        }
        bar.set_message(format!(
            "A {} - B {}",
            fmt_points(so_far.points_a),
            fmt_points(so_far.points_b)
        ));
        bar.inc(1);
        Ok(())
    })?;
    bar.finish_and_clear();

    // The summary is for people: on stderr when stdout carries JSON or CSV.
    let machine = args.json || args.csv;
    let say = |line: String| {
        if machine {
            eprintln!("{line}");
        } else {
            println!("{line}");
        }
    };
    let n = summary.games.len();
    say(format!(
        "A = {}, B = {}, {} games of {}",
        args.a, args.b, n, variant.id
    ));
    say(format!(
        "A {} - B {} ({:.1}%)",
        fmt_points(summary.points_a),
        fmt_points(summary.points_b),
        summary.percent_a()
    ));
    say(match summary.elo() {
        (Some(e), Some(m)) => format!("elo difference {e:+.0} ± {m:.0} (95%)"),
        (Some(e), None) => format!("elo difference {e:+.0} (margin unbounded)"),
        (None, _) if summary.points_a > summary.points_b => {
            "elo difference +inf (A won every game)".to_string()
        }
        (None, _) => "elo difference -inf (A lost every game)".to_string(),
    });
    let list: Vec<String> = summary
        .endings()
        .iter()
        .map(|(k, v)| format!("{k} {v}"))
        .collect();
    say(format!("endings: {}", list.join(", ")));
    say(format!(
        "average length {:.1} plies",
        summary.average_plies()
    ));
    say(format!(
        "score {}/{} (A's points / games, points by the game's own table)",
        fmt_points(summary.points_a),
        n
    ));
    Ok(())
}
