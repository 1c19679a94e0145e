//! verifiable-mcp responses signed with a deterministic test key, each negative breaking
//! exactly one rule of the specification by construction, so the rule it names is known
//! without running the verifier.
//!
//! The key is NOT a secret: its 32-byte Ed25519 seed is SHA-256 of the fixed string
//! [`TEST_KEY_SEED`], so anyone can regenerate every signature here.

use std::collections::BTreeMap;

use canonfuzz_core::jcs::canonicalize;
use canonfuzz_core::jws::{base64url_encode, Jwk};
use canonfuzz_core::vmcp::{META_KEY, TYP};
use ed25519_dalek::{Signer, SigningKey};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

use super::note;
use crate::vector::{Expectation, Source, TestCase, TestGroup, VectorFile, VMCP_SCHEMA};

/// The string whose SHA-256 is the test key's seed.
pub const TEST_KEY_SEED: &str =
    "canonfuzz verifiable-mcp test key 1 (public, never for production)";

const IAT: u64 = 1_787_308_800;

struct Signer_ {
    key: SigningKey,
    kid: String,
    jwks: Value,
    legacy_kid: String,
}

fn signer() -> Result<Signer_, String> {
    let seed: [u8; 32] = Sha256::digest(TEST_KEY_SEED.as_bytes()).into();
    let key = SigningKey::from_bytes(&seed);
    let x = base64url_encode(key.verifying_key().as_bytes());
    let public = json!({"kty": "OKP", "crv": "Ed25519", "x": x});
    let kid = Jwk::parse(public.to_string().as_bytes())
        .and_then(|k| k.thumbprint())
        .map_err(|e| e.to_string())?;
    let legacy_kid: String = kid.chars().take(16).collect();
    let entry = |kid: &str| json!({"kty": "OKP", "crv": "Ed25519", "x": x, "kid": kid, "alg": "EdDSA", "use": "sig"});
    let jwks = json!({"keys": [entry(&kid), entry(&legacy_kid)]});
    Ok(Signer_ {
        key,
        kid,
        jwks,
        legacy_kid,
    })
}

fn sha256_label(bytes: &[u8]) -> String {
    format!("sha256:{}", crate::vector::to_hex(&Sha256::digest(bytes)))
}

fn jcs(value: &Value) -> Vec<u8> {
    canonicalize(value.to_string().as_bytes()).unwrap_or_default()
}

impl Signer_ {
    /// A compact JWS over `payload` bytes with this header.
    fn sign_bytes(&self, header: &Value, payload: &[u8]) -> String {
        let input = format!(
            "{}.{}",
            base64url_encode(header.to_string().as_bytes()),
            base64url_encode(payload)
        );
        let signature = self.key.sign(input.as_bytes());
        format!("{input}.{}", base64url_encode(&signature.to_bytes()))
    }

    fn header(&self, kid: &str) -> Value {
        json!({"alg": "EdDSA", "kid": kid, "typ": TYP})
    }

    fn sign(&self, wrapper: &Value) -> String {
        self.sign_bytes(&self.header(&self.kid), &jcs(wrapper))
    }

    fn envelope(&self, jws: String) -> Value {
        json!({"spec": "0.2.1", "alg": "EdDSA", "kid": self.kid, "signed": "wrapper", "jws": jws})
    }
}

fn provenance() -> Value {
    json!({"server_operator": "canonfuzz test operator", "canonical_origin": "https://example.org", "canonical_url": "https://example.org/listing/1", "rights": "test data, no rights conveyed", "dataset_version": "test-1", "last_updated": "2026-08-21"})
}

fn listing() -> Value {
    json!({"listings": [{"address": "4252 Escudo Ct", "price": "1349000.00"}], "next_cursor": null, "note": "Åsa's fäbod – naïve façade"})
}

fn tool_wrapper(payload: &Value, text: &str) -> Value {
    json!({"iat": IAT, "payload": payload, "payload_digest": sha256_label(&jcs(payload)), "content_digest": sha256_label(text.as_bytes()), "provenance": provenance()})
}

fn tool_response(s: &Signer_, payload: &Value, text: &str, jws: String) -> Value {
    json!({"jsonrpc": "2.0", "id": 7, "result": {"content": [{"type": "text", "text": text}], "structuredContent": payload, "_meta": {META_KEY: s.envelope(jws)}}})
}

