//! `menagerie play`: a game in the terminal between humans and engines, reading commands
//! line by line from stdin (a pipe works as well as a keyboard).

use crate::players::{build, Player, PlayerSpec};
use crate::record::{self, fmt_points, points};
use crate::GameArgs;
use menagerie_core::{Color, Outcome, RuleOptions, Termination};
use menagerie_variants::{AnyGame, Engine, Limits, Variant, VariantError, HASH_MB};
use std::io::{BufRead, Write};

/// Options of `menagerie play`.
#[derive(clap::Args, Debug)]
pub struct PlayArgs {
    #[command(flatten)]
    game: GameArgs,
    /// Who plays White: human, engine[:N | :depth=N,movetime=MS,nodes=N], random, greedy.
    #[arg(long, default_value = "human")]
    white: String,
    /// Who plays Black (same forms as --white).
    #[arg(long, default_value = "engine")]
    black: String,
    /// Resume (or replay) the game recorded in this file.
    #[arg(long, value_name = "FILE")]
    load: Option<String>,
    /// Write the game record to this file at the end.
    #[arg(long, value_name = "FILE")]
    save: Option<String>,
    /// Time per engine move when the engine is given no limit, in milliseconds.
    #[arg(long, default_value_t = 1000, value_name = "MS")]
    movetime: u64,
    /// Seed for the random and greedy players.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

const HELP: &str =
    "commands: a move (canonical like e2e4 or human like Nf3), moves (list legal moves), \
undo (take back your last move), hint (ask the engine), board (show the board), resign, help, quit";

/// Whose eyes the board is drawn for: the human player (the one to move when both sides
/// are human), or nobody (engines only: the umpire's full board).
fn viewer(humans: [bool; 2], g: &dyn AnyGame) -> Option<Color> {
    match humans {
        [true, true] => Some(g.turn()),
        [true, false] => Some(Color::White),
        [false, true] => Some(Color::Black),
        [false, false] => None,
    }
}

/// The last turn's texts as `viewer` may know them (an opponent's sealed appointment
/// without its square); `played` (the umpire's) when nobody's view is drawn.
fn seen(g: &dyn AnyGame, viewer: Option<Color>, played: (String, String)) -> (String, String) {
    match viewer {
        Some(_) => g.history_seen_by(viewer).pop().unwrap_or(played),
        None => played,
    }
}

/// The game as `viewer` may see it: a game opened from that player's position string
/// when the umpire knows more (Little Cheops Imperial), else `None` (nothing is hidden).
fn view_of(
    variant: &Variant,
    options: &RuleOptions,
    g: &dyn AnyGame,
    viewer: Option<Color>,
) -> Result<Option<Box<dyn AnyGame>>, VariantError> {
    let Some(side) = viewer else { return Ok(None) };
    let view = g.view_fen(side);
    if view == g.fen() {
        return Ok(None);
    }
    variant.open(Some(&view), options).map(Some)
}

/// Draws the board, from `viewer`'s view where the game hides anything.
fn print_board(
    variant: &Variant,
    options: &RuleOptions,
    g: &dyn AnyGame,
    viewer: Option<Color>,
) -> Result<(), VariantError> {
    match (view_of(variant, options, g, viewer)?, viewer) {
        (Some(view), Some(side)) => {
            print!("{}", view.diagram(None)?);
            println!("(drawn as {side} may see it: the umpire keeps the rest secret)");
        }
        _ => print!("{}", g.diagram(None)?),
    }
    Ok(())
}

/// Runs `play`.
pub fn run(args: PlayArgs) -> Result<(), VariantError> {
    let variant = crate::variant_of(&args.game)?;
    let white = PlayerSpec::parse(&args.white)?;
    let black = PlayerSpec::parse(&args.black)?;
    let default = Limits::movetime(args.movetime.max(1));
    let mut engines: [Option<Box<dyn Player>>; 2] = [
        build(&white, default, args.seed)?,
        build(&black, default, args.seed.wrapping_add(1))?,
    ];
    let mut rules = args.game.rules.clone();
    let mut fen = args.game.fen.clone();
    let mut stated: Option<Outcome> = None;
    let loaded = match &args.load {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| VariantError::Other(format!("cannot read {path}: {e}")))?;
            let rec = record::parse(&text, path)?;
            if let Some(v) = rec.tag("Variant") {
                if !v.eq_ignore_ascii_case(variant.id) {
                    return Err(VariantError::Other(format!(
                        "{path} records a game of {v}, not {}",
                        variant.id
                    )));
                }
            }
            if let Some(f) = rec.tag("FEN") {
                fen = Some(f.to_string());
            }
            if let Some(r) = rec.tag("Rules") {
                rules = r.split_whitespace().map(str::to_string).collect();
            }
            Some((rec, path.clone()))
        }
        None => None,
    };
    let options = RuleOptions::parse(&rules)?;
    let mut g = variant.open(fen.as_deref(), &options)?;
    if let Some((rec, path)) = &loaded {
        record::replay(g.as_mut(), rec, path)?;
        if g.outcome().is_none() {
            stated = record::stated_outcome(rec);
        }
        println!("loaded {} moves from {path}", rec.moves.len());
    }

    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    let mut outcome = g.outcome().or(stated);
    let humans = [engines[0].is_none(), engines[1].is_none()];
    let board = |g: &dyn AnyGame| print_board(&variant, &options, g, viewer(humans, g));
    board(g.as_ref())?;
    if outcome.is_none() && engines.iter().any(Option::is_none) {
        println!("{HELP}");
    }
    while outcome.is_none() {
        let side = g.turn();
        if let Some(engine) = engines[side.index()].as_mut() {
            let mv = engine.choose(g.as_mut())?;
            let played = g.push(&mv)?;
            let (canonical, human) = seen(g.as_ref(), viewer(humans, g.as_ref()), played);
            println!("{side} plays {human} ({canonical})");
            board(g.as_ref())?;
            outcome = g.outcome();
            continue;
        }
        print!("{side}> ");
        let _ = std::io::stdout().flush();
        let Some(line) = lines.next() else {
            println!();
            println!("end of input: the game is left unfinished");
            break;
        };
        let line = line.map_err(|e| VariantError::Other(format!("cannot read the input: {e}")))?;
        let cmd = line.trim();
        match cmd {
            "" => continue,
            "help" | "?" => println!("{HELP}"),
            "quit" | "exit" => {
                println!("the game is left unfinished");
                break;
            }
            "board" | "show" => board(g.as_ref())?,
            "moves" => {
                // What this player is offered, from what this player may see.
                let view = view_of(&variant, &options, g.as_ref(), Some(side))?;
                let list: Vec<String> = view
                    .as_deref()
                    .unwrap_or(g.as_ref())
                    .legal_moves_with_human()
                    .into_iter()
                    .map(|(c, h)| if c == h { c } else { format!("{c} ({h})") })
                    .collect();
                println!("{} legal moves: {}", list.len(), list.join(", "));
            }
            "undo" => {
                let mut taken = Vec::new();
                // Take back the engines' replies too, so it is a human's turn again.
                while let Some(mv) = g.pop() {
                    taken.push(mv);
                    if engines[g.turn().index()].is_none() {
                        break;
                    }
                }
                if taken.is_empty() {
                    println!("there is no move to take back");
                } else {
                    println!("took back {}", taken.join(", "));
                    board(g.as_ref())?;
                }
            }
            "hint" => {
                let limits = Limits::movetime(args.movetime.clamp(1, 1000));
                // The engine advises from the player's view, never the umpire's secrets.
                let probe = match view_of(&variant, &options, g.as_ref(), Some(side))? {
                    Some(view) => view,
                    None => g.fork(),
                };
                let r = Engine::new(HASH_MB).search(&*probe, &limits, None, &mut |_| {});
                if let (Some(c), Some(h)) = (r.best, r.best_human) {
                    println!("hint: {h} ({c}), score {}", r.info.score);
                }
            }
            "resign" => {
                outcome = Some(Outcome::win(side.other(), Termination::Resignation));
            }
            text => match g.push(text) {
                Ok(played) => {
                    let (canonical, human) = seen(g.as_ref(), viewer(humans, g.as_ref()), played);
                    println!("{side} plays {human} ({canonical})");
                    board(g.as_ref())?;
                    outcome = g.outcome();
                }
                Err(e) => println!("error: {e}"),
            },
        }
    }
    if let Some(o) = &outcome {
        let (w, b) = points(o);
        println!("result {}: {o}", o.result());
        println!(
            "points White {}, Black {}",
            fmt_points(f64::from(w)),
            fmt_points(f64::from(b))
        );
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
    Ok(())
}
