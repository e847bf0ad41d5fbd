//! The order of events inside one turn (rulebook §16): the turn itself, keeping the
//! Castles, formation, activation, the arrest, compromise by appointment, the clocks.

use crate::position::{CheopsMove, CheopsPosition, TurnKind};
use crate::rules::Style;
use menagerie_core::Color;

/// What step 1 of a turn (the turn itself) did, for the steps after it (§16).
#[derive(Clone, Copy)]
pub(crate) struct TurnEffects {
    /// Squares whose occupant changed (for Castle formation, 9.2).
    pub(crate) changed: [usize; 4],
    /// How many of `changed` are in use.
    pub(crate) nchanged: usize,
    /// Squares whose piece left the board or its square for good (captured, arrested,
    /// abdicated): an activator there deactivates its Castle (9.4).
    pub(crate) left: [usize; 2],
    /// The piece that moved: from, to, and whether it is noble (9.4).
    pub(crate) moved: Option<(usize, usize, bool)>,
    /// Whether the turn resets the halfmove clock (Pawn move, capture, arrest, 7.1).
    pub(crate) reset: bool,
    /// An arrest to carry out at step 5 (10.5).
    pub(crate) arrest: Option<Arrest>,
}

impl Default for TurnEffects {
    fn default() -> Self {
        TurnEffects {
            changed: [usize::MAX; 4],
            nchanged: 0,
            left: [usize::MAX; 2],
            moved: None,
            reset: false,
            arrest: None,
        }
    }
}

impl TurnEffects {
    /// Records that the occupant of `s` changed.
    #[inline(always)]
    pub(crate) fn change(&mut self, s: usize) {
        self.changed[self.nchanged] = s;
        self.nchanged += 1;
    }
    /// The squares whose occupant changed.
    #[inline(always)]
    pub(crate) fn changed(&self) -> &[usize] {
        &self.changed[..self.nchanged]
    }
}

/// An arrested piece on its way to a room (10.5): its cell, whether it was a known Deputy,
/// whether it held sealed papers, and the room.
#[derive(Clone, Copy)]
pub(crate) struct Arrest {
    pub(crate) piece: u8,
    pub(crate) known: bool,
    pub(crate) papers: bool,
    pub(crate) room: usize,
}

impl CheopsPosition {
    /// Plays `mv` with all its consequences, without the check test (7.5 is the caller's):
    /// the order of events of §16, one step after the other.
    pub(crate) fn apply(&mut self, mv: &CheopsMove) {
        let me = self.turn;
        // 1. The turn itself.
        let mut turn = TurnEffects::default();
        match mv.kind {
            TurnKind::Move => self.move_or_capture(mv, &mut turn),
            TurnKind::HallPromotion => self.promote_in_halls(mv, &mut turn),
            TurnKind::Hop => self.hop_chain(mv, &mut turn),
            TurnKind::Appoint => self.appoint(mv.to as usize),
            TurnKind::Inspect => self.inspect(mv.to as usize),
            TurnKind::Abdicate => self.abdicate(mv, &mut turn),
            TurnKind::Draw => {
                self.draw_accepted = true;
                return;
            }
        }
        // 2. Keeping (9.4) and the entitled Pawns (8.2 a).
        if self.ncastles > 0 {
            self.keep_castles(&turn);
        }
        if self.rules.style == Style::Imperial {
            // 3. Formation (9.2).
            self.form_castles(turn.changed());
            // 4. Activation (9.3).
            self.activate_castles();
        }
        // 5. Arrest: the piece is carried to its room.
        if let Some(arrest) = turn.arrest {
            self.carry_to_room(arrest);
        }
        self.refresh();
        // 6. Compromise by appointment (10.3).
        if mv.kind == TurnKind::Appoint {
            self.compromise_by_appointment(me);
        }
        // 8. Clocks. They stop at their largest value rather than wrap: the string
        // written then still reads back (its parser takes any u32).
        self.halfmove = if turn.reset {
            0
        } else {
            self.halfmove.saturating_add(1)
        };
        if me == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.turn = me.other();
    }
}
