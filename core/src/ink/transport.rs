//! An INK request as a receiving endpoint checks it: the Authorization header
//! (`INK-Ed25519 <86 base64url characters>`, optionally ` keyId=<1-128 of [A-Za-z0-9_:.-]>`,
//! separated by spaces or tabs only — a CR or LF is never part of a header value), the
//! signature over the request's signature base against the key history of the sender that
//! `body.from` names (looked up in the endpoint's key directory; a sender it does not know is
//! refused, and no other sender's keys are ever tried), live authentication, and the sender
//! cross-check: a nested actor claim (`payload.actor`) must name the same DID. Rejections carry INK's error code and
//! message and the HTTP status an endpoint answers with.

use serde_json::{Map, Value};

use super::request::{self, KeyMatch, SignInput};
use super::{replay, InkError};

/// A parsed Authorization header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Authorization {
    /// The signature, 86 base64url characters.
    pub signature: String,
    /// The key id hint, if given.
    pub key_id: Option<String>,
}

fn header_error(why: &str) -> InkError {
    InkError::new(
        "invalid_authorization",
        format!("the Authorization header is not `INK-Ed25519 <signature>[ keyId=<id>]`: {why}"),
    )
}

/// Parses an Authorization header.
pub fn parse_authorization(header: &str) -> Result<Authorization, InkError> {
    let rest = header
        .strip_prefix("INK-Ed25519")
        .ok_or_else(|| header_error("it does not start with INK-Ed25519"))?;
    let blank = |c: char| c == ' ' || c == '\t';
    let mut parts = rest.split(blank).filter(|p| !p.is_empty());
    if !rest.starts_with(blank) {
        return Err(header_error("no space after the scheme"));
    }
    let signature = parts.next().ok_or_else(|| header_error("no signature"))?;
    if signature.len() != 86
        || !signature
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
    {
        return Err(header_error("the signature is not 86 base64url characters"));
    }
    let key_id = match parts.next() {
        None => None,
        Some(hint) => {
            let id = hint
                .strip_prefix("keyId=")
                .ok_or_else(|| header_error("the second parameter is not keyId="))?;
            let allowed = |b: u8| b.is_ascii_alphanumeric() || b"_:.-".contains(&b);
            if id.is_empty() || id.len() > 128 || !id.bytes().all(allowed) {
                return Err(header_error("the keyId is not 1-128 of [A-Za-z0-9_:.-]"));
            }
            Some(id.to_string())
        }
    };
    if parts.next().is_some() || header.contains(['\r', '\n']) {
        return Err(header_error("unexpected text after the parameters"));
    }
    Ok(Authorization {
        signature: signature.to_string(),
        key_id,
    })
}

/// The HTTP status an endpoint answers a rejection with.
pub fn http_status(error: &InkError) -> u16 {
    match error.kind {
        "sender_mismatch" | "transport_scope_violation" => 403,
        "unknown_sender" => 401,
        "handshake_budget_exhausted" | "sender_rate_limited" => 429,
        "duplicate_event_id" => 409,
        "invalid_authorization"
        | "signature"
        | "signature_format"
        | "signature_verification_failed"
        | "retired_key_for_live_auth"
        | "stale"
        | "future"
        | "replay" => 401,
        _ => 400,
    }
}

/// Everything a receiving endpoint checks a request with.
#[derive(Debug, Clone)]
pub struct Request<'a> {
    /// The HTTP method.
    pub method: &'a str,
    /// The request path.
    pub path: &'a str,
    /// This endpoint's DID.
    pub recipient_did: &'a str,
    /// The body as received.
    pub body: &'a [u8],
    /// The Authorization header, `None` when the request carries none.
    pub authorization: Option<&'a str>,
    /// The key histories this endpoint knows, by sender DID: each an array of key entries.
    pub keys: &'a Map<String, Value>,
    /// Whether retired keys may authenticate (a rotation grace window).
    pub allow_retired: bool,
    /// The receiver's clock, when freshness is checked.
    pub now: Option<&'a str>,
}

