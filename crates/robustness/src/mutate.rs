//! A small deterministic mutator for the stable replays: byte flips, insertions, deletions,
//! duplications, splices and tokens the parsers care about, from a seeded generator.

/// A xorshift generator: deterministic from its seed, good enough to mutate inputs.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from `seed` (any value).
    pub fn new(seed: u64) -> Self {
        Rng(seed ^ 0x9E37_79B9_7F4A_7C15 | 1)
    }
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// A number below `n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next_u64() % n as u64) as usize
        }
    }
}

/// Tokens worth inserting: separators, numbers at the edges, letters of the games.
const TOKENS: &[&str] = &[
    " ",
    "/",
    "-",
    "\n",
    "0",
    "1",
    "9",
    "10",
    "12",
    "13",
    "99",
    "4294967295",
    "4294967296",
    "18446744073709551615",
    "-1",
    "w",
    "b",
    "KQkq",
    "+",
    ",",
    ":",
    "@",
    "*",
    "(",
    ")",
    "=",
    "x",
    "#",
    "K",
    "k",
    "Q",
    "P",
    "p",
    "C",
    "c",
    "S",
    "s",
    "T",
    "M",
    "I",
    "Ii",
    "0+0",
    "0/0",
    "d4:w@d4",
    "appoint",
    "inspects",
    "abdicates",
    "\"",
    "[",
    "]",
    "\u{e9}",
    "\u{ff}",
    "e2e4",
    "O-O",
    "O-O-O",
    "mK",
    "BN",
    "R",
    "cpR",
    "royal",
    "[Variant \"",
    "[FEN \"",
    "1-0",
    "*",
];

/// One mutation of `input`, possibly spliced with `other`.
pub fn mutate(rng: &mut Rng, input: &[u8], other: &[u8]) -> Vec<u8> {
    let mut out = input.to_vec();
    let rounds = 1 + rng.below(4);
    for _ in 0..rounds {
        let len = out.len();
        match rng.below(8) {
            0 if len > 0 => {
                let i = rng.below(len);
                out[i] ^= 1 << rng.below(8);
            }
            1 => {
                let i = rng.below(len + 1);
                out.insert(i, rng.below(256) as u8);
            }
            2 if len > 0 => {
                let i = rng.below(len);
                let n = 1 + rng.below((len - i).min(8));
                out.drain(i..i + n);
            }
            3 if len > 0 => {
                let i = rng.below(len);
                let n = 1 + rng.below((len - i).min(16));
                let piece: Vec<u8> = out[i..i + n].to_vec();
                let at = rng.below(len + 1);
                out.splice(at..at, piece);
            }
            4 if !other.is_empty() => {
                let cut = rng.below(len + 1);
                let from = rng.below(other.len());
                out.truncate(cut);
                out.extend_from_slice(&other[from..]);
            }
            5 if len > 0 => {
                let i = rng.below(len);
                out[i] = b"0123456789/ -KQRBNPkqrbnp"[rng.below(25)];
            }
            _ => {
                let t = TOKENS[rng.below(TOKENS.len())].as_bytes();
                let at = rng.below(len + 1);
                if rng.below(2) == 0 || at == len {
                    out.splice(at..at, t.iter().copied());
                } else {
                    let end = (at + t.len()).min(len);
                    out.splice(at..end, t.iter().copied());
                }
            }
        }
    }
    out.truncate(4096);
    out
}

/// The seed of this run: `MENAGERIE_FUZZ_SEED` when set, else the clock.
pub fn run_seed() -> u64 {
    if let Some(s) = std::env::var("MENAGERIE_FUZZ_SEED")
        .ok()
        .and_then(|s| s.trim().parse().ok())
    {
        return s;
    }
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(1, |d| d.as_nanos() as u64)
}
