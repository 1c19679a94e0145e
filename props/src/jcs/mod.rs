//! RFC 8785's share of the checks: the JCS policies, the form canonical output must have, the
//! in-process canonicalizers the fuzz targets compare the core with (with the `in-process`
//! feature), and the characters generators build strings from.

mod canonical_form;
#[cfg(feature = "in-process")]
pub mod fuzz;
#[cfg(feature = "in-process")]
pub mod impls;
pub mod policies;
pub mod properties;
pub mod tricky;

/// The independence group of every crate that reads its input with serde_json: they share
/// its parser, and so its answer on every document it refuses.
pub const RUST_SERDE_JSON_GROUP: &str = "rust-serde_json";
