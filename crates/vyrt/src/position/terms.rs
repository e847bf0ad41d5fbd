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
            // Units and pawn rows are kept by `put` and `take`; a pawn's pushes to go depend
            // on its row alone.
            let counts = &self.counts[c];
            t.units = [PAWN, KNIGHT_K, BISHOP, ROOK, QUEEN].map(|k| i32::from(counts[k as usize]));
            for (y, &n) in self.pawn_rows[c].iter().enumerate() {
                t.pawns_by_steps[usize::from(steps[c][y * 12]).min(11)] += i32::from(n);
            }
            // A pawn that can hit the zone adds one on each square it captures on: only the
            // zone's squares are ever read, so the others need no test.
            each_square(self.pawns[c] & pt.zone_attackers[c][enemy_king], |s| {
                for to in pt.captures[c][s] {
                    att[usize::from(to)] += 1;
                }
            });
            t.reach = 8 * t.units[1];
            each_square(self.knights[c], |s| {
                each_square(KNIGHT[s] & zone_bb, |hit| att[hit as u8 as usize] += 1);
            });
            let king = single(usize::from(self.king[c]).min(NONE));
            let sliders = self.units[c] & !(self.pawns[c] | self.knights[c] | king);
            each_square(sliders, |s| {
                let kind = self.board[s] & 7;
                // The families the unit slides along, one bit each.
                let mut families = SLIDES[kind as usize];
                let mut reach = 0;
                while families != 0 {
                    let f = families.trailing_zeros() as usize;
                    families &= families - 1;
                    let (l, p) = SQ_LINES[s][f];
                    let (l, p) = (l as usize, p as u32);
                    let occ = self.occ[0][f][l] | self.occ[1][f][l];
                    let [up, down, len] = CIRCLE_ROUTES[(rot_down(occ, p) >> 1) as usize];
                    reach += i32::from(len);
                    // Most lines miss the King's neighbours altogether.
                    let zone_line = zone[f][l];
                    if zone_line == 0 {
                        continue;
                    }
                    let z = rot_down(zone_line, p) as u16;
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
            // Eight look-ups cost less than counting a three-word set in software.
            let own = (c as u8) << 3 | 7;
            t.shelter = KING_STEPS[k]
                .iter()
                .map(|&n| {
                    let code = self.board[n as usize];
                    i32::from(code != 0 && code | 7 == own)
                })
                .sum();
        }
        terms
    }
}
