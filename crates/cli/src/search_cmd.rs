//! `menagerie bestmove` and `menagerie analyse`: the engine on one position.

use menagerie_variants::{AnyGame, Engine, Limits, SearchInfo, VariantError, HASH_MB};
use std::time::Duration;

/// Search limits on the command line; with none given, a default time per move.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct LimitArgs {
    /// Search this many plies deep (1 to 64).
    #[arg(long, value_name = "N")]
    pub depth: Option<u64>,
    /// Search for this many milliseconds.
    #[arg(long, value_name = "MS")]
    pub movetime: Option<u64>,
    /// Search about this many nodes.
    #[arg(long, value_name = "N")]
    pub nodes: Option<u64>,
}

impl LimitArgs {
    /// The limits, or `default_ms` per move when none was given.
    pub fn limits(&self, default_ms: u64) -> Result<Limits, VariantError> {
        let bad = |e: menagerie_variants::LimitError| VariantError::Other(e.to_string());
        let mut l = Limits {
            depth: self
                .depth
                .map(Limits::checked_depth)
                .transpose()
                .map_err(bad)?,
            nodes: self
                .nodes
                .map(Limits::checked_nodes)
                .transpose()
                .map_err(bad)?,
            movetime: self
                .movetime
                .map(Limits::checked_movetime)
                .transpose()
                .map_err(bad)?,
        };
        if l == Limits::default() {
            l.movetime = Some(Duration::from_millis(default_ms));
        }
        Ok(l)
    }
}

/// One iteration as `analyse` prints it.
pub fn iteration_line(it: &SearchInfo) -> String {
    format!(
        "depth {} seldepth {} score {} nodes {} nps {} time {} pv {}",
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
    let report = Engine::new(HASH_MB).search(&*g, &limits, None, &mut |it| {
        eprintln!("{}", iteration_line(it))
    });
    let best = report
        .best
        .ok_or_else(|| VariantError::Other("there is no legal move to play".into()))?;
    println!("{best}");
    Ok(())
}

/// `analyse`: one line per iteration on stdout, then the best move.
pub fn analyse(g: Box<dyn AnyGame>, limits: &LimitArgs) -> Result<(), VariantError> {
    let limits = limits.limits(3000)?;
    ensure_playable(g.as_ref())?;
    let mut engine = Engine::new(HASH_MB);
    println!("position {}", g.fen());
    println!(
        "static eval {}",
        menagerie_variants::Score::Cp(engine.evaluate(&*g)?)
    );
    let report = engine.search(&*g, &limits, None, &mut |it| {
        println!("{}", iteration_line(it))
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
