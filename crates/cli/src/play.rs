//! `menagerie play`: a game in the terminal between humans and engines, reading commands
//! line by line from stdin (a pipe works as well as a keyboard).
//!
//! Everything printed is what the human at the terminal may know: boards, announcements,
//! move lists and hints come from that player's view of the game.

use crate::GameArgs;
use menagerie_core::{fmt_points, Color, Outcome, RuleOptions, Termination};
use menagerie_play::engine::Engine;
use menagerie_play::limits;
use menagerie_play::players::{build, Player, PlayerSpec};
use menagerie_play::record;
use menagerie_play::view::{self, as_seen_by, pair, Notes};
use menagerie_variants::{AnyGame, Limits, Variant, VariantError};
use std::io::{BufRead, Write};

/// Options of `menagerie play`.
#[derive(clap::Args, Debug)]
pub struct PlayArgs {
    #[command(flatten)]
    game: GameArgs,
    /// Who plays White: human, engine[:N | :depth=N,movetime=MS,nodes=N,level=1..8,threads=N], random, greedy,
    /// uci:PATH[:name=value,...] (an external UCI engine).
    #[arg(long, default_value = "human")]
    white: String,
    /// Who plays Black (same forms as --white).
    #[arg(long, default_value = "engine")]
    black: String,
    /// Resume (or replay) the game recorded in this file.
    #[arg(long, value_name = "FILE")]
    load: Option<String>,
    /// Write the game record to this file at the end (the umpire's record: in Little Cheops
    /// Imperial it holds both players' sealed papers).
    #[arg(long, value_name = "FILE")]
    save: Option<String>,
    /// Time per engine move when the engine is given no limit, in milliseconds (1 to 86400000).
    #[arg(long, default_value_t = 1000, value_name = "MS", value_parser = limits::parse_movetime)]
    movetime: u64,
    /// Seed for the random and greedy players.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Threads for each engine player that sets none itself (1 to 64).
    #[arg(long, value_name = "N", value_parser = crate::search_cmd::parse_threads)]
    threads: Option<u32>,
}

/// The commands, with this game's own examples of a move.
fn help(g: &dyn AnyGame) -> String {
    format!(
        "commands: {}, moves (list legal moves), undo (take back your last move), \
hint (ask the engine), board (show the board), resign, help, quit",
        view::how_to_type(g)
    )
}

/// A turn in a move list: `canonical (human)`, or the one text when they agree.
fn pair_listed(c: &str, h: &str) -> String {
    if c == h {
        c.to_string()
    } else {
        format!("{c} ({h})")
    }
}

/// Prints the notes on notation a player has not been shown yet.
fn explain<'a>(
    notes: &mut Notes,
    variant: &str,
    turns: impl IntoIterator<Item = (&'a str, &'a str)>,
) {
    for text in notes.for_turns(variant, turns) {
        println!("note: {text}");
    }
}

/// Whose eyes the output is for: the human player (the one to move when both sides are
/// human), or nobody (engines only: the umpire sees everything).
fn viewer(humans: [bool; 2], g: &dyn AnyGame) -> Option<Color> {
    match humans {
        [true, true] => Some(g.turn()),
        [true, false] => Some(Color::White),
        [false, true] => Some(Color::Black),
        [false, false] => None,
    }
}

/// Draws boards: from the viewer's view, without the game-over note (the result is
/// printed once, at the end), with notes that repeat on every board shown only once.
struct Boards {
    variant: Variant,
    options: RuleOptions,
    shown_once: Vec<String>,
}

