//! Correction networks for the variants (issue 34): for Vyrt, Cypher and both Little Cheops
//! games, a small network that adds to the hand-written evaluation what it misjudges, learnt
//! from positions of our own self-play scored by our own deeper search
//! (`examples/variant_nets.rs`; docs/engine.md, "Networks for the variants"). It is the
//! chess network's design (`eval::chess::nnue`) over any rectangular board: the inputs are
//! the board letters, each piece by side (the viewer's own or the other's), kind (a letter
//! of the network's alphabet) and square (the board turned for Black); one hidden layer of
//! [`HIDDEN`] clipped-ReLU units per side; one output, clamped to the file's limit.
//!
//! Why a clamped correction and not a network alone: in chess a network alone played worse
//! than the terms and a correction of at most 80 centipawns played better (docs/engine.md,
//! "A correction network for the chess evaluation").
//!
//! The inputs are only the board letters, which both players see: never a prisoner pool's
//! secrets, never Little Cheops Imperial's sealed papers (a Civilian with papers is a `C`
//! on the board like any other), so positions differing only in the opponent's papers get
//! the same correction (a test checks it).
//!
//! A network is used only when enabled: by default the variants listed in [`SHIPPED_ON`]
//! (those whose network was measured to gain against the frozen ladder); the environment
//! variable `MENAGERIE_NETS` (read once) overrides it: `all`, `none`, or variant ids
//! separated by commas; `MENAGERIE_NETS_DIR` names a folder of network files to use
//! instead of the shipped ones. A network file that does not read leaves the terms alone.

use crate::AnyGame;
use menagerie_cheops::position::MAX_SQUARES as CHEOPS_SQUARES;
use menagerie_cheops::{CheopsPosition, Style};
use menagerie_core::{Color, Game, Position};
use menagerie_cypher::CypherPosition;
use menagerie_vyrt::VyrtPosition;
use std::cell::RefCell;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

/// Hidden units per side.
pub const HIDDEN: usize = 32;
/// The hidden layer's fixed-point unit: an activation of 1.0 is `QA`.
pub const QA: i32 = 255;
/// The output weights' fixed-point unit.
pub const QB: i32 = 64;
/// Centipawns per unit of the network's output (its output passes through a logistic with
/// this scale when trained).
pub const SCALE: i32 = 400;
/// The first eight bytes of a network file.
pub const MAGIC: &[u8; 8] = b"MVNET001";
/// The most squares of any board here (Little Cheops Imperial's 13x13).
pub const MAX_SQUARES: usize = 169;

/// The variants whose network is on unless `MENAGERIE_NETS` says otherwise: only those
/// measured to gain (the same build with the network against without it, docs/engine.md,
/// "Networks for the variants").
pub const SHIPPED_ON: &[&str] = &["vyrt", "cypher"];

/// The variants with a network, in the order of [`SHIPPED`].
pub const VARIANTS: [&str; 4] = ["vyrt", "cypher", "little-cheops", "little-cheops-imperial"];

/// Each variant's network file, in the order of [`VARIANTS`].
const SHIPPED: [&[u8]; 4] = [
    include_bytes!("vyrt.nnue"),
    include_bytes!("cypher.nnue"),
    include_bytes!("little-cheops.nnue"),
    include_bytes!("little-cheops-imperial.nnue"),
];

/// A board's shape and the piece letters a network reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// Files.
    pub width: usize,
    /// Ranks.
    pub height: usize,
    /// The kinds, one upper-case letter each; a letter not listed is not an input.
    pub alphabet: &'static str,
    /// Whether Black's army is White's turned half round (Little Cheops: the King and
    /// Queen change files) rather than mirrored across the middle rank (chess, Vyrt,
    /// Cypher); Black's view of the board turns it the same way.
    pub half_turn: bool,
}

impl Shape {
    /// Squares on the board.
    pub fn squares(&self) -> usize {
        self.width * self.height
    }

    /// Kinds of piece.
    pub fn kinds(&self) -> usize {
        self.alphabet.len()
    }

    /// Inputs per side: 2 sides x kinds x squares.
    pub fn inputs(&self) -> usize {
        2 * self.kinds() * self.squares()
    }

    /// `sq` (rank x width + file) seen from `perspective`: Black's board turned over (or
    /// half round, see [`Shape::half_turn`]).
    pub fn turned(&self, perspective: Color, sq: usize) -> usize {
        match perspective {
            Color::White => sq,
            Color::Black if self.half_turn => self.squares() - 1 - sq,
            Color::Black => {
                let (rank, file) = (sq / self.width, sq % self.width);
                (self.height - 1 - rank) * self.width + file
            }
        }
    }

