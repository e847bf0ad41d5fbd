//! Self-play between two weightings of one game's evaluation, to choose weights by results
//! rather than by guessing: `cargo run --release -p menagerie-variants --example tune -- CASE
//! [GAMES] [NODES]`. Each pair of games starts from the same random opening (4 plies, seeded)
//! with colours swapped; every move is a fixed node budget, so the runs are reproducible.
//! The last line is `score <A's points>/<games>` (A is the candidate, B the default).

use menagerie_core::{Color, Game, Position};
use menagerie_engine::{Evaluator, Limits, Searcher};
use menagerie_variants::eval::cheops::CheopsEval;
use menagerie_variants::eval::cypher::CypherEval;
use menagerie_variants::eval::vyrt::VyrtEval;
use std::collections::BTreeMap;

struct Lcg(u64);
impl Lcg {
    fn next(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) as usize) % n.max(1)
    }
}

fn play<P: Position, A: Evaluator<P>, B: Evaluator<P>>(
    start: &P,
    a: A,
    b: B,
    games: usize,
    nodes: u64,
) -> (f32, BTreeMap<String, usize>) {
    let mut sa = Searcher::new(a, 16);
    let mut sb = Searcher::new(b, 16);
    let mut points = 0.0;
    let mut endings = BTreeMap::new();
    for g in 0..games {
        let mut rng = Lcg(1 + (g / 2) as u64);
        let mut game = Game::new(start.clone());
        for _ in 0..4 {
            let moves = game.legal_moves();
            if moves.is_empty() {
                break;
            }
            let _ = game.push(moves[rng.next(moves.len())]);
        }
        let a_color = if g % 2 == 0 {
            Color::White
        } else {
            Color::Black
        };
        sa.clear();
        sb.clear();
        let outcome = loop {
            if let Some(o) = game.outcome() {
                break Some(o);
            }
            if game.moves().len() >= 300 {
                break None;
            }
            let keys: Vec<u64> = game.positions()[..game.positions().len() - 1]
                .iter()
                .map(|p| p.key())
                .collect();
            let pos = game.position().clone();
            let limits = Limits::nodes(nodes);
            let best = if pos.turn() == a_color {
                sa.search(&pos, &keys, &limits, |_| {}).best
            } else {
                sb.search(&pos, &keys, &limits, |_| {}).best
            };
            match best {
                Some(m) => {
                    if game.push(m).is_err() {
                        break None;
                    }
                }
                None => break None,
            }
        };
        let (score, code) = match outcome {
            Some(o) => (o.score(a_color), o.termination.code()),
            None => (0.5, "ply-cap".to_string()),
        };
        points += score;
        *endings.entry(code).or_insert(0) += 1;
    }
    (points, endings)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let case = args.first().map(String::as_str).unwrap_or("list");
    let games = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(10);
    let nodes = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(20_000);
    let vyrt = menagerie_vyrt::VyrtPosition::start(Default::default());
    let cypher = menagerie_cypher::CypherPosition::start();
    let common = menagerie_cheops::CheopsPosition::start(menagerie_cheops::Style::Common);
    let (points, endings) = match case {
        "vyrt-no-mobility" => play(
            &vyrt,
            VyrtEval {
                mobility: 0,
                ..VyrtEval::default()
            },
            VyrtEval::default(),
            games,
            nodes,
        ),
        "vyrt-generic-values" => play(
            &vyrt,
            VyrtEval {
                values: [100, 480, 540, 420, 1000],
                ..VyrtEval::default()
            },
            VyrtEval::default(),
            games,
            nodes,
        ),
        "vyrt-king-zone-x2" => play(
            &vyrt,
            VyrtEval {
                king_zone: 24,
                ..VyrtEval::default()
            },
            VyrtEval::default(),
            games,
            nodes,
        ),
        "cypher-no-sectors" => play(
            &cypher,
            CypherEval {
                court: 0,
                border: 0,
                ..CypherEval::default()
            },
            CypherEval::default(),
            games,
            nodes,
        ),
        "cypher-pawns-x2" => play(
            &cypher,
            CypherEval {
                pawn_advance: [0, 440, 180, 80, 30, 10, 0, 0],
                ..CypherEval::default()
            },
            CypherEval::default(),
            games,
            nodes,
        ),
        "cypher-no-flip-threat" => play(
            &cypher,
            CypherEval {
                flip_threat: 0,
                ..CypherEval::default()
            },
            CypherEval::default(),
            games,
            nodes,
        ),
        "cheops-no-king-terms" => play(
            &common,
            CheopsEval {
                shelter: 0,
                king_danger: 0,
                ..CheopsEval::default()
            },
            CheopsEval::default(),
            games,
            nodes,
        ),
        "cheops-pawns-x2" => play(
            &common,
            CheopsEval {
                pawn_advance: [0, 400, 180, 90, 40, 16, 6, 0, 0, 0, 0, 0, 0],
                ..CheopsEval::default()
            },
            CheopsEval::default(),
            games,
            nodes,
        ),
        _ => {
            println!("cases: vyrt-no-mobility vyrt-generic-values vyrt-king-zone-x2 cypher-no-sectors cypher-pawns-x2 cypher-no-flip-threat cheops-no-king-terms cheops-pawns-x2");
            return;
        }
    };
    println!("{case}: {games} games, {nodes} nodes/move, endings {endings:?}");
    println!("score {points}/{games}");
}
