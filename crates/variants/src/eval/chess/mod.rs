//! The chess evaluation: material, piece-square tables, mobility, pawn structure, passed
//! pawns, rooks on open files, king safety and threats, tapered between middlegame and
//! endgame by the material left; the weights are tuned on positions scored by Stockfish
//! (docs/engine.md, "Chess evaluation tuned"), and a small network ([`nnue`]) adds a
//! bounded correction learnt from more of them.

use menagerie_chess::attacks::tables;
use menagerie_chess::{Chess, Move, MoveKind, Role};
use menagerie_core::Color;
use menagerie_engine::{Evaluator, Mobility};

pub mod nnue;
pub mod terms;
pub mod tune;
pub mod weights;

/// The chess evaluation: the weighted terms of [`terms`] with the weights of [`weights`].
#[derive(Clone, Copy, Debug, Default)]
pub struct ChessEval;

impl ChessEval {
    /// The weighted terms' score from White's point of view (the side to move's tempo
    /// included, the network's correction not).
    pub fn white_score(&self, pos: &Chess) -> i32 {
        terms::white_score(pos)
    }

    /// The weighted terms' score from the side to move's point of view.
    fn terms(&self, pos: &Chess) -> i32 {
        let white = self.white_score(pos);
        if pos.side() == Color::White {
            white
        } else {
            -white
        }
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
    let t = tables();
    let queens = pos.role_pieces(Role::Queen);
    let diagonal = pos.role_pieces(Role::Bishop) | queens;
    let straight = pos.role_pieces(Role::Rook) | queens;
    // Every piece that attacks the target square with the board holding only `occ`: found
    // once, then only the lines through a piece that leaves are looked at again (a piece
    // leaving a diagonal can only open that diagonal, and so on).
    let mut attackers = pos.attackers_to(to, occ);
    let mut side = us.other();
    let mut d = 0;
    loop {
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
        // The lines the taker leaves may open (pawns, Bishops and Kings can stand on a
        // diagonal, Rooks and Kings on a rank or file, Queens on either).
        if matches!(role, Role::Pawn | Role::Bishop | Role::Queen | Role::King) {
            attackers |= t.bishop(to, occ) & diagonal;
        }
        if matches!(role, Role::Rook | Role::Queen | Role::King) {
            attackers |= t.rook(to, occ) & straight;
        }
        attackers &= occ;
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
        // The network corrects the weighted terms where they misjudge a position.
        self.terms(pos) + nnue::Network::shipped().map_or(0, |net| net.evaluate(pos))
    }

    fn evaluate_within(&self, pos: &Chess, _mobility: Mobility, lo: i32, hi: i32) -> i32 {
        // The network moves the terms by at most `LIMIT`: beyond that from the window,
        // the side is known without it.
        super::corrected_within(self.terms(pos), nnue::LIMIT, lo, hi, || {
            nnue::Network::shipped().map_or(0, |net| net.evaluate(pos))
        })
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

    fn correction_key(&self, pos: &Chess) -> Option<u64> {
        // The pawns: the structure the evaluation misjudges the same way move after move.
        let white = pos.pieces(Color::White, Role::Pawn);
        let black = pos.pieces(Color::Black, Role::Pawn);
        Some(
            white.wrapping_mul(0xff51_afd7_ed55_8ccd)
                ^ black.wrapping_mul(0xc4ce_b9fe_1a85_ec53).rotate_left(31),
        )
    }

    fn singular_depth(&self) -> Option<i32> {
        // Measured in self-play at 20,000 nodes a move (docs/engine.md).
        Some(6)
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
        // Only the tempo of the side to move (the start is a middlegame: phase 24).
        assert_eq!(
            e.white_score(&Chess::start()),
            weights::WEIGHTS[terms::TEMPO].0
        );
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

    /// [`see`] as first written: every attacker found again after each capture.
    fn see_recomputing(pos: &Chess, mv: Move) -> i32 {
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

    #[test]
    fn static_exchange_agrees_with_recomputing_the_attackers() {
        use menagerie_core::Position;
        let starts = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3P4/1p2P3/2N2N2/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R w KQ - 0 8",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "2r2rk1/1p2nb2/p2b1R1p/8/1P1pP2p/q2B4/3B3P/1R3QK1 b - - 1 27",
        ];
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let (mut tried, mut exchanges) = (0, 0);
        for start in starts {
            for _ in 0..30 {
                let mut pos = Chess::from_fen(start).unwrap();
                for _ in 0..80 {
                    let moves = pos.moves();
                    if moves.is_empty() {
                        break;
                    }
                    for &m in &moves {
                        let s = see(&pos, m);
                        assert_eq!(s, see_recomputing(&pos, m), "{} {m:?}", pos.to_fen());
                        tried += 1;
                        exchanges += usize::from(s < 0);
                    }
                    pos.play(moves[crate::eval::random_index(&mut seed, moves.len())]);
                }
            }
        }
        assert!(
            tried > 200_000 && exchanges > 20_000,
            "{tried} moves, {exchanges} losing"
        );
    }
}
