//! `menagerie`: the command line for Menagerie's games.

mod bench;
mod match_cmd;
mod play;
mod search_bench;
mod search_cmd;

use clap::{CommandFactory, Parser, Subcommand};
use menagerie_cli::{rule_options, uci_server, xboard};
use menagerie_variants::{find, registry, AnyGame, VariantError};
use std::process::ExitCode;
use std::time::Instant;

/// Menagerie: exact rules and an engine for exotic chess variants.
#[derive(Parser, Debug)]
#[command(name = "menagerie", version, about, long_about = None, disable_help_subcommand = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// Options that choose a game and a position.
#[derive(clap::Args, Debug, Clone)]
struct GameArgs {
    /// The variant id (see `menagerie variants`).
    variant: String,
    /// A position string in the game's own format (default: the start position).
    #[arg(long)]
    fen: Option<String>,
    /// Moves played from that position first, separated by spaces (canonical or human
    /// text): the position after them is the one used, with them as its history.
    #[arg(long, value_name = "MOVES")]
    moves: Option<String>,
    /// A rule option as name=value (repeatable; `menagerie variants --options` lists them);
    /// defaults are the rulebook's rulings.
    #[arg(long = "rule", value_name = "NAME=VALUE")]
    rules: Vec<String>,
    /// A piece-table file replacing the built-in definitions (Little Cheops, whose pieces
    /// are data; several of its built-in pieces are provisional: see `menagerie pieces`).
    #[arg(long, value_name = "FILE")]
    pieces: Option<std::path::PathBuf>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// List the variant ids, one line each.
    Variants {
        /// Also list each variant's rule options.
        #[arg(long)]
        options: bool,
    },
    /// Count the leaves of the legal-move tree; the total is the last line of stdout.
    Perft {
        #[command(flatten)]
        game: GameArgs,
        /// Depth in plies (0 to 20).
        #[arg(value_parser = menagerie_play::perft::parse_depth)]
        depth: u32,
        /// Print one line per root move: its canonical text and its count.
        #[arg(long)]
        divide: bool,
        /// Count the root moves' subtrees on this many threads (1 = the benchmark's setting).
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
        threads: u32,
    },
    /// List the legal moves in canonical text, one per line, sorted.
    Moves {
        #[command(flatten)]
        game: GameArgs,
        /// Show the human notation beside each move.
        #[arg(long)]
        human: bool,
        /// List what this player is offered, from what this player may see (games with
        /// hidden information); the other side is offered nothing.
        #[arg(long = "as", value_name = "white|black")]
        viewer: Option<Side>,
    },
    /// Draw the board with the game's own coordinates.
    Show {
        #[command(flatten)]
        game: GameArgs,
        /// On a board whose edges wrap, put this square in the middle of the picture.
        #[arg(long)]
        center: Option<String>,
        /// Draw only what this player may see (games with hidden information), with that
        /// player's position string.
        #[arg(long = "as", value_name = "white|black")]
        viewer: Option<Side>,
    },
    /// List a game's pieces with their moves and status (published or provisional).
    Pieces {
        /// The variant id.
        variant: String,
        /// A piece-table file to check and list instead of the built-in one.
        #[arg(long, value_name = "FILE")]
        pieces: Option<std::path::PathBuf>,
    },
    /// Measure perft speed for each game against Fairy-Stockfish in the same run.
    Bench(bench::BenchArgs),
    /// Search the position; the chosen move (canonical text) is the last line of stdout.
    /// With no limit given, it searches for 1 second.
    Bestmove {
        #[command(flatten)]
        game: GameArgs,
        #[command(flatten)]
        limits: search_cmd::LimitArgs,
    },
    /// Search the position and print each iteration: depth, score, nodes, speed and PV.
    /// With no limit given, it searches for 3 seconds.
    #[command(alias = "analyze")]
    Analyse {
        #[command(flatten)]
        game: GameArgs,
        #[command(flatten)]
        limits: search_cmd::LimitArgs,
        /// Show the best N moves, each with its line and score (1 to 64).
        #[arg(long, value_name = "N", value_parser = search_cmd::parse_multipv)]
        multipv: Option<u32>,
    },
    /// Play a game in the terminal: humans type moves and commands, engines answer.
    Play(play::PlayArgs),
    /// Play a match between two programs; the last line of the summary is
    /// `score <A's points>/<games>` (points by the game's own table, of one point a game
    /// where it has none).
    Match(match_cmd::MatchArgs),
    /// Speak the UCI protocol on stdin/stdout (chess by default), `go perft` included.
    Uci(uci_server::UciArgs),
    /// Speak the XBoard / CECP protocol (version 2) on stdin/stdout, for every game.
    Xboard(xboard::XboardArgs),
    /// Self-play study of a game or of two rule sets, reported as HTML with SVG plots;
    /// `study merge DIR... --out DIR` combines shards (`menagerie study --help`).
    #[command(disable_help_flag = true)]
    Study {
        /// The study's arguments (`menagerie study --help` lists them).
        #[arg(trailing_var_arg = true, allow_hyphen_values = true, num_args = 0..)]
        args: Vec<String>,
    },
    /// Print the help of menagerie or of one of its commands.
    Help {
        /// The command to explain.
        command: Option<String>,
    },
    /// Serve the games over HTTP: the web pages, the API and websockets (`docs/api.md`).
    Serve(menagerie_server::ServeArgs),
    /// The server's ratings: `ratings recompute` replays every rated game in order and
    /// checks that every stored figure comes out identical.
    Ratings {
        #[command(subcommand)]
        command: RatingsCommand,
    },
}

