//! Numbers where ECMAScript formatting and parsing are easy to get wrong.

use super::Rng;

/// Doubles next to the ECMAScript layout boundaries (1e21 switches to exponent notation,
/// 1e-7 too), the extremes, and values known to expose digit-generation bugs.
const BOUNDARIES: [f64; 14] = [
    1e21,
    999_999_999_999_999_900_000.0,
    1e-7,
    9.999_999_999_999_998e-8,
    1e-6,
    f64::MAX,
    f64::MIN_POSITIVE,
    5e-324,
    9_007_199_254_740_992.0,
    0.1,
    333_333_333.333_333_3,
    1e23,
    4.35,
    1_424_953_923_781_206.2,
];

fn random_double(rng: &mut Rng) -> f64 {
    let value = match rng.index(6) {
        0 | 1 => f64::from_bits(rng.next_u64()),
        2 => f64::from_bits(rng.next_u64() & 0x800F_FFFF_FFFF_FFFF),
        3 => {
            let base = rng.pick(&BOUNDARIES);
            let steps = rng.index(5) as i64 - 2;
            f64::from_bits((base.to_bits() as i64 + steps) as u64)
        }
        4 => (rng.next_u64() >> rng.index(40)) as f64 / 10f64.powi(rng.index(25) as i32),
        _ => rng.index(1_000_000) as f64 * 10f64.powi(rng.index(40) as i32 - 20),
    };
    if rng.chance(30) {
        -value
    } else {
        value
    }
}

/// `count` decimal digits, the first non-zero.
fn digits(rng: &mut Rng, count: usize) -> String {
    (0..count)
        .map(|i| {
            let low = u8::from(i == 0);
            char::from(b'0' + low + rng.index(usize::from(10 - low)) as u8)
        })
        .collect()
}

/// Negative zero in the forms JSON allows: its sign is lost in every double's text ECMAScript
/// writes (`0`).
const NEGATIVE_ZEROS: [&str; 8] = [
    "-0",
    "-0.0",
    "-0e0",
    "-0E+00",
    "-0.000e-5",
    "-0e-0",
    "-0.0E1",
    "-0e+99",
];

/// An integer written in full that is past the double range: 309 to 330 digits, the first
/// non-zero, sometimes negative. No double holds it, so it has no RFC 8785 form.
fn past_the_doubles(rng: &mut Rng) -> String {
    let count = 309 + rng.index(22);
    let mut s = digits(rng, count);
    if rng.chance(30) {
        s.insert(0, '-');
    }
    s
}

/// A number of ordinary size written with a run of half a million to a million zeros that
/// its exponent offsets: `0.000…01e1000002` is 100. A reader that caps the exponents it reads
/// (Rust's `str::parse::<f64>` stops adding digits past 65,536) misreads it.
fn offset_by_zeros(rng: &mut Rng) -> String {
    let run = (1 << 19) + rng.index(1 << 19);
    let digit = 1 + rng.index(9);
    let value = rng.index(21) as i64 - 10;
    if rng.chance(50) {
        format!("0.{}{digit}e{}", "0".repeat(run), run as i64 + 1 + value)
    } else {
        format!("{digit}{}e-{}", "0".repeat(run), run as i64 - value)
    }
}

/// One in this many numbers of the fixed forms is [`offset_by_zeros`] (one number in about
/// ten thousand): each is most of a megabyte.
const OFFSET_BY_ZEROS: usize = 800;

/// One number as JSON text, in one of many textual forms of the same kind of value.
pub fn number(rng: &mut Rng) -> String {
    // One draw picks the form and, within the fixed forms, the rare long one, so that every
    // other case draws as it always has.
    let draw = rng.index(12 * OFFSET_BY_ZEROS);
    if draw == 2 {
        return offset_by_zeros(rng);
    }
    match draw % 12 {
        10 => rng.pick(&NEGATIVE_ZEROS).to_string(),
        11 => past_the_doubles(rng),
        0 => {
            // Integers beyond 2^53 and beyond 2^64, written out exactly.
            let count = 16 + rng.index(10);
            let mut s = digits(rng, count);
            if rng.chance(30) {
                s.insert(0, '-');
            }
            s
        }
        1 => {
            // Seventeen or more digits ending in 5: rounding ties and near-ties.
            let count = 17 + rng.index(4);
            let mut s = digits(rng, count);
            let point = 1 + rng.index(count - 1);
            s.insert(point, '.');
            s.push('5');
            s
        }
        2 => rng
            .pick(&[
                "-0",
                "-0.0",
                "0e-0",
                "-0E+00",
                "0.000",
                "0e400",
                "-0.0e-5",
                "1e400",
                "-1e400",
                "1E+0021",
                "1e-0007",
                "100e-2",
                "0.00000010",
                "1.0",
                "1.50000",
            ])
            .to_string(),
        _ => {
            let v = random_double(rng);
            if !v.is_finite() {
                return "1e999".to_string();
            }
            let text = match rng.index(7) {
                0 => format!("{v}"),
                1 => format!("{v:e}"),
                2 => format!("{v:E}"),
                3 => format!("{:.*e}", rng.index(20), v),
                4 => format!("{v:.17e}").replace('e', "e+").replace("e+-", "e-"),
                5 => format!("{v:e}").replace('e', "e00").replace("e00-", "e-00"),
                _ => format!("{v:?}"),
            };
            text.replace("inf", "1e999").replace("NaN", "0")
        }
    }
}

/// A bare number, a one-member object, or an array of numbers.
pub fn document(rng: &mut Rng, out: &mut Vec<u8>) {
    match rng.index(3) {
        0 => out.extend_from_slice(number(rng).as_bytes()),
        1 => out.extend_from_slice(format!("{{\"n\":{}}}", number(rng)).as_bytes()),
        _ => {
            let items: Vec<String> = (0..1 + rng.index(6)).map(|_| number(rng)).collect();
            out.extend_from_slice(format!("[{}]", items.join(",")).as_bytes());
        }
    }
}
