//! A game's cost per turn does not grow with its length: the repetition count is kept as
//! turns are played and taken back, not recomputed from every earlier position (which made
//! a 4,000-ply record take seconds), and it still counts exactly as the rules do.

use menagerie_core::{Color, Game, Geometry, Outcome, Position, Square, Termination};
use std::cell::Cell;
use std::sync::LazyLock;

static BOARD: LazyLock<Geometry> = LazyLock::new(|| Geometry::rectangle(4, 1));

thread_local! {
    /// How often `key` was asked for on this thread (each test runs on its own).
    static KEYS: Cell<u64> = const { Cell::new(0) };
}

/// A toy walk: one piece on four squares a1..d1 steps left or right; the side to move
/// alternates. Its key is the square and the side, so positions repeat.
#[derive(Clone, Debug)]
struct Walk {
    at: u16,
    turn: Color,
}

impl Position for Walk {
    type Move = u16;
    fn variant(&self) -> &'static str {
        "walk"
    }
    fn geometry(&self) -> &Geometry {
        &BOARD
    }
    fn turn(&self) -> Color {
        self.turn
    }
    fn legal_moves(&self, moves: &mut Vec<u16>) {
        for to in [self.at.wrapping_sub(1), self.at + 1] {
            if to < 4 {
                moves.push(to);
            }
        }
    }
    fn play(&mut self, to: u16) {
        self.at = to;
        self.turn = self.turn.other();
    }
    fn is_check(&self) -> bool {
        false
    }
    fn outcome(&self) -> Option<Outcome> {
        None
    }
    fn key(&self) -> u64 {
        KEYS.with(|k| k.set(k.get() + 1));
        u64::from(self.at) * 2 + u64::from(self.turn == Color::Black)
    }
    fn fen(&self) -> String {
        format!("{} {}", self.at, self.turn.name())
    }
    fn move_text(&self, to: u16) -> String {
        BOARD.square_name(Square(to)).to_string()
    }
    fn move_human(&self, to: u16) -> String {
        self.move_text(to)
    }
    fn piece_char(&self, sq: Square) -> Option<char> {
        (sq.0 == self.at).then_some('K')
    }
    fn is_noisy(&self, _: u16) -> bool {
        false
    }
    // Threefold repetition (the default) would end the walk at once: here a position must
    // occur 10,000 times, so a long game goes on.
    fn outcome_in_play(&self, repetitions: usize) -> Option<Outcome> {
        (repetitions >= 10_000).then(|| Outcome::draw(Termination::Repetition))
    }
}

fn start() -> Game<Walk> {
    Game::new(Walk {
        at: 0,
        turn: Color::White,
    })
}

/// 4,000 turns ask for a constant number of keys each: before, each turn hashed every
/// earlier position three times (about 24 million keys here).
#[test]
fn a_turn_costs_the_same_however_long_the_game() {
    let mut game = start();
    KEYS.with(|k| k.set(0));
    for i in 0..4000 {
        let to = if i % 2 == 0 { "b1" } else { "a1" };
        game.push_text(to).expect("a legal step");
        let _ = game.outcome();
    }
    let keys = KEYS.with(Cell::get);
    assert_eq!(game.moves().len(), 4000);
    assert!(keys <= 4 * 4000, "{keys} keys for 4,000 turns");
}

/// The count is exact through pushes, pops and views: the nth occurrence of a position is
/// counted n, a pop takes one back.
#[test]
fn repetitions_are_counted_exactly_through_takebacks() {
    let mut game = start();
    assert_eq!(game.repetitions(), 1);
    for (to, count) in [
        ("b1", 1),
        ("a1", 2),
        ("b1", 2),
        ("a1", 3),
        ("b1", 3),
        ("a1", 4),
    ] {
        game.push_text(to).expect("a step");
        assert_eq!(game.repetitions(), count, "after {to}");
    }
    game.pop();
    assert_eq!(game.repetitions(), 3, "back on b1 with Black to move");
    game.pop();
    assert_eq!(game.repetitions(), 3, "back on a1 with White to move");
    game.pop();
    game.pop();
    assert_eq!(game.repetitions(), 2);
    assert_eq!(
        game.view(menagerie_core::Viewer::Spectator).repetitions(),
        2
    );
    game.push_text("b1").expect("b1");
    assert_eq!(game.repetitions(), 2, "b1 with Black to move, twice");
    game.push_text("c1").expect("c1");
    assert_eq!(game.repetitions(), 1, "c1 is new");
    game.push_text("b1").expect("b1");
    assert_eq!(game.repetitions(), 3, "b1 with Black to move, three times");
    assert_eq!(
        game.view(menagerie_core::Viewer::Spectator).repetitions(),
        3
    );
}
