//! The chess evaluation: material, piece-square tables, mobility, pawn structure, rooks on
//! open files and king safety, tapered between middlegame and endgame by the material left.

use menagerie_chess::attacks::tables;
use menagerie_chess::{Chess, Move, MoveKind, Role};
use menagerie_core::Color;
use menagerie_engine::{Evaluator, Mobility};

/// Middlegame and endgame values of P N B R Q K.
const MG_VALUE: [i32; 6] = [82, 337, 365, 477, 1025, 0];
const EG_VALUE: [i32; 6] = [94, 281, 297, 512, 936, 0];
/// Game phase each piece contributes (24 with all pieces on the board).
const PHASE: [i32; 6] = [0, 1, 1, 2, 4, 0];

// Piece-square tables from White's side, printed rank 8 first (index with `sq ^ 56`).
#[rustfmt::skip]
const PAWN_MG: [i32; 64] = [
     0,  0,  0,  0,  0,  0,  0,  0,
    50, 50, 50, 50, 50, 50, 50, 50,
    10, 10, 20, 30, 30, 20, 10, 10,
     5,  5, 10, 25, 25, 10,  5,  5,
     0,  0,  0, 20, 20,  0,  0,  0,
     5, -5,-10,  0,  0,-10, -5,  5,
     5, 10, 10,-20,-20, 10, 10,  5,
     0,  0,  0,  0,  0,  0,  0,  0,
];
#[rustfmt::skip]
const PAWN_EG: [i32; 64] = [
     0,  0,  0,  0,  0,  0,  0,  0,
    80, 80, 80, 80, 80, 80, 80, 80,
    50, 50, 50, 50, 50, 50, 50, 50,
    30, 30, 30, 30, 30, 30, 30, 30,
    15, 15, 15, 15, 15, 15, 15, 15,
     5,  5,  5,  5,  5,  5,  5,  5,
     0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,
];
#[rustfmt::skip]
const KNIGHT: [i32; 64] = [
   -50,-40,-30,-30,-30,-30,-40,-50,
   -40,-20,  0,  0,  0,  0,-20,-40,
   -30,  0, 10, 15, 15, 10,  0,-30,
   -30,  5, 15, 20, 20, 15,  5,-30,
   -30,  0, 15, 20, 20, 15,  0,-30,
   -30,  5, 10, 15, 15, 10,  5,-30,
   -40,-20,  0,  5,  5,  0,-20,-40,
   -50,-40,-30,-30,-30,-30,-40,-50,
];
#[rustfmt::skip]
const BISHOP: [i32; 64] = [
   -20,-10,-10,-10,-10,-10,-10,-20,
   -10,  0,  0,  0,  0,  0,  0,-10,
   -10,  0,  5, 10, 10,  5,  0,-10,
   -10,  5,  5, 10, 10,  5,  5,-10,
   -10,  0, 10, 10, 10, 10,  0,-10,
   -10, 10, 10, 10, 10, 10, 10,-10,
   -10,  5,  0,  0,  0,  0,  5,-10,
   -20,-10,-10,-10,-10,-10,-10,-20,
];
#[rustfmt::skip]
const ROOK: [i32; 64] = [
     0,  0,  0,  0,  0,  0,  0,  0,
     5, 10, 10, 10, 10, 10, 10,  5,
    -5,  0,  0,  0,  0,  0,  0, -5,
    -5,  0,  0,  0,  0,  0,  0, -5,
    -5,  0,  0,  0,  0,  0,  0, -5,
    -5,  0,  0,  0,  0,  0,  0, -5,
    -5,  0,  0,  0,  0,  0,  0, -5,
     0,  0,  0,  5,  5,  0,  0,  0,
];
#[rustfmt::skip]
const QUEEN: [i32; 64] = [
   -20,-10,-10, -5, -5,-10,-10,-20,
   -10,  0,  0,  0,  0,  0,  0,-10,
   -10,  0,  5,  5,  5,  5,  0,-10,
    -5,  0,  5,  5,  5,  5,  0, -5,
     0,  0,  5,  5,  5,  5,  0, -5,
   -10,  5,  5,  5,  5,  5,  0,-10,
   -10,  0,  5,  0,  0,  0,  0,-10,
   -20,-10,-10, -5, -5,-10,-10,-20,
];
#[rustfmt::skip]
const KING_MG: [i32; 64] = [
   -30,-40,-40,-50,-50,-40,-40,-30,
   -30,-40,-40,-50,-50,-40,-40,-30,
   -30,-40,-40,-50,-50,-40,-40,-30,
   -30,-40,-40,-50,-50,-40,-40,-30,
   -20,-30,-30,-40,-40,-30,-30,-20,
   -10,-20,-20,-20,-20,-20,-20,-10,
    20, 20,  0,  0,  0,  0, 20, 20,
    20, 30, 10,  0,  0, 10, 30, 20,
];
#[rustfmt::skip]
const KING_EG: [i32; 64] = [
   -50,-40,-30,-20,-20,-30,-40,-50,
   -30,-20,-10,  0,  0,-10,-20,-30,
   -30,-10, 20, 30, 30, 20,-10,-30,
   -30,-10, 30, 40, 40, 30,-10,-30,
   -30,-10, 30, 40, 40, 30,-10,-30,
   -30,-10, 20, 30, 30, 20,-10,-30,
   -30,-30,  0,  0,  0,  0,-30,-30,
   -50,-30,-30,-30,-30,-30,-30,-50,
];

