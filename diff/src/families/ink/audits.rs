//! INK's audit-query responses as campaign cases (decision `audit-query-response`, asked
//! through `ink decide`): what a witness returns when an agent asks for the log's events about
//! one message — its events, each signed by its agent over `ink/audit-event\n` ‖ JCS(event
//! without agentSignature), one inclusion proof per event (from the root down) in a tree that
//! holds their leaves among others, and the witness's signature over
//! `ink/audit-query-response/v1\n` ‖ JCS(response without serviceSignature) — checked against
//! the message and requester asked about, a pinned witness or none, the agents' keys, and a
//! later checkpoint. Bent before the witness signs: another protocol or type, an empty message
//! id, a proof dropped, doubled or naming no event, an index past the tree, a proof bent, an
//! event about another message or not involving the requester, signed by another key or
//! without its domain, two events with one id, an empty tree holding events, sizes written
//! `3.0`; and after: the type relabelled, an event changed, the signature a bit wrong or over
//! the response without its domain.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use canonfuzz_rng::Rng;
use ed25519_dalek::{Signer, SigningKey};
use serde_json::{json, Map, Value};
use sha2::{Digest, Sha256};

use super::signed::key;
use crate::families::merkle::gen as merkle_gen;
use crate::vector::to_hex;

/// The agent that asks, and its counterparty.
const AGENTS: [&str; 2] = ["did:web:agent-a.example", "did:web:agent-b.example"];
/// The message asked about.
const MESSAGE: &str = "msg-001";

/// A document's RFC 8785 form.
fn canonical(value: &Value) -> Vec<u8> {
    canonfuzz_core::jcs::canonicalize(value.to_string().as_bytes()).unwrap_or_default()
}

/// `signer`'s signature over `domain` ‖ JCS(`object` without `member`), put in as `member`.
fn sign(object: &mut Value, member: &str, domain: &str, signer: &SigningKey) {
    if let Some(members) = object.as_object_mut() {
        members.remove(member);
    }
    let message = [domain.as_bytes(), &canonical(object)].concat();
    object[member] = json!(URL_SAFE_NO_PAD.encode(signer.sign(&message).to_bytes()));
}

/// The key of agent `n`, and the witness's.
fn agent(n: usize) -> SigningKey {
    key(8 + n)
}

/// The witness's key.
fn witness() -> SigningKey {
    key(10)
}

/// The `n`th event about the message, by agent `by`, signed by it or bent.
fn event(rng: &mut Rng, n: usize, by: usize) -> Value {
    let mut event = json!({
        "id": format!("evt-{n}"),
        "type": "connection_request",
        "messageId": MESSAGE,
        "agentId": AGENTS.get(by).copied().unwrap_or_default(),
        "counterpartyId": AGENTS.get(1 - by).copied().unwrap_or_default(),
        "seq": n,
    });
    let mut by = by;
    match rng.index(12) {
        0 => event["messageId"] = json!("msg-002"),
        1 => {
            by = 1;
            event["agentId"] = json!(AGENTS[1]);
            event["counterpartyId"] = json!("did:web:agent-c.example");
        }
        2 => event["id"] = json!("evt-0"),
        _ => {}
    }
    let (signer, domain) = match rng.index(24) {
        0 => (agent(1 - by), "ink/audit-event\n"),
        1 => (agent(by), ""),
        _ => (agent(by), "ink/audit-event\n"),
    };
    sign(&mut event, "agentSignature", domain, &signer);
    event
}

/// An event's leaf: SHA-256(0x00 ‖ JCS(event without agentSignature)).
fn leaf(event: &Value) -> [u8; 32] {
    let mut unsigned = event.clone();
    if let Some(members) = unsigned.as_object_mut() {
        members.remove("agentSignature");
    }
    Sha256::new()
        .chain_update([0])
        .chain_update(canonical(&unsigned))
        .finalize()
        .into()
}

/// The events' leaves placed among others: the leaves, and where each event's went.
fn tree(rng: &mut Rng, events: &[Value]) -> (Vec<[u8; 32]>, Vec<usize>) {
    let mut leaves: Vec<[u8; 32]> = (0..rng.index(6))
        .map(|_| Sha256::digest(rng.next_u64().to_be_bytes()).into())
        .collect();
    let mut at = Vec::new();
    for event in events {
        let index = rng.index(leaves.len() + 1);
        leaves.insert(index, leaf(event));
        for earlier in at.iter_mut().filter(|earlier| **earlier >= index) {
            *earlier += 1;
        }
        at.push(index);
    }
    (leaves, at)
}

/// One inclusion proof per event, from the root down, now and then bent, in shuffled order.
fn proofs(rng: &mut Rng, events: &[Value], at: &[usize], leaves: &[[u8; 32]]) -> Vec<Value> {
    let mut proofs: Vec<Value> = events
        .iter()
        .zip(at)
        .map(|(event, &index)| {
            let mut path: Vec<Vec<u8>> = merkle_gen::path(index, leaves)
                .iter()
                .map(|h| h.to_vec())
                .collect();
            if rng.chance(8) {
                merkle_gen::bend_proof(rng, &mut path);
            }
            let top_down: Vec<String> = path.iter().rev().map(|h| to_hex(h)).collect();
            json!({"eventId": event["id"], "leafIndex": index, "inclusionProof": top_down})
        })
        .collect();
    rng.shuffle(&mut proofs);
    proofs
}

