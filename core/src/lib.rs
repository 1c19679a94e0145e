//! The canonfuzz verification core: what signed-JSON protocols need to check a document,
//! written so that no input can make it panic and every rejection is a typed error.
//!
//! The first part is [`jcs`], a strict RFC 8785 canonicalizer whose output is the byte string
//! the protocols hash and sign.
#![forbid(unsafe_code)]
#![cfg_attr(
    not(test),
    deny(
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::panic,
        clippy::indexing_slicing,
        clippy::unreachable
    )
)]

pub mod ed25519;
pub mod ekl;
pub mod ink;
pub mod jcs;
pub mod json;
pub mod jws;
pub mod shown;
pub mod vmcp;
