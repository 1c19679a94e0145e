//! A cargo-fuzz target as its family states it: what it makes of the fuzzer's bytes and the
//! property it checks, so that triage reproduces an artifact exactly as the target saw it and
//! the nightly campaign and ClusterFuzzLite learn the targets from the registry.

use crate::vector::VectorFile;

/// One fuzz target (`fuzz/fuzz_targets/<name>.rs`).
#[derive(Clone, Copy)]
pub struct FuzzTarget {
    /// Its name under `fuzz/fuzz_targets/`.
    pub name: &'static str,
    /// What it makes of the fuzzer's bytes before checking them.
    pub reads: fn(&[u8]) -> Vec<u8>,
    /// Its property, on what it read: `Err` with the violation. A panic is a failure too.
    pub check: fn(&[u8]) -> Result<(), String>,
    /// Whether the family's vectors hold its inputs as they are read, so that triage saves
    /// an artifact as a vector of the family.
    pub in_vectors: bool,
    /// A baseline that measures fuzzing speed and checks nothing of canonfuzz's; the nightly
    /// campaign and ClusterFuzzLite leave it out.
    pub baseline: bool,
    /// The cargo-fuzz directory it is built in: [`CORE_ONLY`] for a target that checks the
    /// core alone, [`DIFFERENTIAL`] for one that compares libraries in process.
    pub dir: &'static str,
}

/// The fuzz directory of the targets that check the core alone: `cargo fuzz run TARGET`.
pub const CORE_ONLY: &str = "fuzz";

/// The fuzz directory of the targets that compare the core with libraries in process, which
/// build apart so that the others need none of those libraries:
/// `cargo fuzz run --fuzz-dir fuzz/differential TARGET`.
pub const DIFFERENTIAL: &str = "fuzz/differential";

impl FuzzTarget {
    /// A target that checks the fuzzer's bytes as they are.
    pub const fn as_is(name: &'static str, check: fn(&[u8]) -> Result<(), String>) -> FuzzTarget {
        FuzzTarget {
            name,
            reads: <[u8]>::to_vec,
            check,
            in_vectors: false,
            baseline: false,
            dir: CORE_ONLY,
        }
    }

    /// The same target, its inputs held by the family's vectors.
    pub const fn in_vectors(self) -> FuzzTarget {
        FuzzTarget {
            in_vectors: true,
            ..self
        }
    }

    /// The same target, built in [`DIFFERENTIAL`].
    pub const fn differential(self) -> FuzzTarget {
        FuzzTarget {
            dir: DIFFERENTIAL,
            ..self
        }
    }
}

/// Where a family writes the seeds of the targets it feeds: the target's name and one seed.
pub type Seeds<'a> = dyn FnMut(&str, &[u8]) -> Result<(), String> + 'a;

/// A family's fuzz targets and how it seeds them.
pub struct Fuzzing {
    /// Its targets.
    pub targets: &'static [FuzzTarget],
    /// Writes seeds from the corpus's vector files of the family, or from its generator.
    pub seeds: fn(&[VectorFile], &mut Seeds<'_>) -> Result<(), String>,
}

/// The largest document written as a seed. libFuzzer takes its bound on input length from
/// the largest seed, and a vector of a million digits would have it mutate megabyte inputs;
/// longer documents are left to the corpus replay.
pub const SEED_LIMIT: usize = 64 << 10;
