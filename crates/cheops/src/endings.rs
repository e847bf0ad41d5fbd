//! The end of the game (rulebook §12): the draws that history or the players decide, beside
//! the mate and deadlock the position decides ([`menagerie_core::Position::outcome`] in
//! `lib.rs`): the choice at a repetition (12.2, R36), the fifty-round challenge (R38) and the
//! minimal-strength draw (R39).

use crate::pieces::{CIVILIAN, KING};
use crate::position::{cell_role, CheopsMove, CheopsPosition, TurnKind};
use menagerie_core::{BitBoard, MoveError, Outcome, Position, Termination};

impl CheopsPosition {
    /// The turns offered at a third repetition where an abdication is possible (12.2, R36):
    /// each abdication that leaves the new King safe, and `draw`. Empty when no Duke could
    /// take over (then the repetition is simply a draw).
    pub fn repetition_choices(&self) -> Vec<CheopsMove> {
        let mut out = Vec::new();
        self.gen_abdications(&mut out);
        if !out.is_empty() {
            out.push(CheopsMove::new(TurnKind::Draw, 0, 0));
        }
        out
    }

    /// Plays one of [`Self::repetition_choices`] (the core's `Game` offers only ordinary
    /// turns, so a front end calls this at a third repetition).
    pub fn play_repetition_choice(&mut self, mv: CheopsMove) -> Result<(), MoveError> {
        if !self.repetition_choices().contains(&mv) {
            return Err(MoveError::Illegal {
                text: self.machine_text(&mv),
                reason: "it is not one of the choices at a repetition (guide §11)".into(),
            });
        }
        self.apply(&mv);
        Ok(())
    }

    /// The fifty-round challenge (12.2, R38): given how many turns ago the challenge was made,
    /// the draw it forces if the count has run out (from the later of the challenge and the
    /// last Pawn move, capture or arrest).
    pub fn challenge_outcome(&self, turns_since_challenge: u32) -> Option<Outcome> {
        let count = self.halfmove.min(turns_since_challenge);
        (count >= self.rules.settings.challenge_turns && self.outcome().is_none()).then(|| {
            Outcome::draw(Termination::rule(
                "fifty-round-challenge",
                "fifty-round challenge: no Pawn move, capture or arrest since the challenge to mate",
            ))
        })
    }

    /// The automatic minimal-strength draw (R39): neither side has anything but its King,
    /// Civilians, Deputies and bastions.
    pub fn minimal_strength(&self) -> bool {
        let mut pieces = (self.occ[0] | self.occ[1]) & !self.bastions;
        while let Some(s) = pieces.pop_first() {
            let role = cell_role(self.board[s.index()]);
            if role != KING && role != CIVILIAN {
                return false;
            }
        }
        true
    }
}
