//! INK-Ed25519 request signatures: the signature base, one signature checked against one key,
//! and key rotation — which entry of a key history verifies a request, and whether live
//! transport authentication may use it.
//!
//! The base is `PROTOCOL\nMETHOD\nPATH\nrecipientDid\nJCS(body)\ntimestamp`, the body in its
//! canonical form under INK's JSON profile. A line feed or carriage return in any other
//! component is refused: it could move a field boundary and make two requests share a base.
//! Signatures are 86 base64url characters (64 bytes) and verify under the core's strict Ed25519
//! policy. A key history entry is usable when its status is exactly `active` or `retired`, it
//! carries no `revokedAt` member at all (whatever its value), and its `validFrom`/`validUntil`
//! (when present, strict INK timestamps; anything else skips the entry) contain the message
//! timestamp. A hinted key is tried first if usable; then active entries in order, then retired
//! ones. Live authentication takes only an active entry unless the deployment opts into a
//! grace window for retired keys. INK's corpus makes an unusable entry skipped, not fatal; every
//! skipped entry is reported with why, beside the verdict, so none is passed over in silence.

use serde_json::Value;

use super::{profile, time, InkError};
use crate::ed25519;
use crate::jws::base64url_decode;
use crate::shown::quoted;

/// The protocol line of the signature base.
pub const PROTOCOL: &str = "ink/0.1";

/// The parts of a request that its signature covers.
#[derive(Debug, Clone)]
pub struct SignInput<'a> {
    /// The HTTP method.
    pub method: &'a str,
    /// The request path.
    pub path: &'a str,
    /// The recipient's DID.
    pub recipient_did: &'a str,
    /// The body as sent.
    pub body: &'a [u8],
    /// The message timestamp.
    pub timestamp: &'a str,
}

/// The signature base of a request.
pub fn signature_base(input: &SignInput) -> Result<Vec<u8>, InkError> {
    for (name, value) in [
        ("method", input.method),
        ("path", input.path),
        ("recipientDid", input.recipient_did),
        ("timestamp", input.timestamp),
    ] {
        if value.contains(['\n', '\r']) {
            return Err(InkError::new(
                "signature_base",
                format!("{name} contains a line break, which would move a field boundary of the signature base"),
            ));
        }
    }
    let body = profile::canonical_body(input.body)?;
    let mut base = format!(
        "{PROTOCOL}\n{}\n{}\n{}\n",
        input.method, input.path, input.recipient_did
    )
    .into_bytes();
    base.extend_from_slice(&body);
    base.push(b'\n');
    base.extend_from_slice(input.timestamp.as_bytes());
    Ok(base)
}

/// Reads a public key given as 64 hex digits.
pub fn public_key(hex: &str) -> Result<[u8; 32], InkError> {
    super::merkle::parse_hash(hex, "the public key")
        .map_err(|_| InkError::new("key", "the public key is not 64 lowercase hex digits"))
}

/// Checks a base64url signature of 86 characters over `base` with `key`.
pub fn verify(base: &[u8], signature: &str, key: &[u8; 32]) -> Result<(), InkError> {
    if signature.len() != 86 {
        return Err(InkError::new(
            "signature_format",
            format!("the signature is {} characters; an INK-Ed25519 signature is 86 base64url characters", signature.len()),
        ));
    }
    let bytes = base64url_decode(signature, "signature")
        .map_err(|e| InkError::new("signature_format", e.to_string()))?;
    ed25519::verify(key, base, &bytes).map_err(|e| InkError::new("signature", e.to_string()))
}

/// The entry of a key history that verified a request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyMatch {
    /// The entry's `keyId`.
    pub key_id: String,
    /// `active` or `retired`.
    pub status: String,
    /// The entries that could not verify this message, and why.
    pub skipped: Vec<Skipped>,
}

/// An entry of a key history that could not verify a message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skipped {
    /// The entry's position in the history.
    pub index: usize,
    /// The entry's `keyId`, if it has one.
    pub key_id: Option<String>,
    /// Why it cannot verify this message.
    pub why: String,
}

