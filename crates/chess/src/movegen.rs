//! Legal move generation: checkers and pins are computed once, so every move produced is
//! legal without playing it. The same walk either lists moves or only counts them (perft's
//! last ply), through the [`Sink`] it is given.

use crate::attacks::{tables, Tables};
use crate::board::{Chess, Move, MoveKind, Role, NO_EP};
use menagerie_core::Color;

/// Receives generated moves: a list builder or a counter.
pub(crate) trait Sink {
    /// A piece on `from` may go to each square of `targets`.
    fn targets(&mut self, from: u8, targets: u64);
    /// A pawn on `from` reaches the last rank on each square of `targets` (four choices each).
    fn promotions(&mut self, from: u8, targets: u64);
    /// One special move.
    fn one(&mut self, mv: Move);
}

/// Collects moves into a vector.
pub(crate) struct Collect<'a>(pub &'a mut Vec<Move>);

impl Sink for Collect<'_> {
    #[inline(always)]
    fn targets(&mut self, from: u8, mut targets: u64) {
        while targets != 0 {
            let to = targets.trailing_zeros() as u8;
            targets &= targets - 1;
            self.0.push(Move {
                from,
                to,
                promotion: None,
                kind: MoveKind::Normal,
            });
        }
    }
    #[inline(always)]
    fn promotions(&mut self, from: u8, mut targets: u64) {
        while targets != 0 {
            let to = targets.trailing_zeros() as u8;
            targets &= targets - 1;
            for role in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
                self.0.push(Move {
                    from,
                    to,
                    promotion: Some(role),
                    kind: MoveKind::Normal,
                });
            }
        }
    }
    #[inline(always)]
    fn one(&mut self, mv: Move) {
        self.0.push(mv);
    }
}

/// Counts moves without building them.
pub(crate) struct Count(pub u64);

impl Sink for Count {
    #[inline(always)]
    fn targets(&mut self, _from: u8, targets: u64) {
        self.0 += targets.count_ones() as u64;
    }
    #[inline(always)]
    fn promotions(&mut self, _from: u8, targets: u64) {
        self.0 += 4 * targets.count_ones() as u64;
    }
    #[inline(always)]
    fn one(&mut self, _mv: Move) {
        self.0 += 1;
    }
}

const RANK_1: u64 = 0xFF;
const RANK_8: u64 = 0xFF << 56;

impl Chess {
    /// Pieces of the side to move pinned to their King.
    #[inline(always)]
    fn pinned(&self, t: &Tables, king: usize) -> u64 {
        let us = self.turn;
        let them = us.other();
        let occ = self.occupied();
        let queens = self.pieces(them, Role::Queen);
        let snipers = (t.rook(king, 0) & (self.pieces(them, Role::Rook) | queens))
            | (t.bishop(king, 0) & (self.pieces(them, Role::Bishop) | queens));
        let mut pinned = 0;
        let mut s = snipers;
        while s != 0 {
            let sniper = s.trailing_zeros() as usize;
            s &= s - 1;
            let between = t.between[king][sniper] & occ;
            if between.count_ones() == 1 {
                pinned |= between & self.by_color[us.index()];
            }
        }
        pinned
    }

    /// Walks every legal move into `sink`.
    pub(crate) fn generate<S: Sink>(&self, sink: &mut S) {
        self.generate_some::<S, false>(sink);
    }

