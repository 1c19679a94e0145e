//! An independent reading of a JSON text: which of the problems RFC 8259 and I-JSON name it
//! has, found without the core, so that a registered policy can decide from the input whether
//! its reason holds. One pass over the bytes with an explicit stack, so any nesting costs no
//! recursion.
//!
//! Problems, by the kinds the core reports them as: `invalid_utf8`, `syntax` (anything the
//! grammar does not allow, including trailing text and raw control characters in strings),
//! `duplicate_key` (two members of one object whose names decode to the same UTF-16 string),
//! `lone_surrogate` (a `\u` escape of one half of a surrogate pair, unpaired),
//! `number_out_of_range` (a literal whose magnitude rounds past the largest double) and
//! `depth_limit` (nesting deeper than the core's default bound).

use std::cell::RefCell;
use std::collections::{BTreeSet, HashSet};
use std::rc::Rc;

use canonfuzz_core::jcs::DEFAULT_MAX_DEPTH;

use crate::kept::{kept_or, Slot};

/// What a reading of a JSON text found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Reading {
    /// Every problem kind found (the grammar stops the reading at its first error).
    pub problems: BTreeSet<&'static str>,
    /// The deepest nesting of arrays and objects reached (`[]` is 1).
    pub depth: usize,
    /// Every member name, decoded (lossily where it holds a lone surrogate).
    pub names: BTreeSet<String>,
}

