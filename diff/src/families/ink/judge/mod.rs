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

mod audits;
mod cards;

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
        op => return witness(&case, op).unwrap_or(Err(Refusal::Unanswered)),
    };
    Ok(hex(&digest).into_bytes())
}

/// Whether a request's INK-Ed25519 signature verifies over its signature base with its key.
fn verified(case: &Value, base: &[u8]) -> Result<(), Refusal> {
    let key = key(text(case, "publicKeyHex").ok_or(Refusal::Unanswered)?)
        .ok_or_else(|| refused("the key is not 64 lowercase hex digits"))?;
    let signature = signature(text(case, "signature").ok_or(Refusal::Unanswered)?)?;
    must(
        verifies(&key, &signature, base),
        "the signature does not verify",
    )
}

/// An INK-Ed25519 signature's bytes: 86 base64url characters, strictly decoded.
fn signature(text: &str) -> Result<Vec<u8>, Refusal> {
    must(text.len() == 86, "not 86 base64url characters")?;
    crate::judge::jws::decode(text)
}

/// Whether `signature` verifies over `base` under `key`, by ring.
fn verifies(key: &[u8], signature: &[u8], base: &[u8]) -> bool {
    ring::signature::UnparsedPublicKey::new(&ring::signature::ED25519, key)
        .verify(base, signature)
        .is_ok()
}

/// A key or hash written as 64 lowercase hex digits, as its 32 bytes.
fn key(hex: &str) -> Option<Vec<u8>> {
    if hex.len() != 64 || !hex.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')) {
        return None;
    }
    hex.as_bytes()
        .chunks(2)
        .map(|pair| {
            std::str::from_utf8(pair)
                .ok()
                .and_then(|d| u8::from_str_radix(d, 16).ok())
        })
        .collect()
}

/// An entry of a key history that can verify a message sent at `at` (epoch milliseconds): an
/// object whose status is exactly `active` or `retired`, with no `revokedAt` member, whose
/// `validFrom` and `validUntil`, each absent or an INK timestamp, hold `at` (both bounds
/// inclusive), and whose key is 64 lowercase hex digits. Its id, status and key.
fn usable(entry: &Value, at: i64) -> Option<(Option<&str>, &str, Vec<u8>)> {
    let status = text(entry, "status").filter(|s| matches!(*s, "active" | "retired"))?;
    if json::member(entry, "revokedAt").is_some() {
        return None;
    }
    let bound = |name: &str| match json::member(entry, name) {
        None => Some(None),
        Some(Value::String(s)) => epoch_ms(s).ok().map(Some),
        Some(_) => None,
    };
    let (from, until) = (bound("validFrom")?, bound("validUntil")?);
    if from.is_some_and(|f| at < f) || until.is_some_and(|u| at > u) {
        return None;
    }
    Some((
        text(entry, "keyId"),
        status,
        key(text(entry, "publicKeyHex")?)?,
    ))
}

/// A request's signature base: `ink/0.1`, the request's method, path and recipient, its
/// body's JCS form and `timestamp`, one per line, no field holding a line break.
fn signature_base(request: &Value, body: &Value, timestamp: &str) -> Result<Vec<u8>, Refusal> {
    let [method, path, recipient] = ["method", "path", "recipientDid"]
        .map(|name| text(request, name).ok_or(Refusal::Unanswered));
    let (method, path, recipient) = (method?, path?, recipient?);
    for value in [method, path, recipient, timestamp] {
        must(!value.contains(['\n', '\r']), "a field holds a line break")?;
    }
    let mut base = format!("ink/0.1\n{method}\n{path}\n{recipient}\n").into_bytes();
    base.extend(json::canonical(body)?);
    base.push(b'\n');
    base.extend_from_slice(timestamp.as_bytes());
    Ok(base)
}

/// A request's signature checked against a key history.
struct Rotation<'a> {
    /// The request's timestamp.
    timestamp: &'a str,
    /// The key history.
    keys: &'a [Value],
    /// The signature, as written.
    signature: &'a str,
    /// The key id hint, if any.
    hint: Option<&'a str>,
    /// Whether live authentication asks for the entry.
    live: bool,
    /// Whether live authentication takes retired keys.
    allow_retired: bool,
}

