//! The registered families, one folder each. To add one, write its folder (a `mod.rs` that
//! implements [`crate::family::Spec`], with its generator, implementations, policies and
//! mutants beside it) and add it to [`ALL`].

pub mod ed25519;
pub mod ekl;
pub mod ink;
pub mod jcs;
pub mod jws;
pub mod merkle;
pub mod vmcp;

use crate::family::Family;

/// Every family, in the order reports and `--family all` take them.
pub const ALL: [Family; 7] = [
    jcs::FAMILY,
    ed25519::FAMILY,
    jws::FAMILY,
    vmcp::FAMILY,
    ekl::FAMILY,
    merkle::FAMILY,
    ink::FAMILY,
];
