//! Turns published third-party test data into conformance vectors, recording where each
//! expected result comes from. Expected outputs are always the source's own; where a source
//! gives a double as IEEE-754 bits, the input text is those bits written with 17 significant
//! digits by Rust's standard formatter (exact, so it parses back to the same bits), which
//! deliberately differs from the canonical text.

use std::path::{Path, PathBuf};

use crate::importer::Importer;
use crate::manifest::Manifest;

/// Every registered family's sources, in the registry's order.
pub fn importers() -> Vec<Importer> {
    crate::families::all()
        .iter()
        .flat_map(|f| f.importers().iter().copied())
        .collect()
}

/// Converts `path` (not needed for a source built in) into the source's vector file under
/// `corpus`, then rebuilds the manifest. Returns the file written and its test count.
pub fn import(
    source: &Importer,
    path: Option<&Path>,
    corpus: &Path,
) -> Result<(PathBuf, usize), String> {
    let vectors = source.convert(path)?;
    let target = corpus.join(source.target);
    vectors.write(&target)?;
    Manifest::build(corpus, crate::families::all())?.write(corpus)?;
    Ok((target, vectors.number_of_tests))
}
