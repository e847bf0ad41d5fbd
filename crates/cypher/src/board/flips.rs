//! Flips (7.5, R9): a Court Spy lined up with the enemy Court King, a King next to the enemy
//! Spy, a King next to his own Spy, two Spies side by side. The mover's own faults come
//! first; the first rule in 7.5's order names the ending.

use super::{Board, Kind};
use crate::tables::{queen_attacks, tables};
use menagerie_core::Color;

impl Board {
    /// The flip on the board (7.5), judged after a turn of `mover`, with precedence R9.
    #[inline]
    pub fn flip(&self, mover: Color) -> Option<Flip> {
        let t = tables();
        // Fast exit, the usual case: no Spy next to a King or a Spy, and no Spy and King both
        // in Court.
        let spy_bits = self.by_kind[Kind::Spy as usize];
        let king_bits = self.by_kind[Kind::King as usize];
        let mut near_spies = 0;
        // A word at a time: cheaper than `u128` arithmetic.
        for (mut word, base) in [(spy_bits as u64, 0), ((spy_bits >> 64) as u64, 64)] {
            while word != 0 {
                near_spies |= t.adjacent[base + word.trailing_zeros() as usize];
                word &= word - 1;
            }
        }
        if near_spies & (spy_bits | king_bits) == 0
            && (spy_bits & t.court == 0 || king_bits & t.court == 0)
        {
            return None;
        }
        let kings = [self.king(Color::White), self.king(Color::Black)];
        let spies = [self.spy(Color::White), self.spy(Color::Black)];
        // Fast exit: no Spy next to a King or a Spy, and no Court Spy facing a Court King.
        let near = |a: Option<usize>, b: Option<usize>| match (a, b) {
            (Some(a), Some(b)) => t.adjacent[a] >> b & 1 != 0,
            _ => false,
        };
        let in_court = |s: Option<usize>| s.is_some_and(|s| t.court >> s & 1 != 0);
        let court_line = |spy_side: usize| -> bool {
            match (spies[spy_side], kings[1 - spy_side]) {
                (Some(s), Some(k)) if in_court(Some(s)) && in_court(Some(k)) => {
                    queen_attacks(t, k, self.line_blockers(t)) >> s & 1 != 0
                }
                _ => false,
            }
        };
        let m = mover as usize;
        let o = 1 - m;
        let (mc, oc) = (mover, mover.other());
        // Rule 2: a King next to the enemy Spy, unless both in Court (then rule 1).
        let king_flips = |side: usize| {
            near(kings[side], spies[1 - side])
                && !(in_court(kings[side]) && in_court(spies[1 - side]))
        };
        // The mover's faults first (R9), in the order of 7.5.
        if court_line(o) {
            return Some(Flip {
                winner: oc,
                rule: FlipRule::SpyFlipsKing,
            });
        }
        if king_flips(o) {
            return Some(Flip {
                winner: oc,
                rule: FlipRule::KingFlipsSpy,
            });
        }
        if near(kings[m], spies[m]) {
            return Some(Flip {
                winner: oc,
                rule: FlipRule::KingNextToOwnSpy,
            });
        }
        if near(spies[0], spies[1]) {
            return Some(Flip {
                winner: oc,
                rule: FlipRule::SpiesTogether,
            });
        }
        if court_line(m) {
            return Some(Flip {
                winner: mc,
                rule: FlipRule::SpyFlipsKing,
            });
        }
        if king_flips(m) {
            return Some(Flip {
                winner: mc,
                rule: FlipRule::KingFlipsSpy,
            });
        }
        if near(kings[o], spies[o]) {
            return Some(Flip {
                winner: mc,
                rule: FlipRule::KingNextToOwnSpy,
            });
        }
        None
    }
}

/// Which flip rule of 7.5 ended the game.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum FlipRule {
    /// Rule 1: a Court Spy lined up with the enemy Court King.
    SpyFlipsKing,
    /// Rule 2: a King next to the enemy Spy.
    KingFlipsSpy,
    /// Rule 3: a King next to his own Spy.
    KingNextToOwnSpy,
    /// Rule 4: a Spy moved next to the other Spy.
    SpiesTogether,
}

/// A flip: who wins and by which rule.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Flip {
    /// The side that wins.
    pub winner: Color,
    /// The rule.
    pub rule: FlipRule,
}

impl Flip {
    /// The ending in the rulebook's words (section 11).
    pub fn describe(self) -> String {
        let (w, l) = (self.winner.name(), self.winner.other().name());
        match self.rule {
            FlipRule::SpyFlipsKing => format!("flip: {w}'s Court Spy flipped {l}'s Court King"),
            FlipRule::KingFlipsSpy => format!("flip: {w}'s King flipped {l}'s Spy"),
            FlipRule::KingNextToOwnSpy => format!("flip: {l}'s King stands next to its own Spy"),
            FlipRule::SpiesTogether => format!("flip: {l}'s Spy landed next to the other Spy"),
        }
    }
}
