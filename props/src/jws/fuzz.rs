//! The `jws` and `jwks` targets' properties, and the key set and clock every JWS and
//! verifiable-mcp fuzz input is verified with.

use std::sync::OnceLock;

use canonfuzz_core::jws::{Jwk, Jwks, JwsError, Profile, Verified};

use crate::read::any_depth::read_at_any_depth;
use crate::read::unmarked::{read_value, Repeats};

/// The keys the `jws` and `vmcp` targets verify with, besides the test server's (see
/// [`fuzz_jwks`]): the published verifiable-mcp test key, and RFC 8037's key without a kid
/// (pinned for tokens that name none), so seeds from every vector reach the signature check.
const FUZZ_KEYS: &str = r#"[{"kty":"OKP","crv":"Ed25519","x":"PNL-9wyKHnrinD7J6P3vVoy5_zSSxBvlKeBbQ7OGh8k","kid":"vDGVZHcIh5irseqRr1yIYo2IsyYckjLowPLc5VT5nP4","alg":"EdDSA","use":"sig"},{"kty":"OKP","crv":"Ed25519","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}]"#;

/// The key set of the `jws` and `vmcp` targets: [`FUZZ_KEYS`] and the test server's keys,
/// which sign the corpus's own verifiable-mcp vectors.
pub fn fuzz_jwks() -> &'static canonfuzz_core::jws::Jwks {
    static JWKS: OnceLock<canonfuzz_core::jws::Jwks> = OnceLock::new();
    JWKS.get_or_init(|| {
        let mut keys: Vec<serde_json::Value> = serde_json::from_str(FUZZ_KEYS).unwrap_or_default();
        if let Ok(server) = crate::vmcp::test_server::signer() {
            keys.extend(
                server.jwks["keys"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .cloned(),
            );
        }
        let set = serde_json::json!({ "keys": keys }).to_string();
        canonfuzz_core::jws::Jwks::parse(set.as_bytes())
            .unwrap_or(canonfuzz_core::jws::Jwks { keys: Vec::new() })
    })
}

/// The clock the `vmcp` target verifies at: a minute after the published vectors' `iat`.
pub const FUZZ_NOW: u64 = 1_787_308_860;

/// The published test key, pinned, for tokens without a `kid`.
fn pinned_key() -> Option<&'static canonfuzz_core::jws::Jwk> {
    fuzz_jwks().keys.get(1)
}

/// The `jws` target's property: verification never panics, and a token accepted — from the
/// key set by its `kid`, or by a pinned key — gives its caller back exactly the bytes its
/// payload segment encodes, under a signature that verifies over the token's own signing
/// input with the key reported.
pub fn jws_check(data: &[u8]) -> Result<(), String> {
    jws_check_with(data, &CORE_JWS)
}

/// The two ways the `jws` property verifies a token: by `kid` in a set, and with a pinned key.
pub struct JwsVerifier {
    /// Verification against a key set.
    pub from_set: fn(&str, &Jwks, &Profile) -> Result<Verified, JwsError>,
    /// Verification with one key.
    pub with_key: fn(&str, &Jwk, &Profile) -> Result<Verified, JwsError>,
}

/// The core's verifier, which the `jws` target checks.
pub const CORE_JWS: JwsVerifier = JwsVerifier {
    from_set: canonfuzz_core::jws::verify,
    with_key: canonfuzz_core::jws::verify_with_key,
};

/// [`jws_check`] of another verifier, so that a planted bug can be shown to break it.
pub fn jws_check_with(data: &[u8], verifier: &JwsVerifier) -> Result<(), String> {
    use canonfuzz_core::jws;
    let token = String::from_utf8_lossy(data);
    let from_set = (verifier.from_set)(&token, fuzz_jwks(), &Profile::default())
        .map(|v| (v.payload, fuzz_jwks().keys.get(v.key_index)));
    let pinned = pinned_key()
        .and_then(|key| (verifier.with_key)(&token, key, &Profile::default()).ok())
        .map(|v| (v.payload, pinned_key()));
    for (payload, key) in from_set.ok().into_iter().chain(pinned) {
        let parts: Vec<&str> = token.split('.').collect();
        let [header, body, signature] = parts[..] else {
            return Err(format!("accepted {token:?}, which is not three segments"));
        };
        let encoded = crate::jws::base64url::lax_decode(body).unwrap_or_default();
        if payload != encoded {
            return Err(format!(
                "accepted {token:?} and returned a payload its segment does not encode"
            ));
        }
        let x = key
            .and_then(|k| k.members.get("x"))
            .and_then(|x| x.as_str())
            .unwrap_or_default();
        let x = jws::base64url_decode(x, "x").map_err(|e| e.to_string())?;
        let signature = jws::base64url_decode(signature, "signature").map_err(|e| e.to_string())?;
        canonfuzz_core::ed25519::verify(&x, format!("{header}.{body}").as_bytes(), &signature)
            .map_err(|e| format!("accepted {token:?} whose signature does not verify: {e}"))?;
    }
    Ok(())
}

/// The `jwks` target's property: reading a key set never panics, and a set read is one a
/// verifier can trust to be bounded and unambiguous — within the core's bounds on bytes, keys
/// and members, its keys those serde_json reads from the same text (at any depth, a member
/// named as its raw-value marker taken as any other), in order, no two under one `kid`, and each `kid`
/// finding its own key.
pub fn jwks_check(data: &[u8]) -> Result<(), String> {
    jwks_check_with(data, canonfuzz_core::jws::Jwks::parse)
}

/// [`jwks_check`] of another reader, so that a planted bug can be shown to break it.
pub fn jwks_check_with(
    data: &[u8],
    parse: fn(&[u8]) -> Result<Jwks, canonfuzz_core::jws::JwsError>,
) -> Result<(), String> {
    use canonfuzz_core::jws::{MAX_KEYS, MAX_KEY_MEMBERS, MAX_KEY_SET_BYTES};
    let Ok(set) = parse(data) else {
        return Ok(());
    };
    if data.len() > MAX_KEY_SET_BYTES || set.keys.len() > MAX_KEYS {
        return Err(format!(
            "read a set of {} bytes and {} keys, past the bounds of {MAX_KEY_SET_BYTES} bytes \
             and {MAX_KEYS} keys",
            data.len(),
            set.keys.len()
        ));
    }
    // The kids serde_json reads, key by key, past its nesting limit too: the core reads a set
    // nested as deep as its canonicalizer allows.
    let theirs = read_at_any_depth([data], |[data], unbounded| {
        let read = read_value(data, unbounded, Repeats::LastWins)?;
        let keys = read["keys"].as_array().map_or(&[][..], Vec::as_slice);
        Ok(keys
            .iter()
            .map(|key| key["kid"].as_str().map(str::to_string))
            .collect::<Vec<_>>())
    })?
    .map_err(|e| format!("read a set serde_json does not read as JSON: {e}"))?;
    if theirs.len() != set.keys.len() {
        return Err(format!(
            "read {} keys where serde_json reads {}",
            set.keys.len(),
            theirs.len()
        ));
    }
    let mut kids = std::collections::BTreeSet::new();
    for (i, (key, their)) in set.keys.iter().zip(theirs).enumerate() {
        if key.members.len() > MAX_KEY_MEMBERS {
            return Err(format!("keys[{i}] has {} members", key.members.len()));
        }
        if key.kid() != their.as_deref() {
            return Err(format!("keys[{i}]'s kid is not the one serde_json reads"));
        }
        if let Some(kid) = key.kid() {
            if !kids.insert(kid) {
                return Err(format!("two keys share the kid of keys[{i}]"));
            }
        }
    }
    Ok(())
}
