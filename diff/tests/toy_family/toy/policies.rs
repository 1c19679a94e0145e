//! The toy family's registered difference: its core refuses the empty text, which decodes
//! to nothing in the libraries.

use canonfuzz_diff::compare::{Excuse, Expect, Policy};

/// Every policy of the toy family.
pub static POLICIES: [Policy; 1] = [Policy {
    id: "no-empty",
    core: Expect::RejectsAny,
    excuses: Excuse::ACCEPTING,
    applies: |input| Ok(input.is_empty()),
    reason: "the empty text is no value: a digest compared with it matches nothing",
}];
