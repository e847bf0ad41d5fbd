//! `menagerie xboard`: this engine speaking the XBoard / CECP protocol (version 2) for every
//! game, with XBoard's coordinates and a `setup` command for boards other than 8x8 chess.

use crate::session::{Bounds, Out};
use crate::xboard_moves::{canonical_guesses, parse_xb_move, setup_line, xb_moves, Coords};
use menagerie_core::{Color, MoveError, RuleOptions};
use menagerie_play::clock::{self, TimeControl};
use menagerie_play::engine::Engine;
use menagerie_play::limits::{self, Kind};
use menagerie_play::lines::{self, Line};
use menagerie_variants::{find, registry, AnyGame, Limits, Score, Variant, VariantError};
use std::collections::VecDeque;
use std::io::BufRead;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Options of `menagerie xboard`.
#[derive(clap::Args, Debug)]
pub struct XboardArgs {
    /// The variant `new` starts (XBoard's `variant` command chooses another).
    #[arg(long, default_value = "chess")]
    variant: String,
    /// A rule option as name=value (repeatable); defaults are the rulebook's rulings.
    #[arg(long = "rule", value_name = "NAME=VALUE")]
    rules: Vec<String>,
}

/// The XBoard name of a variant: `normal` for chess, else the id.
fn xb_name(id: &str) -> &str {
    if id == "chess" {
        "normal"
    } else {
        id
    }
}

/// The `feature` line announcing what this engine does.
pub fn feature_line() -> String {
    let names: Vec<&str> = registry().iter().map(|v| xb_name(v.id)).collect();
    format!(
        "feature myname=\"Menagerie\" variants=\"{}\" setboard=1 usermove=1 san=0 sigint=0 \
sigterm=0 ping=1 colors=0 analyze=1 playother=1 time=1 draw=0 reuse=1 smp=1 done=1",
        names.join(",")
    )
}

/// What the main loop waits for: a line from XBoard or a finished search.
enum Event {
    Line(String),
    /// A line that is not UTF-8 text.
    Garbled,
    Eof,
    Searched {
        id: u64,
        game: Box<dyn AnyGame>,
        engine: Engine,
        best: Option<String>,
    },
}

/// Why a search runs.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Purpose {
    Move,
    Analyse,
}

/// The answer to a line that is not text.
const GARBLED: &str = "Error (the line is not UTF-8 text or is too long, so it is ignored): ?";

/// The time per move when XBoard sets no time control.
const DEFAULT_MOVETIME: Duration = Duration::from_secs(5);

/// A score as XBoard reads it: centipawns, mates as 100000 + moves.
fn xb_score(s: Score) -> i64 {
    match s {
        Score::Cp(cp) => i64::from(cp),
        Score::WinIn(p) => 100_000 + i64::from(p.div_ceil(2)),
        Score::LossIn(p) => -100_000 - i64::from(p.div_ceil(2)),
    }
}

/// A score ordered for comparison.
fn rank_score(s: Score) -> i64 {
    match s {
        Score::Cp(cp) => i64::from(cp),
        Score::WinIn(p) => 10_000_000 - i64::from(p),
        Score::LossIn(p) => -10_000_000 + i64::from(p),
    }
}

/// The reason inside a move error, for `Illegal move (reason): move`.
fn reason(e: &MoveError) -> String {
    match e {
        MoveError::Syntax { reason, .. } | MoveError::Illegal { reason, .. } => reason.clone(),
        MoveError::Ambiguous { candidates, .. } => format!("ambiguous, it could be {candidates}"),
        MoveError::GameOver(o) => format!("the game is over: {o}"),
    }
}

/// The chosen move if XBoard can show it; else the best of the moves it can show, each
/// searched briefly, so the board in the GUI never goes wrong.
fn showable_choice(
    engine: &mut Engine,
    game: &mut dyn AnyGame,
    best: Option<String>,
    bounds: &Bounds,
) -> Option<String> {
    let table = xb_moves(game);
    let best = best?;
    if table.values().any(|c| *c == best) {
        return Some(best);
    }
    let me = game.turn();
    let mut choice: Option<(i64, String)> = None;
    // A quick look at each: a one-ply search while the second lasts, then the static
    // evaluation.
    let look = bounds
        .movetime
        .map_or(Duration::from_secs(1), |t| t.min(Duration::from_secs(1)));
    let deadline = std::time::Instant::now() + look;
    for canonical in table.values() {
        let mut probe = game.fork();
        if probe.push(canonical).is_err() {
            continue;
        }
        let value = match probe.outcome() {
            Some(o) if o.winner == Some(me) => i64::MAX,
            Some(o) if o.winner.is_none() => 0,
            Some(_) => i64::MIN + 1,
            None if std::time::Instant::now() < deadline => {
                let limits = bounds.cap(Limits {
                    depth: Some(1),
                    nodes: Some(2_000),
                    movetime: None,
                    ..Limits::default()
                });
                let report = engine.search(probe.as_ref(), &limits, None, &mut |_| {});
                -rank_score(report.info.score)
            }
            None => -i64::from(engine.evaluate(probe.as_ref()).unwrap_or(0)),
        };
        if choice.as_ref().is_none_or(|(v, _)| value > *v) {
            choice = Some((value, canonical.clone()));
        }
    }
    // When no move has an XBoard form, send the game's own text: the GUI will refuse it,
    // which at least says where the game went.
    Some(choice.map_or(best, |(_, c)| c))
}

