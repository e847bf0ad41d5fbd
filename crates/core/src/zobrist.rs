//! Deterministic pseudo-random keys for Zobrist hashing.

/// SplitMix64: a fast, well-mixed generator, so every build makes the same keys.
#[derive(Clone, Debug)]
pub struct KeyGen(u64);

impl KeyGen {
    /// A generator seeded with `seed`; use one seed per game so keys differ between games.
    pub const fn new(seed: u64) -> Self {
        KeyGen(seed)
    }
    /// The next key.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// `n` fresh keys.
    pub fn keys(&mut self, n: usize) -> Vec<u64> {
        (0..n).map(|_| self.next()).collect()
    }
}
