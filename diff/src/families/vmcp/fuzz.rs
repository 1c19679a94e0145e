//! The verifiable-mcp family's fuzz target, and its seeds: the corpus's responses and key
//! sets.

use canonfuzz_props::vmcp::fuzz::vmcp_check;

use crate::fuzz_target::{FuzzTarget, Fuzzing, Seeds};
use crate::vector::VectorFile;

/// `vmcp`: what a response the core calls valid shows its client is signed.
pub const TARGETS: &[FuzzTarget] = &[FuzzTarget::as_is("vmcp", vmcp_check)];

/// The family's targets and their seeds, as the registry reads them.
pub const FUZZING: Fuzzing = Fuzzing {
    targets: TARGETS,
    seeds,
};

/// Every response of the corpus's verifiable-mcp vectors, and their key sets for `jwks`.
pub fn seeds(vectors: &[VectorFile], write: &mut Seeds<'_>) -> Result<(), String> {
    for file in vectors {
        for test in file.typed_tests::<super::VmcpTest>()? {
            if let Some(set) = &test.jwks {
                write("jwks", set.to_string().as_bytes())?;
            }
            match (&test.input, &test.response) {
                (Some(text), _) => write("vmcp", text.as_bytes())?,
                (None, Some(response)) => write("vmcp", response.to_string().as_bytes())?,
                (None, None) => {}
            }
        }
    }
    Ok(())
}
