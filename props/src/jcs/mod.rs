//! RFC 8785's share of the checks: the JCS policies, the form canonical output must have, the
//! in-process canonicalizers the fuzz targets compare the core with, and the characters
//! generators build strings from.

mod canonical_form;
pub mod fuzz;
pub mod impls;
pub mod policies;
pub mod properties;
pub mod tricky;
