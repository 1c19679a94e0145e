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

#[cfg(test)]
mod tests {
    use super::*;

    fn utf16(s: &str) -> Vec<u16> {
        s.encode_utf16().collect()
    }

    #[test]
    fn agrees_with_utf16_code_units() {
        let names = [
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
        ];
        for x in names {
            for y in names {
                assert_eq!(
                    cmp_utf16(x.as_bytes(), y.as_bytes()),
                    utf16(x).cmp(&utf16(y)),
                    "{x:?} vs {y:?}"
                );
            }
        }
    }
}
