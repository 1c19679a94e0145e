//! INK's witness decisions as campaign cases (seed 003's `seed-witness` and
//! `seed-audit-response`): an interior node's hash and a tree's root over leaf hashes in
//! lowercase hex, an event's submission against the events a witness holds, and a witness's
//! Ed25519 signature over a checkpoint's JCS form, over a checkpoint that chains to its
//! predecessor by the SHA-256 of the predecessor's JCS form, and over `ink/audit-response\n`
//! ‖ JCS(events). Documents are written in any member order and spacing, with escapes and
//! number spellings a JCS reader must undo, and bent: changed after signing, signed without
//! the domain or under another, the chain hash taken over the text as written, uppercased or
//! over another checkpoint, the signature a bit wrong, padded or in base64's other alphabet,
//! the key another's or uppercased; hashes in uppercase or a digit short or long; an event id
//! or sender that differs from another only in case, a trailing space or its Unicode
//! normalization; and an event beside the canonical form claimed for it.

use base64::engine::general_purpose::{STANDARD_NO_PAD, URL_SAFE_NO_PAD};
use base64::Engine;
use canonfuzz_rng::Rng;
use ed25519_dalek::Signer;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

use super::signed::key;
use crate::vector::to_hex;

/// Agents whose events a witness logs.
const AGENTS: [&str; 3] = [
    "did:key:z6MkExampleAlice1111111111111111111111111",
    "did:web:b.example",
    "did:key:z6MkExampleMallory33333333333333333333333333",
];

/// Event types, some beyond ASCII or holding a character JSON may write raw.
const TYPES: [&str; 5] = [
    "message.sent",
    "message.deleted",
    "é",
    "😀 at the end",
    "line\u{2028}separator",
];

/// Event ids as a sender may write them, some equal to others but for case, a trailing space
/// or Unicode normalization.
const EVENT_IDS: [&str; 6] = [
    "evt-001",
    "evt-003",
    "EVT-001",
    "evt-001 ",
    "\u{e9}vt-001",
    "e\u{301}vt-001",
];

/// A hash that `seed` names, as a log might hold one.
fn digest(seed: u64) -> [u8; 32] {
    Sha256::digest(seed.to_be_bytes()).into()
}

/// A hash written as INK writes one, or bent.
fn hash(rng: &mut Rng) -> Value {
    let text = to_hex(&digest(rng.next_u64()));
    json!(match rng.index(16) {
        0 => text.to_uppercase(),
        1 => text.chars().take(63).collect(),
        2 => format!("{text}0"),
        3 => text.replacen(|c: char| c.is_ascii_digit(), "g", 1),
        _ => text,
    })
}

/// Whitespace a writer may put between tokens.
fn space(rng: &mut Rng) -> &'static str {
    rng.pick(&["", "", "", " ", "\n  ", "\t"])
}

/// A string as JSON, its non-ASCII characters now and then escaped as UTF-16 code units.
fn string(rng: &mut Rng, text: &str) -> String {
    let plain = serde_json::to_string(text).unwrap_or_default();
    if !rng.chance(30) {
        return plain;
    }
    let mut escaped = String::new();
    for c in plain.chars() {
        if c.is_ascii() {
            escaped.push(c);
        } else {
            for unit in c.encode_utf16(&mut [0; 2]) {
                escaped.push_str(&format!("\\u{unit:04x}"));
            }
        }
    }
    escaped
}

