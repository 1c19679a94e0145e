//! The digits ECMAScript writes for a double (ECMA-262 Number::toString, step 5 and its
//! note): as few as round-trip, and of those the decimal closest to the double, an even last
//! digit on a tie. Found without text by Giulietti's method ("The Schubfach way to render
//! doubles", 2020): the double's rounding interval is scaled by one 128-bit power of ten, and
//! the two or four decimals that could be the answer are tested against its ends.

use super::powers_of_five::{POWERS_OF_TEN_ABOVE, SMALLEST_TEN};
use super::to_double::SIGNIFICAND_BITS;

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
    use crate::jcs::to_double::is_certainly_shortest;
    use canonfuzz_rng::Rng;

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
            let value = f64::from_bits(rng.next_u64() & 0x7FFF_FFFF_FFFF_FFFF);
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

    /// Whether w × 10^q is, by the independent oracles, the ECMAScript digits of the double
    /// nearest it: that double from the standard library's correctly rounded parse, its digits
    /// from ryu-js.
    fn oracle_says_shortest(w: u64, q: i64) -> bool {
        let value: f64 = format!("{w}e{q}").parse().unwrap_or(0.0);
        value.is_finite()
            && value > 0.0
            && !w.is_multiple_of(10)
            && ecmascript_digits(value) == (w, q as i32)
    }

    /// Asks the fast test about w × 10^q: a yes must agree with the oracles. Returns the
    /// fast test's answer.
    fn check_certain(w: u64, q: i64) -> bool {
        let certain = is_certainly_shortest(w, q);
        if certain {
            assert!(oracle_says_shortest(w, q), "{w}e{q} taken as shortest");
        }
        certain
    }

    #[test]
    fn certain_shortest_agrees_with_the_oracles() {
        let mut rng = Rng::new(0x5DEE_CE66_D1CE_4E5B);
        let mut shortest_cases = 0;
        let mut taken = 0;
        for _ in 0..300_000 {
            let value = f64::from_bits(rng.next_u64() & 0x7FEF_FFFF_FFFF_FFFF);
            if value <= f64::MIN_POSITIVE {
                continue;
            }
            let (s, k) = ecmascript_digits(value);
            let k = i64::from(k);
            // The digits themselves, and near misses in the last place or two.
            if s >= 1_000_000_000_000_000 {
                shortest_cases += 1;
                taken += usize::from(check_certain(s, k));
            }
            for delta in [1, 2, 5, 9, 10, 11] {
                check_certain(s + delta, k);
                check_certain(s.saturating_sub(delta).max(1), k);
            }
            // The same value with a digit more or less.
            check_certain(s * 10 + rng.below(10), k - 1);
            check_certain(s / 10, k + 1);
        }
        // The margin leaves almost every shortest form to this test, not to the exact path.
        assert!(
            taken * 1000 >= shortest_cases * 995,
            "{taken} of {shortest_cases} shortest forms decided"
        );
    }

    #[test]
    fn certain_shortest_holds_at_the_edges() {
        let mut rng = Rng::new(0x1405_7B7E_F767_814F);
        // Near powers of two and of ten, at the subnormal and the overflow ends, and decimals
        // of 16 to 19 random digits at every exponent.
        for biased in 1..0x7FFu64 {
            for fraction in [0, 1, 2, (1 << 52) - 1, (1 << 52) - 2] {
                let value = f64::from_bits(biased << 52 | fraction);
                let (s, k) = ecmascript_digits(value);
                for candidate in [s, s + 1, s - 1, s * 10 + 1, s * 10 + 9] {
                    check_certain(candidate, i64::from(k) - i64::from(candidate > s * 5));
                }
            }
        }
        for q in -345..=310 {
            for digits in 16..=19u32 {
                let low = 10u64.pow(digits - 1);
                let w = low + rng.below(low * 9);
                check_certain(w, q);
                check_certain(low + 1, q);
                check_certain(low * 9 + low - 1, q);
            }
        }
        for fraction in 1..3_000 {
            let (s, k) = ecmascript_digits(f64::from_bits(fraction << 40));
            check_certain(s, i64::from(k));
        }
        // Past the largest double, where rounding up reaches infinity.
        for w in 17_976_931_348_623_157..17_976_931_348_623_170 {
            check_certain(w, 292);
        }
    }

    #[test]
    fn certain_shortest_refuses_exact_ties() {
        // Decimals exactly halfway between two doubles, (2c + 1) × 2^(e-1), whose odd factor
        // is made a multiple of a power of five so that they have few enough digits.
        let mut rng = Rng::new(0x6A09_E667_F3BC_C908);
        for _ in 0..200_000 {
            let five = 5u128.pow(rng.below(24) as u32);
            let c = (1u128 << 52) + u128::from(rng.below(1 << 52));
            let odd = (2 * c + 1) / five * five;
            let odd = if odd.is_multiple_of(2) {
                odd + five
            } else {
                odd
            };
            let e = 1 + rng.below(70) as u32;
            let Some(mut x) = odd.checked_shl(e - 1).filter(|x| x >> (e - 1) == odd) else {
                continue;
            };
            let mut q = 0;
            while x.is_multiple_of(10) {
                x /= 10;
                q += 1;
            }
            if let Ok(w) = u64::try_from(x) {
                check_certain(w, q);
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
