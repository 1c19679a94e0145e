//! JSON as the judges read it: json-syntax's parser, held to I-JSON (RFC 7493: no member
//! named twice, no number beyond the doubles; json-syntax itself refuses lone surrogates), and
//! written in RFC 8785's form: members in the order of their names' UTF-16 code units, numbers
//! as ECMAScript writes them (ryu-js), strings with only the escapes §3.2.2.2 names.

use std::cell::Cell;
use std::collections::HashSet;

use json_syntax::{Object, Parse, Value};

use super::{must, refused, Refusal};

/// Nesting a judge reads on the calling thread: json-syntax drops its values recursively, and
/// a campaign thread's stack holds several times this many levels.
pub const SHALLOW: usize = 1_000;

/// The deepest nesting a judge reads, the bound the core states for every document it reads
/// (its `depth-bound` policies); deeper documents are refused.
pub const DEEPEST: usize = 10_000;

thread_local! {
    /// Whether this thread's stack holds nesting up to [`DEEPEST`].
    pub(super) static DEEP: Cell<bool> = const { Cell::new(false) };
}

/// `text` read as I-JSON; [`Refusal::Deep`] when it nests past what this thread reads.
pub fn read(text: &[u8]) -> Result<Value, Refusal> {
    let depth = canonfuzz_props::read::for_judgment::nesting(text);
    must(depth <= DEEPEST, "the text nests past 10,000 levels")?;
    if depth > SHALLOW && !DEEP.with(Cell::get) {
        return Err(Refusal::Deep);
    }
    let text = std::str::from_utf8(text).map_err(|_| refused("the text is not UTF-8"))?;
    let (value, _) =
        Value::parse_str(text).map_err(|e| refused(format!("the text is not JSON: {e}")))?;
    i_json(&value)?;
    Ok(value)
}

/// Refuses a value that breaks I-JSON: a name twice in one object, a number no double holds.
fn i_json(value: &Value) -> Result<(), Refusal> {
    let mut pending = vec![value];
    while let Some(v) = pending.pop() {
        match v {
            Value::Number(n) => {
                double(n.as_str())?;
            }
            Value::Array(items) => pending.extend(items.iter()),
            Value::Object(members) => {
                let mut names = HashSet::new();
                for entry in members.iter() {
                    must(
                        names.insert(entry.key.as_str()),
                        "an object names a member twice",
                    )?;
                    pending.push(&entry.value);
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// The double a JSON number literal stands for, correctly rounded; refused when it is beyond
/// the doubles.
pub fn double(literal: &str) -> Result<f64, Refusal> {
    let value: f64 = literal
        .parse()
        .map_err(|_| refused(format!("{literal} is not a number")))?;
    must(value.is_finite(), "a number is beyond the doubles")?;
    Ok(value)
}

/// The member `name` of `value` when it is an object (I-JSON names each member once).
pub fn member<'a>(value: &'a Value, name: &str) -> Option<&'a Value> {
    match value {
        Value::Object(members) => unique(members, name),
        _ => None,
    }
}

/// The member `name` of an object read by [`read`].
pub fn unique<'a>(members: &'a Object, name: &str) -> Option<&'a Value> {
    members.get_unique(name).ok().flatten()
}

/// The string member `name` of `value`.
pub fn text<'a>(value: &'a Value, name: &str) -> Option<&'a str> {
    match member(value, name) {
        Some(Value::String(s)) => Some(s.as_str()),
        _ => None,
    }
}

