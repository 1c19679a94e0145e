//! The Merkle family's fuzz target, and its seeds: cases of its generator.

use canonfuzz_props::merkle::fuzz::merkle_check;

use crate::fuzz_target::{FuzzTarget, Fuzzing, Seeds};
use crate::vector::VectorFile;

/// `merkle`: the core's Merkle verdicts against ct-merkle's.
pub const TARGETS: &[FuzzTarget] = &[FuzzTarget::as_is("merkle", merkle_check)
    .in_vectors()
    .differential()];

/// The family's targets and their seeds, as the registry reads them.
pub const FUZZING: Fuzzing = Fuzzing {
    targets: TARGETS,
    seeds,
};

/// The generator's first 256 cases of seed 1.
pub fn seeds(_: &[VectorFile], write: &mut Seeds<'_>) -> Result<(), String> {
    for index in 0..256 {
        write("merkle", &super::gen::case(1, index).1)?;
    }
    Ok(())
}
