//! org.jardenberg/verifiable-mcp 0.2.1: verifying a signed tool result, resource or JSON-RPC
//! error frame against the server's JWK set.
//!
//! The envelope sits at `result._meta["org.jardenberg/verifiable-mcp"]` (or `error.data[...]`
//! for error frames); only its `jws` is used — nothing outside the JWS is security-bearing, so
//! the convenience fields, the deprecated v0.1 siblings and anything a deployment adds are
//! ignored. The JWS (typ `verifiable-mcp+jws`, alg pinned to `EdDSA`, kid resolved in the
//! set, fail closed) carries the RFC 8785 canonical wrapper
//! `{iat, payload, payload_digest, content_digest, provenance}`; both digests are recomputed,
//! the served structure must equal the signed payload, and `iat` may be held to a window.
//! Every rule is checked and every failed one is named.

use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

use crate::jcs;
use crate::jws::{self, Jwks, Profile};

/// The `_meta` / `error.data` key of the envelope.
pub const META_KEY: &str = "org.jardenberg/verifiable-mcp";
/// The JWS `typ` the specification mandates.
pub const TYP: &str = "verifiable-mcp+jws";

/// A rule of the specification that a response can break.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Rule {
    /// The response is JSON and carries an envelope with a `jws` where the specification puts it.
    Envelope,
    /// The JWS verifies: typ, alg pinned to EdDSA, kid in the set, signature.
    Jws,
    /// The signed payload is the RFC 8785 canonical form of the wrapper.
    CanonicalWrapper,
    /// The wrapper has `iat`, `payload`, `payload_digest`, `provenance`, `content_digest`
    /// exactly when a text arm is served, and no v0.1 `content_hash*` keys.
    WrapperShape,
    /// `payload_digest` is the SHA-256 of the canonical payload.
    PayloadDigest,
    /// `content_digest` is the SHA-256 of the served text arm.
    ContentDigest,
    /// The served structure (`structuredContent`, `contents`, the error frame) is the signed
    /// payload.
    ServedPayload,
    /// `iat` lies within the freshness window.
    Freshness,
}

impl Rule {
    /// The rule's stable name.
    pub fn name(self) -> &'static str {
        match self {
            Rule::Envelope => "envelope",
            Rule::Jws => "jws",
            Rule::CanonicalWrapper => "canonical_wrapper",
            Rule::WrapperShape => "wrapper_shape",
            Rule::PayloadDigest => "payload_digest",
            Rule::ContentDigest => "content_digest",
            Rule::ServedPayload => "served_payload",
            Rule::Freshness => "freshness",
        }
    }
}

/// A broken rule and what about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// The rule.
    pub rule: Rule,
    /// What was wrong.
    pub message: String,
}

/// The outcome: valid when no rule failed.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Verification {
    /// Every failed rule, in the order checked.
    pub failures: Vec<Failure>,
    /// The kid the JWS names.
    pub kid: Option<String>,
    /// Index into the key set of the key that verified the JWS.
    pub key_index: Option<usize>,
    /// The signed wrapper, once the JWS verified.
    pub wrapper: Option<Map<String, Value>>,
}

impl Verification {
    /// Whether every rule held.
    pub fn is_valid(&self) -> bool {
        self.failures.is_empty()
    }

    fn fail(&mut self, rule: Rule, message: impl Into<String>) {
        self.failures.push(Failure {
            rule,
            message: message.into(),
        });
    }
}

/// What a response is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A `tools/call` result.
    ToolResult,
    /// A `resources/read` result.
    Resource,
    /// A JSON-RPC error frame.
    ErrorFrame,
}

/// The parts of a response the verifier needs.
#[derive(Debug, Clone, PartialEq)]
pub struct Served {
    /// What the response is.
    pub kind: Kind,
    /// The envelope's compact JWS.
    pub jws: String,
    /// The structure served beside the signature, to compare with the signed payload.
    pub payload: Option<Value>,
    /// The text arm as served (decoded string), for tool results and resources.
    pub text: Option<String>,
}

