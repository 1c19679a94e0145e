//! What a canonicalizer did wrong, in the words of RFC 8785: which rule an answer breaks and
//! the shape of the difference ("pads the exponent with zeros", "orders names by code point"),
//! read from the expected and the actual text token by token; and who is to blame when a
//! library is driven through a host parser that lost what it would have needed.

use crate::bugs::Difference;
use crate::family::Answer;
use crate::outcome::Outcome;
use crate::tree;

use super::drivers::driver;

/// Error kinds whose cause a host parser removes before a library sees the value: it refuses
/// the text itself or keeps one of two equal names, and the library cannot tell.
const LOST_IN_PARSING: [&str; 3] = ["syntax", "invalid_utf8", "duplicate_key"];

/// Error kinds only a reader of text can give: a library given a parsed value has no text to
/// find them in.
const TEXT_ERRORS: [&str; 2] = ["syntax", "invalid_utf8"];

/// The member name serde_json's `Value` takes, with serde_json's `raw_value` feature on, for
/// a marker: the object is read as the JSON text its member's string holds, or refused when
/// the member is not a string. Cargo turns a feature on for every crate of a build once one
/// crate asks for it (the harness's core does), so every library given serde_json's values
/// in such a build reads another document than the one it was given.
const RAW_VALUE_MARKER: &str = "$serde_json::private::RawValue";

/// Whether `answer` comes through serde_json from an input holding a member named
/// [`RAW_VALUE_MARKER`]: then serde_json, not the library, chose what was read.
fn read_as_raw_value(answer: &Answer<'_>) -> bool {
    driver(answer.implementation).and_then(|d| d.parser) == Some("serde_json")
        && tokens(answer.input).windows(2).any(|pair| {
            matches!(pair, [name, colon]
                if name.kind == Kind::String
                    && colon.raw == b":"
                    && meaning(name) == RAW_VALUE_MARKER)
        })
}

/// The implementation, or the host parser it is driven through when the rule is one that
/// parser applies (or fails to) before the library is called.
pub fn blame(answer: &Answer<'_>) -> String {
    let parser = driver(answer.implementation).and_then(|d| d.parser);
    match (parser, answer.expected, answer.actual) {
        (Some(parser), _, _) if read_as_raw_value(answer) => parser.to_string(),
        (Some(parser), Outcome::Rejected(kind), Outcome::Ok(_))
            if LOST_IN_PARSING.contains(&kind.as_str()) =>
        {
            parser.to_string()
        }
        (Some(parser), Outcome::Ok(_), Outcome::Rejected(kind))
            if TEXT_ERRORS.contains(&kind.as_str()) =>
        {
            parser.to_string()
        }
        _ => answer.implementation.to_string(),
    }
}

/// The rule an error kind belongs to, as the corpus's categories name them.
fn rule_of(kind: &str) -> &'static str {
    match kind {
        "syntax" | "invalid_utf8" => "grammar",
        "duplicate_key" | "lone_surrogate" => "I-JSON",
        "number_out_of_range" => "numbers",
        "depth_limit" => "limits",
        _ => "documents",
    }
}

/// The rule and shape of a difference between what RFC 8785 asks for and what was answered.
pub fn difference(answer: &Answer<'_>) -> Option<Difference> {
    let d = |rule: &str, shape: String| Difference {
        rule: rule.to_string(),
        shape,
    };
    let input = answer.input;
    if read_as_raw_value(answer) {
        return Some(d(
            "documents",
            format!(
                "reads a member named {RAW_VALUE_MARKER} as the JSON text it holds (its raw_value feature)"
            ),
        ));
    }
    match (answer.expected, answer.actual) {
        (Outcome::Ok(want), Outcome::Ok(got)) => {
            let (rule, shape) = written(input, want, got);
            Some(d(rule, shape))
        }
        (Outcome::Rejected(kind), Outcome::Ok(_)) if !kind.is_empty() => {
            let shape = match kind.as_str() {
                "duplicate_key" => "accepts a duplicate member name".to_string(),
                "lone_surrogate" => "accepts a lone surrogate".to_string(),
                "number_out_of_range" => "accepts a number beyond the doubles".to_string(),
                "invalid_utf8" => "accepts text that is not UTF-8".to_string(),
                "syntax" => "accepts text that is not JSON".to_string(),
                "depth_limit" => "accepts nesting past the limit".to_string(),
                other => format!("accepts what is refused as {other}"),
            };
            Some(d(rule_of(kind), shape))
        }
        // A double holds an integer past 2^53 only rounded, and libraries refuse it under
        // whatever error they raise; a refusal naming a problem of its own is named by it.
        (Outcome::Ok(_), Outcome::Rejected(kind)) => {
            let rule = rule_of(kind);
            Some(
                if matches!(rule, "numbers" | "documents") && has_big_integer(input) {
                    d("numbers", "refuses an integer past 2^53".to_string())
                } else {
                    d(rule, format!("refuses a valid input as {kind}"))
                },
            )
        }
        // Refused as it should be, naming another problem: filed under the rule of the one
        // expected, as a vector of that problem is.
        (Outcome::Rejected(want), Outcome::Rejected(_)) if !want.is_empty() => Some(d(
            rule_of(want),
            "refuses, naming another problem".to_string(),
        )),
        _ => None,
    }
}

