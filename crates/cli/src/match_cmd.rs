//! `menagerie match`: two players over a number of games with alternating colours; the
//! score, the Elo difference with its 95% margin, endings and game lengths.

use crate::search_cmd::LimitArgs;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use menagerie_core::fmt_points;
use menagerie_play::matches::{self, GameResult, MatchConfig};
use menagerie_play::players::{build, Player, PlayerSpec};
use menagerie_play::sprt::{Sprt, SprtStatus, Tally, Verdict};
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
    /// Number of games (the most, with --sprt); A has White in the odd-numbered ones.
    #[arg(long, default_value_t = 2)]
    games: u32,
    #[command(flatten)]
    limits: LimitArgs,
    /// Seed for random players and random openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Random plies played before the players take over, for variety: an opening that
    /// does not end the game and that a 2,000-node search finds balanced (within 150 cp).
    #[arg(long, default_value_t = 0, value_name = "N")]
    opening_plies: u32,
    /// Adjudicate a draw after this many plies.
    #[arg(long, default_value_t = 400, value_name = "N")]
    max_plies: u32,
    /// Print one JSON object per game on stdout (the summary goes to stderr).
    #[arg(long, conflicts_with = "csv")]
    json: bool,
    /// Append each game's record (PGN, every move) to this file as the game ends.
    #[arg(long, value_name = "FILE")]
    pgn: Option<std::path::PathBuf>,
    /// Print one CSV row per game on stdout, after a header (the summary goes to stderr).
    #[arg(long)]
    csv: bool,
    /// Play each random opening twice, once with each colour (games 1 and 2 share one, 3
    /// and 4 the next, ...); on by default with --sprt.
    #[arg(long)]
    paired: bool,
    /// A sequential test, ELO0,ELO1 (such as 0,10): stop once A is shown `ELO1` better than
    /// B (H1) or not better than `ELO0` (H0), or after --games; pairs the openings.
    #[arg(long, value_name = "ELO0,ELO1")]
    sprt: Option<String>,
    /// The test's chance of accepting H1 when H0 holds.
    #[arg(long, default_value_t = 0.05, value_name = "P")]
    sprt_alpha: f64,
    /// The test's chance of accepting H0 when H1 holds.
    #[arg(long, default_value_t = 0.05, value_name = "P")]
    sprt_beta: f64,
}

/// Reads `--sprt ELO0,ELO1` with its error rates.
fn parse_sprt(text: &str, alpha: f64, beta: f64) -> Result<Sprt, VariantError> {
    let bad = || {
        VariantError::Other(format!(
            "--sprt '{text}' is not understood: give ELO0,ELO1 with ELO0 < ELO1 (such as 0,10), and --sprt-alpha/--sprt-beta between 0 and 0.5"
        ))
    };
    let (e0, e1) = text.split_once(',').ok_or_else(bad)?;
    let e0: f64 = e0.trim().parse().map_err(|_| bad())?;
    let e1: f64 = e1.trim().parse().map_err(|_| bad())?;
    Sprt::new(e0, e1, alpha, beta).ok_or_else(bad)
}

/// The test's state in one line: LLR, bounds, verdict.
fn sprt_line(s: &SprtStatus) -> String {
    format!(
        "LLR {:.2} (bounds {:.2}, {:.2}): {}",
        s.llr,
        s.lower,
        s.upper,
        s.verdict.describe()
    )
}

/// An Elo estimate with its 95% margin, in words.
fn elo_text(elo: (Option<f64>, Option<f64>), points_a: f64, points_b: f64) -> String {
    match elo {
        (Some(e), Some(m)) => format!("{e:+.0} ± {m:.0} (95%)"),
        (Some(e), None) => format!("{e:+.0} (margin unbounded)"),
        (None, _) if points_a > points_b => "+inf (A won every game)".to_string(),
        (None, _) => "-inf (A lost every game)".to_string(),
    }
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
    /// The test's LLR after this game (when a test runs).
    #[serde(skip_serializing_if = "Option::is_none")]
    llr: Option<f64>,
}

