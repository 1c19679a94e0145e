//! The JCS family's fuzz targets, and their seeds: the corpus's documents.

use canonfuzz_props::jcs::fuzz::{jcs_diff_check, jcs_diff_document, jcs_diff_seed};
use canonfuzz_props::jcs::properties::check_canonical;

use crate::fuzz_target::{FuzzTarget, Fuzzing, Seeds, SEED_LIMIT};
use crate::vector::{OutputTest, VectorFile};

/// `jcs` (canonical output's properties), `jcs_diff` (the core against the in-process crates)
/// and `serde_json_parse`, the speed baseline.
pub const TARGETS: &[FuzzTarget] = &[
    FuzzTarget::as_is("jcs", check_canonical).in_vectors(),
    FuzzTarget {
        reads: jcs_diff_document,
        ..FuzzTarget::as_is("jcs_diff", jcs_diff_check)
            .in_vectors()
            .differential()
    },
    FuzzTarget {
        baseline: true,
        ..FuzzTarget::as_is("serde_json_parse", serde_json_parses).in_vectors()
    },
];

/// The family's targets and their seeds, as the registry reads them.
pub const FUZZING: Fuzzing = Fuzzing {
    targets: TARGETS,
    seeds,
};

/// The `serde_json_parse` target's only property: serde_json returns, whatever it answers.
fn serde_json_parses(data: &[u8]) -> Result<(), String> {
    let _ = serde_json::from_slice::<serde_json::Value>(data);
    Ok(())
}

/// Every document of the corpus's JCS vectors up to [`SEED_LIMIT`] bytes, for the JCS targets
/// and `vmcp` (whose inputs are documents too).
pub fn seeds(vectors: &[VectorFile], write: &mut Seeds<'_>) -> Result<(), String> {
    for file in vectors {
        for test in file.typed_tests::<OutputTest>()? {
            let document = test.input_bytes()?;
            if document.len() > SEED_LIMIT {
                continue;
            }
            for target in ["jcs", "serde_json_parse", "vmcp"] {
                write(target, &document)?;
            }
            write("jcs_diff", &jcs_diff_seed(&document))?;
        }
    }
    Ok(())
}
