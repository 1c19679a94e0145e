//! INK's audit-query responses as the judge reads them.

use json_syntax::Value;

use super::signatures::{key, signature, verifies};
use super::witness::{event_leaf, hash, integer, later_checkpoint, walk};
use crate::judge::json::{self, text};
use crate::judge::{must, refused, sha256, Refusal};

/// Whether `document`'s `member` is a signature by `key` over `domain` and the JCS form of the
/// document without that member.
fn signed_member(document: &Value, member: &str, domain: &[u8], key: &[u8]) -> Result<(), Refusal> {
    let Value::Object(members) = document else {
        return Err(refused("not an object"));
    };
    let signed = text(document, member).ok_or_else(|| refused("no signature"))?;
    let mut rest = members.clone();
    let _ = rest.remove_unique(member);
    let message = [domain, &json::canonical(&Value::Object(rest))?].concat();
    must(
        verifies(key, &signature(signed)?, &message),
        "a signature does not verify",
    )
}

/// The response types of an audit query.
const AUDIT_TYPES: [&str; 2] = [
    "network.tulpa.audit_query_response",
    "network.ink.audit_query_response",
];

/// Member `name` of `value` as a string, empty when absent or not a string.
fn field(value: &Value, name: &str) -> String {
    text(value, name).unwrap_or_default().to_string()
}

/// INK's audit-query response: protocol `ink/0.1`, an audit-query response type, a message id,
/// as many proofs as events, an integer tree size and a root hash (an empty tree holds no
/// events and has the empty root); the message, requester and pinned witness asked about; the
/// witness's signature over the line `ink/audit-query-response/v1` and JCS(response without
/// serviceSignature); each event about the message, involving the requester, signed by its
/// agent's key over the line `ink/audit-event` and JCS(event without agentSignature), its id
/// unique; each proof naming a distinct event and leading from its leaf to the root; and a
/// later checkpoint.
pub(super) fn audit(input: &Value) -> Result<Vec<u8>, Refusal> {
    let r = json::member(input, "response").ok_or(Refusal::Unanswered)?;
    must(
        field(r, "protocol") == "ink/0.1"
            && AUDIT_TYPES.contains(&field(r, "type").as_str())
            && !field(r, "messageId").is_empty(),
        "protocol, type or messageId",
    )?;
    let (Some(Value::Array(events)), Some(Value::Array(proofs))) =
        (json::member(r, "events"), json::member(r, "proofs"))
    else {
        return Err(refused("events or proofs is not an array"));
    };
    must(
        events.len() == proofs.len(),
        "events and proofs differ in number",
    )?;
    let size = integer(json::member(r, "treeSize"), 0).ok_or_else(|| refused("treeSize"))?;
    let root = hash(json::member(r, "rootHash"))?;
    must(
        size > 0 || (events.is_empty() && root == sha256(&[])),
        "an empty tree holds no events and has the empty root",
    )?;
    let requester = text(input, "expectedRequester").ok_or(Refusal::Unanswered)?;
    must(
        Some(field(r, "messageId").as_str()) == text(input, "expectedMessageId")
            && field(r, "requester") == requester,
        "not the message or requester asked about",
    )?;
    if let Some(pinned) = text(input, "expectedServiceDid") {
        must(field(r, "serviceDid") == pinned, "not the pinned witness")?;
    }
    let witness = key(text(input, "witnessPublicKeyHex").ok_or(Refusal::Unanswered)?)
        .ok_or_else(|| refused("the witness key is not 64 lowercase hex digits"))?;
    signed_member(
        r,
        "serviceSignature",
        b"ink/audit-query-response/v1\n",
        &witness,
    )?;
    let Some(Value::Object(agents)) = json::member(input, "agentKeysHex") else {
        return Err(Refusal::Unanswered);
    };
    let leaves = event_leaves(events, &field(r, "messageId"), requester, agents)?;
    proven(proofs, &leaves, size, &root)?;
    later_checkpoint(input, size, &root)?;
    Ok(b"valid".to_vec())
}

/// Each event's id and leaf, once each event is found about `message`, involving
/// `requester`, and signed by its agent's key from `agents` over the line `ink/audit-event`
/// and JCS(event without agentSignature), its id unique.
fn event_leaves(
    events: &[Value],
    message: &str,
    requester: &str,
    agents: &json_syntax::Object,
) -> Result<Vec<(String, Vec<u8>)>, Refusal> {
    let agent_key = |did: &str| {
        agents
            .iter()
            .filter(|m| m.key.as_str() == did)
            .find_map(|m| match &m.value {
                Value::String(hex) => key(hex),
                _ => None,
            })
    };
    let mut leaves: Vec<(String, Vec<u8>)> = Vec::new();
    for event in events.iter() {
        must(
            matches!(event, Value::Object(_)),
            "an event is not an object",
        )?;
        must(
            field(event, "messageId") == message,
            "an event about another message",
        )?;
        let agent = field(event, "agentId");
        must(
            agent == requester || field(event, "counterpartyId") == requester,
            "an event not involving the requester",
        )?;
        let agent_key = agent_key(&agent).ok_or_else(|| refused("no key for an event's agent"))?;
        signed_member(event, "agentSignature", b"ink/audit-event\n", &agent_key)?;
        let id = field(event, "id");
        must(
            leaves.iter().all(|(seen, _)| *seen != id),
            "two events share an id",
        )?;
        leaves.push((id, event_leaf(event.clone())?));
    }
    Ok(leaves)
}

/// Each proof names a distinct event of `leaves` and leads from its leaf, at an index below
/// `size`, to `root`.
fn proven(
    proofs: &[Value],
    leaves: &[(String, Vec<u8>)],
    size: u64,
    root: &[u8],
) -> Result<(), Refusal> {
    let mut proven: Vec<String> = Vec::new();
    for proof in proofs.iter() {
        let named = field(proof, "eventId");
        let leaf = leaves
            .iter()
            .find(|(id, _)| *id == named)
            .map(|(_, leaf)| leaf.clone())
            .ok_or_else(|| refused("a proof names no event"))?;
        must(!proven.contains(&named), "two proofs for one event")?;
        proven.push(named);
        let index = integer(json::member(proof, "leafIndex"), 0)
            .filter(|i| *i < size)
            .ok_or_else(|| refused("leafIndex is not below treeSize"))?;
        let Some(Value::Array(path)) = json::member(proof, "inclusionProof") else {
            return Err(refused("inclusionProof is not an array"));
        };
        let path = path
            .iter()
            .map(|node| hash(Some(node)))
            .collect::<Result<Vec<_>, _>>()?;
        must(
            walk(index, size, leaf, &path)? == root,
            "the proof does not lead to the root",
        )?;
    }
    Ok(())
}
