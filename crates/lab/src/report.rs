//! The figures of a study, computed from its games by the pure functions of [`crate::stats`],
//! and the files of the report: `results.json`, `games.csv`, `games.pgn` (every record),
//! `games.jsonl` (each game's figures, read back by `study merge`), the SVG plots and
//! `index.html`.

use crate::run::{GameData, StudyConfig};
use crate::stats::{self, Interval, Test};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::Path;

/// The ridge penalty on the piece-value slopes: with a few dozen games a piece whose count
/// rarely differs would otherwise get a wild value.
pub const RIDGE: f64 = 1.0;

/// How one kind of ending went.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Ending {
    /// The termination code.
    pub code: String,
    /// Games ended this way.
    pub count: usize,
    /// Of which White won.
    pub white_wins: usize,
    /// Of which drawn.
    pub draws: usize,
    /// Of which Black won.
    pub black_wins: usize,
    /// White's points in those games (the game's own table where it scores endings).
    pub white_points: f64,
    /// Black's points in those games.
    pub black_points: f64,
}

/// One piece kind's value: estimated from the results, and the engine's.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct PieceValue {
    /// The piece letter (lower case).
    pub piece: char,
    /// The value the results give it, in the engine's centipawns, with its 95% interval
    /// (`None` when not identifiable from these games: see `note`).
    pub estimated: Option<Interval>,
    /// The engine's value (the least-squares fit of its material balance on the counts).
    pub engine: Option<f64>,
    /// Samples in which the two sides had different numbers of this piece.
    pub unequal_samples: usize,
    /// Games with at least one such sample.
    pub unequal_games: usize,
    /// Why there is no estimate, or what limits it, in words.
    pub note: Option<String>,
}

/// The statistics of one rule set.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct SetReport {
    /// `A` or `B`.
    pub label: String,
    /// The rule options, `NAME=VALUE`.
    pub rules: Vec<String>,
    /// Games played.
    pub games: usize,
    /// White wins.
    pub white_wins: usize,
    /// Draws.
    pub draws: usize,
    /// Black wins.
    pub black_wins: usize,
    /// White's mean share of the points, normal 95% interval.
    pub white_score: Option<Interval>,
    /// White's first-move advantage in Elo, with the ends of its interval.
    pub white_elo: (Option<f64>, Option<f64>, Option<f64>),
    /// White's win rate, Wilson 95% interval.
    pub white_win_rate: Option<Interval>,
    /// Draw rate, Wilson 95% interval.
    pub draw_rate: Option<Interval>,
    /// Black's win rate, Wilson 95% interval.
    pub black_win_rate: Option<Interval>,
    /// Mean length in plies.
    pub mean_plies: f64,
    /// Quartiles of the length in plies: (q1, median, q3).
    pub plies_quartiles: Option<(f64, f64, f64)>,
    /// Histogram of lengths: (bin start, games), bins of [`SetReport::bin_width`] plies.
    pub length_histogram: Vec<(usize, usize)>,
    /// The width of the length histogram's bins.
    pub bin_width: usize,
    /// How the games ended, most frequent first.
    pub endings: Vec<Ending>,
    /// White's material balance by ply: (ply, q1, median, q3).
    pub material_by_ply: Vec<(usize, f64, f64, f64)>,
    /// Legal moves of the side to move by ply: (ply, q1, median, q3).
    pub mobility_by_ply: Vec<(usize, f64, f64, f64)>,
    /// Piece values.
    pub piece_values: Vec<PieceValue>,
    /// Turns where the engine's move was refused and the lab chose among the offered moves
    /// ([`crate::run::choose`]), over all games.
    pub fallbacks: u32,
    /// The logistic slope of White's score on the engine's material balance, in log-odds
    /// per 100 centipawns, with its cluster-robust 95% interval: how much the engine's
    /// material predicts the results (the scale of the estimated piece values).
    pub material_slope: Option<Interval>,
}

