//! The verifiable-mcp judge, from SPEC.md 0.2.1 and the RFCs it names, composed from
//! json-syntax, ring, the base64 crate and RFC 8785 as [`crate::judge`] writes it: the
//! envelope at `result._meta` or `error.data`; a JWS with `typ` `verifiable-mcp+jws`, `alg`
//! pinned to `EdDSA` and a `kid` that names exactly one key of the set; a canonical wrapper
//! whose two digests recompute; the served structure equal to the signed payload, numbers by
//! their exact decimal value, and a JSON-RPC `id` or error `code` written as an integer;
//! nothing a client reads left unsigned; `iat`, `nbf` and `exp` held to the clock with 60 s of
//! skew. Answers the signed payload's canonical text.
//!
//! Where the core states a stricter reading as a registered policy, the judge reads so too, so
//! that the workers are asked about what the policy does not settle: content beyond item 0's
//! text arm, which §6 leaves at the reader's risk, is refused as unsigned (`one-text-arm`), and
//! a response nested past 10,000 levels is refused as every judge refuses it (`depth-bound`).

use json_syntax::{Object, Value};

use crate::judge::json::{self, double, exact, member, text, unique};
use crate::judge::{self, hex, jws, must, refused, sha256, Judge, Refusal};

/// The judge, as the family lists it.
pub const JUDGE: Judge = Judge {
    crates: &["json-syntax", "ryu-js", "ring", "base64"],
    name: "rust-vmcp",
    answer: verify,
};

/// The member of `_meta` or `error.data` that holds the envelope.
const META: &str = "org.jardenberg/verifiable-mcp";
/// The skew allowed every time, in seconds.
const SKEW: f64 = 60.0;
/// The members a tool result may carry.
const TOOL: [&str; 7] = [
    "content",
    "structuredContent",
    "isError",
    "_meta",
    "resultType",
    "signature",
    "provenance",
];
/// The members a resource result may carry.
const RESOURCE: [&str; 7] = [
    "contents",
    "_meta",
    "resultType",
    "ttlMs",
    "cacheScope",
    "signature",
    "provenance",
];

/// What a client reads of a response, and where its envelope is.
struct Served<'a> {
    /// The object whose `META` member is the envelope.
    holder: Option<&'a Value>,
    /// What the signed payload must equal.
    served: Shape<'a>,
    /// The text arm, for `content_digest`.
    text: Option<&'a str>,
    /// Whether it is an error response.
    error: bool,
    /// For a tool result, whether it says `isError: true`.
    is_error: Option<bool>,
}

