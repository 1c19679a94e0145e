//! JSON read for the harness's own judgments — a policy's predicate, a client view, a check —
//! never through a reader narrower than the core's. The core reads documents nested up to
//! [`canonfuzz_core::jcs::DEFAULT_MAX_DEPTH`] levels; serde_json stops at 128. A judgment that
//! read a deeper document with serde_json alone would find nothing there and decide "does not
//! apply", hiding a divergence behind a reading error. Here a document serde_json refuses for
//! its depth is read again without the limit, on a stack that holds it, and a text the harness
//! cannot read at all is an [`Unreadable`] error, which a campaign reports as its own failure.

use serde_json::{Map, Value};

use crate::read::any_depth::{read_at_any_depth, too_deep};
use crate::read::unmarked::{read_value, Repeats};

/// The deepest nesting the harness reads: four times the core's bound, so that every document
/// the core reads, and every document a campaign generates past that bound, is read; deeper
/// than this, reading would risk the harness's own stack.
pub const MAX_NESTING: usize = 4 * canonfuzz_core::jcs::DEFAULT_MAX_DEPTH;

/// The deepest nesting of a campaign case outside its strings: serde_json's own bound, as the
/// core's key and key-set readers have.
const CASE_NESTING: usize = 128;

/// Why the harness could not read an input it had to judge: its own failure, never a fact
/// about the input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unreadable(pub String);

impl std::fmt::Display for Unreadable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Unreadable {}

/// The deepest nesting of arrays and objects in a text, read byte by byte: brackets outside
/// strings, at any depth and in any text, JSON or not.
pub fn nesting(text: &[u8]) -> usize {
    let (mut depth, mut deepest, mut in_string, mut escaped) = (0usize, 0, false, false);
    for &b in text {
        match (in_string, escaped, b) {
            (true, true, _) => escaped = false,
            (true, false, b'\\') => escaped = true,
            (true, false, b'"') | (false, _, b'"') => in_string = !in_string,
            (false, _, b'[' | b'{') => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            (false, _, b']' | b'}') => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    deepest
}

/// `judge` of the value `text` holds, read as JSON.parse reads it (the last of two members
/// named alike kept) at any depth up to [`MAX_NESTING`]: `Ok(None)` when the text is not JSON,
/// a fact about the input; `Err` when the harness could not read it. `judge` runs on the
/// thread that read the value, which for a deep document is one with a stack that holds it:
/// it should return a small answer, not the value.
pub fn judge<T: Send + 'static>(
    text: &[u8],
    judge: impl Fn(Value) -> T + Send + 'static,
) -> Result<Option<T>, Unreadable> {
    let deepest = nesting(text);
    if deepest > MAX_NESTING {
        return Err(Unreadable(format!(
            "the text nests {deepest} levels, past the {MAX_NESTING} the harness reads"
        )));
    }
    let read = read_at_any_depth([text], move |[text], unbounded| {
        read_value(text, unbounded, Repeats::LastWins).map(&judge)
    });
    match read {
        Ok(Ok(answer)) => Ok(Some(answer)),
        Ok(Err(e)) if too_deep(&e) => Err(Unreadable(format!(
            "serde_json still refused the text for its depth: {e}"
        ))),
        Ok(Err(_)) => Ok(None),
        Err(why) => Err(Unreadable(why)),
    }
}

/// The members of a campaign case: the one JSON object a family's generator writes, whose
/// members carry the protocol's inputs (a response, a header, a body) as strings or small
/// values. A case is the harness's own envelope, so one that cannot be read as an object is
/// the harness's failure, never a case no policy is about.
pub fn case(input: &[u8]) -> Result<Map<String, Value>, Unreadable> {
    // Outside its strings a case nests a few levels; its members are returned to the caller,
    // whose stack need not hold a deep value.
    let deepest = nesting(input);
    if deepest > CASE_NESTING {
        return Err(Unreadable(format!(
            "the campaign case nests {deepest} levels outside its strings; a case nests at most {CASE_NESTING}"
        )));
    }
    match judge(input, |value| match value {
        Value::Object(members) => Some(members),
        _ => None,
    }) {
        Ok(Some(Some(members))) => Ok(members),
        Ok(_) => Err(Unreadable(
            "the input is not a campaign case: a JSON object".to_string(),
        )),
        Err(e) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_depth_the_core_reads_is_read() {
        for depth in [
            1,
            127,
            128,
            129,
            500,
            canonfuzz_core::jcs::DEFAULT_MAX_DEPTH + 1,
        ] {
            let text = format!("{}[1,2]{}", "[".repeat(depth), "]".repeat(depth));
            let length = |v: Value| {
                let mut v = &v;
                let mut levels = 0;
                while let Some(first) = v.as_array().and_then(|items| items.first()) {
                    v = first;
                    levels += 1;
                }
                levels
            };
            assert_eq!(
                judge(text.as_bytes(), length),
                Ok(Some(depth + 1)),
                "{depth}"
            );
        }
    }

    #[test]
    fn not_json_is_an_answer_and_past_the_bound_is_an_error() {
        let deep_broken = format!("{}01{}", "[".repeat(300), "]".repeat(300));
        for not_json in [
            &b"[1,]"[..],
            b"{\"a\"}",
            b"\"\\ud800\"",
            deep_broken.as_bytes(),
        ] {
            assert_eq!(judge(not_json, |_| ()), Ok(None), "{not_json:?}");
        }
        let past = format!(
            "{}{}",
            "[".repeat(MAX_NESTING + 1),
            "]".repeat(MAX_NESTING + 1)
        );
        let why = judge(past.as_bytes(), |_| ()).unwrap_err();
        assert!(why.0.contains("past the"), "{why}");
        // Brackets inside strings are not nesting.
        assert_eq!(nesting(br#"["[[[\"{{"]"#), 1);
    }

    #[test]
    fn a_case_is_an_object_or_the_harness_failed() {
        assert_eq!(case(br#"{"op":"leaf"}"#).unwrap().len(), 1);
        let deep_key = format!(r#"{{"jwk":{}1{}}}"#, "[".repeat(200), "]".repeat(200));
        for not_a_case in [&b"[1]"[..], b"{", b"", deep_key.as_bytes()] {
            assert!(case(not_a_case).is_err(), "{not_a_case:?}");
        }
    }
}