/// The two rule sets compared, each test's statistic and p-value.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Comparison {
    /// White's score (two-proportion z-test, a draw counting half).
    pub white_score: Option<Test>,
    /// Draw rates (two-proportion z-test).
    pub draw_rate: Option<Test>,
    /// White win rates (two-proportion z-test).
    pub white_win_rate: Option<Test>,
    /// Black win rates (two-proportion z-test).
    pub black_win_rate: Option<Test>,
    /// Lengths (Mann-Whitney U).
    pub length: Option<Test>,
    /// Each termination's share (two-proportion z-test), by code.
    pub endings: BTreeMap<String, Option<Test>>,
    /// Each piece's estimated value, where both sets estimate it (z-test on the difference,
    /// the standard errors from the two 95% intervals; the sets' games are independent).
    #[serde(default)]
    pub piece_values: BTreeMap<char, Test>,
}

/// The whole report.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Report {
    /// What was played.
    pub config: StudyConfig,
    /// Each rule set's statistics.
    pub sets: Vec<SetReport>,
    /// A against B, when there are two rule sets.
    pub comparison: Option<Comparison>,
    /// The methods, in words.
    pub methods: Vec<String>,
}

/// The methods as the report states them.
pub fn methods() -> Vec<String> {
    vec![
        "White score: mean of White's share of the points per game; 95% interval: normal, from the per-game variance.".into(),
        "Elo: -400 log10(1/s - 1) of the score s and of its interval's ends.".into(),
        "Win and draw rates: Wilson 95% intervals.".into(),
        "Two rule sets: two-proportion z-test (pooled) on scores and rates; Mann-Whitney U (normal approximation, tie-corrected) on lengths; a z-test on the difference of each piece's estimated values (standard errors from their intervals); significant at p < 0.05.".into(),
        "Piece values: positions sampled every 2 plies after the opening, pooled over the games; a logistic regression (ridge 1 on the slopes, shrinking towards 0) of White's score on White-minus-Black piece counts, and one of White's score on the engine's material balance; a piece's value is its slope over the material slope, in the engine's centipawns (the value at which results and engine agree). 95% intervals: delta method on the two fits' joint cluster-robust (sandwich, by game, G/(G-1)) covariance. A piece is not identifiable when its counts differ in fewer than 5 games, when its count difference is nearly a linear function of the others' (R² > 0.95), or when material does not predict the results (the material slope's interval reaches 0). Engine values: least squares of the engine's material balance on the same counts.".into(),
        "Material and mobility by ply: quartiles over the games still going at that ply (plies with at least 5 games).".into(),
    ]
}

fn endings(games: &[&GameData]) -> Vec<Ending> {
    let mut by: BTreeMap<String, Ending> = BTreeMap::new();
    for g in games {
        let e = by.entry(g.termination.clone()).or_insert_with(|| Ending {
            code: g.termination.clone(),
            count: 0,
            white_wins: 0,
            draws: 0,
            black_wins: 0,
            white_points: 0.0,
            black_points: 0.0,
        });
        e.count += 1;
        match g.result.as_str() {
            "1-0" => e.white_wins += 1,
            "0-1" => e.black_wins += 1,
            _ => e.draws += 1,
        }
        e.white_points += g.white_points;
        e.black_points += g.black_points;
    }
    let mut v: Vec<Ending> = by.into_values().collect();
    v.sort_by(|a, b| b.count.cmp(&a.count).then(a.code.cmp(&b.code)));
    v
}

/// Fewest games in which a piece's counts must differ for its value to be estimated.
pub const MIN_GAMES: usize = 5;
/// Largest R² of a piece's count difference on the others' for its value to be estimated.
pub const MAX_COLLINEARITY: f64 = 0.95;

