//! Escapes: decoding a JSON string's `\` escapes, and the form JCS gives each character inside
//! a string (RFC 8785 §3.2.2.2).
//!
//! A decoded character and each of its written forms travel as one word, and every choice
//! between kinds — two-character or `\u` escape, ASCII or not, how many UTF-8 bytes — is made
//! by selection. In escape-dense text the next kind is as good as random, so branches on it
//! would mispredict about once an escape; only escaped surrogate pairs and errors branch.

use super::error::{describe_byte, BrokenRule, ErrorKind, Fault};

/// Up to six bytes of a string, lowest first, with their count in the top byte: written as
/// one eight-byte copy cut back to the count.
#[derive(Clone, Copy)]
pub(crate) struct Packed(u64);

impl Packed {
    /// Appends the bytes to `out`.
    #[inline(always)]
    pub(crate) fn push(self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.0.to_le_bytes());
        out.truncate(out.len() - (8 - (self.0 >> 56) as usize));
    }
}

/// The JCS form of an ASCII character inside a string: `\"`, `\\`, the five two-character
/// control escapes, other controls as lowercase `\u00xx`, everything else as it is.
const fn ascii_form(b: u8) -> Packed {
    let second = match b {
        b'"' | b'\\' => b,
        0x08 => b'b',
        0x09 => b't',
        0x0A => b'n',
        0x0C => b'f',
        0x0D => b'r',
        _ => 0,
    };
    match b {
        _ if second != 0 => Packed(b'\\' as u64 | (second as u64) << 8 | 2 << 56),
        0x00..=0x1F => Packed(
            u32::from_le_bytes(*b"\\u00") as u64
                | (hex_digit(b >> 4) as u64) << 32
                | (hex_digit(b & 0x0F) as u64) << 40
                | 6 << 56,
        ),
        _ => Packed(b as u64 | 1 << 56),
    }
}

/// The lowercase hex digit for `nibble`.
const fn hex_digit(nibble: u8) -> u8 {
    if nibble < 10 {
        b'0' + nibble
    } else {
        b'a' + nibble - 10
    }
}

/// What the escape `\` + `e` stands for when it is one of the two-character escapes, or 0.
const fn simple_escape(e: u8) -> u8 {
    match e {
        b'"' | b'\\' | b'/' => e,
        b'b' => 0x08,
        b'f' => 0x0C,
        b'n' => b'\n',
        b'r' => b'\r',
        b't' => b'\t',
        _ => 0,
    }
}

/// [`ascii_form`] of every ASCII character.
const ASCII_FORMS: [Packed; 128] = byte_table!(ascii_form, 128, Packed(0));

/// [`simple_escape`] of every byte, looked up rather than matched: a match on these eight
/// compiles to a jump among them.
const SIMPLE_ESCAPES: [u8; 256] = byte_table!(simple_escape, 256, 0);

/// Appends `b`, an ASCII character, in its JCS form inside a string.
pub(crate) fn push_ascii(b: u8, out: &mut Vec<u8>) {
    ascii_packed(u32::from(b)).push(out);
}

fn ascii_packed(c: u32) -> Packed {
    ASCII_FORMS
        .get((c & 0x7F) as usize)
        .copied()
        .unwrap_or(Packed(0))
}

/// The character `c` as JCS writes it inside a string, and as UTF-8.
#[inline(always)]
pub(crate) fn forms(c: u32) -> (Packed, Packed) {
    let c64 = u64::from(c);
    let len = 1 + u64::from(c >= 0x80) + u64::from(c >= 0x800) + u64::from(c >= 0x1_0000);
    // The four-byte encoding's bytes; the shorter encodings are its last bytes with the
    // lead byte's marker bits put right.
    let four = 0x8080_80F0
        | c64 >> 18
        | (c64 >> 4 & 0x3F00)
        | (c64 << 10 & 0x3F_0000)
        | (c64 << 24 & 0x3F00_0000);
    let multi = len.max(2);
    let lead = 0x6040 >> (8 * (multi - 2)) & 0xFF;
    let multi_byte = Packed(four >> (32 - 8 * multi) | lead | len << 56);
    if c < 0x80 {
        (ascii_packed(c), Packed(c64 | 1 << 56))
    } else {
        (multi_byte, multi_byte)
    }
}

