//! INK's judge, from INK's definitions: a body is committed under INK's JSON profile (RFC 8785
//! and I-JSON, every number a safe integer — |n| ≤ 2^53 − 1, no fraction, no −0 — nesting at
//! most 32 deep, at most 10,000 values, a canonical form of at most 1 MiB); an audit event's
//! leaf is SHA-256(0x00 ‖ JCS(event without agentSignature)); a request's signature base is
//! `ink/0.1`, method, path, recipient, JCS(body) and timestamp, one per line, no field holding
//! a line break (answered as its SHA-256), and its INK-Ed25519 signature 86 base64url
//! characters over it, verified by ring with a key of 64 lowercase hex digits, or with the
//! first of a key history's usable entries, the hinted one, then the active ones, then the
//! retired ones, that verifies it; a timestamp is an RFC 3339 date-time with uppercase
//! `T` and `Z`, no leap second and at most 64 characters, read as whole milliseconds since the
//! epoch (floored); an agent id names a principal — `tulpa:` and `ink:` ids whose body is `z`
//! and base58btc of the Ed25519 multicodec (0xed 0x01) and 32 bytes, canonically written, name
//! `key:<body>`, other ids with one of INK's prefixes are escaped as `raw:<id>`, the rest pass
//! through, and none is empty or longer than 512 UTF-16 code units; an inclusion proof listed
//! from the root down is RFC 9162's audit path reversed; a body's canonical form is
//! its RFC 8785 form under the profile; a message is fresh when its nonce has 16 to 256
//! characters, its timestamp
//! is at most 300,000 ms old and at most 30,000 ms ahead of the receiver's clock, and its nonce
//! has not been seen; a checkpoint body is C2SP's three lines as INK bounds them; the
//! witness's hashes are RFC 9162's and its signatures Ed25519 over its documents' JCS forms
//! (an audit response's after the line `ink/audit-response`); containment and discovery
//! gating and the endpoint's check of a request follow seed 003's rules, and inclusion
//! receipts, audit-query responses, handshake messages, connection payloads and Agent Cards
//! INK's. Composed from json-syntax, ring, the time crate, bs58 and RFC 8785 as
//! [`crate::judge`] writes it.

use json_syntax::Value;
use time::format_description::well_known::Rfc3339;
use time::OffsetDateTime;

use crate::judge::json::{self, double, text};
use crate::judge::{self, hex, must, refused, sha256, Judge, Refusal};
use messages::{connection, contained, disclosed, handshake};
use signatures::{
    authorization, raw_rotation, rotated, rotation, signature_base, verified, Rotation,
};
use witness::{checkpoint, event_leaf, included, receipt};

mod audits;
mod cards;
mod messages;
mod signatures;
mod witness;

/// The judge, as the family lists it.
pub const JUDGE: Judge = Judge {
    crates: &["json-syntax", "ryu-js", "ring", "time", "bs58"],
    name: "rust-ink",
    answer: compute,
};

/// The deepest nesting INK's profile takes.
const MAX_DEPTH: usize = 32;
/// The most values a body may hold.
const MAX_VALUES: usize = 10_000;
/// The largest canonical body, in bytes.
const MAX_CANONICAL: usize = 1 << 20;
/// The largest safe integer, 2^53 − 1.
const MAX_SAFE: f64 = 9_007_199_254_740_991.0;

