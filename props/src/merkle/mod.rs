//! RFC 9162's share of the checks: a Merkle case as inputs carry it, the Merkle policies, the
//! in-process verifiers (the core and ct-merkle) and the `merkle` fuzz target's comparison
//! (with the `in-process` feature).

pub mod case;
#[cfg(feature = "in-process")]
pub mod fuzz;
#[cfg(feature = "in-process")]
pub mod impls;
pub mod policies;