/// Decodes the escape whose backslash is at `at`: returns the character and the offset after
/// the escape (after both halves of an escaped surrogate pair). A lone surrogate breaks a
/// rule, noted in `broken`, and decodes to U+FFFD.
#[inline(always)]
pub(crate) fn decode(
    input: &[u8],
    at: usize,
    broken: &mut BrokenRule,
) -> Result<(u32, usize), Fault> {
    let e = input.get(at + 1).copied().unwrap_or(0);
    let simple = SIMPLE_ESCAPES.get(usize::from(e)).copied().unwrap_or(0);
    let (unit, hex_ok) = hex4(input, at + 2);
    let unicode = e == b'u';
    if unicode && unit & 0xF800 == 0xD800 && hex_ok {
        return Ok(decode_surrogates(input, at, unit, broken));
    }
    let valid = if unicode { hex_ok } else { simple != 0 };
    if !valid {
        return Err(invalid_escape(input, at));
    }
    let c = if unicode { unit } else { u32::from(simple) };
    let len = if unicode { 6 } else { 2 };
    Ok((c, at + len))
}

/// Decodes the `\u` escape at `at` whose code unit, `unit`, is a surrogate: with the low
/// surrogate escaped after it, the pair's character.
#[inline(always)]
fn decode_surrogates(input: &[u8], at: usize, unit: u32, broken: &mut BrokenRule) -> (u32, usize) {
    let (low, low_ok) = hex4(input, at + 8);
    let paired = unit < 0xDC00
        && input.get(at + 6..at + 8) == Some(b"\\u")
        && low_ok
        && low & 0xFC00 == 0xDC00;
    if paired {
        return (0x1_0000 + ((unit - 0xD800) << 10) + (low - 0xDC00), at + 12);
    }
    broken.note(|| lone_surrogate(at, unit));
    (u32::from(char::REPLACEMENT_CHARACTER), at + 6)
}

/// The error for the escaped surrogate `unit` at `at`, which has no partner.
#[cold]
fn lone_surrogate(at: usize, unit: u32) -> Fault {
    let message = if unit >= 0xDC00 {
        format!(
            "the escaped low surrogate \\u{unit:04x} has no high surrogate before it; strings \
             must be valid Unicode: escape the whole pair or write the character itself"
        )
    } else {
        format!(
            "the escaped high surrogate \\u{unit:04x} is not followed by an escaped low \
             surrogate (\\udc00-\\udfff); strings must be valid Unicode: escape the whole pair \
             or write the character itself"
        )
    };
    Fault::new(ErrorKind::LoneSurrogate, at, message)
}

/// Reads the four hex digits at `start` as a code unit; the flag says whether they are four
/// hex digits (if not, the unit is meaningless).
#[inline(always)]
fn hex4(input: &[u8], start: usize) -> (u32, bool) {
    let Some(word) = input
        .get(start..start + 4)
        .and_then(|b| <[u8; 4]>::try_from(b).ok())
    else {
        return (0, false);
    };
    let word = u32::from_le_bytes(word);
    // For bytes below 0x80, x + (0x80 - lo) reaches the top bit when x >= lo and
    // x + (0x7F - hi) when x > hi, with no carry between bytes.
    let within = |x: u32, lo: u32, hi: u32| {
        x.wrapping_add(0x0101_0101 * (0x80 - lo)) & !x.wrapping_add(0x0101_0101 * (0x7F - hi))
    };
    let digit = within(word, u32::from(b'0'), u32::from(b'9'));
    let letter = within(word | 0x2020_2020, u32::from(b'a'), u32::from(b'f'));
    let valid = (digit | letter) & !word & 0x8080_8080 == 0x8080_8080;
    let nibbles = (word & 0x0F0F_0F0F) + (letter >> 7 & 0x0101_0101) * 9;
    let pairs = (nibbles & 0x000F_000F) << 4 | (nibbles >> 8 & 0x000F_000F);
    ((pairs & 0xFF) << 8 | pairs >> 16, valid)
}

