//! The chess evaluation's correction network: a small network that adds to the weighted
//! terms what they misjudge, learnt from Stockfish's static evaluation of positions from our
//! own games and one or two random moves beyond them (`examples/search_positions.py`;
//! docs/engine.md, "A network learnt from positions our search reaches"). 768 inputs (each
//! piece by colour, role and square, seen from one side), one hidden layer of [`HIDDEN`]
//! clipped-ReLU units per side, one output, clamped to [`LIMIT`] centipawns either way.
//!
//! Why a correction and why clamped (docs/engine.md, "A correction network"): trained on
//! a million positions from Stockfish's games, a network alone or an unclamped correction
//! fit Stockfish's scores far better than the terms and played far worse, since the search
//! asks about positions no game of Stockfish's reaches; a small, bounded correction keeps
//! the terms' judgement there and still plays better. The hidden layer is summed afresh at
//! every evaluation (one vector addition a piece), so the position carries nothing for it.
//! The weights are data (`chess.nnue`), written by `examples/train_nnue.rs`.

use super::terms::Bits;
use menagerie_chess::{Chess, Role};
use menagerie_core::Color;
use std::cell::RefCell;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

/// Inputs per side: 2 colours (own, other) x 6 roles x 64 squares.
pub const INPUTS: usize = 768;
/// Hidden units per side.
pub const HIDDEN: usize = 64;
/// The hidden layer's fixed-point unit: an activation of 1.0 is `QA`.
pub const QA: i32 = 255;
/// The output weights' fixed-point unit.
pub const QB: i32 = 64;
/// Centipawns per unit of the network's output (its output passes through a logistic
/// with this scale when trained).
pub const SCALE: i32 = 400;
/// The first eight bytes of a network file.
pub const MAGIC: &[u8; 8] = b"MNNUE001";
/// The largest correction the network may make, in centipawns (measured: see the module).
pub const LIMIT: i32 = 80;

/// The network shipped with the engine.
const SHIPPED: &[u8] = include_bytes!("chess.nnue");

/// Both sides' hidden sums side by side: White's view, then Black's.
type Pair = [i16; 2 * HIDDEN];

/// A network's quantised weights.
#[derive(Clone)]
pub struct Network {
    /// For each piece (colour, role, square, White's numbering): its input's row seen from
    /// White, then seen from Black, so one addition serves both views.
    pieces: Vec<Pair>,
    /// Hidden biases.
    b0: [i16; HIDDEN],
    /// Output weights: the side to move's units, then the other side's.
    w1: [i16; 2 * HIDDEN],
    /// Output bias, in units of `QA * QB`.
    b1: i32,
    /// This network's number, so a thread's last hidden sums are reused only with it.
    id: u64,
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Network({INPUTS}x{HIDDEN}x2x1)")
    }
}

/// The input for a piece of `color` and `role` on `square` (0 = a1), seen from
/// `perspective`: that side's pieces first, the board turned for Black.
pub fn feature(perspective: Color, color: Color, role: Role, square: usize) -> usize {
    let other = usize::from(color != perspective);
    let square = match perspective {
        Color::White => square,
        Color::Black => square ^ 56,
    };
    other * 384 + role as usize * 64 + (square & 63)
}

/// The inputs of `pos` seen from the side to move and from the other side, written into
/// `mover` and `other`; returns how many there are (one per piece, at most 64).
pub fn active_features(pos: &Chess, mover: &mut [u16; 64], other: &mut [u16; 64]) -> usize {
    let side = pos.side();
    let mut n = 0;
    for color in [Color::White, Color::Black] {
        for role in Role::ALL {
            let mut bits = pos.pieces(color, role);
            while bits != 0 && n < 64 {
                let square = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                mover[n] = feature(side, color, role, square) as u16;
                other[n] = feature(side.other(), color, role, square) as u16;
                n += 1;
            }
        }
    }
    n
}

/// Reads `N` little-endian `i16`s from the front of `bytes`.
fn read_i16s<const N: usize>(bytes: &mut &[u8]) -> Option<[i16; N]> {
    let (head, rest) = bytes.split_at_checked(2 * N)?;
    let mut out = [0i16; N];
    for (o, pair) in out.iter_mut().zip(head.chunks_exact(2)) {
        *o = i16::from_le_bytes([pair[0], pair[1]]);
    }
    *bytes = rest;
    Some(out)
}

