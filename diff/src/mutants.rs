//! Planted mutants of the core: each is the core with one classic canonicalization bug, so the
//! self-test can show that the harness notices it. They work on the core's input and output
//! with the lenient syntax tree, never inside the core.

use canonfuzz_core::jcs::{canonicalize, Canonicalizer};

use crate::impls::{core_answer, Implementation, CORE_GROUP};
use crate::outcome::Outcome;
use crate::tree::{parse, Node};

/// One planted bug.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mutation {
    /// Members sorted by UTF-8 bytes instead of UTF-16 code units.
    Utf8MemberOrder,
    /// Numbers written by Rust's `Display` for f64 instead of ECMAScript's rules.
    RustFloatFormat,
    /// `/` escaped as `\/`.
    SlashEscaped,
    /// `\u00xx` escapes written with uppercase hex.
    UppercaseHexEscapes,
    /// `-0` written as `-0`.
    MinusZeroKept,
    /// Exponents written without `+` (`1e21`).
    ExponentWithoutPlus,
    /// Integers beyond 2^53 written as they came, not rounded to a double.
    BigIntegersVerbatim,
    /// Duplicate member names accepted, the last one kept.
    DuplicatesAccepted,
}

impl Mutation {
    /// Every mutant, in report order.
    pub const ALL: [Mutation; 8] = [
        Mutation::Utf8MemberOrder,
        Mutation::RustFloatFormat,
        Mutation::SlashEscaped,
        Mutation::UppercaseHexEscapes,
        Mutation::MinusZeroKept,
        Mutation::ExponentWithoutPlus,
        Mutation::BigIntegersVerbatim,
        Mutation::DuplicatesAccepted,
    ];

    /// A stable name.
    pub fn name(self) -> &'static str {
        match self {
            Mutation::Utf8MemberOrder => "utf8-member-order",
            Mutation::RustFloatFormat => "rust-float-format",
            Mutation::SlashEscaped => "slash-escaped",
            Mutation::UppercaseHexEscapes => "uppercase-hex-escapes",
            Mutation::MinusZeroKept => "minus-zero-kept",
            Mutation::ExponentWithoutPlus => "exponent-without-plus",
            Mutation::BigIntegersVerbatim => "big-integers-verbatim",
            Mutation::DuplicatesAccepted => "duplicates-accepted",
        }
    }
}

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

/// Rewrites the core's canonical output (and, for some mutants, uses the input) the way the
/// mutant would have written it.
fn mutate(mutation: Mutation, input: &[u8], output: Vec<u8>) -> Vec<u8> {
    let Some(mut tree) = parse(&output) else {
        return output;
    };
    match mutation {
        Mutation::Utf8MemberOrder => each_object(&mut tree, &mut |members| {
            members.sort_by_key(|m| decoded(&m.0))
        }),
        Mutation::RustFloatFormat => each_scalar(&mut tree, &mut |raw| {
            if is_number(raw) {
                if let Some(v) = std::str::from_utf8(raw)
                    .ok()
                    .and_then(|t| t.parse::<f64>().ok())
                {
                    *raw = format!("{v}").into_bytes();
                }
            }
        }),
        Mutation::SlashEscaped => each_scalar(&mut tree, &mut |raw| {
            if is_string(raw) {
                *raw = replace(raw, b"/", b"\\/");
            }
        }),
        Mutation::UppercaseHexEscapes => each_scalar(&mut tree, &mut |raw| {
            if is_string(raw) {
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
        }),
        Mutation::MinusZeroKept => {
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
                each_scalar(&mut tree, &mut |raw| {
                    if raw == b"0" {
                        *raw = b"-0".to_vec();
                    }
                });
            }
        }
        Mutation::ExponentWithoutPlus => each_scalar(&mut tree, &mut |raw| {
            if is_number(raw) {
                *raw = replace(raw, b"e+", b"e");
            }
        }),
        Mutation::BigIntegersVerbatim => {
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
            each_scalar(&mut tree, &mut |raw| {
                if let Some((_, verbatim)) = big.iter().find(|(c, _)| c == raw) {
                    *raw = verbatim.clone();
                }
            });
        }
        Mutation::DuplicatesAccepted => {}
    }
    tree.to_bytes()
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

/// The core with one planted bug, standing in for the core in a comparison.
pub struct MutantImpl {
    mutation: Mutation,
}

impl MutantImpl {
    /// The mutant with this bug.
    pub fn new(mutation: Mutation) -> MutantImpl {
        MutantImpl { mutation }
    }

    fn run_one(&self, canonicalizer: &mut Canonicalizer, input: &[u8]) -> Outcome {
        match core_answer(canonicalizer, input) {
            Outcome::Ok(out) => Outcome::Ok(mutate(self.mutation, input, out)),
            Outcome::Rejected(kind)
                if self.mutation == Mutation::DuplicatesAccepted && kind == "duplicate_key" =>
            {
                match without_duplicates(input) {
                    Some(deduped) => core_answer(canonicalizer, &deduped),
                    None => Outcome::Rejected(kind),
                }
            }
            other => other,
        }
    }
}

impl Implementation for MutantImpl {
    fn name(&self) -> &str {
        crate::compare::CORE
    }

    fn version(&self) -> String {
        format!("mutant {}", self.mutation.name())
    }

    fn group(&self) -> &str {
        CORE_GROUP
    }

    fn run_batch(&self, inputs: &[&[u8]]) -> Vec<Outcome> {
        let mut canonicalizer = Canonicalizer::default();
        inputs
            .iter()
            .map(|i| self.run_one(&mut canonicalizer, i))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(mutation: Mutation, input: &str) -> Outcome {
        MutantImpl::new(mutation)
            .run_batch(&[input.as_bytes()])
            .remove(0)
    }

    fn ok(s: &str) -> Outcome {
        Outcome::Ok(s.as_bytes().to_vec())
    }

    #[test]
    fn each_mutant_has_its_bug() {
        assert_eq!(
            run(
                Mutation::Utf8MemberOrder,
                "{\"\u{ff61}\":1,\"\u{10000}\":2}"
            ),
            ok("{\"\u{ff61}\":1,\"\u{10000}\":2}")
        );
        assert_eq!(
            run(Mutation::RustFloatFormat, "[1e21,1e-7]"),
            ok("[1000000000000000000000,0.0000001]")
        );
        assert_eq!(run(Mutation::SlashEscaped, r#"["a/b"]"#), ok(r#"["a\/b"]"#));
        assert_eq!(
            run(Mutation::UppercaseHexEscapes, r#""\u001f""#),
            ok(r#""\u001F""#)
        );
        assert_eq!(run(Mutation::MinusZeroKept, "[-0.0]"), ok("[-0]"));
        assert_eq!(run(Mutation::ExponentWithoutPlus, "1e21"), ok("1e21"));
        assert_eq!(
            run(Mutation::BigIntegersVerbatim, "[9007199254740993]"),
            ok("[9007199254740993]")
        );
        assert_eq!(
            run(Mutation::DuplicatesAccepted, r#"{"a":1,"\u0061":2}"#),
            ok(r#"{"a":2}"#)
        );
    }
}
