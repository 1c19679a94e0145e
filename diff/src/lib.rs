//! canonfuzz-diff: the conformance corpus and its runner, importers for third-party vectors,
//! and the pieces of the `canonfuzz` command line.

pub mod canon;
pub mod conformance;
pub mod import;
pub mod manifest;
pub mod properties;
pub mod vector;
