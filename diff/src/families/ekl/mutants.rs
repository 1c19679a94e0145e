//! Adapter-profile mutants: the salt left out of a fingerprint, the endpoint left out of a
//! challenge proof.

use canonfuzz_core::ekl::to_hex;
use canonfuzz_core::jcs::canonicalize;
use sha2::{Digest, Sha256};

use super::impls as computations;
use crate::mutants::{without_member, Mutant};
use crate::outcome::Outcome;

fn core(input: &[u8]) -> Outcome {
    (computations::core().answer)(input)
}

/// Every adapter-profile mutant.
pub const MUTANTS: [Mutant; 2] = [
    Mutant {
        family: super::FAMILY,
        name: "salt-left-out",
        bug: "a value's fingerprint taken over its JCS form without the salt",
        answer: |input| {
            let case: serde_json::Value = serde_json::from_slice(input).unwrap_or_default();
            match (case["op"].as_str(), case["value"].as_str(), core(input)) {
                (Some("fingerprint"), Some(value), Outcome::Ok(_)) => {
                    match canonicalize(value.as_bytes()) {
                        Ok(canonical) => {
                            Outcome::Ok(to_hex(&Sha256::digest(canonical)).into_bytes())
                        }
                        Err(e) => Outcome::Rejected(e.kind().as_str().to_string()),
                    }
                }
                (_, _, answer) => answer,
            }
        },
    },
    Mutant {
        family: super::FAMILY,
        name: "endpoint-left-out",
        bug: "the challenge proof's MAC taken over the challenge without the endpoint",
        answer: |input| without_member(input, "endpoint", core),
    },
];