struct Session {
    default: Variant,
    variant: Variant,
    options: RuleOptions,
    game: Option<Box<dyn AnyGame>>,
    searcher: Option<Engine>,
    force: bool,
    engine: Color,
    post: bool,
    analysing: bool,
    clock: TimeControl,
    /// Threads per search (`cores N`).
    cores: Option<u32>,
    search: Option<(u64, Purpose, Arc<AtomicBool>)>,
    next_id: u64,
    tx: Sender<Event>,
    /// Lines held back while a move is being chosen (`ping` must wait for the move).
    held: VecDeque<String>,
    /// Lines read while stopping a search, to handle afterwards.
    queued: VecDeque<String>,
    out: Out,
    bounds: Bounds,
}

impl Session {
    fn game(&mut self) -> Result<&mut Box<dyn AnyGame>, VariantError> {
        self.game
            .as_mut()
            .ok_or_else(|| VariantError::Other("the engine lost its game".into()))
    }

    /// Starts a game of `variant` and tells XBoard about its board when it is not chess.
    fn start(&mut self, variant: Variant) -> Result<(), VariantError> {
        let g = variant.open(None, &self.options)?;
        if variant.id != "chess" {
            // The player facing the engine (White after `new`) sees only their own view.
            let view = menagerie_play::view::as_seen_by(
                &variant,
                &self.options,
                g.as_ref(),
                Some(Color::White),
            )?;
            self.out.say(&setup_line(view.as_ref(), g.as_ref()));
        }
        self.variant = variant;
        self.game = Some(g);
        Ok(())
    }

    /// Stops a running search and waits for it, keeping lines that arrive meanwhile.
    fn halt(&mut self, rx: &Receiver<Event>) {
        let Some((id, _, flag)) = self.search.take() else {
            return;
        };
        flag.store(true, Ordering::Relaxed);
        while let Ok(ev) = rx.recv() {
            match ev {
                Event::Line(l) => self.queued.push_back(l),
                Event::Garbled => self.out.say(GARBLED),
                Event::Eof => self.queued.push_back("quit".into()),
                Event::Searched {
                    id: got,
                    game,
                    engine,
                    ..
                } if got == id => {
                    self.game = Some(game);
                    self.searcher = Some(engine);
                    break;
                }
                Event::Searched { .. } => {}
            }
        }
    }

    /// Starts searching for the engine's move, or for analysis.
    fn think(&mut self, purpose: Purpose) -> Result<(), VariantError> {
        let Some(mut g) = self.game.take() else {
            return Ok(());
        };
        if g.outcome().is_some() {
            self.game = Some(g);
            return Ok(());
        }
        let mut limits = self.bounds.cap(match purpose {
            Purpose::Move => self.clock.limits(g.ply(), DEFAULT_MOVETIME),
            Purpose::Analyse => Limits::default(),
        });
        limits.threads = self.cores;
        let mut engine = self.searcher.take().unwrap_or_default();
        let flag = Arc::new(AtomicBool::new(false));
        let id = self.next_id;
        self.next_id += 1;
        self.search = Some((id, purpose, flag.clone()));
        let tx = self.tx.clone();
        let post = self.post || purpose == Purpose::Analyse;
        let (out, bounds) = (self.out.clone(), self.bounds.clone());
        std::thread::spawn(move || {
            let r = engine.search(g.as_ref(), &limits, Some(flag), &mut |it| {
                if post {
                    out.say(&format!(
                        "{} {} {} {} {}",
                        it.depth,
                        xb_score(it.score),
                        it.elapsed.as_millis() / 10,
                        it.nodes,
                        it.pv_human.join(" ")
                    ));
                }
            });
            let best = match purpose {
                Purpose::Move => showable_choice(&mut engine, g.as_mut(), r.best, &bounds),
                Purpose::Analyse => r.best,
            };
            let _ = tx.send(Event::Searched {
                id,
                game: g,
                engine,
                best,
            });
        });
        Ok(())
    }