/// Whether the input holds an integer literal past 2^53, which a double holds only rounded.
fn has_big_integer(input: &[u8]) -> bool {
    tokens(input).iter().any(|t| {
        t.kind == Kind::Number
            && !t.raw.iter().any(|b| matches!(b, b'.' | b'e' | b'E'))
            && t.raw.iter().filter(|b| b.is_ascii_digit()).count() >= 16
            && text(t.raw)
                .trim_start_matches('-')
                .parse::<u64>()
                .map_or(true, |n| n > 1 << 53)
    })
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    String,
    Number,
    Other,
}

/// One lexical token of JSON text.
#[derive(Debug, Clone, Copy)]
struct Token<'a> {
    kind: Kind,
    raw: &'a [u8],
}

fn text(raw: &[u8]) -> String {
    String::from_utf8_lossy(raw).into_owned()
}

/// The tokens of JSON text, whitespace dropped, read as the minimizer's tree reads them; text
/// that is not JSON gives tokens all the same (a comparison of two answers needs no
/// validation).
fn tokens(text: &[u8]) -> Vec<Token<'_>> {
    let mut out = Vec::new();
    let mut pos = 0;
    loop {
        tree::skip_ws(text, &mut pos);
        let Some(&first) = text.get(pos) else {
            return out;
        };
        let start = pos;
        let kind = if first == b'"' {
            if tree::string_token(text, &mut pos).is_none() {
                pos = text.len();
            }
            Kind::String
        } else if tree::scalar_token(text, &mut pos).is_some() {
            match first {
                b'-' | b'0'..=b'9' => Kind::Number,
                _ => Kind::Other,
            }
        } else {
            pos += 1;
            Kind::Other
        };
        out.push(Token {
            kind,
            raw: text.get(start..pos.min(text.len())).unwrap_or_default(),
        });
    }
}

/// What a token means, spelling aside: a string's characters, a number's double.
fn meaning(token: &Token<'_>) -> String {
    match token.kind {
        Kind::String => {
            serde_json::from_slice::<String>(token.raw).unwrap_or_else(|_| text(token.raw))
        }
        Kind::Number => text(token.raw)
            .parse::<f64>()
            // ECMAScript writes negative zero as 0: the two mean one number here.
            .map_or_else(|_| text(token.raw), |n: f64| format!("{:e}", n + 0.0)),
        Kind::Other => text(token.raw),
    }
}

