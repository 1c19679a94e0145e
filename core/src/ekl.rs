//! ekl, the profile PROTOCOL.md §15 defines for adapters: salted fingerprints of tool arguments and tool results, and
//! the endpoint challenge proof.
//!
//! A fingerprint is SHA-256(salt ‖ JCS(value)) in lowercase hex, the salt being exactly 32
//! bytes given as hex. A tool result is fingerprinted over its `structuredContent` when present,
//! otherwise its `content` array — never `isError`, `_meta` or anything an adapter adds, so
//! that what the adapter decorates cannot change what was fingerprinted. The challenge proof is
//! HMAC-SHA256 keyed with the lowercase hex SHA-256 of the provider credential (as ASCII text),
//! over the challenge hex followed by the endpoint URL; it is checked in constant time.

use std::collections::BTreeMap;
use std::fmt;

use hmac::{Hmac, Mac};
use serde_json::value::RawValue;
use sha2::{Digest, Sha256};

use crate::jcs::{self, JcsError};

/// Why a fingerprint or proof could not be computed or did not verify.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EklError {
    /// The salt is not exactly 32 bytes of hex.
    Salt(String),
    /// The value is not I-JSON (with where and why).
    Json(JcsError),
    /// A tool result must be a JSON object.
    NotAnObject,
    /// The tool result has neither `structuredContent` nor `content`.
    NoBody,
    /// `content` is present but not an array.
    ContentNotArray,
    /// The challenge is not lowercase hex.
    Challenge(String),
    /// The proof is not 32 bytes of hex.
    ProofFormat(String),
    /// The proof does not match.
    ProofMismatch,
}

impl EklError {
    /// A stable name for the reason, for vectors and scripts.
    pub fn kind(&self) -> &'static str {
        match self {
            EklError::Salt(_) => "salt",
            EklError::Json(_) => "json",
            EklError::NotAnObject => "not_an_object",
            EklError::NoBody => "no_body",
            EklError::ContentNotArray => "content_not_array",
            EklError::Challenge(_) => "challenge",
            EklError::ProofFormat(_) => "proof_format",
            EklError::ProofMismatch => "proof_mismatch",
        }
    }
}

impl fmt::Display for EklError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EklError::Salt(why) => write!(f, "the salt {why}; give exactly 64 hex digits (32 bytes)"),
            EklError::Json(e) => write!(f, "the value is not I-JSON: {e}"),
            EklError::NotAnObject => f.write_str(
                "a tool result is a JSON object with structuredContent or content; this is not an object",
            ),
            EklError::NoBody => f.write_str(
                "the tool result has neither structuredContent nor content, so there is no body to fingerprint",
            ),
            EklError::ContentNotArray => {
                f.write_str("the tool result's content is not an array; MCP's content is a list of blocks")
            }
            EklError::Challenge(why) => {
                write!(f, "the challenge {why}; give it as the lowercase hex the endpoint sent")
            }
            EklError::ProofFormat(why) => write!(f, "the proof {why}; give 64 hex digits"),
            EklError::ProofMismatch => f.write_str(
                "the proof does not match this credential, challenge and endpoint",
            ),
        }
    }
}

impl std::error::Error for EklError {}

/// A fingerprint salt: exactly 32 bytes.
#[derive(Clone, PartialEq, Eq)]
pub struct Salt([u8; 32]);

impl fmt::Debug for Salt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Salt(..)")
    }
}

/// Decodes hex (either case) into bytes; `None` on an odd length or a non-hex digit.
fn from_hex(text: &str) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) {
        return None;
    }
    text.as_bytes()
        .chunks(2)
        .map(|pair| {
            let digit = |c: u8| (c as char).to_digit(16);
            match pair {
                [hi, lo] => Some((digit(*hi)? * 16 + digit(*lo)?) as u8),
                _ => None,
            }
        })
        .collect()
}

