//! The digits ECMAScript writes for a double (ECMA-262 Number::toString, step 5 and its
//! note): as few as round-trip, and of those the decimal closest to the double, an even last
//! digit on a tie. Found without text by Giulietti's method ("The Schubfach way to render
//! doubles", 2020): the double's rounding interval is scaled by one 128-bit power of ten, and
//! the two or four decimals that could be the answer are tested against its ends.

use super::powers_of_five::{POWERS_OF_TEN_ABOVE, SMALLEST_TEN};

/// Bits of a double's significand below its implicit leading one.
const SIGNIFICAND_BITS: u32 = 52;

/// Subtracted from a biased exponent to give the power of two an integer significand is
/// scaled by.
const EXPONENT_OFFSET: i32 = 1075;

/// The shortest decimal s × 10^k that rounds to `value` — finite and greater than zero —
/// as (s, k), s without trailing zeros; `None` for any other value.
pub(crate) fn shortest(value: f64) -> Option<(u64, i32)> {
    if !(value.is_finite() && value > 0.0) {
        return None;
    }
    let bits = value.to_bits();
    let fraction = bits & ((1 << SIGNIFICAND_BITS) - 1);
    let biased = (bits >> SIGNIFICAND_BITS) as i32;
    // value = c × 2^q.
    let (c, q) = if biased == 0 {
        (fraction, 1 - EXPONENT_OFFSET)
    } else {
        (fraction | 1 << SIGNIFICAND_BITS, biased - EXPONENT_OFFSET)
    };
    // An integer below 2^53 is the only decimal in its interval with so few digits.
    if (-(SIGNIFICAND_BITS as i32)..=0).contains(&q) {
        let whole = c >> -q;
        if whole << -q == c {
            return Some(trimmed(whole, 0));
        }
    }
    // The interval of reals that round to the value, in units of 2^(q-2): its ends are half
    // an ulp away, except below a power of two, where the ulp beneath is half as large.
    let closer_below = fraction == 0 && biased > 1;
    let centre = c << 2;
    let below = centre - 2 + u64::from(closer_below);
    let above = centre + 2;
    // 10^k is the largest power of ten no greater than 2^q (3/4 × 2^q when closer below),
    // so that the interval, scaled by 10^-k, holds at most one multiple of ten.
    let k = (q * 1_262_611 - if closer_below { 524_031 } else { 0 }) >> 22;
    let shift = q + floor_log2_pow10(-k);
    let power = POWERS_OF_TEN_ABOVE
        .get(usize::try_from(-k - SMALLEST_TEN).ok()?)
        .copied()?;
    let scale = |x: u64| round_to_odd(power, x << shift);
    let (lower, mid, upper) = (scale(below), scale(centre), scale(above));
    // An interval end is a candidate only when the significand is even (round half to even).
    let odd = c & 1;
    let (lower, upper) = (lower + odd, upper - odd);
    // In units of 10^k, times four: s and s + 1 bracket the value.
    let s = mid >> 2;
    if s >= 10 {
        // One digit fewer: the multiples of ten around s, when exactly one is inside.
        let tens = s / 10;
        let down_inside = lower <= 40 * tens;
        let up_inside = 40 * tens + 40 <= upper;
        if down_inside != up_inside {
            return Some(trimmed(tens + u64::from(up_inside), k + 1));
        }
    }
    let down_inside = lower <= 4 * s;
    let up_inside = 4 * s + 4 <= upper;
    if down_inside != up_inside {
        return Some(trimmed(s + u64::from(up_inside), k));
    }
    // Both inside: the nearer, or the even one on a tie.
    let halfway = 4 * s + 2;
    let up = mid > halfway || (mid == halfway && s & 1 == 1);
    Some(trimmed(s + u64::from(up), k))
}

/// floor(log2(10^e)) for |e| <= 1233: 1741647 / 2^19 approximates log2(10).
fn floor_log2_pow10(e: i32) -> i32 {
    (e * 1_741_647) >> 19
}

/// `x` × `power` / 2^127, rounded to odd: the quotient's last bit is set when any bit
/// below it is, which keeps comparisons with exact multiples of four truthful.
fn round_to_odd((high, low): (u64, u64), x: u64) -> u64 {
    let carry = (u128::from(x) * u128::from(low)) >> 64;
    let product = u128::from(x) * u128::from(high) + carry;
    (product >> 63) as u64 | u64::from(product as u64 != 0)
}

/// `s` × 10^`k` with the trailing zeros of `s` moved into `k`.
fn trimmed(mut s: u64, mut k: i32) -> (u64, i32) {
    while s != 0 && s.is_multiple_of(10) {
        s /= 10;
        k += 1;
    }
    (s, k)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::Rng;

    /// (s, k) read back from ECMAScript text written by ryu-js, an independent implementation
    /// of Number::toString.
    fn ecmascript_digits(value: f64) -> (u64, i32) {
        let mut buffer = ryu_js::Buffer::new();
        let text = buffer.format_finite(value);
        let (mantissa, exponent) = text.split_once('e').unwrap_or((text, "0"));
        let exponent: i32 = exponent.parse().unwrap_or(0);
        let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
        let digits = format!("{int}{frac}");
        let significant = digits.trim_end_matches('0');
        let zeros = (digits.len() - significant.len()) as i32;
        let s = significant.parse().unwrap_or(0);
        (s, exponent - frac.len() as i32 + zeros)
    }

    fn check(value: f64) {
        assert_eq!(
            shortest(value),
            Some(ecmascript_digits(value)),
            "{value:e} ({:#x})",
            value.to_bits()
        );
    }

    #[test]
    fn random_doubles_match_ecmascript() {
        let mut rng = Rng::new(0x9E37_79B9_7F4A_7C15);
        for _ in 0..400_000 {
            let value = f64::from_bits(rng.next() & 0x7FFF_FFFF_FFFF_FFFF);
            if value.is_finite() && value > 0.0 {
                check(value);
            }
        }
    }

    #[test]
    fn interval_edges_match_ecmascript() {
        // Powers of two (the lower end closer), their neighbours, both ends of every
        // exponent, the subnormals' smallest significands and the largest doubles.
        for biased in 0..0x7FFu64 {
            for fraction in [0, 1, 2, 3, (1 << 52) - 1, (1 << 52) - 2, 1 << 51] {
                let value = f64::from_bits(biased << 52 | fraction);
                if value > 0.0 {
                    check(value);
                }
            }
        }
        for fraction in 1..5_000 {
            check(f64::from_bits(fraction));
        }
        for value in [
            f64::MAX,
            f64::MIN_POSITIVE,
            5e-324,
            1e23,
            9007199254740993.0,
            0.3,
        ] {
            check(value);
        }
    }

    #[test]
    fn decimals_of_every_length_match_ecmascript() {
        // Doubles nearest short decimals, where the shorter candidates matter.
        let mut rng = Rng::new(0x2545_F491_4F6C_DD1D);
        for _ in 0..200_000 {
            let digits = 1 + rng.below(17);
            let s = rng.below(10u64.pow(digits as u32));
            let k = rng.below(700) as i32 - 350;
            let value: f64 = format!("{s}e{k}").parse().unwrap_or(0.0);
            if value.is_finite() && value > 0.0 {
                check(value);
            }
        }
    }

    #[test]
    fn other_values_have_no_digits() {
        for value in [0.0, -0.0, -1.0, f64::INFINITY, f64::NAN] {
            assert_eq!(shortest(value), None, "{value}");
        }
    }
}
