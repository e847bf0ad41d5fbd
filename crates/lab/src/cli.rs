//! `menagerie study`: the command line of the lab (the `menagerie` binary hands it its
//! arguments), with a progress bar on stderr.

use crate::report;
use crate::run::{self, GameData, PieceFile, StudyConfig};
use clap::Parser;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::path::PathBuf;
use std::sync::Mutex;

/// Self-play study of a game, or of two rule sets compared.
#[derive(Parser, Debug)]
#[command(
    name = "menagerie study",
    about = "Self-play study of a game: results by colour, lengths, endings, material, mobility and piece values, in an HTML report with SVG plots. `menagerie study merge DIR... --out DIR` combines shards."
)]
pub struct StudyArgs {
    /// The variant id.
    pub variant: String,
    /// A rule option of the study, NAME=VALUE (repeatable).
    #[arg(long = "rule", value_name = "NAME=VALUE")]
    pub rules: Vec<String>,
    /// A rule option of a second rule set compared with the first (repeatable).
    #[arg(long = "vs-rule", value_name = "NAME=VALUE")]
    pub vs_rules: Vec<String>,
    /// A piece table file the study plays with (Little Cheops, whose pieces are data).
    #[arg(long, value_name = "FILE")]
    pub pieces: Option<PathBuf>,
    /// A piece table file of a second set compared with the first (with the first's rules
    /// unless --vs-rule is given too).
    #[arg(long, value_name = "FILE")]
    pub vs_pieces: Option<PathBuf>,
    /// The position every game starts from (before its random opening), if not the game's
    /// start.
    #[arg(long, value_name = "FEN")]
    pub fen: Option<String>,
    /// The start of a second set compared with the first (with the first's rules and pieces
    /// unless --vs-rule or --vs-pieces is given too).
    #[arg(long, value_name = "FEN")]
    pub vs_fen: Option<String>,
    /// Games per rule set.
    #[arg(long, default_value_t = 40, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub games: u32,
    /// Time per move in milliseconds (not reproducible; prefer --nodes).
    #[arg(long, conflicts_with = "nodes", value_parser = menagerie_play::limits::parse_movetime)]
    pub movetime: Option<u64>,
    /// Nodes per move (default 20000 when no --movetime), each side scaled by 0.5-1.5 by the seed and swapped in the second game of a pair.
    #[arg(long, value_parser = menagerie_play::limits::parse_nodes)]
    pub nodes: Option<u64>,
    /// Threads (default: every core).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub threads: Option<u32>,
    /// The study seed: each game's seed comes from it and the game's number.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Random plies of each opening (kept when a shallow search finds them balanced); each
    /// opening is played both ways. 0 plays every game from the start.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(0..=200))]
    pub openings: u32,
    /// A game still going after this many plies is adjudicated a draw.
    #[arg(long, default_value_t = 400, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub max_plies: u32,
    /// One slice I of N of the study (pairs of games dealt round-robin), for many machines;
    /// `auto/N` reads I from a cluster's job array (`JOB_COMPLETION_INDEX`, 0-based, of a
    /// Kubernetes Indexed Job, or `SLURM_ARRAY_TASK_ID`, 1-based, of `sbatch --array=1-N`).
    #[arg(long, value_name = "I/N", value_parser = parse_shard)]
    pub shard: Option<Shard>,
    /// The report's directory (default: study-<variant>).
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// `study merge`.
#[derive(Parser, Debug)]
#[command(
    name = "menagerie study merge",
    about = "Combine the reports of shards of one study (their games.jsonl) into one report."
)]
pub struct MergeArgs {
    /// The shards' report directories.
    #[arg(required = true)]
    pub dirs: Vec<PathBuf>,
    /// The combined report's directory.
    #[arg(long)]
    pub out: PathBuf,
}

/// The `--shard` asked for: a slice given outright, or one of N whose number the cluster's
/// job array gives ([`resolve_shard`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shard {
    /// Slice I of N (1 <= I <= N).
    Given(u32, u32),
    /// One of N slices, its number read from the environment.
    Auto(u32),
}

/// Reads `I/N` with 1 <= I <= N, or `auto/N`.
pub fn parse_shard(text: &str) -> Result<Shard, String> {
    let bad =
        || format!("'{text}' is not a shard: write I/N with 1 <= I <= N, as in 2/8, or auto/N");
    let (i, n) = text.split_once('/').ok_or_else(bad)?;
    let n: u32 = n.trim().parse().map_err(|_| bad())?;
    if n == 0 {
        return Err(bad());
    }
    if i.trim().eq_ignore_ascii_case("auto") {
        return Ok(Shard::Auto(n));
    }
    let i: u32 = i.trim().parse().map_err(|_| bad())?;
    if i == 0 || i > n {
        return Err(bad());
    }
    Ok(Shard::Given(i, n))
}