/// What `menagerie ratings` does.
#[derive(clap::Subcommand, Debug)]
enum RatingsCommand {
    /// Recompute every rating from the rated games in the order they were rated and compare
    /// each game's before and after and each player's standing with the stored figures; exits
    /// with 2 when any differs.
    Recompute {
        /// The database: `postgres://USER:PASS@HOST/DB`, or an SQLite file (default:
        /// games.sqlite in the data folder).
        #[arg(long)]
        database: Option<String>,
        /// The server's data folder.
        #[arg(long, default_value = "menagerie-data")]
        data: std::path::PathBuf,
    },
}

/// A player, for `--as`.
#[derive(clap::ValueEnum, Clone, Copy, Debug)]
enum Side {
    /// The first player.
    White,
    /// The second player.
    Black,
}

impl From<Side> for menagerie_core::Color {
    fn from(s: Side) -> Self {
        match s {
            Side::White => menagerie_core::Color::White,
            Side::Black => menagerie_core::Color::Black,
        }
    }
}

/// Opens the game as `viewer` sees it: from that player's position string, so nothing the
/// player may not know can reach the output.
fn open_as(args: &GameArgs, viewer: Option<Side>) -> Result<Box<dyn AnyGame>, VariantError> {
    let g = open(args)?;
    let Some(side) = viewer else {
        return Ok(g);
    };
    menagerie_play::view::as_seen_by(
        &variant_of(args)?,
        &rule_options(&args.variant, &args.rules)?,
        g.as_ref(),
        Some(side.into()),
    )
}

/// The variant of `args`, with its `--pieces` table when one is given.
pub(crate) fn variant_of(args: &GameArgs) -> Result<menagerie_variants::Variant, VariantError> {
    let variant = find(&args.variant)?;
    match &args.pieces {
        Some(path) => variant.with_pieces(&menagerie_variants::read_piece_table(path)?),
        None => Ok(variant),
    }
}

/// The game of `args`: its variant, rules and position, after `--moves`.
pub(crate) fn open(args: &GameArgs) -> Result<Box<dyn AnyGame>, VariantError> {
    let variant = variant_of(args)?;
    let options = rule_options(variant.id, &args.rules)?;
    let mut g = variant.open(args.fen.as_deref(), &options)?;
    play_moves(g.as_mut(), args.moves.as_deref())?;
    Ok(g)
}

/// Plays the moves of `--moves` in `g`, in order; the first one that cannot be played is
/// refused with its number and the game's reason.
pub(crate) fn play_moves(g: &mut dyn AnyGame, moves: Option<&str>) -> Result<(), VariantError> {
    for (i, text) in moves.unwrap_or("").split_whitespace().enumerate() {
        g.push(text)
            .map_err(|e| VariantError::Other(format!("move {} of --moves: {e}", i + 1)))?;
    }
    Ok(())
}

