//! The Rust worker's build, remembered. Asking cargo whether the worker is up to date costs a
//! tenth of a second on every campaign's way to its first case, the longest step of its
//! start; a record of what the binary was built from answers the same question by reading the
//! sources: the manifest, the lockfile, every file under `src/`, and the binary's own size
//! and time. Anything changed, or no record, and cargo builds as before.

use std::path::{Path, PathBuf};
use std::time::UNIX_EPOCH;

use sha2::{Digest, Sha256};

/// Where the record is kept: inside cargo's target directory, so that `cargo clean` takes it
/// with the binary.
const RECORD: &str = "target/canonfuzz-built";

/// The version of the compiler that built the binary now at `binary` from the sources now in
/// `dir`, as recorded after that build; `None` when there is no record or anything it covers
/// has changed since.
pub fn recorded(dir: &Path, binary: &Path) -> Option<String> {
    let record = std::fs::read_to_string(dir.join(RECORD)).ok()?;
    let (digest, version) = record.split_once('\n')?;
    (digest == fingerprint(dir, binary)?).then(|| version.trim_end().to_string())
}

/// Records, after a build, that the binary at `binary` was built from the sources now in `dir`
/// by compiler `version`.
pub fn record(dir: &Path, binary: &Path, version: &str) -> Result<(), String> {
    let digest = fingerprint(dir, binary)
        .ok_or_else(|| format!("{}: the build left no binary to record", binary.display()))?;
    let path = dir.join(RECORD);
    std::fs::write(&path, format!("{digest}\n{version}\n"))
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// A digest of everything the build depends on that can change between campaigns: each
/// source's path and contents, and the binary's size and modification time. `None` when the
/// binary or a source cannot be read.
fn fingerprint(dir: &Path, binary: &Path) -> Option<String> {
    let mut hasher = Sha256::new();
    let mut sources = vec![dir.join("Cargo.toml"), dir.join("Cargo.lock")];
    sources.extend(files_under(&dir.join("src"))?);
    for source in &sources {
        let name = source.strip_prefix(dir).ok()?.to_string_lossy();
        let bytes = std::fs::read(source).ok()?;
        for part in [name.as_bytes(), bytes.as_slice()] {
            hasher.update((part.len() as u64).to_le_bytes());
            hasher.update(part);
        }
    }
    let built = std::fs::metadata(binary).ok()?;
    let modified = built.modified().ok()?.duration_since(UNIX_EPOCH).ok()?;
    hasher.update(built.len().to_le_bytes());
    hasher.update(modified.as_nanos().to_le_bytes());
    Some(crate::vector::to_hex(&hasher.finalize()))
}

/// Every file under `root`, in sorted order; `None` when a directory cannot be read.
fn files_under(root: &Path) -> Option<Vec<PathBuf>> {
    let mut files = Vec::new();
    let mut pending = vec![root.to_path_buf()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).ok()? {
            let entry = entry.ok()?;
            if entry.file_type().ok()?.is_dir() {
                pending.push(entry.path());
            } else {
                files.push(entry.path());
            }
        }
    }
    files.sort();
    Some(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A worker crate in a temporary directory: manifest, lockfile, a source in a module
    /// directory, and a built binary.
    fn crate_dir() -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("src/families")).unwrap();
        std::fs::create_dir_all(root.join("target/release")).unwrap();
        std::fs::write(root.join("Cargo.toml"), "[package]\nname = \"w\"\n").unwrap();
        std::fs::write(root.join("Cargo.lock"), "version = 4\n").unwrap();
        std::fs::write(root.join("src/main.rs"), "fn main() {}\n").unwrap();
        std::fs::write(root.join("src/families/jcs.rs"), "pub fn jcs() {}\n").unwrap();
        let binary = root.join("target/release/w");
        std::fs::write(&binary, b"\x7fELF one").unwrap();
        (dir, binary)
    }

    #[test]
    fn a_build_is_remembered_until_what_it_was_built_from_changes() {
        let (dir, binary) = crate_dir();
        let root = dir.path();
        assert_eq!(recorded(root, &binary), None, "nothing recorded yet");
        record(root, &binary, "rustc 1.95.0 (59807616e 2026-04-14)").unwrap();
        assert_eq!(
            recorded(root, &binary).as_deref(),
            Some("rustc 1.95.0 (59807616e 2026-04-14)")
        );

        type Change = fn(&Path, &Path);
        let changes: [(&str, Change); 6] = [
            ("the manifest", |root, _| {
                std::fs::write(root.join("Cargo.toml"), "[package]\nname = \"v\"\n").unwrap()
            }),
            ("the lockfile", |root, _| {
                std::fs::write(root.join("Cargo.lock"), "version = 3\n").unwrap()
            }),
            ("a source in a module directory", |root, _| {
                std::fs::write(root.join("src/families/jcs.rs"), "pub fn jcs() { }\n").unwrap()
            }),
            ("a new source", |root, _| {
                std::fs::write(root.join("src/families/jws.rs"), "").unwrap()
            }),
            ("a source renamed", |root, _| {
                std::fs::rename(root.join("src/main.rs"), root.join("src/lib.rs")).unwrap()
            }),
            ("the binary, rebuilt the same size", |_, binary| {
                let modified = std::fs::metadata(binary).unwrap().modified().unwrap();
                std::fs::write(binary, b"\x7fELF two").unwrap();
                let file = std::fs::File::options().write(true).open(binary).unwrap();
                file.set_modified(modified + std::time::Duration::from_secs(1))
                    .unwrap();
            }),
        ];
        for (what, change) in changes {
            let (dir, binary) = crate_dir();
            record(dir.path(), &binary, "rustc").unwrap();
            change(dir.path(), &binary);
            assert_eq!(recorded(dir.path(), &binary), None, "{what} changed");
        }

        std::fs::remove_file(&binary).unwrap();
        assert_eq!(recorded(root, &binary), None, "the binary is gone");
        assert!(record(root, &binary, "rustc").is_err());
    }
}