    /// Walks the legal moves into `sink`: every one, or with `NOISY` only the noisy ones
    /// (captures, en passant and promotions: what `Position::is_noisy` calls noisy), in the
    /// order the full walk gives them.
    #[inline(always)]
    fn generate_some<S: Sink, const NOISY: bool>(&self, sink: &mut S) {
        let t = tables();
        let us = self.turn;
        let them = us.other();
        let ours = self.by_color[us.index()];
        let theirs = self.by_color[them.index()];
        let occ = ours | theirs;
        let king = self.king_square(us);
        let checkers = self.attackers(t, king, them, occ);

        // King moves: the King must not stand in its own shadow, so test with it removed.
        let occ_no_king = occ ^ (1u64 << king);
        let mut king_targets = t.king[king] & if NOISY { theirs } else { !ours };
        let mut legal_king = 0;
        while king_targets != 0 {
            let to = king_targets.trailing_zeros() as usize;
            king_targets &= king_targets - 1;
            if self.attackers(t, to, them, occ_no_king) == 0 {
                legal_king |= 1u64 << to;
            }
        }
        sink.targets(king as u8, legal_king);
        if checkers.count_ones() > 1 {
            return;
        }

        let target = if checkers != 0 {
            let checker = checkers.trailing_zeros() as usize;
            t.between[king][checker] | checkers
        } else {
            if !NOISY {
                self.castling(t, sink, occ, king);
            }
            !ours
        };
        // The pieces' noisy moves are their captures (pawns' promotions are added below).
        let piece_target = if NOISY { target & theirs } else { target };
        let pinned = self.pinned(t, king);

        let mut knights = self.pieces(us, Role::Knight) & !pinned;
        while knights != 0 {
            let from = knights.trailing_zeros() as usize;
            knights &= knights - 1;
            sink.targets(from as u8, t.knight[from] & piece_target);
        }
        let queens = self.pieces(us, Role::Queen);
        let mut diag = self.pieces(us, Role::Bishop) | queens;
        while diag != 0 {
            let from = diag.trailing_zeros() as usize;
            diag &= diag - 1;
            let mut m = t.bishop(from, occ) & piece_target;
            if pinned >> from & 1 != 0 {
                m &= t.line[king][from];
            }
            sink.targets(from as u8, m);
        }
        let mut orth = self.pieces(us, Role::Rook) | queens;
        while orth != 0 {
            let from = orth.trailing_zeros() as usize;
            orth &= orth - 1;
            let mut m = t.rook(from, occ) & piece_target;
            if pinned >> from & 1 != 0 {
                m &= t.line[king][from];
            }
            sink.targets(from as u8, m);
        }
        self.pawn_moves::<S, NOISY>(t, sink, target, pinned, king, checkers);
    }

    #[inline(always)]
    fn pawn_moves<S: Sink, const NOISY: bool>(
        &self,
        t: &Tables,
        sink: &mut S,
        target: u64,
        pinned: u64,
        king: usize,
        checkers: u64,
    ) {
        let us = self.turn;
        let them = us.other();
        let occ = self.occupied();
        let empty = !occ;
        let theirs = self.by_color[them.index()];
        let (last, double_rank) = match us {
            Color::White => (RANK_8, 0xFFu64 << 24),
            Color::Black => (RANK_1, 0xFFu64 << 32),
        };
        let mut pawns = self.pieces(us, Role::Pawn);
        while pawns != 0 {
            let from = pawns.trailing_zeros() as usize;
            pawns &= pawns - 1;
            let bit = 1u64 << from;
            let single = match us {
                Color::White => (bit << 8) & empty,
                Color::Black => (bit >> 8) & empty,
            };
            let double = match us {
                Color::White => (single << 8) & empty & double_rank,
                Color::Black => (single >> 8) & empty & double_rank,
            };
            // Without quiet moves a push counts only when it promotes.
            let pushes = if NOISY {
                single & last
            } else {
                single | double
            };
            let mut m = (pushes | (t.pawn[us.index()][from] & theirs)) & target;
            if pinned & bit != 0 {
                m &= t.line[king][from];
            }
            if m & last != 0 {
                sink.promotions(from as u8, m & last);
                sink.targets(from as u8, m & !last);
            } else {
                sink.targets(from as u8, m);
            }
        }
        if self.ep != NO_EP {
            let ep = self.ep as usize;
            let victim = match us {
                Color::White => ep - 8,
                Color::Black => ep + 8,
            };
            // The capture must remove the checker or block it; otherwise it is no answer.
            if checkers != 0 && checkers & (1u64 << victim) == 0 && target >> ep & 1 == 0 {
                return;
            }
            let mut takers = t.pawn[them.index()][ep] & self.pieces(us, Role::Pawn);
            while takers != 0 {
                let from = takers.trailing_zeros() as usize;
                takers &= takers - 1;
                // Two pawns leave one rank at once: test the King's lines afresh.
                let after = (occ ^ (1u64 << from) ^ (1u64 << victim)) | (1u64 << ep);
                let them_left = theirs & !(1u64 << victim);
                let q = self.by_role[Role::Queen as usize];
                let sliders_r = (self.by_role[Role::Rook as usize] | q) & them_left;
                let sliders_b = (self.by_role[Role::Bishop as usize] | q) & them_left;
                if t.rook(king, after) & sliders_r == 0 && t.bishop(king, after) & sliders_b == 0 {
                    sink.one(Move {
                        from: from as u8,
                        to: ep as u8,
                        promotion: None,
                        kind: MoveKind::EnPassant,
                    });
                }
            }
        }
    }

