//! INK's share of the checks: what the `ink_header` fuzz target holds the core's reading of an
//! Authorization header to.

pub mod fuzz;