/// What one step of writing a value still has to write.
enum Step<'a> {
    Value(&'a Value),
    Name(&'a str),
    Text(&'static str),
}

/// `value` in RFC 8785's canonical form. Every number of a value [`read`] gave is a double.
pub fn canonical(value: &Value) -> Result<Vec<u8>, Refusal> {
    let mut out = Vec::new();
    let mut numbers = ryu_js::Buffer::new();
    let mut pending = vec![Step::Value(value)];
    while let Some(step) = pending.pop() {
        match step {
            Step::Text(text) => out.extend_from_slice(text.as_bytes()),
            Step::Name(name) => {
                string(name, &mut out);
                out.push(b':');
            }
            Step::Value(Value::Null) => out.extend_from_slice(b"null"),
            Step::Value(Value::Boolean(b)) => {
                out.extend_from_slice(if *b { b"true" } else { b"false" })
            }
            Step::Value(Value::Number(n)) => {
                let value = double(n.as_str())?;
                out.extend_from_slice(numbers.format_finite(value).as_bytes());
            }
            Step::Value(Value::String(s)) => string(s, &mut out),
            Step::Value(Value::Array(items)) => {
                out.push(b'[');
                pending.push(Step::Text("]"));
                for (k, item) in items.iter().enumerate().rev() {
                    pending.push(Step::Value(item));
                    if k > 0 {
                        pending.push(Step::Text(","));
                    }
                }
            }
            Step::Value(Value::Object(members)) => {
                let mut sorted: Vec<(&str, &Value)> =
                    members.iter().map(|e| (e.key.as_str(), &e.value)).collect();
                sorted.sort_by(|a, b| a.0.encode_utf16().cmp(b.0.encode_utf16()));
                out.push(b'{');
                pending.push(Step::Text("}"));
                for (k, (name, item)) in sorted.into_iter().enumerate().rev() {
                    pending.push(Step::Value(item));
                    pending.push(Step::Name(name));
                    if k > 0 {
                        pending.push(Step::Text(","));
                    }
                }
            }
        }
    }
    Ok(out)
}

/// `s` as a JSON string with RFC 8785's escapes: `"` and `\`, the five short control escapes,
/// every other control as a lowercase `\u00xx`, everything else as it is.
fn string(s: &str, out: &mut Vec<u8>) {
    out.push(b'"');
    for c in s.chars() {
        match c {
            '"' => out.extend_from_slice(b"\\\""),
            '\\' => out.extend_from_slice(b"\\\\"),
            '\u{8}' => out.extend_from_slice(b"\\b"),
            '\t' => out.extend_from_slice(b"\\t"),
            '\n' => out.extend_from_slice(b"\\n"),
            '\u{c}' => out.extend_from_slice(b"\\f"),
            '\r' => out.extend_from_slice(b"\\r"),
            c if (c as u32) < 0x20 => {
                out.extend_from_slice(format!("\\u{:04x}", c as u32).as_bytes());
            }
            c => {
                let mut buf = [0; 4];
                out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
            }
        }
    }
    out.push(b'"');
}

/// A number literal's exact decimal value, written one way only: `0`, or a sign, the digits
/// without leading or trailing zeros, and the power of ten they are scaled by
/// (`-12e-3` for `-0.0120`). Two literals are the same number exactly when these agree.
pub fn exact(literal: &str) -> String {
    let (negative, unsigned) = match literal.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, literal.strip_prefix('+').unwrap_or(literal)),
    };
    let (mantissa, exponent) = match unsigned.find(['e', 'E']) {
        Some(at) => (
            unsigned.get(..at).unwrap_or_default(),
            unsigned.get(at + 1..).unwrap_or_default(),
        ),
        None => (unsigned, "0"),
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = format!("{whole}{fraction}");
    let kept = digits.trim_start_matches('0');
    let significant = kept.trim_end_matches('0');
    if significant.is_empty() {
        return "0".to_string();
    }
    let trailing = (kept.len() - significant.len()) as i128;
    let written: i128 = exponent
        .trim_start_matches('+')
        .parse::<i128>()
        .unwrap_or_else(|_| {
            // An exponent too long for any integer: its sign says which way it goes.
            if exponent.starts_with('-') {
                i128::MIN / 2
            } else {
                i128::MAX / 2
            }
        });
    let scale = written - fraction.len() as i128 + trailing;
    format!("{}{significant}e{scale}", if negative { "-" } else { "" })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn canonical_text(text: &str) -> Result<String, Refusal> {
        let value = read(text.as_bytes())?;
        Ok(String::from_utf8(canonical(&value)?).unwrap())
    }

    #[test]
    fn documents_come_out_in_rfc_8785_form() {
        // RFC 8785 §3.2.3's sorting example: names by UTF-16 code units.
        assert_eq!(
            canonical_text(r#"{"\u20ac":"Euro Sign","\r":"Carriage Return","\ufb33":"Hebrew Letter Dalet With Dagesh","1":"One","\ud83d\ude00":"Emoji: Grinning Face","\u0080":"Control","\u00f6":"Latin Small Letter O With Diaeresis"}"#)
                .unwrap(),
            "{\"\\r\":\"Carriage Return\",\"1\":\"One\",\"\u{80}\":\"Control\",\"ö\":\"Latin Small Letter O With Diaeresis\",\"€\":\"Euro Sign\",\"😀\":\"Emoji: Grinning Face\",\"\u{fb33}\":\"Hebrew Letter Dalet With Dagesh\"}"
        );
        // RFC 8785 §3.2.2.3's numbers, and -0.
        assert_eq!(
            canonical_text("[333333333.33333329,1E30,4.50,2e-3,0.000000000000000000000000001,-0]")
                .unwrap(),
            "[333333333.3333333,1e+30,4.5,0.002,1e-27,0]"
        );
        assert_eq!(
            canonical_text("\"\\u001f\\u0008/\\u007f\u{2028}\"").unwrap(),
            "\"\\u001f\\b/\u{7f}\u{2028}\""
        );
    }

    #[test]
    fn what_i_json_forbids_is_refused_and_deep_nesting_is_not_answered() {
        for bad in [
            r#"{"a":1,"a":2}"#,
            "[1e400]",
            r#"["\ud800"]"#,
            "[1,]",
            "\u{feff}[]",
        ] {
            assert!(
                matches!(read(bad.as_bytes()), Err(Refusal::Refused(_))),
                "{bad}"
            );
        }
        let deep = format!("{}{}", "[".repeat(SHALLOW + 1), "]".repeat(SHALLOW + 1));
        assert_eq!(read(deep.as_bytes()), Err(Refusal::Deep));
        let within = format!("{}{}", "[".repeat(SHALLOW), "]".repeat(SHALLOW));
        assert_eq!(canonical_text(&within).unwrap(), within);
    }

    #[test]
    fn exact_values_are_written_one_way() {
        for (a, b) in [
            ("1E2", "100"),
            ("1e+2", "100.0"),
            ("1e002", "10e1"),
            ("-0.0120", "-12e-3"),
            ("0", "-0.0e5"),
        ] {
            assert_eq!(exact(a), exact(b), "{a} {b}");
        }
        for (a, b) in [("1", "1.0000000000000001"), ("100", "1e3"), ("-1", "1")] {
            assert_ne!(exact(a), exact(b), "{a} {b}");
        }
        // As bigdecimal reads them, over numbers written many ways.
        let written = [
            "0",
            "-0",
            "1",
            "10",
            "1e1",
            "1.0e1",
            "100e-1",
            "0.001",
            "1e-3",
            "-2.50",
            "-25e-1",
            "123456789012345678901234567890",
            "1.2345678901234567890123456789e29",
            "5E-324",
        ];
        for a in written {
            for b in written {
                let same = canonfuzz_props::read::exact_numbers::Numbers::Exact.same(a, b);
                assert_eq!(exact(a) == exact(b), same, "{a} {b}");
            }
        }
    }
}
