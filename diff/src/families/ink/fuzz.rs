//! INK's fuzz target, and its seeds: Authorization headers of INK's pattern.

use canonfuzz_props::ink::fuzz::ink_header_check;

use crate::fuzz_target::{FuzzTarget, Fuzzing, Seeds};
use crate::vector::VectorFile;

/// `ink_header`: the core reads an Authorization header exactly as INK's pattern does.
pub const TARGETS: &[FuzzTarget] = &[FuzzTarget::as_is("ink_header", ink_header_check)];

/// The family's targets and their seeds, as the registry reads them.
pub const FUZZING: Fuzzing = Fuzzing {
    targets: TARGETS,
    seeds,
};

/// Three headers of the pattern: bare, with a key id, and separated by tabs.
pub fn seeds(_: &[VectorFile], write: &mut Seeds<'_>) -> Result<(), String> {
    let signature = "A".repeat(86);
    for header in [
        format!("INK-Ed25519 {signature}"),
        format!("INK-Ed25519 {signature} keyId=sig-2026-03"),
        format!("INK-Ed25519\t{signature}\tkeyId=a:b.c_d-e"),
    ] {
        write("ink_header", header.as_bytes())?;
    }
    Ok(())
}