/// The served structure the signed payload must equal.
enum Shape<'a> {
    /// Nothing served beside the envelope.
    Nothing,
    /// This value.
    Value(&'a Value),
    /// `{"contents": …}`.
    Contents(&'a Value),
    /// `{"id": …, "error": …}`, the error's data without the envelope.
    Error { id: &'a Value, error: &'a Object },
}

/// The signed payload's canonical text, once every rule holds.
fn verify(input: &[u8]) -> Result<Vec<u8>, Refusal> {
    let case = judge::case(input)?;
    let (Some(response), Some(Value::Number(now)), Some(jwks)) = (
        text(&case, "response"),
        member(&case, "now"),
        member(&case, "jwks"),
    ) else {
        return Err(Refusal::Unanswered);
    };
    let now = double(now.as_str())?;
    let response = json::read(response.as_bytes())?;
    let served = served(&response)?;
    let envelope = served.holder.and_then(|h| member(h, META));
    let token = envelope
        .and_then(|e| text(e, "jws"))
        .ok_or_else(|| refused("no envelope"))?;
    let verified = jws::verify(token, &["EdDSA"], |kid| key(jwks, kid))?;
    must(
        text(&verified.header, "typ") == Some("verifiable-mcp+jws"),
        "typ is not verifiable-mcp+jws",
    )?;
    let wrapper = json::read(&verified.payload)?;
    must(
        matches!(wrapper, Value::Object(_)) && json::canonical(&wrapper)? == verified.payload,
        "the wrapper is not a canonical object",
    )?;
    let payload = wrapper_digests(&wrapper, &served)?;
    times(&wrapper, now)?;
    Ok(payload)
}

/// The key of the set `jwks` that `kid` names: exactly one, in a set whose kids differ.
fn key<'a>(jwks: &'a Value, kid: Option<&str>) -> Result<&'a Value, Refusal> {
    let keys: Vec<&Value> = match member(jwks, "keys") {
        Some(Value::Array(keys)) => keys
            .iter()
            .filter(|k| matches!(k, Value::Object(_)))
            .collect(),
        _ => Vec::new(),
    };
    let kids: Vec<&Value> = keys.iter().filter_map(|k| member(k, "kid")).collect();
    for (at, kid) in kids.iter().enumerate() {
        must(
            !kids.iter().skip(at + 1).any(|other| same(kid, other)),
            "two keys of the set share a kid",
        )?;
    }
    let kid = kid.ok_or_else(|| refused("no kid"))?;
    let found: Vec<&Value> = keys
        .into_iter()
        .filter(|k| text(k, "kid") == Some(kid))
        .collect();
    match found[..] {
        [one] => Ok(one),
        _ => Err(refused("no key has this kid")),
    }
}

/// The wrapper's rules: its members, its digests, and the served structure against its
/// payload; gives the payload's canonical text.
fn wrapper_digests(wrapper: &Value, served: &Served<'_>) -> Result<Vec<u8>, Refusal> {
    must(
        is_time(member(wrapper, "iat"))
            && matches!(member(wrapper, "provenance"), Some(Value::Object(_))),
        "no iat or provenance",
    )?;
    if let Value::Object(members) = wrapper {
        must(
            !members.iter().any(|e| e.key.starts_with("content_hash")),
            "a v0.1 content_hash key",
        )?;
    }
    let payload = member(wrapper, "payload").ok_or_else(|| refused("no payload"))?;
    let payload_text = json::canonical(payload)?;
    must(
        text(wrapper, "payload_digest") == Some(label(&payload_text).as_str()),
        "payload_digest differs",
    )?;
    if served.error {
        must(
            member(wrapper, "content_digest").is_none(),
            "an error wrapper carries content_digest",
        )?;
    } else {
        let (Some(digest), Some(arm)) = (text(wrapper, "content_digest"), served.text) else {
            return Err(refused("no content_digest or text arm"));
        };
        must(digest == label(arm.as_bytes()), "content_digest differs")?;
    }
    must(
        served_is_signed(&served.served, payload),
        "the served structure is not the signed payload",
    )?;
    if let Some(is_error) = served.is_error {
        let signed = matches!(member(payload, "isError"), Some(Value::Boolean(true)));
        must(is_error == signed, "isError differs")?;
    }
    Ok(payload_text)
}

/// `iat`, `nbf` and `exp` against the clock, with the skew.
fn times(wrapper: &Value, now: f64) -> Result<(), Refusal> {
    for name in ["exp", "nbf"] {
        if let Some(v) = member(wrapper, name) {
            must(is_time(Some(v)), "a time is not a time")?;
        }
    }
    let time = |name: &str| match member(wrapper, name) {
        Some(Value::Number(n)) => double(n.as_str()).ok(),
        _ => None,
    };
    must(
        time("iat").is_some_and(|iat| iat <= now + SKEW),
        "iat is in the future",
    )?;
    must(
        time("nbf").is_none_or(|nbf| nbf <= now + SKEW),
        "nbf is in the future",
    )?;
    must(
        time("exp").is_none_or(|exp| now < exp + SKEW),
        "exp has passed",
    )
}

