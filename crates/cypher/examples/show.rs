//! Prints the diagram, the legal turns (canonical and human) and the ending of a position:
//! `show [FEN]`.

use menagerie_core::Position;
use menagerie_cypher::{draw, CypherPosition, START_FEN};

fn main() {
    let fen = std::env::args()
        .nth(1)
        .unwrap_or_else(|| START_FEN.to_string());
    let pos = match CypherPosition::from_fen_default(&fen) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    print!("{}", draw(&pos));
    let mut moves: Vec<(String, String)> = pos
        .legal()
        .into_iter()
        .map(|m| (pos.move_text(m), pos.move_human(m)))
        .collect();
    moves.sort();
    println!("{} legal turns:", moves.len());
    for (c, h) in moves {
        println!("  {c:<16} {h}");
    }
    if let Some(o) = pos.outcome() {
        println!("{o}");
    }
}
