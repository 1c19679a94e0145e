//! The JWS family's libraries: EdDSA verifiers that read a `{"jwk":…,"token":…}` case and
//! answer `{"ok":"<payload>"}`, `{"error":{"kind":"rejected",…}}`, or `{"unsupported":true}`
//! for a line that is not a case.

use std::panic::{catch_unwind, AssertUnwindSafe};

use base64::engine::general_purpose::{GeneralPurpose, GeneralPurposeConfig};
use base64::engine::DecodePaddingMode;
use base64::Engine;
use serde_json::{json, Value};

use super::Answer;

/// Every library of the family, by the name the harness asks for.
pub const LIBRARIES: &[(&str, Answer)] = &[
    ("josekit", |line| verdict(josekit, line)),
    ("jsonwebtoken-aws_lc_rs", |line| {
        verdict(jsonwebtoken_aws_lc_rs, line)
    }),
];

type Check = fn(&str, &Value) -> Result<Vec<u8>, String>;

/// The payload segment's bytes, for jsonwebtoken, which returns claims instead.
fn payload(token: &str) -> Vec<u8> {
    let lax = GeneralPurpose::new(
        &base64::alphabet::URL_SAFE,
        GeneralPurposeConfig::new()
            .with_decode_padding_mode(DecodePaddingMode::Indifferent)
            .with_decode_allow_trailing_bits(true),
    );
    token
        .split('.')
        .nth(1)
        .and_then(|p| lax.decode(p).ok())
        .unwrap_or_default()
}

fn josekit(token: &str, jwk: &Value) -> Result<Vec<u8>, String> {
    let Value::Object(map) = jwk.clone() else {
        return Err("the key is not a JSON object".into());
    };
    let jwk = josekit::jwk::Jwk::from_map(map).map_err(|e| e.to_string())?;
    let verifier = josekit::jws::EdDSA
        .verifier_from_jwk(&jwk)
        .map_err(|e| e.to_string())?;
    josekit::jws::deserialize_compact(token, &verifier)
        .map(|(payload, _)| payload)
        .map_err(|e| e.to_string())
}

fn jsonwebtoken_aws_lc_rs(token: &str, jwk: &Value) -> Result<Vec<u8>, String> {
    use jsonwebtoken::{decode, Algorithm, DecodingKey, Validation};
    let jwk: jsonwebtoken::jwk::Jwk =
        serde_json::from_value(jwk.clone()).map_err(|e| e.to_string())?;
    let key = DecodingKey::from_jwk(&jwk).map_err(|e| e.to_string())?;
    let mut validation = Validation::new(Algorithm::EdDSA);
    validation.required_spec_claims.clear();
    validation.validate_exp = false;
    validation.validate_nbf = false;
    validation.validate_aud = false;
    decode::<Value>(token, &key, &validation).map_err(|e| e.to_string())?;
    Ok(payload(token))
}

fn verdict(check: Check, line: &[u8]) -> Value {
    let case: Option<(String, Value)> = serde_json::from_slice::<Value>(line)
        .ok()
        .and_then(|v| Some((v.get("token")?.as_str()?.to_string(), v.get("jwk")?.clone())));
    let Some((token, jwk)) = case else {
        return json!({"unsupported": true});
    };
    match catch_unwind(AssertUnwindSafe(|| check(&token, &jwk))) {
        Ok(Ok(payload)) => json!({"ok": String::from_utf8_lossy(&payload)}),
        Ok(Err(message)) => json!({"error": {"kind": "rejected", "message": message, "offset": 0}}),
        Err(_) => json!({"error": {"kind": "crashed", "message": "panicked", "offset": 0}}),
    }
}
