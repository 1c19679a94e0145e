//! Strings: strict UTF-8 and escape decoding on the way in, the RFC 8785 §3.2.2.2 escaping on
//! the way out. Runs of characters that need no escaping are copied as they are.

use super::error::{describe_byte, BrokenRule, ErrorKind, Fault};
use super::escape::{self, push_ascii};
use super::word::word_at;

/// Whether a byte ends a run of characters that are copied unchanged: the quote, the backslash
/// and the C0 controls are the only characters JCS writes escaped.
#[inline]
fn ends_run(b: u8) -> bool {
    b == b'"' || b == b'\\' || b < 0x20
}

/// Appends `text` as a JSON string literal serialized the RFC 8785 way (quotes included).
pub fn write_string(text: &str, out: &mut Vec<u8>) {
    let bytes = text.as_bytes();
    out.push(b'"');
    let mut run = 0;
    for (i, &b) in bytes.iter().enumerate() {
        if ends_run(b) {
            out.extend_from_slice(bytes.get(run..i).unwrap_or_default());
            push_ascii(b, out);
            run = i + 1;
        }
    }
    out.extend_from_slice(bytes.get(run..).unwrap_or_default());
    out.push(b'"');
}

pub(crate) fn invalid_utf8(input: &[u8], offset: usize) -> Fault {
    Fault::new(
        ErrorKind::InvalidUtf8,
        offset,
        format!(
            "{} does not start a valid UTF-8 sequence (stray, truncated and overlong \
             sequences and encoded surrogates are all invalid); JSON text must be UTF-8: \
             re-encode the document",
            describe_byte(input, offset)
        ),
    )
}

/// What a byte allows when it leads a UTF-8 sequence (RFC 3629), packed in one word: the
/// sequence's length (0 when the byte cannot lead one) in the low byte; the lowest second
/// byte and the width of the second byte's range in the next two (any byte after an ASCII
/// character, which stands alone); and in the high half, the mask of the bytes after the
/// second that must be continuation bytes, as they lie in a little-endian word.
const fn lead_rule(b: u8) -> u64 {
    let (len, lo, hi): (u64, u64, u64) = match b {
        0x00..=0x7F => (1, 0x00, 0xFF),
        0xC2..=0xDF => (2, 0x80, 0xBF),
        0xE0 => (3, 0xA0, 0xBF),
        0xE1..=0xEC | 0xEE..=0xEF => (3, 0x80, 0xBF),
        0xED => (3, 0x80, 0x9F),
        0xF0 => (4, 0x90, 0xBF),
        0xF1..=0xF3 => (4, 0x80, 0xBF),
        0xF4 => (4, 0x80, 0x8F),
        _ => (0, 0, 0),
    };
    let tail = match len {
        3 => 0x00FF_0000,
        4 => 0xFFFF_0000,
        _ => 0,
    };
    len | lo << 8 | (hi - lo) << 16 | tail << 32
}

/// [`lead_rule`] of every byte.
const LEAD_RULES: [u64; 256] = byte_table!(lead_rule, 256, 0);

/// Checks that `input[start..end]` is UTF-8 (RFC 3629: no overlong forms, no surrogates,
/// nothing above U+10FFFF); otherwise returns where the first invalid sequence starts. Each
/// step takes either the ASCII bytes at the front of the next eight or one whole sequence,
/// and chooses by arithmetic, not by a branch on the kind of character: in text that mixes
/// scripts the next kind is as good as random. Most runs of string characters are short,
/// and on those this beats the set-up of a general validator; runs longer than
/// [`LONG_RUN`] go to the standard library's, which passes ASCII two words a step.
#[inline(always)]
fn check_utf8(input: &[u8], start: usize, end: usize) -> Result<(), usize> {
    const CONTINUATION_BITS: u64 = 0xC0C0_C0C0_C0C0_C0C0;
    if end.saturating_sub(start) > LONG_RUN {
        return check_long_run(input, start, end);
    }
    let mut i = start;
    while i < end {
        let word = word_at(input, i);
        // An ASCII prefix reaching past the run's end ends the walk, every byte of the run
        // before it being ASCII; a sequence must end within the run.
        let ascii = ((word & HIGHS).trailing_zeros() / 8) as usize;
        let rule = LEAD_RULES.get((word & 0xFF) as usize).copied().unwrap_or(0);
        let len = (rule & 0xFF) as usize;
        let second = word >> 8 & 0xFF;
        let valid = (len != 0)
            & (len <= end - i)
            & (second.wrapping_sub(rule >> 8 & 0xFF) <= rule >> 16 & 0xFF)
            & ((word ^ HIGHS) & CONTINUATION_BITS & rule >> 32 == 0);
        if !valid {
            return Err(i);
        }
        i += ascii.max(len);
    }
    Ok(())
}