/// The environment variable of a Kubernetes Indexed Job: the pod's index, 0 to N-1.
pub const KUBERNETES_INDEX: &str = "JOB_COMPLETION_INDEX";
/// The environment variable of a Slurm job array: the task's id, 1 to N with `--array=1-N`.
pub const SLURM_INDEX: &str = "SLURM_ARRAY_TASK_ID";

/// The slice `(I, N)` that `shard` names; for `auto/N`, I is read with `env` (the process's
/// environment in `menagerie study`): `JOB_COMPLETION_INDEX` + 1 (Kubernetes counts from
/// 0), else `SLURM_ARRAY_TASK_ID` as it is (the array is `--array=1-N`).
pub fn resolve_shard(
    shard: Shard,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<(u32, u32), String> {
    let n = match shard {
        Shard::Given(i, n) => return Ok((i, n)),
        Shard::Auto(n) => n,
    };
    let read = |name: &str, first: u32| -> Option<Result<(u32, u32), String>> {
        let text = env(name)?;
        let last = n - 1 + first;
        Some(match text.trim().parse::<u32>() {
            Ok(v) if (first..=last).contains(&v) => Ok((v - first + 1, n)),
            _ => Err(format!(
                "--shard auto/{n}: {name} is '{}', not a number from {first} to {last}",
                text.chars().take(40).collect::<String>()
            )),
        })
    };
    read(KUBERNETES_INDEX, 0)
        .or_else(|| read(SLURM_INDEX, 1))
        .unwrap_or_else(|| {
            Err(format!(
                "--shard auto/{n} reads the shard's number from {KUBERNETES_INDEX} (a Kubernetes Indexed Job, 0 to {}) or {SLURM_INDEX} (a Slurm array --array=1-{n}), and neither is set",
                n - 1
            ))
        })
}

impl StudyArgs {
    /// The study's configuration (the piece tables read from their files).
    pub fn config(&self) -> Result<StudyConfig, String> {
        let table = |path: &Option<PathBuf>| -> Result<Option<PieceFile>, String> {
            path.as_deref()
                .map(|p| {
                    Ok(PieceFile {
                        name: p.file_name().map_or_else(
                            || p.display().to_string(),
                            |n| n.to_string_lossy().into(),
                        ),
                        text: menagerie_variants::read_piece_table(p).map_err(|e| e.to_string())?,
                    })
                })
                .transpose()
        };
        Ok(StudyConfig {
            variant: self.variant.to_ascii_lowercase(),
            rules: self.rules.clone(),
            vs_rules: (!self.vs_rules.is_empty()).then(|| self.vs_rules.clone()),
            games: self.games,
            nodes: self.nodes.or(if self.movetime.is_none() {
                Some(20_000)
            } else {
                None
            }),
            movetime: self.movetime,
            seed: self.seed,
            openings: self.openings,
            max_plies: self.max_plies,
            pieces: table(&self.pieces)?,
            vs_pieces: table(&self.vs_pieces)?,
            fen: self.fen.clone(),
            vs_fen: self.vs_fen.clone(),
        })
    }
}

/// Runs `menagerie study ARGS...` (the arguments after `study`).
pub fn main(args: &[String]) -> Result<(), String> {
    main_with_env(args, &|name| std::env::var(name).ok())
}

/// [`main`], reading the environment (`--shard auto/N`) through `env`.
pub fn main_with_env(args: &[String], env: &dyn Fn(&str) -> Option<String>) -> Result<(), String> {
    if args.first().map(String::as_str) == Some("merge") {
        let m = MergeArgs::try_parse_from(
            std::iter::once("menagerie study merge".to_string()).chain(args[1..].iter().cloned()),
        )
        .map_err(clap_error)?;
        let (config, games) = read_shards(&m.dirs)?;
        let gaps = missing(&config, &games);
        if !gaps.is_empty() {
            eprintln!(
                "warning: {} game(s) of the study are in no shard given (a shard missing?): the report covers the rest",
                gaps.len()
            );
        }
        let rep = report::write_all(&m.out, &config, &games)?;
        summary(&rep, &m.out);
        return Ok(());
    }
    let a = StudyArgs::try_parse_from(
        std::iter::once("menagerie study".to_string()).chain(args.iter().cloned()),
    )
    .map_err(clap_error)?;
    let config = a.config()?;
    let threads = a.threads.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |t| t as usize,
    );
    let shard = resolve_shard(a.shard.unwrap_or(Shard::Given(1, 1)), env)?;
    let out = a
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("study-{}", config.variant)));
    let sets = config.set_count();
    let total = (0..config.games)
        .filter(|&i| run::in_shard(i, shard.0, shard.1))
        .count()
        * sets;
    let bar = ProgressBar::with_draw_target(Some(total as u64), ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template(BAR_TEMPLATE) {
        bar.set_style(style.progress_chars("=> "));
    }
    let tally = Mutex::new(Tally::default());
    let on_game = |g: &GameData| {
        if let Ok(mut t) = tally.lock() {
            t.add(g);
            bar.set_message(t.message(sets));
        }
        bar.inc(1);
    };
    let games = run::run(&config, shard, threads, &on_game).map_err(|e| e.to_string())?;
    bar.finish();
    let rep = report::write_all(&out, &config, &games)?;
    summary(&rep, &out);
    Ok(())
}

