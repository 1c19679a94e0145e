//! ekl's fuzz target, and its seeds: the corpus's inputs.

use canonfuzz_props::ekl::fuzz::ekl_check;

use crate::fuzz_target::{FuzzTarget, Fuzzing, Seeds};
use crate::vector::VectorFile;

/// `ekl`: a tool result's fingerprint is its body's.
pub const TARGETS: &[FuzzTarget] = &[FuzzTarget::as_is("ekl", ekl_check)];

/// The family's targets and their seeds, as the registry reads them.
pub const FUZZING: Fuzzing = Fuzzing {
    targets: TARGETS,
    seeds,
};

/// Every input of the corpus's ekl vectors.
pub fn seeds(vectors: &[VectorFile], write: &mut Seeds<'_>) -> Result<(), String> {
    for file in vectors {
        for test in file.typed_tests::<super::EklTest>()? {
            if let Some(input) = &test.input {
                write("ekl", input.as_bytes())?;
            }
        }
    }
    Ok(())
}