/// The file of signed responses.
pub fn envelopes() -> Result<VectorFile, String> {
    let s = signer()?;
    let payload = listing();
    let text = String::from_utf8_lossy(&jcs(&payload)).into_owned();
    let prose = "One listing: 4252 Escudo Ct, $1,349,000 — Åsa's fäbod";
    let wrapper = tool_wrapper(&payload, &text);
    let good = tool_response(&s, &payload, &text, s.sign(&wrapper));
    let mut tests = Vec::new();
    let mut add = |comment: &str,
                   response: Value,
                   jwks: &Value,
                   window: Option<(u64, u64)>,
                   failed: &[&str]| {
        let mut t = TestCase::with_input(tests.len() as u64 + 1, comment, b"");
        t.input = None;
        t.flags = vec![if failed.is_empty() {
            "Valid"
        } else {
            "BrokenRule"
        }
        .to_string()];
        t.response = Some(response);
        t.jwks = Some(jwks.clone());
        if let Some((now, max_age)) = window {
            t.now = Some(now);
            t.max_age = Some(max_age);
        }
        t.failed_rules = failed.iter().map(|r| r.to_string()).collect();
        t.result = if failed.is_empty() {
            Expectation::Valid
        } else {
            Expectation::Invalid
        };
        tests.push(t);
    };
    let jwks = s.jwks.clone();
    add(
        "a tool result whose text arm is the canonical payload",
        good.clone(),
        &jwks,
        Some((IAT + 10, 3600)),
        &[],
    );
    let prose_wrapper = tool_wrapper(&payload, prose);
    add(
        "a tool result with a prose text arm (content_digest differs from payload_digest)",
        tool_response(&s, &payload, prose, s.sign(&prose_wrapper)),
        &jwks,
        None,
        &[],
    );
    let error_payload =
        json!({"id": 9, "error": {"code": -32602, "message": "Unknown argument: bogus"}});
    let error_wrapper = json!({"iat": IAT, "payload": error_payload, "payload_digest": sha256_label(&jcs(&error_payload)), "provenance": provenance()});
    let error_frame = |w: &Value| json!({"jsonrpc": "2.0", "id": 9, "error": {"code": -32602, "message": "Unknown argument: bogus", "data": {META_KEY: s.envelope(s.sign(w))}}});
    add(
        "a JSON-RPC error frame signed at error.data (no content_digest)",
        error_frame(&error_wrapper),
        &jwks,
        None,
        &[],
    );
    let legacy = s.sign_bytes(&s.header(&s.legacy_kid), &jcs(&wrapper));
    add(
        "signed under the legacy truncated kid, which the key set lists for the same key",
        tool_response(&s, &payload, &text, legacy.clone()),
        &jwks,
        None,
        &[],
    );
    let only_current = json!({"keys": [jwks["keys"][0].clone()]});
    add(
        "the legacy kid against a key set that does not list it: fail closed",
        tool_response(&s, &payload, &text, legacy),
        &only_current,
        None,
        &["jws"],
    );
    let mut convenience = good.clone();
    let meta = &mut convenience["result"]["_meta"][META_KEY];
    meta["kid"] = json!("not-the-signing-kid");
    meta["alg"] = json!("RS256");
    meta["spec"] = json!("0.1");
    convenience["result"]["signature"] = json!("deprecated v0.1 sibling");
    convenience["result"]["provenance"] = json!({"publisher": "someone else"});
    add(
        "convenience fields outside the JWS that differ, and v0.1 siblings: ignored for trust",
        convenience,
        &jwks,
        None,
        &[],
    );
    let mut unsigned = good.clone();
    unsigned["result"]["_meta"] = json!({});
    add("no envelope", unsigned, &jwks, None, &["envelope"]);
    let wrong_typ = s.sign_bytes(
        &json!({"alg": "EdDSA", "kid": s.kid, "typ": "JOSE"}),
        &jcs(&wrapper),
    );
    add(
        "typ JOSE instead of verifiable-mcp+jws",
        tool_response(&s, &payload, &text, wrong_typ),
        &jwks,
        None,
        &["jws"],
    );
    let ed25519_alg = s.sign_bytes(
        &json!({"alg": "Ed25519", "kid": s.kid, "typ": TYP}),
        &jcs(&wrapper),
    );
    add(
        "alg Ed25519: a valid JWS, but the profile pins EdDSA",
        tool_response(&s, &payload, &text, ed25519_alg),
        &jwks,
        None,
        &["jws"],
    );
    let mut bad_sig = s.sign(&wrapper);
    let last = bad_sig
        .pop()
        .map_or('A', |c| if c == 'A' { 'Q' } else { 'A' });
    bad_sig.push(last);
    add(
        "signature altered",
        tool_response(&s, &payload, &text, bad_sig),
        &jwks,
        None,
        &["jws"],
    );
    let spaced = wrapper.to_string().replace(",\"", ", \"");
    add(
        "the signed wrapper is not in canonical form",
        tool_response(
            &s,
            &payload,
            &text,
            s.sign_bytes(&s.header(&s.kid), spaced.as_bytes()),
        ),
        &jwks,
        None,
        &["canonical_wrapper"],
    );
    let mut no_provenance = wrapper.clone();
    no_provenance
        .as_object_mut()
        .map(|w| w.remove("provenance"));
    add(
        "the wrapper has no provenance",
        tool_response(&s, &payload, &text, s.sign(&no_provenance)),
        &jwks,
        None,
        &["wrapper_shape"],
    );
    let mut stale_key = wrapper.clone();
    stale_key["content_hash"] = json!("sha256:00");
    add(
        "the wrapper keeps a v0.1 content_hash key",
        tool_response(&s, &payload, &text, s.sign(&stale_key)),
        &jwks,
        None,
        &["wrapper_shape"],
    );
    let mut error_with_digest = error_wrapper.clone();
    error_with_digest["content_digest"] = json!(sha256_label(b""));
    add(
        "an error wrapper with a content_digest",
        error_frame(&error_with_digest),
        &jwks,
        None,
        &["wrapper_shape"],
    );
    let mut wrong_payload_digest = wrapper.clone();
    wrong_payload_digest["payload_digest"] = json!(sha256_label(b"something else"));
    add(
        "payload_digest over something else",
        tool_response(&s, &payload, &text, s.sign(&wrong_payload_digest)),
        &jwks,
        None,
        &["payload_digest"],
    );
    add(
        "the served text arm differs from what content_digest covers",
        tool_response(&s, &payload, &format!("{text} "), s.sign(&wrapper)),
        &jwks,
        None,
        &["content_digest"],
    );
    let mut injected = good.clone();
    injected["result"]["structuredContent"]["injected"] = json!("not signed");
    add(
        "structuredContent carries a member the signed payload lacks",
        injected,
        &jwks,
        None,
        &["served_payload"],
    );
    add(
        "iat two hours before now, with a one-hour window",
        good.clone(),
        &jwks,
        Some((IAT + 7200, 3600)),
        &["freshness"],
    );
    add(
        "iat an hour after now",
        good,
        &jwks,
        Some((IAT - 3600, 3600)),
        &["freshness"],
    );
    let mut notes = BTreeMap::new();
    notes.insert(
        "Valid".to_string(),
        note(
            "BASIC",
            "A response the specification's server would send: every rule holds.",
        ),
    );
    notes.insert(
        "BrokenRule".to_string(),
        note(
            "BASIC",
            "A response that breaks exactly the rules in failedRules, by construction.",
        ),
    );
    Ok(VectorFile {
        algorithm: "verifiable-mcp".to_string(),
        schema: VMCP_SCHEMA.to_string(),
        number_of_tests: tests.len(),
        header: vec![format!(
            "verifiable-mcp 0.2.1 responses signed with a deterministic TEST key: its Ed25519 seed is SHA-256({TEST_KEY_SEED:?}). Each negative breaks one rule by construction; failedRules names it."
        )],
        notes,
        test_groups: vec![TestGroup {
            kind: "VmcpVerify".to_string(),
            source: Source {
                name: "canonfuzz, from the rules of verifiable-mcp SPEC.md 0.2.1 and seed 001".to_string(),
                url: Some("https://github.com/jardenberg/verifiable-mcp".to_string()),
                version: Some("0.2.1".to_string()),
                license: None,
            },
            comment: String::new(),
            tests,
        }],
    })
}