/// The entry of a request's key history that verifies it, as its status and key id: of the usable
/// entries, the hinted one first, then the active ones in order, then the retired ones; none
/// usable, a signature not 86 base64url characters, or none verifying, and the request is
/// refused. Under live authentication a retired entry is refused unless retired keys are
/// allowed.
fn rotated(r: &Rotation, base: &[u8]) -> Result<(String, String), Refusal> {
    let at = epoch_ms(r.timestamp)?;
    let usable: Vec<_> = r
        .keys
        .iter()
        .filter_map(|entry| usable(entry, at))
        .collect();
    let hinted = usable
        .iter()
        .find(|(id, ..)| r.hint.is_some() && *id == r.hint);
    let by = |wanted: &'static str| {
        usable
            .iter()
            .filter(move |(_, status, _)| *status == wanted)
    };
    let mut order = hinted
        .into_iter()
        .chain(by("active"))
        .chain(by("retired"))
        .peekable();
    must(
        order.peek().is_some(),
        "no entry of the key history is usable",
    )?;
    let signature = signature(r.signature)?;
    let (id, status, _) = order
        .find(|(_, _, key)| verifies(key, &signature, base))
        .ok_or_else(|| refused("no usable entry verifies the signature"))?;
    must(
        !(r.live && *status == "retired" && !r.allow_retired),
        "live authentication takes active keys",
    )?;
    Ok((status.to_string(), id.unwrap_or_default().to_string()))
}

/// A rotation case's entry, as [`rotated`] finds it, written `<status> <keyId>`.
fn rotation(case: &Value, base: &[u8]) -> Result<String, Refusal> {
    let Some(Value::Array(keys)) = json::member(case, "keys") else {
        return Err(Refusal::Unanswered);
    };
    let flag = |name: &str| matches!(json::member(case, name), Some(Value::Boolean(true)));
    let rotation = Rotation {
        timestamp: text(case, "timestamp").ok_or(Refusal::Unanswered)?,
        keys,
        signature: text(case, "signature").ok_or(Refusal::Unanswered)?,
        hint: text(case, "hintKeyId"),
        live: flag("liveAuth"),
        allow_retired: flag("liveAuthAllowRetired"),
    };
    rotated(&rotation, base).map(|(status, id)| format!("{status} {id}"))
}

