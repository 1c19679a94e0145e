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
        "canonfuzz-core"
    }

    fn run_batch(&self, inputs: &[&[u8]]) -> Vec<Outcome> {
        let mut canonicalizer = Canonicalizer::default();
        inputs
            .iter()
            .map(|input| match canonicalizer.canonicalize(input) {
                Ok(out) => Outcome::Ok(out),
                Err(e) => Outcome::Rejected(e.kind().as_str().to_string()),
            })
            .collect()
    }
}
