//! Merging the vectors of sharded campaigns into one corpus, deterministically: a finding
//! (named by its signature's digest) is taken from the shard that met it at the lowest case
//! index — the one an unsharded campaign over the same cases would keep — and regressions
//! and kept fuzz inputs (named by their input's digest) are united. Vectors the corpus
//! already holds stay as they are. The findings each shard remembers without a vector are
//! merged the same way.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::findings::{regression_path, vector_path};
use crate::manifest::Manifest;
use crate::vector::{write_atomically, VectorFile};
use crate::without_vector;

/// The directories merged, relative to a corpus: where campaigns and triage write, for every
/// family.
fn merged_dirs() -> Vec<String> {
    crate::families::all()
        .iter()
        .flat_map(|&family| [vector_path(family, ""), regression_path(family, b"")])
        .filter_map(|path| path.rsplit_once('/').map(|(dir, _)| dir.to_string()))
        .collect()
}

/// The case index a campaign vector records in its source (`..., case N`); other vectors
/// sort after every campaign case.
fn case_of(file: &VectorFile) -> u64 {
    file.test_groups
        .first()
        .and_then(|g| g.source.name.rsplit_once(", case "))
        .and_then(|(_, n)| n.trim().parse().ok())
        .unwrap_or(u64::MAX)
}

/// Merges the vectors under each of `shards` into the corpus at `into`; returns the paths
/// added, relative to the corpus.
pub fn merge(shards: &[PathBuf], into: &Path) -> Result<Vec<String>, String> {
    let mut chosen: BTreeMap<String, (u64, PathBuf)> = BTreeMap::new();
    for shard in shards {
        if !shard.is_dir() {
            return Err(format!(
                "{} is not a directory: pass each shard's corpus directory (its --out)",
                shard.display()
            ));
        }
        for dir in &merged_dirs() {
            let Ok(names) = crate::input::listed(&shard.join(dir)) else {
                continue;
            };
            for path in names
                .into_iter()
                .filter(|p| p.extension().is_some_and(|e| e == "json"))
            {
                let name = path
                    .file_name()
                    .unwrap_or_default()
                    .to_string_lossy()
                    .into_owned();
                let relative = format!("{dir}/{name}");
                let case = case_of(&VectorFile::read(&path)?);
                let better = chosen.get(&relative).is_none_or(|(best, _)| case < *best);
                if better {
                    chosen.insert(relative, (case, path));
                }
            }
        }
    }
    for &family in crate::families::all() {
        let mut first_met: BTreeMap<String, without_vector::Remembered> = BTreeMap::new();
        for shard in shards {
            for (signature, finding) in without_vector::read(shard, family)? {
                let earlier = first_met
                    .get(&signature)
                    .is_some_and(|f| f.case <= finding.case);
                if !earlier {
                    first_met.insert(signature, finding);
                }
            }
        }
        without_vector::remember(into, family, first_met)?;
    }
    let mut added = Vec::new();
    for (relative, (_, from)) in chosen {
        let to = into.join(&relative);
        if to.exists() {
            continue;
        }
        let bytes = crate::input::read_file(&from).map_err(|e| e.to_string())?;
        write_atomically(&to, &bytes)?;
        added.push(relative);
    }
    for shard in shards {
        for kept in crate::fuzzing::regressions(shard)? {
            let to = into.join(&kept.path);
            if !to.exists() {
                write_atomically(&to, &kept.input)?;
                added.push(kept.path);
            }
        }
    }
    Manifest::build(into, crate::families::all())?.write(into)?;
    Ok(added)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_familys_findings_regressions_and_kept_inputs_are_merged() {
        let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus");
        let manifest = Manifest::read(&repo).unwrap();
        let (shard, into) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let mut placed = Vec::new();
        for &family in crate::families::all() {
            let entry = manifest.files_of(family.schema()).next().unwrap();
            let vector = std::fs::read(repo.join(&entry.path)).unwrap();
            for relative in [vector_path(family, "a"), regression_path(family, b"b")] {
                let to = shard.path().join(&relative);
                std::fs::create_dir_all(to.parent().unwrap()).unwrap();
                std::fs::write(&to, &vector).unwrap();
                placed.push(relative);
            }
        }
        let kept = shard.path().join("fuzz/jwks/0123456789abcdef");
        std::fs::create_dir_all(kept.parent().unwrap()).unwrap();
        std::fs::write(&kept, b"{}").unwrap();
        placed.push("fuzz/jwks/0123456789abcdef".to_string());
        let mut added = merge(&[shard.path().to_path_buf()], into.path()).unwrap();
        added.sort();
        placed.sort();
        assert_eq!(added, placed);
    }

    #[test]
    fn findings_without_a_vector_are_taken_from_the_shard_that_met_them_first() {
        let family = crate::families::jcs::FAMILY;
        let (a, b, into) = (
            tempfile::tempdir().unwrap(),
            tempfile::tempdir().unwrap(),
            tempfile::tempdir().unwrap(),
        );
        let at = |signature: &str, case: u64| {
            let input = format!("[{case}]").into_bytes();
            (
                signature.to_string(),
                without_vector::Remembered {
                    input,
                    seed: 1,
                    case,
                },
            )
        };
        without_vector::remember(a.path(), family, [at("s", 9), at("t", 4)]).unwrap();
        without_vector::remember(b.path(), family, [at("s", 2), at("u", 7)]).unwrap();
        without_vector::remember(into.path(), family, [at("u", 30)]).unwrap();
        merge(
            &[a.path().to_path_buf(), b.path().to_path_buf()],
            into.path(),
        )
        .unwrap();
        let merged = without_vector::read(into.path(), family).unwrap();
        let cases: Vec<(&str, u64)> = merged.iter().map(|(s, f)| (s.as_str(), f.case)).collect();
        // The lower case of the shards' two records of s; u as the corpus already held it.
        assert_eq!(cases, [("s", 2), ("t", 4), ("u", 30)]);
    }
}