/// Whether a value is a time: a whole number of seconds, not negative.
fn is_time(value: Option<&Value>) -> bool {
    match value {
        Some(Value::Number(n)) => double(n.as_str()).is_ok_and(|v| v >= 0.0 && v.fract() == 0.0),
        _ => false,
    }
}

/// `sha256:` and the lowercase hex SHA-256 of `data`.
fn label(data: &[u8]) -> String {
    format!("sha256:{}", hex(&sha256(data)))
}

/// Whether a JSON number is written as an integer: digits, with a minus sign at most.
fn written_as_integer(value: &Value) -> bool {
    match value {
        Value::Number(n) => {
            let digits = n.as_str().strip_prefix('-').unwrap_or(n.as_str());
            !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
        }
        _ => false,
    }
}

/// What a client of `response` reads, or why it is not a verifiable-mcp response.
fn served(response: &Value) -> Result<Served<'_>, Refusal> {
    let Value::Object(members) = response else {
        return Err(refused("the response is not an object"));
    };
    let frame = ["jsonrpc", "id", "result", "error"];
    let framed = frame.iter().any(|name| unique(members, name).is_some());
    if framed {
        must(
            text(response, "jsonrpc") == Some("2.0"),
            "jsonrpc is not \"2.0\"",
        )?;
        must(
            matches!(member(response, "id"), Some(Value::String(_) | Value::Null))
                || member(response, "id").is_some_and(written_as_integer),
            "no usable id",
        )?;
        must(
            member(response, "result").is_some() != member(response, "error").is_some(),
            "a response carries exactly one of result and error",
        )?;
        must(
            members.iter().all(|e| frame.contains(&e.key.as_str())),
            "an unexpected member beside the JSON-RPC frame",
        )?;
    }
    if let (true, Some(error), Some(id)) =
        (framed, member(response, "error"), member(response, "id"))
    {
        return error_parts(error, id);
    }
    let result = if framed {
        member(response, "result").unwrap_or(response)
    } else {
        response
    };
    result_parts(result)
}

/// What a client reads of an error response.
fn error_parts<'a>(error: &'a Value, id: &'a Value) -> Result<Served<'a>, Refusal> {
    let Value::Object(members) = error else {
        return Err(refused("error is not an object"));
    };
    must(
        members
            .iter()
            .all(|e| ["code", "message", "data"].contains(&e.key.as_str())),
        "an unsigned member of error",
    )?;
    must(
        member(error, "code").is_some_and(written_as_integer)
            && matches!(member(error, "message"), Some(Value::String(_))),
        "error.code or error.message mistyped",
    )?;
    let data = member(error, "data");
    must(matches!(data, Some(Value::Object(_))), "no error.data")?;
    Ok(Served {
        holder: data,
        served: Shape::Error { id, error: members },
        text: None,
        error: true,
        is_error: None,
    })
}

/// What a client reads of a tool or resource result.
fn result_parts(result: &Value) -> Result<Served<'_>, Refusal> {
    let Value::Object(members) = result else {
        return Err(refused("the result is not an object"));
    };
    let only = |allowed: &[&str]| members.iter().all(|e| allowed.contains(&e.key.as_str()));
    if let Some(contents) = member(result, "contents") {
        must(only(&RESOURCE), "an unsigned member of a resource result")?;
        let Value::Array(items) = contents else {
            return Err(refused("contents is not an array"));
        };
        return Ok(Served {
            holder: member(result, "_meta"),
            served: Shape::Contents(contents),
            text: items.first().and_then(|first| text(first, "text")),
            error: false,
            is_error: None,
        });
    }
    must(only(&TOOL), "an unsigned member of a tool result")?;
    let is_error = match member(result, "isError") {
        None => false,
        Some(Value::Boolean(b)) => *b,
        Some(_) => return Err(refused("isError is not a boolean")),
    };
    let arm = match member(result, "content") {
        None => None,
        Some(Value::Array(items)) => match items.first() {
            None => None,
            Some(first) => {
                must(
                    text(first, "type") == Some("text") && text(first, "text").is_some(),
                    "content[0] is not a text item",
                )?;
                let only_the_arm = matches!(first, Value::Object(m) if m.len() == 2);
                must(
                    items.len() == 1 && only_the_arm,
                    "content beyond the text arm is unsigned",
                )?;
                text(first, "text")
            }
        },
        Some(_) => return Err(refused("content is not an array")),
    };
    Ok(Served {
        holder: member(result, "_meta"),
        served: member(result, "structuredContent").map_or(Shape::Nothing, Shape::Value),
        text: arm,
        error: false,
        is_error: Some(is_error),
    })
}

