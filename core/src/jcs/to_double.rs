//! The double nearest a decimal w × 10^q, from its digits as an integer, without text: the
//! multiplication by a 128-bit power of five of Lemire's algorithm ("Number Parsing at a
//! Gigabyte per Second", Software: Practice and Experience, 2021). The rare product too close
//! to a rounding boundary for 128 bits to decide is left to the caller's exact parse.

use std::ops::RangeInclusive;

use super::powers_of_five::{LARGEST_POWER, POWERS_OF_FIVE, SMALLEST_POWER};

/// Bits of a double's significand below its implicit leading one.
pub(super) const SIGNIFICAND_BITS: u32 = 52;

/// The biased binary exponent of the infinities.
const INFINITE_EXPONENT: i32 = 0x7FF;

/// Subtracted from a binary exponent to bias it.
const EXPONENT_BIAS: i32 = -1023;

/// Decimal exponents for which w × 10^q can fall exactly halfway between two doubles (5^q
/// must divide into, or fit in, 64 bits); only there are ties broken to even.
const TIES_POSSIBLE: RangeInclusive<i64> = -4..=23;

/// The smallest integer of sixteen digits.
const SIXTEEN_DIGITS: u64 = 1_000_000_000_000_000;

/// Decimal exponents for which a product of all ones in its low word is still exact.
const EXACT_PRODUCTS: RangeInclusive<i64> = -27..=55;

/// The double nearest `w` × 10^`q` (ties to even): zero below the subnormals, infinity past
/// the largest double; `None` when the 128-bit product cannot settle the rounding.
pub(crate) fn nearest_double(w: u64, q: i64) -> Option<f64> {
    if w == 0 || q < SMALLEST_POWER {
        return Some(0.0);
    }
    if q > LARGEST_POWER {
        return Some(f64::INFINITY);
    }
    let leading_zeros = w.leading_zeros();
    let w = w << leading_zeros;
    let (low, high) = product(q, w);
    if low == u64::MAX && !EXACT_PRODUCTS.contains(&q) {
        return None;
    }
    // The product's top bit is bit 127 or 126; keep the significand's bits, one to round
    // with and one spare.
    let upper = (high >> 63) as u32;
    let shift = upper + 64 - SIGNIFICAND_BITS - 3;
    let mut significand = high >> shift;
    let mut exponent = biased_exponent(q, upper, leading_zeros);
    if exponent <= 0 {
        // A subnormal, or zero.
        let drop = 1 - exponent;
        if drop >= 64 {
            return Some(0.0);
        }
        significand >>= drop;
        significand += significand & 1;
        significand >>= 1;
        let exponent = i32::from(significand >= 1 << SIGNIFICAND_BITS);
        return Some(assemble(significand, exponent));
    }
    // Exactly halfway, with an even significand below: round down.
    if low <= 1
        && TIES_POSSIBLE.contains(&q)
        && significand & 3 == 1
        && significand << shift == high
    {
        significand &= !1;
    }
    significand += significand & 1;
    significand >>= 1;
    if significand >= 2 << SIGNIFICAND_BITS {
        significand = 1 << SIGNIFICAND_BITS;
        exponent += 1;
    }
    significand &= !(1 << SIGNIFICAND_BITS);
    if exponent >= INFINITE_EXPONENT {
        return Some(f64::INFINITY);
    }
    Some(assemble(significand, exponent))
}

