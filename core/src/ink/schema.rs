//! INK's document shapes: the handshake messages (challenge, rejection, resolution; unknown
//! members ignored) and the connection payloads (request, response and the profile snapshot
//! inside them; unknown members refused at every level). String bounds count UTF-16 code units.

use serde_json::{Map, Value};

use super::{time, utf16_len, InkError, MAX_SAFE_INTEGER};
use crate::shown::quoted;

pub(crate) fn bad(why: impl Into<String>) -> InkError {
    InkError::new("schema", why)
}

pub(crate) type Object = Map<String, Value>;

pub(crate) fn object<'a>(value: &'a Value, what: &str) -> Result<&'a Object, InkError> {
    value
        .as_object()
        .ok_or_else(|| bad(format!("{what} is not an object")))
}

pub(crate) fn required<'a>(m: &'a Object, key: &str, max: usize) -> Result<&'a str, InkError> {
    match m.get(key) {
        Some(Value::String(s)) if utf16_len(s) <= max => Ok(s),
        Some(Value::String(_)) => Err(bad(format!("{key} is longer than {max} UTF-16 code units"))),
        Some(_) => Err(bad(format!("{key} is not a string"))),
        None => Err(bad(format!("{key} is missing"))),
    }
}

pub(crate) fn optional(m: &Object, key: &str, max: usize) -> Result<(), InkError> {
    match m.get(key) {
        None => Ok(()),
        Some(_) => required(m, key, max).map(|_| ()),
    }
}

pub(crate) fn one_of(m: &Object, key: &str, allowed: &[&str]) -> Result<(), InkError> {
    match m.get(key).and_then(Value::as_str) {
        Some(v) if allowed.contains(&v) => Ok(()),
        _ => Err(bad(format!("{key} is not one of {}", allowed.join(", ")))),
    }
}

pub(crate) fn strings(
    m: &Object,
    key: &str,
    required: bool,
    max_len: usize,
    max_item: usize,
) -> Result<(), InkError> {
    let Some(value) = m.get(key) else {
        return if required {
            Err(bad(format!("{key} is missing")))
        } else {
            Ok(())
        };
    };
    let items = value
        .as_array()
        .ok_or_else(|| bad(format!("{key} is not an array")))?;
    if items.len() > max_len {
        return Err(bad(format!("{key} has more than {max_len} entries")));
    }
    if items
        .iter()
        .any(|i| i.as_str().is_none_or(|s| utf16_len(s) > max_item))
    {
        return Err(bad(format!(
            "an entry of {key} is not a string of at most {max_item} UTF-16 code units"
        )));
    }
    Ok(())
}

fn only(m: &Object, allowed: &[&str], what: &str) -> Result<(), InkError> {
    match m.keys().find(|k| !allowed.contains(&k.as_str())) {
        Some(k) => Err(bad(format!("{what} has the unknown member {}", quoted(k)))),
        None => Ok(()),
    }
}

/// A handshake date-time: `YYYY-MM-DDTHH:MM:SS[.fraction]Z`, ranges checked; no offset.
fn handshake_time(text: &str) -> bool {
    text.ends_with('Z') && time::parse(text).is_ok()
}

