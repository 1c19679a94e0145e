//! Ed25519 verifiers compared over the corpus's edge cases, for the report's accept/reject
//! table. The core and ed25519-dalek share curve25519-dalek's arithmetic, so they are one
//! independence group; they differ in policy, which is what the table shows.

use ed25519_dalek::{Signature, VerifyingKey};

/// An Ed25519 verifier: accepts or rejects a (key, message, signature) triple.
pub trait Ed25519Verifier {
    /// A short name for the table.
    fn name(&self) -> &str;
    /// Whether the verifier accepts the signature.
    fn accepts(&self, key: &[u8], msg: &[u8], sig: &[u8]) -> bool;
}

/// The core's strict policy.
pub struct Core;

impl Ed25519Verifier for Core {
    fn name(&self) -> &str {
        "core"
    }

    fn accepts(&self, key: &[u8], msg: &[u8], sig: &[u8]) -> bool {
        canonfuzz_core::ed25519::verify(key, msg, sig).is_ok()
    }
}

/// ed25519-dalek 2, `verify` (RFC 8032's cofactorless check) or `verify_strict`.
pub struct Dalek {
    strict: bool,
}

impl Ed25519Verifier for Dalek {
    fn name(&self) -> &str {
        if self.strict {
            "ed25519-dalek verify_strict"
        } else {
            "ed25519-dalek verify"
        }
    }

    fn accepts(&self, key: &[u8], msg: &[u8], sig: &[u8]) -> bool {
        let (Ok(key), Ok(sig)) = (<[u8; 32]>::try_from(key), <[u8; 64]>::try_from(sig)) else {
            return false;
        };
        let Ok(key) = VerifyingKey::from_bytes(&key) else {
            return false;
        };
        let sig = Signature::from_bytes(&sig);
        if self.strict {
            key.verify_strict(msg, &sig).is_ok()
        } else {
            use ed25519_dalek::Verifier;
            key.verify(msg, &sig).is_ok()
        }
    }
}

/// Every verifier in the table.
pub fn all() -> Vec<Box<dyn Ed25519Verifier>> {
    vec![
        Box::new(Core),
        Box::new(Dalek { strict: false }),
        Box::new(Dalek { strict: true }),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_verifiers_agree_on_rfc_8037s_signature() {
        let key = canonfuzz_core::jws::base64url_decode(
            "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo",
            "x",
        )
        .unwrap();
        let sig = canonfuzz_core::jws::base64url_decode("hgyY0il_MGCjP0JzlnLWG1PPOt7-09PGcvMg3AIbQR6dWbhijcNR4ki4iylGjg5BhVsPt9g7sVvpAr_MuM0KAg", "s").unwrap();
        let msg = b"eyJhbGciOiJFZERTQSJ9.RXhhbXBsZSBvZiBFZDI1NTE5IHNpZ25pbmc";
        for v in all() {
            assert!(v.accepts(&key, msg, &sig), "{}", v.name());
            assert!(!v.accepts(&key, b"other", &sig), "{}", v.name());
        }
    }
}