/// The case's leaf hash or signature base hash, as lowercase hex.
fn compute(input: &[u8]) -> Result<Vec<u8>, Refusal> {
    let case = judge::case(input)?;
    let field = |name: &str| text(&case, name).ok_or(Refusal::Unanswered);
    let digest = match field("op")? {
        "leaf" => event_leaf(profiled(field("event")?)?)?,
        op @ ("base" | "signed" | "rotation") => {
            let body = profiled(field("body")?)?;
            let base = signature_base(&case, &body, field("timestamp")?)?;
            match op {
                "signed" => return verified(&case, &base).map(|()| b"valid".to_vec()),
                "rotation" => return rotation(&case, &base).map(String::into_bytes),
                _ => sha256(&base),
            }
        }
        "body" => return json::canonical(&profiled(field("body")?)?),
        "principal" => return principal(field("agentId")?).map(String::into_bytes),
        "inclusion" => return included(&case).map(|()| b"valid".to_vec()),
        "checkpoint" => return checkpoint(field("checkpoint")?).map(|b| b.as_bytes().to_vec()),
        "timestamp" => return Ok(epoch_ms(field("timestamp")?)?.to_string().into_bytes()),
        "replay" => return fresh(&case).map(|()| b"valid".to_vec()),
        "decide" => {
            let input = json::member(&case, "input").ok_or(Refusal::Unanswered)?;
            return match field("decision")? {
                "seed-containment" => contained(input),
                "seed-discovery-gating" => disclosed(input),
                "seed-transport-auth" if text(input, "op") == Some("request") => endpoint(input),
                "inclusion-receipt" => receipt(input),
                "audit-query-response" => audits::audit(input),
                "handshake-message" => {
                    handshake(json::member(input, "message").ok_or(Refusal::Unanswered)?)
                }
                "seed-key-rotation" => raw_rotation(input),
                "seed-witness" if text(input, "op") == Some("leaf") => claimed_leaf(input),
                "agent-card" => {
                    cards::card(json::member(input, "card").ok_or(Refusal::Unanswered)?)
                }
                "connection-payload" => connection(
                    text(input, "kind").ok_or(Refusal::Unanswered)?,
                    json::member(input, "payload").ok_or(Refusal::Unanswered)?,
                ),
                _ => Err(Refusal::Unanswered),
            };
        }
        op => return witness::witness(&case, op).unwrap_or(Err(Refusal::Unanswered)),
    };
    Ok(hex(&digest).into_bytes())
}

/// Seed 003's witness leaf beside a claimed canonical form: the event held to INK's profile,
/// a claim (when it is a string) that is not its RFC 8785 form refused, and otherwise RFC
/// 8785 JSON of its `canonicalString` and `leafHash`.
fn claimed_leaf(input: &Value) -> Result<Vec<u8>, Refusal> {
    let event = held(
        json::member(input, "event")
            .ok_or(Refusal::Unanswered)?
            .clone(),
    )?;
    let canonical = String::from_utf8(json::canonical(&event)?)
        .map_err(|_| refused("a canonical form is not UTF-8"))?;
    if let Some(claimed) = text(input, "claimedCanonical") {
        must(
            claimed == canonical,
            "the claimed canonical form is not RFC 8785's",
        )?;
    }
    let leaf = hex(&event_leaf(event)?);
    let mut yields = json_syntax::Object::new();
    yields.insert(
        "canonicalString".into(),
        Value::String(canonical.as_str().into()),
    );
    yields.insert("leafHash".into(), Value::String(leaf.as_str().into()));
    json::canonical(&Value::Object(yields))
}

/// Seed 003's endpoint check of a request: its Authorization header; a body naming its
/// sender (`from`) and timestamp as strings; the key history the endpoint holds for that
/// sender, and only that one; the key rotation rules under live authentication with retired
/// keys refused; and a nested `payload.actor`, when present, naming the sender. Yields the
/// sender.
fn endpoint(input: &Value) -> Result<Vec<u8>, Refusal> {
    let field = |name: &str| text(input, name).ok_or(Refusal::Unanswered);
    let header = text(input, "authorization").ok_or_else(|| refused("no Authorization header"))?;
    let (signature, hint) = authorization(header)?;
    let body = json::member(input, "body").ok_or(Refusal::Unanswered)?;
    let (Some(sender), Some(timestamp)) = (text(body, "from"), text(body, "timestamp")) else {
        return Err(refused("the body names no sender or timestamp"));
    };
    must(
        sender == field("keysOwner")?,
        "no key history is known for the sender",
    )?;
    let Some(Value::Array(keys)) = json::member(input, "keys") else {
        return Err(refused("the sender's key history is not an array"));
    };
    let base = signature_base(input, body, timestamp)?;
    let rotation = Rotation {
        timestamp,
        keys,
        signature,
        hint,
        live: true,
        allow_retired: false,
    };
    rotated(&rotation, &base)?;
    if let Some(payload @ Value::Object(_)) = json::member(body, "payload") {
        if let Some(actor) = json::member(payload, "actor") {
            must(
                matches!(actor, Value::String(a) if a == sender),
                "the nested actor is not the sender",
            )?;
        }
    }
    Ok(format!(
        r#"{{"sender":{}}}"#,
        String::from_utf8_lossy(&json::canonical(&Value::String(sender.into()))?)
    )
    .into_bytes())
}