/// Whether what is served is what `payload` signs.
fn served_is_signed(served: &Shape<'_>, payload: &Value) -> bool {
    match served {
        Shape::Nothing => true,
        Shape::Value(value) => same(value, payload),
        Shape::Contents(contents) => {
            object_len(payload) == Some(1)
                && member(payload, "contents").is_some_and(|c| same(contents, c))
        }
        Shape::Error { id, error } => {
            let signed_error = member(payload, "error");
            object_len(payload) == Some(2)
                && member(payload, "id").is_some_and(|signed| same(id, signed))
                && signed_error.is_some_and(|signed| same_error(error, signed))
        }
    }
}

/// Whether the signed error is the served one, its data without the envelope (and without
/// `data` when the envelope was all it held).
fn same_error(served: &Object, signed: &Value) -> bool {
    let Value::Object(signed) = signed else {
        return false;
    };
    let rest = |data: &Value| -> Vec<(String, Value)> {
        match data {
            Value::Object(m) => m
                .iter()
                .filter(|e| e.key.as_str() != META)
                .map(|e| (e.key.to_string(), e.value.clone()))
                .collect(),
            _ => Vec::new(),
        }
    };
    let served_data = unique(served, "data").map(rest).unwrap_or_default();
    let signed_data = unique(signed, "data");
    let data_matches = match signed_data {
        None => served_data.is_empty(),
        Some(Value::Object(m)) => {
            !served_data.is_empty()
                && m.len() == served_data.len()
                && served_data
                    .iter()
                    .all(|(name, value)| unique(m, name).is_some_and(|v| same(value, v)))
        }
        Some(_) => false,
    };
    let others_match =
        ["code", "message"]
            .iter()
            .all(|name| match (unique(served, name), unique(signed, name)) {
                (Some(a), Some(b)) => same(a, b),
                (None, None) => true,
                _ => false,
            });
    let signed_names_known = signed
        .iter()
        .all(|e| ["code", "message", "data"].contains(&e.key.as_str()));
    data_matches && others_match && signed_names_known
}

fn object_len(value: &Value) -> Option<usize> {
    match value {
        Value::Object(m) => Some(m.len()),
        _ => None,
    }
}

/// Whether two values are the same JSON value, numbers compared by exact decimal value.
fn same(a: &Value, b: &Value) -> bool {
    let mut pending = vec![(a, b)];
    while let Some((a, b)) = pending.pop() {
        let alike = match (a, b) {
            (Value::Null, Value::Null) => true,
            (Value::Boolean(x), Value::Boolean(y)) => x == y,
            (Value::Number(x), Value::Number(y)) => exact(x.as_str()) == exact(y.as_str()),
            (Value::String(x), Value::String(y)) => x == y,
            (Value::Array(x), Value::Array(y)) => {
                pending.extend(x.iter().zip(y.iter()));
                x.len() == y.len()
            }
            (Value::Object(x), Value::Object(y)) => {
                x.len() == y.len()
                    && x.iter().all(|e| match unique(y, &e.key) {
                        Some(other) => {
                            pending.push((&e.value, other));
                            true
                        }
                        None => false,
                    })
            }
            _ => false,
        };
        if !alike {
            return false;
        }
    }
    true
}
