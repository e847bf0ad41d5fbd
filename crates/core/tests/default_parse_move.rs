//! The default `Position::parse_move`: canonical text as written, then human text, then
//! canonical text in any case; text naming no square is no move of the game; a move from an
//! empty square or the opponent's piece says so.

use menagerie_core::{Color, Geometry, MoveError, Outcome, Position, Square};
use std::sync::LazyLock;

static BOARD: LazyLock<Geometry> = LazyLock::new(|| Geometry::rectangle(3, 1));

/// A toy game on three squares a1 b1 c1: White's rook `R` and Black's rook `r` step one
/// square; the human text names the destination (`Rb1`).
#[derive(Clone, Debug)]
struct Toy {
    white: u16,
    black: u16,
    turn: Color,
}

impl Position for Toy {
    type Move = (u16, u16);
    fn variant(&self) -> &'static str {
        "toy"
    }
    fn geometry(&self) -> &Geometry {
        &BOARD
    }
    fn turn(&self) -> Color {
        self.turn
    }
    fn legal_moves(&self, moves: &mut Vec<(u16, u16)>) {
        let (me, them) = match self.turn {
            Color::White => (self.white, self.black),
            Color::Black => (self.black, self.white),
        };
        for to in [me.wrapping_sub(1), me + 1] {
            if to < 3 && to != them {
                moves.push((me, to));
            }
        }
    }
    fn play(&mut self, (from, to): (u16, u16)) {
        if self.white == from {
            self.white = to;
        } else {
            self.black = to;
        }
        self.turn = self.turn.other();
    }
    fn is_check(&self) -> bool {
        false
    }
    fn outcome(&self) -> Option<Outcome> {
        None
    }
    fn key(&self) -> u64 {
        0
    }
    fn fen(&self) -> String {
        String::new()
    }
    fn move_text(&self, (from, to): (u16, u16)) -> String {
        format!(
            "{}{}",
            BOARD.square_name(Square(from)),
            BOARD.square_name(Square(to))
        )
    }
    fn move_human(&self, (_, to): (u16, u16)) -> String {
        format!("R{}", BOARD.square_name(Square(to)))
    }
    fn piece_char(&self, sq: Square) -> Option<char> {
        if sq.0 == self.white {
            Some('R')
        } else if sq.0 == self.black {
            Some('r')
        } else {
            None
        }
    }
    fn is_noisy(&self, _: (u16, u16)) -> bool {
        false
    }
}

#[test]
fn the_default_reader_names_the_fault() {
    let pos = Toy {
        white: 0,
        black: 2,
        turn: Color::White,
    };
    assert_eq!(pos.parse_move("a1b1"), Ok((0, 1)));
    assert_eq!(pos.parse_move("Rb1"), Ok((0, 1)));
    assert_eq!(pos.parse_move("A1B1"), Ok((0, 1)));
    let e = pos.parse_move("hello").unwrap_err();
    assert_eq!(
        e.to_string(),
        "'hello' is not a move of toy: a move names its squares, as in a1b1"
    );
    let reason = |text: &str| match pos.parse_move(text) {
        Err(MoveError::Illegal { reason, .. }) => reason,
        other => panic!("{text}: {other:?}"),
    };
    assert_eq!(reason("b1c1"), "there is no piece on b1");
    assert_eq!(reason("c1b1"), "the piece on c1 is not White's");
    assert_eq!(reason("a1c1"), "no legal move matches it");
    assert_eq!(reason("Rc1"), "no legal move matches it");
}
