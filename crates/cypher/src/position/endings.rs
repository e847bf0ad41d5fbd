//! The end of the game (10, 11): a captured King, flips (7.5), checkmate with or without
//! collusion (10.2, R18), stalemate, the 4-check rule (10.3), each with its points.

use super::{Counter, CypherPosition};
use menagerie_core::{Color, Outcome, Points, Termination};

impl CypherPosition {
    /// Whether the game is over by a rule checked without generating turns (a captured King,
    /// a flip, a fourth consecutive check).
    #[inline]
    pub(crate) fn ended_quickly(&self) -> bool {
        self.board.king(self.turn).is_none()
            || self.checks[self.turn.other() as usize] >= 4
            || self.board.flip(self.turn.other()).is_some()
    }

    /// The ending decided by the position alone (section 11, in its order).
    pub(crate) fn decide(&self) -> Option<Outcome> {
        let m = self.turn;
        let mover = m.other();
        let win = |winner: Color, code: &str, text: String, points: f32| {
            let o = Outcome::win(winner, Termination::rule(code, text));
            if winner == Color::White {
                o.with_points(points, 0.0)
            } else {
                o.with_points(0.0, points)
            }
        };
        if self.board.king(m).is_none() {
            return Some(win(
                mover,
                "king-capture",
                "King captured by infiltration".into(),
                3.0,
            ));
        }
        if let Some(flip) = self.board.flip(mover) {
            return Some(win(flip.winner, "flip", flip.describe(), 3.0));
        }
        let mut any = Counter(0);
        self.generate(true, &mut any);
        if any.0 == 0 {
            if !self.board.in_check(m, true) {
                return Some(Outcome::draw(Termination::Stalemate).with_points(0.5, 0.5));
            }
            // R18: still mate with collusion switched off means "without collusion".
            let mut plain = Counter(0);
            let without = self.board.in_check(m, false) && {
                self.generate(false, &mut plain);
                plain.0 == 0
            };
            return Some(if without {
                win(
                    mover,
                    "checkmate-without-collusion",
                    "checkmate without collusion".into(),
                    4.0,
                )
            } else {
                win(
                    mover,
                    "checkmate-with-collusion",
                    "checkmate with collusion".into(),
                    3.0,
                )
            });
        }
        if self.checks[mover as usize] >= 4 {
            return Some(
                Outcome::draw(Termination::rule("four-checks", "4-check rule"))
                    .with_points(0.5, 0.5),
            );
        }
        None
    }
}

/// The points of an ending decided off the board (section 11's table): a resignation gives
/// the winner 4, an agreed draw 0.5 each. A loss on time is not in the table: no points.
pub(crate) fn endings_points(outcome: &Outcome) -> Option<Points> {
    match (&outcome.termination, outcome.winner) {
        (Termination::Resignation, Some(Color::White)) => Some(Points {
            white: 4.0,
            black: 0.0,
        }),
        (Termination::Resignation, Some(Color::Black)) => Some(Points {
            white: 0.0,
            black: 4.0,
        }),
        (Termination::Agreement, None) => Some(Points {
            white: 0.5,
            black: 0.5,
        }),
        _ => None,
    }
}