/// The window `iat` must fall in: not after `now` (beyond `skew`), not older than `max_age`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Freshness {
    /// The current time, Unix seconds.
    pub now: u64,
    /// The oldest acceptable age, seconds.
    pub max_age: u64,
}

/// Clock skew tolerated for an `iat` in the future.
const SKEW_SECONDS: u64 = 60;

fn canonical(value: &Value) -> Option<Vec<u8>> {
    jcs::canonicalize(value.to_string().as_bytes()).ok()
}

fn sha256_label(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    let mut out = String::from("sha256:");
    for b in digest {
        out.push(char::from(
            b"0123456789abcdef"
                .get(usize::from(b >> 4))
                .copied()
                .unwrap_or(b'0'),
        ));
        out.push(char::from(
            b"0123456789abcdef"
                .get(usize::from(b & 15))
                .copied()
                .unwrap_or(b'0'),
        ));
    }
    out
}

/// Compares two digests in time independent of where they differ.
fn digest_eq(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

/// Verifies the parts of a response.
pub fn verify_served(served: &Served, jwks: &Jwks, freshness: Option<Freshness>) -> Verification {
    let mut v = Verification::default();
    let verified = match jws::verify(
        &served.jws,
        jwks,
        &Profile {
            typ: Some(TYP.to_string()),
        },
    ) {
        Ok(verified) => verified,
        Err(e) => {
            v.fail(Rule::Jws, e.to_string());
            return v;
        }
    };
    if verified.header.get("alg").and_then(Value::as_str) != Some("EdDSA") {
        v.fail(Rule::Jws, "alg must be EdDSA (§10 pins it)");
    }
    v.kid = verified.kid.clone();
    v.key_index = Some(verified.key_index);
    match jcs::canonicalize(&verified.payload) {
        Ok(c) if c == verified.payload => {}
        Ok(_) => v.fail(
            Rule::CanonicalWrapper,
            "the signed payload is not in RFC 8785 canonical form",
        ),
        Err(e) => v.fail(
            Rule::CanonicalWrapper,
            format!("the signed payload is not I-JSON: {e}"),
        ),
    }
    let wrapper = match serde_json::from_slice::<Value>(&verified.payload) {
        Ok(Value::Object(map)) => map,
        _ => {
            v.fail(
                Rule::WrapperShape,
                "the signed payload is not a JSON object",
            );
            return v;
        }
    };
    check_wrapper(&mut v, &wrapper, served, freshness);
    v.wrapper = Some(wrapper);
    v
}

fn check_wrapper(
    v: &mut Verification,
    wrapper: &Map<String, Value>,
    served: &Served,
    freshness: Option<Freshness>,
) {
    let iat = wrapper.get("iat").and_then(Value::as_u64);
    if iat.is_none() {
        v.fail(Rule::WrapperShape, "the wrapper has no integer iat");
    }
    if !matches!(wrapper.get("provenance"), Some(Value::Object(_))) {
        v.fail(Rule::WrapperShape, "the wrapper has no provenance object");
    }
    if let Some(stale) = wrapper.keys().find(|k| k.starts_with("content_hash")) {
        v.fail(
            Rule::WrapperShape,
            format!("the wrapper carries the v0.1 key {stale:?}, which v0.2.1 bans"),
        );
    }
    let payload = wrapper.get("payload");
    match (
        payload.and_then(canonical),
        wrapper.get("payload_digest").and_then(Value::as_str),
    ) {
        (Some(bytes), Some(signed)) => {
            if !digest_eq(&sha256_label(&bytes), signed) {
                v.fail(
                    Rule::PayloadDigest,
                    "payload_digest is not the SHA-256 of the canonical payload",
                );
            }
        }
        (None, _) => v.fail(Rule::WrapperShape, "the wrapper has no payload"),
        (_, None) => v.fail(Rule::WrapperShape, "the wrapper has no payload_digest"),
    }
    let content_digest = wrapper.get("content_digest").and_then(Value::as_str);
    match (served.kind, content_digest, &served.text) {
        (Kind::ErrorFrame, Some(_), _) => v.fail(
            Rule::WrapperShape,
            "an error wrapper carries no content_digest (§8)",
        ),
        (Kind::ErrorFrame, None, _) => {}
        (_, None, _) => v.fail(Rule::WrapperShape, "the wrapper has no content_digest"),
        (_, Some(_), None) => v.fail(
            Rule::ContentDigest,
            "no text arm is served to bind content_digest to",
        ),
        (_, Some(signed), Some(text)) => {
            if !digest_eq(&sha256_label(text.as_bytes()), signed) {
                v.fail(
                    Rule::ContentDigest,
                    "content_digest is not the SHA-256 of the served text arm",
                );
            }
        }
    }
    if let (Some(served_payload), Some(signed)) = (&served.payload, payload) {
        if canonical(served_payload) != canonical(signed) {
            v.fail(
                Rule::ServedPayload,
                "the served structure differs from the signed payload",
            );
        }
    }
    if let (Some(window), Some(iat)) = (freshness, iat) {
        if iat > window.now.saturating_add(SKEW_SECONDS) {
            v.fail(
                Rule::Freshness,
                format!("iat {iat} is in the future (now {})", window.now),
            );
        } else if window.now.saturating_sub(iat) > window.max_age {
            v.fail(
                Rule::Freshness,
                format!("iat {iat} is older than {} seconds", window.max_age),
            );
        }
    }
}

/// Finds the envelope and served parts in an MCP result, or in a JSON-RPC response carrying
/// a result or an error.
pub fn served_parts(response: &[u8]) -> Result<Served, Failure> {
    let fail = |message: String| Failure {
        rule: Rule::Envelope,
        message,
    };
    let canonical = jcs::canonicalize(response)
        .map_err(|e| fail(format!("the response is not I-JSON: {e}")))?;
    let doc: Value = serde_json::from_slice(&canonical).map_err(|e| fail(e.to_string()))?;
    let envelope_jws = |holder: Option<&Value>, place: &str| -> Result<String, Failure> {
        holder
            .and_then(|h| h.get(META_KEY))
            .and_then(|e| e.get("jws"))
            .and_then(Value::as_str)
            .map(str::to_string)
            .ok_or_else(|| fail(format!("no envelope with a jws at {place}[\"{META_KEY}\"]")))
    };
    if let Some(error) = doc.get("error") {
        let jws = envelope_jws(error.get("data"), "error.data")?;
        let mut frame = Map::new();
        frame.insert("id".into(), doc.get("id").cloned().unwrap_or(Value::Null));
        let mut inner = Map::new();
        for name in ["code", "message"] {
            if let Some(x) = error.get(name) {
                inner.insert(name.into(), x.clone());
            }
        }
        frame.insert("error".into(), Value::Object(inner));
        return Ok(Served {
            kind: Kind::ErrorFrame,
            jws,
            payload: Some(Value::Object(frame)),
            text: None,
        });
    }
    let result = doc.get("result").unwrap_or(&doc);
    let jws = envelope_jws(result.get("_meta"), "result._meta")?;
    let first_text = |arm: &str| {
        result
            .get(arm)
            .and_then(|a| a.get(0))
            .and_then(|i| i.get("text"))
            .and_then(Value::as_str)
            .map(str::to_string)
    };
    if let Some(contents) = result.get("contents") {
        let mut payload = Map::new();
        payload.insert("contents".into(), contents.clone());
        return Ok(Served {
            kind: Kind::Resource,
            jws,
            payload: Some(Value::Object(payload)),
            text: first_text("contents"),
        });
    }
    Ok(Served {
        kind: Kind::ToolResult,
        jws,
        payload: result.get("structuredContent").cloned(),
        text: first_text("content"),
    })
}

/// Verifies a whole MCP result or JSON-RPC response.
pub fn verify_response(response: &[u8], jwks: &Jwks, freshness: Option<Freshness>) -> Verification {
    match served_parts(response) {
        Ok(served) => verify_served(&served, jwks, freshness),
        Err(failure) => Verification {
            failures: vec![failure],
            ..Verification::default()
        },
    }
}