/// Passed-pawn bonus by ranks advanced (middlegame, endgame).
const PASSED_MG: [i32; 8] = [0, 5, 10, 15, 25, 40, 60, 0];
const PASSED_EG: [i32; 8] = [0, 10, 20, 35, 60, 100, 150, 0];
/// King-zone attack penalty by weighted attack count (saturating).
const KING_DANGER: [i32; 16] = [
    0, 0, 5, 15, 30, 50, 75, 100, 130, 165, 200, 240, 280, 320, 360, 400,
];

const FILE_A: u64 = 0x0101_0101_0101_0101;

/// The hand-written chess evaluation.
#[derive(Clone, Copy, Debug, Default)]
pub struct ChessEval;

/// Middlegame and endgame partial scores for White minus Black.
#[derive(Default)]
struct Taper {
    mg: i32,
    eg: i32,
}

impl Taper {
    fn add(&mut self, sign: i32, mg: i32, eg: i32) {
        self.mg += sign * mg;
        self.eg += sign * eg;
    }
}

fn bits(mut b: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (b != 0).then(|| {
            let s = b.trailing_zeros() as usize;
            b &= b - 1;
            s
        })
    })
}

/// Squares ahead of `sq` on its file and the two beside it, towards promotion.
fn front_span(color: Color, sq: usize) -> u64 {
    let file = sq % 8;
    let mut files = FILE_A << file;
    if file > 0 {
        files |= FILE_A << (file - 1);
    }
    if file < 7 {
        files |= FILE_A << (file + 1);
    }
    let rank = sq / 8;
    let ahead = match color {
        Color::White if rank < 7 => !0u64 << ((rank + 1) * 8),
        Color::Black if rank > 0 => !0u64 >> ((8 - rank) * 8),
        _ => 0,
    };
    files & ahead
}

fn pawn_attacks(color: Color, pawns: u64) -> u64 {
    let not_a = !FILE_A;
    let not_h = !(FILE_A << 7);
    match color {
        Color::White => ((pawns & not_a) << 7) | ((pawns & not_h) << 9),
        Color::Black => ((pawns & not_a) >> 9) | ((pawns & not_h) >> 7),
    }
}

