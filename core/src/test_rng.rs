//! The deterministic generator the core's randomized tests draw their cases from.

/// xorshift64*: seedable, repeatable, and spread well enough for generated test cases.
pub(crate) struct Rng(u64);

impl Rng {
    /// A generator started from `seed`, which must not be zero.
    pub(crate) fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub(crate) fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..n`, `n` nonzero.
    pub(crate) fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    /// An index in `0..n`, `n` nonzero.
    pub(crate) fn index(&mut self, n: usize) -> usize {
        self.below(n as u64) as usize
    }
}
