//! The toy family: hexadecimal text decoded to bytes. Everything a family is, in one folder of
//! a program that is not canonfuzz's: its facts, generator, implementations, policy and
//! mutants, and the vector tests its findings become. It has no workers, so no worker files; a family
//! with libraries in Node, Python or the Rust worker adds its file to each runtime's folder
//! (docs/extending.md).

pub mod decoders;
pub mod gen;
pub mod policies;

use canonfuzz_diff::compare::{Policy, Rules};
use canonfuzz_diff::family::{Category, CheckTest, Facts, Family, Spec};
use canonfuzz_diff::impls::Implementation;
use canonfuzz_diff::mutants::Mutant;
use canonfuzz_diff::vector_check::OutputVectors;

/// Hexadecimal decoders, compared under these policies.
pub struct Toy(pub &'static [Policy]);

/// The family with its policies.
pub static TOY: Toy = Toy(&policies::POLICIES);

/// The family, as a program registers it.
pub const FAMILY: Family = Family::new(&TOY);

/// Its vector tests: a campaign input and what it yields.
static VECTORS: OutputVectors = OutputVectors(FAMILY);

/// The family's constant facts.
pub const FACTS: Facts = Facts {
    name: "toy",
    title: "hexadecimal decoders (a family of the test's own)",
    schema: "canonfuzz_toy_v1",
    vector_kind: ("Base16", "Base16Decode"),
    categories: &gen::CATEGORIES,
    fields: &gen::FIELDS,
    reference_reason: "base16ct's answer, a decoder from another project",
    shares_with_core: &[],
    sample_percent: 100,
    decisions: &["accepted", "empty", "length", "digit"],
    nightly_weight: 3,
    nightly_rate: 2000,
};

impl Spec for Toy {
    fn facts(&self) -> &'static Facts {
        &FACTS
    }

    fn generate(&self, seed: u64, index: u64) -> (Category, Vec<u8>) {
        gen::case(seed, index)
    }

    fn implementations(&self) -> Vec<Box<dyn Implementation>> {
        decoders::every()
    }

    fn rules(&self) -> Rules {
        Rules {
            family: FACTS.name,
            policies: self.0,
            reference_group: "base16ct",
        }
    }

    fn vectors(&self) -> &dyn CheckTest {
        &VECTORS
    }

    fn mutants(&self) -> &'static [Mutant] {
        &decoders::MUTANTS
    }

    fn selftest_budget(&self) -> u64 {
        500
    }
}
