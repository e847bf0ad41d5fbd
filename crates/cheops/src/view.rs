//! What one player may see (rulebook §15): the public string, that player's own papers, and
//! the turns offered, all computed without the opponent's secret.

use crate::position::{CheopsMove, CheopsPosition};
use crate::rules::Bits;
use menagerie_core::{BitBoard, Color, MoveError, Position};

/// One player's view of the umpire's position.
#[derive(Clone, Debug)]
pub struct PlayerView {
    player: Color,
    /// The umpire's position with the opponent's papers set aside: the opponent's sealed
    /// Deputies are, for this player, Civilians.
    seen: CheopsPosition,
}

impl PlayerView {
    pub(crate) fn new(pos: &CheopsPosition, player: Color) -> Self {
        let mut seen = pos.clone();
        seen.papers &= pos.occ[player.index()];
        PlayerView { player, seen }
    }

    /// The player this view belongs to.
    pub fn player(&self) -> Color {
        self.player
    }

    /// The player's string: the public string plus the player's own sealed papers
    /// (Common: the position string).
    pub fn fen(&self) -> String {
        self.seen.umpire_fen()
    }

    /// The public string (what spectators see).
    pub fn public_fen(&self) -> String {
        self.seen.public_fen()
    }

    /// The player's own sealed Deputies.
    pub fn own_papers(&self) -> Bits {
        self.seen.papers
    }

    /// The turns offered to the player: none when it is not the player's turn.
    pub fn offered_moves(&self) -> Vec<CheopsMove> {
        if self.seen.turn() != self.player {
            return Vec::new();
        }
        self.seen.moves()
    }

    /// The offered turns in machine form, sorted.
    pub fn offered_texts(&self) -> Vec<String> {
        let mut v: Vec<String> = self
            .offered_moves()
            .iter()
            .map(|m| self.seen.machine_text(m))
            .collect();
        v.sort();
        v
    }

    /// Reads the player's move; every error message depends only on what the player sees.
    pub fn parse_move(&self, text: &str) -> Result<CheopsMove, MoveError> {
        if self.seen.turn() != self.player {
            return Err(MoveError::Illegal {
                text: text.trim().to_string(),
                reason: format!("it is {}'s turn", self.seen.turn().name()),
            });
        }
        self.seen.read_move(text)
    }

    /// The machine text of a move as this player writes it.
    pub fn move_text(&self, mv: &CheopsMove) -> String {
        self.seen.machine_text(mv)
    }

    /// The position as this player knows it (the opponent's papers removed).
    pub fn position(&self) -> &CheopsPosition {
        &self.seen
    }

    /// The position as this player knows it, by value.
    pub fn into_position(self) -> CheopsPosition {
        self.seen
    }

    /// Whether the view has no sealed papers of the player's own.
    pub fn has_no_papers(&self) -> bool {
        self.seen.papers.is_empty()
    }
}

impl CheopsPosition {
    /// The umpire positions consistent with this position as the side to move knows it
    /// (its [`PlayerView`]): this position first (the opponent holds no sealed papers), then
    /// one per apparent Civilian of the opponent that could be a sealed Deputy. One secret
    /// at a time: sealing every active Civilian of a side compromises them all (10.3), so
    /// with two candidates only one can be sealed. With no Castle on the board there is only
    /// this position: an appointment needs a King on the chair of an active Castle (10.1) and
    /// Castles are permanent (9.2), so no game that reached it ever offered one (a position
    /// string may still seal a Deputy there; the view cannot tell, and the search assumes a
    /// game played from a setup). Empty in Common, where nothing is hidden.
    pub(crate) fn sealed_hypotheses(&self) -> Vec<CheopsPosition> {
        if self.style() != crate::Style::Imperial {
            return Vec::new();
        }
        let opponent = self.turn().other();
        let mut base = self.clone();
        base.papers &= self.occ[self.turn().index()];
        let mut out = vec![base.clone()];
        if self.ncastles == 0 {
            return out;
        }
        let mut candidates = self.occ[opponent.index()] & !self.bastions & !self.known;
        while let Some(s) = candidates.pop_first() {
            if crate::position::cell_role(self.board[s.index()]) == crate::pieces::CIVILIAN {
                let mut hypothesis = base.clone();
                hypothesis.papers.set(s);
                out.push(hypothesis);
            }
        }
        out
    }
}