impl Network {
    /// The network of a file's bytes: [`MAGIC`], the hidden size as a little-endian `u32`,
    /// then the input weights row by row, the hidden biases and the output weights (all
    /// `i16`), and the output bias (`i32`), nothing after it.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, String> {
        let rest = bytes
            .strip_prefix(MAGIC.as_slice())
            .ok_or("the file does not start with the chess network's magic bytes")?;
        let (size, mut rest) = rest
            .split_at_checked(4)
            .ok_or("the file ends before the hidden layer's size")?;
        let hidden = u32::from_le_bytes([size[0], size[1], size[2], size[3]]);
        if hidden as usize != HIDDEN {
            return Err(format!(
                "the network has {hidden} hidden units where this build reads {HIDDEN}"
            ));
        }
        let short = || "the file ends before the network's last weight".to_string();
        let mut w0 = Vec::with_capacity(INPUTS);
        for _ in 0..INPUTS {
            w0.push(read_i16s::<HIDDEN>(&mut rest).ok_or_else(short)?);
        }
        let b0 = read_i16s::<HIDDEN>(&mut rest).ok_or_else(short)?;
        let w1 = read_i16s::<{ 2 * HIDDEN }>(&mut rest).ok_or_else(short)?;
        let b1 = match rest {
            [a, b, c, d] => i32::from_le_bytes([*a, *b, *c, *d]),
            _ if rest.len() < 4 => return Err(short()),
            _ => return Err("the file goes on after the network's last weight".into()),
        };
        let mut pieces = vec![[0i16; 2 * HIDDEN]; INPUTS];
        for color in [Color::White, Color::Black] {
            for role in Role::ALL {
                for square in 0..64 {
                    let pair = &mut pieces[color.index() * 384 + role as usize * 64 + square];
                    let (white, black) = pair.split_at_mut(HIDDEN);
                    white.copy_from_slice(&w0[feature(Color::White, color, role, square)]);
                    black.copy_from_slice(&w0[feature(Color::Black, color, role, square)]);
                }
            }
        }
        let id = NEXT_ID.fetch_add(1, Ordering::Relaxed);
        Ok(Network {
            pieces,
            b0,
            w1,
            b1,
            id,
        })
    }

    /// The file's bytes for a network given in fixed point (see [`Network::from_bytes`]).
    pub fn to_bytes(w0: &[[i16; HIDDEN]], b0: &[i16; HIDDEN], w1: &[i16], b1: i32) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        out.extend_from_slice(&(HIDDEN as u32).to_le_bytes());
        for v in w0.iter().flatten().chain(b0).chain(w1) {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&b1.to_le_bytes());
        out
    }

    /// The shipped network, read once; `None` if its file is not a network of this build
    /// (the evaluation is then the weighted terms alone; a test guards against that).
    pub fn shipped() -> Option<&'static Network> {
        static NET: OnceLock<Option<Network>> = OnceLock::new();
        NET.get_or_init(|| Network::from_bytes(SHIPPED).ok())
            .as_ref()
    }

    /// The correction for `pos` in centipawns from the side to move's view (at most
    /// [`LIMIT`] either way).
    pub fn evaluate(&self, pos: &Chess) -> i32 {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the processor was just seen to have AVX2, all the function requires.
            return unsafe { self.evaluate_avx2(pos) };
        }
        self.evaluate_here(pos)
    }

    /// [`Self::evaluate`] compiled for AVX2, whose vectors hold twice the baseline's
    /// lanes: the sums a piece and the output's products take half the instructions.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn evaluate_avx2(&self, pos: &Chess) -> i32 {
        self.evaluate_here(pos)
    }

    /// [`Self::evaluate`] for whatever the caller was compiled for: the hidden sums are
    /// those of the position this thread evaluated last, moved by the pieces that differ
    /// (a search's consecutive positions are a parent and its child or two siblings, a few
    /// pieces apart), or summed afresh when too many do.
    #[inline(always)]
    fn evaluate_here(&self, pos: &Chess) -> i32 {
        let boards = boards(pos);
        LAST.with(|last| {
            let mut last = last.borrow_mut();
            let changed: u32 = if last.network == self.id {
                boards
                    .iter()
                    .zip(&last.boards)
                    .map(|(a, b)| (a ^ b).count_ones())
                    .sum()
            } else {
                u32::MAX
            };
            if changed > REFRESH {
                last.acc = self.sum(&boards);
            } else {
                for (index, (now, before)) in boards.iter().zip(last.boards).enumerate() {
                    let rows = &self.pieces[64 * index..64 * index + 64];
                    for square in Bits(before & !now) {
                        sub(&mut last.acc, &rows[square]);
                    }
                    for square in Bits(now & !before) {
                        add(&mut last.acc, &rows[square]);
                    }
                }
            }
            last.network = self.id;
            last.boards = boards;
            self.output(&last.acc, pos.side())
        })
    }

    /// The hidden sums of a position with these pieces, added one by one.
    #[inline(always)]
    fn sum(&self, boards: &[u64; 12]) -> Pair {
        let mut acc: Pair = [0; 2 * HIDDEN];
        acc[..HIDDEN].copy_from_slice(&self.b0);
        acc[HIDDEN..].copy_from_slice(&self.b0);
        for (index, &bits) in boards.iter().enumerate() {
            let rows = &self.pieces[64 * index..64 * index + 64];
            for square in Bits(bits) {
                add(&mut acc, &rows[square]);
            }
        }
        acc
    }

    /// The clamped correction of hidden sums with `side` to move.
    #[inline(always)]
    fn output(&self, acc: &Pair, side: Color) -> i32 {
        let (white, black) = acc.split_at(HIDDEN);
        let (mover, other) = match side {
            Color::White => (white, black),
            Color::Black => (black, white),
        };
        let (near, far) = self.w1.split_at(HIDDEN);
        let out = i64::from(dot(mover, near)) + i64::from(dot(other, far)) + i64::from(self.b1);
        (out * i64::from(SCALE) / i64::from(QA * QB)).clamp(-i64::from(LIMIT), i64::from(LIMIT))
            as i32
    }

    /// [`Self::evaluate`] summed afresh, without the thread's last sums (for tests).
    #[cfg(test)]
    fn evaluate_fresh(&self, pos: &Chess) -> i32 {
        self.output(&self.sum(&boards(pos)), pos.side())
    }
}