/// The principal an agent id names.
fn principal(agent: &str) -> Result<String, Refusal> {
    must(
        !agent.is_empty() && agent.encode_utf16().count() <= 512,
        "an agent id is 1 to 512 UTF-16 code units",
    )?;
    let key_body = |body: &str| {
        body.strip_prefix('z')
            .and_then(|encoded| bs58::decode(encoded).into_vec().ok())
            .is_some_and(|bytes| bytes.len() == 34 && bytes.starts_with(&[0xed, 0x01]))
    };
    for prefix in ["tulpa:", "ink:"] {
        if let Some(body) = agent.strip_prefix(prefix).filter(|b| key_body(b)) {
            return Ok(format!("key:{body}"));
        }
    }
    if ["tulpa:", "ink:", "key:", "raw:"]
        .iter()
        .any(|prefix| agent.starts_with(prefix))
    {
        return Ok(format!("raw:{agent}"));
    }
    Ok(agent.to_string())
}

/// How old a message may be, and how far ahead of the receiver's clock, in milliseconds.
const WINDOW: (i64, i64) = (300_000, 30_000);

/// Whether a message is fresh and its nonce unseen.
fn fresh(case: &Value) -> Result<(), Refusal> {
    let field = |name: &str| text(case, name).ok_or(Refusal::Unanswered);
    let nonce = field("nonce")?;
    must(
        (16..=256).contains(&nonce.chars().count()),
        "the nonce is not 16 to 256 characters",
    )?;
    let sent = epoch_ms(field("messageTimestamp")?)?;
    let now = epoch_ms(field("receiverClock")?)?;
    must(now - sent <= WINDOW.0, "the message is stale")?;
    must(sent - now <= WINDOW.1, "the message is from the future")?;
    let seen = match json::member(case, "previouslySeenNonces") {
        Some(Value::Array(seen)) => seen
            .iter()
            .any(|n| matches!(n, Value::String(s) if s == nonce)),
        _ => return Err(Refusal::Unanswered),
    };
    must(!seen, "the nonce has been seen")
}

/// An INK timestamp as whole milliseconds since the epoch: RFC 3339 as the time crate reads
/// it, held to INK's stricter grammar first.
fn epoch_ms(timestamp: &str) -> Result<i64, Refusal> {
    must(
        timestamp.chars().count() <= 64,
        "a timestamp is at most 64 characters",
    )?;
    must(
        timestamp.as_bytes().get(10) == Some(&b'T') && !timestamp.contains('z'),
        "T and Z are uppercase",
    )?;
    must(timestamp.get(17..19) != Some("60"), "no leap second")?;
    let instant = OffsetDateTime::parse(timestamp, &Rfc3339)
        .map_err(|e| refused(format!("not an RFC 3339 date-time: {e}")))?;
    i64::try_from(instant.unix_timestamp_nanos().div_euclid(1_000_000))
        .map_err(|_| refused("out of range"))
}

/// A body read and held to INK's profile.
fn profiled(text: &str) -> Result<Value, Refusal> {
    held(json::read(text.as_bytes())?)
}

/// A value held to INK's profile.
fn held(value: Value) -> Result<Value, Refusal> {
    let mut pending = vec![(&value, 1usize)];
    let mut values = 0;
    while let Some((v, depth)) = pending.pop() {
        values += 1;
        must(values <= MAX_VALUES, "the body holds too many values")?;
        match v {
            Value::Array(items) => {
                must(depth <= MAX_DEPTH, "the body nests too deep")?;
                pending.extend(items.iter().map(|item| (item, depth + 1)));
            }
            Value::Object(members) => {
                must(depth <= MAX_DEPTH, "the body nests too deep")?;
                pending.extend(members.iter().map(|e| (&e.value, depth + 1)));
            }
            Value::Number(n) => {
                let n = double(n.as_str())?;
                must(
                    n.fract() == 0.0 && n.abs() <= MAX_SAFE && !(n == 0.0 && n.is_sign_negative()),
                    "a number is not a safe integer",
                )?;
            }
            _ => {}
        }
    }
    must(
        json::canonical(&value)?.len() <= MAX_CANONICAL,
        "the canonical body is too large",
    )?;
    Ok(value)
}
