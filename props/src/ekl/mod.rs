//! ekl's share of the checks: what the `ekl` fuzz target holds the core's
//! fingerprints to.

pub mod fuzz;
