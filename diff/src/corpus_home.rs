//! Which corpus a command reads and writes: the one it is given, a clone's when run inside
//! one, or the corpus the binary was built with, which it carries (deflated) and unpacks
//! beside its workers. An installed `canonfuzz` thus knows every finding its build knew, and
//! never writes a corpus into a directory that did not ask for one.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use sha2::{Digest, Sha256};

/// The corpus the binary was built with, as `build.rs` packed it.
static PACKED: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/corpus.deflate"));

/// The file in an unpacked corpus that names the archive it came from.
const STAMP: &str = ".canonfuzz-corpus";

/// Why a corpus was chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Why {
    /// The command's `DIR`, `--out` or `--corpus`.
    Given,
    /// `$CANONFUZZ_CORPUS`.
    Environment,
    /// The `corpus/` of the clone (or any directory with a corpus) the command runs in.
    Clone,
    /// The corpus the binary carries, unpacked.
    Installed,
}

impl fmt::Display for Why {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Why::Given => "as given",
            Why::Environment => "from CANONFUZZ_CORPUS",
            Why::Clone => "the clone's",
            Why::Installed => "the one this build carries",
        })
    }
}

/// The corpus a command uses: `given`, else `$CANONFUZZ_CORPUS`, else the nearest `corpus/`
/// holding a manifest in the working directory or one above it, else the carried one.
pub fn nearest(given: Option<PathBuf>) -> Result<(PathBuf, Why), String> {
    if let Some(dir) = given {
        return Ok((dir, Why::Given));
    }
    if let Some(dir) = std::env::var_os("CANONFUZZ_CORPUS") {
        return Ok((PathBuf::from(dir), Why::Environment));
    }
    let here = std::env::current_dir().map_err(|e| format!("the working directory: {e}"))?;
    if let Some(found) = here
        .ancestors()
        .map(|dir| dir.join("corpus"))
        .find(|corpus| corpus.join("manifest.json").is_file())
    {
        return Ok((found, Why::Clone));
    }
    installed().map(|dir| (dir, Why::Installed))
}

/// The carried corpus, unpacked (once per process, and again only for a build that carries
/// another): every carried file written as it was built, and the manifest rebuilt over them
/// and the findings saved there since.
pub fn installed() -> Result<PathBuf, String> {
    static DIR: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    DIR.get_or_init(|| {
        crate::workers::carry();
        let dir = canonfuzz_engine::impls::oracles::place("corpus")?;
        let digest = crate::vector::to_hex(&Sha256::digest(PACKED));
        if std::fs::read_to_string(dir.join(STAMP)).ok().as_deref() == Some(digest.as_str()) {
            return Ok(dir);
        }
        unpack(&dir)
            .map_err(|e| format!("cannot unpack the corpus into {}: {e}", dir.display()))?;
        crate::vector::write_atomically(&dir.join(STAMP), digest.as_bytes())?;
        Ok(dir)
    })
    .clone()
}

/// Writes every carried file under `dir`, then its manifest over what is there.
fn unpack(dir: &Path) -> Result<(), String> {
    let archive = miniz_oxide::inflate::decompress_to_vec(PACKED)
        .map_err(|e| format!("the carried corpus does not inflate: {e:?}"))?;
    for (path, bytes) in entries(&archive)? {
        crate::vector::write_atomically(&dir.join(path), bytes)?;
    }
    crate::manifest::Manifest::build(dir, crate::families::all())?.write(dir)
}

/// The files of an archive `build.rs` wrote: each path and its bytes.
fn entries(mut archive: &[u8]) -> Result<Vec<(&str, &[u8])>, String> {
    let mut files = Vec::new();
    while !archive.is_empty() {
        let (path, rest) = field(archive, 4)?;
        let path = std::str::from_utf8(path).map_err(|_| "a path that is not UTF-8")?;
        if path.split('/').any(|part| part.is_empty() || part == "..") {
            return Err(format!("the path {path:?} leaves the corpus"));
        }
        let (bytes, rest) = field(rest, 8)?;
        files.push((path, bytes));
        archive = rest;
    }
    Ok(files)
}

/// A field of the archive led by its length in `width` bytes, and what follows it.
fn field(archive: &[u8], width: usize) -> Result<(&[u8], &[u8]), String> {
    let (length, rest) = archive
        .split_at_checked(width)
        .ok_or("the carried corpus ends inside a length")?;
    let mut le = [0u8; 8];
    le[..width].copy_from_slice(length);
    let length = usize::try_from(u64::from_le_bytes(le)).map_err(|_| "a length past memory")?;
    rest.split_at_checked(length)
        .ok_or_else(|| "the carried corpus ends inside a file".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_carried_corpus_is_the_tree_s_corpus() {
        let archive = miniz_oxide::inflate::decompress_to_vec(PACKED).unwrap();
        let files = entries(&archive).unwrap();
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus");
        assert!(files.iter().any(|(p, _)| *p == "manifest.json"));
        for (path, bytes) in &files {
            assert_eq!(std::fs::read(root.join(path)).unwrap(), *bytes, "{path}");
        }
        let manifest = crate::manifest::Manifest::read(&root).unwrap();
        assert!(manifest.files.len() > 100, "{}", manifest.files.len());
    }

    #[test]
    fn an_archive_that_is_cut_or_climbs_out_is_refused() {
        let mut archive = Vec::new();
        for (path, bytes) in [("jcs/a.json", &b"{}"[..]), ("../escape", b"x")] {
            archive.extend_from_slice(&(path.len() as u32).to_le_bytes());
            archive.extend_from_slice(path.as_bytes());
            archive.extend_from_slice(&(bytes.len() as u64).to_le_bytes());
            archive.extend_from_slice(bytes);
        }
        assert!(entries(&archive).unwrap_err().contains("leaves the corpus"));
        let first = 4 + 10 + 8 + 2;
        assert_eq!(
            entries(&archive[..first]).unwrap(),
            [("jcs/a.json", &b"{}"[..])]
        );
        assert!(entries(&archive[..first - 1]).is_err());
        assert!(entries(&archive[..3]).is_err());
    }
}
