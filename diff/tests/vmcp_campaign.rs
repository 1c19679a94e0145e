//! The verifiable-mcp family turns red on a verifier that checks less than its client reads:
//! the family's mutants (the holes it was built to find, planted back), run against the Node
//! and Python verifiers on generated responses of another seed than the self-test's, are each
//! caught diverging, and the core itself is not.

mod common;

use canonfuzz_diff::families::vmcp::FAMILY;
use canonfuzz_diff::impls::Implementation;

fn diverging_cases(core: Box<dyn Implementation>) -> usize {
    common::diverging(FAMILY, core, 11, 600)
}

#[test]
fn the_core_itself_does_not_diverge() {
    assert_eq!(diverging_cases(FAMILY.implementations().remove(0)), 0);
}

#[test]
fn every_planted_hole_diverges() {
    for mutant in FAMILY.mutants() {
        let diverging = diverging_cases(Box::new(mutant.implementation()));
        assert!(diverging > 0, "{} did not diverge", mutant.name);
    }
}
