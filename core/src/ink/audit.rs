//! INK audit-query responses: what a witness returns when an agent asks for the log's events
//! about one message. A response is accepted only if all of these hold:
//! - shape: protocol `ink/0.1`; type `network.tulpa.audit_query_response` or (the vendor-neutral
//!   spelling) `network.ink.audit_query_response`; a non-empty messageId; events and proofs
//!   arrays of equal length; an integer treeSize ≥ 0 (in any spelling: `3.0` is 3); a
//!   lowercase-hex rootHash; a tree of size 0 holds no events and has the empty tree's root;
//! - bindings: messageId, requester and (when pinned) serviceDid are the ones asked about;
//! - the witness signature over `ink/audit-query-response/v1\n` ‖ JCS(response without
//!   serviceSignature), so the type it was signed under cannot be relabelled;
//! - every event is in scope (its messageId is the response's, the requester is its agentId or
//!   counterpartyId), ids are unique, and its agentSignature verifies under the agent's key over
//!   `ink/audit-event\n` ‖ JCS(event without agentSignature);
//! - every event has exactly one proof, whose leafIndex is below treeSize and whose inclusion
//!   proof (listed from the root down) walks from the event's leaf to rootHash;
//! - a later authenticated checkpoint, when given, neither shrinks the tree nor forks it.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value};

use super::{merkle, profile, receipt, InkError};
use crate::ed25519;
use crate::jws::base64url_decode;

/// The domain separator of the witness signature.
pub const RESPONSE_DOMAIN: &str = "ink/audit-query-response/v1\n";
/// The domain separator of an agent's event signature.
pub const EVENT_DOMAIN: &str = "ink/audit-event\n";
/// The response types accepted.
pub const TYPES: [&str; 2] = [
    "network.tulpa.audit_query_response",
    "network.ink.audit_query_response",
];

/// What the verifier asked and whom it trusts.
#[derive(Debug, Clone)]
pub struct Expectations<'a> {
    /// The witness's public key.
    pub witness_key: [u8; 32],
    /// The messageId asked about.
    pub message_id: &'a str,
    /// The agent that asked.
    pub requester: &'a str,
    /// The witness DID, when pinned.
    pub service_did: Option<&'a str>,
    /// Agents' public keys by DID.
    pub agent_keys: &'a BTreeMap<String, [u8; 32]>,
    /// A later authenticated checkpoint `{treeSize, rootHash}`, as JSON text.
    pub later_checkpoint: Option<&'a str>,
}

/// An integer-valued number from 0 to 2^53 − 1, whatever its spelling.
fn integer(value: Option<&Value>) -> Option<u64> {
    super::integral(value?.as_f64()?, 0)
}

fn bad(kind: &'static str, why: impl Into<String>) -> InkError {
    InkError::new(kind, why)
}

/// Verifies a signature over `domain` ‖ JCS(object without `member`).
fn signed_by(
    object: &Map<String, Value>,
    member: &str,
    domain: &str,
    key: &[u8; 32],
    kind: &'static str,
) -> Result<(), InkError> {
    let signature = object
        .get(member)
        .and_then(Value::as_str)
        .ok_or_else(|| bad(kind, format!("no {member}")))?;
    let mut rest = object.clone();
    rest.remove(member);
    let canonical = profile::canonical_body(Value::Object(rest).to_string().as_bytes())?;
    let mut base = domain.as_bytes().to_vec();
    base.extend_from_slice(&canonical);
    let sig = base64url_decode(signature, "signature").map_err(|e| bad(kind, e.to_string()))?;
    ed25519::verify(key, &base, &sig).map_err(|e| bad(kind, format!("{member}: {e}")))
}