impl ChessEval {
    /// The evaluation from White's point of view.
    pub fn white_score(&self, pos: &Chess) -> i32 {
        let t = tables();
        let occ = pos.occupied();
        let mut s = Taper::default();
        let mut phase = 0;
        let all_pawns = pos.pieces(Color::White, Role::Pawn) | pos.pieces(Color::Black, Role::Pawn);
        for color in Color::BOTH {
            let sign = if color == Color::White { 1 } else { -1 };
            let flip = if color == Color::White { 56 } else { 0 };
            let them = color.other();
            let own: u64 = Role::ALL.iter().fold(0, |o, &r| o | pos.pieces(color, r));
            let pawns = pos.pieces(color, Role::Pawn);
            let their_pawns = pos.pieces(them, Role::Pawn);
            let enemy_pawn_cover = pawn_attacks(them, their_pawns);
            let safe = !own & !enemy_pawn_cover;
            let their_king = pos.king_square(them);
            let king_zone = t.king[their_king] | 1u64 << their_king;
            let mut attack_weight = 0;
            let mut attackers = 0;

            for role in Role::ALL {
                let r = role as usize;
                for sq in bits(pos.pieces(color, role)) {
                    let i = sq ^ flip;
                    phase += PHASE[r];
                    s.add(sign, MG_VALUE[r], EG_VALUE[r]);
                    let (attacks, mob_mg, mob_eg, zone_w) = match role {
                        Role::Pawn => {
                            s.add(sign, PAWN_MG[i], PAWN_EG[i]);
                            let file = FILE_A << (sq % 8);
                            if front_span(color, sq) & their_pawns == 0 {
                                let adv = if color == Color::White {
                                    sq / 8
                                } else {
                                    7 - sq / 8
                                };
                                s.add(sign, PASSED_MG[adv], PASSED_EG[adv]);
                            }
                            if (pawns & file).count_ones() > 1 {
                                s.add(sign, -8, -15);
                            }
                            let beside = ((file & !(FILE_A << 7)) << 1) | ((file & !FILE_A) >> 1);
                            if pawns & beside == 0 {
                                s.add(sign, -10, -12);
                            }
                            continue;
                        }
                        Role::Knight => {
                            s.add(sign, KNIGHT[i], KNIGHT[i]);
                            (t.knight[sq], 4, 4, 2)
                        }
                        Role::Bishop => {
                            s.add(sign, BISHOP[i], BISHOP[i]);
                            (t.bishop(sq, occ), 4, 5, 2)
                        }
                        Role::Rook => {
                            s.add(sign, ROOK[i], ROOK[i]);
                            let file = FILE_A << (sq % 8);
                            if all_pawns & file == 0 {
                                s.add(sign, 25, 10);
                            } else if pawns & file == 0 {
                                s.add(sign, 12, 5);
                            }
                            (t.rook(sq, occ), 2, 4, 3)
                        }
                        Role::Queen => {
                            s.add(sign, QUEEN[i], QUEEN[i]);
                            (t.queen(sq, occ), 1, 2, 5)
                        }
                        Role::King => {
                            s.add(sign, KING_MG[i], KING_EG[i]);
                            // Pawn shield: own pawns on the three files in front.
                            let rank = (sq / 8) as i32;
                            let step = if color == Color::White { 1 } else { -1 };
                            let near = [rank + step, rank + 2 * step]
                                .into_iter()
                                .filter(|r| (0..8).contains(r))
                                .fold(0u64, |m, r| m | 0xFFu64 << (r * 8));
                            let shield = front_span(color, sq) & pawns & near;
                            let count = shield.count_ones().min(3) as i32;
                            s.add(sign, 12 * count, 0);
                            continue;
                        }
                    };
                    let n = (attacks & safe).count_ones() as i32;
                    s.add(sign, mob_mg * (n - 4), mob_eg * (n - 4));
                    let hits = (attacks & king_zone).count_ones() as i32;
                    if hits > 0 {
                        attackers += 1;
                        attack_weight += zone_w * hits;
                    }
                }
            }
            if pos.pieces(color, Role::Bishop).count_ones() >= 2 {
                s.add(sign, 30, 50);
            }
            // One attacker is no danger; the weight grows with how many join in.
            if attackers >= 2 && pos.pieces(color, Role::Queen) != 0 {
                let idx = (attack_weight as usize / 2).min(KING_DANGER.len() - 1);
                s.add(sign, KING_DANGER[idx], 0);
            }
        }
        let phase = phase.min(24);
        (s.mg * phase + s.eg * (24 - phase)) / 24
    }
}

/// Centipawn value of a role for move ordering and material counts.
fn role_value(role: Role) -> i32 {
    [100, 320, 330, 500, 900, 0][role as usize]
}

impl Evaluator<Chess> for ChessEval {
    fn evaluate(&self, pos: &Chess, _mobility: Mobility) -> i32 {
        let white = self.white_score(pos);
        // A tempo for the side to move.
        let s = if pos.side() == Color::White {
            white
        } else {
            -white
        };
        s + 10
    }

    fn move_hint(&self, pos: &Chess, mv: Move) -> i32 {
        let victim = match mv.kind {
            MoveKind::EnPassant => 100,
            _ => pos.piece_at(mv.to).map_or(0, |(_, r)| role_value(r)),
        };
        let attacker = pos.piece_at(mv.from).map_or(0, |(_, r)| r as i32);
        let promo = mv.promotion.map_or(0, |r| role_value(r) - 100);
        10 * (victim + promo) - attacker
    }

    fn gain(&self, pos: &Chess, mv: Move) -> Option<i32> {
        let victim = match mv.kind {
            MoveKind::EnPassant => 100,
            _ => pos.piece_at(mv.to).map_or(0, |(_, r)| role_value(r)),
        };
        Some(victim + mv.promotion.map_or(0, |r| role_value(r) - 100))
    }

    fn uses_mobility(&self) -> bool {
        false
    }

    fn material(&self, pos: &Chess) -> i32 {
        let mut m = 0;
        for role in Role::ALL {
            let d = pos.pieces(pos.side(), role).count_ones() as i32
                - pos.pieces(pos.side().other(), role).count_ones() as i32;
            m += d * role_value(role);
        }
        m
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_is_balanced_and_colour_symmetric() {
        let e = ChessEval;
        assert_eq!(e.white_score(&Chess::start()), 0);
        let w = Chess::from_fen("4k3/8/8/8/8/8/4P3/4KQ2 w - - 0 1").unwrap();
        let b = Chess::from_fen("4kq2/4p3/8/8/8/8/8/4K3 b - - 0 1").unwrap();
        assert_eq!(e.white_score(&w), -e.white_score(&b));
        assert!(e.white_score(&w) > 900);
    }
}
