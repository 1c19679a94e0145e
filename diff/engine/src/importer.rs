//! A published source of third-party test data a family turns into a vector file: its name
//! on the command line, what it is, the file it becomes and the conversion. Each family
//! lists its own ([`crate::family::Spec::importers`]); `canonfuzz import` offers every family's.

use std::path::Path;

use crate::vector::VectorFile;

/// How a source's data is read.
#[derive(Clone, Copy)]
pub enum Reads {
    /// From the file or folder the user names.
    Path(fn(&Path) -> Result<VectorFile, String>),
    /// From nothing outside canonfuzz: the data is built in (a published table, a test key).
    BuiltIn(fn() -> Result<VectorFile, String>),
}

/// A source of third-party vectors, and how a family converts it.
#[derive(Clone, Copy)]
pub struct Importer {
    /// Its name on the command line (`canonfuzz import NAME`).
    pub name: &'static str,
    /// What the data is, for help.
    pub about: &'static str,
    /// The vector file it becomes, relative to the corpus directory.
    pub target: &'static str,
    /// The conversion.
    pub reads: Reads,
}

impl Importer {
    /// The vector file the source's data makes; `path` is needed unless the data is built in.
    pub fn convert(&self, path: Option<&Path>) -> Result<VectorFile, String> {
        match (self.reads, path) {
            (Reads::Path(read), Some(path)) => read(path),
            (Reads::Path(_), None) => Err(format!(
                "the {} source needs a path: canonfuzz import {} PATH",
                self.name, self.name
            )),
            (Reads::BuiltIn(build), _) => build(),
        }
    }
}
