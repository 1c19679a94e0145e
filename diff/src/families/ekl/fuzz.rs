//! The adapter profile's fuzz target, and its seeds: the corpus's inputs.

use std::path::Path;

use canonfuzz_props::ekl::fuzz::ekl_check;

use crate::fuzz_target::{vector_files, FuzzTarget, Seeds};
use crate::manifest::Manifest;

/// `ekl`: a tool result's fingerprint is its body's.
pub const TARGETS: &[FuzzTarget] = &[FuzzTarget::as_is("ekl", ekl_check)];

/// Every input of the corpus's adapter-profile vectors.
pub fn seeds(corpus: &Path, manifest: &Manifest, write: &mut Seeds<'_>) -> Result<(), String> {
    for file in vector_files(corpus, manifest, super::SCHEMA)? {
        for test in file.typed_tests::<super::EklTest>()? {
            if let Some(input) = &test.input {
                write("ekl", input.as_bytes())?;
            }
        }
    }
    Ok(())
}