/// The response the witness signs over `events` in a tree of `leaves`, now and then bent
/// before it signs.
fn unsigned(
    rng: &mut Rng,
    events: Vec<Value>,
    mut proofs: Vec<Value>,
    leaves: &[[u8; 32]],
) -> Value {
    let mut size = json!(leaves.len());
    let mut root = to_hex(&merkle_gen::mth(leaves));
    let mut kind = rng.pick(&[
        "network.tulpa.audit_query_response",
        "network.ink.audit_query_response",
    ]);
    let mut protocol = "ink/0.1";
    let mut message = MESSAGE;
    let first = |proofs: &mut Vec<Value>, member: &str, value: Value| {
        if let Some(first) = proofs.first_mut() {
            first[member] = value;
        }
    };
    match rng.index(20) {
        0 => protocol = "ink/0.2",
        1 => kind = "network.tulpa.audit_query",
        2 => message = "",
        3 => {
            proofs.pop();
        }
        4 => {
            if let Some(first) = proofs.first().cloned() {
                proofs.push(first);
            }
        }
        5 => first(&mut proofs, "eventId", json!("evt-9")),
        6 => first(&mut proofs, "leafIndex", json!(leaves.len())),
        7 => size = json!(leaves.len() as f64),
        8 => {
            let index = proofs.first().and_then(|p| p["leafIndex"].as_u64());
            first(
                &mut proofs,
                "leafIndex",
                json!(index.unwrap_or_default() as f64),
            );
        }
        9 => {
            size = json!(0);
            root = to_hex(&Sha256::digest([]));
        }
        _ => {}
    }
    json!({
        "protocol": protocol,
        "type": kind,
        "serviceDid": "did:web:witness.example",
        "messageId": message,
        "requester": AGENTS[0],
        "events": events,
        "proofs": proofs,
        "treeSize": size,
        "rootHash": root,
        "timestamp": "2026-06-15T12:00:00.000Z",
    })
}

/// The witness's signature put on `response`, now and then without its domain, and the
/// response now and then bent after it signs.
fn signed(rng: &mut Rng, mut response: Value) -> Value {
    let domain = if rng.chance(10) {
        ""
    } else {
        "ink/audit-query-response/v1\n"
    };
    sign(&mut response, "serviceSignature", domain, &witness());
    match rng.index(20) {
        0 => response["type"] = json!("network.ink.audit_query_response"),
        1 => {
            if let Some(first) = response["events"].get_mut(0) {
                first["seq"] = json!(7);
            }
        }
        2 => {
            let signature = response["serviceSignature"].as_str().unwrap_or_default();
            let mut bytes = URL_SAFE_NO_PAD.decode(signature).unwrap_or_default();
            if let Some(byte) = bytes.get_mut(rng.index(64)) {
                *byte ^= 1;
            }
            response["serviceSignature"] = json!(URL_SAFE_NO_PAD.encode(bytes));
        }
        _ => {}
    }
    response
}

/// What the response is checked against: the keys, the message and requester asked about,
/// now and then a pinned witness and a later checkpoint of the tree of `leaves`.
fn expected(rng: &mut Rng, response: Value, leaves: &[[u8; 32]]) -> Value {
    let mut keys = Map::new();
    for (n, did) in AGENTS.iter().enumerate() {
        if n == 0 || rng.chance(80) {
            keys.insert(
                did.to_string(),
                json!(to_hex(agent(n).verifying_key().as_bytes())),
            );
        }
    }
    let mut input = json!({
        "response": response,
        "witnessPublicKeyHex": to_hex(witness().verifying_key().as_bytes()),
        "expectedMessageId": if rng.chance(95) { MESSAGE } else { "msg-002" },
        "expectedRequester": AGENTS[if rng.chance(95) { 0 } else { 1 }],
        "agentKeysHex": keys,
    });
    if rng.chance(40) {
        input["expectedServiceDid"] =
            json!(rng.pick(&["did:web:witness.example", "did:web:other.example"]));
    }
    if rng.chance(25) {
        let later_size = match rng.index(3) {
            0 => leaves.len().saturating_sub(1),
            1 => leaves.len(),
            _ => leaves.len() + 1,
        };
        let later_root = if rng.chance(50) {
            to_hex(&merkle_gen::mth(leaves))
        } else {
            to_hex(&Sha256::digest(rng.next_u64().to_be_bytes()))
        };
        input["laterCheckpoint"] = json!({"treeSize": later_size, "rootHash": later_root});
    }
    input
}

/// An audit-query response and what it is checked against, as `ink decide
/// audit-query-response` takes them.
pub fn case(rng: &mut Rng) -> Value {
    let events: Vec<Value> = (0..rng.index(4))
        .map(|n| {
            let by = if rng.chance(75) { 0 } else { 1 };
            event(rng, n, by)
        })
        .collect();
    let (leaves, at) = tree(rng, &events);
    let proofs = proofs(rng, &events, &at, &leaves);
    let response = unsigned(rng, events, proofs, &leaves);
    let response = signed(rng, response);
    let input = expected(rng, response, &leaves);
    json!({"op": "decide", "decision": "audit-query-response", "input": input})
}
