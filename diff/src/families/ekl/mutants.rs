//! ekl mutants: the salt left out of a fingerprint, the endpoint left out of a
//! challenge proof, a proof compared on its first half only, and values nested past
//! serde_json's 128 levels refused.

use canonfuzz_core::ekl::to_hex;
use canonfuzz_core::jcs::canonicalize;
use sha2::{Digest, Sha256};

use super::impls as computations;
use crate::mutants::{without_member, Mutant};
use crate::outcome::Outcome;

fn core(input: &[u8]) -> Outcome {
    (computations::core().answer)(input)
}

/// Whether the proof of a verification case matches the right one in its first 16 bytes.
fn first_half_matches(input: &[u8]) -> bool {
    let case: serde_json::Value = serde_json::from_slice(input).unwrap_or_default();
    let text = |name: &str| case[name].as_str().unwrap_or_default();
    let right = canonfuzz_core::ekl::challenge_proof(
        text("credential").as_bytes(),
        text("challenge"),
        text("endpoint"),
    );
    let given = text("proof").to_ascii_lowercase();
    match (right, given.get(..32), given.len()) {
        (Ok(right), Some(half), 64) => right.get(..32) == Some(half),
        _ => false,
    }
}

/// Every ekl mutant.
pub const MUTANTS: [Mutant; 4] = [
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
    Mutant {
        family: super::FAMILY,
        name: "proof-half-compared",
        bug: "a challenge proof compared on its first 16 bytes only",
        answer: |input| match core(input) {
            Outcome::Rejected(kind) if kind == "proof_mismatch" && first_half_matches(input) => {
                Outcome::Ok(b"valid".to_vec())
            }
            answer => answer,
        },
    },
    Mutant {
        family: super::FAMILY,
        name: "shallow-value-reader",
        bug: "a value or result read by serde_json's default reader, so one nested past 128 levels is refused as not I-JSON",
        answer: |input| {
            let case: serde_json::Value = serde_json::from_slice(input).unwrap_or_default();
            let deep = ["value", "result"].iter().any(|name| {
                case[*name]
                    .as_str()
                    .is_some_and(|t| canonfuzz_props::read::for_judgment::nesting(t.as_bytes()) > 128)
            });
            match core(input) {
                Outcome::Ok(_) if deep => Outcome::Rejected("json".to_string()),
                answer => answer,
            }
        },
    },
];