/// Lowercase hex of `bytes`.
pub fn to_hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        for nibble in [b >> 4, b & 0xf] {
            out.push(char::from(
                *DIGITS.get(usize::from(nibble)).unwrap_or(&b'0'),
            ));
        }
    }
    out
}

impl Salt {
    /// Reads a salt from its hex form.
    pub fn from_hex(text: &str) -> Result<Salt, EklError> {
        let bytes = from_hex(text).ok_or_else(|| {
            EklError::Salt(if !text.len().is_multiple_of(2) {
                format!("has {} hex digits, an odd number", text.len())
            } else {
                "contains a character that is not a hex digit".to_string()
            })
        })?;
        let len = bytes.len();
        <[u8; 32]>::try_from(bytes)
            .map(Salt)
            .map_err(|_| EklError::Salt(format!("is {len} bytes")))
    }
}

/// The fingerprint of a canonical text.
fn digest(salt: &Salt, canonical: &[u8]) -> String {
    to_hex(
        &Sha256::new()
            .chain_update(salt.0)
            .chain_update(canonical)
            .finalize(),
    )
}

/// The salted fingerprint of one JSON value: SHA-256(salt ‖ JCS(value)), lowercase hex.
pub fn fingerprint(salt: &Salt, json: &[u8]) -> Result<String, EklError> {
    let canonical = jcs::canonicalize(json).map_err(EklError::Json)?;
    Ok(digest(salt, &canonical))
}

/// Which body of a tool result is fingerprinted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Body {
    /// `structuredContent`, present (and not null).
    StructuredContent,
    /// `content`, when there is no `structuredContent`.
    Content,
}

impl Body {
    /// The member's name.
    pub fn name(self) -> &'static str {
        match self {
            Body::StructuredContent => "structuredContent",
            Body::Content => "content",
        }
    }
}

/// The body of a tool result (or of the `result` of a JSON-RPC response carrying one) and its
/// canonical bytes. JCS is compositional: the canonical form of a member's value is the slice
/// of the whole's canonical form, so the whole is checked once and the body cut out of it.
pub fn result_body(result: &[u8]) -> Result<(Body, Vec<u8>), EklError> {
    let canonical = jcs::canonicalize(result).map_err(EklError::Json)?;
    let mut members: BTreeMap<String, Box<RawValue>> =
        serde_json::from_slice(&canonical).map_err(|_| EklError::NotAnObject)?;
    if !members.contains_key("structuredContent") && !members.contains_key("content") {
        if let Some(inner) = members.get("result") {
            members = serde_json::from_str(inner.get()).map_err(|_| EklError::NotAnObject)?;
        }
    }
    if let Some(body) = members
        .get("structuredContent")
        .filter(|b| b.get() != "null")
    {
        return Ok((Body::StructuredContent, body.get().as_bytes().to_vec()));
    }
    match members.get("content") {
        Some(body) if body.get().starts_with('[') => {
            Ok((Body::Content, body.get().as_bytes().to_vec()))
        }
        Some(_) => Err(EklError::ContentNotArray),
        None => Err(EklError::NoBody),
    }
}

/// The fingerprint of a tool result's body, and which body it covers.
pub fn result_fingerprint(salt: &Salt, result: &[u8]) -> Result<(Body, String), EklError> {
    let (body, canonical) = result_body(result)?;
    Ok((body, digest(salt, &canonical)))
}

type HmacSha256 = Hmac<Sha256>;

fn challenge_mac(
    credential: &[u8],
    challenge: &str,
    endpoint: &str,
) -> Result<HmacSha256, EklError> {
    if challenge.is_empty() {
        return Err(EklError::Challenge("is empty".into()));
    }
    if !challenge
        .bytes()
        .all(|c| c.is_ascii_digit() || (b'a'..=b'f').contains(&c))
    {
        return Err(EklError::Challenge("is not lowercase hex".into()));
    }
    let key = to_hex(&Sha256::digest(credential));
    let mut mac = HmacSha256::new_from_slice(key.as_bytes())
        .map_err(|_| EklError::Challenge("cannot key the MAC".into()))?;
    mac.update(challenge.as_bytes());
    mac.update(endpoint.as_bytes());
    Ok(mac)
}