/// [`check_utf8`] of a run longer than [`LONG_RUN`], kept out of line so that the short
/// runs' check stays inlined in the parser's loop.
#[cold]
#[inline(never)]
fn check_long_run(input: &[u8], start: usize, end: usize) -> Result<(), usize> {
    let run = input.get(start..end).unwrap_or_default();
    std::str::from_utf8(run)
        .map(drop)
        .map_err(|e| start + e.valid_up_to())
}

/// Runs of string characters longer than this many bytes are checked by the standard
/// library's UTF-8 validator.
const LONG_RUN: usize = 64;

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// Copies the run of bytes starting at `pos` that JCS writes unchanged to `out`, eight bytes
/// at a time; returns the offset of the first quote, backslash or control byte (or the end of
/// the input) and whether the run may hold non-ASCII bytes.
#[inline(always)]
fn copy_run(input: &[u8], mut pos: usize, out: &mut Vec<u8>) -> (usize, bool) {
    let mut high = 0u64;
    while let Some(chunk) = input.get(pos..pos + 8) {
        let Ok(bytes) = <[u8; 8]>::try_from(chunk) else {
            break;
        };
        let word = u64::from_le_bytes(bytes);
        // In each mask the lowest flagged byte is exact; borrows can only flag bytes above it.
        let zero_byte = |v: u64| v.wrapping_sub(ONES) & !v & HIGHS;
        let quote = zero_byte(word ^ (ONES * u64::from(b'"')));
        let backslash = zero_byte(word ^ (ONES * u64::from(b'\\')));
        let control = word.wrapping_sub(ONES * 0x20) & !word & HIGHS;
        let stop = quote | backslash | control;
        out.extend_from_slice(&bytes);
        if stop != 0 {
            let len = (stop.trailing_zeros() / 8) as usize;
            out.truncate(out.len() - (8 - len));
            let before_stop = (stop & stop.wrapping_neg()) - 1;
            return (pos + len, (high | (word & before_stop)) & HIGHS != 0);
        }
        high |= word;
        pos += 8;
    }
    let mut non_ascii = high & HIGHS != 0;
    while let Some(&b) = input.get(pos) {
        if ends_run(b) {
            break;
        }
        non_ascii |= b >= 0x80;
        out.push(b);
        pos += 1;
    }
    (pos, non_ascii)
}

/// Where a parsed string ended and whether it held escapes.
pub(crate) struct ParsedString {
    /// Offset just past the closing quote.
    pub(crate) end: usize,
    /// True when the string contained escapes, so its decoded form differs from its raw bytes.
    pub(crate) escaped: bool,
    /// True when the decoded string is all ASCII, so byte order is UTF-16 order.
    pub(crate) ascii: bool,
}

/// Parses the string whose opening quote is at `open`, appending its canonical form to `out`.
///
/// When `decoded` is given and the string holds escapes, its decoded bytes are appended there
/// (member names are compared decoded); without escapes the raw bytes already are the decoded
/// form and nothing is appended. A lone surrogate breaks a rule, noted in `broken`, and
/// decodes to U+FFFD.
#[inline(always)]
fn parse_string(
    input: &[u8],
    open: usize,
    out: &mut Vec<u8>,
    mut decoded: Option<&mut Vec<u8>>,
    broken: &mut BrokenRule,
) -> Result<ParsedString, Fault> {
    out.push(b'"');
    let content = open + 1;
    let mut pos = content;
    let mut escaped = false;
    let mut ascii = true;
    loop {
        let run_start = pos;
        let (run_end, non_ascii) = copy_run(input, pos, out);
        pos = run_end;
        if non_ascii {
            ascii = false;
            check_utf8(input, run_start, pos).map_err(|at| invalid_utf8(input, at))?;
        }
        let run = input.get(run_start..pos).unwrap_or_default();
        if escaped {
            if let Some(name) = decoded.as_deref_mut() {
                name.extend_from_slice(run);
            }
        }
        match input.get(pos) {
            Some(b'"') => {
                out.push(b'"');
                return Ok(ParsedString {
                    end: pos + 1,
                    escaped,
                    ascii,
                });
            }
            Some(b'\\') => {
                if !escaped {
                    escaped = true;
                    if let Some(name) = decoded.as_deref_mut() {
                        name.extend_from_slice(input.get(content..pos).unwrap_or_default());
                    }
                }
                let (c, next) = escape::decode(input, pos, broken)?;
                let (form, utf8) = escape::forms(c);
                form.push(out);
                if let Some(name) = decoded.as_deref_mut() {
                    utf8.push(name);
                }
                ascii &= c < 0x80;
                pos = next;
            }
            Some(&b) => {
                return Err(Fault::syntax(
                    pos,
                    format!(
                        "raw control character U+{b:04X} inside a string; \
                         control characters must be escaped, e.g. as \\u{b:04x}"
                    ),
                ))
            }
            None => {
                return Err(Fault::syntax(
                    open,
                    "unterminated string: no closing '\"' before the end of the input",
                ))
            }
        }
    }
}

