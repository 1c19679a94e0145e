//! What canonfuzz's verdicts and fuzz targets check, apart from the harness that runs
//! campaigns: implementations' outcomes and the verdict that judges any family, the readings
//! of JSON the policies decide from, and, a folder per family, that family's policies,
//! properties and in-process implementations. The fuzz targets depend on this crate and the
//! core alone, so they build in a fraction of the time the whole harness takes; each of their
//! checks takes the code it checks as a parameter (the core by default), so that a test can
//! plant a bug and see the check fail.
#![forbid(unsafe_code)]

pub mod ekl;
pub mod hex;
pub mod impls;
pub mod ink;
pub mod jcs;
pub mod jws;
mod kept;
pub mod merkle;
pub mod outcome;
pub mod panel;
pub mod read;
pub mod verdict;
pub mod vmcp;
