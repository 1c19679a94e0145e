//! JCS mutants. Eight write the core's canonical output the way a classic canonicalization bug
//! would (working on the output with the lenient syntax tree, never inside the core); most of
//! the rest stand at the core's public entry point and refuse valid documents with each error
//! kind the core has, or name the wrong kind for a document they rightly refuse — the bugs a
//! registered policy must never be able to excuse; two accept what I-JSON refuses as a naive
//! canonicalizer does; and one reads serde_json's raw-value marker as the serde_json-based
//! crates in process do, a bug only an implementation that shares no code with them can show.

use canonfuzz_core::jcs::{canonicalize, Canonicalizer};

use crate::mutants::Mutant;
use crate::outcome::Outcome;
use crate::tree::{parse, Node};
use canonfuzz_props::impls::Implementation;
use canonfuzz_props::jcs::impls::{answer as core_answer, RUST_CRATES};
use canonfuzz_props::read::problems;

/// The core's answer.
fn core(input: &[u8]) -> Outcome {
    core_answer(&mut Canonicalizer::default(), input)
}

/// The core's answer with its canonical output rewritten by `rewrite`.
fn rewritten(input: &[u8], rewrite: fn(&[u8], &mut Node)) -> Outcome {
    match core(input) {
        Outcome::Ok(out) => match parse(&out) {
            Some(mut tree) => {
                rewrite(input, &mut tree);
                Outcome::Ok(tree.to_bytes())
            }
            None => Outcome::Ok(out),
        },
        other => other,
    }
}

/// The core's answer, except that a document it accepts is refused as `kind` when `when`
/// holds for the input and the canonical output.
fn refuses_valid(input: &[u8], kind: &str, when: fn(&[u8], &[u8]) -> bool) -> Outcome {
    match core(input) {
        Outcome::Ok(out) if when(input, &out) => Outcome::Rejected(kind.to_string()),
        other => other,
    }
}

