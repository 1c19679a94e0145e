//! Where the worker programs and their pinned dependencies live. The programs are small, so
//! the binary carries them: an installed `canonfuzz` unpacks them into its data directory on
//! first use and installs their dependencies there, and so works from any directory, with or
//! without the clone it was built from.
//!
//! The directory is the first of: `$CANONFUZZ_ORACLES` (a directory of worker programs, used
//! as it is); `$CANONFUZZ_HOME/oracles`; the build tree's `diff/oracles`, while it exists; and
//! `$XDG_DATA_HOME/canonfuzz/<version>/oracles` (by default
//! `~/.local/share/canonfuzz/<version>/oracles`). The last two but one are unpacked from the
//! binary.

use std::path::{Path, PathBuf};

include!(concat!(env!("OUT_DIR"), "/oracle_files.rs"));

/// Where the worker programs are, and whether they are the binary's own to unpack.
pub fn location() -> (PathBuf, bool) {
    if let Some(dir) = std::env::var_os("CANONFUZZ_ORACLES") {
        return (PathBuf::from(dir), false);
    }
    if let Some(home) = std::env::var_os("CANONFUZZ_HOME") {
        return (PathBuf::from(home).join("oracles"), true);
    }
    let built = Path::new(env!("CANONFUZZ_ORACLES_SOURCE")).to_path_buf();
    if built.join("node/worker.mjs").is_file() {
        return (built, false);
    }
    let data = std::env::var_os("XDG_DATA_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/share")))
        .unwrap_or_else(|| PathBuf::from("."));
    let version = env!("CARGO_PKG_VERSION");
    (data.join("canonfuzz").join(version).join("oracles"), true)
}

/// The directory of the worker programs, unpacked from the binary where it is the binary's
/// own (once per process): a file that is missing or differs from the binary's copy is
/// written again.
pub fn dir() -> Result<PathBuf, String> {
    static DIR: std::sync::OnceLock<Result<PathBuf, String>> = std::sync::OnceLock::new();
    DIR.get_or_init(unpack).clone()
}

fn unpack() -> Result<PathBuf, String> {
    let (dir, own) = location();
    if own {
        for &(path, bytes) in FILES {
            let target = dir.join(path);
            if std::fs::read(&target).ok().as_deref() != Some(bytes) {
                crate::vector::write_atomically(&target, bytes)
                    .map_err(|e| format!("cannot unpack the worker programs: {e}"))?;
            }
        }
    }
    Ok(dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_binary_carries_every_tracked_worker_file() {
        // A file added to diff/oracles must be carried too, or an installed binary lacks it.
        let root = Path::new(env!("CANONFUZZ_ORACLES_SOURCE"));
        let carried: Vec<&str> = FILES.iter().map(|(p, _)| *p).collect();
        let listed = std::process::Command::new("git")
            .args(["ls-files", "."])
            .current_dir(root)
            .output()
            .unwrap();
        assert!(listed.status.success(), "git ls-files failed");
        let tracked: Vec<String> = String::from_utf8_lossy(&listed.stdout)
            .lines()
            .map(str::to_string)
            .collect();
        for path in &tracked {
            assert!(carried.contains(&path.as_str()), "{path} is not carried");
        }
        assert_eq!(tracked.len(), carried.len());
        for &(path, bytes) in FILES {
            assert_eq!(std::fs::read(root.join(path)).unwrap(), bytes, "{path}");
        }
    }
}
