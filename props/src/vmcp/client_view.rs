//! What a client of a verifiable-mcp response reads, and whether the signature covers it, read
//! the simple way — a plain reading of the JSON and the specification's prose — apart from the
//! core's verifier, so that a fuzz target can hold the verifier's "valid" to it.
//!
//! A client of a tools/call result reads `content`, `structuredContent` and `isError`; of a
//! resources/read result, `contents`; of an error frame, `id` and `error` (`data` less the
//! envelope). `_meta`, `jsonrpc`, `resultType`, the caching hints and the v0.1 siblings are
//! protocol furniture. Every member read must be what the signed wrapper says, and the wrapper's
//! times must hold at `now`. The client is the strictest reader there is: it keeps every number
//! exactly as written ([`crate::read::exact_numbers`]), so a served number is covered only when it is the
//! signed number's exact value and Python's `json` reads it as the same `int` or `float`
//! value as the signed one, and it reads a JSON-RPC `id` or `code` as an integer, so one
//! written with a fraction or an exponent is not the signed one.

use sha2::{Digest, Sha256};

use canonfuzz_core::jws::base64url_decode;
use canonfuzz_core::vmcp::{META_KEY, SKEW_SECONDS};

use crate::read::exact_numbers::{self, Literal, Numbers};

/// Result members no client takes as the answer.
const FURNITURE: [&str; 6] = [
    "_meta",
    "resultType",
    "ttlMs",
    "cacheScope",
    "signature",
    "provenance",
];

fn digest(text: &str) -> String {
    format!(
        "sha256:{}",
        canonfuzz_core::ekl::to_hex(&Sha256::digest(text.as_bytes()))
    )
}

/// The signed wrapper of the envelope in `holder`, decoded from the JWS's middle segment.
fn wrapper(holder: Option<&Literal>) -> Result<Literal, String> {
    let jws = holder
        .and_then(|h| h.get(META_KEY))
        .and_then(|e| e.get("jws"))
        .and_then(Literal::as_str)
        .ok_or("no envelope")?;
    let segment = jws.split('.').nth(1).ok_or("no payload segment")?;
    let bytes = base64url_decode(segment, "payload").map_err(|e| e.to_string())?;
    match exact_numbers::read(&bytes) {
        Some(wrapper @ Literal::Object(_)) => Ok(wrapper),
        _ => Err("the signed wrapper is not an object".into()),
    }
}

/// What a client reads, named in a message: a scalar as written (cut short), a container by
/// its size — never rendered whole, however deep it is.
fn shown(value: &Literal) -> String {
    let cut = |text: &str| -> String {
        match text.char_indices().nth(60) {
            Some((at, _)) => format!("{}...", &text[..at]),
            None => text.to_string(),
        }
    };
    match value {
        Literal::Null => "null".into(),
        Literal::Bool(b) => b.to_string(),
        Literal::Number(text) => cut(text),
        Literal::String(text) => format!("{:?}", cut(text)),
        Literal::Array(items) => format!("an array of {} items", items.len()),
        Literal::Object(members) => format!("an object of {} members", members.len()),
    }
}

fn same(
    what: &str,
    served: &Literal,
    signed: Option<&Literal>,
    numbers: Numbers,
) -> Result<(), String> {
    match signed {
        Some(signed) if served.same_as(signed, numbers) => Ok(()),
        _ => Err(format!(
            "the client reads {what} {}, which is not what was signed",
            shown(served)
        )),
    }
}

/// Whether a JSON-RPC `id` or `code` a client reads as an integer is written as one: a
/// number with a fraction or an exponent reads as another value, or as none. A client that
/// reads doubles reads it as the double it names.
fn integer_where_read(what: &str, value: Option<&Literal>, numbers: Numbers) -> Result<(), String> {
    match value {
        Some(Literal::Number(text)) if numbers != Numbers::Doubles => {
            let digits = text.strip_prefix('-').unwrap_or(text);
            if digits.bytes().all(|b| b.is_ascii_digit()) {
                Ok(())
            } else {
                Err(format!(
                    "the client reads {what} {text} as an integer, which it is not written as"
                ))
            }
        }
        _ => Ok(()),
    }
}

