//! Properties every accepted document's canonical form must have, checked against an
//! independent parser (serde_json) rather than the core itself. Fuzz targets and tests share
//! them.

use std::cmp::Ordering;

use canonfuzz_core::jcs::canonicalize;
use serde_json::Value;

/// Checks that when the core accepts `input`, its output is accepted again unchanged (a fixed
/// point), holds no insignificant whitespace and sorted members, and means the same JSON value
/// as the input. Returns what was violated.
pub fn check_canonical(input: &[u8]) -> Result<(), String> {
    check_canonical_with(input, canonicalize)
}

/// [`check_canonical`] of another canonicalizer: the same properties, so that a planted bug
/// can be shown to break them.
pub fn check_canonical_with<E: std::fmt::Display>(
    input: &[u8],
    canonicalize: impl Fn(&[u8]) -> Result<Vec<u8>, E>,
) -> Result<(), String> {
    let Ok(out) = canonicalize(input) else {
        return Ok(());
    };
    match canonicalize(&out) {
        Ok(again) if again == out => {}
        Ok(again) => {
            return Err(format!(
                "not a fixed point: {:?} became {:?}",
                String::from_utf8_lossy(&out),
                String::from_utf8_lossy(&again)
            ))
        }
        Err(e) => {
            return Err(format!(
                "output {:?} is rejected: {e}",
                String::from_utf8_lossy(&out)
            ))
        }
    }
    if reserves_raw_value_name(&out) {
        return check_shape(&out);
    }
    let parsed_in = serde_json::from_slice::<Value>(input);
    let parsed_out = serde_json::from_slice::<Value>(&out);
    match (parsed_in, parsed_out) {
        (Ok(a), Ok(b)) => {
            if !same_value(&a, &b) {
                return Err(format!(
                    "output {:?} means another value than the input",
                    String::from_utf8_lossy(&out)
                ));
            }
            check_shape(&out)
        }
        // serde_json refuses nesting beyond 128 levels; both sides then fail alike.
        (Err(a), Err(b)) if a.classify() == b.classify() => Ok(()),
        (a, b) => Err(format!(
            "serde_json reads input and output differently: input {:?}, output {:?}",
            a.err().map(|e| e.to_string()),
            b.err().map(|e| e.to_string())
        )),
    }
}

/// Whether the canonical document `out` has a member named as serde_json's `raw_value`
/// feature — on in this build, merged in from the core — names its private marker. serde_json
/// reads an object whose first member has that name as a raw value, so it cannot be the
/// oracle for such a document's meaning; the other properties still hold. In canonical form
/// the name is written as it is, and only a member name is followed by `:`.
pub(crate) fn reserves_raw_value_name(out: &[u8]) -> bool {
    const MARKER_NAME: &[u8] = br#""$serde_json::private::RawValue":"#;
    out.windows(MARKER_NAME.len()).any(|w| w == MARKER_NAME)
}

/// Whether two values are the same JSON value, numbers compared as the doubles they denote.
fn same_value(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same_value(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| same_value(v, w)))
        }
        _ => a == b,
    }
}

/// One pass over the output: no whitespace outside strings, and in every object member names
/// strictly increasing by UTF-16 code units (compared with the standard library's UTF-16
/// encoding, not the core's comparator).
fn check_shape(out: &[u8]) -> Result<(), String> {
    let shown = || String::from_utf8_lossy(out).into_owned();
    let text =
        std::str::from_utf8(out).map_err(|_| format!("output {:?} is not UTF-8", shown()))?;
    // One entry per open container: `None` for an array, `Some(last name)` for an object.
    let mut open: Vec<Option<Option<String>>> = Vec::new();
    let mut name_due = false;
    let mut chars = text.char_indices();
    while let Some((at, c)) = chars.next() {
        match c {
            '"' => {
                let mut decoded = String::new();
                let mut raw = chars.clone().map(|(_, c)| c);
                let mut consumed = 0;
                loop {
                    let Some(c) = raw.next() else {
                        return Err(format!("unterminated string at byte {at} of {:?}", shown()));
                    };
                    consumed += 1;
                    match c {
                        '"' => break,
                        '\\' => {
                            let escape = raw.next().unwrap_or('\\');
                            consumed += 1;
                            match escape {
                                'u' => {
                                    let hex: String = raw.by_ref().take(4).collect();
                                    consumed += 4;
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
                        c => decoded.push(c),
                    }
                }
                for _ in 0..consumed {
                    chars.next();
                }
                if name_due {
                    name_due = false;
                    if let Some(Some(last)) = open.last_mut() {
                        if let Some(previous) = last {
                            if previous.encode_utf16().cmp(decoded.encode_utf16()) != Ordering::Less
                            {
                                return Err(format!(
                                    "member {decoded:?} follows {previous:?} in {:?}",
                                    shown()
                                ));
                            }
                        }
                        *last = Some(decoded);
                    }
                }
            }
            '{' => {
                open.push(Some(None));
                name_due = true;
            }
            '[' => open.push(None),
            '}' | ']' => {
                open.pop();
                name_due = false;
            }
            ',' => name_due = matches!(open.last(), Some(Some(_))),
            ' ' | '\t' | '\n' | '\r' => {
                return Err(format!(
                    "whitespace outside strings at byte {at} of {:?}",
                    shown()
                ))
            }
            _ => {}
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The core's output changed by `bug`.
    fn planted(bug: fn(Vec<u8>) -> Vec<u8>) -> impl Fn(&[u8]) -> Result<Vec<u8>, String> {
        move |input| canonicalize(input).map(bug).map_err(|e| e.to_string())
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
        let flips = check_canonical_with(
            b"[true,1]",
            planted(|o| {
                String::from_utf8_lossy(&o)
                    .replace("true", "false")
                    .into_bytes()
            }),
        )
        .unwrap_err();
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
        let spaced = check_canonical_with(
            b"[1,2]",
            planted(|o| String::from_utf8_lossy(&o).replace(',', ", ").into_bytes()),
        )
        .unwrap_err();
        assert!(spaced.contains("whitespace"), "{spaced}");
    }

    #[test]
    fn misordered_members_are_caught() {
        assert!(check_shape(br#"{"a":{"b":1,"c":2}}"#).is_ok());
        assert!(check_shape(br#"{"a":{"c":1,"b":2}}"#)
            .unwrap_err()
            .contains("member \"b\" follows \"c\""));
        assert!(check_shape("{\"\u{ff61}\":1,\"\u{10000}\":2}".as_bytes()).is_err());
        assert!(check_shape(b"[1, 2]").unwrap_err().contains("whitespace"));
        assert!(check_shape(br#"[" a"]"#).is_ok());
    }

    #[test]
    fn serde_jsons_private_marker_name_is_not_taken_for_a_change_of_meaning() {
        // serde_json refuses this input (its first member has the marker's name) and reads
        // the canonical output, whose first member is "", as a plain object.
        assert!(check_canonical(br#"{"$serde_json::private::RawValue":0,"":[]}"#).is_ok());
        assert!(reserves_raw_value_name(
            br#"{"$serde_json::private::RawValue":0}"#
        ));
        assert!(!reserves_raw_value_name(
            br#"["$serde_json::private::RawValue"]"#
        ));
        assert!(!reserves_raw_value_name(
            br#"{"a":"\"$serde_json::private::RawValue\":"}"#
        ));
    }
}