/// Verifies an audit-query response given as JSON text.
pub fn verify_response(response: &str, expect: &Expectations) -> Result<(), InkError> {
    profile::canonical_body(response.as_bytes())?;
    let Ok(Value::Object(r)) = crate::json::read(response.as_bytes()) else {
        return Err(bad("structure", "the response is not a JSON object"));
    };
    let text = |name: &str| r.get(name).and_then(Value::as_str).unwrap_or_default();
    if text("protocol") != "ink/0.1" {
        return Err(bad("structure", "protocol is not ink/0.1"));
    }
    if !TYPES.contains(&text("type")) {
        return Err(bad("structure", "type is not an audit-query response type"));
    }
    if text("messageId").is_empty() {
        return Err(bad("structure", "messageId is empty"));
    }
    let events = r
        .get("events")
        .and_then(Value::as_array)
        .ok_or_else(|| bad("structure", "events is not an array"))?;
    let proofs = r
        .get("proofs")
        .and_then(Value::as_array)
        .ok_or_else(|| bad("structure", "proofs is not an array"))?;
    let size = integer(r.get("treeSize"))
        .ok_or_else(|| bad("structure", "treeSize is not an integer >= 0"))?;
    let root = merkle::parse_hash(text("rootHash"), "rootHash")
        .map_err(|e| bad("structure", e.message))?;
    if size == 0 && (!events.is_empty() || !merkle::same(&root, &merkle::empty_root())) {
        return Err(bad(
            "structure",
            "a tree of size 0 holds no events and has the empty root",
        ));
    }
    if events.len() != proofs.len() {
        return Err(bad("structure", "events and proofs differ in number"));
    }
    if text("messageId") != expect.message_id {
        return Err(bad("binding", "messageId is not the one asked about"));
    }
    if text("requester") != expect.requester {
        return Err(bad("binding", "requester is not the agent that asked"));
    }
    if expect.service_did.is_some_and(|d| text("serviceDid") != d) {
        return Err(bad("binding", "serviceDid is not the pinned witness"));
    }
    signed_by(
        &r,
        "serviceSignature",
        RESPONSE_DOMAIN,
        &expect.witness_key,
        "signature",
    )?;

    let leaves = event_leaves(events, text("messageId"), expect)?;
    check_proofs(proofs, &leaves, size, &root)?;
    if let Some(later) = expect.later_checkpoint {
        receipt::check_later_checkpoint(later, size, &root)?;
    }
    Ok(())
}

/// Each event's leaf hash by its id, once every event is shown to be about `message_id`, to
/// involve the requester and to be signed by its agent's known key.
fn event_leaves(
    events: &[Value],
    message_id: &str,
    expect: &Expectations,
) -> Result<BTreeMap<String, merkle::Hash>, InkError> {
    let mut leaves: BTreeMap<String, merkle::Hash> = BTreeMap::new();
    for event in events {
        let e = event
            .as_object()
            .ok_or_else(|| bad("event", "an event is not an object"))?;
        let field = |name: &str| e.get(name).and_then(Value::as_str).unwrap_or_default();
        if field("messageId") != message_id {
            return Err(bad("scope", "an event belongs to another message"));
        }
        if field("agentId") != expect.requester && field("counterpartyId") != expect.requester {
            return Err(bad("scope", "an event does not involve the requester"));
        }
        let key = expect
            .agent_keys
            .get(field("agentId"))
            .ok_or_else(|| bad("event", "no key is known for an event's agentId"))?;
        signed_by(e, "agentSignature", EVENT_DOMAIN, key, "event")?;
        let leaf = profile::event_leaf(event.to_string().as_bytes())?;
        if leaves.insert(field("id").to_string(), leaf).is_some() {
            return Err(bad("event", "two events share an id"));
        }
    }
    Ok(leaves)
}

/// Checks that each proof names a distinct event of `leaves` and proves it included in the
/// tree of `size` leaves with `root`.
fn check_proofs(
    proofs: &[Value],
    leaves: &BTreeMap<String, merkle::Hash>,
    size: u64,
    root: &merkle::Hash,
) -> Result<(), InkError> {
    let mut proven = BTreeSet::new();
    for p in proofs {
        let event_id = p.get("eventId").and_then(Value::as_str).unwrap_or_default();
        let leaf = leaves
            .get(event_id)
            .ok_or_else(|| bad("proof", "a proof names no event of the response"))?;
        if !proven.insert(event_id) {
            return Err(bad("proof", "two proofs for one event"));
        }
        let index = integer(p.get("leafIndex"))
            .filter(|i| *i < size)
            .ok_or_else(|| bad("proof", "leafIndex is not below treeSize"))?;
        let path: Vec<merkle::Hash> = p
            .get("inclusionProof")
            .and_then(Value::as_array)
            .ok_or_else(|| bad("proof", "inclusionProof is not an array"))?
            .iter()
            .map(|h| merkle::parse_hash(h.as_str().unwrap_or_default(), "a proof node"))
            .collect::<Result<_, _>>()
            .map_err(|e| bad("proof", e.message))?;
        receipt::verify_top_down(index, size, leaf, &path, root)
            .map_err(|e| bad("proof", e.message))?;
    }
    Ok(())
}
