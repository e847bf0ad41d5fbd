//! `menagerie uci`: this engine speaking the UCI protocol (for chess and, with
//! `--variant`, any game whose canonical move text suits UCI), with `go perft` too.
//!
//! Searches and perft run off the command loop, so `isready`, `stop` and `quit` are
//! answered while they run.

use crate::session::{Bounds, Out};
use menagerie_core::RuleOptions;
use menagerie_play::clock;
use menagerie_play::engine::Engine;
use menagerie_play::limits::{self, Kind};
use menagerie_play::lines::{self, Line};
use menagerie_play::perft;
use menagerie_variants::{find, AnyGame, Limits, SearchInfo, Variant, VariantError};
use std::io::BufRead;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Options of `menagerie uci`.
#[derive(clap::Args, Debug)]
pub struct UciArgs {
    /// The variant to play (the `UCI_Variant` option chooses another).
    #[arg(long, default_value = "chess")]
    variant: String,
    /// A rule option as name=value (repeatable; `menagerie variants --options` lists them).
    #[arg(long = "rule", value_name = "NAME=VALUE")]
    rules: Vec<String>,
}

fn info_line(it: &SearchInfo, lines: u32) -> String {
    let k = if lines > 1 {
        format!(" multipv {}", it.multipv)
    } else {
        String::new()
    };
    format!(
        "info depth {}{k} seldepth {} score {} nodes {} nps {} time {} pv {}",
        it.depth,
        it.seldepth,
        it.score.uci(),
        it.nodes,
        it.nps,
        it.elapsed.as_millis(),
        it.pv.join(" ")
    )
}

/// Limits from the words after `go`, each number brought into the one range every front
/// end uses (a `go` must always be answered); complaints go out as `info string`.
fn go_limits(out: &Out, words: &[&str], white: bool) -> Limits {
    let mut l = Limits::default();
    // Numbers saturate: a GUI's clock may hold anything.
    let num = |i: usize| {
        words.get(i + 1).and_then(|w| {
            w.parse::<u64>().ok().or_else(|| {
                (!w.is_empty() && w.bytes().all(|b| b.is_ascii_digit())).then_some(u64::MAX)
            })
        })
    };
    let checked = |kind: Kind, n: Option<u64>| {
        n.map(|n| {
            if !kind.range().contains(&n) {
                out.say(&format!(
                    "info string {}",
                    limits::out_of_range(kind, &n.to_string())
                ));
            }
            limits::clamp(kind, n)
        })
    };
    let (mut time, mut inc, mut togo) = (None, 0, None);
    for (i, w) in words.iter().enumerate() {
        match *w {
            "depth" => l.depth = checked(Kind::Depth, num(i)).map(|d| d as u32),
            "nodes" => l.nodes = checked(Kind::Nodes, num(i)),
            "movetime" => l.movetime = checked(Kind::Movetime, num(i)).map(Duration::from_millis),
            "wtime" if white => time = num(i),
            "btime" if !white => time = num(i),
            "winc" if white => inc = num(i).unwrap_or(0),
            "binc" if !white => inc = num(i).unwrap_or(0),
            "movestogo" => togo = num(i),
            _ => {}
        }
    }
    if let Some(t) = time {
        l.movetime = Some(clock::allocate(t, inc, togo));
    }
    l
}

/// What runs off the loop.
enum Job {
    Search(JoinHandle<Engine>),
    Perft(JoinHandle<()>),
}

impl Job {
    fn finished(&self) -> bool {
        match self {
            Job::Search(h) => h.is_finished(),
            Job::Perft(h) => h.is_finished(),
        }
    }
}

/// The protocol state.
struct Session {
    variant: Variant,
    options: RuleOptions,
    game: Box<dyn AnyGame>,
    engine: Option<Engine>,
    job: Option<Job>,
    /// Whether the running search has no limit of its own (`go infinite`, or none given).
    unlimited: bool,
    stop: Arc<AtomicBool>,
    /// `Threads`.
    threads: u32,
    /// `MultiPV`.
    multipv: u32,
    /// `UCI_LimitStrength` and `UCI_Elo`.
    limit_strength: bool,
    elo: u32,
    /// `Skill Level` (0..=20; 20 is full strength).
    skill_level: u32,
    out: Out,
    bounds: Bounds,
}

/// The lowest and highest `UCI_Elo` offered: the estimates of levels 1 and 8.
const ELO_MIN: u32 = menagerie_variants::levels::LEVEL_ELO[0];
const ELO_MAX: u32 = menagerie_variants::levels::LEVEL_ELO[7];

