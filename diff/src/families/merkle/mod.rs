//! RFC 9162 Merkle trees (`canonfuzz_merkle_v1`): roots, inclusion and consistency proofs from
//! the core against ct-merkle in process and pymerkle as a worker.

pub mod fuzz;
pub mod gen;
pub mod mutants;

use crate::compare::Rules;
use crate::family::{Category, CheckTest, Facts, Family, Spec};
use crate::impls::Implementation;
use crate::mutants::Mutant;
use crate::outcome::Outcome;
use crate::vector_check::OutputVectors;
use crate::workers;
use canonfuzz_props::merkle::case::MerkleCase;
use canonfuzz_props::merkle::impls;

/// RFC 9162 tree roots and proofs.
pub struct Merkle;

/// The schema name of Merkle tree and proof vector files.
pub const SCHEMA: &str = "canonfuzz_merkle_v1";

/// The family, as registered.
pub const FAMILY: Family = Family::new(&Merkle);

/// Its vector tests: a campaign input and what it yields.
static VECTORS: OutputVectors = OutputVectors(FAMILY);

/// The family's constant facts.
const FACTS: Facts = Facts {
    name: "merkle",
    title: "RFC 9162 Merkle roots and proofs",
    schema: SCHEMA,
    vector_kind: ("Merkle", "MerkleVerify"),
    categories: &gen::CATEGORIES,
    fields: &gen::FIELDS,
    reference_reason:
        "ct-merkle's answer, the only other verifier of RFC 9162 consistency proofs here",
    shares_with_core: &[],
    sample_percent: 10,
    nightly_weight: 5,
    nightly_rate: 10000,
    decisions: &["accepted", "hash", "index", "proof", "size"],
};

impl Spec for Merkle {
    fn fuzzing(&self) -> Option<&'static crate::fuzz_target::Fuzzing> {
        Some(&fuzz::FUZZING)
    }

    fn facts(&self) -> &'static Facts {
        &FACTS
    }

    fn generate(&self, seed: u64, index: u64) -> (Category, Vec<u8>) {
        gen::case(seed, index)
    }

    fn category_of(&self, input: &[u8], _core: &Outcome) -> Option<Category> {
        MerkleCase::parse(input).map(|case| match case {
            MerkleCase::Root { .. } => gen::MERKLE_ROOT,
            MerkleCase::Inclusion { .. } => gen::MERKLE_INCLUSION,
            MerkleCase::Consistency { .. } => gen::MERKLE_CONSISTENCY,
        })
    }

    fn implementations(&self) -> Vec<Box<dyn Implementation>> {
        vec![
            Box::new(impls::core()),
            Box::new(impls::ct_merkle()),
            Box::new(workers::python(
                FACTS.name, "pymerkle", "pymerkle", "pymerkle",
            )),
        ]
    }

    fn rules(&self) -> Rules {
        canonfuzz_props::merkle::policies::MERKLE_RULES
    }

    fn vectors(&self) -> &dyn CheckTest {
        &VECTORS
    }

    fn mutants(&self) -> &'static [Mutant] {
        &mutants::MUTANTS
    }
}
