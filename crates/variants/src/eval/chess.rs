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

// Piece-square tables from White's side, printed rank 8 first (index with `sq ^ 56`), by
// role P N B R Q K: Ronald Friederich's PeSTO tables (texel-tuned together with the
// values above; Chess Programming Wiki, "PeSTO's Evaluation Function").
/// Middlegame piece-square bonus by role and square.
#[rustfmt::skip]
const PST_MG: [[i32; 64]; 6] = [
    // Pawn
    [
           0,    0,    0,    0,    0,    0,    0,    0,
          98,  134,   61,   95,   68,  126,   34,  -11,
          -6,    7,   26,   31,   65,   56,   25,  -20,
         -14,   13,    6,   21,   23,   12,   17,  -23,
         -27,   -2,   -5,   12,   17,    6,   10,  -25,
         -26,   -4,   -4,  -10,    3,    3,   33,  -12,
         -35,   -1,  -20,  -23,  -15,   24,   38,  -22,
           0,    0,    0,    0,    0,    0,    0,    0,
    ],
    // Knight
    [
        -167,  -89,  -34,  -49,   61,  -97,  -15, -107,
         -73,  -41,   72,   36,   23,   62,    7,  -17,
         -47,   60,   37,   65,   84,  129,   73,   44,
          -9,   17,   19,   53,   37,   69,   18,   22,
         -13,    4,   16,   13,   28,   19,   21,   -8,
         -23,   -9,   12,   10,   19,   17,   25,  -16,
         -29,  -53,  -12,   -3,   -1,   18,  -14,  -19,
        -105,  -21,  -58,  -33,  -17,  -28,  -19,  -23,
    ],
    // Bishop
    [
         -29,    4,  -82,  -37,  -25,  -42,    7,   -8,
         -26,   16,  -18,  -13,   30,   59,   18,  -47,
         -16,   37,   43,   40,   35,   50,   37,   -2,
          -4,    5,   19,   50,   37,   37,    7,   -2,
          -6,   13,   13,   26,   34,   12,   10,    4,
           0,   15,   15,   15,   14,   27,   18,   10,
           4,   15,   16,    0,    7,   21,   33,    1,
         -33,   -3,  -14,  -21,  -13,  -12,  -39,  -21,
    ],
    // Rook
    [
          32,   42,   32,   51,   63,    9,   31,   43,
          27,   32,   58,   62,   80,   67,   26,   44,
          -5,   19,   26,   36,   17,   45,   61,   16,
         -24,  -11,    7,   26,   24,   35,   -8,  -20,
         -36,  -26,  -12,   -1,    9,   -7,    6,  -23,
         -45,  -25,  -16,  -17,    3,    0,   -5,  -33,
         -44,  -16,  -20,   -9,   -1,   11,   -6,  -71,
         -19,  -13,    1,   17,   16,    7,  -37,  -26,
    ],
    // Queen
    [
         -28,    0,   29,   12,   59,   44,   43,   45,
         -24,  -39,   -5,    1,  -16,   57,   28,   54,
         -13,  -17,    7,    8,   29,   56,   47,   57,
         -27,  -27,  -16,  -16,   -1,   17,   -2,    1,
          -9,  -26,   -9,  -10,   -2,   -4,    3,   -3,
         -14,    2,  -11,   -2,   -5,    2,   14,    5,
         -35,   -8,   11,    2,    8,   15,   -3,    1,
          -1,  -18,   -9,   10,  -15,  -25,  -31,  -50,
    ],
    // King
    [
         -65,   23,   16,  -15,  -56,  -34,    2,   13,
          29,   -1,  -20,   -7,   -8,   -4,  -38,  -29,
          -9,   24,    2,  -16,  -20,    6,   22,  -22,
         -17,  -20,  -12,  -27,  -30,  -25,  -14,  -36,
         -49,   -1,  -27,  -39,  -46,  -44,  -33,  -51,
         -14,  -14,  -22,  -46,  -44,  -30,  -15,  -27,
           1,    7,   -8,  -64,  -43,  -16,    9,    8,
         -15,   36,   12,  -54,    8,  -28,   24,   14,
    ],
];
/// Endgame piece-square bonus by role and square.
#[rustfmt::skip]
const PST_EG: [[i32; 64]; 6] = [
    // Pawn
    [
           0,    0,    0,    0,    0,    0,    0,    0,
         178,  173,  158,  134,  147,  132,  165,  187,
          94,  100,   85,   67,   56,   53,   82,   84,
          32,   24,   13,    5,   -2,    4,   17,   17,
          13,    9,   -3,   -7,   -7,   -8,    3,   -1,
           4,    7,   -6,    1,    0,   -5,   -1,   -8,
          13,    8,    8,   10,   13,    0,    2,   -7,
           0,    0,    0,    0,    0,    0,    0,    0,
    ],
    // Knight
    [
         -58,  -38,  -13,  -28,  -31,  -27,  -63,  -99,
         -25,   -8,  -25,   -2,   -9,  -25,  -24,  -52,
         -24,  -20,   10,    9,   -1,   -9,  -19,  -41,
         -17,    3,   22,   22,   22,   11,    8,  -18,
         -18,   -6,   16,   25,   16,   17,    4,  -18,
         -23,   -3,   -1,   15,   10,   -3,  -20,  -22,
         -42,  -20,  -10,   -5,   -2,  -20,  -23,  -44,
         -29,  -51,  -23,  -15,  -22,  -18,  -50,  -64,
    ],
    // Bishop
    [
         -14,  -21,  -11,   -8,   -7,   -9,  -17,  -24,
          -8,   -4,    7,  -12,   -3,  -13,   -4,  -14,
           2,   -8,    0,   -1,   -2,    6,    0,    4,
          -3,    9,   12,    9,   14,   10,    3,    2,
          -6,    3,   13,   19,    7,   10,   -3,   -9,
         -12,   -3,    8,   10,   13,    3,   -7,  -15,
         -14,  -18,   -7,   -1,    4,   -9,  -15,  -27,
         -23,   -9,  -23,   -5,   -9,  -16,   -5,  -17,
    ],
    // Rook
    [
          13,   10,   18,   15,   12,   12,    8,    5,
          11,   13,   13,   11,   -3,    3,    8,    3,
           7,    7,    7,    5,    4,   -3,   -5,   -3,
           4,    3,   13,    1,    2,    1,   -1,    2,
           3,    5,    8,    4,   -5,   -6,   -8,  -11,
          -4,    0,   -5,   -1,   -7,  -12,   -8,  -16,
          -6,   -6,    0,    2,   -9,   -9,  -11,   -3,
          -9,    2,    3,   -1,   -5,  -13,    4,  -20,
    ],
    // Queen
    [
          -9,   22,   22,   27,   27,   19,   10,   20,
         -17,   20,   32,   41,   58,   25,   30,    0,
         -20,    6,    9,   49,   47,   35,   19,    9,
           3,   22,   24,   45,   57,   40,   57,   36,
         -18,   28,   19,   47,   31,   34,   39,   23,
         -16,  -27,   15,    6,    9,   17,   10,    5,
         -22,  -23,  -30,  -16,  -16,  -23,  -36,  -32,
         -33,  -28,  -22,  -43,   -5,  -32,  -20,  -41,
    ],
    // King
    [
         -74,  -35,  -18,  -18,  -11,   15,    4,  -17,
         -12,   17,   14,   17,   17,   38,   23,   11,
          10,   17,   23,   15,   20,   45,   44,   13,
          -8,   22,   24,   27,   26,   33,   26,    3,
         -18,   -4,   21,   24,   27,   23,    9,  -11,
         -19,   -3,   11,   21,   23,   16,    7,   -9,
         -27,  -11,    4,   13,   14,    4,   -5,  -17,
         -53,  -34,  -21,  -11,  -28,  -14,  -24,  -43,
    ],
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
            let own = pos.color_pieces(color);
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
                    s.add(sign, MG_VALUE[r] + PST_MG[r][i], EG_VALUE[r] + PST_EG[r][i]);
                    let (attacks, mob_mg, mob_eg, zone_w) = match role {
                        Role::Pawn => {
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
                        Role::Knight => (t.knight[sq], 4, 4, 2),
                        Role::Bishop => (t.bishop(sq, occ), 4, 5, 2),
                        Role::Rook => {
                            let file = FILE_A << (sq % 8);
                            if all_pawns & file == 0 {
                                s.add(sign, 25, 10);
                            } else if pawns & file == 0 {
                                s.add(sign, 12, 5);
                            }
                            (t.rook(sq, occ), 2, 4, 3)
                        }
                        Role::Queen => (t.queen(sq, occ), 1, 2, 5),
                        Role::King => {
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

/// Values for the static exchange evaluation, by role P N B R Q K (the King is never
/// captured, so its value only ranks it last as an attacker).
const SEE_VALUE: [i32; 6] = [100, 320, 330, 500, 900, 20000];

/// The material the side to move wins by `mv` and the best exchanges that follow on its
/// target square, each side free to stop recapturing (static exchange evaluation; pins
/// are ignored).
pub fn see(pos: &Chess, mv: Move) -> i32 {
    let (from, to) = (usize::from(mv.from), usize::from(mv.to));
    let Some((us, mover)) = pos.piece_at(mv.from) else {
        return 0;
    };
    let mut occ = pos.occupied() & !(1u64 << from);
    let mut gain = [0i32; 40];
    gain[0] = match mv.kind {
        MoveKind::EnPassant => {
            // The captured pawn stands beside the target square, on the mover's rank.
            occ &= !(1u64 << ((from & !7) | (to & 7)));
            SEE_VALUE[0]
        }
        MoveKind::Castle => return 0,
        _ => pos
            .piece_at(mv.to)
            .map_or(0, |(_, r)| SEE_VALUE[r as usize]),
    };
    // The value of the piece standing on the target square, which the next capture takes.
    let mut on_square = match mv.promotion {
        Some(p) => {
            gain[0] += SEE_VALUE[p as usize] - SEE_VALUE[0];
            SEE_VALUE[p as usize]
        }
        None => SEE_VALUE[mover as usize],
    };
    let mut side = us.other();
    let mut d = 0;
    loop {
        let attackers = pos.attackers_to(to, occ);
        let mine = attackers & pos.color_pieces(side);
        if mine == 0 {
            break;
        }
        // The least valuable attacker takes.
        let Some((role, bit)) = Role::ALL.iter().find_map(|&r| {
            let b = mine & pos.pieces(side, r);
            (b != 0).then(|| (r, b & b.wrapping_neg()))
        }) else {
            break;
        };
        // A King may not take a defended piece.
        if role == Role::King && attackers & pos.color_pieces(side.other()) != 0 {
            break;
        }
        d += 1;
        if d >= gain.len() {
            break;
        }
        gain[d] = on_square - gain[d - 1];
        // Neither side can profit from going on: the result is settled.
        if (-gain[d - 1]).max(gain[d]) < 0 {
            break;
        }
        occ &= !bit;
        on_square = SEE_VALUE[role as usize];
        side = side.other();
    }
    while d > 0 {
        gain[d - 1] = -(-gain[d - 1]).max(gain[d]);
        d -= 1;
    }
    gain[0]
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

    fn loses_exchange(&self, pos: &Chess, mv: Move) -> bool {
        // Taking a piece worth at least the taker never loses: the worst reply retakes.
        let Some((_, mover)) = pos.piece_at(mv.from) else {
            return false;
        };
        let victim = pos
            .piece_at(mv.to)
            .map_or(0, |(_, r)| SEE_VALUE[r as usize]);
        if mv.promotion.is_none() && victim >= SEE_VALUE[mover as usize] {
            return false;
        }
        see(pos, mv) < 0
    }

    fn uses_mobility(&self) -> bool {
        false
    }

    fn quiescence_width(&self) -> Option<usize> {
        // Static exchange evaluation already drops the losing captures, and a quiet
        // position's recaptures must all be seen (docs/engine.md, 2026-11-26).
        None
    }

    fn aspiration_window(&self) -> Option<i32> {
        // Measured in self-play at 20,000 nodes a move (docs/engine.md).
        Some(30)
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

    fn mv(pos: &Chess, text: &str) -> Move {
        use menagerie_core::Position;
        pos.parse_move(text).unwrap()
    }

    #[test]
    fn static_exchange_counts_defenders_and_x_rays() {
        // Rook takes a pawn defended by a pawn: loses the Rook for the pawn.
        let p = Chess::from_fen("4k3/8/2p5/3p4/8/8/8/3RK3 w - - 0 1").unwrap();
        assert_eq!(see(&p, mv(&p, "d1d5")), 100 - 500);
        // Pawn takes a Knight defended by a pawn: wins a Knight for a pawn.
        let p = Chess::from_fen("4k3/8/2p5/3n4/4P3/8/8/4K3 w - - 0 1").unwrap();
        assert_eq!(see(&p, mv(&p, "e4d5")), 320 - 100);
        // An undefended pawn taken by the Rook; the doubled Rook behind it is an x-ray.
        let p = Chess::from_fen("3rk3/8/8/3p4/8/8/3R4/3RK3 w - - 0 1").unwrap();
        assert_eq!(see(&p, mv(&p, "d2d5")), 100);
        // A Queen that takes a defended pawn loses.
        let p = Chess::from_fen("4k3/4p3/3p4/8/8/8/8/3QK3 w - - 0 1").unwrap();
        assert_eq!(see(&p, mv(&p, "d1d6")), 100 - 900);
        let e = ChessEval;
        assert!(e.loses_exchange(&p, mv(&p, "d1d6")));
        // The King may not take back while a Rook stands behind the Queen.
        let p = Chess::from_fen("4k3/4p3/8/8/8/8/4Q3/4RK2 w - - 0 1").unwrap();
        assert_eq!(see(&p, mv(&p, "e2e7")), 100);
        let p = Chess::from_fen("4k3/4p3/8/8/8/8/4Q3/5K2 w - - 0 1").unwrap();
        assert_eq!(see(&p, mv(&p, "e2e7")), 100 - 900);
    }
}
