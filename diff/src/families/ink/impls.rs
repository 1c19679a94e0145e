//! The core's INK decisions as a campaign implementation: leaf hashes, signature bases,
//! requests' signatures, the key history entry that verifies a request, bodies' canonical
//! form under INK's profile, principals, inclusion proofs from the root down, checkpoint
//! bodies, the witness's node and root hashes, submissions and signatures, timestamps (as
//! epoch milliseconds), and freshness and replay (`valid`, or the rule broken); the Python
//! (hashlib, PyPI rfc8785) and Node (node:crypto, npm canonicalize) workers and the judge
//! compute the same from INK's definitions.

use canonfuzz_core::ink::checkpoint::Checkpoint;
use canonfuzz_core::ink::{
    merkle, principal, profile, receipt, replay, request, time, witness, InkError,
};
use serde_json::Value;
use sha2::{Digest, Sha256};

use super::published;
use crate::impls::in_process::{verdict, InProcess};
use crate::outcome::Outcome;
use crate::vector::to_hex;

/// INK's inclusion decision on a case: the proof's nodes from the root down.
fn top_down(case: &Value) -> Result<(), canonfuzz_core::ink::InkError> {
    let text = |name: &str| case.get(name).and_then(Value::as_str).unwrap_or_default();
    let number = |name: &str| case.get(name).and_then(Value::as_u64);
    let proof = case
        .get("proof")
        .and_then(Value::as_array)
        .map(|nodes| {
            nodes
                .iter()
                .map(|n| merkle::parse_hash(n.as_str().unwrap_or_default(), "a proof node"))
                .collect::<Result<Vec<_>, _>>()
        })
        .unwrap_or_else(|| Ok(Vec::new()))?;
    receipt::verify_top_down(
        number("leafIndex").unwrap_or(u64::MAX),
        number("treeSize").unwrap_or(0),
        &merkle::parse_hash(text("leafHash"), "leafHash")?,
        &proof,
        &merkle::parse_hash(text("rootHash"), "rootHash")?,
    )
}

/// INK's key rotation decision on a case: the entry of its key history that verifies the
/// request, held to live authentication's rule when the case asks for it, as
/// `<status> <keyId>`.
fn rotated(case: &Value, base: &[u8]) -> Result<String, canonfuzz_core::ink::InkError> {
    let text = |name: &str| case.get(name).and_then(Value::as_str).unwrap_or_default();
    let flag = |name: &str| case.get(name).and_then(Value::as_bool).unwrap_or(false);
    let keys = case
        .get("keys")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice);
    let hint = case.get("hintKeyId").and_then(Value::as_str);
    let mut found =
        request::verify_with_history(base, text("signature"), text("timestamp"), keys, hint)?;
    if flag("liveAuth") {
        found = request::live_auth(found, flag("liveAuthAllowRetired"))?;
    }
    Ok(format!("{} {}", found.status, found.key_id))
}

/// The witness's decisions on a case: a node's or a tree's hash as lowercase hex, or `valid`
/// for a submission, a signed checkpoint, a chain or an audit response; `None` for another op.
fn witnessed(case: &Value) -> Option<Result<String, InkError>> {
    let text = |name: &str| case.get(name).and_then(Value::as_str).unwrap_or_default();
    let hash = |name: &str| merkle::parse_hash(text(name), name);
    let signer = || request::public_key(text("witnessPublicKeyHex"));
    let valid = |checked: Result<(), InkError>| checked.map(|()| "valid".to_string());
    Some(match text("op") {
        "node" => hash("left")
            .and_then(|left| Ok(merkle::node_hash(&left, &hash("right")?)))
            .map(|node| to_hex(&node)),
        "root" => case
            .get("leafHashes")
            .and_then(Value::as_array)
            .map_or(&[][..], Vec::as_slice)
            .iter()
            .map(|h| merkle::parse_hash(h.as_str().unwrap_or_default(), "a leaf hash"))
            .collect::<Result<Vec<_>, _>>()
            .map(|leaves| to_hex(&merkle::root(&leaves))),
        "submit" => {
            let event = |name: &str| {
                case.get("event")
                    .and_then(|e| e.get(name))
                    .and_then(Value::as_str)
                    .unwrap_or_default()
            };
            let held = case
                .get("existingEventIds")
                .and_then(Value::as_array)
                .map(|ids| ids.iter().filter_map(Value::as_str).collect::<Vec<_>>())
                .unwrap_or_default();
            valid(witness::submit_event(
                event("eventId"),
                event("agentId"),
                text("authenticatedSenderDid"),
                held,
            ))
        }
        "witness-checkpoint" => valid(signer().and_then(|key| {
            witness::verify_checkpoint(text("checkpoint").as_bytes(), text("signature"), &key)
        })),
        "chain" => valid(signer().and_then(|key| {
            witness::verify_chain(
                text("checkpoint").as_bytes(),
                text("previous").as_bytes(),
                text("signature"),
                &key,
            )
        })),
        "audit-response" => valid(signer().and_then(|key| {
            witness::verify_audit_response(text("events").as_bytes(), text("signature"), &key)
        })),
        _ => return None,
    })
}

