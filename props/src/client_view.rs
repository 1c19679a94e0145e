//! What a client of a verifiable-mcp response reads, and whether the signature covers it, read
//! the simple way — serde_json values and the specification's prose — apart from the core's
//! verifier, so that a fuzz target can hold the verifier's "valid" to it.
//!
//! A client of a tools/call result reads `content`, `structuredContent` and `isError`; of a
//! resources/read result, `contents`; of an error frame, `id` and `error` (`data` less the
//! envelope). `_meta`, `jsonrpc`, `resultType`, the caching hints and the v0.1 siblings are
//! protocol furniture. Every member read must be what the signed wrapper says, and the wrapper's
//! times must hold at `now`.

use serde_json::{json, Map, Value};
use sha2::{Digest, Sha256};

use canonfuzz_core::jws::base64url_decode;
use canonfuzz_core::vmcp::{META_KEY, SKEW_SECONDS};

use crate::plain_value::{read_value, Repeats};

/// Result members no client takes as the answer.
const FURNITURE: [&str; 6] = [
    "_meta",
    "resultType",
    "ttlMs",
    "cacheScope",
    "signature",
    "provenance",
];

fn canonical(value: &Value) -> Option<Vec<u8>> {
    canonfuzz_core::jcs::canonicalize(value.to_string().as_bytes()).ok()
}

fn digest(text: &str) -> String {
    format!(
        "sha256:{}",
        canonfuzz_core::ekl::to_hex(&Sha256::digest(text.as_bytes()))
    )
}

/// The signed wrapper of the envelope in `holder`, decoded from the JWS's middle segment and
/// read by serde_json, past its nesting limit when `unbounded`.
fn wrapper(holder: Option<&Value>, unbounded: bool) -> Result<Map<String, Value>, Refusal> {
    let jws = holder
        .and_then(|h| h.get(META_KEY))
        .and_then(|e| e.get("jws"))
        .and_then(Value::as_str)
        .ok_or("no envelope")?;
    let segment = jws.split('.').nth(1).ok_or("no payload segment")?;
    let bytes = base64url_decode(segment, "payload").map_err(|e| e.to_string())?;
    match read_value(&bytes, unbounded, Repeats::LastWins) {
        Ok(Value::Object(map)) => Ok(map),
        Err(e) if crate::deep::too_deep(&e) => Err(Refusal::TooDeep(e)),
        _ => Err("the signed wrapper is not an object".into()),
    }
}

/// Why [`covered_reading`] does not call a response covered.
pub(crate) enum Refusal {
    /// A client reads something the signature does not cover, or the times do not hold.
    Uncovered(String),
    /// serde_json will not read the signed wrapper within its nesting limit.
    TooDeep(serde_json::Error),
}

impl From<String> for Refusal {
    fn from(why: String) -> Self {
        Refusal::Uncovered(why)
    }
}

impl From<&str> for Refusal {
    fn from(why: &str) -> Self {
        Refusal::Uncovered(why.to_string())
    }
}

fn same(what: &str, served: &Value, signed: Option<&Value>) -> Result<(), String> {
    match signed {
        Some(signed) if canonical(served) == canonical(signed) => Ok(()),
        _ => Err(format!(
            "the client reads {what} {served}, which is not what was signed"
        )),
    }
}

fn text_arm(what: &str, text: Option<&Value>, wrapper: &Map<String, Value>) -> Result<(), String> {
    let text = text
        .and_then(Value::as_str)
        .ok_or(format!("{what} has no text"))?;
    if wrapper.get("content_digest") == Some(&json!(digest(text))) {
        Ok(())
    } else {
        Err(format!(
            "the client reads {what} {text:?}, which content_digest does not cover"
        ))
    }
}

/// Checks that every member a client reads of `response` is covered by its signed wrapper,
/// and that the wrapper's times hold at `now`. `Ok` means a client sees only signed data.
pub fn covered(response: &Value, now: u64) -> Result<(), String> {
    covered_reading(response, now, false).map_err(|refusal| match refusal {
        Refusal::Uncovered(why) => why,
        Refusal::TooDeep(e) => format!("the signed wrapper is not read: {e}"),
    })
}

