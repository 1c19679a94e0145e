//! canonfuzz-engine: the machinery a campaign runs on, named after no family. A family
//! (`canonfuzz_diff::families`) supplies a [`family::Spec`]; the engine generates its cases,
//! runs them through its implementations in process and as workers, judges the answers,
//! minimizes and files what differs, and replays and reports the corpus. Nothing here
//! depends on any one family, so the compiler keeps the layers apart.

pub mod bugs;
pub mod campaign;
pub mod compare;
pub mod difference;
pub mod escape;
pub mod family;
pub mod findings;
pub mod fuzz_target;
pub mod harness;
pub mod impls;
pub mod importer;
pub mod input;
pub mod junit;
pub mod lines;
pub mod manifest;
pub mod mutants;
pub mod numbers;
pub mod pacing;
pub mod repeats;
pub mod replay;
pub mod selftest;
pub mod settle;
pub mod shrink;
pub mod summary;
pub mod table;
pub mod tree;
pub mod vector;
pub mod without_vector;

pub use canonfuzz_props::outcome;

/// Cases a campaign runs when given neither `--cases` nor `--duration`.
pub const DEFAULT_CASES: u64 = 100_000;
