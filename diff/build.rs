//! Records the commit the harness is built from, for the report's provenance header, and lists
//! the worker programs and lockfiles under `diff/oracles` for the binary to carry
//! (`crate::oracles`), leaving out what installing them creates there.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Names under `diff/oracles` that installing the workers creates, never carried.
const INSTALLED: [&str; 5] = [
    "node_modules",
    ".venv",
    "target",
    "__pycache__",
    ".install.lock",
];

fn main() {
    record_commit();
    carry_oracles();
}

fn record_commit() {
    let commit = Command::new("git")
        .args(["describe", "--always", "--dirty", "--abbrev=12"])
        .output()
        .ok()
        .filter(|out| out.status.success())
        .map(|out| String::from_utf8_lossy(&out.stdout).trim().to_string())
        .filter(|c| !c.is_empty())
        .unwrap_or_else(|| "unknown (not built from a git checkout)".to_string());
    println!("cargo:rustc-env=CANONFUZZ_COMMIT={commit}");
    for watched in ["../.git/HEAD", "../.git/index", "../.git/refs/heads"] {
        println!("cargo:rerun-if-changed={watched}");
    }
}

fn carry_oracles() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let root = manifest
        .join("oracles")
        .canonicalize()
        .expect("diff/oracles exists");
    let mut files = Vec::new();
    walk(&root, &root, &mut files);
    files.sort();
    let mut out =
        String::from("/// Every worker program and lockfile, by path under the directory.\n");
    out.push_str("const FILES: &[(&str, &[u8])] = &[\n");
    for (relative, full) in &files {
        writeln!(out, "    ({relative:?}, include_bytes!({full:?})),").expect("a String");
    }
    out.push_str("];\n");
    let generated = PathBuf::from(std::env::var_os("OUT_DIR").expect("set by cargo"));
    std::fs::write(generated.join("oracle_files.rs"), out).expect("OUT_DIR is writable");
    println!(
        "cargo:rustc-env=CANONFUZZ_ORACLES_SOURCE={}",
        root.display()
    );
}

/// Collects the carried files under `dir`, watching each for changes.
fn walk(root: &Path, dir: &Path, files: &mut Vec<(String, String)>) {
    let entries = std::fs::read_dir(dir).expect("diff/oracles is readable");
    for entry in entries {
        let path = entry.expect("a directory entry").path();
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        if INSTALLED.contains(&name) {
            continue;
        }
        if path.is_dir() {
            walk(root, &path, files);
        } else {
            println!("cargo:rerun-if-changed={}", path.display());
            let relative = path.strip_prefix(root).expect("under the root");
            files.push((
                relative.to_string_lossy().replace('\\', "/"),
                path.display().to_string(),
            ));
        }
    }
    println!("cargo:rerun-if-changed={}", dir.display());
}
