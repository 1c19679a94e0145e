//! The Ed25519 family's registered differences of the core, each with the predicate that says
//! where its reason holds (read from the case, never from the core's answer).

use super::gen;
use crate::compare::{Excuse, Expect, Policy};

/// The Ed25519 family's registered differences.
pub const POLICIES: [Policy; 1] = [Policy {
    id: "strict-ed25519",
    core: Expect::RejectsAny,
    excuses: Excuse::ACCEPTING,
    applies: gen::has_edge_case,
    reason: "the core verifies under one strict policy: canonical A and R of prime order and S below L, with the cofactorless equation; a signature with a small-order or mixed-order point, a non-canonical encoding or S >= L is refused even where RFC 8032's cofactored check, ZIP-215 or a lax decoder accepts it",
}];
