//! Prints perft for a FEN: `cargo run --release --example perft -- "<fen>" <depth>`.
use menagerie_chess::Chess;
use menagerie_core::Position;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let fen = args
        .get(1)
        .map(String::as_str)
        .unwrap_or(menagerie_chess::START_FEN);
    let depth: u32 = args.get(2).and_then(|d| d.parse().ok()).unwrap_or(6);
    let p = match Chess::from_fen(fen) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{e}");
            return;
        }
    };
    let t = std::time::Instant::now();
    let n = p.perft(depth);
    let s = t.elapsed().as_secs_f64();
    println!(
        "{n} leaves in {s:.3} s ({:.1} M leaves/s)",
        n as f64 / s / 1e6
    );
}
