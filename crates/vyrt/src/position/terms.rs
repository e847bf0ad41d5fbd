//! What an evaluation counts on the board (units, pawn steps, mobility along the torus, the
//! attacks next to each King), read from the piece sets and line occupancies the move
//! generator already keeps: a slider's rays are one table look-up per line instead of a walk
//! square by square, and attacks are counted only on the squares next to a King, the only
//! ones an evaluation reads.

use super::*;

/// What an evaluation counts of one side (see [`VyrtPosition::eval_terms`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SideTerms {
    /// Units by kind: Pawn, Knight, Bishop, Rook, Queen.
    pub units: [i32; 5],
    /// Pawns by the pushes they still need to promote (index 11: 11 or more).
    pub pawns_by_steps: [i32; 12],
    /// Mobility: 8 per Knight; per Bishop and Rook, the squares its rays reach, each ray
    /// followed round the torus up to the first unit (that unit's square included), so a
    /// square reached both ways round counts twice; per Queen, half of that rounded down.
    pub reach: i32,
    /// Over the eight squares next to this side's King, the enemy's attacks on each, at most
    /// two a square: pawns' capture squares, Knight leaps and the rays above, one per route.
    /// 0 without a King.
    pub king_zone_hits: i32,
    /// This side's units next to its King (0 without a King).
    pub shelter: i32,
    /// Whether this side has a King.
    pub has_king: bool,
}

impl VyrtPosition {
    /// What an evaluation counts, `[White, Black]` (see [`SideTerms`]).
    pub fn eval_terms(&self) -> [SideTerms; 2] {
        let mut terms = [SideTerms::default(); 2];
        // Attacks by each side, counted only on the squares next to the enemy King; indexed
        // by a `u8` square, so no bounds checks.
        let mut attacks = [[0u8; 256]; 2];
        let pt = self.pawn_tables();
        let steps = &PAWN_STEPS[usize::from(self.rules.reversed_back_pawns)];
        for c in 0..2 {
            let t = &mut terms[c];
            let att = &mut attacks[c];
            let enemy_king = (self.king[1 - c] as usize).min(NONE);
            let zone = &KING_ZONE_LINES[enemy_king];
            let zone_bb = if enemy_king < N {
                KING[enemy_king]
            } else {
                Wide::EMPTY
            };
            let pawns = self.pawns[c];
            t.units[0] = pawns.count() as i32;
            each_square(pawns, |s| {
                t.pawns_by_steps[usize::from(steps[c][s]).min(11)] += 1;
            });
            if any(pawns & pt.zone_attackers[c][enemy_king]) {
                for &n in &KING_STEPS[enemy_king] {
                    att[n as usize] += (pawns & pt.attackers[c][n as usize]).count() as u8;
                }
            }
            each_square(self.knights[c], |s| {
                t.units[1] += 1;
                t.reach += 8;
                each_square(KNIGHT[s] & zone_bb, |hit| att[hit as u8 as usize] += 1);
            });
            let sliders = self.units[c] & !(self.pawns[c] | self.knights[c]);
            each_square(sliders, |s| {
                let kind = self.board[s] & 7;
                if kind == KING_K {
                    return;
                }
                let slides = SLIDES[kind as usize];
                let mut reach = 0;
                for f in 0..4 {
                    if slides >> f & 1 == 0 {
                        continue;
                    }
                    let (l, p) = SQ_LINES[s][f];
                    let (l, p) = (l as usize, p as u32);
                    let occ = self.occ[0][f][l] | self.occ[1][f][l];
                    let [up, down, len] = CIRCLE_ROUTES[(rot_down(occ, p) >> 1) as usize];
                    reach += i32::from(len);
                    let z = rot_down(zone[f][l], p) as u16;
                    if (up | down) & z == 0 {
                        continue;
                    }
                    // Each route counts once: a square reached both ways round twice.
                    for route in [up & z, down & z] {
                        let mut r = rot_up(u32::from(route), p);
                        while r != 0 {
                            let hit = LINE_SQS[f][l][r.trailing_zeros() as usize];
                            r &= r - 1;
                            att[hit as usize] += 1;
                        }
                    }
                }
                if kind == QUEEN {
                    reach /= 2;
                }
                t.units[kind as usize - 1] += 1;
                t.reach += reach;
            });
        }
        for c in 0..2 {
            let k = self.king[c] as usize;
            if k >= N {
                continue;
            }
            let enemy = &attacks[1 - c];
            let t = &mut terms[c];
            t.has_king = true;
            t.king_zone_hits = KING_STEPS[k]
                .iter()
                .map(|&n| i32::from(enemy[n as usize].min(2)))
                .sum();
            t.shelter = (self.units[c] & KING[k]).count() as i32;
        }
        terms
    }
}

/// Calls `f` with every square of `b`, lowest first: one word at a time, which costs less
/// than asking the set for its first square again and again.
#[inline(always)]
fn each_square(b: Bb, mut f: impl FnMut(usize)) {
    for (i, &word) in b.0.iter().enumerate() {
        let mut w = word;
        while w != 0 {
            f(i * 64 + w.trailing_zeros() as usize);
            w &= w - 1;
        }
    }
}