/// Whether `w` × 10^`q` is certainly the shortest decimal that rounds to its own nearest
/// double and the closest of that length — the digits ECMAScript writes for that double —
/// decided from the full 128-bit product alone, without the double. `false` means either
/// that it is not or that this test cannot tell; [`super::shortest::shortest`] settles those.
///
/// With the decimal X, the double v, its ulp and u = 10^q in ulps, X is the answer exactly
/// when it is nearer v than its neighbours X ± u and when the multiples of 10u around X —
/// every decimal with fewer digits is one of them or beyond them — fall outside the rounding
/// interval v ± ulp/2. Each comparison is made with a margin far above the product's error;
/// ties, powers of two (whose interval is lopsided), subnormals and carries are left to the
/// exact path.
pub(crate) fn is_certainly_shortest(w: u64, q: i64) -> bool {
    /// Offsets and units are counted in 2^-55 ulps: with 16 or more digits u < 9.01 ulps,
    /// so that 10u fits an `i64`.
    const FRACTION_BITS: u32 = 55;
    const HALF: i64 = 1 << (FRACTION_BITS - 1);
    /// Comparisons closer than 2^-32 ulp are not trusted.
    const MARGIN: i64 = 1 << (FRACTION_BITS - 32);
    if !(SIXTEEN_DIGITS..).contains(&w) || !(SMALLEST_POWER..=LARGEST_POWER).contains(&q) {
        return false;
    }
    let leading_zeros = w.leading_zeros();
    let (high5, low5) = power_of_five(q);
    let normalized = u128::from(w << leading_zeros);
    // The top 128 bits of the 192-bit product, exactly.
    let h = normalized * u128::from(high5) + ((normalized * u128::from(low5)) >> 64);
    let upper = (h >> 127) as u32;
    let exponent = biased_exponent(q, upper, leading_zeros);
    // Shifted to start at bit 127, the product has the double's ulp at bit `ULP_BIT`; below
    // it lies X's offset from the double beneath, as a fraction of an ulp.
    const ULP_BIT: u32 = 128 - SIGNIFICAND_BITS - 1;
    let h = h << (1 - upper);
    let truncated = (h >> ULP_BIT) as u64;
    // Below a power of two the interval is narrower than v ± ulp/2 and above one (a carry,
    // which can also reach infinity) wider; the test below assumes v ± ulp/2, which is only
    // stricter in the first case.
    if exponent <= 0 || exponent >= INFINITE_EXPONENT || truncated == (2 << SIGNIFICAND_BITS) - 1 {
        return false;
    }
    let fraction = (h >> (ULP_BIT - FRACTION_BITS)) as i64 & ((1 << FRACTION_BITS) - 1);
    // X - v: the fraction, less one ulp when v is the double above.
    let offset = if fraction >= HALF {
        fraction - (1 << FRACTION_BITS)
    } else {
        fraction
    };
    // u in the same units: the power of five scaled as the product was, less the
    // normalizing shift of w (at most 14 bits with sixteen digits).
    let unit = (high5 >> (ULP_BIT - 1 + upper - FRACTION_BITS - leading_zeros)) as i64;
    let last_digit = (w % 10) as i64;
    // At or near a tie v may be the wrong one of the two doubles, but these comparisons can
    // then only hold when u > 1 ulp, and they then hold for both.
    let distance = offset.abs() + MARGIN;
    2 * distance < unit
        && offset - last_digit * unit < -HALF - MARGIN
        && offset + (10 - last_digit) * unit > HALF + MARGIN
}

/// 5^`q` normalized to 128 bits as (high, low) words, `q` within the table.
fn power_of_five(q: i64) -> (u64, u64) {
    let index = usize::try_from(q - SMALLEST_POWER).unwrap_or(0);
    POWERS_OF_FIVE.get(index).copied().unwrap_or_default()
}

/// The biased exponent of w × 10^q's double before any carry from rounding, given the
/// product's top bit (`upper`: 1 for bit 127, 0 for bit 126) and w's normalizing shift:
/// floor(log2(10^q)) + 63 in fixed point (217706 / 2^16 approximates log2(10)), adjusted.
fn biased_exponent(q: i64, upper: u32, leading_zeros: u32) -> i32 {
    let q = q as i32;
    (q.wrapping_mul(152_170 + 65_536) >> 16) + 63 + upper as i32
        - leading_zeros as i32
        - EXPONENT_BIAS
}

/// The top 128 bits of `w` × 5^`q` (`w` normalized), as (low, high) words: one 64-bit
/// product when its high word has bits enough to round by, two otherwise.
fn product(q: i64, w: u64) -> (u64, u64) {
    const ROUNDING_BITS: u64 = u64::MAX >> (SIGNIFICAND_BITS + 3);
    let (high5, low5) = power_of_five(q);
    let first = u128::from(w) * u128::from(high5);
    let (mut low, mut high) = (first as u64, (first >> 64) as u64);
    if high & ROUNDING_BITS == ROUNDING_BITS {
        let second_high = ((u128::from(w) * u128::from(low5)) >> 64) as u64;
        low = low.wrapping_add(second_high);
        if second_high > low {
            high = high.wrapping_add(1);
        }
    }
    (low, high)
}

/// The double with this significand (implicit one removed) and biased exponent; a
/// subnormal's significand may carry into the smallest normal's exponent bit.
fn assemble(significand: u64, exponent: i32) -> f64 {
    f64::from_bits(significand | (u64::from(exponent.unsigned_abs()) << SIGNIFICAND_BITS))
}

#[cfg(test)]
mod tests {
    use super::*;
    use canonfuzz_rng::Rng;

    /// The standard library's correctly rounded parse of the same decimal: the oracle.
    fn std_parse(w: u64, q: i64) -> f64 {
        format!("{w}e{q}").parse().unwrap()
    }

    fn check(w: u64, q: i64, undecided: &mut usize) {
        match nearest_double(w, q) {
            Some(value) => assert_eq!(
                value.to_bits(),
                std_parse(w, q).to_bits(),
                "{w}e{q}: {value:e} against {:e}",
                std_parse(w, q)
            ),
            None => *undecided += 1,
        }
    }