/// Seed 003's key rotation over a raw message: the entry [`rotated`] finds for the message's
/// bytes with no hint and no live authentication, as RFC 8785 JSON of its `keyId`,
/// `keyStatus` and whether it is retired (`usedRetiredKey`).
fn raw_rotation(input: &Value) -> Result<Vec<u8>, Refusal> {
    let Some(Value::Array(keys)) = json::member(input, "keyHistory") else {
        return Err(Refusal::Unanswered);
    };
    let field = |name: &str| text(input, name).ok_or(Refusal::Unanswered);
    let rotation = Rotation {
        timestamp: field("messageTimestamp")?,
        keys,
        signature: field("signature")?,
        hint: None,
        live: false,
        allow_retired: false,
    };
    let (status, id) = rotated(&rotation, field("message")?.as_bytes())?;
    let mut yields = json_syntax::Object::new();
    yields.insert("keyId".into(), Value::String(id.as_str().into()));
    yields.insert("keyStatus".into(), Value::String(status.as_str().into()));
    yields.insert("usedRetiredKey".into(), Value::Boolean(status == "retired"));
    json::canonical(&Value::Object(yields))
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

/// An Authorization header's signature and key id hint: `INK-Ed25519`, spaces or tabs, 86
/// base64url characters, then optionally spaces or tabs and `keyId=` with 1 to 128 of
/// `[A-Za-z0-9_:.-]`; trailing spaces or tabs allowed, nothing else.
fn authorization(header: &str) -> Result<(&str, Option<&str>), Refusal> {
    let bad = || refused("not an INK-Ed25519 Authorization header");
    let rest = header.strip_prefix("INK-Ed25519").ok_or_else(bad)?;
    let blank = |c: char| c == ' ' || c == '\t';
    must(rest.starts_with(blank), "no blank after the scheme")?;
    let mut words = rest.split(blank).filter(|w| !w.is_empty());
    let signature = words.next().ok_or_else(bad)?;
    let base64url = |b: u8| b.is_ascii_alphanumeric() || b == b'-' || b == b'_';
    must(
        signature.len() == 86 && signature.bytes().all(base64url),
        "the signature is not 86 base64url characters",
    )?;
    let hint = match words.next() {
        None => None,
        Some(word) => {
            let id = word.strip_prefix("keyId=").ok_or_else(bad)?;
            let allowed = |b: u8| b.is_ascii_alphanumeric() || b"_:.-".contains(&b);
            must(
                (1..=128).contains(&id.len()) && id.bytes().all(allowed),
                "the keyId is not 1 to 128 of [A-Za-z0-9_:.-]",
            )?;
            Some(id)
        }
    };
    must(
        words.next().is_none() && rest.chars().all(|c| c != '\r' && c != '\n'),
        "text after the parameters",
    )?;
    Ok((signature, hint))
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

/// A C2SP checkpoint body as INK reads it: three lines, each ended by a line feed; the origin
/// non-empty, at most 256 UTF-16 code units, with no White_Space, control or `+`; the size
/// decimal digits without sign or leading zero, below 2^53; the root 64 lowercase hex digits;
/// the body at most 1,024 UTF-16 code units. A body that parses is its canonical form.
fn checkpoint(body: &str) -> Result<&str, Refusal> {
    let units = |text: &str| text.encode_utf16().count();
    must(
        units(body) <= 1024,
        "the body is past 1,024 UTF-16 code units",
    )?;
    let content = body
        .strip_suffix('\n')
        .ok_or_else(|| refused("the body does not end with a line feed"))?;
    let lines: Vec<&str> = content.split('\n').collect();
    let [origin, size, root] = lines[..] else {
        return Err(refused("a checkpoint body has three lines"));
    };
    must(
        !origin.is_empty()
            && units(origin) <= 256
            && !origin
                .chars()
                .any(|c| c.is_whitespace() || c.is_control() || c == '+'),
        "the origin",
    )?;
    let digits = !size.is_empty()
        && size.bytes().all(|b| b.is_ascii_digit())
        && (size == "0" || !size.starts_with('0'));
    must(
        digits && size.parse::<u64>().is_ok_and(|n| n < 1 << 53),
        "the tree size",
    )?;
    must(
        root.len() == 64 && root.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')),
        "the root hash",
    )?;
    Ok(body)
}

/// A hash written as 64 lowercase hex digits, as its bytes.
fn hash(value: Option<&Value>) -> Result<Vec<u8>, Refusal> {
    match value {
        Some(Value::String(h)) => {
            key(h).ok_or_else(|| refused("a hash is not 64 lowercase hex digits"))
        }
        _ => Err(refused("a hash is not 64 lowercase hex digits")),
    }
}

/// RFC 9162's interior node hash.
fn node(left: &[u8], right: &[u8]) -> Vec<u8> {
    sha256(&[&[1][..], left, right].concat())
}

/// RFC 9162's Merkle tree hash over leaf hashes: SHA-256 of nothing for no leaves, the leaf
/// hash for one, else the node over the tree of the largest power of two below their number
/// and the tree of the rest.
fn tree_hash(leaves: &[Vec<u8>]) -> Vec<u8> {
    match leaves {
        [] => sha256(&[]),
        [only] => only.clone(),
        _ => {
            let split = 1 << (usize::BITS - 1 - (leaves.len() - 1).leading_zeros());
            let (left, right) = leaves.split_at(split);
            node(&tree_hash(left), &tree_hash(right))
        }
    }
}

/// Whether the witness's key (64 lowercase hex digits) verifies its signature (86 base64url
/// characters) over `message`.
fn witness_signed(case: &Value, message: &[u8]) -> Result<Vec<u8>, Refusal> {
    let key = key(text(case, "witnessPublicKeyHex").ok_or(Refusal::Unanswered)?)
        .ok_or_else(|| refused("the witness key is not 64 lowercase hex digits"))?;
    let signature = signature(text(case, "signature").ok_or(Refusal::Unanswered)?)?;
    must(
        verifies(&key, &signature, message),
        "the witness's signature does not verify",
    )?;
    Ok(b"valid".to_vec())
}

/// An event's submission: refused when the witness holds its id, or it is not the
/// authenticated sender's.
fn submitted(case: &Value) -> Result<Vec<u8>, Refusal> {
    let field = |name: &str| text(case, name).ok_or(Refusal::Unanswered);
    let event = json::member(case, "event").ok_or(Refusal::Unanswered)?;
    let id = text(event, "eventId").ok_or(Refusal::Unanswered)?;
    let agent = text(event, "agentId").ok_or(Refusal::Unanswered)?;
    let Some(Value::Array(held)) = json::member(case, "existingEventIds") else {
        return Err(Refusal::Unanswered);
    };
    must(
        !held
            .iter()
            .any(|h| matches!(h, Value::String(s) if s == id)),
        "the witness holds an event with this id",
    )?;
    must(
        agent == field("authenticatedSenderDid")?,
        "the event is not the authenticated sender's",
    )?;
    Ok(b"valid".to_vec())
}

/// A checkpoint the witness signed that names SHA-256(JCS(previous)) as
/// `previousCheckpointHash`.
fn chained(case: &Value) -> Result<Vec<u8>, Refusal> {
    let field = |name: &str| text(case, name).ok_or(Refusal::Unanswered);
    let document = |name: &str| json::canonical(&profiled(field(name)?)?);
    let checkpoint = profiled(field("checkpoint")?)?;
    witness_signed(case, &json::canonical(&checkpoint)?)?;
    let previous = hex(&sha256(&document("previous")?));
    must(
        text(&checkpoint, "previousCheckpointHash") == Some(previous.as_str()),
        "previousCheckpointHash does not name the previous checkpoint",
    )?;
    Ok(b"valid".to_vec())
}

/// An audit event's leaf hash: SHA-256(0x00 ‖ JCS(event without `agentSignature`)).
fn event_leaf(event: Value) -> Result<Vec<u8>, Refusal> {
    let Value::Object(mut members) = event else {
        return Err(refused("an audit event is an object"));
    };
    let _ = members.remove_unique("agentSignature");
    let mut data = vec![0];
    data.extend(json::canonical(&Value::Object(members))?);
    Ok(sha256(&data))
}

/// An integer-valued number from `least` to 2^53 − 1, whatever its spelling.
fn integer(value: Option<&Value>, least: u64) -> Option<u64> {
    let Some(Value::Number(n)) = value else {
        return None;
    };
    let n = double(n.as_str()).ok()?;
    (n.fract() == 0.0 && n >= least as f64 && n <= MAX_SAFE).then_some(n as u64)
}

/// INK's inclusion receipt: its structure (a non-empty eventId, timestamp and
/// serviceSignature, an integer leafIndex below an integer treeSize ≥ 1, hashes of 64
/// lowercase hex digits, at most 64 proof nodes); the witness's signature over the line
/// `ink/audit-inclusion/v1` and JCS({eventId, leafIndex, treeSize, rootHash, timestamp}); its
/// proof, from the root down, from the event's leaf (the event bound to eventId by its id) or
/// a given leaf hash; and a later checkpoint, which may not hold fewer leaves, nor another
/// root for as many.
fn receipt(input: &Value) -> Result<Vec<u8>, Refusal> {
    let r = json::member(input, "receipt").ok_or(Refusal::Unanswered)?;
    let present = |name: &str| text(r, name).filter(|s| !s.is_empty());
    let (Some(id), Some(timestamp), Some(signed_by)) = (
        present("eventId"),
        present("timestamp"),
        present("serviceSignature"),
    ) else {
        return Err(refused(
            "eventId, timestamp or serviceSignature is not a non-empty string",
        ));
    };
    let (Some(index), Some(size)) = (
        integer(json::member(r, "leafIndex"), 0),
        integer(json::member(r, "treeSize"), 1),
    ) else {
        return Err(refused("leafIndex or treeSize is not an integer in range"));
    };
    must(index < size, "leafIndex is not below treeSize")?;
    let root = hash(json::member(r, "rootHash"))?;
    let Some(Value::Array(proof)) = json::member(r, "inclusionProof") else {
        return Err(refused("inclusionProof is not an array"));
    };
    must(proof.len() <= 64, "inclusionProof has more than 64 nodes")?;
    let proof = proof
        .iter()
        .map(|node| hash(Some(node)))
        .collect::<Result<Vec<_>, _>>()?;
    let string = |s: &str| json::canonical(&Value::String(s.into()));
    let core = format!(
        r#"{{"eventId":{},"leafIndex":{index},"rootHash":"{}","timestamp":{},"treeSize":{size}}}"#,
        String::from_utf8_lossy(&string(id)?),
        hex(&root),
        String::from_utf8_lossy(&string(timestamp)?),
    );
    let message = [&b"ink/audit-inclusion/v1\n"[..], core.as_bytes()].concat();
    let key = key(text(input, "witnessPublicKeyHex").ok_or(Refusal::Unanswered)?)
        .ok_or_else(|| refused("the witness key is not 64 lowercase hex digits"))?;
    must(
        verifies(&key, &signature(signed_by)?, &message),
        "the witness's signature does not verify",
    )?;
    let leaf = match (
        json::member(input, "event"),
        json::member(input, "eventHash"),
    ) {
        (Some(event), _) => {
            must(
                text(event, "id") == Some(id),
                "the event's id is not the receipt's eventId",
            )?;
            Some(event_leaf(event.clone())?)
        }
        (None, Some(given)) => Some(hash(Some(given))?),
        (None, None) => None,
    };
    if let Some(leaf) = leaf {
        must(
            walk(index, size, leaf, &proof)? == root,
            "the proof does not lead to rootHash",
        )?;
    }
    later_checkpoint(input, size, &root)?;
    Ok(b"valid".to_vec())
}

/// A later authenticated checkpoint, when the input gives one, may not hold fewer leaves than
/// a tree of `size` with `root`, nor another root for as many.
fn later_checkpoint(input: &Value, size: u64, root: &[u8]) -> Result<(), Refusal> {
    let Some(later) = json::member(input, "laterCheckpoint") else {
        return Ok(());
    };
    let later_size = integer(json::member(later, "treeSize"), 0)
        .ok_or_else(|| refused("the later checkpoint's treeSize"))?;
    let later_root = hash(json::member(later, "rootHash"))?;
    must(
        later_size > size || (later_size == size && later_root == root),
        "the log was rewound or forked",
    )
}

/// Member `key` of `m` is a string of at most `bound` UTF-16 code units; absent only if not
/// `needed`.
fn bounded(m: &Value, key: &str, bound: usize, needed: bool) -> Result<(), Refusal> {
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
fn chosen(m: &Value, key: &str, allowed: &[&str]) -> Result<(), Refusal> {
    must(
        text(m, key).is_some_and(|v| allowed.contains(&v)),
        "a member is not one of its values",
    )
}

/// Member `key` of `m` is a list of at most `count` strings, each one that `fits`; absent
/// only if not `needed`.
fn strings(
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
fn listed(m: &Value, key: &str, needed: bool, count: usize, bound: usize) -> Result<(), Refusal> {
    strings(m, key, needed, count, |s| s.encode_utf16().count() <= bound)
}

/// `m` is an object with no member but those `allowed`.
fn only(m: &Value, allowed: &[&str]) -> Result<(), Refusal> {
    let Value::Object(members) = m else {
        return Err(refused("not an object"));
    };
    must(
        members.iter().all(|e| allowed.contains(&e.key.as_str())),
        "an unknown member",
    )
}

/// A handshake date-time: an INK timestamp ending in `Z`.
fn utc(value: Option<&Value>) -> bool {
    matches!(value, Some(Value::String(s)) if s.ends_with('Z') && epoch_ms(s).is_ok())
}

/// INK's handshake message: a challenge, rejection or resolution in the `network.tulpa` or
/// `network.ink` namespace, protocol `ink/0.1`, an intentRef and nonce of at most 256 UTF-16
/// code units, a timestamp in UTC, each kind's members as INK lists them; unknown members
/// ignored.
fn handshake(m: &Value) -> Result<Vec<u8>, Refusal> {
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

/// A profile snapshot: a headline of at most 500 UTF-16 code units, skills and interests (at
/// most 50 of at most 100), openTo (at most 20 of at most 100), and an optional availability
/// with a timezone of at most 64 and meeting hours and response SLA of at most 200; nothing
/// else.
fn snapshot(s: Option<&Value>) -> Result<(), Refusal> {
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
fn connection(kind: &str, p: &Value) -> Result<Vec<u8>, Refusal> {
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
fn count(input: &Value, name: &str) -> Result<u64, Refusal> {
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
fn contained(input: &Value) -> Result<Vec<u8>, Refusal> {
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
const REDACTED: [&str; 6] = [
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
fn disclosed(input: &Value) -> Result<Vec<u8>, Refusal> {
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

/// The witness's decisions: a node's or a tree's hash, an event's submission (refused when the
/// witness holds its id, or it is not the authenticated sender's), and its signatures over a
/// checkpoint's JCS form, over a checkpoint that names SHA-256(JCS(previous)) as
/// `previousCheckpointHash`, and over `ink/audit-response\n` ‖ JCS(events). `None` for
/// another op.
fn witness(case: &Value, op: &str) -> Option<Result<Vec<u8>, Refusal>> {
    let field = |name: &str| text(case, name).ok_or(Refusal::Unanswered);
    let document = |name: &str| json::canonical(&profiled(field(name)?)?);
    Some(match op {
        "node" => hash(json::member(case, "left"))
            .and_then(|left| Ok(node(&left, &hash(json::member(case, "right"))?)))
            .map(|h| hex(&h).into_bytes()),
        "root" => match json::member(case, "leafHashes") {
            Some(Value::Array(leaves)) => leaves
                .iter()
                .map(|leaf| hash(Some(leaf)))
                .collect::<Result<Vec<_>, _>>()
                .map(|leaves| hex(&tree_hash(&leaves)).into_bytes()),
            _ => Err(Refusal::Unanswered),
        },
        "submit" => submitted(case),
        "witness-checkpoint" => document("checkpoint").and_then(|m| witness_signed(case, &m)),
        "chain" => chained(case),
        "audit-response" => document("events").and_then(|events| {
            witness_signed(case, &[&b"ink/audit-response\n"[..], &events].concat())
        }),
        _ => return None,
    })
}

/// Whether an inclusion proof listed from the root down, as INK lists it, proves its leaf:
/// RFC 9162 §2.1.3.2 over the reversed list, hashes as 64 lowercase hex digits, sizes below
/// 2^53.
fn included(case: &Value) -> Result<(), Refusal> {
    let number = |name: &str| match json::member(case, name) {
        Some(Value::Number(n)) => n.as_str().parse::<u64>().ok().filter(|n| *n < 1 << 53),
        _ => None,
    };
    let (Some(index), Some(size)) = (number("leafIndex"), number("treeSize")) else {
        return Err(refused("a size or index out of range"));
    };
    must(index < size, "the index is not below the size")?;
    let Some(Value::Array(nodes)) = json::member(case, "proof") else {
        return Err(Refusal::Unanswered);
    };
    let path = nodes
        .iter()
        .map(|n| hash(Some(n)))
        .collect::<Result<Vec<_>, _>>()?;
    let leaf = hash(json::member(case, "leafHash"))?;
    must(
        walk(index, size, leaf, &path)? == hash(json::member(case, "rootHash"))?,
        "the root differs",
    )
}

/// The root an inclusion proof listed from the root down, as INK lists it, leads to from the
/// leaf at `index` of a tree of `size`: RFC 9162 §2.1.3.2 over the reversed list, every node
/// used.
fn walk(index: u64, size: u64, leaf: Vec<u8>, top_down: &[Vec<u8>]) -> Result<Vec<u8>, Refusal> {
    let (mut f, mut s, mut r) = (index, size - 1, leaf);
    for p in top_down.iter().rev() {
        must(s != 0, "the proof is longer than the path")?;
        if f & 1 == 1 || f == s {
            r = node(p, &r);
            while f & 1 == 0 && f != 0 {
                f >>= 1;
                s >>= 1;
            }
        } else {
            r = node(&r, p);
        }
        f >>= 1;
        s >>= 1;
    }
    must(s == 0, "the proof is shorter than the path")?;
    Ok(r)
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
