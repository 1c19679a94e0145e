//! Member order: RFC 8785 §3.2.3 sorts names by their UTF-16 code units, computed here
//! directly on UTF-8 without converting.
//!
//! UTF-8 byte order equals code point order, and code point order equals UTF-16 order except
//! in one place: a supplementary character (UTF-16 surrogates, 0xD800-0xDFFF) sorts before
//! U+E000-U+FFFF. In UTF-8 those two ranges are the ones whose lead bytes are 0xF0-0xF4 and
//! 0xEE-0xEF, so only a first difference between such lead bytes needs its order reversed.

use std::cmp::Ordering;

use super::word::word_at;

/// Equal runs of names are passed over this many bytes at a time by the platform's
/// comparison, before the first difference is looked for a word at a time.
const BLOCK: usize = 64;

/// Compares two UTF-8 strings by their UTF-16 code units.
///
/// The first difference is looked for a block, then eight bytes, at a time: under a
/// fuzzer's tracing each byte compared in a loop is a call, and fuzzed names share long
/// prefixes, which an object of many such names compares again and again as it is sorted.
pub fn cmp_utf16(a: &[u8], b: &[u8]) -> Ordering {
    let common = a.len().min(b.len());
    let mut at = 0;
    while at + BLOCK <= common && a.get(at..at + BLOCK) == b.get(at..at + BLOCK) {
        at += BLOCK;
    }
    while at < common {
        let differ = word_at(a, at) ^ word_at(b, at);
        if differ != 0 {
            // Past the shorter string its word holds zeros, and a zero before a byte that
            // is not one orders it first, as its length would.
            let first = at + (differ.trailing_zeros() / 8) as usize;
            let byte = |s: &[u8]| s.get(first).copied().unwrap_or(0);
            let (x, y) = (byte(a), byte(b));
            let astral = |lead: u8| lead >= 0xF0;
            return if x >= 0xEE && y >= 0xEE && astral(x) != astral(y) {
                y.cmp(&x)
            } else {
                x.cmp(&y)
            };
        }
        at += 8;
    }
    a.len().cmp(&b.len())
}

/// A sort key for the UTF-8 name `text[start..end]`: its first eight bytes, big-endian and
/// zero-padded, with the lead bytes of supplementary characters (0xF0-0xF4) moved below those
/// of U+E000-U+FFFF (0xEE-0xEF) unless the name is `ascii`. Keys that differ order their names
/// as [`cmp_utf16`] does; equal keys leave the order to [`cmp_utf16`].
///
/// The name is read as one word from the text it lies in, past its end where the text goes
/// on, and the bytes after it masked off: names are short, and a loop over their bytes costs
/// a mispredicted exit per name.
pub(crate) fn sort_key(text: &[u8], start: usize, end: usize, ascii: bool) -> u64 {
    const LOW_SEVEN: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    const ONES: u64 = 0x0101_0101_0101_0101;
    let len = end.saturating_sub(start);
    let word = word_at(text, start).swap_bytes();
    let word = if len >= 8 {
        word
    } else {
        word & !(u64::MAX >> (8 * len))
    };
    if ascii {
        return word;
    }
    // Per byte, bit 7 of `at_least(t)` is set when the byte is t or above (t >= 0x80); no
    // carry crosses a byte. Valid UTF-8 has no byte above 0xF4, so no sum below overflows.
    let high = word & !LOW_SEVEN;
    let at_least = |t: u8| ((word & LOW_SEVEN) + ONES * u64::from(0x80 - (t & 0x7F))) & high;
    let astral = at_least(0xF0) >> 7;
    let bmp_high = (at_least(0xEE) >> 7) & !astral;
    word + bmp_high * 5 - astral * 2
}

#[cfg(test)]
mod tests {
    use super::*;

    fn utf16(s: &str) -> Vec<u16> {
        s.encode_utf16().collect()
    }

    const NAMES: [&str; 33] = [
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
        "abcdefgh\u{0}",
        "abcdefghijklmnop",
        "abcdefghijklmnopq",
        "abcdefghijklmnop\u{ff61}",
        "abcdefghijklmnop😀",
        "abcdefghijk\u{e000}",
        "abcdefghijk😀",
        "😀😀😀😀\u{e000}",
        "😀😀😀😀😀",
        "😀😀😀😀",
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
    fn long_names_agree_with_utf16_code_units_wherever_they_first_differ() {
        // Every pair of names above after a common prefix of each length around the block
        // boundaries, so that the first difference falls at every place within and after
        // the blocks passed over whole.
        for len in (0..=3 * BLOCK + 9).filter(|n| n % BLOCK < 10 || n % BLOCK > BLOCK - 10) {
            let prefix = "é[".repeat(len / 3) + &"[".repeat(len % 3);
            for x in NAMES {
                for y in NAMES {
                    let (x, y) = (format!("{prefix}{x}"), format!("{prefix}{y}"));
                    assert_eq!(
                        cmp_utf16(x.as_bytes(), y.as_bytes()),
                        utf16(&x).cmp(&utf16(&y)),
                        "{x:?} vs {y:?}"
                    );
                }
            }
        }
    }

    /// The name as [`sort_key`] finds it: alone, at the end of a text, and inside one
    /// followed by bytes that would change the key were they not masked off.
    fn placements(name: &str) -> [(Vec<u8>, usize); 3] {
        let alone = name.as_bytes().to_vec();
        let at_end = [b"{\"".as_slice(), name.as_bytes()].concat();
        let inside = [
            b"\"".as_slice(),
            name.as_bytes(),
            &[0xF4, 0xEF, 0xFF, 0x00, 0x80, 0xC3, 0x22, 0x7F],
        ]
        .concat();
        [(alone, 0), (at_end, 2), (inside, 1)]
    }

    #[test]
    fn keys_order_names_by_utf16_code_units_where_their_first_eight_bytes_differ() {
        let prefix = |s: &str| {
            let mut padded = [0u8; 8];
            for (slot, &b) in padded.iter_mut().zip(s.as_bytes()) {
                *slot = b;
            }
            padded
        };
        for x in NAMES {
            for y in NAMES {
                for ((tx, sx), (ty, sy)) in placements(x).into_iter().zip(placements(y)) {
                    let kx = sort_key(&tx, sx, sx + x.len(), x.is_ascii());
                    let ky = sort_key(&ty, sy, sy + y.len(), y.is_ascii());
                    assert_eq!(kx == ky, prefix(x) == prefix(y), "{x:?} vs {y:?}");
                    if kx != ky {
                        assert_eq!(kx.cmp(&ky), utf16(x).cmp(&utf16(y)), "{x:?} vs {y:?}");
                    }
                }
            }
        }
    }
}