/// The rule and shape of two accepted texts that differ.
fn written(input: &[u8], want: &[u8], got: &[u8]) -> (&'static str, String) {
    let (w, g) = (tokens(want), tokens(got));
    let (wm, gm): (Vec<String>, Vec<String>) = (
        w.iter().map(meaning).collect(),
        g.iter().map(meaning).collect(),
    );
    if wm == gm {
        // The same values, spelt otherwise.
        let Some((a, b)) = w.iter().zip(&g).find(|(a, b)| a.raw != b.raw) else {
            return ("documents", "writes other whitespace".to_string());
        };
        return match a.kind {
            Kind::Number => ("numbers", number_spelling(&text(a.raw), &text(b.raw))),
            Kind::String => ("escapes", escape_spelling(a.raw, b.raw)),
            Kind::Other => ("documents", "writes other punctuation".to_string()),
        };
    }
    let (mut ws, mut gs) = (wm.clone(), gm.clone());
    ws.sort();
    gs.sort();
    let first = wm.iter().zip(&gm).position(|(a, b)| a != b);
    if ws == gs {
        if let Some(i) = first {
            if let (Some(a), Some(b)) = (w.get(i), g.get(i)) {
                return ("ordering", order_shape(input, &meaning(a), &meaning(b)));
            }
        }
        return ("ordering", "orders members otherwise".to_string());
    }
    match first.and_then(|i| Some((w.get(i)?, g.get(i)?))) {
        Some((a, b)) if a.kind == Kind::Number && b.kind == Kind::Number => {
            ("numbers", "writes a number with another value".to_string())
        }
        Some((a, b)) if a.kind == Kind::Number && b.kind == Kind::String => {
            ("numbers", "writes a number as a string".to_string())
        }
        Some((a, b)) if a.kind == Kind::String && b.kind == Kind::String => (
            "escapes",
            "writes a string with other characters".to_string(),
        ),
        _ => ("documents", "writes another document".to_string()),
    }
}

/// The parts of a number literal: sign, digits before and after the point, and the exponent
/// as written (marker, sign, digits).
struct Literal {
    negative: bool,
    integer: String,
    fraction: String,
    exponent: Option<(char, Option<char>, String)>,
}

fn literal(text: &str) -> Literal {
    let (negative, rest) = match text.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, text),
    };
    let (mantissa, exponent) = match rest.find(['e', 'E']) {
        Some(i) => {
            let (m, e) = rest.split_at(i);
            let mut chars = e.chars();
            let marker = chars.next().unwrap_or('e');
            let after: String = chars.collect();
            let sign = after.chars().next().filter(|c| matches!(c, '+' | '-'));
            let digits = after.trim_start_matches(['+', '-']).to_string();
            (m, Some((marker, sign, digits)))
        }
        None => (rest, None),
    };
    let (integer, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    Literal {
        negative,
        integer: integer.to_string(),
        fraction: fraction.to_string(),
        exponent,
    }
}

/// How `got` spells the number ECMAScript spells `want`, by the first part that differs.
fn number_spelling(want: &str, got: &str) -> String {
    let (w, g) = (literal(want), literal(got));
    let significant = |l: &Literal| {
        format!("{}{}", l.integer, l.fraction)
            .trim_matches('0')
            .len()
    };
    let shape = match (&w.exponent, &g.exponent) {
        (None, Some(_)) => "writes an exponent where ECMAScript writes none",
        (Some(_), None) => "writes in full what ECMAScript writes with an exponent",
        (Some((_, ws, wd)), Some((gm, gs, gd))) => {
            if *gm == 'E' {
                "writes the exponent with a capital E"
            } else if gd.len() > wd.len() && gd.starts_with('0') {
                "pads the exponent with zeros"
            } else if ws != gs && *gs == Some('+') {
                "writes a + ECMAScript leaves out"
            } else if ws != gs {
                "leaves out the + of a positive exponent"
            } else if significant(&g) > significant(&w) {
                "writes more digits than the shortest round trip"
            } else {
                "places the decimal point otherwise"
            }
        }
        (None, None) => {
            let integer = |l: &Literal| l.fraction.is_empty() && l.integer.len() > 15;
            if w.negative != g.negative {
                "writes the sign of zero"
            } else if integer(&w) && integer(&g) {
                "writes an integer past 2^53 as written, not as its double"
            } else if !g.fraction.is_empty() && g.fraction.trim_end_matches('0').is_empty() {
                "writes a fraction of zeros on an integer"
            } else if significant(&g) > significant(&w) {
                "writes more digits than the shortest round trip"
            } else {
                "writes other digits for the same double"
            }
        }
    };
    shape.to_string()
}

