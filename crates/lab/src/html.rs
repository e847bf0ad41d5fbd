//! `index.html`: the report as one page, tables and inline SVG plots, no JavaScript.

use crate::report::{Report, SetReport};
use crate::stats::{Interval, Test};
use std::fmt::Write as _;

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// `0.625 [0.443, 0.807]`.
pub fn interval(i: &Option<Interval>) -> String {
    match i {
        Some(i) => format!("{:.3} [{:.3}, {:.3}]", i.value, i.lo, i.hi),
        None => "-".into(),
    }
}

/// `+89 [-40, +248]`.
pub fn elo(e: &(Option<f64>, Option<f64>, Option<f64>)) -> String {
    // Rounded first, then + 0.0, so that a score of one half reads +0, never -0.
    let f = |x: f64| format!("{:+.0}", x.round() + 0.0);
    let end = |x: Option<f64>, inf: &str| x.map_or(inf.to_string(), f);
    match e.0 {
        Some(v) => format!("{} [{}, {}]", f(v), end(e.1, "-∞"), end(e.2, "+∞")),
        None => "-".into(),
    }
}

/// `z = +1.58, p = 0.114`, with ` (significant)` below 0.05.
pub fn test(t: &Option<Test>) -> String {
    match t {
        Some(t) => format!(
            "z = {:+.2}, p = {:.3}{}",
            t.z,
            t.p,
            if t.significant() {
                " (significant)"
            } else {
                ""
            }
        ),
        None => "-".into(),
    }
}

fn rules(s: &SetReport) -> String {
    if s.rules.is_empty() {
        "default rules".into()
    } else {
        esc(&s.rules.join(" "))
    }
}