    /// Exact unsigned integers as little-endian 32-bit limbs, for checking the table.
    #[derive(Clone, PartialEq, Eq, Debug)]
    struct Big(Vec<u32>);

    impl Big {
        fn from_u128(value: u128) -> Big {
            Big((0..4).map(|i| (value >> (32 * i)) as u32).collect()).trimmed()
        }

        fn power(base: u32, exponent: u32) -> Big {
            (0..exponent).fold(Big(vec![1]), |acc, _| acc.times(&Big(vec![base])))
        }

        fn two_to(exponent: usize) -> Big {
            let mut limbs = vec![0; exponent / 32 + 1];
            limbs[exponent / 32] = 1 << (exponent % 32);
            Big(limbs)
        }

        fn trimmed(mut self) -> Big {
            while self.0.len() > 1 && self.0.last() == Some(&0) {
                self.0.pop();
            }
            self
        }

        fn bits(&self) -> usize {
            let top = *self.0.last().unwrap();
            32 * (self.0.len() - 1) + (32 - top.leading_zeros() as usize)
        }

        fn times(&self, other: &Big) -> Big {
            let mut limbs = vec![0u64; self.0.len() + other.0.len() + 1];
            for (i, &a) in self.0.iter().enumerate() {
                let mut carry = 0u64;
                for (j, &b) in other.0.iter().enumerate() {
                    let t = limbs[i + j] + u64::from(a) * u64::from(b) + carry;
                    limbs[i + j] = t & 0xFFFF_FFFF;
                    carry = t >> 32;
                }
                limbs[i + other.0.len()] += carry;
            }
            Big(limbs.into_iter().map(|l| l as u32).collect()).trimmed()
        }

        fn shifted_right(&self, bits: usize) -> Big {
            let value = |i: usize| self.0.get(i).copied().unwrap_or(0) as u64;
            let (words, rest) = (bits / 32, bits % 32);
            let limbs = (words..self.0.len())
                .map(|i| ((value(i) | value(i + 1) << 32) >> rest) as u32)
                .collect::<Vec<_>>();
            Big(if limbs.is_empty() { vec![0] } else { limbs }).trimmed()
        }

        fn shifted_left(&self, bits: usize) -> Big {
            self.times(&Big::two_to(bits))
        }

        fn plus(&self, other: &Big) -> Big {
            let mut limbs = Vec::new();
            let mut carry = 0u64;
            for i in 0..self.0.len().max(other.0.len()) {
                let limb = |big: &Big| u64::from(big.0.get(i).copied().unwrap_or(0));
                let t = limb(self) + limb(other) + carry;
                limbs.push(t as u32);
                carry = t >> 32;
            }
            limbs.push(carry as u32);
            Big(limbs).trimmed()
        }

        fn minus_one(&self) -> Big {
            let mut limbs = self.0.clone();
            for limb in &mut limbs {
                let (value, borrow) = limb.overflowing_sub(1);
                *limb = value;
                if !borrow {
                    break;
                }
            }
            Big(limbs).trimmed()
        }

        fn cmp(&self, other: &Big) -> std::cmp::Ordering {
            self.0
                .len()
                .cmp(&other.0.len())
                .then_with(|| self.0.iter().rev().cmp(other.0.iter().rev()))
        }
    }

    #[test]
    fn the_table_holds_the_defined_powers_of_five() {
        // Checked by exact integer arithmetic against the definitions in
        // scripts/powers-of-five: q >= 0, the top 128 bits of 5^q; -27 <= q < 0, the
        // entry e with (e - 1) × 5^-q <= 2^b < e × 5^-q; below, e = (floor(2^B / 5^-q) + 1)
        // cut to 128 bits.
        use std::cmp::Ordering::{Greater, Less};
        for q in SMALLEST_POWER..=LARGEST_POWER {
            let (high, low) = POWERS_OF_FIVE[(q - SMALLEST_POWER) as usize];
            let entry = Big::from_u128(u128::from(high) << 64 | u128::from(low));
            let power = Big::power(5, q.unsigned_abs() as u32);
            let bits = power.bits();
            if q >= 0 {
                let expected = if bits > 128 {
                    power.shifted_right(bits - 128)
                } else {
                    power.shifted_left(128 - bits)
                };
                assert_eq!(entry, expected, "5^{q}");
            } else if q >= -27 {
                let target = Big::two_to(bits + 127);
                assert_ne!(
                    entry.minus_one().times(&power).cmp(&target),
                    Greater,
                    "5^{q}"
                );
                assert_eq!(entry.times(&power).cmp(&target), Greater, "5^{q}");
            } else {
                // floor(2^B / 5^-q) + 1 has bits + 129 bits, so bits + 1 are cut off:
                // e × 2^cut <= floor(2^B / 5^-q) + 1 < (e + 1) × 2^cut.
                let target = Big::two_to(2 * bits + 128);
                let cut = bits + 1;
                let low_end = entry.shifted_left(cut).minus_one().times(&power);
                let high_end = entry
                    .plus(&Big(vec![1]))
                    .shifted_left(cut)
                    .minus_one()
                    .times(&power);
                assert_ne!(low_end.cmp(&target), Greater, "5^{q}");
                assert_eq!(high_end.cmp(&target), Greater, "5^{q}");
            }
            assert_ne!(entry.cmp(&Big::two_to(127)), Less, "5^{q}");
        }
    }

