//! The one seeded generator every randomized part of canonfuzz draws from — the core's tests,
//! the campaign generators and the benchmark documents — so that a seed means the same
//! sequence everywhere. xorshift64*: seedable, repeatable, and spread well enough for generated
//! test cases; not for anything secret.
#![forbid(unsafe_code)]

/// A xorshift64* generator.
#[derive(Debug, Clone)]
pub struct Rng(u64);

/// SplitMix64's finalizer: spreads a seed over every bit, and never maps to zero a value a
/// caller is likely to pass.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Rng {
    /// A generator started from `seed` as it is; a zero seed, which xorshift cannot leave, is
    /// replaced by a fixed nonzero one.
    pub fn new(seed: u64) -> Rng {
        Rng(if seed == 0 {
            0x9E37_79B9_7F4A_7C15
        } else {
            seed
        })
    }

    /// The generator for case `index` of a campaign with `seed`: the same pair gives the same
    /// case on every machine, shard and thread count.
    pub fn for_case(seed: u64, index: u64) -> Rng {
        Rng::new(mix(seed ^ mix(index.wrapping_add(0x9E37_79B9_7F4A_7C15))))
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..n` (`0` when `n` is 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n.max(1)
    }

    /// An index in `0..n` (`0` when `n` is 0).
    pub fn index(&mut self, n: usize) -> usize {
        self.below(n as u64) as usize
    }

    /// True with probability `percent`/100.
    pub fn chance(&mut self, percent: usize) -> bool {
        self.index(100) < percent
    }

    /// One element of a non-empty slice.
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.index(items.len())]
    }

    /// Puts `items` in a random order (Fisher-Yates).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.index(i + 1));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shuffle_is_a_permutation_that_moves_items() {
        let mut items: Vec<u32> = (0..50).collect();
        Rng::new(3).shuffle(&mut items);
        assert_ne!(items, (0..50).collect::<Vec<_>>());
        items.sort_unstable();
        assert_eq!(items, (0..50).collect::<Vec<_>>());
        let mut first = [0, 1, 2];
        Rng::new(3).shuffle(&mut first);
        let mut again = [0, 1, 2];
        Rng::new(3).shuffle(&mut again);
        assert_eq!(first, again);
    }

    #[test]
    fn cases_are_repeatable_and_distinct() {
        let first = |seed, index| Rng::for_case(seed, index).next_u64();
        assert_eq!(first(1, 7), first(1, 7));
        assert_ne!(first(1, 7), first(1, 8));
        assert_ne!(first(1, 7), first(2, 7));
        assert_ne!(Rng::new(0).next_u64(), 0);
    }
}