fn run(cli: Cli) -> Result<(), VariantError> {
    match cli.command {
        Command::Serve(args) => menagerie_server::run(args).map_err(VariantError::Other)?,
        Command::Ratings {
            command: RatingsCommand::Recompute { database, data },
        } => {
            let url = database.unwrap_or_else(|| data.join("games.sqlite").display().to_string());
            let report =
                menagerie_server::ratings::recompute_database(&url).map_err(VariantError::Other)?;
            println!(
                "recomputed {} rated games, {} ratings (player and variant)",
                report.games, report.standings
            );
            if !report.differences.is_empty() {
                for d in &report.differences {
                    println!("differs: {d}");
                }
                return Err(VariantError::Other(format!(
                    "stored figures that differ from the recomputed ones: {}",
                    report.differences.len()
                )));
            }
            println!("identical: every stored figure comes out the same");
        }
        Command::Variants { options } => {
            let all = registry();
            let width = all.iter().map(|v| v.id.len()).max().unwrap_or(0);
            for v in all {
                println!("{:width$}  {}: {}", v.id, v.name, v.summary);
                if options {
                    for o in v.options {
                        println!(
                            "{:width$}    --rule {}={}  {}",
                            "",
                            o.name,
                            o.values.join("|"),
                            o.help
                        );
                    }
                }
            }
        }
        Command::Perft {
            game,
            depth,
            divide,
            threads,
        } => {
            let g = open(&game)?;
            let start = Instant::now();
            let total = if depth == 0 {
                1
            } else if divide || threads > 1 {
                let rows = g.divide_parallel(depth, threads as usize);
                if divide {
                    for (mv, n) in &rows {
                        println!("{mv} {n}");
                    }
                }
                rows.iter().map(|(_, n)| n).sum::<u64>()
            } else {
                g.perft(depth)
            };
            let secs = start.elapsed().as_secs_f64();
            eprintln!(
                "perft {depth}: {total} leaves in {secs:.3} s ({:.1} M leaves/s)",
                total as f64 / secs.max(1e-9) / 1e6
            );
            println!("{total}");
        }
        Command::Moves {
            game,
            human,
            viewer,
        } => {
            let g = open_as(&game, viewer)?;
            if let Some(side) = viewer {
                let side: menagerie_core::Color = side.into();
                if side != g.turn() {
                    eprintln!("{side} is offered no moves: it is {}'s turn", g.turn());
                    return Ok(());
                }
            }
            if human {
                // One text where the game writes a move one way (Vyrt).
                for (canonical, h) in g.legal_moves_with_human() {
                    if canonical == h {
                        println!("{canonical}");
                    } else {
                        println!("{canonical} {h}");
                    }
                }
            } else {
                for m in g.legal_moves() {
                    println!("{m}");
                }
            }
            if let Some(o) = g.outcome() {
                eprintln!("{o}");
            }
        }
        Command::Show {
            game,
            center,
            viewer,
        } => {
            let g = open_as(&game, viewer)?;
            // The outcome is printed once, below, in the same words for every game.
            for line in g.diagram(center.as_deref())?.lines() {
                if !line.starts_with("game over: ") {
                    println!("{line}");
                }
            }
            if let Some(side) = viewer {
                println!("{side:?}'s view: {}", g.fen());
            }
            if let Some(o) = g.outcome() {
                println!("{o}");
            }
        }
        Command::Pieces { variant, pieces } => {
            let v = find(&variant)?;
            let text = pieces
                .as_deref()
                .map(menagerie_variants::read_piece_table)
                .transpose()?;
            match menagerie_variants::piece_help(v.id, text.as_deref())? {
                Some(lines) => lines.iter().for_each(|l| println!("{l}")),
                None => println!("{} has fixed pieces; its rulebook defines them.", v.name),
            }
        }
        Command::Bench(args) => bench::run(args)?,
        Command::Bestmove { game, limits } => search_cmd::bestmove(open(&game)?, &limits)?,
        Command::Analyse {
            game,
            limits,
            multipv,
        } => search_cmd::analyse(open(&game)?, &limits, multipv)?,
        Command::Play(args) => play::run(args)?,
        Command::Match(args) => match_cmd::run(args)?,
        Command::Uci(args) => uci_server::run(args)?,
        Command::Xboard(args) => xboard::run(args)?,
        Command::Study { args } => menagerie_lab::cli::main(&args).map_err(VariantError::Other)?,
        Command::Help { command } => {
            let mut cli = Cli::command();
            let target = match command.as_deref() {
                None => Some(&mut cli),
                Some(name) => cli.find_subcommand_mut(name),
            };
            match target {
                Some(c) => {
                    let _ = c.print_help();
                }
                None => {
                    return Err(VariantError::Other(format!(
                        "there is no command '{}'; `menagerie help` lists them",
                        command.unwrap_or_default()
                    )))
                }
            }
        }
    }
    Ok(())
}

/// A closed standard output (`menagerie perft chess 3 --divide | head -1`) ends the
/// program quietly, as the shell's own tools do, instead of a panic on the next write.
fn quiet_on_closed_pipe() {
    #[cfg(unix)]
    // SAFETY: restoring the default action of SIGPIPE before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

fn main() -> ExitCode {
    quiet_on_closed_pipe();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion)
                || e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
            {
                let _ = e.print();
                return if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
                    ExitCode::from(2)
                } else {
                    ExitCode::SUCCESS
                };
            }
            // One sentence: clap's first line, which names the argument and the fault.
            let text = e.render().to_string();
            let first = text.lines().next().unwrap_or("invalid arguments");
            eprintln!("{}", first.trim());
            return ExitCode::from(2);
        }
    };
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
