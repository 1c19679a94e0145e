//! Where commands read from: the corpus directory, and a file or stdin.

use std::io::{self, Read};
use std::path::{Path, PathBuf};

/// The corpus directory: the one given, else `$CANONFUZZ_CORPUS`, else `./corpus`, else the
/// build tree's while it exists.
pub(crate) fn corpus_dir(dir: Option<PathBuf>) -> PathBuf {
    dir.or_else(|| std::env::var_os("CANONFUZZ_CORPUS").map(PathBuf::from))
        .unwrap_or_else(|| {
            let local = PathBuf::from("corpus");
            let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus");
            if local.is_dir() || !repo.is_dir() {
                local
            } else {
                repo
            }
        })
}

/// A file to read from, or stdin for `-` or none.
pub(crate) fn open_input(file: Option<&Path>) -> io::Result<Box<dyn Read>> {
    match file {
        None => Ok(Box::new(io::stdin().lock())),
        Some(p) if p == Path::new("-") => Ok(Box::new(io::stdin().lock())),
        Some(p) => Ok(Box::new(std::fs::File::open(p)?)),
    }
}
