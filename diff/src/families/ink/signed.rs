//! INK's signature decisions as campaign cases: a request signed with INK-Ed25519 (86
//! base64url characters over the request's signature base) under one of two deterministic
//! keys, or bent — a bit of the signature flipped, a field changed after signing, the other
//! key given, the signature a character short or long, padded, in base64's other alphabet or
//! with stray low bits in its last character, the key in uppercase hex or a byte short; and
//! such a request against a key history, its entries active, retired, revoked or otherwise,
//! in or out of their validity windows (windows written well, empty, null, as numbers or
//! malformed), with or without a hint and under live authentication or not; and a raw
//! message under such a history, as seed 003's key rotation decides it.

use base64::engine::general_purpose::{STANDARD_NO_PAD, URL_SAFE_NO_PAD};
use base64::Engine;
use canonfuzz_rng::Rng;
use ed25519_dalek::{Signer, SigningKey};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

use crate::vector::to_hex;

/// The signer's key `n`, from a fixed seed.
pub fn key(n: usize) -> SigningKey {
    SigningKey::from_bytes(&Sha256::digest(format!("canonfuzz INK signer {n}")).into())
}

/// Bodies INK's profile takes.
const BODIES: [&str; 4] = [
    r#"{"from":"did:web:a.example","payload":{"n":1}}"#,
    r#"{"payload":{"text":"é","list":[1,2,3]},"from":"did:web:a.example"}"#,
    r#"{"from":"did:web:a.example","payload":{"nested":{"b":true,"a":null}}}"#,
    r#"{"from":"did:key:z6MkgosDnsjFCTf73Ms7S4Nzwe78GD7Bzn94hTU462M4GirX","payload":{}}"#,
];

/// A request signed under key `signer`: its fields, as a case of `op`, and the signature's
/// bytes.
fn request(rng: &mut Rng, op: &str, signer: &SigningKey) -> (Value, Vec<u8>) {
    let method = rng.pick(&["POST", "GET"]);
    let path = rng.pick(&["/ink/v1/intent", "/ink/v1/intent?b=2&a=1"]);
    let recipient = rng.pick(&["did:web:b.example", "did:web:b.example:agents:c"]);
    let body = rng.pick(&BODIES);
    let timestamp = rng.pick(&["2026-06-11T00:00:00.000Z", "2026-06-11T02:00:00+02:00"]);
    let canonical = canonfuzz_core::jcs::canonicalize(body.as_bytes()).unwrap_or_default();
    let mut base = format!("ink/0.1\n{method}\n{path}\n{recipient}\n").into_bytes();
    base.extend(canonical);
    base.push(b'\n');
    base.extend_from_slice(timestamp.as_bytes());
    let case = json!({
        "op": op,
        "method": method,
        "path": path,
        "recipientDid": recipient,
        "body": body,
        "timestamp": timestamp,
    });
    (case, signer.sign(&base).to_bytes().to_vec())
}

/// Instants around the requests' timestamp (2026-06-11T00:00:00Z) that a key's validity
/// window may start or end at, and what else a window bound may be written as.
const BOUNDS: [&str; 10] = [
    "2026-06-10T00:00:00Z",
    "2026-06-11T00:00:00.000Z",
    "2026-06-11T00:00:00.0009Z",
    "2026-06-11T00:00:00.001Z",
    "2026-06-10T23:59:59.999Z",
    "2026-06-12T00:00:00Z",
    "",
    "not a time",
    "2026-06-11t00:00:00z",
    "2026-06-11T01:00:00+01:00",
];

/// One entry of a key history for key `n`, under its usual id or, now and then, a second one
/// (a key listed again after a rotation); a plain entry is active or retired with no window
/// or uppercase key, and its revocation, if any, written null or empty.
pub fn entry(rng: &mut Rng, n: usize, plain: bool) -> Value {
    let status = if plain {
        rng.pick(&["active", "retired"])
    } else {
        rng.pick(&[
            "active", "active", "retired", "retired", "revoked", "Active",
        ])
    };
    let id = if rng.chance(25) {
        format!("k{n}-old")
    } else {
        format!("k{n}")
    };
    let mut entry = json!({
        "keyId": id,
        "publicKeyHex": to_hex(key(n).verifying_key().as_bytes()),
        "status": status,
    });
    if plain {
        if rng.chance(25) {
            entry["revokedAt"] = if rng.chance(50) {
                Value::Null
            } else {
                json!("")
            };
        }
        return entry;
    }
    for bound in ["validFrom", "validUntil"] {
        match rng.index(8) {
            0 => entry[bound] = Value::Null,
            1 => entry[bound] = json!(1_781_136_000_000u64),
            2..=4 => entry[bound] = json!(rng.pick(&BOUNDS)),
            _ => {}
        }
    }
    if rng.chance(12) {
        entry["revokedAt"] = match rng.index(3) {
            0 => json!("2026-06-01T00:00:00Z"),
            1 => json!(""),
            _ => Value::Null,
        };
    }
    if rng.chance(5) {
        entry["publicKeyHex"] = json!(entry["publicKeyHex"]
            .as_str()
            .unwrap_or_default()
            .to_uppercase());
    }
    entry
}

