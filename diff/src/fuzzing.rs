//! The cargo-fuzz targets: what each checks (each family's `fuzz` module in `canonfuzz_props`),
//! the family whose vectors hold its inputs, and their seed corpora.

use std::path::Path;

use canonfuzz_props::ekl::fuzz::ekl_check;
use canonfuzz_props::ink::fuzz::ink_header_check;
use canonfuzz_props::jcs::fuzz::{jcs_diff_check, jcs_diff_document, jcs_diff_seed};
use canonfuzz_props::jws::fuzz::{jwks_check, jws_check};
use canonfuzz_props::merkle::fuzz::merkle_check;
use canonfuzz_props::vmcp::fuzz::vmcp_check;

use crate::family::Family;

/// A fuzz target as triage reproduces it.
pub struct Target {
    /// Its name under `fuzz/fuzz_targets/`.
    pub name: &'static str,
    /// What it makes of the fuzzer's bytes before checking them.
    pub reads: fn(&[u8]) -> Vec<u8>,
    /// Its property, on what it read: `Err` with the violation. A panic is a failure too.
    pub check: fn(&[u8]) -> Result<(), String>,
    /// The family whose vectors hold its inputs as they are read, if any family's do.
    pub family: Option<Family>,
}

impl Target {
    /// A target that checks the fuzzer's bytes as they are.
    const fn as_is(
        name: &'static str,
        check: fn(&[u8]) -> Result<(), String>,
        family: Option<Family>,
    ) -> Target {
        Target {
            name,
            reads: <[u8]>::to_vec,
            check,
            family,
        }
    }
}

/// The fuzz targets.
pub const TARGETS: [Target; 9] = [
    Target::as_is(
        "jcs",
        canonfuzz_props::jcs::properties::check_canonical,
        Some(crate::families::jcs::FAMILY),
    ),
    Target {
        name: "jcs_diff",
        reads: jcs_diff_document,
        check: jcs_diff_check,
        family: Some(crate::families::jcs::FAMILY),
    },
    Target::as_is(
        "serde_json_parse",
        serde_json_parses,
        Some(crate::families::jcs::FAMILY),
    ),
    Target::as_is("jws", jws_check, None),
    Target::as_is("jwks", jwks_check, None),
    Target::as_is("vmcp", vmcp_check, None),
    Target::as_is(
        "merkle",
        merkle_check,
        Some(crate::families::merkle::FAMILY),
    ),
    Target::as_is("ekl", ekl_check, None),
    Target::as_is("ink_header", ink_header_check, None),
];

/// The `serde_json_parse` target's only property: serde_json returns, whatever it answers.
fn serde_json_parses(data: &[u8]) -> Result<(), String> {
    let _ = serde_json::from_slice::<serde_json::Value>(data);
    Ok(())
}

/// The target named `name`.
pub fn target(name: &str) -> Option<&'static Target> {
    TARGETS.iter().find(|t| t.name == name)
}

/// The targets' names, comma-separated, for messages.
pub fn target_names() -> String {
    TARGETS.map(|t| t.name).join(", ")
}

/// The largest document written as a seed. libFuzzer takes its bound on input length from
/// the largest seed, and a vector of a million digits would have it mutate megabyte inputs;
/// longer documents are left to the corpus replay.
pub const SEED_LIMIT: usize = 64 << 10;

/// Writes a seed corpus per target from the vectors in `corpus`: `<out>/<target>/<digest>`,
/// each seed in the shape its target reads (documents for the JCS targets and `vmcp`, tokens
/// for `jws`, key sets for `jwks`, whole responses too for `vmcp`), documents of at most [`SEED_LIMIT`] bytes.
/// Returns the number of documents.
pub fn write_seeds(corpus: &Path, out: &Path) -> Result<usize, String> {
    let manifest = crate::manifest::Manifest::read(corpus)?;
    let mut count = 0;
    for target in TARGETS.map(|t| t.name) {
        std::fs::create_dir_all(out.join(target)).map_err(|e| format!("{}: {e}", out.display()))?;
    }
    let write = |target: &str, seed: &[u8]| {
        let path = out
            .join(target)
            .join(&crate::manifest::sha256_hex(seed)[..16]);
        std::fs::write(&path, seed).map_err(|e| format!("{}: {e}", path.display()))
    };
    for entry in manifest.files_of(crate::families::jcs::SCHEMA) {
        let file = crate::vector::VectorFile::read(&corpus.join(&entry.path))?;
        for test in file.typed_tests::<crate::vector::OutputTest>()? {
            let document = test.input_bytes()?;
            if document.len() > SEED_LIMIT {
                continue;
            }
            for target in ["jcs", "serde_json_parse", "vmcp"] {
                write(target, &document)?;
            }
            write("jcs_diff", &jcs_diff_seed(&document))?;
            count += 1;
        }
    }
    for entry in manifest.files_of(crate::families::jws::SCHEMA) {
        let file = crate::vector::VectorFile::read(&corpus.join(&entry.path))?;
        let tests = file.typed_tests::<crate::families::jws::JwsTest>()?;
        for token in tests.iter().filter_map(|t| t.token.as_deref()) {
            write("jws", token.as_bytes())?;
        }
        for set in tests.iter().filter_map(|t| t.jwks.as_ref()) {
            write("jwks", set.to_string().as_bytes())?;
        }
    }
    for entry in manifest.files_of(crate::families::vmcp::SCHEMA) {
        let file = crate::vector::VectorFile::read(&corpus.join(&entry.path))?;
        for test in file.typed_tests::<crate::families::vmcp::VmcpTest>()? {
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
    for entry in manifest.files_of(crate::families::ekl::SCHEMA) {
        let file = crate::vector::VectorFile::read(&corpus.join(&entry.path))?;
        for test in file.typed_tests::<crate::families::ekl::EklTest>()? {
            if let Some(input) = &test.input {
                write("ekl", input.as_bytes())?;
            }
        }
    }
    Ok(count)
}
