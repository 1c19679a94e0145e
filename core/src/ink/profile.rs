//! INK's JSON profile for signed and logged bodies: RFC 8785 canonical form, with every number
//! a safe integer (|n| ≤ 2^53 - 1, no negative zero, no fraction; `1e2` is the integer 100),
//! nesting at most 32 deep, at most 10,000 values, and a canonical body of at most 1 MiB. An
//! audit event is an object; its leaf is SHA-256(0x00 ‖ JCS(event without agentSignature)).

use serde_json::Value;

use super::{merkle, InkError, MAX_SAFE_INTEGER};
use crate::jcs::{Canonicalizer, Options};

/// The deepest nesting accepted.
pub const MAX_DEPTH: usize = 32;
/// The most JSON values (objects, arrays, members' values, scalars) a body may hold.
pub const MAX_NODES: usize = 10_000;
/// The largest canonical body, in bytes.
pub const MAX_CANONICAL_BYTES: usize = 1 << 20;

/// Checks the number profile and the node bound over a parsed value, without recursion.
fn check_values(root: &Value) -> Result<(), InkError> {
    let mut pending = vec![root];
    let mut nodes = 0usize;
    while let Some(value) = pending.pop() {
        nodes += 1;
        if nodes > MAX_NODES {
            return Err(InkError::new(
                "too_many_values",
                format!("the body holds more than {MAX_NODES} values"),
            ));
        }
        match value {
            Value::Array(items) => pending.extend(items),
            Value::Object(members) => pending.extend(members.values()),
            Value::Number(n) => {
                let safe = if let Some(u) = n.as_u64() {
                    u <= MAX_SAFE_INTEGER
                } else if let Some(i) = n.as_i64() {
                    i.unsigned_abs() <= MAX_SAFE_INTEGER
                } else {
                    n.as_f64().is_some_and(|f| {
                        f.fract() == 0.0
                            && f.abs() <= MAX_SAFE_INTEGER as f64
                            && !(f == 0.0 && f.is_sign_negative())
                    })
                };
                if !safe {
                    return Err(InkError::new(
                        "number",
                        format!("{n} is not a safe integer (|n| <= 2^53 - 1, no fraction, no -0)"),
                    ));
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// The canonical form of a body under INK's profile.
pub fn canonical_body(raw: &[u8]) -> Result<Vec<u8>, InkError> {
    let mut canonicalizer = Canonicalizer::new(Options {
        max_depth: MAX_DEPTH,
    });
    let canonical = canonicalizer
        .canonicalize(raw)
        .map_err(|e| InkError::new("json", e.to_string()))?;
    let value = crate::json::read(raw).map_err(|e| InkError::new("json", e.to_string()))?;
    check_values(&value)?;
    if canonical.len() > MAX_CANONICAL_BYTES {
        return Err(InkError::new(
            "too_large",
            format!(
                "the canonical body is {} bytes; at most {MAX_CANONICAL_BYTES}",
                canonical.len()
            ),
        ));
    }
    Ok(canonical)
}

/// The Merkle leaf hash of an audit event: SHA-256(0x00 ‖ JCS(event)), `agentSignature`
/// removed first (it signs the event, so it cannot be part of it).
pub fn event_leaf(raw: &[u8]) -> Result<[u8; 32], InkError> {
    let canonical = canonical_body(raw)?;
    let Value::Object(mut event) =
        crate::json::read(&canonical).map_err(|e| InkError::new("json", e.to_string()))?
    else {
        return Err(InkError::new(
            "not_an_object",
            "an audit event is a JSON object",
        ));
    };
    if event.remove("agentSignature").is_none() {
        return Ok(merkle::leaf_hash(&canonical));
    }
    let stripped = canonical_body(Value::Object(event).to_string().as_bytes())?;
    Ok(merkle::leaf_hash(&stripped))
}

#[cfg(test)]
mod tests {
    use super::*;
    use sha2::{Digest, Sha256};

    /// SHA-256(0x00 ‖ `canonical`): INK's leaf hash of an event without `agentSignature`.
    fn leaf_of(canonical: &[u8]) -> [u8; 32] {
        Sha256::new()
            .chain_update([0])
            .chain_update(canonical)
            .finalize()
            .into()
    }

    #[test]
    fn an_event_is_hashed_as_written_whatever_its_member_names() {
        let plain = br#"{"a":1,"agentSignature":"x"}"#;
        assert_eq!(event_leaf(plain).unwrap(), leaf_of(br#"{"a":1}"#));
        // One member, a string, named as serde_json's raw-value marker: no agentSignature to
        // drop. serde_json's Value reads it as the event the string holds, whose leaf is
        // another event's.
        let marker = br#"{"$serde_json::private::RawValue":"{\"a\":1,\"agentSignature\":\"x\"}"}"#;
        assert_eq!(event_leaf(marker).unwrap(), leaf_of(marker));
        assert_ne!(event_leaf(marker).unwrap(), event_leaf(plain).unwrap());
    }
}
