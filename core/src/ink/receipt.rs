//! INK inclusion receipts: a witness's signed commitment that an audit event sits at a leaf
//! index of its log. Verification runs in steps, and a rejection names the step:
//! `structure` (a non-empty eventId, integer leafIndex ≥ 0 below an integer treeSize ≥ 1, a
//! lowercase-hex rootHash, an inclusionProof array of at most 64 hashes, non-empty timestamp
//! and signature), `signature` (Ed25519 by the witness key over
//! `ink/audit-inclusion/v1\n` ‖ JCS({eventId, leafIndex, treeSize, rootHash, timestamp})),
//! `proof` (when the event — bound to eventId — or a bare leaf hash is supplied, the inclusion
//! proof, which INK lists from the root down, walks from its leaf to rootHash) and `checkpoint` (a later authenticated checkpoint
//! never has a smaller tree, nor another root at the same size).
//!
//! The receipt is read from its wire text, so a string the canonicalizer refuses (a lone
//! surrogate) fails at the step that canonicalizes it rather than being rewritten.

use std::collections::BTreeMap;

use serde_json::value::RawValue;

use super::{merkle, profile, InkError};
use crate::ed25519;
use crate::jcs;
use crate::jws::base64url_decode;

/// The longest inclusion proof a receipt may carry.
pub const MAX_PROOF: usize = 64;
/// The domain separator of the witness signature.
pub const DOMAIN: &str = "ink/audit-inclusion/v1\n";

fn step(kind: &'static str, why: impl Into<String>) -> InkError {
    InkError::new(kind, why)
}

type Members = BTreeMap<String, Box<RawValue>>;

/// Reads an object's members without decoding their strings.
pub(crate) fn members(raw: &str, what: &str, kind: &'static str) -> Result<Members, InkError> {
    serde_json::from_str(raw).map_err(|_| step(kind, format!("{what} is not a JSON object")))
}

/// An integer-valued JSON number in `min..=2^53-1`, whatever its spelling.
pub(crate) fn integer(raw: Option<&RawValue>, min: u64) -> Option<u64> {
    super::integral(serde_json::from_str(raw?.get()).ok()?, min)
}

/// A JSON string member, decoded.
pub(crate) fn string(raw: Option<&RawValue>) -> Option<String> {
    serde_json::from_str(raw?.get()).ok()
}

fn hex_hash(raw: Option<&RawValue>) -> Option<merkle::Hash> {
    merkle::parse_hash(&string(raw)?, "hash").ok()
}

/// Checks a later authenticated checkpoint `{treeSize, rootHash}` (JSON text) against a tree
/// of `size` leaves with `root`: the log only grows, and at the same size keeps its root.
pub fn check_later_checkpoint(later: &str, size: u64, root: &merkle::Hash) -> Result<(), InkError> {
    let c = members(later, "the later checkpoint", "checkpoint")?;
    let later_size = integer(c.get("treeSize").map(Box::as_ref), 0).ok_or_else(|| {
        step(
            "checkpoint",
            "the later checkpoint's treeSize is not an integer >= 0",
        )
    })?;
    let later_root = hex_hash(c.get("rootHash").map(Box::as_ref)).ok_or_else(|| {
        step(
            "checkpoint",
            "the later checkpoint's rootHash is not 64 lowercase hex digits",
        )
    })?;
    if later_size < size {
        return Err(step(
            "checkpoint",
            "the later checkpoint has a smaller tree: the log was rewound",
        ));
    }
    if later_size == size && !merkle::same(&later_root, root) {
        return Err(step(
            "checkpoint",
            "the later checkpoint has another root at the same size: a fork",
        ));
    }
    Ok(())
}

/// Verifies an inclusion proof listed as INK lists it, from the root down (RFC 9162's audit
/// path reversed).
pub fn verify_top_down(
    index: u64,
    size: u64,
    leaf: &merkle::Hash,
    proof: &[merkle::Hash],
    root: &merkle::Hash,
) -> Result<(), InkError> {
    let bottom_up: Vec<merkle::Hash> = proof.iter().rev().copied().collect();
    merkle::verify_inclusion(index, size, leaf, &bottom_up, root)
}

