//! The form RFC 8785 gives a document, checked on its text apart from the core: no whitespace
//! outside strings, members in UTF-16 order (§3.2.3), numbers as ECMAScript writes them
//! (§3.2.2.3, by ryu-js, a separate implementation of `Number::toString`) and strings escaped
//! only where §3.2.2.2 says. A document in this form is its own canonical form.

use std::borrow::Cow;
use std::cmp::Ordering;

/// Checks that `out` is in the canonical form, in one pass; says what is not and where.
pub(crate) fn check_form(out: &[u8]) -> Result<(), String> {
    let shown = || String::from_utf8_lossy(out).into_owned();
    let text =
        std::str::from_utf8(out).map_err(|_| format!("output {:?} is not UTF-8", shown()))?;
    // One entry per open container: `None` for an array, `Some(last name)` for an object.
    let mut open: Vec<Option<Option<Cow<'_, str>>>> = Vec::new();
    let mut name_due = false;
    let mut at = 0;
    while let Some(&b) = out.get(at) {
        match b {
            b'"' => {
                let end = string_end(out, at + 1).map_err(|fault| match fault {
                    StringFault::Unterminated => {
                        format!("unterminated string at byte {at} of {:?}", shown())
                    }
                    StringFault::Escape(escape) => format!(
                        "the escape at byte {escape} of {:?} is not one RFC 8785 writes",
                        shown()
                    ),
                })?;
                if std::mem::take(&mut name_due) {
                    // Both ends are quotes, so both are character boundaries.
                    let name = decoded(text.get(at + 1..end).unwrap_or_default());
                    if let Some(Some(last)) = open.last_mut() {
                        if let Some(previous) = last {
                            if previous.encode_utf16().cmp(name.encode_utf16()) != Ordering::Less {
                                return Err(format!(
                                    "member {name:?} follows {previous:?} in {:?}",
                                    shown()
                                ));
                            }
                        }
                        *last = Some(name);
                    }
                }
                at = end;
            }
            b'-' | b'0'..=b'9' => {
                at = number_end(out, text, at)?;
                continue;
            }
            b'{' => {
                open.push(Some(None));
                name_due = true;
            }
            b'[' => open.push(None),
            b'}' | b']' => {
                open.pop();
                name_due = false;
            }
            b',' => name_due = matches!(open.last(), Some(Some(_))),
            b' ' | b'\t' | b'\n' | b'\r' => {
                return Err(format!(
                    "whitespace outside strings at byte {at} of {:?}",
                    shown()
                ))
            }
            _ => {}
        }
        at += 1;
    }
    Ok(())
}

/// Where the number written at byte `at` of `out` (whose text is `text`) ends, once it is
/// found written as ECMAScript writes it.
fn number_end(out: &[u8], text: &str, at: usize) -> Result<usize, String> {
    let end = out
        .get(at..)
        .and_then(|rest| rest.iter().position(|&b| !is_number_byte(b)))
        .map_or(out.len(), |len| at + len);
    let written = text.get(at..end).unwrap_or_default();
    let mut buffer = ryu_js::Buffer::new();
    match es_form(written, &mut buffer) {
        Some(expected) if expected == written => Ok(end),
        Some(expected) => Err(format!(
            "number {written} at byte {at} of {:?} is written {expected} by ECMAScript",
            String::from_utf8_lossy(out)
        )),
        None => Err(format!(
            "number {written} at byte {at} of {:?} is no finite double",
            String::from_utf8_lossy(out)
        )),
    }
}

/// Whether `b` is one of the bytes a JSON number is written with.
fn is_number_byte(b: u8) -> bool {
    matches!(b, b'0'..=b'9' | b'+' | b'-' | b'.' | b'e' | b'E')
}

/// The text ECMAScript's `Number::toString` gives the number `written` denotes, read by the
/// standard library and written by ryu-js into `buffer` ("0" for either zero); `None` when
/// `written` is no finite number.
fn es_form<'b>(written: &str, buffer: &'b mut ryu_js::Buffer) -> Option<&'b str> {
    let value: f64 = written.parse().ok().filter(|v: &f64| v.is_finite())?;
    if value == 0.0 {
        return Some("0");
    }
    Some(buffer.format_finite(value))
}

/// Why a string is not as RFC 8785 writes one.
enum StringFault {
    /// No quote closes it.
    Unterminated,
    /// The escape at this offset is not one §3.2.2.2 writes.
    Escape(usize),
}

/// The offset of the quote that closes the string whose text starts at `from`; each escape on
/// the way must be one RFC 8785 writes.
fn string_end(out: &[u8], mut from: usize) -> Result<usize, StringFault> {
    loop {
        let rest = out.get(from..).ok_or(StringFault::Unterminated)?;
        from += memchr::memchr2(b'"', b'\\', rest).ok_or(StringFault::Unterminated)?;
        if out.get(from) == Some(&b'"') {
            return Ok(from);
        }
        let escape = out.get(from..).unwrap_or_default();
        from += canonical_escape_len(escape).ok_or(StringFault::Escape(from))?;
    }
}