/// Validates a handshake message (challenge, rejection or resolution, in the `network.tulpa`
/// or `network.ink` namespace).
pub fn handshake_message(value: &Value) -> Result<(), InkError> {
    let m = object(value, "the message")?;
    let kind = m
        .get("type")
        .and_then(Value::as_str)
        .and_then(|t| {
            t.strip_prefix("network.tulpa.")
                .or_else(|| t.strip_prefix("network.ink."))
        })
        .ok_or_else(|| bad("type is missing or not a handshake message type"))?;
    if m.get("protocol").and_then(Value::as_str) != Some("ink/0.1") {
        return Err(bad("protocol is not ink/0.1"));
    }
    required(m, "intentRef", 256)?;
    required(m, "nonce", 256)?;
    if !handshake_time(required(m, "timestamp", usize::MAX)?) {
        return Err(bad("timestamp is not a UTC date-time ending in Z"));
    }
    match kind {
        "challenge" => {
            one_of(
                m,
                "challengeType",
                &[
                    "mutual_connection_proof",
                    "identity_verification",
                    "availability_query",
                    "context_request",
                    "none",
                ],
            )?;
            strings(m, "fields", false, 32, 256)?;
            strings(m, "availableWindows", false, 32, 64)?;
            strings(m, "contextFields", false, 32, 256)
        }
        "rejection" => {
            one_of(
                m,
                "reason",
                &[
                    "policy_violation",
                    "trust_threshold",
                    "capacity",
                    "unsupported_intent",
                    "rate_limited",
                    "expired",
                    "handshake_budget_exhausted",
                    "counterparty_cooldown",
                    "sender_rate_limited",
                    "delegation_budget_exhausted",
                    "transport_scope_violation",
                ],
            )?;
            optional(m, "detail", 500)?;
            optional(m, "retryAfter", 64)?;
            match m.get("backoffHint") {
                Some(hint) => backoff_hint(hint),
                None => Ok(()),
            }
        }
        "resolution" => {
            one_of(
                m,
                "outcome",
                &["accepted", "declined", "escalated_to_human", "expired"],
            )?;
            optional(m, "counterpartyDid", 512)?;
            if let Some(details) = m.get("details") {
                let details = object(details, "details")?;
                optional(details, "scheduledAt", 64)?;
                optional(details, "duration", 64)?;
            }
            Ok(())
        }
        other => Err(bad(format!(
            "{} is not a handshake message type",
            quoted(other)
        ))),
    }
}

/// Checks a rejection's `backoffHint`: when to retry, and against what.
fn backoff_hint(hint: &Value) -> Result<(), InkError> {
    let hint = object(hint, "backoffHint")?;
    if let Some(seconds) = hint.get("retryAfterSeconds") {
        let positive_integer = seconds
            .as_f64()
            .is_some_and(|f| f.fract() == 0.0 && f > 0.0 && f <= MAX_SAFE_INTEGER as f64);
        if !positive_integer {
            return Err(bad("retryAfterSeconds is not a positive safe integer"));
        }
    }
    if let Some(until) = hint.get("cooldownUntil") {
        if !until.as_str().is_some_and(handshake_time) {
            return Err(bad("cooldownUntil is not a UTC date-time ending in Z"));
        }
    }
    if hint.contains_key("backoffClass") {
        one_of(
            hint,
            "backoffClass",
            &["sender", "intent_ref", "counterparty"],
        )?;
    }
    Ok(())
}

pub(crate) fn profile_snapshot(value: &Value) -> Result<(), InkError> {
    let p = object(value, "profileSnapshot")?;
    only(
        p,
        &["headline", "skills", "interests", "openTo", "availability"],
        "profileSnapshot",
    )?;
    required(p, "headline", 500)?;
    strings(p, "skills", true, 50, 100)?;
    strings(p, "interests", true, 50, 100)?;
    strings(p, "openTo", true, 20, 100)?;
    if let Some(a) = p.get("availability") {
        let a = object(a, "availability")?;
        only(
            a,
            &["timezone", "meetingHours", "responseSla"],
            "availability",
        )?;
        required(a, "timezone", 64)?;
        optional(a, "meetingHours", 200)?;
        optional(a, "responseSla", 200)?;
    }
    Ok(())
}

/// Validates a connection payload of `kind` (`connection_request` or `connection_response`).
pub fn connection_payload(kind: &str, value: &Value) -> Result<(), InkError> {
    let m = object(value, "the payload")?;
    match kind {
        "connection_request" => {
            only(
                m,
                &["method", "introducedBy", "context", "profileSnapshot"],
                "the request",
            )?;
            one_of(m, "method", &["qr", "intro", "discovery", "import"])?;
            optional(m, "introducedBy", 512)?;
            required(m, "context", 2000)?;
            profile_snapshot(
                m.get("profileSnapshot")
                    .ok_or_else(|| bad("profileSnapshot is missing"))?,
            )
        }
        "connection_response" => {
            only(m, &["status", "profileSnapshot", "note"], "the response")?;
            one_of(m, "status", &["accepted", "declined", "pending"])?;
            optional(m, "note", 1000)?;
            m.get("profileSnapshot").map_or(Ok(()), profile_snapshot)
        }
        other => Err(bad(format!(
            "{} is not a connection payload kind",
            quoted(other)
        ))),
    }
}
