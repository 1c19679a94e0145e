//! INK's endpoint check as campaign cases (seed 003's `seed-transport-auth`, op `request`,
//! asked through `ink decide`): a request whose body names its sender and timestamp, signed
//! over its signature base, with an Authorization header written as INK writes one or bent —
//! absent, a tab or doubled spaces between its parts, the scheme in lowercase, a line break
//! after it, a `keyId` empty, 129 characters long, misspelled or followed by another
//! parameter, the signature a character long — against the key history the endpoint holds
//! for one sender (the body's or another, or not an array), the body's nested actor the
//! sender, another agent, null, or a payload that is no object, or a timestamp missing.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use canonfuzz_rng::Rng;
use ed25519_dalek::Signer;
use serde_json::{json, Value};

use super::signed::{entry, key};

/// The sender whose key history the endpoint holds, most often.
const ALICE: &str = "did:web:a.example";

/// An Authorization header carrying `signature` and naming `hint`, or none.
fn header(rng: &mut Rng, signature: &str, hint: &str) -> Option<String> {
    Some(match rng.index(20) {
        0 => return None,
        1 => format!("INK-Ed25519\t{signature}"),
        2 => format!("INK-Ed25519  {signature}  keyId={hint} "),
        3 => format!("ink-ed25519 {signature}"),
        4 => format!("INK-Ed25519 {signature}\r\n"),
        5 => format!("INK-Ed25519 {signature} keyId="),
        6 => format!("INK-Ed25519 {signature} keyId={}", "k".repeat(129)),
        7 => format!("INK-Ed25519 {signature} keyId={hint} extra=1"),
        8 => format!("INK-Ed25519 {signature} keyid={hint}"),
        9 => format!("INK-Ed25519 {signature}A"),
        10..=14 => format!("INK-Ed25519 {signature} keyId={hint}"),
        _ => format!("INK-Ed25519 {signature}"),
    })
}

/// A request an endpoint receives, as `ink decide seed-transport-auth` takes it.
pub fn case(rng: &mut Rng) -> Value {
    let signer = rng.index(2);
    let method = rng.pick(&["POST", "GET"]);
    let path = rng.pick(&["/ink/v1/intent", "/ink/v1/intent?b=2&a=1"]);
    let recipient = rng.pick(&["did:web:b.example", "did:web:b.example:agents:c"]);
    let from = if rng.chance(85) {
        ALICE
    } else {
        rng.pick(&["did:web:c.example", "did:web:A.example"])
    };
    let timestamp = rng.pick(&["2026-06-11T00:00:00.000Z", "2026-06-11T02:00:00+02:00"]);
    let mut body = json!({
        "from": from,
        "timestamp": timestamp,
        "nonce": "n-0123456789abcdef",
        "payload": {"text": "é"},
    });
    match rng.index(10) {
        0 | 1 => body["payload"]["actor"] = json!(from),
        2 => {
            body["payload"]["actor"] = json!(rng.pick(&["did:web:m.example", "did:web:A.example"]))
        }
        3 => body["payload"]["actor"] = Value::Null,
        4 => body["payload"] = json!(["actor"]),
        5 => {
            if let Some(members) = body.as_object_mut() {
                members.remove("timestamp");
            }
        }
        _ => {}
    }
    let canonical =
        canonfuzz_core::jcs::canonicalize(body.to_string().as_bytes()).unwrap_or_default();
    let mut base = format!("ink/0.1\n{method}\n{path}\n{recipient}\n").into_bytes();
    base.extend(canonical);
    base.push(b'\n');
    base.extend_from_slice(timestamp.as_bytes());
    let mut signature = key(signer).sign(&base).to_bytes().to_vec();
    if rng.chance(8) {
        if let Some(byte) = signature.get_mut(rng.index(64)) {
            *byte ^= 1;
        }
    }
    let mut keys: Vec<Value> = (0..1 + rng.index(2))
        .map(|_| {
            let n = rng.pick(&[0, 1, 2]);
            entry(rng, n, false)
        })
        .collect();
    if rng.chance(80) {
        let at = rng.index(keys.len() + 1);
        let plain = rng.chance(75);
        let mut signers = entry(rng, signer, plain);
        if plain && rng.chance(70) {
            signers["status"] = json!("active");
        }
        keys.insert(at, signers);
    }
    let hint = keys
        .get(rng.index(keys.len()))
        .and_then(|e| e["keyId"].as_str())
        .unwrap_or("k9")
        .to_string();
    let mut input = json!({
        "op": "request",
        "method": method,
        "path": path,
        "recipientDid": recipient,
        "body": body,
        "keysOwner": if rng.chance(90) { ALICE } else { "did:web:c.example" },
        "keys": if rng.chance(95) { json!(keys) } else { json!({"k0": "not a history"}) },
    });
    if let Some(header) = header(rng, &URL_SAFE_NO_PAD.encode(&signature), &hint) {
        input["authorization"] = json!(header);
    }
    json!({"op": "decide", "decision": "seed-transport-auth", "input": input})
}
