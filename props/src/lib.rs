//! What canonfuzz's verdicts and fuzz targets check, apart from the harness that runs
//! campaigns: implementations' outcomes, the policies a verdict may excuse a difference by,
//! the independent readings those policies decide from, the properties of canonical output,
//! and the in-process implementations the fuzz targets compare the core with. The fuzz
//! targets depend on this crate and the core alone, so they build in a fraction of the time
//! the whole harness takes.
#![forbid(unsafe_code)]

pub mod base64url;
mod canonical_form;
pub mod client_view;
pub mod deep;
pub mod fuzz;
pub mod hex;
pub mod impls;
mod kept;
pub mod literal;
pub mod merkle_case;
pub mod outcome;
mod plain_value;
pub mod properties;
pub mod reading;
pub mod test_server;
pub mod tricky;
pub mod values;
pub mod verdict;