/// What one unit of a JSON string is, spelt as at the start of `raw`.
fn unit(raw: &[u8]) -> &'static str {
    match raw {
        [b'\\', b'u', rest @ ..] => {
            let hex = rest.get(..4).unwrap_or_default();
            if hex.iter().any(u8::is_ascii_uppercase) {
                "a \\u escape in capitals"
            } else {
                "a \\u escape"
            }
        }
        [b'\\', b'/', ..] => "an escaped solidus",
        [b'\\', ..] => "a two-character escape",
        [c, ..] if *c < 0x20 => "a raw control character",
        [0x7f, ..] => "a raw DEL",
        [c, ..] if c.is_ascii() => "a raw ASCII character",
        _ => "a raw non-ASCII character",
    }
}

/// How `got` spells the string RFC 8785 spells `want`, by the first unit that differs.
fn escape_spelling(want: &[u8], got: &[u8]) -> String {
    let at = crate::bugs::first_difference(want, got);
    // Step back to the start of the unit: an escape's backslash, or a character's first byte.
    let start = |raw: &[u8]| {
        let mut i = at.min(raw.len());
        while i > 0 && raw.get(i).is_some_and(|b| (0x80..0xc0).contains(b)) {
            i -= 1;
        }
        let backslash = raw
            .get(..i)
            .and_then(|head| head.iter().rposition(|&b| b == b'\\'))
            .filter(|&j| i - j < 6 && raw.get(j + 1) == Some(&b'u') || i - j == 1);
        backslash.unwrap_or(i)
    };
    let (w, g) = (
        want.get(start(want)..).unwrap_or_default(),
        got.get(start(got)..).unwrap_or_default(),
    );
    format!("writes {} as {}", unit(w), unit(g))
}

