//! A toy game plugs into Menagerie by implementing the core traits and one registry line
//! (`menagerie_variants::entries`), and the engine plays it (told of the game with
//! `Engine::add_variant`, as games outside the built-in registry are) with no change to the
//! engine crate (issue 9).
//!
//! The game: a row of seven squares, a King each (White on a, Black on g). A King steps one
//! square left or right, or captures the enemy King on the next square; a capture wins.

use menagerie_core::{
    Color, Geometry, Outcome, Position, PositionError, RuleOptions, Square, Termination,
    VariantSpec,
};
use menagerie_engine::{GenericEval, PieceValues};
use menagerie_variants::{entries, Engine, Limits, Variant};
use std::sync::OnceLock;

const WIDTH: u8 = 7;

fn geometry() -> &'static Geometry {
    static G: OnceLock<Geometry> = OnceLock::new();
    G.get_or_init(|| Geometry::rectangle(WIDTH, 1))
}

/// Where each King stands (`None` once captured), and whose turn it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Row {
    kings: [Option<u8>; 2],
    turn: Color,
}

impl Row {
    fn parse(text: &str, _options: &RuleOptions) -> Result<Row, PositionError> {
        let bad = || {
            PositionError::new(
                "board",
                format!("a row position is {WIDTH} cells of K, k or . and then w or b"),
            )
        };
        let (cells, side) = text.trim().split_once(' ').ok_or_else(bad)?;
        if cells.len() != usize::from(WIDTH) {
            return Err(bad());
        }
        let mut kings = [None, None];
        for (i, c) in cells.chars().enumerate() {
            match c {
                'K' => kings[0] = Some(i as u8),
                'k' => kings[1] = Some(i as u8),
                '.' => {}
                _ => return Err(bad()),
            }
        }
        let turn = match side {
            "w" => Color::White,
            "b" => Color::Black,
            _ => return Err(bad()),
        };
        Ok(Row { kings, turn })
    }
}

impl Position for Row {
    type Move = (u8, u8);
    fn variant(&self) -> &'static str {
        "row"
    }
    fn geometry(&self) -> &Geometry {
        geometry()
    }
    fn turn(&self) -> Color {
        self.turn
    }
    fn legal_moves(&self, moves: &mut Vec<(u8, u8)>) {
        if self.outcome().is_some() {
            return;
        }
        let Some(from) = self.kings[self.turn.index()] else {
            return;
        };
        for to in [from.wrapping_sub(1), from + 1] {
            if to < WIDTH {
                moves.push((from, to));
            }
        }
    }
    fn play(&mut self, (_, to): (u8, u8)) {
        let me = self.turn.index();
        let them = self.turn.other().index();
        if self.kings[them] == Some(to) {
            self.kings[them] = None;
        }
        self.kings[me] = Some(to);
        self.turn = self.turn.other();
    }
    fn is_check(&self) -> bool {
        match self.kings {
            [Some(w), Some(b)] => w.abs_diff(b) == 1,
            _ => false,
        }
    }
    fn outcome(&self) -> Option<Outcome> {
        match self.kings {
            [Some(_), None] => Some(Outcome::win(Color::White, Termination::Checkmate)),
            [None, Some(_)] => Some(Outcome::win(Color::Black, Termination::Checkmate)),
            _ => None,
        }
    }
    fn key(&self) -> u64 {
        let k = |s: Option<u8>| u64::from(s.map_or(15, |v| v));
        k(self.kings[0]) | k(self.kings[1]) << 4 | (self.turn.index() as u64) << 8
    }
    fn fen(&self) -> String {
        let cells: String = (0..WIDTH)
            .map(|i| self.piece_char(Square(i.into())).unwrap_or('.'))
            .collect();
        format!("{cells} {}", self.turn.letter())
    }
    fn move_text(&self, (from, to): (u8, u8)) -> String {
        let name = |s: u8| geometry().square_name(Square(s.into()));
        format!("{}{}", name(from), name(to))
    }
    fn move_human(&self, mv: (u8, u8)) -> String {
        format!("K{}", &self.move_text(mv)[2..])
    }
    fn piece_char(&self, sq: Square) -> Option<char> {
        let i = sq.index() as u8;
        if self.kings[0] == Some(i) {
            Some('K')
        } else if self.kings[1] == Some(i) {
            Some('k')
        } else {
            None
        }
    }
    fn is_noisy(&self, (_, to): (u8, u8)) -> bool {
        self.kings[self.turn.other().index()] == Some(to)
    }
}

fn row_variants() -> Vec<VariantSpec<Row>> {
    vec![VariantSpec {
        id: "row",
        name: "Row",
        summary: "two Kings on a row of seven squares; a capture wins",
        start_fen: "K.....k w",
        options: &[],
        from_fen: Row::parse,
    }]
}

/// The registry line a new game adds, here for the test's own list.
fn registry_with_toy() -> Vec<Variant> {
    let mut all = menagerie_variants::registry();
    all.extend(entries(
        row_variants(),
        GenericEval::new(PieceValues::new(&[('K', 0)], 0)),
    ));
    all
}

#[test]
fn a_toy_game_plugs_in_with_one_registry_line_and_the_engine_plays_it() {
    let variants = registry_with_toy();
    let row = variants
        .iter()
        .find(|v| v.id == "row")
        .expect("the toy is registered");
    let mut game = row.open(None, &RuleOptions::new()).expect("start opens");
    assert_eq!(game.legal_moves(), vec!["a1b1".to_string()]);

    // The King that can capture does so at once, at every depth.
    let mut engine = Engine::default();
    engine.add_variant(row);
    for depth in 1..=4 {
        let g = row
            .open(Some("..Kk... w"), &RuleOptions::new())
            .expect("opens");
        let report = engine.search(&*g, &Limits::depth(depth), None, &mut |_| {});
        assert_eq!(report.best.as_deref(), Some("c1d1"), "depth {depth}");
    }

    // A whole game, engine against engine, through the dynamic interface: every move legal.
    let mut plies = 0;
    while game.outcome().is_none() {
        let report = engine.search(&*game, &Limits::depth(3), None, &mut |_| {});
        let best = report.best.expect("a move while the game runs");
        assert!(game.legal_moves().contains(&best));
        game.push(&best).expect("the engine's move is legal");
        plies += 1;
        assert!(plies < 40, "the game should end within 40 plies");
    }
    // Whoever steps next to the other King is captured, so neither engine does while it
    // can step back: the game ends by repetition, or by a capture if one side is forced.
    let outcome = game.outcome().expect("over");
    match outcome.winner {
        None => assert_eq!(outcome.termination, Termination::Repetition),
        Some(w) => assert_eq!(game.turn(), w.other()),
    }
}