/// The decision a case names, as `ink decide` takes it on the case's input: `valid`, or what
/// the decision yields as RFC 8785 JSON; `None` when the input is not one the decision reads.
fn decided(case: &Value) -> Option<Result<String, InkError>> {
    let decision = case.get("decision")?.as_str()?;
    let answer = published::decide(decision, &case.get("input")?.to_string()).ok()?;
    Some(answer.map(|yields| {
        if yields.is_empty() {
            "valid".to_string()
        } else {
            let text = Value::Object(yields).to_string();
            let canonical = canonfuzz_core::jcs::canonicalize(text.as_bytes());
            String::from_utf8_lossy(&canonical.unwrap_or_default()).into_owned()
        }
    }))
}

/// The core.
pub fn core() -> InProcess {
    InProcess::core(|input| {
        let Ok(case) = serde_json::from_slice::<Value>(input) else {
            return Outcome::Unsupported;
        };
        let text = |name: &str| case.get(name).and_then(Value::as_str).unwrap_or_default();
        let base = || {
            request::signature_base(&request::SignInput {
                method: text("method"),
                path: text("path"),
                recipient_did: text("recipientDid"),
                body: text("body").as_bytes(),
                timestamp: text("timestamp"),
            })
        };
        let answer = match text("op") {
            "leaf" => profile::event_leaf(text("event").as_bytes()).map(|h| to_hex(&h)),
            "base" => base().map(|b| to_hex(&Sha256::digest(b))),
            "body" => profile::canonical_body(text("body").as_bytes())
                .map(|c| String::from_utf8_lossy(&c).into_owned()),
            "principal" => principal::normalize(text("agentId")),
            "inclusion" => top_down(&case).map(|()| "valid".to_string()),
            "checkpoint" => Checkpoint::parse(text("checkpoint")).map(|c| c.to_body()),
            "rotation" => base().and_then(|base| rotated(&case, &base)),
            "signed" => base()
                .and_then(|base| {
                    request::verify(
                        &base,
                        text("signature"),
                        &request::public_key(text("publicKeyHex"))?,
                    )
                })
                .map(|()| "valid".to_string()),
            "timestamp" => time::parse(text("timestamp")).map(|ms| ms.to_string()),
            "replay" => {
                let seen: Vec<&str> = case
                    .get("previouslySeenNonces")
                    .and_then(Value::as_array)
                    .map(|l| l.iter().filter_map(Value::as_str).collect())
                    .unwrap_or_default();
                replay::check(
                    text("messageTimestamp"),
                    text("receiverClock"),
                    text("nonce"),
                    seen,
                )
                .map(|()| "valid".to_string())
            }
            "decide" => match decided(&case) {
                Some(answer) => answer,
                None => return Outcome::Unsupported,
            },
            _ => match witnessed(&case) {
                Some(answer) => answer,
                None => return Outcome::Unsupported,
            },
        };
        verdict(answer.map(String::into_bytes), |e| e.kind.to_string())
    })
}