/// The running results the progress bar shows: White's wins, draws and losses by rule set.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tally(pub [[u32; 3]; 2]);

impl Tally {
    /// Counts a finished game.
    pub fn add(&mut self, g: &GameData) {
        let col = match g.result.as_str() {
            "1-0" => 0,
            "0-1" => 2,
            _ => 1,
        };
        self.0[usize::from(g.set.min(1))][col] += 1;
    }

    /// The bar's message: `White +3 =1 -2`, or with two rule sets `White A +3 =1 -2 B +1 =0 -0`.
    pub fn message(&self, sets: usize) -> String {
        let text = |s: usize| format!("+{} ={} -{}", self.0[s][0], self.0[s][1], self.0[s][2]);
        if sets == 2 {
            format!("White A {} B {}", text(0), text(1))
        } else {
            format!("White {}", text(0))
        }
    }
}

/// The progress bar's layout: time so far, the bar, games done of all, the running results
/// ([`Tally::message`]) and the time left.
pub const BAR_TEMPLATE: &str =
    "{elapsed_precise} [{bar:30}] {pos}/{len} games, {msg}, about {eta} left";

/// Help is printed and ends the program; other faults become one message.
fn clap_error(e: clap::Error) -> String {
    use clap::error::ErrorKind;
    if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
        e.exit();
    }
    let text = e.render().to_string();
    let first = text.lines().next().unwrap_or("invalid arguments");
    first.trim().trim_start_matches("error: ").to_string()
}

/// Combines shards' `games.jsonl` into one report at `out` ([`read_shards`]).
pub fn merge(dirs: &[PathBuf], out: &std::path::Path) -> Result<report::Report, String> {
    let (config, games) = read_shards(dirs)?;
    report::write_all(out, &config, &games)
}

/// Reads shards' `games.jsonl`: they must be of the same study; a game found twice (a shard
/// run twice) is kept once. Returns the study and its games in (set, index) order.
pub fn read_shards(dirs: &[PathBuf]) -> Result<(StudyConfig, Vec<GameData>), String> {
    let mut config: Option<StudyConfig> = None;
    let mut games: Vec<GameData> = Vec::new();
    for d in dirs {
        let p = d.join("games.jsonl");
        let text = std::fs::read_to_string(&p).map_err(|e| format!("{}: {e}", p.display()))?;
        let (c, g) = report::read_jsonl(&text, &p.display().to_string())?;
        match &config {
            Some(first) if *first != c => {
                return Err(format!("{}: not the same study as {} (variant, rules, piece tables, starts, games, limits, seed, openings and max plies must match)", p.display(), dirs[0].display()))
            }
            _ => config = Some(c),
        }
        games.extend(g);
    }
    let config = config.ok_or("no shard given")?;
    games.sort_by_key(|g| (g.set, g.index));
    games.dedup_by_key(|g| (g.set, g.index));
    Ok((config, games))
}

/// The games of the study (rule set, index) that a merged report lacks, as when a shard's
/// directory was not given.
pub fn missing(config: &StudyConfig, games: &[GameData]) -> Vec<(u8, u32)> {
    let have: std::collections::BTreeSet<(u8, u32)> =
        games.iter().map(|g| (g.set, g.index)).collect();
    let sets = config.set_count() as u8;
    (0..sets)
        .flat_map(|set| (0..config.games).map(move |i| (set, i)))
        .filter(|k| !have.contains(k))
        .collect()
}

/// The lines `study` prints on stdout: each rule set's results and, for two rule sets, the
/// tests of their differences.
pub fn summary_lines(rep: &report::Report, out: &std::path::Path) -> Vec<String> {
    let mut lines = Vec::new();
    for s in &rep.sets {
        lines.push(format!(
            "{} {}: {} games, +{} ={} -{}, White score {}, Elo {}, draw rate {}, mean length {:.1} plies",
            s.label,
            if s.rules.is_empty() {
                "default rules".to_string()
            } else {
                s.rules.join(" ")
            },
            s.games,
            s.white_wins,
            s.draws,
            s.black_wins,
            crate::html::interval(&s.white_score),
            crate::html::elo(&s.white_elo),
            crate::html::interval(&s.draw_rate),
            s.mean_plies
        ));
    }
    if let Some(c) = &rep.comparison {
        lines.push(format!(
            "A against B: White score {}; draw rate {}; length {}",
            crate::html::test(&c.white_score),
            crate::html::test(&c.draw_rate),
            crate::html::test(&c.length)
        ));
    }
    lines.push(format!("report: {}", out.join("index.html").display()));
    lines
}

fn summary(rep: &report::Report, out: &std::path::Path) {
    for l in summary_lines(rep, out) {
        println!("{l}");
    }
}