/// The endpoint challenge proof, lowercase hex.
pub fn challenge_proof(
    credential: &[u8],
    challenge: &str,
    endpoint: &str,
) -> Result<String, EklError> {
    Ok(to_hex(
        &challenge_mac(credential, challenge, endpoint)?
            .finalize()
            .into_bytes(),
    ))
}

/// Checks an endpoint challenge proof, comparing in constant time.
pub fn verify_challenge(
    credential: &[u8],
    challenge: &str,
    endpoint: &str,
    proof: &str,
) -> Result<(), EklError> {
    let mac = challenge_mac(credential, challenge, endpoint)?;
    let given = from_hex(proof).ok_or_else(|| EklError::ProofFormat("is not hex".into()))?;
    if given.len() != 32 {
        return Err(EklError::ProofFormat(format!("is {} bytes", given.len())));
    }
    mac.verify_slice(&given)
        .map_err(|_| EklError::ProofMismatch)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SALT: &str = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";

    #[test]
    fn salts_are_exactly_32_bytes_of_hex() {
        assert!(Salt::from_hex(SALT).is_ok());
        assert!(Salt::from_hex(&SALT.to_uppercase()).is_ok());
        for bad in [
            &SALT[..62],
            &format!("{SALT}00"),
            &SALT[1..],
            &SALT.replace('a', "g"),
        ] {
            assert_eq!(Salt::from_hex(bad).unwrap_err().kind(), "salt", "{bad}");
        }
    }

    #[test]
    fn a_result_without_a_body_or_with_a_bad_one_is_refused() {
        let salt = Salt::from_hex(SALT).unwrap();
        let kind = |doc: &str| {
            result_fingerprint(&salt, doc.as_bytes())
                .unwrap_err()
                .kind()
        };
        assert_eq!(kind(r#"{"isError":false}"#), "no_body");
        assert_eq!(kind(r#"{"content":{}}"#), "content_not_array");
        assert_eq!(kind("[]"), "not_an_object");
        assert_eq!(kind(r#"{"content":[],"content":[]}"#), "json");
    }

    #[test]
    fn adapter_decorations_do_not_change_the_fingerprint() {
        let salt = Salt::from_hex(SALT).unwrap();
        let plain = result_fingerprint(&salt, br#"{"content":[{"type":"text","text":"x"}]}"#);
        let decorated = result_fingerprint(
            &salt,
            br#"{"_meta":{"a":1},"content":[{"text":"x","type":"text"}],"isError":true,"structuredContent":null}"#,
        );
        assert_eq!(plain, decorated);
        let wrapped = result_fingerprint(
            &salt,
            br#"{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"x"}]}}"#,
        );
        assert_eq!(plain, wrapped);
    }

    #[test]
    fn challenges_must_be_lowercase_hex_and_proofs_32_bytes() {
        assert_eq!(
            challenge_proof(b"c", "ABCD", "https://x")
                .unwrap_err()
                .kind(),
            "challenge"
        );
        assert_eq!(
            challenge_proof(b"c", "", "https://x").unwrap_err().kind(),
            "challenge"
        );
        assert_eq!(
            verify_challenge(b"c", "ab", "https://x", "00")
                .unwrap_err()
                .kind(),
            "proof_format"
        );
        let proof = challenge_proof(b"c", "ab", "https://x").unwrap();
        assert_eq!(verify_challenge(b"c", "ab", "https://x", &proof), Ok(()));
        assert_eq!(
            verify_challenge(b"c", "ab", "https://y", &proof)
                .unwrap_err()
                .kind(),
            "proof_mismatch"
        );
    }
}
