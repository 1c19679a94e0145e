//! The core's verifiable-mcp verifier as a campaign implementation: a valid response answers
//! with its signed payload's canonical text, an invalid one with the first rule it breaks. The
//! independent verifiers are the Node (npm jose, canonicalize) and Python (jwcrypto, PyPI
//! rfc8785) workers, written from SPEC.md 0.2.1.

use canonfuzz_core::jws::Jwks;
use canonfuzz_core::vmcp::{verify_response, Clock, Rule, Verification};

use crate::families::vmcp::gen::VmcpCase;
use crate::impls::in_process::InProcess;
use crate::outcome::Outcome;

/// The core.
pub fn core() -> InProcess {
    InProcess::core(|input| {
        let Some(case) = VmcpCase::parse(input) else {
            return Outcome::Unsupported;
        };
        let Ok(jwks) = Jwks::parse(case.jwks.to_string().as_bytes()) else {
            return Outcome::Rejected(Rule::Jws.name().to_string());
        };
        outcome(verify_response(
            case.response.as_bytes(),
            &jwks,
            Clock::at(case.now),
        ))
    })
}

/// A verification as an outcome: the signed payload, or the first rule broken.
pub fn outcome(verdict: Verification) -> Outcome {
    match (verdict.failures.first(), verdict.payload) {
        (None, Some(payload)) => Outcome::Ok(payload),
        (Some(failure), _) => Outcome::Rejected(failure.rule.name().to_string()),
        (None, None) => Outcome::Crashed("valid, but no signed payload".into()),
    }
}
