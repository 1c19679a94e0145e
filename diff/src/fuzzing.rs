//! The cargo-fuzz targets of every registered family (each family's `fuzz.rs` states its
//! own), and their seed corpora.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;

use crate::family::Family;
use crate::fuzz_target::FuzzTarget;

/// A fuzz target as triage reproduces it: the family's statement of it and the family whose
/// vectors hold its inputs, if any does.
#[derive(Clone, Copy)]
pub struct Target {
    /// Its name under `fuzz/fuzz_targets/`.
    pub name: &'static str,
    /// What it makes of the fuzzer's bytes before checking them.
    pub reads: fn(&[u8]) -> Vec<u8>,
    /// Its property, on what it read: `Err` with the violation. A panic is a failure too.
    pub check: fn(&[u8]) -> Result<(), String>,
    /// The family whose vectors hold its inputs as they are read, if any family's do.
    pub family: Option<Family>,
}

impl Target {
    /// `target` of `family`.
    fn of(family: Family, target: &FuzzTarget) -> Target {
        Target {
            name: target.name,
            reads: target.reads,
            check: target.check,
            family: target.in_vectors.then_some(family),
        }
    }
}

/// Every registered family's fuzz targets with their family, in the registry's order.
pub fn fuzz_targets() -> Vec<(Family, &'static FuzzTarget)> {
    crate::families::all()
        .iter()
        .flat_map(|f| f.fuzz_targets().iter().map(move |t| (*f, t)))
        .collect()
}

/// The target named `name`.
pub fn target(name: &str) -> Option<Target> {
    fuzz_targets()
        .into_iter()
        .find(|(_, t)| t.name == name)
        .map(|(family, t)| Target::of(family, t))
}

/// The targets' names, comma-separated, for messages.
pub fn target_names() -> String {
    let names: Vec<&str> = fuzz_targets().iter().map(|(_, t)| t.name).collect();
    names.join(", ")
}

/// How `target` fails on `input` today, if it does: a panic or a violated property.
pub fn failure(target: &Target, input: &[u8]) -> Option<String> {
    match catch_unwind(AssertUnwindSafe(|| (target.check)(input))) {
        Ok(found) => found.err(),
        Err(panic) => Some(format!(
            "panicked: {}",
            panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default()
        )),
    }
}

/// The corpus folder that keeps, for a target whose inputs no family's vectors hold, each
/// input that once failed it: `<corpus>/fuzz/<target>/<digest>`, as its target reads it,
/// replayed by `cargo test` and seeding its target.
pub const REGRESSIONS: &str = "fuzz";

/// An input kept under [`REGRESSIONS`].
pub struct Regression {
    /// The target it once failed.
    pub target: Target,
    /// Its path under the corpus.
    pub path: String,
    /// The input, as its target reads it.
    pub input: Vec<u8>,
}

/// Keeps `input` as a regression of `target` under `corpus`, named by its digest; gives its
/// path under the corpus.
pub fn keep_regression(corpus: &Path, target: &Target, input: &[u8]) -> Result<String, String> {
    let path = format!(
        "{REGRESSIONS}/{}/{}",
        target.name,
        &crate::manifest::sha256_hex(input)[..16]
    );
    crate::vector::write_atomically(&corpus.join(&path), input)?;
    Ok(path)
}

/// Every input kept under `corpus`'s [`REGRESSIONS`], in the order of their paths; a folder
/// that names no registered target is an error.
pub fn regressions(corpus: &Path) -> Result<Vec<Regression>, String> {
    use crate::input::{listed, read_file};
    let root = corpus.join(REGRESSIONS);
    if !root.is_dir() {
        return Ok(Vec::new());
    }
    let mut kept = Vec::new();
    for dir in listed(&root)? {
        let name = dir.file_name().unwrap_or_default().to_string_lossy();
        let target = target(&name).ok_or_else(|| {
            format!(
                "{}: no target is named {name:?}; each folder here is a target's ({})",
                root.display(),
                target_names()
            )
        })?;
        for file in listed(&dir)? {
            let input = read_file(&file).map_err(|e| e.to_string())?;
            let path = format!(
                "{REGRESSIONS}/{name}/{}",
                file.file_name().unwrap_or_default().to_string_lossy()
            );
            kept.push(Regression {
                target,
                path,
                input,
            });
        }
    }
    Ok(kept)
}

/// Writes a seed corpus per target from the vectors in `corpus`, each family seeding the
/// targets its vectors feed, and from the inputs kept under [`REGRESSIONS`]:
/// `<out>/<target>/<digest>`, each seed in the shape its target reads. Returns the number of
/// seeds written.
pub fn write_seeds(corpus: &Path, out: &Path) -> Result<usize, String> {
    let manifest = crate::manifest::Manifest::read(corpus)?;
    let targets = fuzz_targets();
    for (_, target) in &targets {
        let dir = out.join(target.name);
        std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let mut count = 0;
    let mut write = |target: &str, seed: &[u8]| {
        if !targets.iter().any(|(_, t)| t.name == target) {
            return Err(format!("a seed for {target:?}, which no family registers"));
        }
        let path = out
            .join(target)
            .join(&crate::manifest::sha256_hex(seed)[..16]);
        count += 1;
        std::fs::write(&path, seed).map_err(|e| format!("{}: {e}", path.display()))
    };
    for family in crate::families::all() {
        let Some(fuzzing) = family.fuzzing() else {
            continue;
        };
        let vectors = manifest
            .files_of(family.schema())
            .map(|entry| crate::vector::VectorFile::read(&corpus.join(&entry.path)))
            .collect::<Result<Vec<_>, String>>()?;
        (fuzzing.seeds)(&vectors, &mut write)?;
    }
    for kept in regressions(corpus)? {
        write(kept.target.name, &kept.input)?;
    }
    Ok(count)
}
