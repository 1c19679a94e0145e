//! ekl's judge, from its definitions (PROTOCOL.md §15): a fingerprint is
//! SHA-256(salt ‖ JCS(value)) with a salt of 32 bytes given in hex; a tool result's body is its
//! `structuredContent` when present and not null, else its `content` array (inside a JSON-RPC
//! `result` when the result has neither); a challenge proof is HMAC-SHA256 keyed with the
//! lowercase hex SHA-256 of the credential, over the challenge followed by the endpoint, and
//! a proof is verified as 64 hex digits in constant time. Composed from json-syntax, ring and
//! RFC 8785 as [`crate::judge`] writes it.

use json_syntax::Value;
use ring::hmac;

use crate::judge::json::{self, member, text};
use crate::judge::{self, hex, must, refused, sha256, Judge, Refusal};

/// The judge, as the family lists it.
pub const JUDGE: Judge = Judge {
    crates: &["json-syntax", "ryu-js", "ring"],
    name: "rust-ekl",
    answer: compute,
};

/// The case's fingerprint or proof, or `valid` for a proof that verifies.
fn compute(input: &[u8]) -> Result<Vec<u8>, Refusal> {
    let case = judge::case(input)?;
    let field = |name: &str| text(&case, name).ok_or(Refusal::Unanswered);
    let answer = match field("op")? {
        "challenge" => hex(challenge_mac(&case)?.as_ref()),
        "verify" => {
            let proof = field("proof")?;
            must(
                proof.len() == 64 && proof.bytes().all(|b| b.is_ascii_hexdigit()),
                "the proof is not 64 hex digits",
            )?;
            let given = from_hex(proof)?;
            let key = hmac::Key::new(hmac::HMAC_SHA256, credential_key(&case)?.as_bytes());
            hmac::verify(&key, &signed(&case)?, &given)
                .map_err(|_| refused("the proof does not match"))?;
            "valid".to_string()
        }
        op @ ("fingerprint" | "result") => {
            let salt = from_hex(field("salt")?)?;
            must(salt.len() == 32, "the salt is not 32 bytes")?;
            let value = if op == "fingerprint" {
                json::read(field("value")?.as_bytes())?
            } else {
                json::read(field("result")?.as_bytes())?
            };
            let body = if op == "fingerprint" {
                &value
            } else {
                result_body(&value)?
            };
            let mut data = salt;
            data.extend(json::canonical(body)?);
            hex(&sha256(&data))
        }
        _ => return Err(Refusal::Unanswered),
    };
    Ok(answer.into_bytes())
}

/// A tool result's body: `structuredContent` when present and not null, else `content`.
fn result_body(result: &Value) -> Result<&Value, Refusal> {
    must(
        matches!(result, Value::Object(_)),
        "a tool result is an object",
    )?;
    let has = |name: &str| member(result, name).is_some();
    let result = match member(result, "result") {
        Some(inner @ Value::Object(_)) if !has("structuredContent") && !has("content") => inner,
        _ => result,
    };
    match (
        member(result, "structuredContent"),
        member(result, "content"),
    ) {
        (Some(body), _) if !matches!(body, Value::Null) => Ok(body),
        (_, Some(content @ Value::Array(_))) => Ok(content),
        _ => Err(refused("no body to fingerprint")),
    }
}

/// The lowercase hex SHA-256 of the case's credential, the MAC's key.
fn credential_key(case: &Value) -> Result<String, Refusal> {
    let credential = text(case, "credential").ok_or(Refusal::Unanswered)?;
    Ok(hex(&sha256(credential.as_bytes())))
}

/// What a challenge proof covers: the challenge followed by the endpoint.
fn signed(case: &Value) -> Result<Vec<u8>, Refusal> {
    match (text(case, "challenge"), text(case, "endpoint")) {
        (Some(challenge), Some(endpoint)) => Ok(format!("{challenge}{endpoint}").into_bytes()),
        _ => Err(Refusal::Unanswered),
    }
}

/// The case's challenge proof.
fn challenge_mac(case: &Value) -> Result<hmac::Tag, Refusal> {
    let key = hmac::Key::new(hmac::HMAC_SHA256, credential_key(case)?.as_bytes());
    Ok(hmac::sign(&key, &signed(case)?))
}

/// The bytes of a hex text, in either case.
fn from_hex(text: &str) -> Result<Vec<u8>, Refusal> {
    must(
        text.len().is_multiple_of(2) && text.bytes().all(|b| b.is_ascii_hexdigit()),
        "not hex",
    )?;
    text.as_bytes()
        .chunks(2)
        .map(|pair| {
            std::str::from_utf8(pair)
                .ok()
                .and_then(|digits| u8::from_str_radix(digits, 16).ok())
                .ok_or_else(|| refused("not hex"))
        })
        .collect()
}
