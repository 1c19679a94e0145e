//! Compact JWS (RFC 7515) signed with Ed25519 (RFC 8037), read as the RFCs say: three
//! segments of base64url without padding (the base64 crate, refusing padding and stray bits),
//! a header that is an I-JSON object naming an algorithm the caller takes (`EdDSA`, or RFC
//! 9864's `Ed25519` too), no `crit` (this
//! verifier understands no extension), `b64` absent or true, the string parameters strings,
//! and a signature over the first two segments that ring verifies with an OKP Ed25519 key
//! meant for verifying (RFC 7517 §4.2-4.4: `use`, `alg`, `key_ops`; no private part).

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use json_syntax::Value;

use super::json::{self, member, text};
use super::{must, refused, Refusal};

/// What a verified token carries.
#[derive(Debug)]
pub struct Verified {
    /// The header, an object.
    pub header: Value,
    /// The payload's bytes.
    pub payload: Vec<u8>,
}

/// A base64url segment's bytes, strictly decoded.
pub fn decode(segment: &str) -> Result<Vec<u8>, Refusal> {
    URL_SAFE_NO_PAD
        .decode(segment)
        .map_err(|e| refused(format!("not base64url: {e}")))
}

/// The algorithm names RFC 8037 and RFC 9864 give Ed25519 signatures.
pub const ED25519_ALGS: [&str; 2] = ["EdDSA", "Ed25519"];

/// Verifies `token` under one of the algorithm names `algs` with the key `select` finds for
/// the header's `kid` (absent or a string).
pub fn verify<'k>(
    token: &str,
    algs: &[&str],
    select: impl FnOnce(Option<&str>) -> Result<&'k Value, Refusal>,
) -> Result<Verified, Refusal> {
    let parts: Vec<&str> = token.split('.').collect();
    let [header_b64, payload_b64, signature_b64] = parts[..] else {
        return Err(refused("a compact JWS has three segments"));
    };
    let header = json::read(&decode(header_b64)?)?;
    must(
        matches!(header, Value::Object(_)),
        "the header is not an object",
    )?;
    must(
        text(&header, "alg").is_some_and(|alg| algs.contains(&alg)),
        "alg is not one this verifier takes",
    )?;
    must(
        member(&header, "crit").is_none(),
        "crit names an extension this verifier does not understand",
    )?;
    must(
        matches!(member(&header, "b64"), None | Some(Value::Boolean(true))),
        "b64 changes what was signed",
    )?;
    for name in ["typ", "cty", "kid"] {
        must(
            member(&header, name).is_none_or(|v| matches!(v, Value::String(_))),
            "a string parameter is not a string",
        )?;
    }
    let key = ed25519_key(select(text(&header, "kid"))?)?;
    let payload = decode(payload_b64)?;
    let signature = decode(signature_b64)?;
    ring::signature::UnparsedPublicKey::new(&ring::signature::ED25519, key)
        .verify(format!("{header_b64}.{payload_b64}").as_bytes(), &signature)
        .map_err(|_| refused("the signature does not verify"))?;
    Ok(Verified { header, payload })
}

/// The 32 bytes of an OKP Ed25519 JWK meant for verifying signatures.
pub fn ed25519_key(jwk: &Value) -> Result<Vec<u8>, Refusal> {
    must(
        text(jwk, "kty") == Some("OKP") && text(jwk, "crv") == Some("Ed25519"),
        "not an Ed25519 key",
    )?;
    must(
        member(jwk, "use").is_none_or(|u| matches!(u, Value::String(s) if s == "sig")),
        "the key's use is not sig",
    )?;
    must(
        member(jwk, "alg")
            .is_none_or(|a| matches!(a, Value::String(s) if s == "EdDSA" || s == "Ed25519")),
        "the key is for another algorithm",
    )?;
    must(
        member(jwk, "key_ops").is_none_or(|ops| {
            matches!(ops, Value::Array(ops) if ops.iter().any(|op| matches!(op, Value::String(s) if s == "verify")))
        }),
        "the key's operations do not include verify",
    )?;
    must(
        member(jwk, "d").is_none(),
        "a private key in a set of verification keys",
    )?;
    let x = decode(text(jwk, "x").ok_or_else(|| refused("the key has no x"))?)?;
    must(x.len() == 32, "x is not 32 bytes")?;
    Ok(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RFC 8037 §A.4: the Ed25519 signature of "Example of Ed25519 signing" under the key of
    /// §A.1, with its public key.
    const TOKEN: &str = "eyJhbGciOiJFZERTQSJ9.RXhhbXBsZSBvZiBFZDI1NTE5IHNpZ25pbmc.hgyY0il_MGCjP0JzlnLWG1PPOt7-09PGcvMg3AIbQR6dWbhijcNR4ki4iylGjg5BhVsPt9g7sVvpAr_MuM0KAg";
    const JWK: &str =
        r#"{"kty":"OKP","crv":"Ed25519","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}"#;

    fn key(text: &str) -> Value {
        json::read(text.as_bytes()).unwrap()
    }

    #[test]
    fn rfc_8037_s_example_verifies_and_its_forgeries_do_not() {
        let jwk = key(JWK);
        let verified = verify(TOKEN, &ED25519_ALGS, |_| Ok(&jwk)).unwrap();
        assert_eq!(verified.payload, b"Example of Ed25519 signing");
        // A flipped bit of the signature, padding, and a key restricted to encryption.
        let mut flipped = TOKEN.to_string();
        flipped.replace_range(flipped.len() - 2.., "Ag".replace('A', "B").as_str());
        assert!(verify(&flipped, &ED25519_ALGS, |_| Ok(&jwk)).is_err());
        assert!(verify(&format!("{TOKEN}=="), &ED25519_ALGS, |_| Ok(&jwk)).is_err());
        let restricted = key(&JWK.replace(r#""kty""#, r#""use":"enc","kty""#));
        assert!(verify(TOKEN, &ED25519_ALGS, |_| Ok(&restricted)).is_err());
        let private = key(&JWK.replace(r#""kty""#, r#""d":"AA","kty""#));
        assert!(verify(TOKEN, &ED25519_ALGS, |_| Ok(&private)).is_err());
    }
}