    /// Announces the result if the game is over.
    fn report_end(&mut self) -> Result<bool, VariantError> {
        match self.game()?.outcome() {
            Some(o) => {
                self.out.say(&format!("{} {{{o}}}", o.result()));
                Ok(true)
            }
            None => Ok(false),
        }
    }

    /// Plays a move XBoard sent; replies `Illegal move (reason): text` when it cannot.
    fn user_move(&mut self, text: &str) -> Result<bool, VariantError> {
        let g = self.game()?;
        let table = xb_moves(g.as_ref());
        let geometry = g.geometry().clone();
        let canonical = table.get(&text.to_ascii_lowercase()).cloned();
        let result = match canonical {
            Some(c) => g.push(&c),
            None => {
                // Ask the game why, in its own notation; a move it accepts is played.
                let mut guesses = parse_xb_move(&geometry, text)
                    .map(|c: Coords| canonical_guesses(&geometry, c))
                    .unwrap_or_default();
                // The game's own separator first: `d3-d5` where its moves are written so.
                if g.legal_moves().iter().any(|m| m.contains('-')) {
                    guesses.sort_by_key(|t| !t.contains('-'));
                }
                let mut outcome = Err(MoveError::Illegal {
                    text: text.into(),
                    reason: "no legal move matches it".into(),
                });
                for guess in guesses.iter().map(String::as_str).chain([text]) {
                    match g.push(guess) {
                        Ok(played) => {
                            outcome = Ok(played);
                            break;
                        }
                        Err(e) => {
                            let vague = matches!(&e, MoveError::Illegal { reason, .. }
                                if reason == "no legal move matches it")
                                || matches!(e, MoveError::Syntax { .. });
                            let have_vague = match &outcome {
                                Err(MoveError::Illegal { reason, .. }) => {
                                    reason == "no legal move matches it"
                                }
                                _ => false,
                            };
                            if !vague && have_vague {
                                outcome = Err(e);
                            }
                        }
                    }
                }
                outcome
            }
        };
        match result {
            Ok(_) => Ok(true),
            Err(e) => {
                self.out
                    .say(&format!("Illegal move ({}): {text}", reason(&e)));
                Ok(false)
            }
        }
    }

