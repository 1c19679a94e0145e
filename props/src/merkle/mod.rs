//! RFC 9162's share of the checks: a Merkle case as inputs carry it, the Merkle policies, the
//! in-process verifiers (the core and ct-merkle) and the `merkle` fuzz target's comparison.

pub mod case;
pub mod fuzz;
pub mod impls;
pub mod policies;
