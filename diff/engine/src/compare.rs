//! The verdict by family: the comparison of `canonfuzz_props::verdict` under the family's
//! registered rules and quorum.

pub use canonfuzz_props::verdict::*;

use crate::family::Family;
use crate::outcome::Outcome;

/// Compares the outcomes of `members` (same order) for `input`, a case of `family`.
pub fn evaluate(
    family: Family,
    input: &[u8],
    members: &[Member],
    outcomes: &[Outcome],
) -> Evaluation {
    evaluate_with_quorum(family, input, members, outcomes, 2)
}

/// [`evaluate`], with the number of voting groups a consensus needs set by the caller: a fuzz
/// target that has only one independent group in process accepts that group's answer.
pub fn evaluate_with_quorum(
    family: Family,
    input: &[u8],
    members: &[Member],
    outcomes: &[Outcome],
    quorum: usize,
) -> Evaluation {
    canonfuzz_props::verdict::evaluate_with_quorum(
        &family.rules(),
        input,
        members,
        outcomes,
        quorum,
    )
}
