//! canonfuzz-diff: the conformance corpus and its runner, importers for third-party vectors,
//! and the pieces of the `canonfuzz` command line.

pub mod bugs;
pub mod campaign;
pub mod canon;
pub mod compare;
pub mod conformance;
pub mod escape;
pub mod families;
pub mod family;
pub mod findings;
pub mod fuzzing;
pub mod impls;
pub mod import;

pub mod input;
pub mod junit;
pub mod manifest;
pub mod matrix;
pub mod merge;
pub mod mutants;
pub mod published;
pub mod repeats;
pub mod replay;
pub mod selftest;
pub mod shrink;
pub mod summary;
pub mod tree;
pub mod triage;
pub mod upstream;
pub mod vector;
pub mod without_vector;

pub use canonfuzz_props::{client_view, outcome, properties, reading};

/// Cases a campaign runs when given neither `--cases` nor `--duration`.
pub const DEFAULT_CASES: u64 = 100_000;
