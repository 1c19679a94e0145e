//! INK's messages as the judge checks their shape: handshakes, connection payloads, snapshots,
//! containment and disclosure, each member bounded, chosen from a list or required.

use json_syntax::Value;

use super::epoch_ms;
use super::witness::integer;
use crate::judge::json::{self, text};
use crate::judge::{must, refused, Refusal};

/// Member `key` of `m` is a string of at most `bound` UTF-16 code units; absent only if not
/// `needed`.
pub(super) fn bounded(m: &Value, key: &str, bound: usize, needed: bool) -> Result<(), Refusal> {
    match json::member(m, key) {
        None => must(!needed, "a required member is missing"),
        Some(Value::String(s)) => must(
            s.encode_utf16().count() <= bound,
            "a string is past its bound",
        ),
        Some(_) => Err(refused("a member is not a string")),
    }
}

/// Member `key` of `m` is one of the strings `allowed`.
pub(super) fn chosen(m: &Value, key: &str, allowed: &[&str]) -> Result<(), Refusal> {
    must(
        text(m, key).is_some_and(|v| allowed.contains(&v)),
        "a member is not one of its values",
    )
}

/// Member `key` of `m` is a list of at most `count` strings, each one that `fits`; absent
/// only if not `needed`.
pub(super) fn strings(
    m: &Value,
    key: &str,
    needed: bool,
    count: usize,
    fits: impl Fn(&str) -> bool,
) -> Result<(), Refusal> {
    match json::member(m, key) {
        None => must(!needed, "a required list is missing"),
        Some(Value::Array(items)) => must(
            items.len() <= count
                && items
                    .iter()
                    .all(|i| matches!(i, Value::String(s) if fits(s.as_str()))),
            "a list is past its bounds or holds a value it may not",
        ),
        Some(_) => Err(refused("a member is not a list")),
    }
}

/// Member `key` of `m` is a list of at most `count` strings of at most `bound` UTF-16 code
/// units; absent only if not `needed`.
pub(super) fn listed(
    m: &Value,
    key: &str,
    needed: bool,
    count: usize,
    bound: usize,
) -> Result<(), Refusal> {
    strings(m, key, needed, count, |s| s.encode_utf16().count() <= bound)
}

/// `m` is an object with no member but those `allowed`.
pub(super) fn only(m: &Value, allowed: &[&str]) -> Result<(), Refusal> {
    let Value::Object(members) = m else {
        return Err(refused("not an object"));
    };
    must(
        members.iter().all(|e| allowed.contains(&e.key.as_str())),
        "an unknown member",
    )
}

/// A handshake date-time: an INK timestamp ending in `Z`.
pub(super) fn utc(value: Option<&Value>) -> bool {
    matches!(value, Some(Value::String(s)) if s.ends_with('Z') && epoch_ms(s).is_ok())
}

