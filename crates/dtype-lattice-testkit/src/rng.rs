//! A small deterministic random generator (SplitMix64), so tests,
//! benchmarks and the scale example draw the same inputs on every run.

/// SplitMix64, seeded with any value.
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits. (A method, not an `Iterator`: the stream
    /// never ends, and tests want a `u64`, not an `Option`.)
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number below `n` (slightly biased for huge `n`, which is fine
    /// for drawing inputs).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}
