//! RFC 9162 Merkle trees (`canonfuzz_merkle_v1`): roots, inclusion and consistency proofs from
//! the core against ct-merkle in process and pymerkle as a worker.

pub mod gen;
pub mod mutants;

use crate::compare::Rules;
use crate::conformance::{check_with_core, lint_output_test};
use crate::family::{Category, Family, Spec};
use crate::findings::stated_kind;
use crate::impls::{merkle, worker, Implementation};
use crate::mutants::Mutant;
use crate::vector::TestCase;

/// RFC 9162 tree roots and proofs.
pub struct Merkle;

/// The family, as registered.
pub const FAMILY: Family = Family::new(&Merkle);

impl Spec for Merkle {
    fn name(&self) -> &'static str {
        "merkle"
    }

    fn schema(&self) -> &'static str {
        crate::vector::MERKLE_SCHEMA
    }

    fn vector_kind(&self) -> (&'static str, &'static str) {
        ("Merkle", "MerkleVerify")
    }

    fn categories(&self) -> &'static [Category] {
        &gen::CATEGORIES
    }

    fn generate(&self, seed: u64, index: u64) -> (Category, Vec<u8>) {
        gen::case(seed, index)
    }

    fn implementations(&self) -> Vec<Box<dyn Implementation>> {
        vec![
            Box::new(merkle::core()),
            Box::new(merkle::ct_merkle()),
            Box::new(worker::python("pymerkle", "pymerkle", "pymerkle")),
        ]
    }

    fn rules(&self) -> Rules {
        crate::compare::MERKLE_RULES
    }

    fn reference_reason(&self) -> &'static str {
        "ct-merkle's answer, the only other verifier of RFC 9162 consistency proofs here"
    }

    fn test_for(&self, input: &[u8], kind: Option<&str>) -> Option<TestCase> {
        let mut test = TestCase::with_input(1, "", input);
        test.error_kind = stated_kind(kind);
        Some(test)
    }

    fn lint(&self, test: &TestCase) -> Vec<String> {
        lint_output_test(test)
    }

    fn check(&self, test: &TestCase) -> Result<(), String> {
        check_with_core(FAMILY, test)
    }

    fn mutants(&self) -> &'static [Mutant] {
        &mutants::MUTANTS
    }
}