    #[test]
    fn the_shortest_digits_table_holds_the_defined_powers_of_ten() {
        // Checked by exact integer arithmetic against the definition in
        // scripts/powers-of-five: the entry is floor(beta) + 1, beta = 10^e × 2^r in
        // [2^127, 2^128).
        use crate::jcs::powers_of_five::{POWERS_OF_TEN_ABOVE, SMALLEST_TEN};
        use std::cmp::Ordering::Greater;
        for (e, &(high, low)) in (SMALLEST_TEN..).zip(POWERS_OF_TEN_ABOVE.iter()) {
            let entry = Big::from_u128(u128::from(high) << 64 | u128::from(low));
            let power = Big::power(10, e.unsigned_abs());
            let bits = power.bits();
            let floor = entry.minus_one();
            if e >= 0 && bits <= 128 {
                assert_eq!(floor, power.shifted_left(128 - bits), "10^{e}");
            } else if e >= 0 {
                // beta = 10^e / 2^(bits - 128): floor × 2^cut <= 10^e < entry × 2^cut.
                let cut = bits - 128;
                assert_ne!(floor.shifted_left(cut).cmp(&power), Greater, "10^{e}");
                assert_eq!(entry.shifted_left(cut).cmp(&power), Greater, "10^{e}");
            } else {
                // beta = 2^(bits + 127) / 10^-e: floor × 10^-e <= 2^(bits + 127) < entry × 10^-e.
                let target = Big::two_to(bits + 127);
                assert_ne!(floor.times(&power).cmp(&target), Greater, "10^{e}");
                assert_eq!(entry.times(&power).cmp(&target), Greater, "10^{e}");
            }
        }
        assert_eq!(POWERS_OF_TEN_ABOVE.len(), 617);
    }

    #[test]
    fn boundaries_and_ties_match_the_standard_parse() {
        let mut undecided = 0;
        let cases: &[(u64, i64)] = &[
            // Halfway between 0 and the smallest subnormal, and just above.
            (24_703_282_292_062_327, -340),
            (24_703_282_292_062_328, -340),
            (4_940_656_458_412_465, -339),
            (2_225_073_858_507_201, -323),
            (22_250_738_585_072_011, -324),
            (22_250_738_585_072_012, -324),
            // The largest double, halfway past it, and beyond.
            (17_976_931_348_623_157, 292),
            (17_976_931_348_623_158, 292),
            (17_976_931_348_623_159, 292),
            // Ties to even around 2^53 and in the middle of the range.
            (9_007_199_254_740_993, 0),
            (9_007_199_254_740_995, 0),
            (18_014_398_509_481_987, 0),
            (18_014_398_509_481_985, 0),
            (9_007_199_254_740_993, 1),
            (1, 308),
            (1, 309),
            (1, -342),
            (1, -343),
            (u64::MAX, 0),
            (u64::MAX, -360),
            (u64::MAX, 290),
        ];
        for &(w, q) in cases {
            check(w, q, &mut undecided);
        }
        assert_eq!(undecided, 0);
    }

    #[test]
    fn random_decimals_match_the_standard_parse() {
        // Any digit count up to 19 and every decimal exponent the table spans and more; a
        // third of them integers in [2^53, 2^64) near small exponents, where ties happen.
        let mut rng = Rng::new(0x853C_49E6_748F_EA9B);
        let mut undecided = 0;
        let total = 400_000;
        for i in 0..total {
            let (w, q) = if i % 3 == 0 {
                let w = (1 << 53) + rng.next_u64() % ((1 << 63) - (1 << 53));
                (w << (rng.next_u64() % 2), (rng.next_u64() % 30) as i64 - 6)
            } else {
                let digits = 1 + rng.next_u64() % 19;
                let w = rng.next_u64() % 10u64.pow(digits as u32);
                (w.max(1), (rng.next_u64() % 720) as i64 - 370)
            };
            check(w, q, &mut undecided);
        }
        assert!(undecided < total / 1000, "{undecided} left undecided");
    }
}