impl std::fmt::Display for Skipped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "keys[{}]", self.index)?;
        if let Some(id) = &self.key_id {
            write!(f, " ({id})")?;
        }
        write!(f, ": {}", self.why)
    }
}

/// Why an entry cannot verify a message sent at `at_ms`, or its key when it can.
fn usable(entry: &Value, at_ms: i64) -> Result<[u8; 32], String> {
    let entry = entry
        .as_object()
        .ok_or_else(|| "not a key entry object".to_string())?;
    match entry.get("status").and_then(Value::as_str) {
        Some("active" | "retired") => {}
        Some(other) => return Err(format!("status {} is not active or retired", quoted(other))),
        None => return Err("no status string".into()),
    }
    if entry.contains_key("revokedAt") {
        return Err("it carries revokedAt".into());
    }
    let bound = |name: &str| -> Result<Option<i64>, String> {
        match entry.get(name) {
            None => Ok(None),
            Some(Value::String(s)) => time::parse(s)
                .map(Some)
                .map_err(|_| format!("{name} {} is not an INK timestamp", quoted(s))),
            Some(_) => Err(format!("{name} is not a string, so not an INK timestamp")),
        }
    };
    let (from, until) = (bound("validFrom")?, bound("validUntil")?);
    if from.is_some_and(|f| at_ms < f) || until.is_some_and(|u| at_ms > u) {
        return Err("the message timestamp is outside its validity window".into());
    }
    match entry.get("publicKeyHex").and_then(Value::as_str) {
        Some(hex) => public_key(hex).map_err(|e| e.message),
        None => Err("no publicKeyHex string".into()),
    }
}

/// Finds the entry of `keys` that verifies `signature` over `base` for a message sent at
/// `timestamp`, trying the entry named by `hint` first.
pub fn verify_with_history(
    base: &[u8],
    signature: &str,
    timestamp: &str,
    keys: &[Value],
    hint: Option<&str>,
) -> Result<KeyMatch, InkError> {
    let at = time::parse(timestamp)?;
    let text = |e: &Value, name: &str| e.get(name).and_then(Value::as_str).map(str::to_string);
    let mut skipped = Vec::new();
    let mut candidates = Vec::new();
    for (index, entry) in keys.iter().enumerate() {
        match usable(entry, at) {
            Ok(key) => candidates.push((entry, key)),
            Err(why) => skipped.push(Skipped {
                index,
                key_id: text(entry, "keyId"),
                why,
            }),
        }
    }
    let status = |e: &Value| text(e, "status").unwrap_or_default();
    let hinted = hint.and_then(|h| {
        candidates
            .iter()
            .find(|(e, _)| text(e, "keyId").as_deref() == Some(h))
    });
    let ordered = hinted
        .into_iter()
        .chain(candidates.iter().filter(|(e, _)| status(e) == "active"))
        .chain(candidates.iter().filter(|(e, _)| status(e) == "retired"));
    for (entry, key) in ordered {
        match verify(base, signature, key) {
            Ok(()) => {
                return Ok(KeyMatch {
                    key_id: text(entry, "keyId").unwrap_or_default(),
                    status: status(entry),
                    skipped,
                })
            }
            Err(e) if e.kind == "signature_format" => return Err(e),
            Err(_) => {}
        }
    }
    let mut message = format!(
        "no usable entry of the {}-entry key history verifies the signature",
        keys.len()
    );
    for entry in &skipped {
        message.push_str(&format!("; skipped {entry}"));
    }
    Err(InkError::new("signature_verification_failed", message))
}

/// Live transport authentication over a verified match: only an active entry, unless retired
/// ones are allowed for a rotation grace window.
pub fn live_auth(found: KeyMatch, allow_retired: bool) -> Result<KeyMatch, InkError> {
    if found.status == "retired" && !allow_retired {
        return Err(InkError::new(
            "retired_key_for_live_auth",
            format!(
                "only the retired key {} verifies; live authentication takes active keys",
                found.key_id
            ),
        ));
    }
    Ok(found)
}