impl Reading {
    /// The kinds the core may name for this text under its stated precedence: invalid UTF-8
    /// first, then a grammar error, then any I-JSON rule the text breaks. Empty when the text
    /// has no problem.
    pub fn first_problems(&self) -> BTreeSet<&'static str> {
        for first in ["invalid_utf8", "syntax"] {
            if self.problems.contains(first) {
                return BTreeSet::from([first]);
            }
        }
        self.problems.clone()
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Expect {
    Value,
    ValueOrClose,
    Name,
    NameOrClose,
    Colon,
    CommaOrClose,
}

enum Frame {
    Array,
    Object(HashSet<Vec<u16>>),
}

/// Reads `text`.
pub fn read(text: &[u8]) -> Reading {
    let mut reading = Reading::default();
    if std::str::from_utf8(text).is_err() {
        reading.problems.insert("invalid_utf8");
    }
    if let Err(()) = scan(text, &mut reading) {
        reading.problems.insert("syntax");
    }
    if reading.depth > DEFAULT_MAX_DEPTH {
        reading.problems.insert("depth_limit");
    }
    reading
}

/// [`read`] of `text`, kept for the next call on this thread: a verdict asks its policies'
/// predicates about one input in turn, and each would otherwise read the input again. The
/// reading kept is handed out only for the same bytes.
pub(crate) fn read_shared(text: &[u8]) -> Rc<Reading> {
    thread_local! {
        static LAST: Slot<Vec<u8>, Reading> = const { RefCell::new(None) };
    }
    LAST.with(|last| {
        kept_or(
            last,
            |seen| seen.as_slice() == text,
            || text.to_vec(),
            || read(text),
        )
    })
}

/// Reads the member name at `i`, noting it among the reading's names and, when the object
/// it names a member of (`frame`) has one named alike, the duplicate.
fn member_name(
    text: &[u8],
    i: &mut usize,
    reading: &mut Reading,
    frame: Option<&mut Frame>,
) -> Result<(), ()> {
    let units = string(text, i, reading)?;
    reading.names.insert(String::from_utf16_lossy(&units));
    if let Some(Frame::Object(names)) = frame {
        if !names.insert(units) {
            reading.problems.insert("duplicate_key");
        }
    }
    Ok(())
}

fn scan(text: &[u8], reading: &mut Reading) -> Result<(), ()> {
    let mut stack: Vec<Frame> = Vec::new();
    let mut expect = Expect::Value;
    let mut i = 0;
    loop {
        skip_whitespace(text, &mut i);
        let Some(&byte) = text.get(i) else {
            return Err(());
        };
        let mut value_done = false;
        match (expect, byte) {
            (Expect::Value | Expect::ValueOrClose, b'[') => {
                stack.push(Frame::Array);
                reading.depth = reading.depth.max(stack.len());
                expect = Expect::ValueOrClose;
                i += 1;
            }
            (Expect::Value | Expect::ValueOrClose, b'{') => {
                stack.push(Frame::Object(HashSet::new()));
                reading.depth = reading.depth.max(stack.len());
                expect = Expect::NameOrClose;
                i += 1;
            }
            (Expect::ValueOrClose, b']') | (Expect::NameOrClose, b'}') => {
                stack.pop();
                value_done = true;
                i += 1;
            }
            (Expect::CommaOrClose, b']' | b'}') => {
                let closes = match stack.pop() {
                    Some(Frame::Array) => b']',
                    _ => b'}',
                };
                if byte != closes {
                    return Err(());
                }
                value_done = true;
                i += 1;
            }
            (Expect::CommaOrClose, b',') => {
                expect = match stack.last() {
                    Some(Frame::Array) => Expect::Value,
                    _ => Expect::Name,
                };
                i += 1;
            }
            (Expect::Colon, b':') => {
                expect = Expect::Value;
                i += 1;
            }
            (Expect::Name | Expect::NameOrClose, b'"') => {
                member_name(text, &mut i, reading, stack.last_mut())?;
                expect = Expect::Colon;
            }
            (Expect::Value | Expect::ValueOrClose, b'"') => {
                string(text, &mut i, reading)?;
                value_done = true;
            }
            (Expect::Value | Expect::ValueOrClose, b'-' | b'0'..=b'9') => {
                number(text, &mut i, reading)?;
                value_done = true;
            }
            (Expect::Value | Expect::ValueOrClose, _) => {
                i += literal_len(text.get(i..).unwrap_or_default())?;
                value_done = true;
            }
            _ => return Err(()),
        }
        if value_done {
            if stack.is_empty() {
                skip_whitespace(text, &mut i);
                return if i == text.len() { Ok(()) } else { Err(()) };
            }
            expect = Expect::CommaOrClose;
        }
    }
}

/// Moves `*i` past JSON whitespace.
fn skip_whitespace(text: &[u8], i: &mut usize) {
    while matches!(text.get(*i), Some(b' ' | b'\t' | b'\n' | b'\r')) {
        *i += 1;
    }
}

/// The length of the literal word (`true`, `false`, `null`) `rest` starts with.
fn literal_len(rest: &[u8]) -> Result<usize, ()> {
    [&b"true"[..], b"false", b"null"]
        .into_iter()
        .find(|l| rest.starts_with(l))
        .map(<[u8]>::len)
        .ok_or(())
}

/// Reads the string starting at `text[*i]` (a quote), returning its UTF-16 code units and
/// noting an unpaired escaped surrogate — in what was read even when the string is cut short,
/// since a reader may meet the surrogate before the grammar error.
fn string(text: &[u8], i: &mut usize, reading: &mut Reading) -> Result<Vec<u16>, ()> {
    let mut units = Vec::new();
    let read = string_units(text, i, &mut units);
    let mut k = 0;
    while k < units.len() {
        match units[k] {
            0xd800..=0xdbff if matches!(units.get(k + 1), Some(0xdc00..=0xdfff)) => k += 2,
            0xd800..=0xdfff => {
                reading.problems.insert("lone_surrogate");
                k += 1;
            }
            _ => k += 1,
        }
    }
    read.map(|()| units)
}

/// Reads a string's code units into `units`, up to its closing quote or the grammar error.
pub(crate) fn string_units(text: &[u8], i: &mut usize, units: &mut Vec<u16>) -> Result<(), ()> {
    *i += 1;
    loop {
        let byte = *text.get(*i).ok_or(())?;
        match byte {
            b'"' => {
                *i += 1;
                break;
            }
            b'\\' => {
                let escape = *text.get(*i + 1).ok_or(())?;
                let unit = match escape {
                    b'"' | b'\\' | b'/' => u16::from(escape),
                    b'b' => 8,
                    b'f' => 12,
                    b'n' => 10,
                    b'r' => 13,
                    b't' => 9,
                    b'u' => {
                        let hex = text.get(*i + 2..*i + 6).ok_or(())?;
                        let hex = std::str::from_utf8(hex).map_err(|_| ())?;
                        if !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
                            return Err(());
                        }
                        *i += 4;
                        u16::from_str_radix(hex, 16).map_err(|_| ())?
                    }
                    _ => return Err(()),
                };
                units.push(unit);
                *i += 2;
            }
            0x00..=0x1f => return Err(()),
            _ => {
                let len = match byte {
                    0xf0.. => 4,
                    0xe0.. => 3,
                    0xc0.. => 2,
                    _ => 1,
                };
                match text.get(*i..*i + len).map(std::str::from_utf8) {
                    Some(Ok(c)) => {
                        units.extend(c.encode_utf16());
                        *i += len;
                    }
                    _ => {
                        units.push(0xfffd);
                        *i += 1;
                    }
                }
            }
        }
    }
    Ok(())
}

/// Reads the number starting at `text[*i]` by RFC 8259's grammar, noting one beyond the
/// double range.
fn number(text: &[u8], i: &mut usize, reading: &mut Reading) -> Result<(), ()> {
    let start = *i;
    number_span(text, i)?;
    let literal = std::str::from_utf8(text.get(start..*i).unwrap_or_default()).map_err(|_| ())?;
    // serde_json's reading, correctly rounded here (float_roundtrip), refuses a magnitude
    // past the largest double. The standard library's would not do: it misreads exponents
    // from 655,360 up, which a long run of digits can bring back into range.
    if serde_json::from_str::<f64>(literal).is_err() {
        reading.problems.insert("number_out_of_range");
    }
    Ok(())
}

