//! The worker protocol's wire format: the hello and what a worker says of itself, requests in
//! protocol 1's base64 or the plain form, and answers read as outcomes or called garbage.

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use serde::Deserialize;

use crate::outcome::{classify_message, Outcome};

/// The protocol's first line, which the harness sends before any input: the protocol's
/// version and the family whose inputs follow, from which canonfuzz's own workers load that
/// family's libraries.
pub(super) fn hello(family: &str) -> String {
    serde_json::json!({"canonfuzz": 1, "family": family}).to_string()
}

/// What a worker said of itself in answer to the protocol's first line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hello {
    /// Whether it speaks protocol 1 (inputs as base64) rather than the plain form.
    pub framed: bool,
    /// The implementation and its version, as a protocol-1 worker names them.
    pub version: Option<String>,
    /// What it computes with underneath (a crypto library and its version), if it says.
    pub uses: Option<String>,
}

/// The form a worker speaks, from its answer to the protocol's first line: a protocol-1 worker
/// answers `{"canonfuzz":1,"name":…,"version":…,"uses":…}`; a plain one answers the line as
/// an input.
pub(super) fn read_hello(line: &[u8]) -> Hello {
    #[derive(Deserialize)]
    struct Greeting {
        canonfuzz: u64,
        #[serde(default)]
        name: Option<String>,
        #[serde(default)]
        version: Option<String>,
        #[serde(default)]
        uses: Option<String>,
    }
    match serde_json::from_slice::<Greeting>(line) {
        Ok(g) if g.canonfuzz == 1 => Hello {
            framed: true,
            version: match (g.name, g.version) {
                (Some(name), Some(version)) => Some(format!("{name} {version}")),
                (name, version) => name.or(version),
            },
            uses: g.uses,
        },
        _ => Hello {
            framed: false,
            version: None,
            uses: None,
        },
    }
}

/// How protocol 1 wraps an input's base64 into a request line.
pub(super) const REQUEST_HEAD: &[u8] = br#"{"input":""#;

pub(super) const REQUEST_TAIL: &[u8] = b"\"}\n";

/// The length of `input` in padded base64.
pub(super) fn base64_len(input: &[u8]) -> usize {
    input.len().div_ceil(3) * 4
}

/// One input as a request line in the form the worker speaks, appended to `line`; the base64
/// is written in place, not built apart and copied.
pub(super) fn request(input: &[u8], framed: bool, line: &mut Vec<u8>) {
    if framed {
        line.extend_from_slice(REQUEST_HEAD);
        let start = line.len();
        line.resize(start + base64_len(input), 0);
        match line
            .get_mut(start..)
            .map(|space| STANDARD.encode_slice(input, space))
        {
            Some(Ok(written)) => line.truncate(start + written),
            // The space is the encoding's exact length; were it not, the input would still
            // go whole rather than empty.
            _ => {
                line.truncate(start);
                line.extend_from_slice(STANDARD.encode(input).as_bytes());
            }
        }
        line.extend_from_slice(REQUEST_TAIL);
    } else {
        line.extend_from_slice(input);
        line.push(b'\n');
    }
}

/// The length of [`request`]'s line for `input`.
pub(super) fn request_len(input: &[u8], framed: bool) -> usize {
    if framed {
        REQUEST_HEAD.len() + base64_len(input) + REQUEST_TAIL.len()
    } else {
        input.len() + 1
    }
}

/// How a garbage answer's outcome begins.
pub(super) const GARBAGE: &str = "answered garbage";

/// Reads one protocol answer; anything else is garbage. An answer whose text escapes a lone
/// surrogate (a lax library's output, which no Unicode text holds) is read with U+FFFD in its
/// place. A verifier's `rejected` is not classified: its reasons are not compared.
pub(super) fn parse_answer(line: &[u8]) -> Outcome {
    match plain_ok(line) {
        Some(text) => Outcome::Ok(text.to_vec()),
        None => read_answer(line),
    }
}