/// More differing pieces than this and the hidden sums are summed afresh (about what a
/// fresh sum of a middlegame's pieces costs in differences).
const REFRESH: u32 = 12;

/// What a thread last evaluated: the network (its [`Network::id`]), the pieces and their
/// hidden sums.
struct Last {
    network: u64,
    boards: [u64; 12],
    acc: Pair,
}

thread_local! {
    /// This thread's last evaluation, from which the next is found (see
    /// [`Network::evaluate`]); no network has the id 0.
    static LAST: RefCell<Last> = const {
        RefCell::new(Last { network: 0, boards: [0; 12], acc: [0; 2 * HIDDEN] })
    };
}

/// The next network's [`Network::id`].
static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// The pieces of `pos` by colour and role, in the order of [`Network`]'s rows.
#[inline(always)]
fn boards(pos: &Chess) -> [u64; 12] {
    let mut out = [0; 12];
    for color in [Color::White, Color::Black] {
        for role in Role::ALL {
            out[color.index() * 6 + role as usize] = pos.pieces(color, role);
        }
    }
    out
}

/// Takes a piece's rows from the hidden sums (the exact inverse of [`add`]).
#[inline]
fn sub(acc: &mut Pair, row: &Pair) {
    for (a, r) in acc.iter_mut().zip(row) {
        *a = a.wrapping_sub(*r);
    }
}

/// Adds a piece's rows to the hidden sums (wrapping: the trainer keeps them in range).
#[inline]
fn add(acc: &mut Pair, row: &Pair) {
    for (a, r) in acc.iter_mut().zip(row) {
        *a = a.wrapping_add(*r);
    }
}

