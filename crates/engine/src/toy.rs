//! A toy game for the engine's own tests: no game crate is needed to exercise the search.
//!
//! Each turn takes one of `width` tokens-moves; the game lasts `left` more plies and whoever
//! makes the last move wins. Every move may be declared noisy, which turns quiescence into a
//! search to the end of the game: the explosion a pawn wall causes in Vyrt, in miniature.

use crate::eval::{Evaluator, Mobility};
use menagerie_core::{Color, Geometry, Outcome, Position, Square, Termination};
use std::sync::OnceLock;

fn geometry() -> &'static Geometry {
    static G: OnceLock<Geometry> = OnceLock::new();
    G.get_or_init(|| Geometry::rectangle(8, 1))
}

/// The toy position.
#[derive(Clone, Copy, Debug)]
pub struct Toy {
    /// Plies left until the game ends.
    pub left: u32,
    /// Moves offered each turn.
    pub width: u8,
    /// Whether every move is noisy (searched in quiescence).
    pub all_noisy: bool,
    /// Whether the position is drawn by a rule.
    pub drawn: bool,
    /// Board letters, `.` for empty, square 0 first.
    pub letters: &'static str,
    turn: Color,
    key: u64,
}

impl Toy {
    /// A toy game `left` plies long with `width` moves a turn.
    pub fn new(left: u32, width: u8, all_noisy: bool) -> Self {
        Toy {
            left,
            width,
            all_noisy,
            drawn: false,
            letters: "........",
            turn: Color::White,
            key: 0x9e37_79b9_7f4a_7c15,
        }
    }
}

fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl Position for Toy {
    type Move = u8;
    fn variant(&self) -> &'static str {
        "toy"
    }
    fn geometry(&self) -> &Geometry {
        geometry()
    }
    fn turn(&self) -> Color {
        self.turn
    }
    fn legal_moves(&self, moves: &mut Vec<u8>) {
        if self.left > 0 {
            moves.extend(0..self.width);
        }
    }
    fn play(&mut self, mv: u8) {
        self.left -= 1;
        self.turn = self.turn.other();
        self.key = mix(self.key ^ u64::from(mv + 1));
    }
    fn is_check(&self) -> bool {
        false
    }
    fn outcome(&self) -> Option<Outcome> {
        (self.left == 0).then(|| Outcome::win(self.turn.other(), Termination::Checkmate))
    }
    fn key(&self) -> u64 {
        self.key
    }
    fn fen(&self) -> String {
        format!("toy {} {}", self.left, self.width)
    }
    fn move_text(&self, mv: u8) -> String {
        format!("m{mv}")
    }
    fn move_human(&self, mv: u8) -> String {
        format!("M{mv}")
    }
    fn piece_char(&self, sq: Square) -> Option<char> {
        self.letters.chars().nth(sq.index()).filter(|&c| c != '.')
    }
    fn is_noisy(&self, _mv: u8) -> bool {
        self.all_noisy
    }
    fn rule_draw(&self) -> bool {
        self.drawn
    }
}

/// An evaluation that scores each position by a hash of its key: no two siblings agree,
/// so alpha-beta prunes little.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoisyEval;

impl Evaluator<Toy> for NoisyEval {
    fn evaluate(&self, pos: &Toy, _mobility: Mobility) -> i32 {
        (mix(pos.key) % 201) as i32 - 100
    }
    fn material(&self, _pos: &Toy) -> i32 {
        0
    }
    fn uses_mobility(&self) -> bool {
        false
    }
}