/// The core's answer, except that a rejection of kind `from` is reported as `to`.
fn renames(input: &[u8], from: &str, to: &str) -> Outcome {
    match core(input) {
        Outcome::Rejected(kind) if kind == from => Outcome::Rejected(to.to_string()),
        other => other,
    }
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

/// Reverses each run of consecutive members whose decoded names share their first `bytes`
/// UTF-8 bytes: the order a sort leaves names in when its comparator stops there.
fn names_tied_after(members: &mut Members, bytes: usize) {
    let prefix = |m: &(Vec<u8>, Node)| decoded(&m.0).into_iter().take(bytes).collect::<Vec<u8>>();
    let mut start = 0;
    while start < members.len() {
        let first = members.get(start).map(prefix);
        let end = (start + 1..members.len())
            .find(|&k| members.get(k).map(prefix) != first)
            .unwrap_or(members.len());
        if let Some(run) = members.get_mut(start..end) {
            run.reverse();
        }
        start = end;
    }
}

/// Every JCS mutant.
pub const MUTANTS: [Mutant; 24] = [
    Mutant {
        family: super::FAMILY,
        name: "utf8-member-order",
        bug: "members sorted by UTF-8 bytes instead of UTF-16 code units",
        answer: |input| rewritten(input, |_, tree| each_object(tree, &mut |members| {
            members.sort_by_key(|m| decoded(&m.0))
        })),
    },
    Mutant {
        family: super::FAMILY,
        name: "name-prefix-order",
        bug: "members compared on the first 8 UTF-8 bytes of their names only, so names alike that far keep no set order",
        answer: |input| rewritten(input, |_, tree| each_object(tree, &mut |members| {
            names_tied_after(members, 8)
        })),
    },
    Mutant {
        family: super::FAMILY,
        name: "rust-float-format",
        bug: "numbers written by Rust's Display for f64, not ECMAScript's rules",
        answer: |input| rewritten(input, |_, tree| each_scalar(tree, &mut |raw| {
            if is_number(raw) {
                if let Some(v) = std::str::from_utf8(raw).ok().and_then(|t| t.parse::<f64>().ok()) {
                    *raw = format!("{v}").into_bytes();
                }
            }
        })),
    },
    Mutant {
        family: super::FAMILY,
        name: "slash-escaped",
        bug: "/ escaped as \\/",
        answer: |input| rewritten(input, |_, tree| each_scalar(tree, &mut |raw| {
            if is_string(raw) {
                *raw = replace(raw, b"/", b"\\/");
            }
        })),
    },
    Mutant {
        family: super::FAMILY,
        name: "uppercase-hex-escapes",
        bug: "\\u00xx escapes written with uppercase hex",
        answer: |input| rewritten(input, |_, tree| each_scalar(tree, &mut uppercase_escapes)),
    },
    Mutant {
        family: super::FAMILY,
        name: "minus-zero-kept",
        bug: "-0 written as -0",
        answer: |input| rewritten(input, minus_zero_kept),
    },
    Mutant {
        family: super::FAMILY,
        name: "exponent-without-plus",
        bug: "exponents written without + (1e21)",
        answer: |input| rewritten(input, |_, tree| each_scalar(tree, &mut |raw| {
            if is_number(raw) {
                *raw = replace(raw, b"e+", b"e");
            }
        })),
    },
    Mutant {
        family: super::FAMILY,
        name: "big-integers-verbatim",
        bug: "integers beyond 2^53 written as they came, not rounded to a double",
        answer: |input| rewritten(input, big_integers_verbatim),
    },
    Mutant {
        family: super::FAMILY,
        name: "duplicates-accepted",
        bug: "duplicate member names accepted, the last one kept",
        answer: |input| match core(input) {
            Outcome::Rejected(kind) if kind == "duplicate_key" => match without_duplicates(input) {
                Some(deduped) => core(&deduped),
                None => Outcome::Rejected(kind),
            },
            other => other,
        },
    },
    Mutant {
        family: super::FAMILY,
        name: "escapes-refused-as-duplicate",
        bug: "a valid document with a \\u00xx escape refused as duplicate_key (names compared before unescaping)",
        answer: |input| refuses_valid(input, "duplicate_key", |input, _| contains(input, b"\\u00")),
    },
    Mutant {
        family: super::FAMILY,
        name: "pairs-refused-as-lone",
        bug: "a valid escaped surrogate pair refused as lone_surrogate (pairs decoded one half at a time)",
        answer: |input| refuses_valid(input, "lone_surrogate", |input, _| {
            input.windows(4).any(|w| {
                w[..3].eq_ignore_ascii_case(b"\\ud") && matches!(w[3], b'8'..=b'9' | b'a'..=b'b' | b'A'..=b'B')
            })
        }),
    },
    Mutant {
        family: super::FAMILY,
        name: "large-exponents-refused",
        bug: "a valid number of 1e30 or more refused as number_out_of_range (range checked on the exponent alone)",
        answer: |input| refuses_valid(input, "number_out_of_range", |_, out| contains(out, b"e+3")),
    },
    Mutant {
        family: super::FAMILY,
        name: "shallow-depth-limit",
        bug: "valid documents nested past 20 levels refused as depth_limit (a depth counter that never goes down)",
        answer: |input| refuses_valid(input, "depth_limit", |input, _| problems::read(input).depth > 20),
    },
    Mutant {
        family: super::FAMILY,
        name: "astral-refused-as-invalid-utf8",
        bug: "valid characters beyond the BMP refused as invalid_utf8 (a three-byte UTF-8 decoder)",
        answer: |input| refuses_valid(input, "invalid_utf8", |_, out| out.iter().any(|b| *b >= 0xf0)),
    },
    Mutant {
        family: super::FAMILY,
        name: "empty-containers-refused",
        bug: "valid empty objects and arrays refused as syntax",
        answer: |input| refuses_valid(input, "syntax", |_, out| contains(out, b"{}") || contains(out, b"[]")),
    },
    Mutant {
        family: super::FAMILY,
        name: "duplicate-named-syntax",
        bug: "duplicate names refused as syntax, not duplicate_key",
        answer: |input| renames(input, "duplicate_key", "syntax"),
    },
    Mutant {
        family: super::FAMILY,
        name: "lone-surrogate-named-utf8",
        bug: "lone surrogates refused as invalid_utf8, not lone_surrogate",
        answer: |input| renames(input, "lone_surrogate", "invalid_utf8"),
    },
    Mutant {
        family: super::FAMILY,
        name: "out-of-range-named-syntax",
        bug: "numbers beyond the double range refused as syntax, not number_out_of_range",
        answer: |input| renames(input, "number_out_of_range", "syntax"),
    },
    Mutant {
        family: super::FAMILY,
        name: "syntax-named-duplicate",
        bug: "grammar errors refused as duplicate_key, not syntax",
        answer: |input| renames(input, "syntax", "duplicate_key"),
    },
    Mutant {
        family: super::FAMILY,
        name: "depth-named-syntax",
        bug: "nesting past the bound refused as syntax, not depth_limit",
        answer: |input| renames(input, "depth_limit", "syntax"),
    },
    Mutant {
        family: super::FAMILY,
        name: "invalid-utf8-named-syntax",
        bug: "invalid UTF-8 refused as syntax, not invalid_utf8",
        answer: |input| renames(input, "invalid_utf8", "syntax"),
    },
    Mutant {
        family: super::FAMILY,
        name: "serde-json-marker-read",
        bug: "a member named $serde_json::private::RawValue read as serde_json's raw-value marker, as the serde_json-based crates in process read it",
        answer: |input| {
            // Every crate of the list reads through serde_json, and so reads the marker.
            if let (Some(serde_based), true) = (
                RUST_CRATES.first(),
                contains(input, b"$serde_json::private::RawValue"),
            ) {
                serde_based.run_batch(&[input]).pop().unwrap_or(Outcome::Unsupported)
            } else {
                core(input)
            }
        },
    },
    Mutant {
        family: super::FAMILY,
        name: "past-the-doubles-as-null",
        bug: "an integer past the double range written in digits accepted and written null, as JSON.parse and JSON.stringify leave it",
        answer: |input| match core(input) {
            Outcome::Rejected(kind) if kind == "number_out_of_range" => {
                match parse(input).map(|mut tree| {
                    each_scalar(&mut tree, &mut |raw| {
                        if is_integer(raw) && raw.iter().filter(|b| b.is_ascii_digit()).count() > 308 {
                            *raw = b"null".to_vec();
                        }
                    });
                    tree.to_bytes()
                }) {
                    Some(nulled) => core(&nulled),
                    None => Outcome::Rejected(kind),
                }
            }
            other => other,
        },
    },
    Mutant {
        family: super::FAMILY,
        name: "low-surrogates-raw",
        bug: "an escaped lone low surrogate in DC80-DCFF written as its three raw bytes (WTF-8), not refused",
        answer: |input| match core(input) {
            Outcome::Rejected(kind) if kind == "lone_surrogate" => low_surrogates_raw(input),
            other => other,
        },
    },
];

/// Applies `f` to every scalar token of the tree.
fn each_scalar(node: &mut Node, f: &mut dyn FnMut(&mut Vec<u8>)) {
    match node {
        Node::Scalar(raw) => f(raw),
        Node::Array(items) => items.iter_mut().for_each(|i| each_scalar(i, f)),
        Node::Object(members) => members.iter_mut().for_each(|(name, value)| {
            f(name);
            each_scalar(value, f);
        }),
    }
}

/// An object's members: raw name tokens and values.
type Members = Vec<(Vec<u8>, Node)>;

/// Applies `f` to every object's member list, innermost first.
fn each_object(node: &mut Node, f: &mut dyn FnMut(&mut Members)) {
    match node {
        Node::Scalar(_) => {}
        Node::Array(items) => items.iter_mut().for_each(|i| each_object(i, f)),
        Node::Object(members) => {
            members.iter_mut().for_each(|(_, v)| each_object(v, f));
            f(members);
        }
    }
}

/// Whether a scalar token is an integer written in digits, with a minus sign at most.
fn is_integer(raw: &[u8]) -> bool {
    let digits = raw.strip_prefix(b"-").unwrap_or(raw);
    !digits.is_empty() && digits.iter().all(u8::is_ascii_digit)
}

/// The UTF-8 (for a surrogate, WTF-8) bytes of a code point below U+10000 that takes three.
fn three_bytes(c: u32) -> [u8; 3] {
    [
        0xE0 | (c >> 12) as u8,
        0x80 | ((c >> 6) & 0x3F) as u8,
        0x80 | (c & 0x3F) as u8,
    ]
}

/// Whether the text just before an escape ends in an escaped high surrogate.
fn after_a_high_half(before: &str) -> bool {
    before
        .len()
        .checked_sub(6)
        .and_then(|at| before.get(at..at + 4))
        .is_some_and(|e| {
            ["\\ud8", "\\ud9", "\\uda", "\\udb"]
                .iter()
                .any(|h| e.eq_ignore_ascii_case(h))
        })
}

/// The core's output for `input` with each escaped lone low surrogate in DC80-DCFF written as
/// its WTF-8 bytes: while the core writes the document, private-use characters U+F880-U+F8FF
/// stand in for them. The core's refusal when anything else is wrong, or when the document
/// already holds a character the stand-ins would be taken for.
fn low_surrogates_raw(input: &[u8]) -> Outcome {
    let refused = Outcome::Rejected("lone_surrogate".to_string());
    let Ok(text) = std::str::from_utf8(input) else {
        return refused;
    };
    let holds_stand_ins = text.chars().any(|c| ('\u{F880}'..='\u{F8FF}').contains(&c))
        || text.to_ascii_lowercase().contains("\\uf8");
    if holds_stand_ins {
        return refused;
    }
    let mut swapped = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("\\u") {
        let (before, from) = rest.split_at(at);
        swapped.push_str(before);
        let unit = from.get(2..6).and_then(|h| u32::from_str_radix(h, 16).ok());
        match unit {
            Some(low @ 0xDC80..=0xDCFF) if !after_a_high_half(&swapped) => {
                swapped.push_str(&format!("\\u{:04x}", low - 0xDC80 + 0xF880));
                rest = from.get(6..).unwrap_or_default();
            }
            _ => {
                swapped.push_str(from.get(..2).unwrap_or_default());
                rest = from.get(2..).unwrap_or_default();
            }
        }
    }
    swapped.push_str(rest);
    match core(swapped.as_bytes()) {
        Outcome::Ok(mut out) => {
            for low in 0xDC80..=0xDCFF_u32 {
                out = replace(&out, &three_bytes(low - 0xDC80 + 0xF880), &three_bytes(low));
            }
            Outcome::Ok(out)
        }
        _ => refused,
    }
}

fn is_number(raw: &[u8]) -> bool {
    matches!(raw.first(), Some(b'-' | b'0'..=b'9'))
}

fn is_string(raw: &[u8]) -> bool {
    raw.first() == Some(&b'"')
}

/// The decoded text of a raw string token, by serde_json (independent of the core).
fn decoded(raw: &[u8]) -> Vec<u8> {
    serde_json::from_slice::<String>(raw).map_or_else(|_| raw.to_vec(), String::into_bytes)
}

fn replace(raw: &[u8], from: &[u8], to: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(raw.len());
    let mut i = 0;
    while i < raw.len() {
        if raw[i..].starts_with(from) {
            out.extend_from_slice(to);
            i += from.len();
        } else {
            out.push(raw[i]);
            i += 1;
        }
    }
    out
}

/// The input with duplicate member names removed, the last of each kept.
fn without_duplicates(input: &[u8]) -> Option<Vec<u8>> {
    let mut tree = parse(input)?;
    each_object(&mut tree, &mut |members| {
        let mut kept: Vec<(Vec<u8>, Node)> = Vec::new();
        for (name, value) in members.drain(..) {
            let key = decoded(&name);
            kept.retain(|(n, _)| decoded(n) != key);
            kept.push((name, value));
        }
        *members = kept;
    });
    Some(tree.to_bytes())
}

/// `\u00xx` escapes of a string token with their hex in uppercase.
fn uppercase_escapes(raw: &mut Vec<u8>) {
    if !is_string(raw) {
        return;
    }
    let mut out = Vec::new();
    let mut i = 0;
    while i < raw.len() {
        if raw[i..].starts_with(b"\\u") && i + 6 <= raw.len() {
            out.extend_from_slice(b"\\u");
            out.extend(raw[i + 2..i + 6].iter().map(u8::to_ascii_uppercase));
            i += 6;
        } else if raw[i] == b'\\' && i + 1 < raw.len() {
            out.extend_from_slice(&raw[i..i + 2]);
            i += 2;
        } else {
            out.push(raw[i]);
            i += 1;
        }
    }
    *raw = out;
}

/// Zeros written as `-0` when the input had a negative zero.
fn minus_zero_kept(input: &[u8], tree: &mut Node) {
    let mut negative_zero = false;
    if let Some(mut source) = parse(input) {
        each_scalar(&mut source, &mut |raw| {
            let zero = std::str::from_utf8(raw)
                .ok()
                .and_then(|t| t.parse::<f64>().ok())
                == Some(0.0);
            negative_zero |= is_number(raw) && raw.first() == Some(&b'-') && zero;
        });
    }
    if negative_zero {
        each_scalar(tree, &mut |raw| {
            if raw == b"0" {
                *raw = b"-0".to_vec();
            }
        });
    }
}

/// Integers of more than 15 digits written as the input had them.
fn big_integers_verbatim(input: &[u8], tree: &mut Node) {
    let mut big = Vec::new();
    if let Some(mut source) = parse(input) {
        each_scalar(&mut source, &mut |raw| {
            let digits = raw.iter().filter(|b| b.is_ascii_digit()).count();
            let integer = raw
                .iter()
                .enumerate()
                .all(|(i, b)| b.is_ascii_digit() || (i == 0 && *b == b'-'));
            if integer && digits > 15 {
                if let Ok(canonical) = canonicalize(raw) {
                    big.push((canonical, raw.clone()));
                }
            }
        });
    }
    each_scalar(tree, &mut |raw| {
        if let Some((_, verbatim)) = big.iter().find(|(c, _)| c == raw) {
            *raw = verbatim.clone();
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(name: &str, input: &str) -> Outcome {
        let mutant = MUTANTS.iter().find(|m| m.name == name).unwrap();
        (mutant.answer)(input.as_bytes())
    }

    fn ok(s: &str) -> Outcome {
        Outcome::Ok(s.as_bytes().to_vec())
    }

    fn rejected(kind: &str) -> Outcome {
        Outcome::Rejected(kind.to_string())
    }

    #[test]
    fn each_mutant_has_its_bug() {
        let cases = [
            (
                "utf8-member-order",
                "{\"\u{ff61}\":1,\"\u{10000}\":2}",
                ok("{\"\u{ff61}\":1,\"\u{10000}\":2}"),
            ),
            (
                "rust-float-format",
                "[1e21,1e-7]",
                ok("[1000000000000000000000,0.0000001]"),
            ),
            ("slash-escaped", r#"["a/b"]"#, ok(r#"["a\/b"]"#)),
            ("uppercase-hex-escapes", r#""\u001f""#, ok(r#""\u001F""#)),
            ("minus-zero-kept", "[-0.0]", ok("[-0]")),
            ("exponent-without-plus", "1e21", ok("1e21")),
            (
                "big-integers-verbatim",
                "[9007199254740993]",
                ok("[9007199254740993]"),
            ),
            (
                "duplicates-accepted",
                r#"{"a":1,"\u0061":2}"#,
                ok(r#"{"a":2}"#),
            ),
            (
                "escapes-refused-as-duplicate",
                r#"{"a":"\u0041"}"#,
                rejected("duplicate_key"),
            ),
            (
                "pairs-refused-as-lone",
                r#""\uD83D\uDE00""#,
                rejected("lone_surrogate"),
            ),
            (
                "large-exponents-refused",
                "[1e300]",
                rejected("number_out_of_range"),
            ),
            (
                "shallow-depth-limit",
                &format!("{}{}", "[".repeat(21), "]".repeat(21)),
                rejected("depth_limit"),
            ),
            (
                "astral-refused-as-invalid-utf8",
                "\"\u{10000}\"",
                rejected("invalid_utf8"),
            ),
            ("empty-containers-refused", "[{}]", rejected("syntax")),
            (
                "duplicate-named-syntax",
                r#"{"a":1,"a":2}"#,
                rejected("syntax"),
            ),
            (
                "lone-surrogate-named-utf8",
                r#""\ud800""#,
                rejected("invalid_utf8"),
            ),
            ("out-of-range-named-syntax", "1e400", rejected("syntax")),
            ("syntax-named-duplicate", "[1,]", rejected("duplicate_key")),
            (
                "invalid-utf8-named-syntax",
                "\"\u{fffd}\"",
                ok("\"\u{fffd}\""),
            ),
        ];
        for (name, input, want) in cases {
            assert_eq!(run(name, input), want, "{name} on {input}");
        }
        assert_eq!(
            (MUTANTS
                .iter()
                .find(|m| m.name == "invalid-utf8-named-syntax")
                .unwrap()
                .answer)(b"\"\xff\""),
            rejected("syntax")
        );
        let deep = format!("{}{}", "[".repeat(10_001), "]".repeat(10_001));
        assert_eq!(run("depth-named-syntax", &deep), rejected("syntax"));
        // The marker's object read as the JSON its string holds, as serde_json reads it.
        assert_eq!(
            run(
                "serde-json-marker-read",
                r#"[{"$serde_json::private::RawValue":"[1]"}]"#
            ),
            ok("[[1]]")
        );
        // 1 followed by 309 zeros, past the largest double; written with an exponent it
        // stays refused.
        let past = format!("[1{}]", "0".repeat(309));
        assert_eq!(run("past-the-doubles-as-null", &past), ok("[null]"));
        assert_eq!(
            run("past-the-doubles-as-null", "[1e400]"),
            rejected("number_out_of_range")
        );
        // U+DC80 as WTF-8, ED B2 80; a pair is written as the core writes it, and a lone
        // low surrogate below DC80 stays refused.
        assert_eq!(
            run("low-surrogates-raw", r#"["\uDC80x"]"#),
            Outcome::Ok(b"[\"\xed\xb2\x80x\"]".to_vec())
        );
        assert_eq!(
            run("low-surrogates-raw", r#""\ud800\udc80""#),
            ok("\"\u{10080}\"")
        );
        assert_eq!(
            run("low-surrogates-raw", r#""\udc7f""#),
            rejected("lone_surrogate")
        );
    }

    #[test]
    fn on_what_it_does_not_touch_each_mutant_is_the_core() {
        for m in MUTANTS {
            let input = br#"{"b":[1,2.5,"x"],"a":true}"#;
            assert_eq!((m.answer)(input), core(input), "{}", m.name);
        }
    }
}