impl Session {
    /// Waits for what runs, at most `patience` (then it is left to end alone); stops it
    /// first when `stop` is set or it would never end by itself (an unlimited search, a
    /// perft).
    fn halt(&mut self, patience: Duration, stop: bool) {
        let Some(job) = self.job.take() else { return };
        if stop || self.unlimited || matches!(job, Job::Perft(_)) {
            self.stop.store(true, Ordering::Relaxed);
        }
        let deadline = Instant::now().checked_add(patience);
        while !job.finished() && deadline.is_none_or(|d| Instant::now() < d) {
            std::thread::sleep(Duration::from_millis(2));
        }
        if !job.finished() {
            // Still running: kept, so a later call can stop it.
            self.job = Some(job);
            return;
        }
        match job {
            Job::Search(h) => self.engine = h.join().ok(),
            Job::Perft(h) => {
                let _ = h.join();
            }
        }
    }

    fn position(&mut self, words: &[&str]) {
        let moves_at = words.iter().position(|w| *w == "moves");
        let setup = &words[1..moves_at.unwrap_or(words.len())];
        let fen = match setup.first() {
            Some(&"fen") => Some(setup[1..].join(" ")),
            _ => None,
        };
        match self.variant.open(fen.as_deref(), &self.options) {
            Ok(mut g) => {
                for mv in moves_at.map_or(&[][..], |i| &words[i + 1..]) {
                    if let Err(e) = g.push(mv) {
                        self.out.say(&format!("info string illegal move {mv}: {e}"));
                        break;
                    }
                }
                self.game = g;
            }
            Err(e) => self.out.say(&format!("info string {e}")),
        }
    }

    fn setoption(&mut self, words: &[&str]) {
        // setoption name <id...> [value <x...>]
        let value_at = words.iter().position(|w| *w == "value");
        let name = words
            .get(2..value_at.unwrap_or(words.len()))
            .map(|w| w.join(" "))
            .unwrap_or_default();
        let value = value_at
            .map(|i| words[i + 1..].join(" "))
            .unwrap_or_default();
        match name.to_ascii_lowercase().as_str() {
            "uci_variant" => {
                let id = if value == "normal" { "chess" } else { &value };
                match find(id) {
                    Ok(v) => match v.open(None, &self.options) {
                        Ok(g) => {
                            self.variant = v;
                            self.game = g;
                        }
                        Err(e) => self.out.say(&format!("info string {e}")),
                    },
                    Err(e) => self.out.say(&format!("info string {e}")),
                }
            }
            // Accepted for GUIs that always send them; the engine has one thread and a
            // hash table of its own size.
            "threads" | "multipv" | "uci_elo" | "skill level" => {
                let n = value.trim().parse::<u64>().unwrap_or(u64::MAX);
                match name.to_ascii_lowercase().as_str() {
                    "threads" => self.threads = n.clamp(1, 64) as u32,
                    "multipv" => self.multipv = n.clamp(1, 64) as u32,
                    "uci_elo" => self.elo = n.clamp(u64::from(ELO_MIN), u64::from(ELO_MAX)) as u32,
                    _ => self.skill_level = n.min(20) as u32,
                }
            }
            "uci_limitstrength" => self.limit_strength = value.trim().eq_ignore_ascii_case("true"),
            "hash" | "ponder" | "clear hash" => {
                if name.eq_ignore_ascii_case("clear hash") {
                    if let Some(e) = self.engine.as_mut() {
                        e.new_game();
                    }
                }
            }
            _ => self.out.say(&format!(
                "info string no option named '{name}' (UCI_Variant, Hash, Threads, MultiPV, UCI_LimitStrength, UCI_Elo, Skill Level, Clear Hash)"
            )),
        }
    }

    fn go(&mut self, words: &[&str]) {
        self.stop.store(false, Ordering::Relaxed);
        let flag = self.stop.clone();
        let out = self.out.clone();
        if words.get(1) == Some(&"perft") {
            let depth = match perft::parse_depth(words.get(2).copied().unwrap_or("1")) {
                Ok(d) if d > self.bounds.perft_depth => {
                    out.say(&format!(
                        "info string perft deeper than {} is not run in this session",
                        self.bounds.perft_depth
                    ));
                    return;
                }
                Ok(d) => d,
                Err(e) => {
                    out.say(&format!("info string {e}"));
                    return;
                }
            };
            let g = self.game.fork();
            self.job = Some(Job::Perft(std::thread::spawn(move || match perft::divide(
                g.as_ref(),
                depth,
                &flag,
            ) {
                Some(rows) => {
                    for (mv, n) in &rows {
                        out.say(&format!("{mv}: {n}"));
                    }
                    out.say("");
                    out.say(&format!("Nodes searched: {}", perft::total(depth, &rows)));
                }
                None => out.say("info string perft stopped"),
            })));
            return;
        }
        let g = self.game.fork();
        let mut limits = go_limits(&out, words, g.turn() == menagerie_core::Color::White);
        if words.contains(&"infinite") {
            limits = Limits::default();
        }
        self.unlimited = limits == Limits::default();
        // A weakened engine: the level's limits, and the tighter of its time and the clock's.
        let level = if self.limit_strength {
            Some(menagerie_variants::level_for_elo(self.elo))
        } else if self.skill_level < 20 {
            Some(menagerie_variants::level_for_skill(self.skill_level))
        } else {
            None
        };
        if let Some(Ok(l)) = level.map(|n| menagerie_variants::level_limits(g.variant(), n)) {
            limits = Limits {
                movetime: match (limits.movetime, l.movetime) {
                    (Some(a), Some(b)) => Some(a.min(b)),
                    (a, b) => a.or(b),
                },
                ..l
            };
            self.unlimited = false;
        }
        let mut limits = self.bounds.cap(limits);
        limits.threads = (self.threads > 1).then_some(self.threads);
        limits.multipv = (self.multipv > 1).then_some(self.multipv);
        let lines = self.multipv;
        let mut engine = self.engine.take().unwrap_or_default();
        self.job = Some(Job::Search(std::thread::spawn(move || {
            let r = engine.search(g.as_ref(), &limits, Some(flag), &mut |it| {
                out.say(&info_line(it, lines))
            });
            out.say(&format!(
                "bestmove {}",
                r.best.unwrap_or_else(|| "0000".into())
            ));
            engine
        })));
    }
}