    /// The input of a piece with board letter `letter` on `sq` seen from `perspective`, if
    /// its kind is in the alphabet.
    pub fn feature(&self, perspective: Color, letter: u8, sq: usize) -> Option<usize> {
        let kind = self
            .alphabet
            .bytes()
            .position(|c| c == letter.to_ascii_uppercase())?;
        let color = if letter.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let other = usize::from(color != perspective);
        Some((other * self.kinds() + kind) * self.squares() + self.turned(perspective, sq))
    }

    /// The inputs of a board (its letters by square, 0 for empty) seen from `perspective`,
    /// appended to `out`.
    pub fn features(&self, letters: &[u8], perspective: Color, out: &mut Vec<u16>) {
        for (sq, &c) in letters.iter().enumerate().take(self.squares()) {
            if c != 0 {
                if let Some(f) = self.feature(perspective, c, sq) {
                    out.push(f as u16);
                }
            }
        }
    }
}

/// The shape of `variant`'s network, if it has one.
pub fn shape(variant: &str) -> Option<Shape> {
    Some(match variant {
        "vyrt" => Shape {
            width: 12,
            height: 12,
            alphabet: "PNBRQK",
            half_turn: false,
        },
        "cypher" => Shape {
            width: 10,
            height: 11,
            alphabet: "PNBRQKS",
            half_turn: false,
        },
        "little-cheops" => Shape {
            width: 9,
            height: 9,
            alphabet: "KQEITMNDUBOACP",
            half_turn: true,
        },
        "little-cheops-imperial" => Shape {
            width: 13,
            height: 13,
            alphabet: "KQEITMNDUBOACP",
            half_turn: true,
        },
        _ => return None,
    })
}

/// The board letters of any game (upper case White, 0 empty), by square index.
pub fn letters_of(game: &dyn AnyGame) -> Vec<u8> {
    game.geometry()
        .squares()
        .map(|sq| game.piece_at(sq).map_or(0, |c| c as u8))
        .collect()
}

/// Both sides' hidden sums side by side: White's view, then Black's.
type Pair = [i16; 2 * HIDDEN];

/// A network's quantised weights.
#[derive(Clone)]
pub struct Network {
    /// The variant it is for, its board and its letters.
    shape: Shape,
    /// The largest correction, in centipawns either way.
    limit: i32,
    /// For each board letter byte: 0 if not an input, else 1 + its row block (colour x
    /// kinds + kind).
    code: [u8; 256],
    /// For each piece (row block x squares + square, White's numbering): its input's row
    /// seen from White, then seen from Black, so one addition serves both views.
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
        write!(
            f,
            "Network({}x{HIDDEN}x2x1, limit {})",
            self.shape.inputs(),
            self.limit
        )
    }
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

/// Reads one byte-length-prefixed text from the front of `bytes`.
fn read_text<'a>(bytes: &mut &'a [u8]) -> Option<&'a str> {
    let (&len, rest) = bytes.split_first()?;
    let (text, rest) = rest.split_at_checked(usize::from(len))?;
    *bytes = rest;
    std::str::from_utf8(text).ok()
}

