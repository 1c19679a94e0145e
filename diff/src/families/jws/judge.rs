//! The JWS judge: the case's token verified by the verifier composed from json-syntax, ring
//! and the base64 crate ([`crate::judge::jws`]), its one key taken as a key set of one: a
//! `kid` in the header selects it only when the key carries that `kid`.

use crate::judge::json::{member, text};
use crate::judge::{self, jws, refused, Judge, Refusal};

/// The judge, as the family lists it.
pub const JUDGE: Judge = Judge {
    crates: &["json-syntax", "ring", "base64"],
    name: "rust-jws",
    answer: verify,
};

/// The payload of the case's token, verified with the case's key.
fn verify(input: &[u8]) -> Result<Vec<u8>, Refusal> {
    let case = judge::case(input)?;
    let (Some(token), Some(jwk)) = (text(&case, "token"), member(&case, "jwk")) else {
        return Err(Refusal::Unanswered);
    };
    jws::verify(token, &jws::ED25519_ALGS, |kid| match kid {
        Some(kid) if text(jwk, "kid") != Some(kid) => Err(refused("no key carries this kid")),
        _ => Ok(jwk),
    })
    .map(|verified| verified.payload)
}
