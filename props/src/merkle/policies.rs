//! The Merkle family's registered differences: where INK's corpus and RFC 9162's libraries
//! part ways by design.

use crate::merkle::case;
use crate::verdict::{Excuse, Expect, Policy, Rules};

/// The Merkle family's registered differences.
pub const MERKLE_POLICIES: [Policy; 2] = [
    Policy {
        id: "empty-prefix",
        core: Expect::Accepts,
        excuses: Excuse::REJECTING,
        applies: case::empty_prefix,
        reason: "RFC 9162 §2.1.4 defines consistency for 0 < m < n only; INK's corpus (merkle-consistency, empty-prefix-accepts) takes the empty tree as a prefix of every tree, with the empty tree's root and an empty proof, which libraries that follow the RFC's range refuse",
    },
    Policy {
        id: "safe-integer-sizes",
        core: Expect::Rejects("size"),
        excuses: Excuse::ANY,
        applies: case::size_past_safe_integers,
        reason: "INK bounds tree sizes to 2^53 - 1 so that a JavaScript implementation reads the same number (merkle-consistency, second-above-safe-integer-rejects); libraries with 64-bit sizes go on",
    },
];

/// The Merkle family's rules: ct-merkle is the only other verifier of consistency proofs.
pub const MERKLE_RULES: Rules = Rules {
    family: "merkle",
    policies: &MERKLE_POLICIES,
    reference_group: "ct-merkle",
};
