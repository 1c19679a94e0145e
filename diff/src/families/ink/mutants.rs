//! INK mutants: the timestamp or the recipient left out of a request's signature base, the
//! leaf prefix left out of an event's hash.

use canonfuzz_core::ink::profile;
use sha2::{Digest, Sha256};

use super::impls as computations;
use crate::mutants::{without_member, Mutant};
use crate::outcome::Outcome;
use crate::vector::to_hex;

fn core(input: &[u8]) -> Outcome {
    (computations::core().answer)(input)
}

/// Every INK mutant.
pub const MUTANTS: [Mutant; 3] = [
    Mutant {
        family: super::FAMILY,
        name: "timestamp-left-out",
        bug: "the request's timestamp left out of its signature base",
        answer: |input| without_member(input, "timestamp", core),
    },
    Mutant {
        family: super::FAMILY,
        name: "recipient-left-out",
        bug: "the recipient's DID left out of a request's signature base",
        answer: |input| without_member(input, "recipientDid", core),
    },
    Mutant {
        family: super::FAMILY,
        name: "leaf-prefix-left-out",
        bug: "an event's leaf hash taken without RFC 9162's 0x00 leaf prefix",
        answer: |input| {
            let case: serde_json::Value = serde_json::from_slice(input).unwrap_or_default();
            match (case["op"].as_str(), case["event"].as_str(), core(input)) {
                (Some("leaf"), Some(event), Outcome::Ok(_)) => {
                    match profile::canonical_body(event.as_bytes()) {
                        Ok(body) => Outcome::Ok(to_hex(&Sha256::digest(body)).into_bytes()),
                        Err(e) => Outcome::Rejected(e.kind.to_string()),
                    }
                }
                (_, _, answer) => answer,
            }
        },
    },
];
