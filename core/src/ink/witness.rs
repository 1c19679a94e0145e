//! The witness, as seed 003 states it where INK's corpus does not pin it: signed checkpoints
//! (Ed25519 over JCS(checkpoint)) chained by `previousCheckpointHash`, the lowercase hex
//! SHA-256 of the previous checkpoint's JCS form (compared in constant time); event submission (an eventId the witness
//! already holds is a conflict, HTTP 409; an event whose agentId is not the authenticated
//! sender is refused, HTTP 403); and audit responses signed over
//! `ink/audit-response\n` ‖ JCS(events).

use serde_json::Value;
use sha2::{Digest, Sha256};

use super::{merkle, profile, InkError};
use crate::ed25519;
use crate::jws::base64url_decode;

/// The domain separator of a witness's audit-response signature.
pub const AUDIT_RESPONSE_DOMAIN: &str = "ink/audit-response\n";

fn verify(key: &[u8; 32], message: &[u8], signature: &str) -> Result<(), InkError> {
    let sig = base64url_decode(signature, "signature")
        .map_err(|e| InkError::new("signature", e.to_string()))?;
    ed25519::verify(key, message, &sig).map_err(|e| InkError::new("signature", e.to_string()))
}

/// Verifies a checkpoint's signature over its JCS form.
pub fn verify_checkpoint(
    checkpoint: &[u8],
    signature: &str,
    key: &[u8; 32],
) -> Result<(), InkError> {
    verify(key, &profile::canonical_body(checkpoint)?, signature)
}

/// The hash a following checkpoint names as `previousCheckpointHash`.
pub fn checkpoint_hash(checkpoint: &[u8]) -> Result<String, InkError> {
    let digest = Sha256::digest(profile::canonical_body(checkpoint)?);
    Ok(digest.iter().map(|b| format!("{b:02x}")).collect())
}

/// Verifies a checkpoint that follows `previous`: its signature, then its
/// `previousCheckpointHash`, which must be the previous checkpoint's hash.
pub fn verify_chain(
    checkpoint: &[u8],
    previous: &[u8],
    signature: &str,
    key: &[u8; 32],
) -> Result<(), InkError> {
    verify_checkpoint(checkpoint, signature, key)?;
    let expected = checkpoint_hash(previous)?;
    let value = crate::json::read(checkpoint).map_err(|e| InkError::new("json", e.to_string()))?;
    match value.get("previousCheckpointHash").and_then(Value::as_str) {
        Some(named) if merkle::same(named.as_bytes(), expected.as_bytes()) => Ok(()),
        _ => Err(InkError::new(
            "chain",
            format!("previousCheckpointHash is not SHA-256(JCS(previous)) = {expected}"),
        )),
    }
}

/// Verifies a witness's audit-response signature over its events array.
pub fn verify_audit_response(
    events: &[u8],
    signature: &str,
    key: &[u8; 32],
) -> Result<(), InkError> {
    let mut signed = AUDIT_RESPONSE_DOMAIN.as_bytes().to_vec();
    signed.extend_from_slice(&profile::canonical_body(events)?);
    verify(key, &signed, signature)
}

/// Checks an event submission: a new eventId, and the authenticated sender's own event.
pub fn submit_event<'a>(
    event_id: &str,
    agent_id: &str,
    authenticated_sender: &str,
    existing: impl IntoIterator<Item = &'a str>,
) -> Result<(), InkError> {
    if existing.into_iter().any(|e| e == event_id) {
        return Err(InkError::new(
            "duplicate_event_id",
            format!("Event with ID {event_id} already exists"),
        ));
    }
    if agent_id != authenticated_sender {
        return Err(InkError::new(
            "sender_mismatch",
            "Authenticated sender does not match event.agentId",
        ));
    }
    Ok(())
}
