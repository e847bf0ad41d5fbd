//! Castling (FIDE Laws 3.8.2): the King moves two squares towards a Rook that has not moved,
//! the Rook crosses over it; never out of, through or into check, and only over empty squares.

use crate::attacks::{tables, Tables};
use crate::board::{
    Chess, Move, MoveKind, BLACK_KING_SIDE, BLACK_QUEEN_SIDE, WHITE_KING_SIDE, WHITE_QUEEN_SIDE,
};
use crate::movegen::Sink;
use menagerie_core::Color;

impl Chess {
    /// The right bits and the home rank's first square of the side to move.
    #[inline(always)]
    fn castling_sides(&self) -> (u8, u8, usize) {
        match self.turn {
            Color::White => (WHITE_KING_SIDE, WHITE_QUEEN_SIDE, 0usize),
            Color::Black => (BLACK_KING_SIDE, BLACK_QUEEN_SIDE, 56usize),
        }
    }

    /// Adds the castling moves of the side to move (not in check: the caller knows).
    #[inline(always)]
    pub(crate) fn castling<S: Sink>(&self, t: &Tables, sink: &mut S, occ: u64, king: usize) {
        let (short, long, base) = self.castling_sides();
        if king != base + 4 {
            return;
        }
        let them = self.turn.other();
        let safe = |sq: usize| self.attackers(t, sq, them, occ) == 0;
        if self.castling & short != 0
            && occ & (0b0110_0000u64 << base) == 0
            && safe(base + 5)
            && safe(base + 6)
        {
            sink.one(Move {
                from: king as u8,
                to: (base + 6) as u8,
                promotion: None,
                kind: MoveKind::Castle,
            });
        }
        if self.castling & long != 0
            && occ & (0b0000_1110u64 << base) == 0
            && safe(base + 3)
            && safe(base + 2)
        {
            sink.one(Move {
                from: king as u8,
                to: (base + 2) as u8,
                promotion: None,
                kind: MoveKind::Castle,
            });
        }
    }

    /// Why the side to move may not castle short (`short`) or long now, in a player's words.
    pub(crate) fn castling_refusal(&self, short: bool) -> String {
        let (short_right, long_right, base) = self.castling_sides();
        let right = if short { short_right } else { long_right };
        let side = if short { "king" } else { "queen" };
        let lead = "castling is not allowed here";
        if self.castling & right == 0 {
            return format!("{lead}: the king or the {side}side rook has moved");
        }
        let t = tables();
        let occ = self.occupied();
        let between = if short {
            0b0110_0000u64
        } else {
            0b0000_1110u64
        } << base;
        if occ & between != 0 {
            return format!("{lead}: a square between the king and the rook is occupied");
        }
        let them = self.turn.other();
        if self.in_check() {
            return format!("{lead}: the king is in check");
        }
        let (cross, land) = if short {
            (base + 5, base + 6)
        } else {
            (base + 3, base + 2)
        };
        if self.attackers(t, cross, them, occ) != 0 {
            return format!("{lead}: the king would pass through check");
        }
        if self.attackers(t, land, them, occ) != 0 {
            return format!("{lead}: the king would land in check");
        }
        lead.to_string()
    }
}