/// Piece values from the sampled plies: the estimate from results with its interval and the
/// engine's, and the material slope (the estimates' scale).
pub fn piece_values(games: &[&GameData]) -> (Vec<PieceValue>, Option<Interval>) {
    let mut kinds = BTreeSet::new();
    let mut unequal: BTreeMap<char, usize> = BTreeMap::new();
    let mut unequal_games: BTreeMap<char, usize> = BTreeMap::new();
    for g in games {
        let mut seen = BTreeSet::new();
        for (_, _, counts) in &g.samples {
            for (&k, &c) in counts {
                kinds.insert(k);
                if c != 0 {
                    *unequal.entry(k).or_default() += 1;
                    seen.insert(k);
                }
            }
        }
        for k in seen {
            *unequal_games.entry(k).or_default() += 1;
        }
    }
    let varying: Vec<char> = kinds
        .iter()
        .copied()
        .filter(|k| unequal.contains_key(k))
        .collect();
    let fitted: Vec<char> = varying
        .iter()
        .copied()
        .filter(|k| unequal_games.get(k).copied().unwrap_or(0) >= MIN_GAMES)
        .collect();
    let row = |counts: &BTreeMap<char, i32>, of: &[char]| {
        of.iter()
            .map(|k| f64::from(*counts.get(k).unwrap_or(&0)))
            .collect::<Vec<_>>()
    };
    let (mut x_all, mut x_fit, mut y, mut m, mut cluster) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for (gi, g) in games.iter().enumerate() {
        for (_, mat, counts) in &g.samples {
            x_all.push(row(counts, &varying));
            x_fit.push(row(counts, &fitted));
            y.push(g.white_score());
            m.push(vec![f64::from(*mat) / 100.0]);
            cluster.push(gi);
        }
    }
    let mut engine = if varying.is_empty() {
        None
    } else {
        stats::least_squares(
            &x_all,
            &m.iter().map(|v| v[0] * 100.0).collect::<Vec<_>>(),
            1e-6,
        )
    };
    if let Some(e) = engine.as_mut() {
        for v in e.iter_mut() {
            *v = (*v * 10.0).round() / 10.0;
        }
    }
    let material = stats::logistic_fit(&m, &y, &cluster, 0.0);
    let material_slope = material.as_ref().and_then(|f| {
        let v = stats::sandwich(f, f);
        let half = stats::Z95 * v.get(1)?.get(1)?.max(0.0).sqrt();
        let k = *f.beta.get(1)?;
        Some(Interval {
            value: k,
            lo: k - half,
            hi: k + half,
        })
    });
    let estimates = if fitted.is_empty() {
        None
    } else {
        match (&material, stats::logistic_fit(&x_fit, &y, &cluster, RIDGE)) {
            (Some(mf), Some(pf)) => stats::values_from_results(&pf, mf),
            _ => None,
        }
    };
    let no_scale = fitted.is_empty() || estimates.is_none();
    let values = kinds
        .iter()
        .map(|&k| {
            let games_k = unequal_games.get(&k).copied().unwrap_or(0);
            let fi = fitted.iter().position(|&v| v == k);
            let mut note = None;
            let mut estimated = None;
            if games_k == 0 {
                note = Some("not identifiable: the two sides always have as many".to_string());
            } else if fi.is_none() {
                note = Some(format!(
                    "not identifiable: the counts differ in only {games_k} game{} (at least {MIN_GAMES} needed)",
                    if games_k == 1 { "" } else { "s" }
                ));
            } else if let Some(i) = fi {
                let r2 = stats::collinearity(&x_fit, i);
                if r2 > MAX_COLLINEARITY {
                    note = Some(format!(
                        "not identifiable: its count difference is nearly a linear function of the other pieces' (R² = {r2:.2})"
                    ));
                } else if no_scale {
                    note = Some(
                        "not identifiable: the engine's material balance does not clearly predict the results of these games".to_string(),
                    );
                } else if let Some(e) = estimates.as_ref().and_then(|e| e.get(i)) {
                    let cp = Interval {
                        value: (e.value * 100.0).round(),
                        lo: (e.lo * 100.0).round(),
                        hi: (e.hi * 100.0).round(),
                    };
                    if cp.lo <= 0.0 && cp.hi >= 0.0 {
                        note = Some("not distinguishable from 0 at 95%".to_string());
                    }
                    estimated = Some(cp);
                }
            }
            PieceValue {
                piece: k,
                estimated,
                engine: varying
                    .iter()
                    .position(|&v| v == k)
                    // + 0.0 turns a -0 into 0.
                    .and_then(|i| engine.as_ref().map(|e| e[i] + 0.0)),
                unequal_samples: unequal.get(&k).copied().unwrap_or(0),
                unequal_games: games_k,
                note,
            }
        })
        .collect();
    (
        values,
        material_slope.map(|k| Interval {
            value: k.value,
            lo: k.lo,
            hi: k.hi,
        }),
    )
}