/// Moves `*i` past the number literal starting there, as RFC 8259's grammar has it.
pub(crate) fn number_span(text: &[u8], i: &mut usize) -> Result<(), ()> {
    let digits = |i: &mut usize| {
        let from = *i;
        while matches!(text.get(*i), Some(b'0'..=b'9')) {
            *i += 1;
        }
        *i > from
    };
    if text.get(*i) == Some(&b'-') {
        *i += 1;
    }
    match text.get(*i) {
        Some(b'0') => *i += 1,
        Some(b'1'..=b'9') => {
            digits(i);
        }
        _ => return Err(()),
    }
    if text.get(*i) == Some(&b'.') {
        *i += 1;
        if !digits(i) {
            return Err(());
        }
    }
    if matches!(text.get(*i), Some(b'e' | b'E')) {
        *i += 1;
        if matches!(text.get(*i), Some(b'+' | b'-')) {
            *i += 1;
        }
        if !digits(i) {
            return Err(());
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problems(text: &str) -> Vec<&'static str> {
        read(text.as_bytes()).problems.into_iter().collect()
    }

    #[test]
    fn a_shared_reading_is_of_the_bytes_asked_about() {
        // Texts that read differently, two of them of one length, some asked about twice in
        // a row and again after another: a reading kept for other bytes would show.
        let texts = [
            &b"[1]"[..],
            b"[1]",
            b"[1,",
            b"[1,",
            b"\"\\\"",
            b"[1]",
            b"{\"a\":1,\"a\":1}",
        ];
        for text in texts {
            assert_eq!(
                *read_shared(text),
                read(text),
                "{}",
                String::from_utf8_lossy(text)
            );
        }
        let kept = read_shared(b"[[]]");
        assert!(Rc::ptr_eq(&kept, &read_shared(b"[[]]")));
        assert_eq!(kept.depth, 2);
    }

    #[test]
    fn valid_documents_have_no_problem() {
        for text in [
            r#"{"a":[1,-0.5e+3,true,false,null,"\u00e9\ud83d\ude00\n"],"b":{}}"#,
            " [ ] ",
            r#""\"\\\/\b\f\n\r\t""#,
            "1e308",
            r#"{"a":1,"b":{"a":2}}"#,
        ] {
            assert_eq!(problems(text), Vec::<&str>::new(), "{text}");
        }
    }

    #[test]
    fn each_problem_is_found_where_it_is() {
        assert_eq!(problems(r#"{"a":1,"\u0061":2}"#), ["duplicate_key"]);
        assert_eq!(problems(r#"["\ud800"]"#), ["lone_surrogate"]);
        assert_eq!(problems(r#"["\udc00\ud800"]"#), ["lone_surrogate"]);
        assert_eq!(problems("[1e309]"), ["number_out_of_range"]);
        assert_eq!(problems("[-1e400]"), ["number_out_of_range"]);
        // 1 as a million digits and an exponent that takes them back, and 10^399 so written
        // (exact arithmetic).
        let zeros = "0".repeat(1_000_000);
        assert_eq!(
            problems(&format!("[1{zeros}e-1000000]")),
            Vec::<&str>::new()
        );
        assert_eq!(
            problems(&format!("[0.{zeros}1e1000400]")),
            ["number_out_of_range"]
        );
        let deep = format!("{}{}", "[".repeat(10_001), "]".repeat(10_001));
        assert_eq!(problems(&deep), ["depth_limit"]);
        let limit = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
        assert_eq!(problems(&limit), Vec::<&str>::new());
        for bad in [
            "[1,]",
            "{\"a\" 1}",
            "[01]",
            "[1.]",
            "\"a\u{1}\"",
            "[] []",
            "",
            "[",
            "{\"a\":1]",
        ] {
            assert_eq!(problems(bad), ["syntax"], "{bad:?}");
        }
        assert_eq!(
            read(b"[\"\xff\"]").problems.into_iter().collect::<Vec<_>>(),
            ["invalid_utf8"]
        );
    }

    #[test]
    fn precedence_puts_utf8_then_grammar_before_the_i_json_rules() {
        let both = read(br#"{"a":1,"a":"\ud800"}"#);
        assert_eq!(
            both.first_problems().into_iter().collect::<Vec<_>>(),
            ["duplicate_key", "lone_surrogate"]
        );
        let broken = read(br#"{"a":1,"a":2,}"#);
        assert_eq!(
            broken.first_problems().into_iter().collect::<Vec<_>>(),
            ["syntax"]
        );
        assert!(broken.problems.contains("duplicate_key"));
    }
}
