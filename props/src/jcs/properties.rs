//! Properties every accepted document's canonical form must have, checked against an
//! independent parser (serde_json) rather than the core itself. Fuzz targets and tests share
//! them.

use std::cell::RefCell;

use canonfuzz_core::jcs::Canonicalizer;

use crate::jcs::canonical_form::check_form;
use crate::read::any_depth::read_at_any_depth;
use crate::read::unmarked::{read_value, reads_as, Repeats};

/// Checks that when the core accepts `input`, its output is accepted again unchanged (a fixed
/// point), is in RFC 8785's form by a reading of its own (no insignificant whitespace, sorted
/// members, ECMAScript's numbers, only the escapes §3.2.2.2 names), and means the same JSON
/// value as the input, which names no member of an object twice (I-JSON). Returns what was
/// violated. The core's buffers are kept between calls, as a fuzz target makes them by the
/// million.
pub fn check_canonical(input: &[u8]) -> Result<(), String> {
    thread_local! {
        static CORE: RefCell<(Canonicalizer, Vec<u8>, Vec<u8>)> = RefCell::default();
    }
    CORE.with(|cell| {
        let (core, out, again) = &mut *cell.borrow_mut();
        check_in(input, out, again, |input, out| {
            core.canonicalize_into(input, out)
        })
    })
}

/// [`check_canonical`] of another canonicalizer: the same properties, so that a planted bug
/// can be shown to break them.
pub fn check_canonical_with<E: std::fmt::Display>(
    input: &[u8],
    canonicalize: impl Fn(&[u8]) -> Result<Vec<u8>, E>,
) -> Result<(), String> {
    check_in(input, &mut Vec::new(), &mut Vec::new(), |input, out| {
        *out = canonicalize(input)?;
        Ok::<(), E>(())
    })
}

/// The properties, with the output and its canonical form written into `out` and `again`,
/// buffers a caller may keep from one input to the next.
fn check_in<E: std::fmt::Display>(
    input: &[u8],
    out: &mut Vec<u8>,
    again: &mut Vec<u8>,
    mut canonicalize: impl FnMut(&[u8], &mut Vec<u8>) -> Result<(), E>,
) -> Result<(), String> {
    out.clear();
    again.clear();
    if canonicalize(input, out).is_err() {
        return Ok(());
    }
    // A canonicalizer reads nothing but its input, so output equal to the input is its own
    // canonical form: the fixed point holds without a second run, and serde_json reads the
    // two texts as one value if it reads the one.
    let unchanged = out.as_slice() == input;
    if !unchanged {
        match canonicalize(out, again) {
            Ok(()) if again == out => {}
            Ok(()) => {
                return Err(format!(
                    "not a fixed point: {:?} became {:?}",
                    String::from_utf8_lossy(out),
                    String::from_utf8_lossy(again)
                ))
            }
            Err(e) => {
                return Err(format!(
                    "output {:?} is rejected: {e}",
                    String::from_utf8_lossy(out)
                ))
            }
        }
    }
    let out: &[u8] = out;
    let shown = || String::from_utf8_lossy(out).into_owned();
    // Past serde_json's 128 levels, where the core goes on to its own limit, serde_json reads
    // without its limit, on a stack that holds it.
    let read = read_at_any_depth([input, out], move |[input, out], unbounded| {
        serde_reads_same(input, out, unchanged, unbounded)
    })?;
    match read {
        Ok(true) => check_form(out),
        Ok(false) => Err(format!(
            "output {:?} means another value than the input",
            shown()
        )),
        Err(a) => Err(format!(
            "serde_json refuses what was accepted: input {:?}, output {:?}: {a}",
            String::from_utf8_lossy(input),
            shown()
        )),
    }
}

