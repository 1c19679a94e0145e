//! What the integration tests share: running the `canonfuzz` binary, listing the tracked
//! files and copying the corpus.
//! Each test file uses part of it.
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// Runs `canonfuzz` with `args`, writing `stdin` to it.
pub fn canonfuzz(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_canonfuzz"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut pipe = child.stdin.take().unwrap();
    let input = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = pipe.write_all(&input);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    out
}

/// Output bytes as text.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The files git tracks under `under`, by path from the repository's root.
pub fn tracked_files(under: &str) -> Vec<String> {
    let listed = Command::new("git")
        .args(["ls-files", under])
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join(".."))
        .output()
        .unwrap();
    assert!(listed.status.success(), "git ls-files failed");
    String::from_utf8_lossy(&listed.stdout)
        .lines()
        .map(str::to_string)
        .collect()
}

/// The repository's corpus.
pub fn repo_corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus")
}

/// A copy of the repository's corpus (its vectors and kept fuzz inputs) to write into.
pub fn corpus_copy() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let from = repo_corpus();
    let files = canonfuzz_diff::manifest::vector_paths(&from).unwrap();
    let kept = canonfuzz_diff::fuzzing::regressions(&from).unwrap();
    let kept = kept.into_iter().map(|r| r.path);
    for rel in files
        .into_iter()
        .chain(kept)
        .chain(["manifest.json".to_string()])
    {
        let to = dir.path().join(&rel);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(from.join(&rel), to).unwrap();
    }
    dir
}

/// How many of the first `cases` cases of a `family` campaign with `seed` are "core diverges"
/// when `core` stands in for the core among the family's implementations, every one of which
/// must run here.
pub fn diverging(
    family: canonfuzz_diff::family::Family,
    core: Box<dyn canonfuzz_diff::impls::Implementation>,
    seed: u64,
    cases: u64,
) -> usize {
    let mut every = family.implementations();
    every[0] = core;
    let harness = canonfuzz_diff::campaign::Harness::with(family, every);
    for imp in harness.implementations() {
        imp.available()
            .unwrap_or_else(|why| panic!("{} did not run: {why}", imp.name()));
    }
    let inputs: Vec<Vec<u8>> = (0..cases).map(|i| family.generate(seed, i).1).collect();
    let refs: Vec<&[u8]> = inputs.iter().map(Vec::as_slice).collect();
    harness
        .run(&refs)
        .iter()
        .filter(|(_, e)| e.verdict == canonfuzz_diff::compare::Verdict::CoreDiverges)
        .count()
}
