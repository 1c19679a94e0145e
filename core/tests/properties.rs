//! Properties of the canonicalizer over generated inputs, with proptest's shrinking: a
//! generated document, written with varied whitespace, escapes and number forms, comes out as
//! an independent model of RFC 8785 writes it; output is a fixed point; any finite double
//! round-trips through its ECMAScript form; and every rejection points inside the input.

use canonfuzz_core::jcs::canonicalize;
use proptest::prelude::*;

/// A JSON value together with the choices of how its text is written.
#[derive(Debug, Clone)]
enum Json {
    Null,
    Bool(bool),
    /// A finite double and the form its literal takes.
    Number(f64, u8),
    /// Characters, each with the form it is written in.
    Str(Vec<(char, u8)>),
    /// Elements and whether whitespace surrounds them.
    Array(Vec<Json>, bool),
    /// Members with distinct names, in the order written, and whether whitespace surrounds them.
    Object(Vec<(Vec<(char, u8)>, Json)>, bool),
}

/// Characters where implementations differ: controls, quotes, the escape character, DEL,
/// U+2028, the top of the BMP and astral characters (whose UTF-16 order differs from their
/// code point order), or anything.
fn character() -> impl Strategy<Value = char> {
    prop_oneof![
        3 => prop::sample::select(vec![
            '\0', '\u{8}', '\t', '\n', '\u{c}', '\r', '\u{1f}', '"', '\\', '/', '\u{7f}',
            '\u{2028}', '\u{e9}', '\u{ff61}', '\u{fffd}', '\u{10000}', '\u{1f600}', 'a', 'b',
        ]),
        1 => any::<char>(),
    ]
}

fn text() -> impl Strategy<Value = Vec<(char, u8)>> {
    prop::collection::vec((character(), any::<u8>()), 0..6)
}

fn finite() -> impl Strategy<Value = f64> {
    prop_oneof![
        any::<u64>().prop_map(f64::from_bits),
        any::<i64>().prop_map(|i| i as f64),
        prop::sample::select(vec![0.0, -0.0, 1e21, 1e-7, 9007199254740993.0, 5e-324, 0.1]),
    ]
    .prop_filter("finite", |v| v.is_finite())
}

fn json() -> impl Strategy<Value = Json> {
    let leaf = prop_oneof![
        Just(Json::Null),
        any::<bool>().prop_map(Json::Bool),
        (finite(), any::<u8>()).prop_map(|(v, form)| Json::Number(v, form)),
        text().prop_map(Json::Str),
    ];
    leaf.prop_recursive(4, 48, 5, |inner| {
        prop_oneof![
            (prop::collection::vec(inner.clone(), 0..5), any::<bool>())
                .prop_map(|(items, spaced)| Json::Array(items, spaced)),
            (
                prop::collection::vec((text(), inner), 0..5)
                    .prop_map(distinct_names)
                    .prop_shuffle(),
                any::<bool>()
            )
                .prop_map(|(members, spaced)| Json::Object(members, spaced)),
        ]
    })
}

/// Members whose decoded names are distinct, the first of each name kept.
fn distinct_names(members: Vec<(Vec<(char, u8)>, Json)>) -> Vec<(Vec<(char, u8)>, Json)> {
    let mut seen = std::collections::BTreeSet::new();
    members
        .into_iter()
        .filter(|(name, _)| seen.insert(decoded(name)))
        .collect()
}

fn decoded(chars: &[(char, u8)]) -> String {
    chars.iter().map(|(c, _)| c).collect()
}

/// Writes `value` as JSON text in the forms it carries.
fn write(value: &Json, out: &mut String) {
    match value {
        Json::Null => out.push_str("null"),
        Json::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Json::Number(v, form) => match form % 3 {
            0 => out.push_str(&format!("{v:?}")),
            1 => out.push_str(&format!("{v:e}")),
            _ => out.push_str(&format!("{v:E}")),
        },
        Json::Str(chars) => write_string(chars, out),
        Json::Array(items, spaced) => {
            let gap = if *spaced { " \n\t" } else { "" };
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(gap);
                write(item, out);
                out.push_str(gap);
            }
            out.push(']');
        }
        Json::Object(members, spaced) => {
            let gap = if *spaced { "\r\n " } else { "" };
            out.push('{');
            for (i, (name, item)) in members.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(gap);
                write_string(name, out);
                out.push_str(gap);
                out.push(':');
                out.push_str(gap);
                write(item, out);
            }
            out.push_str(gap);
            out.push('}');
        }
    }
}