fn row<'a, P>(
    r: &'a GameResult,
    points: fn(f64) -> P,
    fen: bool,
    sprt: Option<&SprtStatus>,
) -> Row<'a, P> {
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
        llr: sprt.map(|s| (s.llr * 1000.0).round() / 1000.0),
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
        variant = variant.with_pieces(&menagerie_variants::read_piece_table(path)?)?;
    }
    let options = crate::rule_options(variant.id, &args.rules)?;
    let sprt = args
        .sprt
        .as_deref()
        .map(|t| parse_sprt(t, args.sprt_alpha, args.sprt_beta))
        .transpose()?;
    let spec_a = PlayerSpec::parse(&args.a, variant.id)?;
    let spec_b = PlayerSpec::parse(&args.b, variant.id)?;
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
        paired: args.paired || sprt.is_some(),
        sprt,
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
    let mut pgn = args
        .pgn
        .as_ref()
        .map(|path| {
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|e| {
                    VariantError::Other(format!(
                        "cannot open {} for the records: {e}",
                        path.display()
                    ))
                })
        })
        .transpose()?;
    // The players' specs name the seats; a quote in them would end the tag early.
    let event = format!("menagerie match: A = {}, B = {}", args.a, args.b).replace('"', "'");
    let event = format!("[Event \"{event}\"]\n");
    let summary = matches::run(&config, a.as_mut(), b.as_mut(), &mut |r, so_far| {
        if let Some(file) = pgn.as_mut() {
            use std::io::Write;
            writeln!(file, "{event}{}", r.record).map_err(io_error)?;
        }
        if args.json {
            bar.suspend(|| {
                serde_json::to_string(&row(r, |p| p, true, so_far.sprt.as_ref()))
                    .map(|line| println!("{line}"))
                    .map_err(io_error)
            })?;
        } else if let Some(w) = csv_out.as_mut() {
            w.serialize(row(r, fmt_points, false, so_far.sprt.as_ref()))
                .map_err(io_error)?;
            w.flush().map_err(io_error)?;
        }
        bar.set_message(format!(
            "A {} - B {}",
            fmt_points(so_far.points_a),
            fmt_points(so_far.points_b)
        ));
        bar.inc(1);
        // A test reports after each pair (or game): LLR, bounds, Elo so far, on stderr.
        if let Some(status) = &so_far.sprt {
            if !config.paired || r.number % 2 == 0 {
                let (elo, by) = if config.paired {
                    (so_far.elo_pairs(), "pairs")
                } else {
                    (so_far.elo(), "games")
                };
                bar.suspend(|| {
                    eprintln!(
                        "game {}: A {} - B {}, elo {} over {by}, {}",
                        r.number,
                        fmt_points(so_far.points_a),
                        fmt_points(so_far.points_b),
                        elo_text(elo, so_far.points_a, so_far.points_b),
                        sprt_line(status)
                    )
                });
            }
        }
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
    say(format!(
        "elo difference {}",
        elo_text(summary.elo(), summary.points_a, summary.points_b)
    ));
    if let (Some(status), Some(test)) = (&summary.sprt, &config.sprt) {
        let t = Tally::from_fractions(&summary.fractions(), config.paired);
        let tri = t.trinomial;
        say(format!(
            "sprt elo0 {} elo1 {} alpha {} beta {}, {} games: {}",
            test.elo0,
            test.elo1,
            test.alpha,
            test.beta,
            n,
            sprt_line(status)
        ));
        let mut counts = format!("W/D/L {}/{}/{}", tri[2], tri[1], tri[0]);
        if config.paired {
            let p = t.pentanomial;
            counts.push_str(&format!(
                ", pairs scoring 0/½/1/1½/2: {}/{}/{}/{}/{}, elo over pairs {}",
                p[0],
                p[1],
                p[2],
                p[3],
                p[4],
                elo_text(summary.elo_pairs(), summary.points_a, summary.points_b)
            ));
        }
        say(counts);
        if status.verdict == Verdict::Continue && n < args.games as usize {
            say("the test stopped early without a verdict".to_string());
        }
    }
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