/// [`covered`], with the signed wrapper read past serde_json's nesting limit when `unbounded`,
/// for a caller on a stack that holds it.
pub(crate) fn covered_reading(response: &Value, now: u64, unbounded: bool) -> Result<(), Refusal> {
    let framed = ["jsonrpc", "id", "result", "error"]
        .iter()
        .any(|m| response.get(m).is_some());
    if framed && response.get("result").is_some() && response.get("error").is_some() {
        return Err("a client may read both result and error".into());
    }
    let wrapper = if let Some(error) = response.get("error").filter(|_| framed) {
        let data = error.get("data");
        let wrapper = wrapper(data, unbounded)?;
        let mut seen = error.as_object().cloned().unwrap_or_default();
        let mut rest = data.and_then(Value::as_object).cloned().unwrap_or_default();
        rest.remove(META_KEY);
        if rest.is_empty() {
            seen.remove("data");
        } else {
            seen.insert("data".into(), Value::Object(rest));
        }
        let view = json!({"id": response.get("id"), "error": seen});
        same("the error frame", &view, wrapper.get("payload"))?;
        wrapper
    } else {
        let result = if framed {
            response.get("result").ok_or("no result")?
        } else {
            response
        };
        let members = result.as_object().ok_or("the result is not an object")?;
        let wrapper = wrapper(result.get("_meta"), unbounded)?;
        let payload = wrapper.get("payload");
        for (name, value) in members {
            match name.as_str() {
                n if FURNITURE.contains(&n) => {}
                "structuredContent" => same(name, value, payload)?,
                "isError" => {
                    let signed = payload.and_then(|p| p.get("isError")) == Some(&json!(true));
                    if value != &json!(signed) {
                        return Err(
                            format!("the client reads isError {value}, signed {signed}").into()
                        );
                    }
                }
                "content" => match value.as_array().map(Vec::as_slice) {
                    Some([item]) if item.as_object().is_some_and(|i| i.len() == 2) => {
                        if item.get("type") != Some(&json!("text")) {
                            return Err("content[0] is not a text item".into());
                        }
                        text_arm("content[0].text", item.get("text"), &wrapper)?;
                    }
                    _ => {
                        return Err(
                            format!("the client reads content {value}, not one text arm").into(),
                        )
                    }
                },
                "contents" => {
                    same(name, &json!({ "contents": value }), payload)?;
                    let first = value.get(0).and_then(|i| i.get("text"));
                    text_arm("contents[0].text", first, &wrapper)?;
                }
                other => return Err(format!("the client reads result.{other}, unsigned").into()),
            }
        }
        let served_error = members.get("isError").is_some();
        let signed_error = payload.and_then(|p| p.get("isError")) == Some(&json!(true));
        if signed_error && !served_error && !members.contains_key("contents") {
            return Err("an isError payload is served as a success".into());
        }
        wrapper
    };
    let time = |name: &str| wrapper.get(name).and_then(Value::as_u64);
    for name in ["iat", "nbf"] {
        if time(name).is_some_and(|t| t > now + SKEW_SECONDS) {
            return Err(format!("{name} is in the future").into());
        }
    }
    if time("exp").is_some_and(|t| now >= t + SKEW_SECONDS) {
        return Err("exp has passed".into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn token(wrapper: &Value) -> String {
        let b64 = canonfuzz_core::jws::base64url_encode;
        format!("e30.{}.AA", b64(wrapper.to_string().as_bytes()))
    }

    fn tool(wrapper: &Value) -> Value {
        json!({"jsonrpc": "2.0", "id": 1, "result": {
            "content": [{"type": "text", "text": "hi"}],
            "structuredContent": {"a": 1},
            "_meta": {META_KEY: {"jws": token(wrapper)}}}})
    }

    fn signed() -> Value {
        json!({"iat": 100, "payload": {"a": 1}, "content_digest": digest("hi")})
    }

    #[test]
    fn a_response_whose_every_read_member_is_signed_is_covered() {
        assert_eq!(covered(&tool(&signed()), 100), Ok(()));
    }

    #[test]
    fn each_unsigned_read_is_caught() {
        let mut added = tool(&signed());
        added["result"]["notes"] = json!("unsigned");
        let mut changed = tool(&signed());
        changed["result"]["structuredContent"]["a"] = json!(2);
        let mut flagged = tool(&signed());
        flagged["result"]["isError"] = json!(true);
        let mut second = tool(&signed());
        second["result"]["content"]
            .as_array_mut()
            .unwrap()
            .push(json!({"type": "text", "text": "more"}));
        let mut both = tool(&signed());
        both["error"] = json!({"code": 1, "message": "m"});
        let mut late = signed();
        late["exp"] = json!(10);
        for (what, response) in [
            ("added", added),
            ("changed", changed),
            ("flagged", flagged),
            ("second", second),
            ("both", both),
            ("expired", tool(&late)),
        ] {
            assert!(covered(&response, 100).is_err(), "{what}");
        }
    }

    #[test]
    fn a_wrapper_with_text_after_it_is_not_read() {
        let b64 = canonfuzz_core::jws::base64url_encode;
        let mut trailing = tool(&signed());
        let jws = format!("e30.{}.AA", b64(format!("{} x", signed()).as_bytes()));
        trailing["result"]["_meta"][META_KEY]["jws"] = json!(jws);
        let why = covered(&trailing, 100).unwrap_err();
        assert!(why.contains("not an object"), "{why}");
    }
}