fn text_arm(what: &str, text: Option<&Literal>, wrapper: &Literal) -> Result<(), String> {
    let text = text
        .and_then(Literal::as_str)
        .ok_or(format!("{what} has no text"))?;
    if wrapper.get("content_digest") == Some(&Literal::String(digest(text))) {
        Ok(())
    } else {
        Err(format!(
            "the client reads {what} {text:?}, which content_digest does not cover"
        ))
    }
}

/// A time of the wrapper, when it is written as a non-negative integer.
fn time(wrapper: &Literal, name: &str) -> Option<u64> {
    match wrapper.get(name) {
        Some(Literal::Number(text)) => text.parse().ok(),
        _ => None,
    }
}

/// Checks that every member a client reads of the response `text` is covered by its signed
/// wrapper, and that the wrapper's times hold at `now`. `Ok` means a client sees only signed
/// data.
pub fn covered(text: &[u8], now: u64) -> Result<(), String> {
    covered_by(text, now, Numbers::Every)
}

/// [`covered`], for a client that reads numbers as `numbers` says: a `JSON.parse` client
/// reads every number as a double, ids and codes too.
pub fn covered_by(text: &[u8], now: u64, numbers: Numbers) -> Result<(), String> {
    let response = exact_numbers::read(text).ok_or("the response is not JSON")?;
    let framed = ["jsonrpc", "id", "result", "error"]
        .iter()
        .any(|m| response.get(m).is_some());
    if framed && response.get("result").is_some() && response.get("error").is_some() {
        return Err("a client may read both result and error".into());
    }
    let wrapper = match response.get("error").filter(|_| framed) {
        Some(error) => error_wrapper(&response, error, numbers)?,
        None => result_wrapper(&response, framed, numbers)?,
    };
    for name in ["iat", "nbf"] {
        if time(&wrapper, name).is_some_and(|t| t > now + SKEW_SECONDS) {
            return Err(format!("{name} is in the future"));
        }
    }
    if time(&wrapper, "exp").is_some_and(|t| now >= t + SKEW_SECONDS) {
        return Err("exp has passed".into());
    }
    Ok(())
}

/// The signed wrapper of an error frame, once the client's view of the frame (its id, and
/// the error without the envelope) is shown to be what it signs.
fn error_wrapper(response: &Literal, error: &Literal, numbers: Numbers) -> Result<Literal, String> {
    let data = error.get("data");
    let wrapper = wrapper(data)?;
    integer_where_read("id", response.get("id"), numbers)?;
    integer_where_read("error.code", error.get("code"), numbers)?;
    let Literal::Object(members) = error else {
        return Err("error is not an object".into());
    };
    let mut seen: Vec<(String, Literal)> = Vec::new();
    for (name, value) in members {
        match (name.as_str(), value) {
            ("data", Literal::Object(data)) => {
                let rest: Vec<(String, Literal)> = data
                    .iter()
                    .filter(|(n, _)| n != META_KEY)
                    .cloned()
                    .collect();
                if !rest.is_empty() {
                    seen.push((name.clone(), Literal::Object(rest)));
                }
            }
            _ => seen.push((name.clone(), value.clone())),
        }
    }
    let id = response.get("id").cloned().unwrap_or(Literal::Null);
    let view = Literal::Object(vec![
        ("id".to_string(), id),
        ("error".to_string(), Literal::Object(seen)),
    ]);
    same("the error frame", &view, wrapper.get("payload"), numbers)?;
    Ok(wrapper)
}

/// The signed wrapper of a result, once every member a client reads of it is shown to be
/// signed.
fn result_wrapper(response: &Literal, framed: bool, numbers: Numbers) -> Result<Literal, String> {
    let result = if framed {
        response.get("result").ok_or("no result")?
    } else {
        response
    };
    let Literal::Object(members) = result else {
        return Err("the result is not an object".into());
    };
    let wrapper = wrapper(result.get("_meta"))?;
    let payload = wrapper.get("payload");
    let signed_error = payload.and_then(|p| p.get("isError")) == Some(&Literal::Bool(true));
    for (name, value) in members {
        match name.as_str() {
            n if FURNITURE.contains(&n) => {}
            "structuredContent" => same(name, value, payload, numbers)?,
            "isError" => {
                if value != &Literal::Bool(signed_error) {
                    return Err(format!(
                        "the client reads isError {}, signed {signed_error}",
                        shown(value)
                    ));
                }
            }
            "content" => content_arm(value, &wrapper)?,
            "contents" => {
                let served = Literal::Object(vec![("contents".to_string(), value.clone())]);
                same(name, &served, payload, numbers)?;
                let first = value.item(0).and_then(|i| i.get("text"));
                text_arm("contents[0].text", first, &wrapper)?;
            }
            other => return Err(format!("the client reads result.{other}, unsigned")),
        }
    }
    let served_error = members.iter().any(|(n, _)| n == "isError");
    let resource = members.iter().any(|(n, _)| n == "contents");
    if signed_error && !served_error && !resource {
        return Err("an isError payload is served as a success".into());
    }
    Ok(wrapper)
}

