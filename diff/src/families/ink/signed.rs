//! INK's signature decision as campaign cases: a request signed with INK-Ed25519 (86 base64url
//! characters over the request's signature base) under one of two deterministic keys, or bent
//! — a bit of the signature flipped, a field changed after signing, the other key given, the
//! signature a character short or long, padded, in base64's other alphabet or with stray low
//! bits in its last character, the key in uppercase hex or a byte short.

use base64::engine::general_purpose::{STANDARD_NO_PAD, URL_SAFE_NO_PAD};
use base64::Engine;
use canonfuzz_rng::Rng;
use ed25519_dalek::{Signer, SigningKey};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

/// The signer's key `n`, from a fixed seed.
fn key(n: usize) -> SigningKey {
    SigningKey::from_bytes(&Sha256::digest(format!("canonfuzz INK signer {n}")).into())
}

/// Bodies INK's profile takes.
const BODIES: [&str; 4] = [
    r#"{"from":"did:web:a.example","payload":{"n":1}}"#,
    r#"{"payload":{"text":"é","list":[1,2,3]},"from":"did:web:a.example"}"#,
    r#"{"from":"did:web:a.example","payload":{"nested":{"b":true,"a":null}}}"#,
    r#"{"from":"did:key:z6MkgosDnsjFCTf73Ms7S4Nzwe78GD7Bzn94hTU462M4GirX","payload":{}}"#,
];

/// A signed request, honest or bent.
pub fn signed(rng: &mut Rng) -> Value {
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
    let signer = key(rng.index(2));
    let mut signature = signer.sign(&base).to_bytes().to_vec();
    let mut public = hex(signer.verifying_key().as_bytes());
    let mut case = json!({
        "op": "signed",
        "method": method,
        "path": path,
        "recipientDid": recipient,
        "body": body,
        "timestamp": timestamp,
    });
    let mut written = None;
    match rng.index(16) {
        0 => signature[rng.index(64)] ^= 1 << rng.index(8),
        1 => case["path"] = json!(format!("{path}/x")),
        2 => case["timestamp"] = json!("2026-06-11T00:00:01.000Z"),
        3 => public = hex(key(7).verifying_key().as_bytes()),
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

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