/// The length of the escape `text` starts with, when RFC 8785 §3.2.2.2 writes it: `\"`, `\\`,
/// the five two-character control escapes, or `\u00` and two lowercase hex digits naming any
/// other control character. Anything else is written as itself.
fn canonical_escape_len(text: &[u8]) -> Option<usize> {
    match *text {
        [b'\\', b'"' | b'\\' | b'b' | b'f' | b'n' | b'r' | b't', ..] => Some(2),
        [b'\\', b'u', b'0', b'0', high @ (b'0' | b'1'), low, ..] => {
            let low = match low {
                b'0'..=b'9' => low - b'0',
                b'a'..=b'f' => low - b'a' + 10,
                _ => return None,
            };
            let named = matches!((high - b'0') << 4 | low, 0x08 | 0x09 | 0x0A | 0x0C | 0x0D);
            (!named).then_some(6)
        }
        _ => None,
    }
}

/// A string's text with its escapes decoded; an escaped surrogate, which canonical output
/// never writes, stands as U+FFFD.
fn decoded(raw: &str) -> Cow<'_, str> {
    if !raw.contains('\\') {
        return Cow::Borrowed(raw);
    }
    let mut decoded = String::with_capacity(raw.len());
    let mut chars = raw.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            decoded.push(c);
            continue;
        }
        match chars.next().unwrap_or('\\') {
            'u' => {
                let hex: String = chars.by_ref().take(4).collect();
                let unit = u32::from_str_radix(&hex, 16).unwrap_or(0xFFFD);
                decoded.push(char::from_u32(unit).unwrap_or('\u{FFFD}'));
            }
            'b' => decoded.push('\u{8}'),
            'f' => decoded.push('\u{c}'),
            'n' => decoded.push('\n'),
            'r' => decoded.push('\r'),
            't' => decoded.push('\t'),
            other => decoded.push(other),
        }
    }
    Cow::Owned(decoded)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn misordered_members_are_caught() {
        assert!(check_form(br#"{"a":{"b":1,"c":2}}"#).is_ok());
        assert!(check_form(br#"{"a":{"c":1,"b":2}}"#)
            .unwrap_err()
            .contains("member \"b\" follows \"c\""));
        assert!(check_form("{\"\u{ff61}\":1,\"\u{10000}\":2}".as_bytes()).is_err());
        assert!(check_form(b"[1, 2]").unwrap_err().contains("whitespace"));
        assert!(check_form(br#"[" a"]"#).is_ok());
        // Escaped quotes and backslashes stay inside their string.
        assert!(check_form(br#"["a\" ",{"\\":1}]"#).is_ok());
        assert!(check_form(br#"["a\\", 1]"#)
            .unwrap_err()
            .contains("whitespace"));
        assert!(check_form(br#"["a\"]"#)
            .unwrap_err()
            .contains("unterminated"));
        // Names are compared as decoded, not as written: `"` before `#`, U+001F before a space.
        assert!(check_form(br##"{"\u001f":1," ":2,"\"":3,"#":4}"##).is_ok());
        assert!(check_form(br#"{" ":1,"\u001f":2}"#).is_err());
        assert!(check_form(br##"{"#":1,"\"":2}"##)
            .unwrap_err()
            .contains("follows"));
        // Only names are compared, not string values.
        assert!(check_form(br#"{"a":"z","b":"a"}"#).is_ok());
    }

    #[test]
    fn numbers_are_held_to_ecmascripts_form() {
        // Expected texts are String(x) in ECMAScript (ECMA-262 Number::toString).
        for canonical in [
            "[1e+21]",
            "[100]",
            "[0.1]",
            "[-1.5]",
            "[0.000001]",
            "[1e-7]",
            "[5e-324]",
            "[0]",
            "[123456789012345680000]",
            "[1.7976931348623157e+308]",
        ] {
            assert_eq!(check_form(canonical.as_bytes()), Ok(()), "{canonical}");
        }
        for (written, es) in [
            ("[1000000000000000000000]", "1e+21"),
            ("[1E+21]", "1e+21"),
            ("[1e21]", "1e+21"),
            ("[1e2]", "100"),
            ("[1.0]", "1"),
            ("[-0]", "0"),
            ("[0.0000001]", "1e-7"),
            ("[{\"a\":0.10000000000000001}]", "0.1"),
        ] {
            let why = check_form(written.as_bytes()).unwrap_err();
            assert!(
                why.contains(&format!("is written {es} ")),
                "{written}: {why}"
            );
        }
        for not_a_double in ["[1e999]", "[-1e400]", "[-]", "[1e]", "{\"a\":1.2.3}"] {
            let why = check_form(not_a_double.as_bytes()).unwrap_err();
            assert!(why.contains("no finite double"), "{not_a_double}: {why}");
        }
    }

    #[test]
    fn strings_are_escaped_only_where_rfc_8785_says() {
        let escapes = r#"["\"\\\b\f\n\r\t","\u0000\u001f\u000b","#;
        let canonical = format!("{escapes}\"/\u{7f}é😀\"]");
        assert_eq!(check_form(canonical.as_bytes()), Ok(()));
        for escaped in [
            r#"["\/"]"#,
            r#"["\u0041"]"#,
            r#"["\u001F"]"#,
            r#"["\u000a"]"#,
            r#"["\u007f"]"#,
            r#"["\u00e9"]"#,
            r#"["\ud83d\ude00"]"#,
            r#"{"\/":1}"#,
        ] {
            let why = check_form(escaped.as_bytes()).unwrap_err();
            assert!(why.contains("at byte 2 "), "{escaped}: {why}");
        }
    }
}