    /// Handles one command; `false` ends the session.
    fn command(&mut self, line: &str, rx: &Receiver<Event>) -> Result<bool, VariantError> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(&cmd) = words.first() else {
            return Ok(true);
        };
        let arg = |i: usize| words.get(i).copied().unwrap_or("");
        // While a move is being chosen, only `?` and the clocks act at once; `ping` and the
        // rest wait for the move, and commands that change the game abort the search.
        if let Some((_, purpose, flag)) = &self.search {
            let idle = self.held.is_empty();
            match purpose {
                Purpose::Move => match cmd {
                    "?" => {
                        flag.store(true, Ordering::Relaxed);
                        return Ok(true);
                    }
                    "." | "post" | "nopost" | "time" | "otim" | "hard" | "easy" | "computer"
                        if idle => {}
                    // `quit` behind a held `ping` waits for the move, as scripts expect.
                    "quit" | "new" | "force" | "result" | "undo" | "remove" | "setboard"
                    | "variant" | "exit" | "analyze"
                        if idle =>
                    {
                        self.halt(rx)
                    }
                    _ => {
                        self.held.push_back(line.to_string());
                        return Ok(true);
                    }
                },
                Purpose::Analyse => match cmd {
                    "ping" => {
                        self.out.say(&format!("pong {}", arg(1)));
                        return Ok(true);
                    }
                    // These neither read nor change the game: analysis goes on.
                    "." | "post" | "nopost" | "time" | "otim" | "hard" | "easy" | "computer"
                    | "accepted" | "rejected" | "?" => return Ok(true),
                    // Anything else may need the game: stop, handle it, then analyse again.
                    _ => self.halt(rx),
                },
            }
        }
        match cmd {
            "xboard" | "accepted" | "rejected" | "random" | "hard" | "easy" | "computer"
            | "name" | "rating" | "ics" | "." | "otim" | "draw" | "hint" | "bk" => {}
            "protover" => self.out.say(&feature_line()),
            "quit" => return Ok(false),
            "ping" => self.out.say(&format!("pong {}", arg(1))),
            "new" => {
                self.analysing = false;
                self.force = false;
                self.engine = Color::Black;
                self.clock.depth = None;
                self.clock.per_move_ms = None;
                let default = self.default.clone();
                self.start(default)?;
                if let Some(e) = self.searcher.as_mut() {
                    e.new_game();
                }
            }
            "variant" => {
                let name = arg(1);
                let id = if name == "normal" { "chess" } else { name };
                match find(id) {
                    Ok(v) => self.start(v)?,
                    Err(_) => self.out.say(&format!("Error (unknown variant): {name}")),
                }
            }
            "setboard" => {
                let fen = words[1..].join(" ");
                match self.set_board(&fen) {
                    Ok(()) => {}
                    Err(e) => self
                        .out
                        .say(&format!("tellusererror Illegal position: {e}")),
                }
            }
            "force" => self.force = true,
            "go" => {
                self.force = false;
                self.engine = self.game()?.turn();
                self.think(Purpose::Move)?;
            }
            "playother" => {
                self.force = false;
                self.engine = self.game()?.turn().other();
            }
            "white" | "black" => {}
            "usermove" => {
                let text = arg(1);
                if self.user_move(text)? {
                    let ended = self.report_end()?;
                    if self.analysing {
                        self.think(Purpose::Analyse)?;
                    } else if !self.force && !ended && self.game()?.turn() == self.engine {
                        self.think(Purpose::Move)?;
                    }
                } else if self.analysing {
                    self.think(Purpose::Analyse)?;
                }
            }
            "undo" | "remove" => {
                let n = if cmd == "undo" { 1 } else { 2 };
                let g = self.game()?;
                for _ in 0..n {
                    if g.pop().is_none() {
                        self.out
                            .say(&format!("Error (command not legal now): {cmd}"));
                        break;
                    }
                }
                if self.analysing {
                    self.think(Purpose::Analyse)?;
                }
            }
            "result" => self.force = true,
            "post" => self.post = true,
            "nopost" => self.post = false,
            // Numbers saturate and limits keep to the one range every front end uses.
            "st" => self.clock.per_move_ms = clock::seconds_to_ms(arg(1)),
            "cores" => {
                let n = arg(1).parse::<u64>().unwrap_or(1);
                self.cores = Some(n.clamp(1, u64::from(menagerie_variants::MAX_THREADS)) as u32);
            }
            "sd" => {
                let depth = arg(1).parse::<u64>().ok();
                if depth.is_some_and(|d| !Kind::Depth.range().contains(&d)) {
                    let why = limits::out_of_range(Kind::Depth, arg(1));
                    self.out.say(&format!("Error ({why}): {line}"));
                }
                self.clock.depth = depth.map(|d| limits::clamp(Kind::Depth, d) as u32)
            }
            "level" => {
                self.clock.moves_per_session = arg(1).parse().unwrap_or(0);
                self.clock.increment_ms = clock::seconds_to_ms(arg(3)).unwrap_or(0);
                self.clock.per_move_ms = None;
            }
            "time" => {
                self.clock.remaining_ms = arg(1).parse::<u64>().ok().map(|cs| cs.saturating_mul(10))
            }
            "analyze" => {
                self.analysing = true;
                self.think(Purpose::Analyse)?;
            }
            "exit" => self.analysing = false,
            "?" => {}
            _ => {
                // A bare move is a move (protocol 1 and hand typing).
                let g = self.game()?;
                if parse_xb_move(g.geometry(), cmd).is_some() {
                    return self.command(&format!("usermove {cmd}"), rx);
                }
                self.out.say(&format!("Error (unknown command): {cmd}"));
            }
        }
        // Analysis mode resumes after any command that had to stop it.
        if self.analysing && self.search.is_none() {
            self.think(Purpose::Analyse)?;
        }
        Ok(true)
    }

    /// Sets the position from XBoard's FEN: as the game's own position string, else as its
    /// board and side to move with the rest of the game's start string.
    fn set_board(&mut self, fen: &str) -> Result<(), VariantError> {
        let first = match self.variant.open(Some(fen), &self.options) {
            Ok(g) => Ok(g),
            Err(e) => {
                let xb: Vec<&str> = fen.split_whitespace().collect();
                let start: Vec<&str> = self.variant.start_fen.split_whitespace().collect();
                let mut fields: Vec<&str> = start.clone();
                for (i, f) in xb.iter().take(2).enumerate() {
                    if let Some(slot) = fields.get_mut(i) {
                        *slot = f;
                    }
                }
                self.variant
                    .open(Some(&fields.join(" ")), &self.options)
                    .map_err(|_| e)
            }
        };
        self.game = Some(first?);
        Ok(())
    }

    /// The engine's move is ready: play it, tell XBoard, and report the end.
    fn searched(&mut self, id: u64, game: Box<dyn AnyGame>, engine: Engine, best: Option<String>) {
        self.searcher = Some(engine);
        let purpose = match &self.search {
            Some((running, purpose, _)) if *running == id => *purpose,
            _ => {
                self.game = Some(game);
                return;
            }
        };
        self.search = None;
        self.game = Some(game);
        if purpose == Purpose::Analyse {
            return;
        }
        let Some(g) = self.game.as_mut() else { return };
        if let Some(mv) = best {
            let xb = xb_moves(g.as_ref())
                .into_iter()
                .find(|(_, c)| *c == mv)
                .map(|(x, _)| x);
            if g.push(&mv).is_ok() {
                self.out.say(&format!("move {}", xb.unwrap_or(mv)));
            }
        }
        let _ = self.report_end();
    }
}