impl Network {
    /// The network of a file's bytes for `variant`: [`MAGIC`]; the variant id, its board's
    /// width and height and the alphabet (each text a length byte and ASCII); the hidden
    /// size (`u32`) and the limit in centipawns (`i32`); then the input weights row by row,
    /// the hidden biases and the output weights (all `i16`), and the output bias (`i32`),
    /// all little-endian, nothing after it.
    pub fn from_bytes(variant: &str, bytes: &[u8]) -> Result<Network, String> {
        let Some(shape) = shape(variant) else {
            return Err(format!("there is no network for the variant '{variant}'"));
        };
        let mut rest = bytes
            .strip_prefix(MAGIC.as_slice())
            .ok_or("the file does not start with a variant network's magic bytes")?;
        let head = "the file ends inside its header";
        let id = read_text(&mut rest).ok_or(head)?;
        if id != variant {
            return Err(format!(
                "the file is a network for '{id}', not for '{variant}'"
            ));
        }
        let (&[w, h], after) = rest.split_first_chunk::<2>().ok_or(head)?;
        rest = after;
        let alphabet = read_text(&mut rest).ok_or(head)?;
        if (usize::from(w), usize::from(h), alphabet) != (shape.width, shape.height, shape.alphabet)
        {
            return Err(format!(
                "the network reads a {w}x{h} board with the pieces {alphabet} where this build reads {}x{} with {}",
                shape.width, shape.height, shape.alphabet
            ));
        }
        let (numbers, after) = rest.split_first_chunk::<8>().ok_or(head)?;
        rest = after;
        let hidden = u32::from_le_bytes([numbers[0], numbers[1], numbers[2], numbers[3]]);
        let limit = i32::from_le_bytes([numbers[4], numbers[5], numbers[6], numbers[7]]);
        if hidden as usize != HIDDEN {
            return Err(format!(
                "the network has {hidden} hidden units where this build reads {HIDDEN}"
            ));
        }
        if !(0..=1000).contains(&limit) {
            return Err(format!(
                "the network's limit {limit} is not between 0 and 1000 centipawns"
            ));
        }
        let short = || "the file ends before the network's last weight".to_string();
        let inputs = shape.inputs();
        let mut w0 = Vec::with_capacity(inputs);
        for _ in 0..inputs {
            w0.push(read_i16s::<HIDDEN>(&mut rest).ok_or_else(short)?);
        }
        let b0 = read_i16s::<HIDDEN>(&mut rest).ok_or_else(short)?;
        let w1 = read_i16s::<{ 2 * HIDDEN }>(&mut rest).ok_or_else(short)?;
        let b1 = match rest {
            [a, b, c, d] => i32::from_le_bytes([*a, *b, *c, *d]),
            _ if rest.len() < 4 => return Err(short()),
            _ => return Err("the file goes on after the network's last weight".into()),
        };
        let squares = shape.squares();
        let mut code = [0u8; 256];
        let mut pieces = vec![[0i16; 2 * HIDDEN]; 2 * shape.kinds() * squares];
        for (kind, upper) in shape.alphabet.bytes().enumerate() {
            for (color, letter) in [
                (Color::White, upper),
                (Color::Black, upper.to_ascii_lowercase()),
            ] {
                let block = color.index() * shape.kinds() + kind;
                code[usize::from(letter)] = block as u8 + 1;
                for sq in 0..squares {
                    let pair = &mut pieces[block * squares + sq];
                    let (white, black) = pair.split_at_mut(HIDDEN);
                    for (half, view) in [(white, Color::White), (black, Color::Black)] {
                        let f = shape.feature(view, letter, sq).ok_or_else(short)?;
                        half.copy_from_slice(&w0[f]);
                    }
                }
            }
        }
        Ok(Network {
            shape,
            limit,
            code,
            pieces,
            b0,
            w1,
            b1,
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
        })
    }

    /// The file's bytes for a network of `variant` given in fixed point (see
    /// [`Network::from_bytes`]); `None` for a variant without a network.
    pub fn to_bytes(
        variant: &str,
        limit: i32,
        w0: &[[i16; HIDDEN]],
        b0: &[i16; HIDDEN],
        w1: &[i16],
        b1: i32,
    ) -> Option<Vec<u8>> {
        let shape = shape(variant)?;
        let mut out = MAGIC.to_vec();
        out.push(variant.len() as u8);
        out.extend_from_slice(variant.as_bytes());
        out.extend_from_slice(&[shape.width as u8, shape.height as u8]);
        out.push(shape.alphabet.len() as u8);
        out.extend_from_slice(shape.alphabet.as_bytes());
        out.extend_from_slice(&(HIDDEN as u32).to_le_bytes());
        out.extend_from_slice(&limit.to_le_bytes());
        for v in w0.iter().flatten().chain(b0).chain(w1) {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&b1.to_le_bytes());
        Some(out)
    }

    /// The board and letters this network reads.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The largest correction it makes, in centipawns either way.
    pub fn limit(&self) -> i32 {
        self.limit
    }

