//! Strings and member names: escapes, controls, Unicode at the UTF-16 boundary.

use super::Rng;
use canonfuzz_props::jcs::tricky::{escape, TRICKY};

const PLAIN: [&str; 6] = ["a", "b", "z", "A", "aa", "key"];

/// Appends one character to a JSON string literal being built, raw or escaped.
fn push_char(rng: &mut Rng, c: char, out: &mut String) {
    let must_escape = c == '"' || c == '\\' || c < ' ';
    match rng.index(10) {
        0..=3 => out.push_str(&escape(c, rng.chance(50))),
        4 if must_escape => out.push_str(match c {
            '"' => "\\\"",
            '\\' => "\\\\",
            '\u{8}' => "\\b",
            '\t' => "\\t",
            '\u{c}' => "\\f",
            '\r' => "\\r",
            _ => "\\u0001",
        }),
        5 if c == '/' => out.push_str("\\/"),
        _ if must_escape && !rng.chance(3) => out.push_str(&escape(c, false)),
        _ => out.push(c),
    }
}

/// An escaped surrogate anywhere in D800–DFFF, in either hex case, that is not half of a pair:
/// alone, two high or two low halves in a row, a low half before a high one, or a high half
/// before a character that is not a surrogate.
pub fn lone_surrogates(rng: &mut Rng) -> String {
    let shape = rng.index(5);
    let mut half = |low: bool| {
        let unit = if low { 0xDC00 } else { 0xD800 } + rng.index(0x400);
        if rng.chance(50) {
            format!("\\u{unit:04X}")
        } else {
            format!("\\u{unit:04x}")
        }
    };
    match shape {
        0 => half(false),
        1 => half(true),
        2 => format!("{}{}", half(false), half(false)),
        3 => format!("{}{}", half(true), half(false)),
        _ => format!("{}\\u0041", half(false)),
    }
}

/// A JSON string literal, quotes included.
pub fn string(rng: &mut Rng) -> String {
    let mut out = String::from("\"");
    for _ in 0..rng.index(6) {
        match rng.index(40) {
            0 => out.push_str(&lone_surrogates(rng)),
            1..=8 => {
                let plain = rng.pick(&PLAIN);
                out.push_str(plain)
            }
            9..=14 => {
                // Any C0 or C1 control, raw or escaped.
                let code = if rng.chance(70) {
                    rng.index(0x20)
                } else {
                    0x7F + rng.index(0x21)
                };
                let c = char::from_u32(code as u32).unwrap_or('\u{0}');
                push_char(rng, c, &mut out);
            }
            _ => {
                let c = rng.pick(&TRICKY);
                push_char(rng, c, &mut out);
            }
        }
    }
    out.push('"');
    out
}

/// Prefixes that names of one object share, of 7 to 16 UTF-8 bytes: a comparator that stops
/// short of a name's end meets them. Some end on characters on either side of the surrogate
/// range, where UTF-16 and UTF-8 order part.
const SHARED: [&str; 8] = [
    "abcdefgh",
    "aaaaaaa",
    "prefix_shared_",
    "\u{e000}\u{ffff}\u{10000}",
    "\u{d7ff}\u{d7ff}\u{d7ff}",
    "éééé",
    "😀😀",
    "key\u{ff61}key\u{ff61}",
];

/// A member name: mostly characters around the UTF-16 vs code point boundary, after `prefix`.
fn name(rng: &mut Rng, prefix: &str) -> String {
    const NAMES: [char; 10] = [
        'a',
        'é',
        '\u{e000}',
        '\u{ff61}',
        '\u{ffff}',
        '\u{10000}',
        '😀',
        '\u{fb33}',
        '\u{1f602}',
        '\u{d7ff}',
    ];
    let mut out = String::from("\"");
    for c in prefix.chars() {
        if rng.chance(5) {
            out.push_str(&escape(c, rng.chance(50)));
        } else {
            out.push(c);
        }
    }
    for _ in 0..1 + rng.index(3) {
        let c = rng.pick(&NAMES);
        if rng.chance(25) {
            out.push_str(&escape(c, rng.chance(50)));
        } else {
            out.push(c);
        }
    }
    out.push('"');
    out
}

/// An object whose names sort differently by UTF-8 bytes, code points and UTF-16 units, often
/// sharing a long prefix, with an occasional pair of names equal only after unescaping.
pub fn object_with_tricky_names(rng: &mut Rng, out: &mut Vec<u8>) {
    let shared = if rng.chance(35) {
        rng.pick(&SHARED)
    } else {
        ""
    };
    let mut members: Vec<String> = (0..2 + rng.index(5))
        .map(|i| {
            let prefix = if rng.chance(80) { shared } else { "" };
            format!("{}:{i}", name(rng, prefix))
        })
        .collect();
    if rng.chance(8) {
        members.push(format!(
            "{}:0",
            rng.pick(&["\"\\u0061\"", "\"a\"", "\"\\u00e9\"", "\"e\\u0301\""])
        ));
    }
    // The name serde_json's Value reads, as an object's first member, as the raw JSON its
    // string holds (and refuses when more members follow); canonical order puts it before
    // these names.
    if rng.chance(16) {
        if rng.chance(2) {
            members.clear();
        }
        members.push(format!(
            "\"$serde_json::private::RawValue\":{}",
            rng.pick(&["\"{\\\"a\\\":1}\"", "\"[]\"", "0"])
        ));
    }
    out.push(b'{');
    out.extend_from_slice(members.join(",").as_bytes());
    out.push(b'}');
}

/// A string, an array of strings, or an object of strings.
pub fn document(rng: &mut Rng, out: &mut Vec<u8>) {
    let text = match rng.index(3) {
        0 => string(rng),
        1 => format!(
            "[{}]",
            (0..1 + rng.index(4))
                .map(|_| string(rng))
                .collect::<Vec<_>>()
                .join(",")
        ),
        _ => format!("{{{}:{}}}", string(rng), string(rng)),
    };
    out.extend_from_slice(text.as_bytes());
}
