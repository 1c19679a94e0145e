//! The canonfuzz core itself, the implementation under test.

use canonfuzz_core::jcs::Canonicalizer;

use super::Implementation;
use crate::outcome::Outcome;

/// `canonfuzz_core::jcs` with its default limits.
#[derive(Debug, Default)]
pub struct CoreImpl;

impl Implementation for CoreImpl {
    fn name(&self) -> &str {
        "core"
    }

    fn version(&self) -> String {
        env!("CARGO_PKG_VERSION").to_string()
    }

    fn group(&self) -> &str {
        CORE_GROUP
    }

    fn run_batch(&self, inputs: &[&[u8]]) -> Vec<Outcome> {
        let mut canonicalizer = Canonicalizer::default();
        inputs
            .iter()
            .map(|input| answer(&mut canonicalizer, input))
            .collect()
    }
}

/// The independence group of the core (and of anything standing in for it).
pub const CORE_GROUP: &str = "canonfuzz-core";

/// The core's answer for one input, as an outcome.
pub fn answer(canonicalizer: &mut Canonicalizer, input: &[u8]) -> Outcome {
    match canonicalizer.canonicalize(input) {
        Ok(out) => Outcome::Ok(out),
        Err(e) => Outcome::Rejected(e.kind().as_str().to_string()),
    }
}