impl Boards {
    fn print(&mut self, g: &dyn AnyGame, viewer: Option<Color>) -> Result<(), VariantError> {
        let seen = as_seen_by(&self.variant, &self.options, g, viewer)?;
        let hidden = viewer.is_some_and(|side| g.view_fen(side) != g.fen());
        let mut text = String::new();
        for line in seen.diagram(None)?.lines() {
            if line.starts_with("game over: ") {
                continue;
            }
            // Notes about the game's pieces, not the position: once is enough.
            if line.starts_with("Provisional pieces") {
                if self.shown_once.iter().any(|l| l == line) {
                    continue;
                }
                self.shown_once.push(line.to_string());
            }
            text.push_str(line);
            text.push('\n');
        }
        print!("{text}");
        if let (true, Some(side)) = (hidden, viewer) {
            println!("(drawn as {side} may see it: the umpire keeps the rest secret)");
        }
        if !self.shown_once.iter().any(|l| l == "key") {
            self.shown_once.push("key".into());
            if let Some(key) = view::letter_key(g.variant()) {
                println!("{key}");
            }
        }
        Ok(())
    }
}

/// Reads a record file, refusing one too long to be a record before reading it whole.
fn read_record(path: &str) -> Result<String, VariantError> {
    let cannot = |e: std::io::Error| VariantError::Other(format!("cannot read {path}: {e}"));
    let len = std::fs::metadata(path).map_err(cannot)?.len();
    if len > record::MAX_RECORD_BYTES as u64 {
        return Err(VariantError::Other(format!(
            "{path} is too long for a game record ({len} bytes; at most {})",
            record::MAX_RECORD_BYTES
        )));
    }
    std::fs::read_to_string(path).map_err(cannot)
}