/// Whether serde_json reads `out` as the value it reads `input` as; when `unchanged`, the two
/// are the same text and the question is whether it reads it at all. `unbounded` lifts
/// serde_json's nesting limit, for a caller with the stack that takes.
fn serde_reads_same(
    input: &[u8],
    out: &[u8],
    unchanged: bool,
    unbounded: bool,
) -> Result<bool, serde_json::Error> {
    let value = read_value(input, unbounded, Repeats::Refused)?;
    if unchanged {
        return Ok(true);
    }
    reads_as(out, unbounded, &value)
        .map_err(|b| serde::de::Error::custom(format!("serde_json cannot read the output: {b}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    /// The core's output changed by `bug`.
    fn planted(bug: fn(Vec<u8>) -> Vec<u8>) -> impl Fn(&[u8]) -> Result<Vec<u8>, String> {
        move |input| {
            canonfuzz_core::jcs::canonicalize(input)
                .map(bug)
                .map_err(|e| e.to_string())
        }
    }

    /// `out` with every `from` written `to`.
    fn replaced(out: &[u8], from: &str, to: &str) -> Vec<u8> {
        String::from_utf8_lossy(out).replace(from, to).into_bytes()
    }

    /// Writes `false` for every `true`: a canonicalizer that changes a value.
    fn true_to_false(out: Vec<u8>) -> Vec<u8> {
        replaced(&out, "true", "false")
    }

    /// Writes a space after every comma: a canonicalizer that keeps whitespace.
    fn comma_space(out: Vec<u8>) -> Vec<u8> {
        replaced(&out, ",", ", ")
    }

    /// Writes 10^21 without its exponent, and reads it back to the same: a number form of
    /// its own.
    fn plain_10_to_21(out: Vec<u8>) -> Vec<u8> {
        replaced(&out, "1e+21", "1000000000000000000000")
    }

    /// Escapes every `/`, and reads the escape back to the same: an escape of its own.
    fn escaped_slash(out: Vec<u8>) -> Vec<u8> {
        replaced(&out, "/", "\\/")
    }

    /// Swaps the first two elements of an array of numbers: a canonicalizer that reorders.
    fn swap_first_two(out: Vec<u8>) -> Vec<u8> {
        let Ok(Value::Array(mut items)) = serde_json::from_slice(&out) else {
            return out;
        };
        if items.len() >= 2 {
            items.swap(0, 1);
        }
        serde_json::to_vec(&items).unwrap_or(out)
    }

    #[test]
    fn every_property_fails_a_canonicalizer_that_breaks_it() {
        let core = |input: &[u8]| check_canonical(input);
        // Not a fixed point: the order it writes is not the order it reads.
        assert_eq!(core(b"[1,2]"), Ok(()));
        let reorders = check_canonical_with(b"[1,2]", planted(swap_first_two)).unwrap_err();
        assert!(reorders.contains("not a fixed point"), "{reorders}");
        // Output it refuses itself.
        let cut = check_canonical_with(
            b"[1,2]",
            planted(|mut o| {
                o.pop();
                o
            }),
        )
        .unwrap_err();
        assert!(cut.contains("is rejected"), "{cut}");
        // A fixed point of another value.
        assert_eq!(core(b"[true,1]"), Ok(()));
        let flips = check_canonical_with(b"[true,1]", planted(true_to_false)).unwrap_err();
        assert!(flips.contains("means another value"), "{flips}");
        // A fixed point of the same value with members in UTF-8 order (serde_json's map),
        // which RFC 8785 §3.2.3 replaces by UTF-16 order.
        let names = "{\"\u{ff61}\":1,\"\u{10000}\":2}".as_bytes();
        assert_eq!(core(names), Ok(()));
        let utf8_order = check_canonical_with(
            names,
            planted(|o| {
                serde_json::from_slice::<Value>(&o)
                    .and_then(|v| serde_json::to_vec(&v))
                    .unwrap_or(o)
            }),
        )
        .unwrap_err();
        assert!(utf8_order.contains("follows"), "{utf8_order}");
        // Whitespace kept.
        let spaced = check_canonical_with(b"[1,2]", planted(comma_space)).unwrap_err();
        assert!(spaced.contains("whitespace"), "{spaced}");
        // A form of its own, which it reads back to itself and to the same value, but not
        // RFC 8785's: numbers from 10^21 without an exponent, and `/` escaped.
        assert_eq!(core(b"[1e21]"), Ok(()));
        let big = check_canonical_with(b"[1e21]", planted(plain_10_to_21)).unwrap_err();
        assert!(big.contains("is written 1e+21"), "{big}");
        assert_eq!(core(br#"["a/b"]"#), Ok(()));
        let escaped = check_canonical_with(br#"["a/b"]"#, planted(escaped_slash)).unwrap_err();
        assert!(escaped.contains("escape"), "{escaped}");
    }

    #[test]
    fn accepting_what_is_not_json_is_caught() {
        let echo = |input: &[u8]| Ok::<_, String>(input.to_vec());
        for not_json in [
            &b"01"[..],
            b"[1,]",
            b"\"\\x\"",
            b"[1e999]",
            b"\"\xff\"",
            b"{\"a\"}",
        ] {
            let caught = check_canonical_with(not_json, echo).unwrap_err();
            assert!(caught.contains("serde_json refuses"), "{caught}");
        }
        // A name twice in an object, which I-JSON forbids, taken as serde_json's map takes
        // it, the last one kept: the output is canonical and means what serde_json reads.
        let last_wins = |input: &[u8]| {
            let value: Value = serde_json::from_slice(input).map_err(|e| e.to_string())?;
            let text = serde_json::to_vec(&value).map_err(|e| e.to_string())?;
            canonfuzz_core::jcs::canonicalize(&text).map_err(|e| e.to_string())
        };
        for repeated in [&br#"{"a":1,"a":2}"#[..], br#"[{"\u0061":1,"b":0,"a":1}]"#] {
            assert!(last_wins(repeated).is_ok());
            let caught = check_canonical_with(repeated, last_wins).unwrap_err();
            assert!(caught.contains("twice"), "{caught}");
        }
        // Canonical text comes back unchanged, read once by serde_json.
        assert_eq!(check_canonical_with(b"[1,\"a\"]", echo), Ok(()));
        // Past serde_json's 128 levels, down to the core's own limit, every check still holds:
        // text that is not JSON, another value, and whitespace are caught there too.
        let nested = |depth: usize, inner: &str| {
            format!("{}{inner}{}", "[".repeat(depth), "]".repeat(depth))
        };
        let deepest = canonfuzz_core::jcs::DEFAULT_MAX_DEPTH - 1;
        for depth in [200, deepest] {
            let deep = nested(depth, "1,{\"b\":2,\"a\":true}");
            assert_eq!(check_canonical(deep.as_bytes()), Ok(()), "{depth}");
            let broken = nested(depth, "01");
            let caught = check_canonical_with(broken.as_bytes(), echo).unwrap_err();
            assert!(caught.contains("serde_json refuses"), "{depth}: {caught}");
            let flips = check_canonical_with(deep.as_bytes(), planted(true_to_false)).unwrap_err();
            assert!(flips.contains("means another value"), "{depth}: {flips}");
            let spaced = check_canonical_with(deep.as_bytes(), planted(comma_space)).unwrap_err();
            assert!(spaced.contains("whitespace"), "{depth}: {spaced}");
        }
    }

    #[test]
    fn the_streamed_reading_tells_every_difference_in_value() {
        let same = |out: &str, input: &str| {
            let value: Value = serde_json::from_str(input).unwrap_or(Value::Null);
            reads_as(out.as_bytes(), false, &value).map_err(|e| e.classify())
        };
        for (out, input) in [
            (
                r#"{"a":[1,2.5e0,"x",null,true],"b":{}}"#,
                r#"{"b":{},"a":[1,2.5,"x",null,true]}"#,
            ),
            ("[1e21,-0,0.1]", "[1000000000000000000000,0,1e-1]"),
            (r#"{"\u00e9":"\n"}"#, "{\"\u{e9}\":\"\\n\"}"),
        ] {
            assert_eq!(same(out, input), Ok(true), "{out} against {input}");
        }
        for (out, input) in [
            ("[1,2]", "[1,2,3]"),
            ("[1,2,3]", "[1,2]"),
            ("[2,1]", "[1,2]"),
            (r#"{"a":1}"#, r#"{"a":1,"b":2}"#),
            (r#"{"a":1,"b":2}"#, r#"{"a":1}"#),
            (r#"{"a":1,"a":1}"#, r#"{"a":1,"b":1}"#),
            (r#"{"a":1,"a":1}"#, r#"{"a":1}"#),
            (r#"{"a":1}"#, r#"{"a":"1"}"#),
            ("[0.1]", "[0.10000000000000002]"),
            ("[null]", "[false]"),
            ("[[]]", "[{}]"),
            (r#""a""#, r#""b""#),
        ] {
            assert_eq!(same(out, input), Ok(false), "{out} against {input}");
        }
        assert!(same("[1,", "[1]").is_err());
        assert!(same("[1] x", "[1]").is_err());
    }

    #[test]
    fn serde_jsons_private_marker_name_is_not_taken_for_a_change_of_meaning() {
        // serde_json's Value refuses this input (its first member has the marker's name) and
        // reads the canonical output, whose first member is "", as a plain object.
        let marker = br#"{"$serde_json::private::RawValue":true,"":[]}"#;
        assert!(check_canonical(marker).is_ok());
        // The value is still compared: a change of it, or a member left out, is caught.
        let flips = check_canonical_with(marker, planted(true_to_false)).unwrap_err();
        assert!(flips.contains("means another value"), "{flips}");
        let dropped =
            check_canonical_with(marker, planted(|o| replaced(&o, r#""":[],"#, ""))).unwrap_err();
        assert!(dropped.contains("means another value"), "{dropped}");
    }
}
