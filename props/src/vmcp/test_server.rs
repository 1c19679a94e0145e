//! A verifiable-mcp server for tests: it signs wrappers with a deterministic Ed25519 test key
//! and serves them in envelopes, as SPEC.md 0.2.1 describes. The vectors and the campaign's
//! generator both sign with it.
//!
//! The key is NOT a secret: its 32-byte seed is SHA-256 of the fixed string [`TEST_KEY_SEED`],
//! so anyone can regenerate every signature made with it.

use canonfuzz_core::jcs::canonicalize;
use canonfuzz_core::jws::{base64url_encode, Jwk};
use canonfuzz_core::vmcp::TYP;
use ed25519_dalek::{Signer as _, SigningKey};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

/// The string whose SHA-256 is the test key's seed.
pub const TEST_KEY_SEED: &str =
    "canonfuzz verifiable-mcp test key 1 (public, never for production)";

/// The `iat` the test server signs with: 2026-08-21, the specification's release.
pub const IAT: u64 = 1_787_308_800;

/// The test server: its key, the key's RFC 7638 kid and a legacy truncated alias of it, and
/// the key set listing the key under both.
pub struct Signer {
    key: SigningKey,
    /// The key's RFC 7638 thumbprint.
    pub kid: String,
    /// The key set `{"keys":[..]}` with the key under `kid` and `legacy_kid`.
    pub jwks: Value,
    /// The first 16 characters of `kid`, a second name for the same key.
    pub legacy_kid: String,
}

/// The test server.
pub fn signer() -> Result<Signer, String> {
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
    Ok(Signer {
        key,
        kid,
        jwks,
        legacy_kid,
    })
}

/// `sha256:<hex>` of `bytes`, as the wrapper's digests are written.
pub fn sha256_label(bytes: &[u8]) -> String {
    format!("sha256:{}", crate::hex::to_hex(&Sha256::digest(bytes)))
}

/// The RFC 8785 form of `value` (empty when it has none).
pub fn jcs(value: &Value) -> Vec<u8> {
    canonicalize(value.to_string().as_bytes()).unwrap_or_default()
}

/// A provenance block with the one rights field SPEC §5 asks for.
pub fn provenance() -> Value {
    json!({"server_operator": "canonfuzz test operator", "canonical_origin": "https://example.org", "canonical_url": "https://example.org/listing/1", "rights": "test data, no rights conveyed", "dataset_version": "test-1", "last_updated": "2026-08-21"})
}

impl Signer {
    /// A compact JWS over `payload` bytes with this header.
    pub fn sign_bytes(&self, header: &Value, payload: &[u8]) -> String {
        let input = format!(
            "{}.{}",
            base64url_encode(header.to_string().as_bytes()),
            base64url_encode(payload)
        );
        let signature = self.key.sign(input.as_bytes());
        format!("{input}.{}", base64url_encode(&signature.to_bytes()))
    }

    /// The header SPEC §2 mandates, naming `kid`.
    pub fn header(&self, kid: &str) -> Value {
        json!({"alg": "EdDSA", "kid": kid, "typ": TYP})
    }

    /// The JWS over the canonical form of `wrapper`, under the current kid.
    pub fn sign(&self, wrapper: &Value) -> String {
        self.sign_bytes(&self.header(&self.kid), &jcs(wrapper))
    }

    /// The `_meta` envelope around `jws`, with SPEC §2's convenience fields.
    pub fn envelope(&self, jws: String) -> Value {
        json!({"spec": "0.2.1", "alg": "EdDSA", "kid": self.kid, "signed": "wrapper", "jws": jws})
    }
}