/// What a receipt is checked against beyond the witness key.
#[derive(Debug, Clone, Default)]
pub struct ReceiptChecks<'a> {
    /// The event the receipt names, as JSON text: binds eventId and yields the leaf.
    pub event: Option<&'a str>,
    /// A precomputed leaf hash (used when no event is given).
    pub event_hash: Option<&'a str>,
    /// A later authenticated checkpoint `{treeSize, rootHash}`, as JSON text.
    pub later_checkpoint: Option<&'a str>,
}

/// Verifies a receipt given as JSON text.
pub fn verify_receipt(
    receipt: &str,
    witness_key: &[u8; 32],
    checks: &ReceiptChecks,
) -> Result<(), InkError> {
    let r = members(receipt, "the receipt", "structure")?;
    let get = |name: &str| r.get(name).map(Box::as_ref);
    let event_id = get("eventId")
        .filter(|e| e.get().starts_with('"') && e.get() != "\"\"")
        .ok_or_else(|| step("structure", "eventId is not a non-empty string"))?;
    let leaf_index = integer(get("leafIndex"), 0)
        .ok_or_else(|| step("structure", "leafIndex is not an integer >= 0"))?;
    let tree_size = integer(get("treeSize"), 1)
        .ok_or_else(|| step("structure", "treeSize is not an integer >= 1"))?;
    if leaf_index >= tree_size {
        return Err(step("structure", "leafIndex is not below treeSize"));
    }
    let root = hex_hash(get("rootHash"))
        .ok_or_else(|| step("structure", "rootHash is not 64 lowercase hex digits"))?;
    let proof: Vec<String> = get("inclusionProof")
        .and_then(|p| serde_json::from_str(p.get()).ok())
        .ok_or_else(|| step("structure", "inclusionProof is not an array of strings"))?;
    if proof.len() > MAX_PROOF {
        return Err(step(
            "structure",
            format!("inclusionProof has more than {MAX_PROOF} entries"),
        ));
    }
    let proof: Vec<merkle::Hash> = proof
        .iter()
        .map(|h| merkle::parse_hash(h, "an inclusionProof entry"))
        .collect::<Result<_, _>>()
        .map_err(|e| step("structure", e.message))?;
    let timestamp = get("timestamp")
        .filter(|t| t.get().starts_with('"') && t.get() != "\"\"")
        .ok_or_else(|| step("structure", "timestamp is not a non-empty string"))?;
    let signature = string(get("serviceSignature"))
        .filter(|s| !s.is_empty())
        .ok_or_else(|| step("structure", "serviceSignature is not a non-empty string"))?;

    let core = format!(
        "{{\"eventId\":{},\"leafIndex\":{leaf_index},\"treeSize\":{tree_size},\"rootHash\":{},\"timestamp\":{}}}",
        event_id.get(),
        get("rootHash").map(RawValue::get).unwrap_or("\"\""),
        timestamp.get()
    );
    let canonical = jcs::canonicalize(core.as_bytes())
        .map_err(|e| step("signature", format!("the signed core is not I-JSON: {e}")))?;
    let mut signed = DOMAIN.as_bytes().to_vec();
    signed.extend_from_slice(&canonical);
    let sig = base64url_decode(&signature, "serviceSignature")
        .map_err(|e| step("signature", e.to_string()))?;
    ed25519::verify(witness_key, &signed, &sig).map_err(|e| step("signature", e.to_string()))?;

    let leaf = match (checks.event, checks.event_hash) {
        (Some(event), _) => {
            let e = members(event, "the event", "proof")?;
            let id = string(e.get("id").map(Box::as_ref))
                .ok_or_else(|| step("proof", "the event has no string id"))?;
            if string(Some(event_id)).as_deref() != Some(id.as_str()) {
                return Err(step("proof", "the event's id is not the receipt's eventId"));
            }
            Some(profile::event_leaf(event.as_bytes()).map_err(|e| step("proof", e.message))?)
        }
        (None, Some(hash)) => {
            Some(merkle::parse_hash(hash, "eventHash").map_err(|e| step("proof", e.message))?)
        }
        (None, None) => None,
    };
    if let Some(leaf) = leaf {
        verify_top_down(leaf_index, tree_size, &leaf, &proof, &root)
            .map_err(|e| step("proof", e.message))?;
    }
    if let Some(later) = checks.later_checkpoint {
        check_later_checkpoint(later, tree_size, &root)?;
    }
    Ok(())
}