    /// The correction of a board (its letters by square, 0 for empty) with `side` to move,
    /// in centipawns from the side to move's view (at most [`Network::limit`] either way).
    pub fn evaluate(&self, letters: &[u8], side: Color) -> i32 {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the processor was just seen to have AVX2, all the function requires.
            return unsafe { self.evaluate_avx2(letters, side) };
        }
        self.evaluate_here(letters, side)
    }

    /// [`Self::evaluate`] compiled for AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn evaluate_avx2(&self, letters: &[u8], side: Color) -> i32 {
        self.evaluate_here(letters, side)
    }

    /// [`Self::evaluate`] for whatever the caller was compiled for: the hidden sums are the
    /// thread's last board's, moved by the squares that differ (a search's consecutive
    /// positions are a parent and its child or two siblings), or summed afresh when too
    /// many do. The boards are compared eight squares (a word) at a time.
    #[inline(always)]
    fn evaluate_here(&self, letters: &[u8], side: Color) -> i32 {
        let n = self.shape.squares().min(letters.len());
        let mut board = [0u8; PADDED];
        board[..n].copy_from_slice(&letters[..n]);
        // The work is done outside `with`'s closure, which would not be compiled for AVX2.
        let last = LAST.with(RefCell::as_ptr);
        // SAFETY: `LAST` is this thread's own and nothing below reaches it another way (no
        // call here evaluates), so this is its only reference while it lives.
        let last = unsafe { &mut *last };
        let mut squares = [0u16; REFRESH];
        let mut changed = 0;
        if last.network == self.id {
            'scan: for (k, (now, before)) in board
                .chunks_exact(8)
                .zip(last.letters.chunks_exact(8))
                .enumerate()
            {
                // One word's differing bytes, lowest first.
                let word = |c: &[u8]| u64::from_le_bytes(c.try_into().unwrap_or([0; 8]));
                let mut differ = word(now) ^ word(before);
                while differ != 0 {
                    if changed == REFRESH {
                        changed += 1;
                        break 'scan;
                    }
                    let byte = differ.trailing_zeros() / 8;
                    differ &= !(0xff << (8 * byte));
                    squares[changed] = (8 * k) as u16 + byte as u16;
                    changed += 1;
                }
            }
        } else {
            changed = REFRESH + 1;
        }
        if changed > REFRESH {
            last.acc = self.sum(&board[..n]);
        } else {
            for &sq in &squares[..changed] {
                let sq = usize::from(sq);
                if let Some(row) = self.row(last.letters[sq], sq) {
                    sub(&mut last.acc, row);
                }
                if let Some(row) = self.row(board[sq], sq) {
                    add(&mut last.acc, row);
                }
            }
        }
        last.network = self.id;
        last.letters = board;
        self.output(&last.acc, side)
    }

    /// The rows of the piece with letter `letter` on `sq`, if it is an input.
    #[inline(always)]
    fn row(&self, letter: u8, sq: usize) -> Option<&Pair> {
        match self.code[usize::from(letter)] {
            0 => None,
            code => self
                .pieces
                .get((usize::from(code) - 1) * self.shape.squares() + sq),
        }
    }

    /// The hidden sums of a board, added piece by piece.
    #[inline(always)]
    fn sum(&self, letters: &[u8]) -> Pair {
        let mut acc: Pair = [0; 2 * HIDDEN];
        acc[..HIDDEN].copy_from_slice(&self.b0);
        acc[HIDDEN..].copy_from_slice(&self.b0);
        for (sq, &c) in letters.iter().enumerate() {
            if let Some(row) = self.row(c, sq) {
                add(&mut acc, row);
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
        let limit = i64::from(self.limit);
        (out * i64::from(SCALE) / i64::from(QA * QB)).clamp(-limit, limit) as i32
    }

    /// [`Self::evaluate`] summed afresh from the inputs as the trainer lists them (for
    /// tests: the rows by piece must agree with the inputs by view).
    pub fn evaluate_fresh(&self, letters: &[u8], side: Color, w0: &[[i16; HIDDEN]]) -> i32 {
        let mut acc: Pair = [0; 2 * HIDDEN];
        for (view, half) in [Color::White, Color::Black].into_iter().zip([0, HIDDEN]) {
            acc[half..half + HIDDEN].copy_from_slice(&self.b0);
            let mut inputs = Vec::new();
            self.shape.features(letters, view, &mut inputs);
            for f in inputs {
                for (a, w) in acc[half..half + HIDDEN].iter_mut().zip(&w0[usize::from(f)]) {
                    *a = a.wrapping_add(*w);
                }
            }
        }
        self.output(&acc, side)
    }
}

/// More differing squares than this and the hidden sums are summed afresh.
const REFRESH: usize = 16;

/// [`MAX_SQUARES`] rounded up to whole chunks of eight.
const PADDED: usize = MAX_SQUARES.div_ceil(8) * 8;

/// What a thread last evaluated: the network (its [`Network::id`]), the board's letters
/// and their hidden sums.
struct Last {
    network: u64,
    letters: [u8; PADDED],
    acc: Pair,
}

thread_local! {
    /// This thread's last evaluation, from which the next is found; no network has id 0.
    static LAST: RefCell<Last> = const {
        RefCell::new(Last { network: 0, letters: [0; PADDED], acc: [0; 2 * HIDDEN] })
    };
}

/// The next network's [`Network::id`].
static NEXT_ID: AtomicU64 = AtomicU64::new(1);

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

/// The shipped network of `variant`, read once, whether or not it is enabled; `None` if it
/// has none or its file does not read (a test guards against that).
pub fn shipped(variant: &str) -> Option<&'static Network> {
    static NETS: [OnceLock<Option<Network>>; 4] = [const { OnceLock::new() }; 4];
    let at = VARIANTS.iter().position(|v| *v == variant)?;
    NETS[at]
        .get_or_init(|| Network::from_bytes(VARIANTS[at], SHIPPED[at]).ok())
        .as_ref()
}