/// Bins of about 12 across the longest game, a round width.
fn bin_width(max: usize) -> usize {
    let raw = (max / 12).max(1);
    [1, 2, 5, 10, 20, 25, 50, 100, 200, 500, 1000]
        .into_iter()
        .find(|&w| w >= raw)
        .unwrap_or(raw)
}

/// The statistics of one rule set's games.
pub fn set_report(label: &str, rules: &[String], games: &[&GameData], bin: usize) -> SetReport {
    let n = games.len();
    let count = |r: &str| games.iter().filter(|g| g.result == r).count();
    let (ww, bw) = (count("1-0"), count("0-1"));
    let draws = n - ww - bw;
    let scores: Vec<f64> = games.iter().map(|g| g.white_score()).collect();
    let white_score = stats::score_interval(&scores);
    let mut lengths: Vec<f64> = games.iter().map(|g| g.plies as f64).collect();
    lengths.sort_by(f64::total_cmp);
    let quart = match (
        stats::quantile(&lengths, 0.25),
        stats::quantile(&lengths, 0.5),
        stats::quantile(&lengths, 0.75),
    ) {
        (Some(a), Some(b), Some(c)) => Some((a, b, c)),
        _ => None,
    };
    let series = |f: &dyn Fn(&GameData) -> Vec<f64>| games.iter().map(|g| f(g)).collect::<Vec<_>>();
    let material = series(&|g| g.material.iter().map(|&m| f64::from(m)).collect());
    let mobility = series(&|g| g.mobility.iter().map(|&m| f64::from(m)).collect());
    let (piece_values, material_slope) = piece_values(games);
    SetReport {
        label: label.to_string(),
        rules: rules.to_vec(),
        games: n,
        white_wins: ww,
        draws,
        black_wins: bw,
        white_elo: white_score
            .as_ref()
            .map_or((None, None, None), stats::elo_interval),
        white_score,
        white_win_rate: stats::wilson(ww as f64, n as f64),
        draw_rate: stats::wilson(draws as f64, n as f64),
        black_win_rate: stats::wilson(bw as f64, n as f64),
        mean_plies: lengths.iter().sum::<f64>() / n.max(1) as f64,
        plies_quartiles: quart,
        length_histogram: stats::histogram(&games.iter().map(|g| g.plies).collect::<Vec<_>>(), bin),
        bin_width: bin,
        endings: endings(games),
        material_by_ply: stats::quartiles_by_ply(&material, 5),
        mobility_by_ply: stats::quartiles_by_ply(&mobility, 5),
        piece_values,
        material_slope,
        fallbacks: games.iter().map(|g| g.fallbacks).sum(),
    }
}

/// A against B.
pub fn compare(a: &[&GameData], b: &[&GameData], ra: &SetReport, rb: &SetReport) -> Comparison {
    let (na, nb) = (a.len() as f64, b.len() as f64);
    let sum = |g: &[&GameData]| g.iter().map(|g| g.white_score()).sum::<f64>();
    let lengths = |g: &[&GameData]| g.iter().map(|g| g.plies as f64).collect::<Vec<_>>();
    let mut codes: BTreeSet<String> = ra.endings.iter().map(|e| e.code.clone()).collect();
    codes.extend(rb.endings.iter().map(|e| e.code.clone()));
    let share = |r: &SetReport, c: &str| {
        r.endings
            .iter()
            .find(|e| e.code == c)
            .map_or(0, |e| e.count) as f64
    };
    Comparison {
        white_score: stats::two_proportion(sum(a), na, sum(b), nb),
        draw_rate: stats::two_proportion(ra.draws as f64, na, rb.draws as f64, nb),
        white_win_rate: stats::two_proportion(ra.white_wins as f64, na, rb.white_wins as f64, nb),
        black_win_rate: stats::two_proportion(ra.black_wins as f64, na, rb.black_wins as f64, nb),
        length: stats::mann_whitney(&lengths(a), &lengths(b)),
        endings: codes
            .into_iter()
            .map(|c| {
                let t = stats::two_proportion(share(ra, &c), na, share(rb, &c), nb);
                (c, t)
            })
            .collect(),
        piece_values: ra
            .piece_values
            .iter()
            .filter_map(|pa| {
                let pb = rb.piece_values.iter().find(|p| p.piece == pa.piece)?;
                let (a, b) = (pa.estimated?, pb.estimated?);
                let se = |i: &Interval| (i.hi - i.lo) / (2.0 * stats::Z95);
                let spread = (se(&a).powi(2) + se(&b).powi(2)).sqrt();
                (spread > 0.0).then(|| {
                    let z = (a.value - b.value) / spread;
                    (
                        pa.piece,
                        Test {
                            z,
                            p: stats::two_sided_p(z),
                        },
                    )
                })
            })
            .collect(),
    }
}