/// The clipped activations of `acc` times `weights`.
#[inline]
fn dot(acc: &[i16], weights: &[i16]) -> i32 {
    acc.iter()
        .zip(weights)
        .map(|(&a, &w)| i32::from(a.clamp(0, QA as i16)) * i32::from(w))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use menagerie_core::Position;

    #[test]
    fn the_shipped_network_reads_and_leaves_the_start_near_even() {
        let net = Network::shipped().expect("the shipped network reads");
        let s = net.evaluate(&Chess::start());
        assert!((-25..=25).contains(&s), "start corrected by {s}");
    }

    #[test]
    fn the_correction_is_colour_symmetric_and_bounded() {
        let net = Network::shipped().expect("the shipped network reads");
        let w = Chess::from_fen("4k3/8/8/8/8/8/4P3/4KQ2 w - - 0 1").unwrap();
        let b = Chess::from_fen("4kq2/4p3/8/8/8/8/8/4K3 b - - 0 1").unwrap();
        assert_eq!(net.evaluate(&w), net.evaluate(&b));
        let w =
            Chess::from_fen("r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R w KQ - 0 8")
                .unwrap();
        let b =
            Chess::from_fen("r2qkb1r/pp2bppp/2n2n2/2pp4/3P4/2N1PN2/PP2BPPP/R1BQ1RK1 b kq - 0 8")
                .unwrap();
        assert_eq!(net.evaluate(&w), net.evaluate(&b));
        assert!(net.evaluate(&w).abs() <= LIMIT);
    }

    #[test]
    fn the_correction_moves_a_misjudged_king_attack_towards_stockfish() {
        // Black to move is a Knight and two pawns up, but White's Rook, Queen and Bishops
        // bear on the King: the terms say +5.4 for Black, Stockfish about +1.1
        // (docs/engine.md, "King safety terms").
        let net = Network::shipped().expect("the shipped network reads");
        let p =
            Chess::from_fen("2r2rk1/1p2nb2/p2b1R1p/8/1P1pP2p/q2B4/3B3P/1R3QK1 b - - 1 27").unwrap();
        assert!(net.evaluate(&p) <= -LIMIT / 2, "{}", net.evaluate(&p));
    }

    #[test]
    fn sums_moved_from_the_last_evaluation_are_the_sums_afresh() {
        // A game's positions in turn (a few pieces apart), a sibling after a child, and
        // jumps to unrelated positions (summed afresh), with a second network between.
        // `evaluate` runs the AVX2 build where there is one, `evaluate_fresh` the baseline.
        #[cfg(target_arch = "x86_64")]
        if !std::arch::is_x86_feature_detected!("avx2") {
            eprintln!("skipped in part: no AVX2 here, so only the baseline build is compared");
        }
        let net = Network::shipped().expect("the shipped network reads");
        let other = Network::from_bytes(SHIPPED).expect("the shipped network reads");
        let mut pos = Chess::start();
        let mut seed = 99u64;
        let mut moves = Vec::new();
        for step in 0..600 {
            assert_eq!(
                net.evaluate(&pos),
                net.evaluate_fresh(&pos),
                "{}",
                pos.fen()
            );
            moves.clear();
            pos.legal_moves(&mut moves);
            if moves.is_empty() || pos.rule_draw() {
                pos = Chess::start();
                continue;
            }
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            let pick = (seed >> 33) as usize;
            let mut child = pos.clone();
            child.play(moves[pick % moves.len()]);
            assert_eq!(net.evaluate(&child), net.evaluate_fresh(&child));
            pos.play(moves[(pick / 7) % moves.len()]);
            if step % 50 == 49 {
                let far = Chess::from_fen("4k3/8/8/8/8/8/4P3/4KQ2 w - - 0 1").unwrap();
                assert_eq!(other.evaluate(&far), net.evaluate_fresh(&far));
            }
        }
    }

    #[test]
    fn a_damaged_file_is_refused_with_one_sentence() {
        assert_eq!(
            Network::from_bytes(b"MNNUE00").unwrap_err(),
            "the file does not start with the chess network's magic bytes"
        );
        let mut bytes = SHIPPED.to_vec();
        bytes.pop();
        assert_eq!(
            Network::from_bytes(&bytes).unwrap_err(),
            "the file ends before the network's last weight"
        );
        bytes.extend_from_slice(&[0, 0]);
        assert_eq!(
            Network::from_bytes(&bytes).unwrap_err(),
            "the file goes on after the network's last weight"
        );
    }

    #[test]
    fn bytes_round_trip() {
        let net = Network::shipped().expect("the shipped network reads");
        // Each input's row, found again in White's half of its piece's pair.
        let w0: Vec<[i16; HIDDEN]> = (0..INPUTS)
            .map(|f| {
                let color = if f < 384 { Color::White } else { Color::Black };
                let piece = color.index() * 384 + f % 384;
                std::array::from_fn(|k| net.pieces[piece][k])
            })
            .collect();
        let bytes = Network::to_bytes(&w0, &net.b0, &net.w1, net.b1);
        assert_eq!(bytes, SHIPPED);
    }
}
