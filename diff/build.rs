//! Records the commit the harness is built from, for the report's provenance header, and lists
//! the worker programs and lockfiles under `diff/oracles` for the binary to carry
//! (`crate::workers`), leaving out what an older build installed there. It watches only what
//! feeds the build, so that running campaigns, installing workers and asking git about the
//! tree rebuild nothing.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Names under `diff/oracles` that installing the workers created there before they were
/// installed apart from their sources, never carried.
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
    carry_corpus();
}

/// Packs every file of the corpus, with its manifest, into one deflated archive for the
/// binary to carry (`crate::corpus_home`): each file as its path's length (u32, little
/// endian), the path under `corpus/`, its length (u64) and its bytes, in the paths' order.
fn carry_corpus() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let root = manifest.join("../corpus");
    let mut files = Vec::new();
    walk(&root, &root, &mut files);
    files.sort();
    let mut archive = Vec::new();
    for (relative, full) in &files {
        let bytes = std::fs::read(full).expect("a corpus file is readable");
        archive.extend_from_slice(&(relative.len() as u32).to_le_bytes());
        archive.extend_from_slice(relative.as_bytes());
        archive.extend_from_slice(&(bytes.len() as u64).to_le_bytes());
        archive.extend_from_slice(&bytes);
    }
    let packed = miniz_oxide::deflate::compress_to_vec(&archive, 6);
    let generated = PathBuf::from(std::env::var_os("OUT_DIR").expect("set by cargo"));
    std::fs::write(generated.join("corpus.deflate"), packed).expect("OUT_DIR is writable");
    // A vector file added or removed changes the manifest, which record_commit watches.
    println!(
        "cargo:rerun-if-changed={}",
        root.join("manifest.json").display()
    );
}

/// What feeds the binary, relative to the workspace root: the build is the commit's where
/// these match it, and a change to any of them, or a new commit, records the commit again.
/// The corpus is one (the binary carries it); the docs and the tests are left out, and so is
/// everything git itself writes or the workers install: those never rebuild the binary.
const INPUTS: [&str; 10] = [
    "Cargo.toml",
    "corpus",
    "Cargo.lock",
    "core",
    "props",
    "diff/Cargo.toml",
    "diff/build.rs",
    "diff/src",
    "diff/engine",
    "diff/oracles",
];

/// Records the commit the binary is built from, `-modified` when a file that feeds the build
/// differs from it.
fn record_commit() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let git = |args: &[&str]| {
        Command::new("git")
            .args(args)
            .current_dir(&root)
            .output()
            .ok()
            .filter(|out| out.status.success())
            .map(|out| String::from_utf8_lossy(&out.stdout).trim().to_string())
    };
    let Some(commit) = git(&["rev-parse", "--short=12", "HEAD"]).filter(|c| !c.is_empty()) else {
        println!("cargo:rustc-env=CANONFUZZ_COMMIT=unknown (not built from a git checkout)");
        return;
    };
    let inputs: Vec<&str> = INPUTS.to_vec();
    let status = [
        &["status", "--porcelain", "--untracked-files=no", "--"][..],
        &inputs,
    ]
    .concat();
    let modified = git(&status).is_some_and(|changes| !changes.is_empty());
    let suffix = if modified { "-modified" } else { "" };
    println!("cargo:rustc-env=CANONFUZZ_COMMIT={commit}{suffix}");
    // A new commit moves HEAD or the branch it names; a checkout rewrites HEAD.
    let head = git(&["symbolic-ref", "-q", "HEAD"]).unwrap_or_default();
    for path in ["HEAD", "packed-refs", head.as_str()] {
        // A file that is not there would count as changed on every build.
        if let Some(file) = git(&["rev-parse", "--path-format=absolute", "--git-path", path])
            .filter(|file| !path.is_empty() && Path::new(file).exists())
        {
            println!("cargo:rerun-if-changed={file}");
        }
    }
    let listed = [&["ls-files", "--"][..], &inputs].concat();
    for file in git(&listed).unwrap_or_default().lines() {
        println!("cargo:rerun-if-changed={}", root.join(file).display());
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
    // OUT_DIR is <target>/<profile>/build/<package>-<hash>/out.
    let target = generated.ancestors().nth(4).unwrap_or(&generated);
    println!("cargo:rustc-env=CANONFUZZ_BUILD_DIR={}", target.display());
}

/// Collects the carried files under `dir`, watching the folders that hold them;
/// `record_commit` watches each file, with the others that feed the build.
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
            let relative = path.strip_prefix(root).expect("under the root");
            files.push((
                relative.to_string_lossy().replace('\\', "/"),
                path.display().to_string(),
            ));
        }
    }
    // A file added here is carried once the build runs again: nothing is installed under
    // these folders any more, so only a change of the sources touches them.
    println!("cargo:rerun-if-changed={}", dir.display());
}