/// `value` written as JSON that reads back to it: members in any order, whitespace between
/// tokens, non-ASCII characters sometimes escaped, integers sometimes with a fraction or an
/// exponent.
fn written(rng: &mut Rng, value: &Value) -> String {
    match value {
        Value::Object(members) => {
            let mut members: Vec<(&String, &Value)> = members.iter().collect();
            rng.shuffle(&mut members);
            let parts: Vec<String> = members
                .into_iter()
                .map(|(name, member)| {
                    let name = string(rng, name);
                    let (before, after) = (space(rng), space(rng));
                    format!("{name}{before}:{after}{}", written(rng, member))
                })
                .collect();
            format!("{{{}}}", parts.join(&format!(",{}", space(rng))))
        }
        Value::Array(items) => {
            let parts: Vec<String> = items.iter().map(|item| written(rng, item)).collect();
            format!("[{}]", parts.join(&format!(",{}", space(rng))))
        }
        Value::String(text) => string(rng, text),
        Value::Number(n) => match (n.as_u64(), rng.index(6)) {
            (Some(n), 0) => format!("{n}.0"),
            (Some(n), 1) => format!("{n}e0"),
            (Some(n), 2) if n > 0 => format!("{n}0e-1"),
            _ => n.to_string(),
        },
        other => other.to_string(),
    }
}

/// A document's RFC 8785 form, which the witness signs.
fn canonical(value: &Value) -> Vec<u8> {
    canonfuzz_core::jcs::canonicalize(value.to_string().as_bytes()).unwrap_or_default()
}

/// A witness checkpoint.
fn checkpoint(rng: &mut Rng) -> Value {
    json!({
        "witnessId": rng.pick(&["witness-primary", "wïtness-β"]),
        "merkleRoot": to_hex(&digest(rng.next_u64())),
        "eventCount": rng.index(1 << 20),
        "timestamp": rng.pick(&["2026-04-01T12:05:00Z", "2026-04-01T12:05:00.123Z"]),
        "previousCheckpointHash": to_hex(&digest(rng.next_u64())),
    })
}

/// An audit event, the `n`th its agent sent.
fn event(rng: &mut Rng, n: usize) -> Value {
    let mut event = json!({
        "eventId": format!("evt-{n:03}"),
        "agentId": rng.pick(&AGENTS),
        "eventType": rng.pick(&TYPES),
        "timestamp": "2026-04-01T12:00:00Z",
        "correlationId": format!("corr-{}", rng.index(1000)),
    });
    if rng.chance(30) {
        event["sequence"] = json!(rng.index(1 << 20));
    }
    event
}

/// Puts into `case` the witness's signature over `message` and its key, honest or bent.
fn sign(rng: &mut Rng, case: &mut Value, message: &[u8]) {
    let witness = key(3);
    let mut signature = witness.sign(message).to_bytes().to_vec();
    let mut public = to_hex(witness.verifying_key().as_bytes());
    let mut written = None;
    match rng.index(16) {
        0 => {
            if let Some(byte) = signature.get_mut(rng.index(64)) {
                *byte ^= 1 << rng.index(8);
            }
        }
        1 => public = to_hex(key(4).verifying_key().as_bytes()),
        2 => public = public.to_uppercase(),
        3 => written = Some(format!("{}==", URL_SAFE_NO_PAD.encode(&signature))),
        4 => written = Some(STANDARD_NO_PAD.encode(&signature)),
        _ => {}
    }
    case["signature"] = json!(written.unwrap_or_else(|| URL_SAFE_NO_PAD.encode(&signature)));
    case["witnessPublicKeyHex"] = json!(public);
}

/// An event submitted by an authenticated sender to a witness holding some events.
fn submission(rng: &mut Rng) -> Value {
    let mut event = event(rng, 1);
    event["eventId"] = json!(rng.pick(&EVENT_IDS));
    let sender = event["agentId"].as_str().unwrap_or_default().to_string();
    let authenticated = match rng.index(6) {
        0 => sender.to_uppercase(),
        1 => format!("{sender} "),
        2 => rng.pick(&AGENTS).to_string(),
        _ => sender,
    };
    let held: Vec<&str> = (0..rng.index(4)).map(|_| rng.pick(&EVENT_IDS)).collect();
    json!({
        "op": "submit",
        "event": event,
        "existingEventIds": held,
        "authenticatedSenderDid": authenticated,
    })
}

