//! The `vmcp_keys` and `vmcp_times` forgeries: kids missing, unknown or repeated and keys
//! restricted in the set; issue and expiry times at the edges of the allowed skew.

use canonfuzz_core::vmcp::{SKEW_SECONDS, TYP};
use serde_json::{json, Value};

use super::Server;
use canonfuzz_rng::Rng;

/// Bends the header or the key set.
pub(super) fn keys(rng: &mut Rng, server: &mut Server, jwks: &mut Value) {
    let signer = server.signer;
    let current = jwks["keys"][0].clone();
    let decoy = {
        let mut k = current.clone();
        k["x"] = json!("11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo");
        k
    };
    match rng.index(10) {
        0 => {
            server.header = json!({"alg": "EdDSA", "typ": TYP});
            if rng.chance(50) {
                *jwks = json!({ "keys": [current] });
            }
        }
        1 => server.header = signer.header("a-kid-nobody-published"),
        2 => server.header = signer.header(&signer.legacy_kid),
        3 => {
            let mut other = decoy;
            other["kid"] = json!("an-older-key");
            *jwks = json!({ "keys": [other, current] });
        }
        4 => *jwks = json!({ "keys": [decoy, current] }),
        5 => {
            let mut twin = current.clone();
            twin["kid"] = json!(signer.legacy_kid);
            *jwks = json!({ "keys": [current, twin.clone(), twin] });
        }
        6 => server.header = json!({"alg": "Ed25519", "kid": signer.kid, "typ": TYP}),
        7 => {
            server.header = json!({"alg": "EdDSA", "kid": signer.kid, "typ": rng.pick(&["JOSE", "jwt", "verifiable-mcp+JWS"])})
        }
        8 => {
            let mut header = signer.header(&signer.kid);
            header["jwk"] = decoy;
            server.header = header;
        }
        _ => {
            // The signing key listed with a member that says it is not for this signature.
            let mut bent = current.clone();
            let (name, value) = match rng.index(5) {
                0 => ("use", json!("enc")),
                1 => ("alg", json!(rng.pick(&["ES256", "Ed25519", "none"]))),
                2 => ("kty", json!("EC")),
                3 => ("crv", json!("X25519")),
                _ => ("key_ops", json!([rng.pick(&["verify", "sign", "encrypt"])])),
            };
            bent[name] = value;
            *jwks = json!({ "keys": [bent] });
        }
    }
}

/// Sets a time of the wrapper at an edge of the skew around `now`.
pub(super) fn times(rng: &mut Rng, server: &mut Server, now: u64) {
    let skew = SKEW_SECONDS as i64;
    let delta = rng.pick(&[
        -3600,
        -skew - 1,
        -skew,
        -skew + 1,
        -1,
        0,
        1,
        skew - 1,
        skew,
        skew + 1,
        3600,
    ]);
    let at = now.saturating_add_signed(delta);
    match rng.index(5) {
        0 => {
            server.extra.insert("iat".into(), json!(at));
        }
        1 => {
            server.extra.insert("exp".into(), json!(at));
        }
        2 => {
            server.extra.insert("nbf".into(), json!(at));
        }
        3 => {
            server.extra.insert("exp".into(), json!(at.to_string()));
        }
        _ => {
            server.extra.insert("iat".into(), json!(at));
            server.extra.insert(
                "exp".into(),
                json!(at.saturating_add(rng.index(120) as u64)),
            );
        }
    }
}