/// [`parse_answer`] by the JSON parser alone.
pub(super) fn read_answer(line: &[u8]) -> Outcome {
    let read = serde_json::from_slice::<Answer>(line)
        .or_else(|_| serde_json::from_slice::<Answer>(&without_lone_surrogates(line)));
    match read {
        Ok(Answer {
            ok: None,
            error: None,
            unsupported: true,
        }) => Outcome::Unsupported,
        Ok(Answer {
            ok: Some(ok),
            error: None,
            unsupported: false,
        }) => Outcome::Ok(ok.into_bytes()),
        Ok(Answer {
            ok: None,
            error: Some(error),
            unsupported: false,
        }) => match error.kind.as_str() {
            "other" => Outcome::Rejected(classify_message(&error.message)),
            "rejected" => Outcome::Rejected("other".to_string()),
            "crashed" => Outcome::Crashed(error.message),
            _ => Outcome::Rejected(error.kind),
        },
        _ => Outcome::Crashed(format!("{GARBAGE}: {:?}", String::from_utf8_lossy(line))),
    }
}

/// The text of the commonest answer, `{"ok":"…"}` whose string holds no escape, read without
/// a JSON parser: `None` for any other line, which the parser then reads. A string without a
/// backslash, a quote or a control character, in valid UTF-8, is its own text.
pub(super) fn plain_ok(line: &[u8]) -> Option<&[u8]> {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    let text = line.strip_prefix(br#"{"ok":""#)?.strip_suffix(br#""}"#)?;
    let plain = text.iter().all(|&b| b >= 0x20 && b != b'"' && b != b'\\');
    (plain && std::str::from_utf8(text).is_ok()).then_some(text)
}

/// `line` with every `\uXXXX` escape of an unpaired surrogate replaced by `\ufffd`.
pub(super) fn without_lone_surrogates(line: &[u8]) -> Vec<u8> {
    let unit = |at: usize| -> Option<u16> {
        let digits = line.get(at..at + 6)?;
        if digits.get(..2)? != b"\\u" {
            return None;
        }
        u16::from_str_radix(std::str::from_utf8(digits.get(2..)?).ok()?, 16).ok()
    };
    let mut out = Vec::with_capacity(line.len());
    let mut i = 0;
    while let Some(&byte) = line.get(i) {
        if byte != b'\\' {
            out.push(byte);
            i += 1;
            continue;
        }
        let step = match unit(i) {
            Some(0xd800..=0xdbff) if matches!(unit(i + 6), Some(0xdc00..=0xdfff)) => 12,
            Some(0xd800..=0xdfff) => {
                out.extend_from_slice(b"\\ufffd");
                i += 6;
                continue;
            }
            Some(_) => 6,
            None => 2,
        };
        out.extend_from_slice(
            line.get(i..i + step)
                .unwrap_or_else(|| line.get(i..).unwrap_or_default()),
        );
        i += step;
    }
    out
}

/// Whether the plain form of the protocol can carry `input` unchanged (protocol 1 carries any).
pub fn expressible(input: &[u8]) -> bool {
    !input.contains(&b'\n') && input.last() != Some(&b'\r')
}

/// A host's request for the time each of its libraries has taken.
pub(super) const SPENT: &[u8] = b"{\"canonfuzz\":\"spent\"}\n";

#[derive(Deserialize)]
pub(super) struct Answer {
    pub(super) ok: Option<String>,
    pub(super) error: Option<AnswerError>,
    #[serde(default)]
    pub(super) unsupported: bool,
}

#[derive(Deserialize)]
pub(super) struct AnswerError {
    pub(super) kind: String,
    pub(super) message: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_parsed_or_called_garbage() {
        assert_eq!(
            parse_answer(br#"{"ok":"[1]"}"#),
            Outcome::Ok(b"[1]".to_vec())
        );
        assert_eq!(
            parse_answer(br#"{"error":{"kind":"syntax","message":"x","offset":0}}"#),
            Outcome::Rejected("syntax".into())
        );
        assert_eq!(
            parse_answer(
                br#"{"error":{"kind":"other","message":"Infinity is not allowed","offset":0}}"#
            ),
            Outcome::Rejected("number_out_of_range".into())
        );
        assert_eq!(
            parse_answer(br#"{"error":{"kind":"rejected","message":"bad signature","offset":0}}"#),
            Outcome::Rejected("other".into())
        );
        assert_eq!(
            parse_answer(br#"{"unsupported":true}"#),
            Outcome::Unsupported
        );
        assert!(matches!(
            parse_answer(b"Traceback (most recent call last):"),
            Outcome::Crashed(_)
        ));
    }

    #[test]
    fn an_answer_read_without_the_parser_is_what_the_parser_reads() {
        let lines: [&[u8]; 17] = [
            br#"{"ok":"[1,2]"}"#,
            b"{\"ok\":\"[\xc3\xa9,\xf0\x9f\x98\x80]\"}\n",
            br#"{"ok":"[1,\"a\"]"}"#,
            b"{\"ok\":\"\"}\n",
            b"{\"ok\":\"x\"}\r\n",
            br#"{"ok":"a\nb"}"#,
            br#"{"ok":"\u0041"}"#,
            b"{\"ok\":\"tab\there\"}",
            b"{\"ok\":\"\x7f\"}",
            b"{\"ok\":\"\xff\"}",
            b"{\"ok\":\"\xed\xa0\x80\"}",
            br#"{"ok":"x"}"}"#,
            br#"{"ok":"x" }"#,
            b"{\"ok\":\"x\"}  ",
            br#"{"ok" :"x"}"#,
            br#"{"ok":"x","unsupported":false}"#,
            br#"{"ok":"x"#,
        ];
        let mut fast = 0;
        for line in lines {
            fast += usize::from(plain_ok(line).is_some());
            assert_eq!(
                parse_answer(line),
                read_answer(line),
                "{:?}",
                String::from_utf8_lossy(line)
            );
        }
        assert_eq!(
            fast, 4,
            "the four lines without escapes are read without the parser"
        );
    }

    #[test]
    fn an_answer_escaping_a_lone_surrogate_is_read_with_a_replacement_character() {
        assert_eq!(
            parse_answer(br#"{"ok":"\"\ud800\" \\ud800 \ud83d\ude00 \udc00"}"#),
            Outcome::Ok(
                "\"\u{fffd}\" \\ud800 \u{1f600} \u{fffd}"
                    .as_bytes()
                    .to_vec()
            )
        );
    }

    #[test]
    fn protocol_one_sends_base64_and_the_plain_form_the_bytes() {
        let mut line = Vec::new();
        request(b"[1,\n2]", true, &mut line);
        request(b"[1]", false, &mut line);
        assert_eq!(line, b"{\"input\":\"WzEsCjJd\"}\n[1]\n");
        let hello = read_hello(br#"{"canonfuzz":1,"name":"lib","version":"2.0"}"#);
        assert_eq!(hello.version.as_deref(), Some("lib 2.0"));
        assert!(hello.framed);
        assert!(!read_hello(br#"{"ok":"{\"canonfuzz\":1}"}"#).framed);
        assert_eq!(hello.uses, None);
    }

    #[test]
    fn newlines_cannot_cross_the_line_protocol() {
        assert!(expressible(b"[1,\t2]\r "));
        assert!(!expressible(b"[1,\n2]"));
        assert!(!expressible(b"[1]\r"));
    }

    #[test]
    fn the_first_line_names_the_protocol_and_the_family() {
        assert_eq!(hello("jcs"), r#"{"canonfuzz":1,"family":"jcs"}"#);
        let read: serde_json::Value = serde_json::from_str(&hello("a\"b\n")).unwrap();
        assert_eq!(read["family"], "a\"b\n");
    }
}
