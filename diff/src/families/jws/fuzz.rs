//! The JWS family's fuzz targets, and their seeds: the corpus's tokens and key sets.

use canonfuzz_props::jws::fuzz::{jwks_check, jws_check};

use crate::fuzz_target::{FuzzTarget, Fuzzing, Seeds};
use crate::vector::VectorFile;

/// `jws` (verification of any token) and `jwks` (reading any key set).
pub const TARGETS: &[FuzzTarget] = &[
    FuzzTarget::as_is("jws", jws_check),
    FuzzTarget::as_is("jwks", jwks_check),
];

/// The family's targets and their seeds, as the registry reads them.
pub const FUZZING: Fuzzing = Fuzzing {
    targets: TARGETS,
    seeds,
};

/// Every token and key set of the corpus's JWS vectors.
pub fn seeds(vectors: &[VectorFile], write: &mut Seeds<'_>) -> Result<(), String> {
    for file in vectors {
        let tests = file.typed_tests::<super::JwsTest>()?;
        for token in tests.iter().filter_map(|t| t.token.as_deref()) {
            write("jws", token.as_bytes())?;
        }
        for set in tests.iter().filter_map(|t| t.jwks.as_ref()) {
            write("jwks", set.to_string().as_bytes())?;
        }
    }
    Ok(())
}