/// A checkpoint signed by the witness, its text as written, the signature over what was
/// signed (now and then another event count).
fn witnessed_checkpoint(rng: &mut Rng) -> Value {
    let checkpoint = checkpoint(rng);
    let mut signed = checkpoint.clone();
    if rng.chance(10) {
        signed["eventCount"] = json!(checkpoint["eventCount"].as_u64().unwrap_or_default() + 1);
    }
    let mut case = json!({"op": "witness-checkpoint", "checkpoint": written(rng, &checkpoint)});
    sign(rng, &mut case, &canonical(&signed));
    case
}

/// A signed checkpoint and the one before it, which it names by hash.
fn chain(rng: &mut Rng) -> Value {
    let previous = checkpoint(rng);
    let previous_text = written(rng, &previous);
    let mut next = checkpoint(rng);
    next["previousCheckpointHash"] = json!(match rng.index(6) {
        0 => to_hex(&Sha256::digest(previous_text.as_bytes())),
        1 => to_hex(&Sha256::digest(canonical(&previous))).to_uppercase(),
        2 => to_hex(&Sha256::digest(canonical(&checkpoint(rng)))),
        _ => to_hex(&Sha256::digest(canonical(&previous))),
    });
    let mut case = json!({
        "op": "chain",
        "checkpoint": written(rng, &next),
        "previous": previous_text,
    });
    sign(rng, &mut case, &canonical(&next));
    case
}

/// A witness's audit response: the events it returns and its signature over them under the
/// audit-response domain, or another.
fn audit_response(rng: &mut Rng) -> Value {
    let events: Value = (0..rng.index(4)).map(|n| event(rng, n + 1)).collect();
    let mut signed = events.clone();
    if rng.chance(10) {
        if let Some(first) = signed.get_mut(0) {
            first["correlationId"] = json!("corr-rewritten");
        }
    }
    let domain = match rng.index(6) {
        0 => "",
        1 => "ink/audit-event\n",
        2 => "ink/audit-response",
        _ => "ink/audit-response\n",
    };
    let mut message = domain.as_bytes().to_vec();
    message.extend(canonical(&signed));
    let mut case = json!({"op": "audit-response", "events": written(rng, &events)});
    sign(rng, &mut case, &message);
    case
}

/// An event with the canonical form claimed for it, as `ink decide seed-witness` takes it (op
/// `leaf`): RFC 8785's form, the event as written, that form with a space after a colon or a
/// line feed after it, or no claim; the event now and then carrying an `agentSignature`, which
/// its canonical form keeps and its leaf leaves out.
pub fn claimed(rng: &mut Rng) -> Value {
    let mut event = event(rng, 1);
    if rng.chance(25) {
        event["agentSignature"] = json!(URL_SAFE_NO_PAD.encode(digest(rng.next_u64())));
    }
    let canonical = String::from_utf8_lossy(&canonical(&event)).into_owned();
    let claim = match rng.index(6) {
        0 => Some(written(rng, &event)),
        1 => Some(canonical.replacen(':', ": ", 1)),
        2 => Some(format!("{canonical}\n")),
        3 => None,
        _ => Some(canonical),
    };
    let mut input = json!({"op": "leaf", "event": event});
    if let Some(claim) = claim {
        input["claimedCanonical"] = json!(claim);
    }
    json!({"op": "decide", "decision": "seed-witness", "input": input})
}

/// A case of one of the witness's decisions.
pub fn case(rng: &mut Rng) -> Value {
    match rng.index(6) {
        0 => json!({"op": "node", "left": hash(rng), "right": hash(rng)}),
        1 => {
            let leaves: Vec<Value> = (0..rng.index(10))
                .map(|_| {
                    if rng.chance(5) {
                        hash(rng)
                    } else {
                        json!(to_hex(&digest(rng.next_u64())))
                    }
                })
                .collect();
            json!({"op": "root", "leafHashes": leaves})
        }
        2 => submission(rng),
        3 => witnessed_checkpoint(rng),
        4 => chain(rng),
        _ => audit_response(rng),
    }
}
