//! `menagerie bestmove` and `menagerie analyse`: the engine on one position.

use menagerie_play::engine::Engine;
use menagerie_play::limits;
use menagerie_variants::{AnyGame, Limits, SearchInfo, VariantError};
use std::time::Duration;

/// Search limits on the command line; with none given, a default time per move.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct LimitArgs {
    /// Search this many plies deep (1 to 64).
    #[arg(long, value_name = "N", value_parser = limits::parse_depth)]
    pub depth: Option<u32>,
    /// Search for this many milliseconds (1 to 86400000).
    #[arg(long, value_name = "MS", value_parser = limits::parse_movetime)]
    pub movetime: Option<u64>,
    /// Search about this many nodes (1 to 1000000000000).
    #[arg(long, value_name = "N", value_parser = limits::parse_nodes)]
    pub nodes: Option<u64>,
    /// Search with this many threads (1 to 64; Lazy SMP over one shared hash table).
    #[arg(long, value_name = "N", value_parser = parse_threads)]
    pub threads: Option<u32>,
}

/// A thread count from text (1 to 64).
pub fn parse_threads(text: &str) -> Result<u32, String> {
    let n = text
        .trim()
        .parse::<u64>()
        .map_err(|_| format!("threads needs a whole number, not '{text}'"))?;
    Limits::checked_threads(n).map_err(|e| e.to_string())
}

/// A number of lines from text (1 to 64).
pub fn parse_multipv(text: &str) -> Result<u32, String> {
    let n = text
        .trim()
        .parse::<u64>()
        .map_err(|_| format!("multipv needs a whole number, not '{text}'"))?;
    Limits::checked_multipv(n).map_err(|e| e.to_string())
}

impl LimitArgs {
    /// The limits, or `default_ms` per move when none was given.
    pub fn limits(&self, default_ms: u64) -> Result<Limits, VariantError> {
        let mut l = Limits {
            depth: self.depth,
            nodes: self.nodes,
            movetime: self.movetime.map(Duration::from_millis),
            ..Limits::default()
        };
        if l == Limits::default() {
            l.movetime = Some(Duration::from_millis(default_ms));
        }
        l.threads = self.threads;
        limits::check(&l).map_err(VariantError::Other)?;
        Ok(l)
    }
}

/// One iteration as `analyse` prints it (`multipv K` after the depth when several lines were
/// asked for).
pub fn iteration_line(it: &SearchInfo, lines: u32) -> String {
    let k = if lines > 1 {
        format!(" multipv {}", it.multipv)
    } else {
        String::new()
    };
    format!(
        "depth {}{k} seldepth {} score {} nodes {} nps {} time {} pv {}",
        it.depth,
        it.seldepth,
        it.score,
        it.nodes,
        it.nps,
        it.elapsed.as_millis(),
        it.pv_human.join(" ")
    )
}

fn ensure_playable(g: &dyn AnyGame) -> Result<(), VariantError> {
    match g.outcome() {
        Some(o) => Err(VariantError::Other(format!(
            "the game is over ({o}), so there is no move to search"
        ))),
        None => Ok(()),
    }
}

/// `bestmove`: iterations on stderr, the move on the last line of stdout.
pub fn bestmove(g: Box<dyn AnyGame>, limits: &LimitArgs) -> Result<(), VariantError> {
    let limits = limits.limits(1000)?;
    ensure_playable(g.as_ref())?;
    let report = Engine::new().search(g.as_ref(), &limits, None, &mut |it| {
        eprintln!("{}", iteration_line(it, 1))
    });
    let best = report
        .best
        .ok_or_else(|| VariantError::Other("there is no legal move to play".into()))?;
    println!("{best}");
    Ok(())
}

/// `analyse`: one line per iteration (and per line with `multipv`) on stdout, then the best
/// move.
pub fn analyse(
    g: Box<dyn AnyGame>,
    limits: &LimitArgs,
    multipv: Option<u32>,
) -> Result<(), VariantError> {
    let mut limits = limits.limits(3000)?;
    limits.multipv = multipv;
    let lines = multipv.unwrap_or(1);
    ensure_playable(g.as_ref())?;
    let mut engine = Engine::new();
    println!("position {}", g.fen());
    println!(
        "static eval {}",
        menagerie_variants::Score::Cp(engine.evaluate(g.as_ref())?)
    );
    let report = engine.search(g.as_ref(), &limits, None, &mut |it| {
        println!("{}", iteration_line(it, lines))
    });
    // When the move chosen is not simply the last line's (a search over the opponent's
    // possible secrets), say why and show the line that belongs to it.
    if let Some(note) = &report.note {
        println!("note {note}");
        println!(
            "line score {} pv {}",
            report.info.score,
            report.info.pv_human.join(" ")
        );
    }
    if let (Some(best), Some(human)) = (report.best, report.best_human) {
        println!("bestmove {best} ({human}) score {}", report.info.score);
    }
    Ok(())
}