/// How `got` orders names where RFC 8785 puts `want` first.
fn order_shape(input: &[u8], want: &str, got: &str) -> String {
    let position = |name: &str| {
        tokens(input)
            .iter()
            .position(|t| t.kind == Kind::String && meaning(t) == name)
    };
    if got < want {
        "orders names by code point, not UTF-16 code units".to_string()
    } else if position(got) < position(want) {
        "keeps names in the order of the input".to_string()
    } else {
        "orders names otherwise".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(input: &str, want: &str, got: &str) -> (String, String) {
        let d = difference(&Answer {
            implementation: "lib",
            input: input.as_bytes(),
            expected: &Outcome::Ok(want.as_bytes().to_vec()),
            actual: &Outcome::Ok(got.as_bytes().to_vec()),
        })
        .unwrap();
        (d.rule, d.shape)
    }

    /// Each case (the spelling RFC 8785 gives, another, and the shape expected) read under
    /// `rule`.
    fn each_written(cases: &[(&str, &str, &str)], rule: &str) {
        for (want, got, expected) in cases {
            assert_eq!(
                shape(want, want, got),
                (rule.to_string(), expected.to_string()),
                "{want} {got}"
            );
        }
    }

    #[test]
    fn numbers_are_told_apart_by_the_part_written_otherwise() {
        // Expected spellings: RFC 8785 §3.2.2.3 and Appendix B (ECMAScript Number::toString).
        let cases = [
            ("[4e-9]", "[4e-09]", "pads the exponent with zeros"),
            (
                "[1e+21]",
                "[1000000000000000000000]",
                "writes in full what ECMAScript writes with an exponent",
            ),
            ("[1e+21]", "[1E+21]", "writes the exponent with a capital E"),
            (
                "[1e+21]",
                "[1e21]",
                "leaves out the + of a positive exponent",
            ),
            (
                "[100]",
                "[1e2]",
                "writes an exponent where ECMAScript writes none",
            ),
            ("[1]", "[1.0]", "writes a fraction of zeros on an integer"),
            (
                "[0.3]",
                "[0.30000000000000004]",
                "writes a number with another value",
            ),
            ("[0]", "[-0]", "writes the sign of zero"),
            (
                "[50897881484818090]",
                "[50897881484818089]",
                "writes an integer past 2^53 as written, not as its double",
            ),
            ("[1]", "[\"1\"]", "writes a number as a string"),
        ];
        each_written(&cases, "numbers");
    }

    #[test]
    fn strings_are_told_apart_by_the_unit_written_otherwise() {
        // RFC 8785 §3.2.2.2: \b, \f, \n, \r, \t as two characters, other controls as \u00xx in
        // lower case, everything else raw.
        let cases = [
            (
                r#"["\b"]"#,
                r#"["\u0008"]"#,
                "writes a two-character escape as a \\u escape",
            ),
            (
                r#"["\u001f"]"#,
                r#"["\u001F"]"#,
                "writes a \\u escape as a \\u escape in capitals",
            ),
            (
                "[\"x\u{7f}\"]",
                r#"["x\u007f"]"#,
                "writes a raw DEL as a \\u escape",
            ),
            (
                "[\"é\"]",
                r#"["\u00e9"]"#,
                "writes a raw non-ASCII character as a \\u escape",
            ),
            (
                r#"["/"]"#,
                r#"["\/"]"#,
                "writes a raw ASCII character as an escaped solidus",
            ),
        ];
        each_written(&cases, "escapes");
    }

    #[test]
    fn an_order_is_named_by_the_rule_that_gives_it() {
        // U+FF61 sorts after U+10000 by code point, before it by UTF-16 code units (D800 DC00).
        let input = "{\"\u{10000}\":0,\"\u{ff61}\":1}";
        let by_code_point = "{\"\u{ff61}\":1,\"\u{10000}\":0}";
        assert_eq!(
            shape(input, input, by_code_point),
            (
                "ordering".to_string(),
                "orders names by code point, not UTF-16 code units".to_string()
            )
        );
        assert_eq!(
            shape(
                "{\"b\":0,\"a\":1}",
                "{\"a\":1,\"b\":0}",
                "{\"b\":0,\"a\":1}"
            )
            .1,
            "keeps names in the order of the input"
        );
    }

    #[test]
    fn refusals_of_valid_numbers_are_one_behaviour() {
        let refused = |input: &str| {
            difference(&Answer {
                implementation: "lib",
                input: input.as_bytes(),
                expected: &Outcome::Ok(input.as_bytes().to_vec()),
                actual: &Outcome::Rejected("other".into()),
            })
            .unwrap()
        };
        assert_eq!(
            refused("[9007199254740996]"),
            refused("{\"a\":[1,-18014398509481984]}")
        );
        assert_eq!(refused("[9007199254740996]").rule, "numbers");
        assert_eq!(refused("[\"x\"]").rule, "documents");
    }

    #[test]
    fn serde_json_is_blamed_for_the_member_name_its_raw_value_feature_reads() {
        use serde_json::Value;
        // serde_json itself, no library between: with raw_value on (as in this build), an
        // object whose member is the marker is read as the text of its string, or refused.
        let marked = r#"{"$serde_json::private::RawValue":"[]"}"#;
        let read: Value = serde_json::from_str(marked).unwrap();
        assert_eq!(read, serde_json::json!([]));
        assert!(serde_json::from_str::<Value>(r#"{"$serde_json::private::RawValue":0}"#).is_err());
        // So a serde_json-driven library's answers on it are serde_json's bug, one however
        // they come out; a library reading text itself keeps its own.
        let key_of = |implementation: &str, input: &str, actual: Outcome| {
            let observation = crate::bugs::Observation {
                implementation: implementation.to_string(),
                input: input.as_bytes().to_vec(),
                expected: Outcome::Ok(input.as_bytes().to_vec()),
                actual,
                category: "documents".to_string(),
                vector: None,
                cases: 1,
                new: true,
                first_met: None,
            };
            crate::bugs::key(super::super::FAMILY, &observation).unwrap()
        };
        let canon_json = key_of("canon-json", marked, Outcome::Ok(b"[]".to_vec()));
        let serde_jcs = key_of(
            "serde_jcs",
            r#"{"$serde_json::private::RawValue":0}"#,
            Outcome::Rejected("syntax".into()),
        );
        assert_eq!(canon_json.blamed, "serde_json");
        assert_eq!(serde_jcs.blamed, "serde_json");
        assert_eq!(canon_json.shape, serde_jcs.shape);
        assert!(canon_json.shape.contains("$serde_json::private::RawValue"));
        // As a value, not a name, the marker is a string like any other.
        let valued = key_of(
            "canon-json",
            r#"["$serde_json::private::RawValue"]"#,
            Outcome::Ok(b"[]".to_vec()),
        );
        assert_eq!(valued.blamed, "canon-json");
        let syntax = key_of("json-syntax", marked, Outcome::Ok(b"[]".to_vec()));
        assert_eq!(syntax.blamed, "json-syntax");
    }
}