/// Parses a string value at `open`; see [`parse_string`]. Returns the offset just past the
/// closing quote, all a value needs, which comes back in a register.
pub(crate) fn parse_value(
    input: &[u8],
    open: usize,
    out: &mut Vec<u8>,
    broken: &mut BrokenRule,
) -> Result<usize, Fault> {
    parse_string(input, open, out, None, broken).map(|parsed| parsed.end)
}

/// Parses a member name at `open`, its decoded form appended to `names` if it has escapes;
/// see [`parse_string`]. Inlined into its one caller: names are short and frequent, and a
/// result passed back through memory would stall on store forwarding.
#[inline(always)]
pub(crate) fn parse_name(
    input: &[u8],
    open: usize,
    out: &mut Vec<u8>,
    names: &mut Vec<u8>,
    broken: &mut BrokenRule,
) -> Result<ParsedString, Fault> {
    parse_string(input, open, out, Some(names), broken)
}

#[cfg(test)]
mod tests {
    use super::*;
    use canonfuzz_rng::Rng;

    fn escaped(text: &str) -> String {
        let mut out = Vec::new();
        write_string(text, &mut out);
        String::from_utf8_lossy(&out).into_owned()
    }

    #[test]
    fn escapes_follow_rfc_8785() {
        // RFC 8785 §3.2.2.2: the short escapes, lowercase \u00xx for other C0 controls,
        // and every other character (DEL, '/', U+2028, non-ASCII) as is.
        assert_eq!(escaped("a\"b\\c"), r#""a\"b\\c""#);
        assert_eq!(escaped("\u{8}\t\n\u{c}\r"), r#""\b\t\n\f\r""#);
        assert_eq!(escaped("\u{0}\u{1f}"), r#""\u0000\u001f""#);
        assert_eq!(escaped("\u{7f}/\u{2028}é"), "\"\u{7f}/\u{2028}é\"");
    }

    #[test]
    fn utf8_check_agrees_with_the_standard_library() {
        // Bytes drawn mostly from the lead and continuation ranges where the rules live.
        let interesting = [
            0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0,
            0xE1, 0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xFF,
        ];
        let mut rng = Rng::new(0x9E37_79B9_7F4A_7C15);
        let draw = |rng: &mut Rng, len: usize| -> Vec<u8> {
            (0..len)
                .map(|_| interesting[rng.index(interesting.len())])
                .collect()
        };
        // The bytes alone and inside a longer text: what lies before and after them, read
        // in the same words, must not change the answer.
        let agrees = |rng: &mut Rng, bytes: &[u8]| {
            let expected = std::str::from_utf8(bytes)
                .map(|_| ())
                .map_err(|e| e.valid_up_to());
            assert_eq!(check_utf8(bytes, 0, bytes.len()), expected, "{bytes:02x?}");
            let (before_len, after_len) = (rng.index(5), rng.index(9));
            let (before, after) = (draw(rng, before_len), draw(rng, after_len));
            let text = [before.as_slice(), bytes, &after].concat();
            let at = before.len();
            assert_eq!(
                check_utf8(&text, at, at + bytes.len()),
                expected.map_err(|e| at + e),
                "{bytes:02x?} between {before:02x?} and {after:02x?}"
            );
        };
        for _ in 0..300_000 {
            let len = rng.index(13);
            let bytes = draw(&mut rng, len);
            agrees(&mut rng, &bytes);
        }
        // Runs around and past LONG_RUN, mostly ASCII with drawn bytes and whole characters
        // at random places.
        for _ in 0..20_000 {
            let len = LONG_RUN - 8 + rng.index(3 * LONG_RUN);
            let mut bytes = vec![b'a'; len];
            for _ in 0..rng.index(4) {
                let at = rng.index(len);
                bytes[at] = interesting[rng.index(interesting.len())];
            }
            for _ in 0..rng.index(3) {
                let at = rng.index(len - 4);
                let c = ['é', '\u{ffff}', '😀'][rng.index(3)];
                c.encode_utf8(&mut bytes[at..at + 4]);
            }
            agrees(&mut rng, &bytes);
        }
        for c in [
            '\u{80}',
            '\u{7ff}',
            '\u{800}',
            '\u{d7ff}',
            '\u{e000}',
            '\u{ffff}',
            '\u{10000}',
            '\u{10ffff}',
        ] {
            let bytes = c.encode_utf8(&mut [0; 4]).as_bytes().to_vec();
            assert_eq!(check_utf8(&bytes, 0, bytes.len()), Ok(()), "{c:?}");
        }
    }
}
