//! The core's ekl computations as a campaign implementation. The independent ones
//! are the Python (hashlib, hmac, PyPI rfc8785) and Node (node:crypto, npm canonicalize)
//! workers, which compute the same fingerprints and proofs, and verify proofs, from the
//! profile's definitions.

use canonfuzz_core::ekl;
use serde_json::Value;

use crate::impls::in_process::{verdict, InProcess};
use crate::outcome::Outcome;

/// The core.
pub fn core() -> InProcess {
    InProcess::core(|input| {
        let Ok(case) = serde_json::from_slice::<Value>(input) else {
            return Outcome::Unsupported;
        };
        let text = |name: &str| case.get(name).and_then(Value::as_str).unwrap_or_default();
        let salt = || ekl::Salt::from_hex(text("salt"));
        let answer = match text("op") {
            "fingerprint" => salt().and_then(|s| ekl::fingerprint(&s, text("value").as_bytes())),
            "result" => salt().and_then(|s| {
                ekl::result_fingerprint(&s, text("result").as_bytes()).map(|(_, f)| f)
            }),
            "challenge" => ekl::challenge_proof(
                text("credential").as_bytes(),
                text("challenge"),
                text("endpoint"),
            ),
            "verify" => ekl::verify_challenge(
                text("credential").as_bytes(),
                text("challenge"),
                text("endpoint"),
                text("proof"),
            )
            .map(|()| "valid".to_string()),
            _ => return Outcome::Unsupported,
        };
        verdict(answer.map(String::into_bytes), |e| e.kind().to_string())
    })
}
