//! Where the worker programs and their pinned dependencies live. The programs are small, so
//! the binary that knows the families carries them ([`carry`]) and unpacks them on first use
//! into a directory of their own, where their dependencies are installed too: the binary works
//! from any directory, with or without the clone it was built from, and nothing it installs
//! lands in the source tree, whose changes alone rebuild it.
//!
//! The directory is the first of: `$CANONFUZZ_ORACLES` (a directory of worker programs, used
//! as it is); `$CANONFUZZ_HOME/oracles`; `canonfuzz-oracles` in the target directory the binary
//! was built in, while it exists ([`Carried::build_dir`]); and
//! `$XDG_DATA_HOME/canonfuzz/<version>/oracles` (by default
//! `~/.local/share/canonfuzz/<version>/oracles`). All but the first are unpacked from the
//! binary.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The worker programs a binary carries: every program and lockfile by its path under the
/// workers' directory, and where the binary was built.
#[derive(Debug)]
pub struct Carried {
    /// Each file's path under the directory (`node/worker.mjs`) and its bytes.
    pub files: &'static [(&'static str, &'static [u8])],
    /// Cargo's target directory the binary was built in: while it exists, the workers are
    /// unpacked and installed in it, apart from other builds' and from the source tree.
    pub build_dir: &'static str,
    /// The carrying program's version, which names its unpacked copy elsewhere.
    pub version: &'static str,
}

static CARRIED: OnceLock<&'static Carried> = OnceLock::new();

/// Makes `carried` the worker programs of this process. The first call wins: a program carries
/// one set of workers, before it starts any.
pub fn carry(carried: &'static Carried) {
    let _ = CARRIED.get_or_init(|| carried);
}

/// The worker programs the engine's own tests run: the tracked files of the tree's
/// `diff/oracles`, unpacked into the target directory the tests were built in.
#[cfg(test)]
fn tree() -> &'static Carried {
    static TREE: OnceLock<Carried> = OnceLock::new();
    TREE.get_or_init(|| {
        let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("../oracles");
        let listed = std::process::Command::new("git")
            .args(["ls-files", "."])
            .current_dir(&source)
            .output()
            .unwrap();
        let files: Vec<(&'static str, &'static [u8])> = String::from_utf8_lossy(&listed.stdout)
            .lines()
            .map(|path| {
                let bytes = std::fs::read(source.join(path)).unwrap();
                (&*path.to_string().leak(), &*bytes.leak())
            })
            .collect();
        let exe = std::env::current_exe().unwrap();
        let target = exe.ancestors().nth(3).unwrap().display().to_string();
        Carried {
            files: files.leak(),
            build_dir: target.leak(),
            version: env!("CARGO_PKG_VERSION"),
        }
    })
}

/// The worker programs of this process, if it carries any.
fn carried() -> Option<&'static Carried> {
    #[cfg(test)]
    carry(tree());
    CARRIED.get().copied()
}

/// Where the worker programs are, and whether they are the binary's own to unpack.
pub fn location() -> Result<(PathBuf, bool), String> {
    if let Some(dir) = std::env::var_os("CANONFUZZ_ORACLES") {
        return Ok((PathBuf::from(dir), false));
    }
    place("oracles").map(|dir| (dir, true))
}

/// Where a program that carries its workers keeps what it unpacks of `kind` (`oracles`, the
/// worker programs; `corpus`, the corpus it was built with): `$CANONFUZZ_HOME/<kind>`;
/// `canonfuzz-<kind>` in the target directory it was built in, while that exists; else
/// `$XDG_DATA_HOME/canonfuzz/<version>/<kind>` (by default under `~/.local/share`), and
/// nowhere, with the reason, where neither is set.
pub fn place(kind: &str) -> Result<PathBuf, String> {
    let carried = carried().ok_or(
        "this program carries no worker programs: set CANONFUZZ_ORACLES to a directory of them",
    )?;
    if let Some(home) = std::env::var_os("CANONFUZZ_HOME") {
        return Ok(PathBuf::from(home).join(kind));
    }
    let built = Path::new(carried.build_dir);
    if built.is_dir() {
        return Ok(built.join(format!("canonfuzz-{kind}")));
    }
    let data = data_dir(std::env::var_os("XDG_DATA_HOME"), std::env::var_os("HOME"))?;
    Ok(data.join("canonfuzz").join(carried.version).join(kind))
}

/// The user's data directory from `XDG_DATA_HOME` or `HOME`; with neither, an error rather
/// than the working directory, which nobody asked to be written.
fn data_dir(xdg: Option<OsString>, home: Option<OsString>) -> Result<PathBuf, String> {
    xdg.map(PathBuf::from)
        .or_else(|| home.map(|h| PathBuf::from(h).join(".local/share")))
        .ok_or_else(|| {
            "no data directory to unpack into: neither XDG_DATA_HOME nor HOME is set; set \
             CANONFUZZ_HOME to a directory canonfuzz may keep its workers and corpus in"
                .to_string()
        })
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_data_directory_is_xdg_s_then_home_s_and_never_the_working_directory() {
        let some = |s: &str| Some(OsString::from(s));
        assert_eq!(data_dir(some("/x"), some("/h")), Ok(PathBuf::from("/x")));
        assert_eq!(
            data_dir(None, some("/h")),
            Ok(PathBuf::from("/h/.local/share"))
        );
        let none = data_dir(None, None).unwrap_err();
        assert!(none.contains("set CANONFUZZ_HOME"), "{none}");
    }
}