/// What an accepted request established.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Accepted {
    /// The authenticated sender, `body.from`.
    pub sender: String,
    /// The key-history entry that verified the signature.
    pub key: KeyMatch,
}

/// Checks a request as an INK endpoint does.
pub fn verify_request(req: &Request) -> Result<Accepted, InkError> {
    let header = req.authorization.ok_or_else(|| {
        InkError::new(
            "invalid_authorization",
            "the request carries no Authorization header; an INK request must be signed",
        )
    })?;
    let auth = parse_authorization(header)?;
    let body = crate::json::read(req.body)
        .map_err(|e| InkError::new("invalid_body", format!("the body is not JSON: {e}")))?;
    let field = |name: &str| {
        body.get(name).and_then(Value::as_str).ok_or_else(|| {
            InkError::new("invalid_body", format!("the body has no string \"{name}\""))
        })
    };
    let from = field("from")?;
    let timestamp = field("timestamp")?;
    let history = match req.keys.get(from) {
        Some(Value::Array(history)) => history,
        Some(_) => {
            return Err(InkError::new(
                "invalid_key_history",
                format!("the key history of {from} is not an array of key entries"),
            ))
        }
        None => {
            return Err(InkError::new(
                "unknown_sender",
                format!("no key history is known for the sender {from}; a request is verified only with its sender's keys"),
            ))
        }
    };
    let base = request::signature_base(&SignInput {
        method: req.method,
        path: req.path,
        recipient_did: req.recipient_did,
        body: req.body,
        timestamp,
    })?;
    let found = request::verify_with_history(
        &base,
        &auth.signature,
        timestamp,
        history,
        auth.key_id.as_deref(),
    )?;
    let key = request::live_auth(found, req.allow_retired)?;
    if let Some(now) = req.now {
        let nonce = body
            .get("nonce")
            .and_then(Value::as_str)
            .unwrap_or_default();
        replay::check(timestamp, now, nonce, [])?;
    }
    let actor = body.get("payload").and_then(|p| p.get("actor"));
    if actor.is_some_and(|a| a.as_str() != Some(from)) {
        return Err(InkError::new(
            "sender_mismatch",
            "Nested actor claim does not match authenticated sender",
        ));
    }
    Ok(Accepted {
        sender: from.to_string(),
        key,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const SIG: &str =
        "ZXhhbXBsZS1iYXNlNjR1cmwtc2lnbmF0dXJlLWV4YWN0bHktODYtY2hhcmFjdGVycy1sb25nLWVuY29kZWQtcw";

    #[test]
    fn the_seeds_header_shapes_parse() {
        // Seed 003's two valid headers.
        assert_eq!(
            parse_authorization(&format!("INK-Ed25519 {SIG}")),
            Ok(Authorization {
                signature: SIG.into(),
                key_id: None
            })
        );
        assert_eq!(
            parse_authorization(&format!("INK-Ed25519 {SIG} keyId=sig-2026-03")).map(|a| a.key_id),
            Ok(Some("sig-2026-03".into()))
        );
        for bad in [
            format!("INK-Ed25519{SIG}"),
            format!("ink-ed25519 {SIG}"),
            format!("INK-Ed25519 {SIG}\n"),
            format!("INK-Ed25519\n{SIG}"),
            format!("INK-Ed25519 {SIG} did=x"),
            format!("INK-Ed25519 {SIG} keyId="),
            format!("INK-Ed25519 {}", &SIG[1..]),
            format!("INK-Ed25519 {SIG} keyId=a b"),
        ] {
            let e = parse_authorization(&bad).unwrap_err();
            assert_eq!(e.kind, "invalid_authorization", "{bad:?}");
            assert_eq!(http_status(&e), 401);
        }
    }
}
