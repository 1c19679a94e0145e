//! `corpus/manifest.json`: every vector file with its family, schema, test count and SHA-256,
//! so that two runs (or two implementations) can tell they use the same corpus.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::family::Family;
use crate::vector::{write_atomically, VectorFile};

/// The schema name of the manifest.
pub const MANIFEST_SCHEMA: &str = "canonfuzz_manifest_v1";
/// The manifest's file name inside the corpus directory.
pub const MANIFEST_FILE: &str = "manifest.json";

/// The list of vector files.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Manifest {
    /// [`MANIFEST_SCHEMA`].
    pub schema: String,
    /// One entry per vector file, sorted by path.
    pub files: Vec<ManifestEntry>,
}

/// One vector file as the manifest records it.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ManifestEntry {
    /// Path relative to the corpus directory, `/`-separated.
    pub path: String,
    /// The family: the first directory of the path (`jcs`, ...).
    pub family: String,
    /// The file's schema.
    pub schema: String,
    /// The file's test count.
    pub number_of_tests: usize,
    /// Lowercase hex SHA-256 of the file's bytes.
    pub sha256: String,
}

/// Lowercase hex SHA-256 of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    crate::vector::to_hex(&Sha256::digest(bytes))
}

/// Every vector file under `dir` (all `.json` files but the manifest), as sorted relative
/// `/`-separated paths.
pub fn vector_paths(dir: &Path) -> Result<Vec<String>, String> {
    let mut found = Vec::new();
    let mut pending = vec![PathBuf::new()];
    while let Some(rel) = pending.pop() {
        let full = dir.join(&rel);
        let entries = std::fs::read_dir(&full).map_err(|e| format!("{}: {e}", full.display()))?;
        for entry in entries {
            let entry = entry.map_err(|e| format!("{}: {e}", full.display()))?;
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with('.') {
                continue;
            }
            let child = rel.join(&name);
            let kind = entry
                .file_type()
                .map_err(|e| format!("{}: {e}", child.display()))?;
            if kind.is_dir() {
                pending.push(child);
            } else if name.ends_with(".json") && child != Path::new(MANIFEST_FILE) {
                let parts: Vec<_> = child
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect();
                found.push(parts.join("/"));
            }
        }
    }
    found.sort();
    Ok(found)
}

impl Manifest {
    /// Reads `DIR/manifest.json`.
    pub fn read(dir: &Path) -> Result<Manifest, String> {
        let path = dir.join(MANIFEST_FILE);
        let bytes = crate::input::read_file(&path).map_err(|e| {
            format!(
                "{e}; run `canonfuzz manifest {}` to create it",
                dir.display()
            )
        })?;
        serde_json::from_slice(&bytes).map_err(|e| {
            format!(
                "{}: line {}, column {}: {e}",
                path.display(),
                e.line(),
                e.column()
            )
        })
    }

    /// Builds the manifest of the vector files now under `dir`, whose published files are
    /// read by the family of `families` that publishes them.
    pub fn build(dir: &Path, families: &[Family]) -> Result<Manifest, String> {
        let mut files = Vec::new();
        for path in vector_paths(dir)? {
            let full = dir.join(&path);
            let bytes = crate::input::read_file(&full).map_err(|e| e.to_string())?;
            let (schema, number_of_tests) = match families.iter().find_map(|f| f.published(&bytes))
            {
                Some(published) => (published.schema().to_string(), published.count()),
                None => {
                    let file = VectorFile::read(&full)?;
                    (file.schema.clone(), file.tests().count())
                }
            };
            files.push(ManifestEntry {
                family: path.split('/').next().unwrap_or_default().to_string(),
                schema,
                number_of_tests,
                sha256: sha256_hex(&bytes),
                path,
            });
        }
        Ok(Manifest {
            schema: MANIFEST_SCHEMA.to_string(),
            files,
        })
    }

    /// The entries of the files with the given schema.
    pub fn files_of<'a>(&'a self, schema: &'a str) -> impl Iterator<Item = &'a ManifestEntry> {
        self.files.iter().filter(move |e| e.schema == schema)
    }

    /// Writes the manifest to `DIR/manifest.json` atomically.
    pub fn write(&self, dir: &Path) -> Result<(), String> {
        let mut bytes = serde_json::to_vec_pretty(self).map_err(|e| e.to_string())?;
        bytes.push(b'\n');
        write_atomically(&dir.join(MANIFEST_FILE), &bytes)
    }
}
