//! Where the worker programs and their pinned dependencies live. The programs are small, so
//! the binary that knows the families carries them ([`carry`]): an installed `canonfuzz`
//! unpacks them into its data directory on first use and installs their dependencies there,
//! and so works from any directory, with or without the clone it was built from.
//!
//! The directory is the first of: `$CANONFUZZ_ORACLES` (a directory of worker programs, used
//! as it is); `$CANONFUZZ_HOME/oracles`; the build tree's worker directory
//! ([`Carried::source`]), while it exists; and `$XDG_DATA_HOME/canonfuzz/<version>/oracles`
//! (by default `~/.local/share/canonfuzz/<version>/oracles`). The last two but one are
//! unpacked from the binary.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The worker programs a binary carries: every program and lockfile by its path under the
/// workers' directory, and that directory in the tree the binary was built from.
#[derive(Debug)]
pub struct Carried {
    /// Each file's path under the directory (`node/worker.mjs`) and its bytes.
    pub files: &'static [(&'static str, &'static [u8])],
    /// The directory in the build tree, used as it is while it exists.
    pub source: &'static str,
    /// The carrying program's version, which names its unpacked copy.
    pub version: &'static str,
}

static CARRIED: OnceLock<&'static Carried> = OnceLock::new();

/// Makes `carried` the worker programs of this process. The first call wins: a program carries
/// one set of workers, before it starts any.
pub fn carry(carried: &'static Carried) {
    let _ = CARRIED.get_or_init(|| carried);
}

/// The worker programs the engine's own tests run: those of the tree they are built in.
#[cfg(test)]
static TREE: Carried = Carried {
    files: &[],
    source: concat!(env!("CARGO_MANIFEST_DIR"), "/../oracles"),
    version: env!("CARGO_PKG_VERSION"),
};

/// The worker programs of this process, if it carries any.
fn carried() -> Option<&'static Carried> {
    #[cfg(test)]
    carry(&TREE);
    CARRIED.get().copied()
}

/// Where the worker programs are, and whether they are the binary's own to unpack.
pub fn location() -> Result<(PathBuf, bool), String> {
    if let Some(dir) = std::env::var_os("CANONFUZZ_ORACLES") {
        return Ok((PathBuf::from(dir), false));
    }
    let carried = carried().ok_or(
        "this program carries no worker programs: set CANONFUZZ_ORACLES to a directory of them",
    )?;
    if let Some(home) = std::env::var_os("CANONFUZZ_HOME") {
        return Ok((PathBuf::from(home).join("oracles"), true));
    }
    let built = Path::new(carried.source).to_path_buf();
    if built.join("node/worker.mjs").is_file() {
        return Ok((built, false));
    }
    let data = std::env::var_os("XDG_DATA_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/share")))
        .unwrap_or_else(|| PathBuf::from("."));
    let path = data.join("canonfuzz").join(carried.version).join("oracles");
    Ok((path, true))
}

/// The directory of the worker programs, unpacked from the binary where it is the binary's
/// own (once per process): a file that is missing or differs from the binary's copy is
/// written again.
pub fn dir() -> Result<PathBuf, String> {
    static DIR: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    if DIR.get().is_none() {
        location()?;
    }
    DIR.get_or_init(unpack).clone()
}

fn unpack() -> Result<PathBuf, String> {
    let (dir, own) = location()?;
    let files = carried().map_or(&[][..], |c| c.files);
    if own {
        for &(path, bytes) in files {
            let target = dir.join(path);
            if std::fs::read(&target).ok().as_deref() != Some(bytes) {
                crate::vector::write_atomically(&target, bytes)
                    .map_err(|e| format!("cannot unpack the worker programs: {e}"))?;
            }
        }
    }
    Ok(dir)
}