/// Runs the protocol loop on stdin and stdout.
pub fn run(args: XboardArgs) -> Result<(), VariantError> {
    let default = find(&args.variant)?;
    let options = RuleOptions::parse(&args.rules)?;
    session(
        default,
        options,
        std::io::BufReader::new(std::io::stdin()),
        Out::stdout(),
        Bounds::protocol(),
    )
}

/// Runs the protocol loop over `input` until its end or `quit`, writing to `out`, every
/// search within `bounds`; returns when the searches it started have ended.
pub fn session(
    default: Variant,
    options: RuleOptions,
    mut input: impl BufRead + Send + 'static,
    out: Out,
    bounds: Bounds,
) -> Result<(), VariantError> {
    let game = default.open(None, &options)?;
    let (tx, rx) = channel();
    let reader = tx.clone();
    std::thread::spawn(move || {
        loop {
            let event = match lines::next_line(&mut input) {
                Ok(Line::Text(line)) => Event::Line(line),
                // Too long or not text: answered, and the session goes on.
                Ok(Line::NotText | Line::TooLong) => Event::Garbled,
                Ok(Line::End) | Err(_) => break,
            };
            if reader.send(event).is_err() {
                return;
            }
        }
        let _ = reader.send(Event::Eof);
    });
    let mut s = Session {
        variant: default.clone(),
        default,
        options,
        game: Some(game),
        searcher: Some(Engine::new()),
        force: false,
        engine: Color::Black,
        post: false,
        analysing: false,
        clock: TimeControl::default(),
        cores: None,
        search: None,
        next_id: 0,
        tx,
        held: VecDeque::new(),
        queued: VecDeque::new(),
        out,
        bounds,
    };
    // Set at the end of input: a move being chosen gets until then to end by its limits,
    // then is played at once (as `?`), so a clock of days cannot hold the session.
    let mut eof_deadline: Option<Instant> = None;
    loop {
        // Held lines wait only for a move being chosen; analysis takes them at once.
        let releasable = !matches!(s.search, Some((_, Purpose::Move, _)));
        let event = if releasable && !s.held.is_empty() {
            s.held.pop_front().map(Event::Line)
        } else if let Some(l) = s.queued.pop_front() {
            Some(Event::Line(l))
        } else if eof_deadline.is_some() && matches!(s.search, Some((_, Purpose::Analyse, _))) {
            // Analysis never ends by itself: at the end of input, stop it and leave.
            s.halt(&rx);
            continue;
        } else if eof_deadline.is_some() && s.search.is_none() {
            break;
        } else if let (Some(deadline), Some((_, Purpose::Move, flag))) = (eof_deadline, &s.search) {
            match rx.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
                Ok(ev) => Some(ev),
                Err(RecvTimeoutError::Timeout) => {
                    flag.store(true, Ordering::Relaxed);
                    rx.recv().ok()
                }
                Err(RecvTimeoutError::Disconnected) => None,
            }
        } else {
            rx.recv().ok()
        };
        match event {
            None => break,
            Some(Event::Eof) => {
                // The end of input: let a move being chosen finish, then stop.
                eof_deadline = Some(Instant::now() + s.bounds.stray_patience);
                if matches!(s.search, Some((_, Purpose::Analyse, _))) {
                    s.halt(&rx);
                }
            }
            Some(Event::Line(line)) => match s.command(line.trim(), &rx) {
                Ok(true) => {}
                Ok(false) => {
                    s.halt(&rx);
                    break;
                }
                // A command that cannot be carried out is refused; the session goes on.
                Err(e) => s.out.say(&format!("Error ({e}): {}", line.trim())),
            },
            Some(Event::Garbled) => s.out.say(GARBLED),
            Some(Event::Searched {
                id,
                game,
                engine,
                best,
            }) => s.searched(id, game, engine, best),
        }
    }
    Ok(())
}