/// The report of a study's games (sorted by set and index).
pub fn report(config: &StudyConfig, games: &[GameData]) -> Report {
    let of = |s: u8| games.iter().filter(|g| g.set == s).collect::<Vec<_>>();
    let (a, b) = (of(0), of(1));
    let bin = bin_width(games.iter().map(|g| g.plies).max().unwrap_or(0));
    let mut sets = vec![set_report("A", &config.set_label(0), &a, bin)];
    let mut comparison = None;
    if config.compares() {
        let rb = set_report("B", &config.set_label(1), &b, bin);
        comparison = Some(compare(&a, &b, &sets[0], &rb));
        sets.push(rb);
    }
    Report {
        config: config.clone(),
        sets,
        comparison,
        methods: methods(),
    }
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// `games.csv`: one line per game.
pub fn games_csv(games: &[GameData]) -> String {
    let mut out =
        String::from("set,game,seed,result,termination,white_points,black_points,plies,opening\n");
    for g in games {
        let _ = writeln!(
            out,
            "{},{},{},{},{},{},{},{},{}",
            if g.set == 0 { "A" } else { "B" },
            g.index + 1,
            g.seed,
            g.result,
            csv_field(&g.termination),
            g.white_points,
            g.black_points,
            g.plies,
            csv_field(&g.opening.join(" "))
        );
    }
    out
}

/// `games.jsonl`: each game's figures, one JSON object a line, first a line with the config.
pub fn games_jsonl(config: &StudyConfig, games: &[GameData]) -> Result<String, String> {
    let mut out = serde_json::to_string(config).map_err(|e| e.to_string())?;
    out.push('\n');
    for g in games {
        out.push_str(&serde_json::to_string(g).map_err(|e| e.to_string())?);
        out.push('\n');
    }
    Ok(out)
}

/// Reads `games.jsonl` back.
pub fn read_jsonl(text: &str, name: &str) -> Result<(StudyConfig, Vec<GameData>), String> {
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    let first = lines.next().ok_or_else(|| format!("{name}: empty"))?;
    let config: StudyConfig =
        serde_json::from_str(first).map_err(|e| format!("{name}: line 1: {e}"))?;
    let mut games = Vec::new();
    for (i, l) in lines.enumerate() {
        games.push(serde_json::from_str(l).map_err(|e| format!("{name}: line {}: {e}", i + 2))?);
    }
    Ok((config, games))
}

/// Writes every file of the report into `dir`.
pub fn write_all(dir: &Path, config: &StudyConfig, games: &[GameData]) -> Result<Report, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let rep = report(config, games);
    let put = |name: &str, text: &str| {
        let p = dir.join(name);
        std::fs::write(&p, text).map_err(|e| format!("{}: {e}", p.display()))
    };
    put(
        "results.json",
        &serde_json::to_string_pretty(&rep).map_err(|e| e.to_string())?,
    )?;
    put("games.csv", &games_csv(games))?;
    put("games.jsonl", &games_jsonl(config, games)?)?;
    let records: Vec<&str> = games.iter().map(|g| g.record.as_str()).collect();
    put("games.pgn", &records.join("\n"))?;
    let plots = crate::plots::all(&rep)?;
    for (name, svg) in &plots {
        put(name, svg)?;
    }
    put("index.html", &crate::html::page(&rep, &plots))?;
    Ok(rep)
}