/// A key history for signer `signer`: two to four entries and up to two more of the
/// signer's; the history, and the signer's entries among it.
fn history(rng: &mut Rng, signer: usize) -> (Vec<Value>, Vec<Value>) {
    let mut keys: Vec<Value> = (0..2 + rng.index(3))
        .map(|_| {
            let n = rng.pick(&[0, 1, 1, 2]);
            entry(rng, n, false)
        })
        .collect();
    let mut signers = Vec::new();
    for chance in [70, 40] {
        if rng.chance(chance) {
            let at = rng.index(keys.len() + 1);
            let plain = rng.chance(50);
            signers.push(entry(rng, signer, plain));
            keys.insert(at, signers.last().cloned().unwrap_or_default());
        }
    }
    (keys, signers)
}

/// A signature as base64url, now and then padded.
fn written(rng: &mut Rng, signature: &[u8]) -> Value {
    json!(if rng.chance(4) {
        format!("{}=", URL_SAFE_NO_PAD.encode(signature))
    } else {
        URL_SAFE_NO_PAD.encode(signature)
    })
}

/// A request against a key history of two to four entries and up to two more of the signer's,
/// with a hint naming one of them, the signer's most often, or a key not listed.
pub fn rotation(rng: &mut Rng) -> Value {
    let signer = rng.index(2);
    let (mut case, mut signature) = request(rng, "rotation", &key(signer));
    if rng.chance(8) {
        signature[rng.index(64)] ^= 1;
    }
    let (keys, signers) = history(rng, signer);
    case["keys"] = json!(keys);
    case["signature"] = written(rng, &signature);
    if rng.chance(60) {
        let from = if signers.is_empty() || rng.chance(40) {
            &keys
        } else {
            &signers
        };
        let listed = from.get(rng.index(from.len())).map(|e| e["keyId"].clone());
        case["hintKeyId"] = match listed {
            Some(id) if rng.chance(85) => id,
            _ => json!(rng.pick(&["k9", "k0-old", "k1-old"])),
        };
    }
    if rng.chance(40) {
        case["liveAuth"] = json!(rng.pick(&[true, true, false]));
        if rng.chance(50) {
            case["liveAuthAllowRetired"] = json!(rng.pick(&[true, false]));
        }
    }
    case
}

/// A raw message under a key history, as `ink decide seed-key-rotation` takes it: a body as
/// sent, now and then with a line break, a byte-order mark or a character past the BMP, or
/// empty, signed by its signer (now and then a bit wrong), at one of the requests' instants.
pub fn raw_rotation(rng: &mut Rng) -> Value {
    let signer = rng.index(2);
    let mut message = rng.pick(&BODIES).to_string();
    match rng.index(6) {
        0 => message.push_str("\r\n"),
        1 => message.insert(0, '\u{feff}'),
        2 => message.push('\u{1f600}'),
        3 => message.clear(),
        _ => {}
    }
    let mut signature = key(signer).sign(message.as_bytes()).to_bytes().to_vec();
    if rng.chance(8) {
        signature[rng.index(64)] ^= 1;
    }
    let timestamp = rng.pick(&["2026-06-11T00:00:00.000Z", "2026-06-11T02:00:00+02:00"]);
    let (keys, _) = history(rng, signer);
    let input = json!({
        "message": message,
        "signature": written(rng, &signature),
        "messageTimestamp": timestamp,
        "keyHistory": keys,
    });
    json!({"op": "decide", "decision": "seed-key-rotation", "input": input})
}

/// A signed request, honest or bent.
pub fn signed(rng: &mut Rng) -> Value {
    let signer = key(rng.index(2));
    let (mut case, mut signature) = request(rng, "signed", &signer);
    let mut public = to_hex(signer.verifying_key().as_bytes());
    let path = case["path"].as_str().unwrap_or_default().to_string();
    let mut written = None;
    match rng.index(16) {
        0 => signature[rng.index(64)] ^= 1 << rng.index(8),
        1 => case["path"] = json!(format!("{path}/x")),
        2 => case["timestamp"] = json!("2026-06-11T00:00:01.000Z"),
        3 => public = to_hex(key(7).verifying_key().as_bytes()),
        4 => {
            signature.pop();
        }
        5 => signature.push(0),
        6 => written = Some(format!("{}==", URL_SAFE_NO_PAD.encode(&signature))),
        7 => written = Some(STANDARD_NO_PAD.encode(&signature)),
        8 => {
            let mut text = URL_SAFE_NO_PAD.encode(&signature);
            let last = text.pop().unwrap_or('A');
            text.push(if last == 'A' { 'B' } else { 'A' });
            written = Some(text);
        }
        9 => public = public.to_uppercase(),
        10 => public.truncate(62),
        _ => {}
    }
    case["signature"] = json!(written.unwrap_or_else(|| URL_SAFE_NO_PAD.encode(&signature)));
    case["publicKeyHex"] = json!(public);
    case
}