/// Runs the protocol loop on stdin and stdout.
pub fn run(args: UciArgs) -> Result<(), VariantError> {
    let variant = find(&args.variant)?;
    let options = crate::rule_options(variant.id, &args.rules)?;
    let stdin = std::io::stdin();
    session(
        variant,
        options,
        stdin.lock(),
        Out::stdout(),
        Bounds::protocol(),
    )?;
    Ok(())
}

/// Runs the protocol loop over `input` until its end or `quit`, writing to `out`, every
/// search within `bounds`. `Ok(true)` when nothing it started still runs at its end.
pub fn session(
    variant: Variant,
    options: RuleOptions,
    mut input: impl BufRead,
    out: Out,
    bounds: Bounds,
) -> Result<bool, VariantError> {
    let mut s = Session {
        game: variant.open(None, &options)?,
        variant,
        options,
        engine: Some(Engine::new()),
        job: None,
        unlimited: false,
        stop: Arc::new(AtomicBool::new(false)),
        threads: 1,
        multipv: 1,
        limit_strength: false,
        elo: ELO_MAX,
        skill_level: 20,
        out,
        bounds,
    };
    loop {
        let line = match lines::next_line(&mut input) {
            Ok(Line::Text(line)) => line,
            Ok(Line::NotText) => {
                s.out
                    .say("info string error: the line is not UTF-8 text, so it is ignored");
                continue;
            }
            Ok(Line::TooLong) => {
                s.out.say(&format!(
                    "info string error: a line longer than {} bytes is ignored",
                    lines::MAX_LINE_BYTES
                ));
                continue;
            }
            Ok(Line::End) | Err(_) => break,
        };
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(&cmd) = words.first() else { continue };
        // Any command but `isready`/`stop` waits for a running search first: a GUI sends
        // them only after `bestmove`. A stray one stops an infinite search, and waits for a
        // limited one to end by its limits for a while, then stops it too (a clock of days
        // must not hold the session).
        if !matches!(cmd, "isready" | "stop" | "quit") {
            s.halt(s.bounds.stray_patience, false);
            s.halt(s.bounds.quit_patience, true);
        }
        match cmd {
            "uci" => {
                s.out.say("id name Menagerie");
                s.out.say("id author the Menagerie authors");
                let ids: Vec<&str> = menagerie_variants::registry()
                    .iter()
                    .map(|v| v.id)
                    .collect();
                s.out.say(&format!(
                    "option name UCI_Variant type combo default {} var {}",
                    s.variant.id,
                    ids.join(" var ")
                ));
                s.out
                    .say("option name Hash type spin default 16 min 1 max 16");
                s.out
                    .say("option name Threads type spin default 1 min 1 max 64");
                s.out
                    .say("option name MultiPV type spin default 1 min 1 max 64");
                s.out
                    .say("option name UCI_LimitStrength type check default false");
                s.out.say(&format!(
                    "option name UCI_Elo type spin default {ELO_MAX} min {ELO_MIN} max {ELO_MAX}"
                ));
                s.out
                    .say("option name Skill Level type spin default 20 min 0 max 20");
                s.out.say("option name Clear Hash type button");
                s.out.say("uciok");
            }
            "isready" => s.out.say("readyok"),
            "ucinewgame" => {
                if let Some(e) = s.engine.as_mut() {
                    e.new_game();
                }
            }
            "setoption" => s.setoption(&words),
            "position" => s.position(&words),
            "go" => s.go(&words),
            "stop" => s.stop.store(true, Ordering::Relaxed),
            "quit" => break,
            _ => s.out.say(&format!("info string unknown command {cmd}")),
        }
    }
    s.halt(s.bounds.quit_patience, true);
    Ok(s.job.is_none())
}