/// The page.
pub fn page(rep: &Report, plots: &[(String, String)]) -> String {
    let c = &rep.config;
    let mut h = String::new();
    let _ = write!(
        h,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Study of {v}</title>\
         <style>body{{font-family:sans-serif;max-width:60em;margin:auto;padding:1em}}table{{border-collapse:collapse}}\
         td,th{{border:1px solid #ccc;padding:.2em .6em;text-align:right}}th:first-child,td:first-child{{text-align:left}}</style>\
         </head><body>\n<h1>Study of {v}</h1>\n<p>{g} games per rule set, {lim}, seed {s}, random openings of {o} plies \
         (each played both ways), draws adjudicated after {m} plies.</p>\n",
        v = esc(&c.variant),
        g = c.games,
        lim = match (c.nodes, c.movetime) {
            (Some(n), _) => format!("{n} nodes a move (each side ×0.5–1.5 by the seed, swapped within a pair)"),
            (None, Some(ms)) => format!("{ms} ms a move"),
            _ => "no limit".into(),
        },
        s = c.seed,
        o = c.openings,
        m = c.max_plies
    );
    let cols: Vec<&SetReport> = rep.sets.iter().collect();
    let row =
        |h: &mut String, name: &str, f: &dyn Fn(&SetReport) -> String, t: Option<&Option<Test>>| {
            let _ = write!(h, "<tr><td>{name}</td>");
            for s in &cols {
                let _ = write!(h, "<td>{}</td>", f(s));
            }
            if rep.comparison.is_some() {
                let _ = write!(h, "<td>{}</td>", t.map_or(String::new(), test));
            }
            h.push_str("</tr>\n");
        };
    h.push_str("<h2>Results</h2>\n<table><tr><th></th>");
    for s in &cols {
        let _ = write!(h, "<th>{}: {}</th>", s.label, rules(s));
    }
    if rep.comparison.is_some() {
        h.push_str("<th>A against B</th>");
    }
    h.push_str("</tr>\n");
    let cmp = rep.comparison.as_ref();
    row(&mut h, "games", &|s| s.games.to_string(), None);
    row(
        &mut h,
        "White wins / draws / Black wins",
        &|s| format!("{} / {} / {}", s.white_wins, s.draws, s.black_wins),
        None,
    );
    row(
        &mut h,
        "White score (normal 95%)",
        &|s| interval(&s.white_score),
        cmp.map(|c| &c.white_score),
    );
    row(
        &mut h,
        "first-move advantage, Elo",
        &|s| elo(&s.white_elo),
        None,
    );
    row(
        &mut h,
        "White win rate (Wilson 95%)",
        &|s| interval(&s.white_win_rate),
        cmp.map(|c| &c.white_win_rate),
    );
    row(
        &mut h,
        "draw rate (Wilson 95%)",
        &|s| interval(&s.draw_rate),
        cmp.map(|c| &c.draw_rate),
    );
    row(
        &mut h,
        "Black win rate (Wilson 95%)",
        &|s| interval(&s.black_win_rate),
        cmp.map(|c| &c.black_win_rate),
    );
    row(
        &mut h,
        "length: mean; quartiles (plies)",
        &|s| match s.plies_quartiles {
            Some((a, b, c)) => format!("{:.1}; {a:.0} / {b:.0} / {c:.0}", s.mean_plies),
            None => "-".into(),
        },
        cmp.map(|c| &c.length),
    );
    if cols.iter().any(|s| s.fallbacks > 0) {
        row(
            &mut h,
            "turns where the engine's move was refused (the lab chose one of the offered moves)",
            &|s| s.fallbacks.to_string(),
            None,
        );
    }
    h.push_str("</table>\n<h2>How games end</h2>\n<table><tr><th>termination</th>");
    for s in &cols {
        let _ = write!(h, "<th>{}: games (1-0 / ½ / 0-1), points W–B</th>", s.label);
    }
    if rep.comparison.is_some() {
        h.push_str("<th>A against B</th>");
    }
    h.push_str("</tr>\n");
    let mut codes: Vec<String> = Vec::new();
    for s in &cols {
        for e in &s.endings {
            if !codes.contains(&e.code) {
                codes.push(e.code.clone());
            }
        }
    }
    for code in &codes {
        let t = cmp.and_then(|c| c.endings.get(code));
        row(
            &mut h,
            &esc(code),
            &|s| match s.endings.iter().find(|e| &e.code == code) {
                Some(e) => format!(
                    "{} ({} / {} / {}), {}–{}",
                    e.count,
                    e.white_wins,
                    e.draws,
                    e.black_wins,
                    menagerie_core::fmt_points(e.white_points),
                    menagerie_core::fmt_points(e.black_points)
                ),
                None => "0".into(),
            },
            t,
        );
    }
    h.push_str(
        "</table>\n<h2>Piece values (centipawns)</h2>\n<p>Estimated: the value at which the results of these games \
         and the engine's material balance agree, with a 95% interval (see Methods); a value the games cannot \
         determine is said so.</p>\n<table><tr><th>piece</th><th>engine</th>",
    );
    for s in &cols {
        let _ = write!(
            h,
            "<th>{}: estimated [95%]</th><th>{}: games (samples) with unequal counts</th>",
            s.label, s.label
        );
    }
    if cmp.is_some() {
        h.push_str("<th>A against B</th>");
    }
    h.push_str("</tr>\n");
    let mut pieces: Vec<char> = Vec::new();
    for s in &cols {
        for p in &s.piece_values {
            if !pieces.contains(&p.piece) {
                pieces.push(p.piece);
            }
        }
    }
    for k in pieces {
        let engine = cols
            .iter()
            .find_map(|s| {
                s.piece_values
                    .iter()
                    .find(|p| p.piece == k)
                    .and_then(|p| p.engine)
            })
            .map_or("-".into(), |v| format!("{v:.0}"));
        let _ = write!(h, "<tr><td>{}</td><td>{engine}</td>", esc(&k.to_string()));
        for s in &cols {
            match s.piece_values.iter().find(|p| p.piece == k) {
                Some(p) => {
                    let value = match (&p.estimated, &p.note) {
                        (Some(e), None) => format!("{:.0} [{:.0}, {:.0}]", e.value, e.lo, e.hi),
                        (Some(e), Some(n)) => {
                            format!("{:.0} [{:.0}, {:.0}]: {}", e.value, e.lo, e.hi, esc(n))
                        }
                        (None, Some(n)) => esc(n),
                        (None, None) => "-".into(),
                    };
                    let _ = write!(
                        h,
                        "<td>{value}</td><td>{} ({})</td>",
                        p.unequal_games, p.unequal_samples
                    );
                }
                None => h.push_str("<td>-</td><td>0</td>"),
            }
        }
        if let Some(c) = cmp {
            let _ = write!(h, "<td>{}</td>", test(&c.piece_values.get(&k).copied()));
        }
        h.push_str("</tr>\n");
    }
    h.push_str("</table>\n<p>");
    for s in &cols {
        let _ = write!(
            h,
            "{}: White's log-odds of scoring rise by {} per 100 centipawns of the engine's material balance. ",
            s.label,
            interval(&s.material_slope)
        );
    }
    h.push_str("</p>\n");
    h.push_str("<h2>Plots</h2>\n");
    for (name, svg) in plots {
        let _ = writeln!(
            h,
            "<figure>{}<figcaption>{}</figcaption></figure>",
            svg.trim_start_matches(|c| c != '<'),
            esc(name)
        );
    }
    h.push_str("<h2>Methods</h2>\n<ul>\n");
    for m in &rep.methods {
        let _ = writeln!(h, "<li>{}</li>", esc(m));
    }
    h.push_str("</ul>\n<p>Files: <a href=\"results.json\">results.json</a>, <a href=\"games.csv\">games.csv</a>, \
                <a href=\"games.pgn\">games.pgn</a> (the records), <a href=\"games.jsonl\">games.jsonl</a> (read by <code>study merge</code>).</p>\n</body></html>\n");
    h
}

#[cfg(test)]
mod tests {
    #[test]
    fn elo_texts() {
        assert_eq!(
            super::elo(&(Some(-0.2), Some(-0.0), Some(0.0))),
            "+0 [+0, +0]"
        );
        assert_eq!(
            super::elo(&(Some(88.7395), Some(-39.56), None)),
            "+89 [-40, +∞]"
        );
        assert_eq!(super::elo(&(Some(-31.0), None, Some(5.0))), "-31 [-∞, +5]");
        assert_eq!(super::elo(&(None, None, None)), "-");
    }
}
