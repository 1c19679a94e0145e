//! canonfuzz-diff: the families canonfuzz tests (each one folder: its generator,
//! implementations, policies, mutants, vectors, importer and tables), the corpus runners and
//! reports that read them all, and the pieces of the `canonfuzz` command line. The machinery
//! they run on is `canonfuzz_engine`, re-exported here under its own module names.

pub mod canon;
pub mod cli;
pub mod conformance;
pub mod corpus_home;
pub mod families;
pub mod fuzzing;
pub mod import;
pub mod judge;
pub mod matrix;
pub mod merge;
pub mod provenance;
pub mod runs;
pub mod triage;
pub mod upstream;
pub mod vector_check;
pub mod workers;

pub use canonfuzz_engine::{
    bugs, campaign, compare, difference, escape, family, findings, fuzz_target, harness, impls,
    importer, input, junit, lines, manifest, mutants, outcome, repeats, replay, selftest, settle,
    shrink, summary, table, tree, vector, without_vector, DEFAULT_CASES,
};
