//! The compact JWS's share of the checks: base64url as the laxest decoders read it, and what
//! the `jws` and `jwks` fuzz targets hold the core's verifier and key-set reader to.

pub mod base64url;
pub mod fuzz;