/// Checks a result's `content` as a client reads it: one text item whose text is the
/// signed one.
fn content_arm(value: &Literal, wrapper: &Literal) -> Result<(), String> {
    match value {
        Literal::Array(items) => match items.as_slice() {
            [Literal::Object(item)] if item.len() == 2 => {
                if value.item(0).and_then(|i| i.get("type"))
                    != Some(&Literal::String("text".into()))
                {
                    return Err("content[0] is not a text item".into());
                }
                text_arm(
                    "content[0].text",
                    value.item(0).and_then(|i| i.get("text")),
                    wrapper,
                )?;
            }
            _ => {
                return Err(format!(
                    "the client reads content {}, not one text arm",
                    shown(value)
                ))
            }
        },
        _ => return Err("content is not an array".into()),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    fn covered_value(response: &Value, now: u64) -> Result<(), String> {
        covered(response.to_string().as_bytes(), now)
    }

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
        assert_eq!(covered_value(&tool(&signed()), 100), Ok(()));
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
            assert!(covered_value(&response, 100).is_err(), "{what}");
        }
    }

    #[test]
    fn a_wrapper_with_text_after_it_is_not_read() {
        let b64 = canonfuzz_core::jws::base64url_encode;
        let mut trailing = tool(&signed());
        let jws = format!("e30.{}.AA", b64(format!("{} x", signed()).as_bytes()));
        trailing["result"]["_meta"][META_KEY]["jws"] = json!(jws);
        let why = covered_value(&trailing, 100).unwrap_err();
        assert!(why.contains("not an object"), "{why}");
    }

    /// `text` with its first `from` replaced by `to`.
    fn served_as(text: &str, from: &str, to: &str) -> Vec<u8> {
        assert!(text.contains(from), "{text}");
        text.replacen(from, to, 1).into_bytes()
    }

    #[test]
    fn a_number_is_covered_only_by_its_exact_value() {
        let wrapper = json!({"iat": 100, "payload": {"a": 12345678901234567000u64, "b": 0, "c": 100, "d": 1.0000000000000002}, "content_digest": digest("hi")});
        let mut response = tool(&wrapper);
        response["result"]["structuredContent"] = wrapper["payload"].clone();
        let text = response.to_string();
        assert_eq!(covered(text.as_bytes(), 100), Ok(()));
        // Another way to write the same number is the same number.
        assert_eq!(covered(&served_as(&text, ":100", ":1e2"), 100), Ok(()));
        // Numbers that round to the signed double are other numbers to this client.
        for (from, to) in [
            (":12345678901234567000", ":12345678901234567891"),
            (":0,", ":1e-400,"),
            (":1.0000000000000002", ":1.00000000000000021"),
        ] {
            let why = covered(&served_as(&text, from, to), 100).unwrap_err();
            assert!(why.contains("not what was signed"), "{to}: {why}");
        }
    }

    #[test]
    fn an_id_or_code_is_read_as_an_integer() {
        let payload = json!({"id": 7, "error": {"code": -32602, "message": "m"}});
        let wrapper = json!({"iat": 100, "payload": payload});
        let response = json!({"jsonrpc": "2.0", "id": 7, "error": {"code": -32602, "message": "m", "data": {META_KEY: {"jws": token(&wrapper)}}}});
        let text = response.to_string();
        assert_eq!(covered(text.as_bytes(), 100), Ok(()));
        for (from, to) in [("\"id\":7", "\"id\":7.0"), (":-32602", ":-32602e0")] {
            let why = covered(&served_as(&text, from, to), 100).unwrap_err();
            assert!(why.contains("as an integer"), "{to}: {why}");
        }
    }
}
