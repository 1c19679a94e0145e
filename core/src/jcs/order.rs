//! Member order: RFC 8785 §3.2.3 sorts names by their UTF-16 code units, computed here
//! directly on UTF-8 without converting.
//!
//! UTF-8 byte order equals code point order, and code point order equals UTF-16 order except
//! in one place: a supplementary character (UTF-16 surrogates, 0xD800-0xDFFF) sorts before
//! U+E000-U+FFFF. In UTF-8 those two ranges are the ones whose lead bytes are 0xF0-0xF4 and
//! 0xEE-0xEF, so only a first difference between such lead bytes needs its order reversed.

use std::cmp::Ordering;

/// Compares two UTF-8 strings by their UTF-16 code units.
pub fn cmp_utf16(a: &[u8], b: &[u8]) -> Ordering {
    let Some((&x, &y)) = a.iter().zip(b).find(|(x, y)| x != y) else {
        return a.len().cmp(&b.len());
    };
    let astral = |lead: u8| lead >= 0xF0;
    if x >= 0xEE && y >= 0xEE && astral(x) != astral(y) {
        y.cmp(&x)
    } else {
        x.cmp(&y)
    }
}

/// A sort key for a UTF-8 name: its first eight bytes, big-endian and zero-padded, with the
/// lead bytes of supplementary characters (0xF0-0xF4) moved below those of U+E000-U+FFFF
/// (0xEE-0xEF) unless the name is `ascii`. Keys that differ order their names as [`cmp_utf16`] does; equal keys leave
/// the order to [`cmp_utf16`].
pub(crate) fn sort_key(name: &[u8], ascii: bool) -> u64 {
    let lead_order = |b: u8| match b {
        0xEE | 0xEF if !ascii => b + 5,
        0xF0..=0xF4 if !ascii => b - 2,
        _ => b,
    };
    if let (true, Some(&prefix)) = (ascii, name.first_chunk::<8>()) {
        return u64::from_be_bytes(prefix);
    }
    // Shifted together in a register: a word assembled in memory byte by byte and then read
    // whole would stall on store forwarding.
    name.iter().take(8).enumerate().fold(0, |key, (i, &b)| {
        key | u64::from(lead_order(b)) << (56 - 8 * i)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn utf16(s: &str) -> Vec<u16> {
        s.encode_utf16().collect()
    }

    const NAMES: [&str; 23] = [
        "",
        "a",
        "aa",
        "b",
        "\u{7f}",
        "\u{80}",
        "é",
        "\u{d7ff}",
        "\u{e000}",
        "\u{ff61}",
        "\u{fffd}",
        "\u{ffff}",
        "\u{10000}",
        "😀",
        "\u{10ffff}",
        "a\u{ff61}",
        "a😀",
        "abcdefgh",
        "abcdefghi",
        "abcdefg\u{ff61}",
        "abcdefg😀",
        "abcdefg\u{e000}",
        "a\u{0}",
    ];

    #[test]
    fn agrees_with_utf16_code_units() {
        for x in NAMES {
            for y in NAMES {
                assert_eq!(
                    cmp_utf16(x.as_bytes(), y.as_bytes()),
                    utf16(x).cmp(&utf16(y)),
                    "{x:?} vs {y:?}"
                );
            }
        }
    }

    #[test]
    fn keys_that_differ_order_names_by_utf16_code_units() {
        for x in NAMES {
            for y in NAMES {
                let key = |s: &str| sort_key(s.as_bytes(), s.is_ascii());
                let by_key = key(x).cmp(&key(y));
                if by_key != Ordering::Equal {
                    assert_eq!(by_key, utf16(x).cmp(&utf16(y)), "{x:?} vs {y:?}");
                }
            }
        }
    }
}