/// The error for the escape at `at`, which is neither a two-character escape nor `\u` and
/// four hex digits.
#[cold]
fn invalid_escape(input: &[u8], at: usize) -> Fault {
    if input.get(at + 1) == Some(&b'u') {
        let digits = input.get(at + 2..).unwrap_or_default();
        let bad = at
            + 2
            + digits
                .iter()
                .take(4)
                .take_while(|b| b.is_ascii_hexdigit())
                .count();
        return Fault::syntax(
            bad,
            format!(
                "expected four hex digits after \\u, found {}",
                describe_byte(input, bad)
            ),
        );
    }
    Fault::syntax(
        at,
        format!(
            "invalid escape: '\\' followed by {}; JSON allows only \\\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX",
            describe_byte(input, at + 1)
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use canonfuzz_rng::Rng;

    fn bytes(packed: Packed) -> Vec<u8> {
        let mut out = Vec::new();
        packed.push(&mut out);
        out
    }

    #[test]
    fn forms_agree_with_serde_json_and_std_for_every_character() {
        // serde_json escapes strings exactly as RFC 8785 §3.2.2.2 asks (the short escapes,
        // other C0 controls as lowercase \u00xx, the rest raw): an independent oracle.
        for c in (0..=0x10_FFFF).filter_map(char::from_u32) {
            let (form, utf8) = forms(u32::from(c));
            let serialized = serde_json::to_string(&c.to_string()).unwrap_or_default();
            let expected = serialized
                .strip_prefix('"')
                .and_then(|s| s.strip_suffix('"'))
                .unwrap_or_default()
                .as_bytes();
            assert_eq!(bytes(form), expected, "{c:?}");
            assert_eq!(bytes(utf8), c.to_string().as_bytes(), "{c:?}");
        }
    }

    #[test]
    fn hex4_agrees_with_reading_digit_by_digit() {
        // Bytes next to the hex ranges, and ones that fold onto them under the case bit.
        let interesting = [
            b'0', b'9', b'a', b'f', b'A', b'F', b'/', b':', b'@', b'G', b'`', b'g', 0x10, 0x19,
            0x01, 0x06, 0x7F, 0x80, 0xB0, 0xC1, 0xE6, 0xFF,
        ];
        let mut rng = Rng::new(0x2545_F491_4F6C_DD1D);
        for _ in 0..200_000 {
            let word = [(); 4].map(|()| interesting[rng.index(interesting.len())]);
            let expected = word.iter().all(u8::is_ascii_hexdigit).then(|| {
                word.iter()
                    .filter_map(|&b| char::from(b).to_digit(16))
                    .fold(0, |unit, digit| unit << 4 | digit)
            });
            let (unit, valid) = hex4(&word, 0);
            assert_eq!(valid.then_some(unit), expected, "{word:02x?}");
        }
        assert_eq!(hex4(b"00e", 0), (0, false));
    }

    /// Decodes `text`, a run of escapes, the way `decode` does, or `None` where it is
    /// rejected or breaks a rule.
    fn decoded(text: &str) -> Option<String> {
        let mut pos = 0;
        let mut out = String::new();
        let mut broken = BrokenRule::default();
        while pos < text.len() {
            let (c, next) = decode(text.as_bytes(), pos, &mut broken).ok()?;
            out.push(char::from_u32(c)?);
            pos = next;
        }
        (!broken.is_broken()).then_some(out)
    }

    #[test]
    fn decoding_agrees_with_serde_json() {
        // serde_json decodes escapes by RFC 8259 and refuses lone surrogates.
        let expected = |text: &str| serde_json::from_str::<String>(&format!("\"{text}\"")).ok();
        let mut escapes: Vec<String> = (0..=u8::MAX)
            .map(|b| format!("\\{}", char::from(b)))
            .collect();
        for unit in 0..=0xFFFFu32 {
            escapes.push(format!("\\u{unit:04x}"));
            escapes.push(format!("\\u{unit:04X}"));
        }
        for high in (0xD7F0..=0xDC10u32).step_by(3) {
            for low in [0x0041, 0xD800, 0xDBFF, 0xDC00, 0xDE00, 0xDFFF, 0xE000] {
                escapes.push(format!("\\u{high:04x}\\u{low:04x}"));
            }
            escapes.push(format!("\\u{high:04x}\\n"));
        }
        escapes.extend(["\\u12", "\\u00g0", "\\", "\\uD83D\\uDE0"].map(String::from));
        for text in &escapes {
            assert_eq!(decoded(text), expected(text), "{text}");
        }
    }

    #[test]
    fn lone_surrogates_break_a_rule_and_become_replacement_characters() {
        for text in ["\\ud800", "\\udc00", "\\ud800\\u0041"] {
            let mut broken = BrokenRule::default();
            assert_eq!(
                decode(text.as_bytes(), 0, &mut broken).ok(),
                Some((u32::from(char::REPLACEMENT_CHARACTER), 6)),
                "{text}"
            );
            let rule = broken.into_result().unwrap_err();
            assert_eq!(rule.kind(), ErrorKind::LoneSurrogate, "{text}");
        }
    }
}
