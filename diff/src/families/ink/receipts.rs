//! INK's inclusion receipts as campaign cases (decision `inclusion-receipt`, asked through
//! `ink decide`): a witness's receipt that an audit event sits at a leaf of its log, signed
//! over `ink/audit-inclusion/v1\n` ‖ JCS({eventId, leafIndex, treeSize, rootHash, timestamp}),
//! with its inclusion proof from the root down, checked against the event itself (its
//! `agentSignature` left out of the leaf), or a bare leaf hash, or nothing, and against a
//! later checkpoint that is larger, rewound or forked. Bent: the index or size changed after
//! signing or off by one, past 2^53 or written `3.0`, the root uppercased, the proof bent as
//! the Merkle campaign bends its own or longer than 64 entries, an empty event id, timestamp
//! or signature, another event's id, the signature over the core without its domain, a bit
//! wrong or another witness's.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use canonfuzz_rng::Rng;
use ed25519_dalek::Signer;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

use super::signed::key;
use crate::families::merkle::gen as merkle_gen;
use crate::vector::to_hex;

/// The receipt signature's domain separator.
const DOMAIN: &str = "ink/audit-inclusion/v1\n";

/// A document's RFC 8785 form.
fn canonical(value: &Value) -> Vec<u8> {
    canonfuzz_core::jcs::canonicalize(value.to_string().as_bytes()).unwrap_or_default()
}

/// An audit event and its leaf hash, SHA-256(0x00 ‖ JCS(event without agentSignature)).
fn event(rng: &mut Rng) -> (Value, [u8; 32]) {
    let mut event = json!({
        "id": format!("evt-{:03}", rng.index(1000)),
        "type": rng.pick(&["message.sent", "connection_request"]),
        "agentId": "did:web:a.example",
        "timestamp": "2026-04-01T12:00:00Z",
    });
    let leaf = Sha256::new()
        .chain_update([0])
        .chain_update(canonical(&event))
        .finalize()
        .into();
    if rng.chance(30) {
        event["agentSignature"] = json!("c2lnbmF0dXJl");
    }
    (event, leaf)
}

/// A receipt for an event, its checks, as `ink decide inclusion-receipt` takes them.
pub fn case(rng: &mut Rng) -> Value {
    let (event, leaf) = event(rng);
    let (index, size, mut proof, root) = merkle_gen::around(rng, leaf);
    let timestamp = rng.pick(&["2026-04-01T12:00:01Z", "2026-04-01T12:00:01.5+00:00"]);
    let id = event["id"].clone();
    let signed = json!({
        "eventId": id,
        "leafIndex": index,
        "treeSize": size,
        "rootHash": to_hex(&root),
        "timestamp": timestamp,
    });
    let mut message = if rng.chance(8) {
        Vec::new()
    } else {
        DOMAIN.as_bytes().to_vec()
    };
    message.extend(canonical(&signed));
    let witness = if rng.chance(6) { key(6) } else { key(5) };
    let mut signature = witness.sign(&message).to_bytes().to_vec();
    if rng.chance(8) {
        if let Some(byte) = signature.get_mut(rng.index(64)) {
            *byte ^= 1 << rng.index(8);
        }
    }
    let mut receipt = signed;
    if rng.chance(25) {
        merkle_gen::bend_proof(rng, &mut proof);
    }
    let mut proof: Vec<String> = proof.iter().rev().map(|h| to_hex(h)).collect();
    match rng.index(24) {
        0 => receipt["leafIndex"] = json!(merkle_gen::bend_number(rng, index)),
        1 => receipt["treeSize"] = json!(merkle_gen::bend_number(rng, size)),
        2 => receipt["leafIndex"] = json!(index as f64 + 0.5),
        3 => receipt["rootHash"] = json!(to_hex(&root).to_uppercase()),
        4 => receipt["eventId"] = json!(""),
        5 => receipt["eventId"] = json!("evt-other"),
        6 => receipt["timestamp"] = json!(""),
        7 => proof = vec![to_hex(&root); 65],
        8 => proof.reverse(),
        9 => receipt["leafIndex"] = json!(index as f64),
        _ => {}
    }
    receipt["inclusionProof"] = json!(proof);
    receipt["serviceSignature"] = json!(if rng.chance(4) {
        String::new()
    } else {
        URL_SAFE_NO_PAD.encode(&signature)
    });
    let mut input = json!({
        "receipt": receipt,
        "witnessPublicKeyHex": to_hex(key(5).verifying_key().as_bytes()),
    });
    match rng.index(10) {
        0..=5 => input["event"] = event,
        6 | 7 => input["eventHash"] = json!(to_hex(&leaf)),
        _ => {}
    }
    if rng.chance(50) {
        let later_size = match rng.index(3) {
            0 => size.saturating_sub(1),
            1 => size,
            _ => size + 1 + rng.index(5) as u64,
        };
        let later_root = if rng.chance(50) {
            to_hex(&root)
        } else {
            to_hex(&Sha256::digest(rng.next_u64().to_be_bytes()))
        };
        input["laterCheckpoint"] = json!({"treeSize": later_size, "rootHash": later_root});
    }
    json!({"op": "decide", "decision": "inclusion-receipt", "input": input})
}
