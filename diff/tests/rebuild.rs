//! Running the tool rebuilds nothing: a campaign (which installs its workers and saves its
//! findings) and a `git status` between two builds leave the second with nothing to compile,
//! so the README's main command, run twice, is paid for once.

mod common;

use std::path::Path;
use std::process::Command;

/// `cargo build` of the binary, verbose: what it compiled and why.
fn build() -> String {
    let out = Command::new(env!("CARGO"))
        .args(["build", "-v", "--bin", "canonfuzz"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{stderr}");
    stderr
}

/// The lines of a verbose build that say a package was built again, and why.
fn rebuilt(log: &str) -> Vec<&str> {
    log.lines()
        .filter(|l| {
            let l = l.trim_start();
            l.starts_with("Compiling") || l.starts_with("Dirty")
        })
        .collect()
}

#[test]
fn a_campaign_and_git_status_leave_nothing_to_compile() {
    build();
    let out = tempfile::tempdir().unwrap();
    let campaign = Command::new(env!("CARGO_BIN_EXE_canonfuzz"))
        .args(["diff", "--cases", "300", "-q", "--out"])
        .arg(out.path())
        .output()
        .unwrap();
    assert!(
        campaign.status.code().is_some_and(|c| c < 2),
        "{campaign:?}"
    );
    // git writes its index anew when a file's time has changed: a README opened and saved.
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let readme = std::fs::File::options()
        .append(true)
        .open(root.join("README.md"))
        .unwrap();
    readme.set_modified(std::time::SystemTime::now()).unwrap();
    let status = Command::new("git")
        .args(["status", "--short"])
        .current_dir(&root)
        .output()
        .unwrap();
    assert!(status.status.success());
    let log = build();
    let again = rebuilt(&log);
    assert!(
        again.is_empty(),
        "the second build compiled:\n{}",
        again.join("\n")
    );
}

#[test]
fn a_build_that_compiles_is_seen() {
    let log = "       Dirty canonfuzz-diff v0.1.0: the file `x` has changed\n   Compiling canonfuzz-diff v0.1.0\n    Finished";
    assert_eq!(rebuilt(log).len(), 2);
}

/// Every file under `dir` and its modification time.
fn times(dir: &Path) -> Vec<(std::path::PathBuf, std::time::SystemTime)> {
    let mut found = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let entry = entry.unwrap();
            if entry.file_type().unwrap().is_dir() {
                pending.push(entry.path());
            } else {
                found.push((entry.path(), entry.metadata().unwrap().modified().unwrap()));
            }
        }
    }
    found.sort();
    found
}

#[test]
fn a_campaign_that_finds_nothing_new_leaves_its_corpus_untouched() {
    // The build carries the corpus and watches it: a campaign that rewrote its manifest or
    // its known vectors unchanged would make the next run of the README's command rebuild.
    let corpus = common::corpus_copy();
    let before = times(corpus.path());
    let out = Command::new(env!("CARGO_BIN_EXE_canonfuzz"))
        .args(["diff", "--cases", "2000", "-q", "--out"])
        .arg(corpus.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.contains("(0 new)"), "{said}");
    assert_eq!(times(corpus.path()), before);
}