/// Whether `variant`'s network is on: [`SHIPPED_ON`], or what `MENAGERIE_NETS` says.
pub fn enabled(variant: &str) -> bool {
    static CHOICE: OnceLock<Option<String>> = OnceLock::new();
    match CHOICE.get_or_init(|| std::env::var("MENAGERIE_NETS").ok()) {
        None => SHIPPED_ON.contains(&variant),
        Some(list) => match list.trim() {
            "all" => true,
            "none" | "" => false,
            list => list.split(',').any(|v| v.trim() == variant),
        },
    }
}

/// The network the evaluation of `VARIANTS[at]` adds, if it is on and reads: the file
/// `<variant>.nnue` in the folder `MENAGERIE_NETS_DIR` when that variable is set (to try a
/// network without rebuilding; a file that does not read is reported once on stderr and
/// the evaluation is then the terms alone), else the shipped one.
#[inline(always)]
fn active(at: usize) -> Option<&'static Network> {
    static ON: [OnceLock<Option<&'static Network>>; 4] = [const { OnceLock::new() }; 4];
    *ON[at].get_or_init(|| {
        let v = VARIANTS[at];
        if !enabled(v) {
            return None;
        }
        let Some(dir) = std::env::var_os("MENAGERIE_NETS_DIR") else {
            return shipped(v);
        };
        let path = std::path::Path::new(&dir).join(format!("{v}.nnue"));
        let read = std::fs::read(&path)
            .map_err(|e| e.to_string())
            .and_then(|bytes| Network::from_bytes(v, &bytes));
        match read {
            Ok(net) => Some(&*Box::leak(Box::new(net))),
            Err(e) => {
                eprintln!(
                    "the network {} is not used: {e}; {v} is evaluated by its terms alone",
                    path.display()
                );
                None
            }
        }
    })
}

/// The largest correction Vyrt's network makes, either way (0 when it is off): beyond it
/// from a search's window, the terms alone decide.
#[inline]
pub fn vyrt_limit() -> i32 {
    active(0).map_or(0, Network::limit)
}

/// The largest correction Cypher's network makes, either way (0 when it is off).
#[inline]
pub fn cypher_limit() -> i32 {
    active(1).map_or(0, Network::limit)
}

/// Vyrt's correction (0 when its network is off).
#[inline]
pub fn vyrt(pos: &VyrtPosition) -> i32 {
    active(0).map_or(0, |net| net.evaluate(&pos.letters(), pos.turn()))
}

/// Cypher's correction (0 when its network is off): the men on the board only.
#[inline]
pub fn cypher(pos: &CypherPosition) -> i32 {
    active(1).map_or(0, |net| net.evaluate(&cypher_letters(pos), pos.turn()))
}

/// Little Cheops' correction, Common or Imperial (0 when the network is off): the board
/// letters only, which both players see.
#[inline]
pub fn cheops(pos: &CheopsPosition) -> i32 {
    let at = if pos.style() == Style::Imperial { 3 } else { 2 };
    active(at).map_or(0, |net| {
        let mut letters = [0u8; CHEOPS_SQUARES];
        pos.letters_into(&mut letters);
        net.evaluate(&letters, pos.turn())
    })
}

/// Cypher's board letters from its mailbox (square `rank * 10 + file`).
#[inline]
fn cypher_letters(pos: &CypherPosition) -> [u8; 110] {
    const LETTERS: [[u8; 7]; 2] = [*b"PNBRQKS", *b"pnbrqks"];
    let mut out = [0u8; 110];
    for (sq, o) in out.iter_mut().enumerate() {
        if let Some((color, kind)) = pos.man_at(sq) {
            *o = LETTERS[color.index()][kind as usize];
        }
    }
    out
}

/// The correction the evaluation of `game`'s current position adds now (0 when its
/// network is off or it has none): what the data generator subtracts to find the terms.
pub fn correction(game: &dyn AnyGame) -> i32 {
    let any = game.as_any();
    if let Some(g) = any.downcast_ref::<Game<VyrtPosition>>() {
        vyrt(g.position())
    } else if let Some(g) = any.downcast_ref::<Game<CypherPosition>>() {
        cypher(g.position())
    } else if let Some(g) = any.downcast_ref::<Game<CheopsPosition>>() {
        cheops(g.position())
    } else {
        0
    }
}

#[cfg(test)]
mod tests;