/// Runs `play`.
pub fn run(args: PlayArgs) -> Result<(), VariantError> {
    let variant = crate::variant_of(&args.game)?;
    let white = PlayerSpec::parse(&args.white, variant.id)?;
    let black = PlayerSpec::parse(&args.black, variant.id)?;
    let default = Limits {
        threads: args.threads,
        ..Limits::movetime(args.movetime)
    };
    let mut engines: [Option<Box<dyn Player>>; 2] = [
        build(&white, default, args.seed)?,
        build(&black, default, args.seed.wrapping_add(1))?,
    ];
    let mut rules = args.game.rules.clone();
    let mut stated: Option<Outcome> = None;
    let mut g = match &args.load {
        Some(path) => {
            let text = read_record(path)?;
            let loaded = record::load(&text, path, &variant, &rules)?;
            rules = loaded.rules;
            stated = loaded.stated;
            println!("loaded {} moves from {path}", loaded.moves);
            let mut g = loaded.game;
            crate::play_moves(g.as_mut(), args.game.moves.as_deref())?;
            g
        }
        // The position (and `--moves`) as every other command opens it.
        None => crate::open(&args.game)?,
    };
    let options = RuleOptions::parse(&rules)?;

    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    let mut outcome = g.outcome().or(stated);
    let humans = [engines[0].is_none(), engines[1].is_none()];
    let mut boards = Boards {
        variant: variant.clone(),
        options: options.clone(),
        shown_once: Vec::new(),
    };
    boards.print(g.as_ref(), viewer(humans, g.as_ref()))?;
    if outcome.is_none() && engines.iter().any(Option::is_none) {
        println!("{}", help(g.as_ref()));
    }
    let mut hinter = Engine::new();
    let mut notes = Notes::new();
    let mut unfinished_by_eof = false;
    while outcome.is_none() {
        let side = g.turn();
        if let Some(engine) = engines[side.index()].as_mut() {
            let mv = engine.choose(g.as_mut())?;
            let played = g.push(&mv)?;
            let who = viewer(humans, g.as_ref());
            let (c, h) = view::last_turn_seen_by(g.as_ref(), who).unwrap_or(played);
            println!("{side} plays {}", pair(&c, &h));
            explain(&mut notes, g.variant(), [(c.as_str(), h.as_str())]);
            boards.print(g.as_ref(), who)?;
            outcome = g.outcome();
            continue;
        }
        print!("{side}> ");
        let _ = std::io::stdout().flush();
        let Some(line) = lines.next() else {
            println!();
            println!("end of input: the game is left unfinished");
            unfinished_by_eof = true;
            break;
        };
        let line = line.map_err(|e| VariantError::Other(format!("cannot read the input: {e}")))?;
        let cmd = line.trim();
        match cmd {
            "" => continue,
            "help" | "?" => println!("{}", help(g.as_ref())),
            "quit" | "exit" => {
                println!("the game is left unfinished");
                break;
            }
            "board" | "show" => boards.print(g.as_ref(), Some(side))?,
            "moves" => {
                // What this player is offered, from what this player may see.
                let seen = as_seen_by(&variant, &options, g.as_ref(), Some(side))?;
                let turns = seen.legal_moves_with_human();
                let list: Vec<String> = turns.iter().map(|(c, h)| pair_listed(c, h)).collect();
                println!("{} legal moves: {}", list.len(), list.join(", "));
                explain(
                    &mut notes,
                    g.variant(),
                    turns.iter().map(|(c, h)| (c.as_str(), h.as_str())),
                );
            }
            "undo" => {
                let mut taken = Vec::new();
                // The turns as this player knows them (an opponent's sealed appointment
                // without its square).
                let mut known = view::history_seen_by(g.as_ref(), Some(side));
                // Take back the engines' replies too, so it is a human's turn again.
                while g.pop().is_some() {
                    taken.push(known.pop().map(|(c, _)| c).unwrap_or_default());
                    if engines[g.turn().index()].is_none() {
                        break;
                    }
                }
                if taken.is_empty() {
                    println!("there is no move to take back");
                } else {
                    println!("took back {}", taken.join(", "));
                    boards.print(g.as_ref(), viewer(humans, g.as_ref()))?;
                }
            }
            "hint" => {
                let limits = Limits::movetime(args.movetime.min(1000));
                // The engine advises from the player's view, never the umpire's secrets.
                let seen = as_seen_by(&variant, &options, g.as_ref(), Some(side))?;
                let r = hinter.search(seen.as_ref(), &limits, None, &mut |_| {});
                if let (Some(c), Some(h)) = (r.best, r.best_human) {
                    println!("hint: {}, score {}", pair(&c, &h), r.info.score);
                }
            }
            "resign" => {
                // Through the game, so the game's own scoring table gives the points.
                outcome = match g.resign(side) {
                    Ok(()) => g.outcome(),
                    Err(_) => Some(Outcome::win(side.other(), Termination::Resignation)),
                };
            }
            text => match g.push(text) {
                Ok(played) => {
                    // Announced as the player whose board is drawn next may know it (with
                    // two humans at one terminal, the opponent's view).
                    let who = viewer(humans, g.as_ref());
                    let (c, h) = view::last_turn_seen_by(g.as_ref(), who).unwrap_or(played);
                    println!("{side} plays {}", pair(&c, &h));
                    explain(&mut notes, g.variant(), [(c.as_str(), h.as_str())]);
                    boards.print(g.as_ref(), who)?;
                    outcome = g.outcome();
                }
                Err(e) => println!("error: {e}"),
            },
        }
    }
    if let Some(o) = &outcome {
        // The outcome names its points where the game has a table of its own.
        println!("result {}: {o}", o.result());
        if o.points.is_none() {
            let (w, b) = record::points(o);
            println!(
                "points White {}, Black {}",
                fmt_points(f64::from(w)),
                fmt_points(f64::from(b))
            );
        }
    }
    if let Some(path) = &args.save {
        let mut tags = vec![("White", args.white.clone()), ("Black", args.black.clone())];
        if !rules.is_empty() {
            tags.push(("Rules", rules.join(" ")));
        }
        let text = record::write(g.as_ref(), variant.start_fen, &tags, outcome.as_ref());
        std::fs::write(path, text)
            .map_err(|e| VariantError::Other(format!("cannot write {path}: {e}")))?;
        println!("saved to {path}");
    }
    if unfinished_by_eof {
        return Err(VariantError::Other(
            "the input ended before the game did; type quit to leave a game unfinished".into(),
        ));
    }
    Ok(())
}