/// A string literal: each character raw where JSON allows it, as a `\u` escape (either hex
/// case, a surrogate pair past the BMP), or as its short escape.
fn write_string(chars: &[(char, u8)], out: &mut String) {
    out.push('"');
    for &(c, form) in chars {
        let short = match c {
            '"' => Some("\\\""),
            '\\' => Some("\\\\"),
            '/' => Some("\\/"),
            '\u{8}' => Some("\\b"),
            '\u{c}' => Some("\\f"),
            '\n' => Some("\\n"),
            '\r' => Some("\\r"),
            '\t' => Some("\\t"),
            _ => None,
        };
        let must_escape = c == '"' || c == '\\' || c < ' ';
        match (form % 4, short) {
            (0, Some(s)) => out.push_str(s),
            (0 | 1, _) if !must_escape => out.push(c),
            (upper, _) => {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    if upper == 3 {
                        out.push_str(&format!("\\u{unit:04X}"));
                    } else {
                        out.push_str(&format!("\\u{unit:04x}"));
                    }
                }
            }
        }
    }
    out.push('"');
}

/// The canonical form of `value` by RFC 8785, written here from the RFC: members sorted by
/// their names' UTF-16 code units, numbers as ECMAScript writes them (ryu-js), strings with
/// the RFC's escapes only, no whitespace.
fn model(value: &Json, out: &mut String) {
    match value {
        Json::Null => out.push_str("null"),
        Json::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Json::Number(v, _) if *v == 0.0 => out.push('0'),
        Json::Number(v, _) => out.push_str(ryu_js::Buffer::new().format_finite(*v)),
        Json::Str(chars) => model_string(&decoded(chars), out),
        Json::Array(items, _) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                model(item, out);
            }
            out.push(']');
        }
        Json::Object(members, _) => {
            let mut sorted: Vec<(String, &Json)> =
                members.iter().map(|(n, v)| (decoded(n), v)).collect();
            sorted.sort_by(|a, b| a.0.encode_utf16().cmp(b.0.encode_utf16()));
            out.push('{');
            for (i, (name, item)) in sorted.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                model_string(name, out);
                out.push(':');
                model(item, out);
            }
            out.push('}');
        }
    }
}

fn model_string(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{8}' => out.push_str("\\b"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\u{c}' => out.push_str("\\f"),
            '\r' => out.push_str("\\r"),
            c if c < ' ' => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
}

fn written(value: &Json) -> String {
    let mut text = String::new();
    write(value, &mut text);
    text
}

fn expected(value: &Json) -> String {
    let mut text = String::new();
    model(value, &mut text);
    text
}

proptest! {
    #[test]
    fn a_document_comes_out_as_the_rfc_writes_it(value in json()) {
        let text = written(&value);
        let out = canonicalize(text.as_bytes()).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(String::from_utf8_lossy(&out), expected(&value), "input {}", text);
    }

    #[test]
    fn canonical_output_is_a_fixed_point(value in json()) {
        let out = canonicalize(written(&value).as_bytes()).unwrap_or_default();
        prop_assert_eq!(canonicalize(&out).ok(), Some(out));
    }

    #[test]
    fn a_double_round_trips_through_its_ecmascript_form(v in finite(), form in any::<u8>()) {
        let text = written(&Json::Number(v, form));
        let out = canonicalize(text.as_bytes()).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let out = String::from_utf8_lossy(&out).into_owned();
        let back: f64 = out.parse().map_err(|_| TestCaseError::fail(format!("{out} is no double")))?;
        prop_assert_eq!(back, if v == 0.0 { 0.0 } else { v }, "{} became {}", text, out);
        prop_assert_eq!(out, expected(&Json::Number(v, form)));
    }

    #[test]
    fn a_rejection_points_inside_the_input(input in prop::collection::vec(any::<u8>(), 0..64)) {
        check_position(&input)?;
    }

    #[test]
    fn a_damaged_document_is_rejected_at_a_place_inside_it(
        value in json(),
        at in any::<prop::sample::Index>(),
        byte in any::<u8>(),
    ) {
        let mut input = written(&value).into_bytes();
        let i = at.index(input.len());
        input[i] = byte;
        check_position(&input)?;
        input.truncate(i);
        check_position(&input)?;
    }
}

/// When `input` is rejected, its offset lies within the input and its line and column name
/// the same place: lines counted by `\n`, columns by characters from the line's start.
fn check_position(input: &[u8]) -> Result<(), TestCaseError> {
    let Err(e) = canonicalize(input) else {
        return Ok(());
    };
    prop_assert!(
        e.offset() <= input.len(),
        "{e} at {} of {}",
        e.offset(),
        input.len()
    );
    let before = &input[..e.offset()];
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |p| p + 1);
    prop_assert_eq!(e.line(), 1 + before.iter().filter(|&&b| b == b'\n').count());
    let on_line = &before[line_start..];
    match std::str::from_utf8(on_line) {
        Ok(text) => prop_assert_eq!(e.column(), 1 + text.chars().count(), "{}", e),
        Err(_) => prop_assert!((1..=1 + on_line.len()).contains(&e.column()), "{}", e),
    }
    Ok(())
}
