//! JWS verifiers in process: the core, jsonwebtoken on each of its crypto backends (12 on
//! RustCrypto, 9 on ring) and jwt-simple. Each is handed the case's one key and answers with
//! the payload it verified. jsonwebtoken and jwt-simple return parsed claims, not bytes, so
//! their adapters answer with the payload segment's bytes once the library has accepted it.
//! The two jsonwebtoken backends share its JOSE code, so they are one group.

use canonfuzz_core::jws::{self, Jwk, Profile};
use serde_json::Value;

use crate::families::jws::gen::{lax_decode, JwsCase};
use crate::impls::in_process::{other, verdict, InProcess};
use crate::outcome::Outcome;

fn answer(input: &[u8], check: fn(&JwsCase) -> Result<Vec<u8>, String>) -> Outcome {
    match JwsCase::parse(input) {
        Some(case) => verdict(check(&case), other),
        None => Outcome::Unsupported,
    }
}

/// The payload segment's bytes, for libraries that return claims instead.
fn payload(case: &JwsCase) -> Vec<u8> {
    case.token
        .split('.')
        .nth(1)
        .and_then(lax_decode)
        .unwrap_or_default()
}

/// The core, with the case's key pinned and no `typ` required.
pub fn core() -> InProcess {
    InProcess::core(|input| {
        let Some(case) = JwsCase::parse(input) else {
            return Outcome::Unsupported;
        };
        let verified = Jwk::parse(case.jwk.to_string().as_bytes()).and_then(|key| {
            jws::verify_with_key(&case.token, &key, &Profile::default()).map(|v| v.payload)
        });
        verdict(verified, |e| e.kind().to_string())
    })
}

/// jsonwebtoken's `decode` with every claim check off, for one version of the crate.
macro_rules! jsonwebtoken_check {
    ($krate:ident) => {
        |case: &JwsCase| -> Result<Vec<u8>, String> {
            use $krate::{decode, Algorithm, DecodingKey, Validation};
            let jwk: $krate::jwk::Jwk =
                serde_json::from_value(case.jwk.clone()).map_err(|e| e.to_string())?;
            let key = DecodingKey::from_jwk(&jwk).map_err(|e| e.to_string())?;
            let mut validation = Validation::new(Algorithm::EdDSA);
            validation.required_spec_claims.clear();
            validation.validate_exp = false;
            validation.validate_nbf = false;
            validation.validate_aud = false;
            decode::<Value>(&case.token, &key, &validation).map_err(|e| e.to_string())?;
            Ok(payload(case))
        }
    };
}

/// jsonwebtoken 12 on its RustCrypto backend.
pub fn jsonwebtoken_rust_crypto() -> InProcess {
    InProcess {
        name: "jsonwebtoken-rust_crypto",
        krate: "jsonwebtoken",
        version: "12.0.0",
        group: "jsonwebtoken",
        answer: |input| answer(input, jsonwebtoken_check!(jsonwebtoken)),
    }
}

/// jsonwebtoken 9 on ring.
pub fn jsonwebtoken_ring() -> InProcess {
    InProcess {
        name: "jsonwebtoken-ring",
        krate: "jsonwebtoken",
        version: "9.3.1",
        group: "jsonwebtoken",
        answer: |input| answer(input, jsonwebtoken_check!(jsonwebtoken_ring)),
    }
}

/// jwt-simple (pure-Rust build). It takes raw key bytes, not a JWK, so it can only be asked
/// about keys that are Ed25519 OKP keys with a strictly encoded `x`; other keys are
/// unsupported for it.
pub fn jwt_simple() -> InProcess {
    InProcess {
        name: "jwt-simple",
        krate: "jwt-simple",
        version: "0.15.0",
        group: "jwt-simple",
        answer: |input| {
            use jwt_simple::prelude::{Ed25519PublicKey, EdDSAPublicKeyLike};
            let Some(case) = JwsCase::parse(input) else {
                return Outcome::Unsupported;
            };
            let field = |name: &str| case.jwk.get(name).and_then(Value::as_str);
            let x = field("x").and_then(|x| jws::base64url_decode(x, "x").ok());
            let (Some("OKP"), Some("Ed25519"), Some(x)) = (field("kty"), field("crv"), x) else {
                return Outcome::Unsupported;
            };
            let verified = Ed25519PublicKey::from_bytes(&x)
                .and_then(|key| key.verify_token::<Value>(&case.token, None))
                .map(|_| payload(&case));
            verdict(verified, other)
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::impls::Implementation;

    #[test]
    fn every_verifier_accepts_an_honest_token_and_refuses_it_altered() {
        let good = crate::families::jws::gen::honest(7);
        let payload = payload(&good);
        let mut bad = good.clone();
        bad.token.push('A');
        for imp in [
            core(),
            jsonwebtoken_rust_crypto(),
            jsonwebtoken_ring(),
            jwt_simple(),
        ] {
            let out = imp.run_batch(&[&good.encode(), &bad.encode(), b"[]"]);
            assert_eq!(out[0], Outcome::Ok(payload.clone()), "{}", imp.name);
            assert!(matches!(out[1], Outcome::Rejected(_)), "{}", imp.name);
            assert_eq!(out[2], Outcome::Unsupported, "{}", imp.name);
        }
    }
}
