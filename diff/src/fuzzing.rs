//! The cargo-fuzz targets' names and seed corpora. What each target checks is
//! `canonfuzz_props::fuzz`, re-exported here for triage.

use std::path::Path;

pub use canonfuzz_props::fuzz::*;

/// The fuzz targets.
pub const TARGETS: [&str; 8] = [
    "jcs",
    "jcs_diff",
    "serde_json_parse",
    "jws",
    "vmcp",
    "merkle",
    "ekl",
    "ink_header",
];

/// Writes a seed corpus per target from the vectors in `corpus`: `<out>/<target>/<digest>`,
/// each seed in the shape its target reads (documents for the JCS targets and `vmcp`, tokens
/// for `jws`, whole responses too for `vmcp`). Returns the number of documents.
pub fn write_seeds(corpus: &Path, out: &Path) -> Result<usize, String> {
    let manifest = crate::manifest::Manifest::read(corpus)?;
    let mut count = 0;
    for target in TARGETS {
        std::fs::create_dir_all(out.join(target)).map_err(|e| format!("{}: {e}", out.display()))?;
    }
    let write = |target: &str, seed: &[u8]| {
        let path = out
            .join(target)
            .join(&crate::manifest::sha256_hex(seed)[..16]);
        std::fs::write(&path, seed).map_err(|e| format!("{}: {e}", path.display()))
    };
    for entry in manifest.files_of(crate::vector::JCS_SCHEMA) {
        let file = crate::vector::VectorFile::read(&corpus.join(&entry.path))?;
        for test in file.typed_tests::<crate::vector::OutputTest>()? {
            let document = test.input_bytes()?;
            for target in ["jcs", "serde_json_parse", "vmcp"] {
                write(target, &document)?;
            }
            write("jcs_diff", &jcs_diff_seed(&document))?;
            count += 1;
        }
    }
    for entry in manifest.files_of(crate::vector::JWS_SCHEMA) {
        let file = crate::vector::VectorFile::read(&corpus.join(&entry.path))?;
        let tests = file.typed_tests::<crate::families::jws::JwsTest>()?;
        for token in tests.iter().filter_map(|t| t.token.as_deref()) {
            write("jws", token.as_bytes())?;
        }
    }
    for entry in manifest.files_of(crate::vector::VMCP_SCHEMA) {
        let file = crate::vector::VectorFile::read(&corpus.join(&entry.path))?;
        for test in file.typed_tests::<crate::families::vmcp::VmcpTest>()? {
            match (&test.input, &test.response) {
                (Some(text), _) => write("vmcp", text.as_bytes())?,
                (None, Some(response)) => write("vmcp", response.to_string().as_bytes())?,
                (None, None) => {}
            }
        }
    }
    for index in 0..256 {
        write("merkle", &crate::families::merkle::gen::case(1, index).1)?;
    }
    let signature = "A".repeat(86);
    for header in [
        format!("INK-Ed25519 {signature}"),
        format!("INK-Ed25519 {signature} keyId=sig-2026-03"),
        format!("INK-Ed25519\t{signature}\tkeyId=a:b.c_d-e"),
    ] {
        write("ink_header", header.as_bytes())?;
    }
    for entry in manifest.files_of(crate::vector::EKL_SCHEMA) {
        let file = crate::vector::VectorFile::read(&corpus.join(&entry.path))?;
        for test in file.typed_tests::<crate::families::ekl::EklTest>()? {
            if let Some(input) = &test.input {
                write("ekl", input.as_bytes())?;
            }
        }
    }
    Ok(count)
}