/// INK's handshake message: a challenge, rejection or resolution in the `network.tulpa` or
/// `network.ink` namespace, protocol `ink/0.1`, an intentRef and nonce of at most 256 UTF-16
/// code units, a timestamp in UTC, each kind's members as INK lists them; unknown members
/// ignored.
pub(super) fn handshake(m: &Value) -> Result<Vec<u8>, Refusal> {
    must(matches!(m, Value::Object(_)), "not an object")?;
    let kind = text(m, "type")
        .and_then(|t| {
            t.strip_prefix("network.tulpa.")
                .or_else(|| t.strip_prefix("network.ink."))
        })
        .ok_or_else(|| refused("not a handshake message type"))?;
    must(text(m, "protocol") == Some("ink/0.1"), "not ink/0.1")?;
    bounded(m, "intentRef", 256, true)?;
    bounded(m, "nonce", 256, true)?;
    must(utc(json::member(m, "timestamp")), "timestamp is not UTC")?;
    match kind {
        "challenge" => {
            chosen(
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
            listed(m, "fields", false, 32, 256)?;
            listed(m, "availableWindows", false, 32, 64)?;
            listed(m, "contextFields", false, 32, 256)?;
        }
        "rejection" => {
            chosen(
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
            bounded(m, "detail", 500, false)?;
            bounded(m, "retryAfter", 64, false)?;
            if let Some(hint) = json::member(m, "backoffHint") {
                backoff_hint(hint)?;
            }
        }
        "resolution" => {
            chosen(
                m,
                "outcome",
                &["accepted", "declined", "escalated_to_human", "expired"],
            )?;
            bounded(m, "counterpartyDid", 512, false)?;
            if let Some(details) = json::member(m, "details") {
                must(matches!(details, Value::Object(_)), "details")?;
                bounded(details, "scheduledAt", 64, false)?;
                bounded(details, "duration", 64, false)?;
            }
        }
        _ => return Err(refused("not a handshake message type")),
    }
    Ok(b"valid".to_vec())
}

/// A rejection's backoff hint: an object whose retry delay is a whole number of seconds, its
/// cooldown a UTC time, and its class one of INK's.
fn backoff_hint(hint: &Value) -> Result<(), Refusal> {
    must(matches!(hint, Value::Object(_)), "backoffHint")?;
    if let Some(seconds) = json::member(hint, "retryAfterSeconds") {
        must(integer(Some(seconds), 1).is_some(), "retryAfterSeconds")?;
    }
    if let Some(until) = json::member(hint, "cooldownUntil") {
        must(utc(Some(until)), "cooldownUntil")?;
    }
    if json::member(hint, "backoffClass").is_some() {
        chosen(
            hint,
            "backoffClass",
            &["sender", "intent_ref", "counterparty"],
        )?;
    }
    Ok(())
}

/// A profile snapshot: a headline of at most 500 UTF-16 code units, skills and interests (at
/// most 50 of at most 100), openTo (at most 20 of at most 100), and an optional availability
/// with a timezone of at most 64 and meeting hours and response SLA of at most 200; nothing
/// else.
pub(super) fn snapshot(s: Option<&Value>) -> Result<(), Refusal> {
    let s = s.ok_or_else(|| refused("no profileSnapshot"))?;
    only(
        s,
        &["headline", "skills", "interests", "openTo", "availability"],
    )?;
    bounded(s, "headline", 500, true)?;
    listed(s, "skills", true, 50, 100)?;
    listed(s, "interests", true, 50, 100)?;
    listed(s, "openTo", true, 20, 100)?;
    if let Some(a) = json::member(s, "availability") {
        only(a, &["timezone", "meetingHours", "responseSla"])?;
        bounded(a, "timezone", 64, true)?;
        bounded(a, "meetingHours", 200, false)?;
        bounded(a, "responseSla", 200, false)?;
    }
    Ok(())
}

/// INK's connection payloads: a request (a method from INK's list, an optional introducer of
/// at most 512 UTF-16 code units, a context of at most 2,000, a profile snapshot) or a
/// response (a status, an optional note of at most 1,000, an optional snapshot); unknown
/// members refused.
pub(super) fn connection(kind: &str, p: &Value) -> Result<Vec<u8>, Refusal> {
    match kind {
        "connection_request" => {
            only(p, &["method", "introducedBy", "context", "profileSnapshot"])?;
            chosen(p, "method", &["qr", "intro", "discovery", "import"])?;
            bounded(p, "introducedBy", 512, false)?;
            bounded(p, "context", 2000, true)?;
            snapshot(json::member(p, "profileSnapshot"))?;
        }
        "connection_response" => {
            only(p, &["status", "profileSnapshot", "note"])?;
            chosen(p, "status", &["accepted", "declined", "pending"])?;
            bounded(p, "note", 1000, false)?;
            if let Some(s) = json::member(p, "profileSnapshot") {
                snapshot(Some(s))?;
            }
        }
        _ => return Err(refused("not a connection payload kind")),
    }
    Ok(b"valid".to_vec())
}

/// A whole number member of a decision's input.
pub(super) fn count(input: &Value, name: &str) -> Result<u64, Refusal> {
    match json::member(input, name) {
        Some(Value::Number(n)) => n.as_str().parse().map_err(|_| Refusal::Unanswered),
        _ => Err(Refusal::Unanswered),
    }
}

/// Seed 003's containment: a token without `tokenVersion` is a legacy token, permitted on
/// every transport; a versioned one permits the strings of its `allowedTransports` array
/// (nothing when it is not an array), by default `ink_http` alone. One more challenge or
/// intent fits while fewer than the maximum were sent; only the handshake's initiator and
/// responder may send on it.
pub(super) fn contained(input: &Value) -> Result<Vec<u8>, Refusal> {
    let field = |name: &str| text(input, name).ok_or(Refusal::Unanswered);
    match field("op")? {
        "transport" => {
            let token = json::member(input, "token").ok_or(Refusal::Unanswered)?;
            if json::member(token, "tokenVersion").is_some() {
                let transport = field("requestTransport")?;
                let permitted = match json::member(token, "allowedTransports") {
                    None => transport == "ink_http",
                    Some(Value::Array(allowed)) => allowed
                        .iter()
                        .any(|t| matches!(t, Value::String(s) if s == transport)),
                    Some(_) => false,
                };
                must(permitted, "the token does not permit this transport")?;
            }
        }
        "challenge_budget" => must(
            count(input, "challengesSentSoFar")? < count(input, "maxChallengesPerCorrelation")?,
            "the challenge budget is spent",
        )?,
        "sender_rate" => must(
            count(input, "intentsSentInWindow")? < count(input, "maxIntentsPerWindow")?,
            "the sender's rate is spent",
        )?,
        "counterparty" => {
            let from = field("from")?;
            must(
                from == field("initiator")? || from == field("responder")?,
                "the sender is not in the handshake",
            )?;
        }
        _ => return Err(Refusal::Unanswered),
    }
    Ok(b"valid".to_vec())
}

/// The members of a redacted card, as seed 003 lists them.
pub(super) const REDACTED: [&str; 6] = [
    "agentId",
    "displayName",
    "supportsInk",
    "discoveryMode",
    "visibility",
    "updatedAt",
];

/// Seed 003's discovery gating: a public card goes to anyone, a network_only one to an
/// authenticated caller and a capability_gated one to a capability's holder (each flag
/// exactly `true`), the redacted card to the rest, and a private one is not found; a redacted
/// card has exactly its six members.
pub(super) fn disclosed(input: &Value) -> Result<Vec<u8>, Refusal> {
    let yes = |name: &str| matches!(json::member(input, name), Some(Value::Boolean(true)));
    match text(input, "op") {
        Some("redacted") => {
            let Some(Value::Object(card)) = json::member(input, "card") else {
                return Err(refused("a redacted card is an object"));
            };
            let names: Vec<&str> = card.iter().map(|m| m.key.as_str()).collect();
            must(
                names.len() == REDACTED.len() && REDACTED.iter().all(|r| names.contains(r)),
                "not the six members of a redacted card",
            )?;
            Ok(b"valid".to_vec())
        }
        Some("gate") => {
            let visibility = text(input, "visibility").ok_or(Refusal::Unanswered)?;
            let (shown, status) = match visibility {
                "public" => ("full_card", 200),
                "network_only" if yes("authenticated") => ("full_card", 200),
                "capability_gated" if yes("holdsCapability") => ("full_card", 200),
                "network_only" | "capability_gated" => ("redacted_card", 200),
                "private" => ("not_found", 404),
                _ => return Err(refused("not a visibility")),
            };
            Ok(format!(r#"{{"disclosure":"{shown}","httpStatus":{status}}}"#).into_bytes())
        }
        _ => Err(Refusal::Unanswered),
    }
}
