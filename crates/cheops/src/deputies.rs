//! Deputies (rulebook §10, Imperial only): how a Deputy moves (10.4), appointment (10.1),
//! inspection of papers (10.2), revealed and compromised Deputies (10.3).

use crate::pieces::{CIVILIAN, DEPUTY};
use crate::position::{cell_role, sqb, CheopsMove, CheopsPosition, TurnKind};
use crate::rules::Bits;
use menagerie_core::{BitBoard, Color};

impl CheopsPosition {
    /// The role that moves the piece on `s`: a Deputy moves as a Deputy (only its owner and
    /// the umpire know its papers; the opponent's view has no papers of the other side).
    #[inline(always)]
    pub(crate) fn move_role(&self, s: usize, c: u8) -> usize {
        let role = cell_role(c);
        if role == CIVILIAN && (self.known | self.papers).has(sqb(s)) {
            DEPUTY
        } else {
            role
        }
    }

    pub(crate) fn gen_appointments(&self, out: &mut Vec<CheopsMove>) {
        let me = self.turn;
        let king = self.kings[me.index()];
        let king_of_castle = self
            .active_castles()
            .any(|c| c.chair == king && c.owner == me);
        if !king_of_castle {
            return;
        }
        let mut civs = self.appointable(me);
        while let Some(s) = civs.pop_first() {
            out.push(CheopsMove::new(TurnKind::Appoint, s.index(), s.index()));
        }
    }

    /// `side`'s active Civilians that are not Deputies.
    pub(crate) fn appointable(&self, side: Color) -> Bits {
        let mut out = Bits::EMPTY;
        let mut pieces = self.occ[side.index()] & !self.frozen & !self.known & !self.papers;
        while let Some(s) = pieces.pop_first() {
            if cell_role(self.board[s.index()]) == CIVILIAN {
                out.set(s);
            }
        }
        out
    }

    pub(crate) fn gen_inspections(&self, out: &mut Vec<CheopsMove>) {
        let me = self.turn;
        let pieces = self.occ[me.other().index()] & !self.known & !self.bastions;
        // Word by word: `pop_first` rescanned the empty low words before each piece.
        for (w, &word) in pieces.0.iter().enumerate() {
            let mut word = word;
            while word != 0 {
                let t = w * 64 + word.trailing_zeros() as usize;
                word &= word - 1;
                if cell_role(self.board[t]) == CIVILIAN && self.attacked_by(me, t) {
                    out.push(CheopsMove::new(TurnKind::Inspect, t, t));
                }
            }
        }
    }

    /// Whether a Civilian on `from` could step to `to` (a Deputy's move that a Civilian
    /// could not make compromises it, 10.3).
    pub(crate) fn civilian_could(&self, from: usize, to: usize) -> bool {
        let mut probe = self.clone();
        probe.papers.clear(sqb(from));
        probe.known.clear(sqb(from));
        let mut moves = Vec::new();
        let c = probe.board[from];
        probe.gen_betza::<true>(from, c, CIVILIAN, &mut moves);
        moves.iter().any(|m| m.to as usize == to)
    }

    /// Step 1 of an appointment: the umpire records the papers (10.1).
    #[inline]
    pub(crate) fn appoint(&mut self, s: usize) {
        self.papers.set(sqb(s));
    }

    /// Step 1 of an inspection: a Deputy found is revealed (10.2).
    #[inline]
    pub(crate) fn inspect(&mut self, s: usize) {
        if self.papers.has(sqb(s)) {
            self.papers.clear(sqb(s));
            self.known.set(sqb(s));
        }
    }

    /// Step 6: after an appointment that leaves `side` no active Civilian to appoint,
    /// every Deputy of that side is compromised (10.3, R32).
    #[inline]
    pub(crate) fn compromise_by_appointment(&mut self, side: Color) {
        if self.appointable(side).is_empty() {
            let mine = self.occ[side.index()];
            self.known |= self.papers & mine;
            self.papers &= !mine;
        }
    }
}
