//! The evaluation every game gets without writing one: material counted from the board
//! letters ([`Position::piece_char`]) with a value table given as data, plus mobility.

use super::{Evaluator, Mobility};
use menagerie_core::{Color, Position};

/// Centipawn values by upper-case board letter; letters not listed use `default`.
#[derive(Clone, Debug)]
pub struct PieceValues {
    /// `(letter, value)` pairs; the letter is matched case-insensitively.
    pub values: Vec<(char, i32)>,
    /// The value of a letter missing from the table.
    pub default: i32,
}

impl PieceValues {
    /// A table from `(letter, value)` pairs.
    pub fn new(values: &[(char, i32)], default: i32) -> Self {
        PieceValues {
            values: values
                .iter()
                .map(|&(c, v)| (c.to_ascii_uppercase(), v))
                .collect(),
            default,
        }
    }
    /// The orthodox values (P 100, N 300, B 320, R 500, Q 900, K 0), unknown letters 300.
    pub fn orthodox() -> Self {
        Self::new(
            &[
                ('P', 100),
                ('N', 300),
                ('B', 320),
                ('R', 500),
                ('Q', 900),
                ('K', 0),
            ],
            300,
        )
    }
    /// Vyrt Chess: the author's own order Queen > Elephant (B) > Horse (N) > Rook > Pawn
    /// (rulebook R17); a first guess at the gaps, to be tuned by self-play.
    pub fn vyrt() -> Self {
        Self::new(
            &[
                ('P', 100),
                ('R', 420),
                ('N', 480),
                ('B', 540),
                ('Q', 1000),
                ('K', 0),
            ],
            300,
        )
    }
    /// Cypher Chess: orthodox values; King and Spy are never captured in play (only
    /// infiltration removes them), so they count nothing.
    pub fn cypher() -> Self {
        Self::new(
            &[
                ('P', 100),
                ('N', 300),
                ('B', 320),
                ('R', 500),
                ('Q', 900),
                ('K', 0),
                ('S', 0),
            ],
            300,
        )
    }
    /// Little Cheops (both styles): riders by their reach, one-step nobles alike;
    /// Civilians (and the Deputies hidden among them) are never captured, so count nothing.
    pub fn little_cheops() -> Self {
        Self::new(
            &[
                ('P', 100),
                ('C', 0),
                ('D', 250),
                ('U', 250),
                ('B', 220),
                ('O', 220),
                ('A', 250),
                ('N', 300),
                ('I', 330),
                ('M', 450),
                ('T', 500),
                ('E', 650),
                ('Q', 900),
                ('K', 0),
            ],
            250,
        )
    }
    /// The value of the piece with board letter `c` (either case).
    pub fn value(&self, c: char) -> i32 {
        let up = c.to_ascii_uppercase();
        self.values
            .iter()
            .find(|&&(l, _)| l == up)
            .map_or(self.default, |&(_, v)| v)
    }
}

/// Material from a [`PieceValues`] table plus a mobility term; works for any game.
#[derive(Clone, Debug)]
pub struct GenericEval {
    /// The piece values.
    pub values: PieceValues,
    /// Centipawns per legal move of difference between the sides.
    pub mobility_weight: i32,
}

impl GenericEval {
    /// An evaluation with these piece values.
    pub fn new(values: PieceValues) -> Self {
        GenericEval {
            values,
            mobility_weight: 3,
        }
    }
}

impl Default for GenericEval {
    fn default() -> Self {
        Self::new(PieceValues::orthodox())
    }
}

/// Material balance of `pos` for the side to move under `values`.
pub fn material<P: Position>(pos: &P, values: &PieceValues) -> i32 {
    let us = pos.turn();
    let mut total = 0;
    for sq in pos.geometry().squares() {
        if let Some(c) = pos.piece_char(sq) {
            let owner = if c.is_ascii_uppercase() {
                Color::White
            } else {
                Color::Black
            };
            let v = values.value(c);
            total += if owner == us { v } else { -v };
        }
    }
    total
}

impl<P: Position> Evaluator<P> for GenericEval {
    fn evaluate(&self, pos: &P, mobility: Mobility) -> i32 {
        let mat = material(pos, &self.values);
        // Only the side to move's count is known here; the opponent's comes from the
        // parent node. Without it the term would swing with the side to move.
        let mob = match mobility.other {
            Some(other) => (mobility.own as i32 - other as i32).clamp(-40, 40),
            None => 0,
        };
        mat + self.mobility_weight * mob
    }

    fn move_hint(&self, pos: &P, mv: P::Move) -> i32 {
        // Moves are opaque here: measure the material a noisy move gains by playing it.
        let before = material(pos, &self.values);
        let mut next = pos.clone();
        next.play(mv);
        -material(&next, &self.values) - before
    }

    fn material(&self, pos: &P) -> i32 {
        material(pos, &self.values)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toy::Toy;

    #[test]
    fn material_counts_letters_from_the_side_to_move() {
        let mut pos = Toy::new(3, 2, false);
        pos.letters = "RQ.k...q";
        assert_eq!(material(&pos, &PieceValues::orthodox()), 500);
        pos.play(0);
        assert_eq!(material(&pos, &PieceValues::orthodox()), -500);
        let vyrt_like = PieceValues::new(&[('q', 900), ('b', 700), ('n', 600)], 100);
        assert_eq!(vyrt_like.value('B'), 700);
        assert_eq!(vyrt_like.value('z'), 100);
    }
}