    /// Whether the legal move `mv` gives check: exact for ordinary moves (the moved piece's
    /// own attacks on the enemy King, and a slider's line opened by leaving `from`),
    /// `true` for castling and en passant (rare; left to playing them).
    pub fn gives_check(&self, mv: Move) -> bool {
        if mv.kind != MoveKind::Normal {
            return true;
        }
        let t = tables();
        let us = self.turn;
        let king = self.king_square(us.other());
        let (from, to) = (usize::from(mv.from), usize::from(mv.to));
        let occ = (self.occupied() & !(1u64 << from)) | 1u64 << to;
        let role = match mv.promotion {
            Some(r) => r,
            None => match self.piece_at(mv.from) {
                Some((_, r)) => r,
                None => return true,
            },
        };
        let direct = match role {
            Role::Pawn => t.pawn[us.index()][to],
            Role::Knight => t.knight[to],
            Role::Bishop => t.bishop(to, occ),
            Role::Rook => t.rook(to, occ),
            Role::Queen => t.queen(to, occ),
            Role::King => 0,
        };
        if direct & (1u64 << king) != 0 {
            return true;
        }
        // A line opened towards the King: only through `from`, so only when `from` is on
        // one of the King's lines.
        if t.line[king][from] == 0 {
            return false;
        }
        // Before the move nothing of ours attacked the King, so any attacker now (the moved
        // piece aside, which no longer stands on `from`) is a slider whose line through
        // `from` opened: a diagonal one when `from` is on a diagonal of the King.
        let ours = self.by_color[us.index()] & !(1u64 << from);
        let queens = self.by_role[Role::Queen as usize];
        if t.bishop(king, 0) >> from & 1 != 0 {
            t.bishop(king, occ) & (self.by_role[Role::Bishop as usize] | queens) & ours != 0
        } else {
            t.rook(king, occ) & (self.by_role[Role::Rook as usize] | queens) & ours != 0
        }
    }

    /// The legal moves.
    pub fn moves(&self) -> Vec<Move> {
        let mut v = Vec::with_capacity(64);
        self.generate(&mut Collect(&mut v));
        v
    }

    /// Appends the legal noisy moves (captures, en passant and promotions) to `moves`, in
    /// the order [`Chess::moves`] lists them, and says whether the position has any legal
    /// move at all (noisy or not).
    pub fn noisy_moves(&self, moves: &mut Vec<Move>) -> bool {
        let start = moves.len();
        self.generate_some::<_, true>(&mut Collect(moves));
        moves.len() > start || self.count_moves() > 0
    }

    /// How many legal moves there are, without listing them.
    pub fn count_moves(&self) -> u64 {
        let mut c = Count(0);
        self.generate(&mut c);
        c.0
    }

    /// Perft with bulk counting at the last ply.
    pub fn perft_fast(&self, depth: u32) -> u64 {
        match depth {
            0 => 1,
            1 => self.count_moves(),
            _ => {
                let mut moves = Vec::with_capacity(64);
                self.generate(&mut Collect(&mut moves));
                let mut total = 0;
                for mv in moves {
                    let mut next = self.clone();
                    next.make(mv);
                    total += next.perft_fast(depth - 1);
                }
                total
            }
        }
    }
}
