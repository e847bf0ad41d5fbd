//! `menagerie uci`: this engine speaking the UCI protocol (for chess and, with
//! `--variant`, any game whose canonical move text suits UCI), with `go perft` too.

use menagerie_core::RuleOptions;
use menagerie_variants::{find, AnyGame, Engine, Limits, SearchInfo, VariantError, HASH_MB};
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// Options of `menagerie uci`.
#[derive(clap::Args, Debug)]
pub struct UciArgs {
    /// The variant to play.
    #[arg(long, default_value = "chess")]
    variant: String,
}

fn info_line(it: &SearchInfo) -> String {
    format!(
        "info depth {} seldepth {} score {} nodes {} nps {} time {} pv {}",
        it.depth,
        it.seldepth,
        it.score.uci(),
        it.nodes,
        it.nps,
        it.elapsed.as_millis(),
        it.pv.join(" ")
    )
}

fn say(line: &str) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

/// Limits from the words after `go`.
fn go_limits(words: &[&str], white: bool) -> Limits {
    let mut l = Limits::default();
    let num = |i: usize| words.get(i + 1).and_then(|w| w.parse::<u64>().ok());
    let (mut time, mut inc, mut togo) = (None, 0, 30);
    for (i, w) in words.iter().enumerate() {
        match *w {
            "depth" => l.depth = num(i).map(|d| d.clamp(1, 64) as u32),
            "nodes" => l.nodes = num(i),
            "movetime" => l.movetime = num(i).map(Duration::from_millis),
            "wtime" if white => time = num(i),
            "btime" if !white => time = num(i),
            "winc" if white => inc = num(i).unwrap_or(0),
            "binc" if !white => inc = num(i).unwrap_or(0),
            "movestogo" => togo = num(i).unwrap_or(30).max(1),
            _ => {}
        }
    }
    if let Some(t) = time {
        // Spend an even share of the clock plus most of the increment, never half of it.
        let budget = (t / togo.min(40) + inc * 3 / 4).min(t / 2).max(1);
        l.movetime = Some(Duration::from_millis(budget));
    }
    l
}

/// Runs the protocol loop on stdin and stdout.
pub fn run(args: UciArgs) -> Result<(), VariantError> {
    let variant = find(&args.variant)?;
    let options = RuleOptions::new();
    let mut game: Option<Box<dyn AnyGame>> = Some(variant.open(None, &options)?);
    let mut searching: Option<JoinHandle<Box<dyn AnyGame>>> = None;
    // Whether the running search has no limit of its own (`go infinite`, or none given).
    let mut unlimited = false;
    // One engine for the session: its hash table lives across the positions of a game.
    let engine = Arc::new(Mutex::new(Engine::new(HASH_MB)));
    let stop = Arc::new(AtomicBool::new(false));
    let stdin = std::io::stdin();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(&cmd) = words.first() else { continue };
        // Any command but `isready`/`stop` waits for a running search first: a GUI sends
        // them only after `bestmove`. A stray one stops an infinite search (the stop is
        // obeyed at once) and waits for a limited one to end by its limits.
        if !matches!(cmd, "isready" | "stop" | "quit") {
            if let Some(h) = searching.take() {
                if unlimited {
                    stop.store(true, Ordering::Relaxed);
                }
                game = h.join().ok();
            }
        }
        match cmd {
            "uci" => {
                say("id name Menagerie");
                say("id author the Menagerie authors");
                say("uciok");
            }
            "isready" => say("readyok"),
            "ucinewgame" => {
                engine.lock().unwrap_or_else(|e| e.into_inner()).new_game();
            }
            "position" => {
                let moves_at = words.iter().position(|w| *w == "moves");
                let setup = &words[1..moves_at.unwrap_or(words.len())];
                let fen = match setup.first() {
                    Some(&"fen") => Some(setup[1..].join(" ")),
                    _ => None,
                };
                match variant.open(fen.as_deref(), &options) {
                    Ok(mut g) => {
                        for mv in moves_at.map_or(&[][..], |i| &words[i + 1..]) {
                            if let Err(e) = g.push(mv) {
                                say(&format!("info string illegal move {mv}: {e}"));
                                break;
                            }
                        }
                        game = Some(g);
                    }
                    Err(e) => say(&format!("info string {e}")),
                }
            }
            "go" => {
                let Some(g) = game.take() else { continue };
                if words.get(1) == Some(&"perft") {
                    let depth = words.get(2).and_then(|d| d.parse().ok()).unwrap_or(1);
                    let rows = g.divide(depth);
                    for (mv, n) in &rows {
                        say(&format!("{mv}: {n}"));
                    }
                    say("");
                    say(&format!(
                        "Nodes searched: {}",
                        rows.iter().map(|(_, n)| n).sum::<u64>()
                    ));
                    game = Some(g);
                    continue;
                }
                let mut limits = go_limits(&words, g.turn() == menagerie_core::Color::White);
                if words.contains(&"infinite") {
                    limits = Limits::default();
                }
                unlimited = limits == Limits::default();
                stop.store(false, Ordering::Relaxed);
                let flag = stop.clone();
                let engine = engine.clone();
                searching = Some(std::thread::spawn(move || {
                    let mut engine = engine.lock().unwrap_or_else(|e| e.into_inner());
                    let r = engine.search(&*g, &limits, Some(flag), &mut |it| say(&info_line(it)));
                    say(&format!(
                        "bestmove {}",
                        r.best.unwrap_or_else(|| "0000".into())
                    ));
                    g
                }));
            }
            "stop" => stop.store(true, Ordering::Relaxed),
            "quit" => {
                stop.store(true, Ordering::Relaxed);
                if let Some(h) = searching.take() {
                    let _ = h.join();
                }
                return Ok(());
            }
            _ => say(&format!("info string unknown command {cmd}")),
        }
    }
    stop.store(true, Ordering::Relaxed);
    if let Some(h) = searching.take() {
        let _ = h.join();
    }
    Ok(())
}
