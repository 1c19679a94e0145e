//! Compact JWS (RFC 7515) signed with EdDSA (RFC 8037; `Ed25519` of RFC 9864 accepted too),
//! JWK sets, and RFC 7638 thumbprints.
//!
//! Everything is strict: base64url without padding, whitespace or the `+/` alphabet, and with
//! zero unused bits; header and key JSON must pass the I-JSON checks of [`crate::jcs`] (so a
//! duplicated header parameter is refused); `alg` must be an EdDSA name and match the key;
//! `none` never verifies; `crit` is honoured (no extension is understood, so any listed
//! parameter is refused) and `b64` other than `true` is refused rather than half-supported.
//!
//! A key is found one of two ways, and neither guesses: in a key set, by the token's `kid`
//! alone (a token without one, or naming no key, fails closed; a set where two keys share a
//! `kid` is refused), or as one key the caller pins, which a token's `kid`, when present, must
//! name.

use std::sync::OnceLock;

use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

use crate::ed25519::{self, Ed25519Error, VerifyingKey};
use crate::jcs;
use crate::jcs::view::{Type, View};
use crate::shown::quoted;

/// Why a token, key or key set was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum JwsError {
    /// Not three dot-separated parts.
    Malformed(String),
    /// A part is not strict base64url.
    Base64 {
        /// Which part.
        part: &'static str,
        /// What is wrong with it.
        why: String,
    },
    /// A JSON object (header, key or key set) is not I-JSON.
    Json {
        /// What held it.
        what: &'static str,
        /// The canonicalizer's error.
        error: jcs::JcsError,
    },
    /// A JSON document that is not an object, or a member of the wrong type.
    Shape(String),
    /// `alg` is `none`: an unsigned token never verifies.
    AlgNone,
    /// `alg` is missing (`None`) or not an EdDSA name.
    UnsupportedAlg(Option<String>),
    /// A parameter listed in `crit`, which this verifier does not understand, or a bad `crit`.
    Critical(String),
    /// `b64` is present with another value than `true` (RFC 7797 is not supported).
    UnencodedPayload,
    /// `typ` differs from what the profile requires.
    Typ {
        /// What the profile requires.
        want: String,
        /// What the header says.
        got: Option<String>,
    },
    /// No key in the set has the token's `kid`, the token names none, or it names another
    /// key than the one pinned.
    UnknownKey(Option<String>),
    /// Two keys of a set share a `kid`, so a `kid` would not name one key.
    DuplicateKid(String),
    /// The key cannot verify this token: wrong `kty`, `crv`, `alg`, `use`, or length of `x`.
    KeyMismatch(String),
    /// The signature does not verify.
    Signature(Ed25519Error),
    /// A key set, key or header is larger than the verifier reads.
    Limit(Bound),
}

/// A bound on what the verifier reads of a key set, key or header, so that what a server
/// serves cannot make a client hold more than a few times its size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bound {
    /// [`MAX_KEY_SET_BYTES`]: bytes of a key set or of one key.
    KeySetBytes,
    /// [`MAX_KEYS`]: keys in a set.
    Keys,
    /// [`MAX_KEY_MEMBERS`]: members of one key.
    KeyMembers,
    /// [`MAX_HEADER_BYTES`]: bytes of a token's protected header.
    HeaderBytes,
}

/// Bytes a JWK set, or one JWK, may have: a set of [`MAX_KEYS`] keys, each with an X.509
/// chain, fits with room to spare.
pub const MAX_KEY_SET_BYTES: usize = 1 << 20;
/// Keys a JWK set may hold; a server publishes the few it signs with and those it rotates.
pub const MAX_KEYS: usize = 256;
/// Members one JWK may have: RFC 7517 and RFC 7518 register 24 parameters.
pub const MAX_KEY_MEMBERS: usize = 32;
/// Bytes a token's protected header may have, decoded.
pub const MAX_HEADER_BYTES: usize = 1 << 16;

impl Bound {
    /// The bound's value.
    pub fn limit(self) -> usize {
        match self {
            Bound::KeySetBytes => MAX_KEY_SET_BYTES,
            Bound::Keys => MAX_KEYS,
            Bound::KeyMembers => MAX_KEY_MEMBERS,
            Bound::HeaderBytes => MAX_HEADER_BYTES,
        }
    }
}

impl std::fmt::Display for Bound {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let limit = self.limit();
        match self {
            Bound::KeySetBytes => write!(
                f,
                "the key set or key is longer than {limit} bytes (MAX_KEY_SET_BYTES)"
            ),
            Bound::Keys => write!(f, "the key set holds more than {limit} keys (MAX_KEYS)"),
            Bound::KeyMembers => write!(f, "a key has more than {limit} members (MAX_KEY_MEMBERS)"),
            Bound::HeaderBytes => write!(
                f,
                "the protected header is longer than {limit} bytes (MAX_HEADER_BYTES)"
            ),
        }
    }
}

impl std::fmt::Display for JwsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            JwsError::Malformed(why) => write!(f, "not a compact JWS: {why}"),
            JwsError::Base64 { part, why } => {
                write!(f, "the {part} is not strict base64url: {why}")
            }
            JwsError::Json { what, error } => write!(f, "the {what} is not I-JSON: {error}"),
            JwsError::Shape(why) => f.write_str(why),
            JwsError::AlgNone => {
                f.write_str("alg is \"none\": an unsigned token is never accepted")
            }
            JwsError::UnsupportedAlg(Some(alg)) => {
                write!(f, "alg {} is not EdDSA or Ed25519", quoted(alg))
            }
            JwsError::UnsupportedAlg(None) => f.write_str("the header has no alg"),
            JwsError::Critical(why) => write!(f, "crit: {why}"),
            JwsError::UnencodedPayload => {
                f.write_str("b64 other than true (RFC 7797 unencoded payload) is not supported")
            }
            JwsError::Typ { want, got } => {
                let got = got.as_deref().map_or_else(|| "absent".to_string(), quoted);
                write!(f, "typ is {got}, the profile requires {}", quoted(want))
            }
            JwsError::UnknownKey(Some(kid)) => {
                write!(f, "no key in the set has kid {}", quoted(kid))
            }
            JwsError::UnknownKey(None) => f.write_str(
                "the token names no kid; a key set is searched by kid only, never by position",
            ),
            JwsError::DuplicateKid(kid) => write!(
                f,
                "two keys in the set share kid {}; give each key its own kid",
                quoted(kid)
            ),
            JwsError::KeyMismatch(why) => write!(f, "the key cannot verify this token: {why}"),
            JwsError::Signature(e) => write!(f, "signature: {e}"),
            JwsError::Limit(bound) => write!(
                f,
                "{bound}; a verifier reads no more, so that what a server serves cannot make \
                 it hold more than a few times its size"
            ),
        }
    }
}

impl std::error::Error for JwsError {}

impl JwsError {
    /// A stable name for the class of the error, as vectors and the CLI's JSON name it.
    pub fn kind(&self) -> &'static str {
        match self {
            JwsError::Malformed(_) => "malformed",
            JwsError::Base64 { .. } => "base64",
            JwsError::Json { .. } => "json",
            JwsError::Shape(_) => "shape",
            JwsError::AlgNone => "alg_none",
            JwsError::UnsupportedAlg(_) => "unsupported_alg",
            JwsError::Critical(_) => "crit",
            JwsError::UnencodedPayload => "b64",
            JwsError::Typ { .. } => "typ",
            JwsError::UnknownKey(_) => "unknown_key",
            JwsError::DuplicateKid(_) => "duplicate_kid",
            JwsError::KeyMismatch(_) => "key_mismatch",
            JwsError::Signature(_) => "signature",
            JwsError::Limit(_) => "limit",
        }
    }
}

/// Decodes strict unpadded base64url (RFC 7515 §2): the URL-safe alphabet only, no padding,
/// no whitespace, and unused trailing bits zero.
pub fn base64url_decode(text: &str, part: &'static str) -> Result<Vec<u8>, JwsError> {
    let err = |why: String| JwsError::Base64 { part, why };
    let value = |c: u8| -> Option<u32> {
        match c {
            b'A'..=b'Z' => Some(u32::from(c - b'A')),
            b'a'..=b'z' => Some(u32::from(c - b'a') + 26),
            b'0'..=b'9' => Some(u32::from(c - b'0') + 52),
            b'-' => Some(62),
            b'_' => Some(63),
            _ => None,
        }
    };
    let bytes = text.as_bytes();
    if bytes.len() % 4 == 1 {
        return Err(err(format!(
            "{} characters cannot encode whole bytes",
            bytes.len()
        )));
    }
    let mut out = Vec::with_capacity(bytes.len() * 3 / 4);
    for (n, chunk) in bytes.chunks(4).enumerate() {
        let mut acc = 0u32;
        for (i, &c) in chunk.iter().enumerate() {
            let v = value(c).ok_or_else(|| {
                err(format!(
                    "the byte 0x{c:02x} at position {} is outside the base64url alphabet (no padding, whitespace, '+' or '/')",
                    n * 4 + i
                ))
            })?;
            acc |= v << (18 - 6 * i);
        }
        let [_, b0, b1, b2] = acc.to_be_bytes();
        let (kept, unused) = match chunk.len() {
            4 => (3, 0),
            3 => (2, u32::from(b2)),
            _ => (1, u32::from(b1) | u32::from(b2)),
        };
        if unused != 0 {
            return Err(err(
                "the unused bits of the last character are not zero".to_string()
            ));
        }
        out.extend_from_slice([b0, b1, b2].get(..kept).unwrap_or_default());
    }
    Ok(out)
}

/// Encodes bytes as unpadded base64url.
pub fn base64url_encode(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk.first().copied().unwrap_or(0),
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..=chunk.len() {
            let index = ((n >> (18 - 6 * i)) & 63) as usize;
            out.push(char::from(ALPHABET.get(index).copied().unwrap_or(b'A')));
        }
    }
    out
}

/// Parses a JSON object after holding it to I-JSON (duplicates, lone surrogates, ranges).
fn object(bytes: &[u8], what: &'static str) -> Result<Map<String, Value>, JwsError> {
    let canonical = jcs::canonicalize(bytes).map_err(|error| JwsError::Json { what, error })?;
    match crate::json::read(&canonical) {
        Ok(Value::Object(map)) => Ok(map),
        _ => Err(JwsError::Shape(format!("the {what} is not a JSON object"))),
    }
}

fn string_member<'a>(
    map: &'a Map<String, Value>,
    name: &str,
    what: &str,
) -> Result<Option<&'a str>, JwsError> {
    match map.get(name) {
        None => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(_) => Err(JwsError::Shape(format!(
            "{what} member {} is not a string",
            quoted(name)
        ))),
    }
}

/// One public key of a JWK set.
#[derive(Debug, Clone)]
pub struct Jwk {
    /// The key's members as given.
    pub members: Map<String, Value>,
    /// The Ed25519 key `x` decodes to, checked on first use; `None` when the check fails, which
    /// leaves the error to be reported by a full verification.
    checked: OnceLock<Option<VerifyingKey>>,
}

impl PartialEq for Jwk {
    fn eq(&self, other: &Jwk) -> bool {
        self.members == other.members
    }
}

impl Eq for Jwk {}

impl Jwk {
    fn new(members: Map<String, Value>) -> Jwk {
        Jwk {
            members,
            checked: OnceLock::new(),
        }
    }

    /// The checked Ed25519 key for `x` = `key`, if it passes the checks; checked once per JWK.
    fn checked_key(&self, key: &[u8]) -> Option<&VerifyingKey> {
        self.checked
            .get_or_init(|| VerifyingKey::from_bytes(key).ok())
            .as_ref()
            .filter(|checked| checked.as_bytes().as_slice() == key)
    }

    /// Parses one JWK, within [`MAX_KEY_SET_BYTES`] and [`MAX_KEY_MEMBERS`].
    pub fn parse(bytes: &[u8]) -> Result<Jwk, JwsError> {
        if bytes.len() > MAX_KEY_SET_BYTES {
            return Err(JwsError::Limit(Bound::KeySetBytes));
        }
        let members = object(bytes, "JWK")?;
        if members.len() > MAX_KEY_MEMBERS {
            return Err(JwsError::Limit(Bound::KeyMembers));
        }
        Ok(Jwk::new(members))
    }

    /// The key's `kid`, if it has one (a key set refuses a `kid` that is not a string).
    pub fn kid(&self) -> Option<&str> {
        self.members.get("kid").and_then(Value::as_str)
    }

    /// The RFC 7638 thumbprint: base64url(SHA-256(JCS of the required members)).
    pub fn thumbprint(&self) -> Result<String, JwsError> {
        let kty = string_member(&self.members, "kty", "JWK")?
            .ok_or_else(|| JwsError::Shape("the JWK has no kty".into()))?;
        let required: &[&str] = match kty {
            "OKP" => &["crv", "kty", "x"],
            "EC" => &["crv", "kty", "x", "y"],
            "RSA" => &["e", "kty", "n"],
            "oct" => &["k", "kty"],
            other => {
                return Err(JwsError::Shape(format!(
                    "kty {} has no RFC 7638 thumbprint",
                    quoted(other)
                )))
            }
        };
        let mut subset = Map::new();
        for name in required {
            let value = string_member(&self.members, name, "JWK")?.ok_or_else(|| {
                JwsError::Shape(format!("a {kty} JWK needs \"{name}\" for its thumbprint"))
            })?;
            subset.insert((*name).to_string(), Value::String(value.to_string()));
        }
        let text = Value::Object(subset).to_string();
        let canonical = jcs::canonicalize(text.as_bytes())
            .map_err(|error| JwsError::Json { what: "JWK", error })?;
        Ok(base64url_encode(&Sha256::digest(&canonical)))
    }

    /// The Ed25519 public key, after checking that this key may verify `alg`.
    fn ed25519_key(&self, alg: &str) -> Result<Vec<u8>, JwsError> {
        let m = &self.members;
        let field = |name: &str| string_member(m, name, "JWK");
        if field("kty")? != Some("OKP") || field("crv")? != Some("Ed25519") {
            return Err(JwsError::KeyMismatch(format!(
                "an EdDSA token needs kty OKP and crv Ed25519, the key has kty {} and crv {}",
                field("kty")?.map_or_else(|| "absent".to_string(), quoted),
                field("crv")?.map_or_else(|| "absent".to_string(), quoted)
            )));
        }
        if let Some(key_alg) = field("alg")? {
            if !is_eddsa(key_alg) || (key_alg != alg && key_alg != "EdDSA" && alg != "EdDSA") {
                return Err(JwsError::KeyMismatch(format!(
                    "the key is for alg {}, the token says {}",
                    quoted(key_alg),
                    quoted(alg)
                )));
            }
        }
        if let Some(use_) = field("use")? {
            if use_ != "sig" {
                return Err(JwsError::KeyMismatch(format!(
                    "the key's use is {}, not \"sig\"",
                    quoted(use_)
                )));
            }
        }
        if let Some(ops) = m.get("key_ops") {
            let verify = matches!(ops, Value::Array(list) if list.iter().any(|op| op == "verify"));
            if !verify {
                return Err(JwsError::KeyMismatch(
                    "the key's key_ops do not include \"verify\"".into(),
                ));
            }
        }
        if m.contains_key("d") {
            return Err(JwsError::KeyMismatch(
                "the key carries its private part d; publish only the public key".into(),
            ));
        }
        let x = field("x")?.ok_or_else(|| JwsError::KeyMismatch("the key has no x".into()))?;
        let key = base64url_decode(x, "key's x")?;
        if key.len() != 32 {
            return Err(JwsError::KeyMismatch(format!(
                "x is {} bytes; an Ed25519 key is 32",
                key.len()
            )));
        }
        Ok(key)
    }
}

fn is_eddsa(alg: &str) -> bool {
    alg == "EdDSA" || alg == "Ed25519"
}

/// A JWK set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Jwks {
    /// The keys, in order.
    pub keys: Vec<Jwk>,
}

impl Jwks {
    /// Parses `{"keys":[...]}`: every key an object whose `kid`, if any, is a string that no
    /// other key of the set has; within [`MAX_KEY_SET_BYTES`], [`MAX_KEYS`] and
    /// [`MAX_KEY_MEMBERS`], each counted before anything is read into values.
    pub fn parse(bytes: &[u8]) -> Result<Jwks, JwsError> {
        if bytes.len() > MAX_KEY_SET_BYTES {
            return Err(JwsError::Limit(Bound::KeySetBytes));
        }
        let canonical = jcs::canonicalize(bytes).map_err(|error| JwsError::Json {
            what: "JWK set",
            error,
        })?;
        let keys = View::new(&canonical)
            .filter(|set| set.kind() == Type::Object)
            .ok_or_else(|| JwsError::Shape("the JWK set is not a JSON object".into()))?
            .get("keys")
            .filter(|keys| keys.kind() == Type::Array)
            .ok_or_else(|| JwsError::Shape("a JWK set needs a \"keys\" array".into()))?;
        if keys.items().nth(MAX_KEYS).is_some() {
            return Err(JwsError::Limit(Bound::Keys));
        }
        let mut kids = std::collections::BTreeSet::new();
        let mut set = Vec::new();
        for (i, key) in keys.items().enumerate() {
            let not_a_key = || {
                JwsError::Shape(format!(
                    "keys[{i}] is not a JWK object; every member of \"keys\" must be one"
                ))
            };
            if key.kind() != Type::Object {
                return Err(not_a_key());
            }
            if key.members().nth(MAX_KEY_MEMBERS).is_some() {
                return Err(JwsError::Limit(Bound::KeyMembers));
            }
            let members = match crate::json::read(key.bytes()) {
                Ok(Value::Object(members)) => members,
                Ok(_) => return Err(not_a_key()),
                Err(e) => {
                    return Err(JwsError::Shape(format!(
                        "keys[{i}] cannot be read as a JWK: {e}"
                    )))
                }
            };
            if let Some(kid) = string_member(&members, "kid", "JWK")? {
                if !kids.insert(kid.to_string()) {
                    return Err(JwsError::DuplicateKid(kid.to_string()));
                }
            }
            set.push(Jwk::new(members));
        }
        Ok(Jwks { keys: set })
    }
}

/// What the verifier requires beyond RFC 7515.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Profile {
    /// The `typ` the header must carry, if the profile fixes one.
    pub typ: Option<String>,
}

/// A verified token.
#[derive(Debug, Clone, PartialEq)]
pub struct Verified {
    /// The protected header.
    pub header: Map<String, Value>,
    /// The `kid` the token names, if any.
    pub kid: Option<String>,
    /// Index into the key set of the key that verified it.
    pub key_index: usize,
    /// The decoded payload.
    pub payload: Vec<u8>,
}

/// Verifies a compact JWS against a key set: the key is the one whose `kid` the token names.
pub fn verify(token: &str, jwks: &Jwks, profile: &Profile) -> Result<Verified, JwsError> {
    verify_selected(token, profile, |kid| {
        let kid = kid.ok_or(JwsError::UnknownKey(None))?;
        jwks.keys
            .iter()
            .enumerate()
            .find(|(_, key)| key.kid() == Some(kid))
            .ok_or_else(|| JwsError::UnknownKey(Some(kid.to_string())))
    })
}

/// Verifies a compact JWS with one key the caller pinned; a `kid` in the token must be the
/// key's. The verified token's `key_index` is 0.
pub fn verify_with_key(token: &str, jwk: &Jwk, profile: &Profile) -> Result<Verified, JwsError> {
    verify_selected(token, profile, |kid| match kid {
        Some(kid) if jwk.kid() != Some(kid) => Err(JwsError::UnknownKey(Some(kid.to_string()))),
        _ => Ok((0, jwk)),
    })
}

/// Verifies a compact JWS with the key `select` finds for the token's `kid`.
fn verify_selected<'k>(
    token: &str,
    profile: &Profile,
    select: impl FnOnce(Option<&str>) -> Result<(usize, &'k Jwk), JwsError>,
) -> Result<Verified, JwsError> {
    let parts: Vec<&str> = token.split('.').collect();
    let [header_b64, payload_b64, signature_b64] = parts[..] else {
        return Err(JwsError::Malformed(format!(
            "{} parts; a compact JWS has three",
            parts.len()
        )));
    };
    // Unpadded base64url writes n bytes in ceil(4n/3) characters.
    if header_b64.len() > (MAX_HEADER_BYTES * 4).div_ceil(3) {
        return Err(JwsError::Limit(Bound::HeaderBytes));
    }
    let header = object(&base64url_decode(header_b64, "header")?, "header")?;
    let alg = string_member(&header, "alg", "header")?.ok_or(JwsError::UnsupportedAlg(None))?;
    if alg.eq_ignore_ascii_case("none") {
        return Err(JwsError::AlgNone);
    }
    if !is_eddsa(alg) {
        return Err(JwsError::UnsupportedAlg(Some(alg.to_string())));
    }
    if let Some(crit) = header.get("crit") {
        let Value::Array(names) = crit else {
            return Err(JwsError::Critical(
                "must be an array of parameter names".into(),
            ));
        };
        if names.is_empty() {
            return Err(JwsError::Critical("must not be empty".into()));
        }
        let Some(Value::String(first)) = names.first() else {
            return Err(JwsError::Critical(
                "must list parameter names, as strings".into(),
            ));
        };
        let first = quoted(first);
        return Err(JwsError::Critical(format!(
            "{first} is an extension this verifier does not understand"
        )));
    }
    match header.get("b64") {
        None | Some(Value::Bool(true)) => {}
        Some(_) => return Err(JwsError::UnencodedPayload),
    }
    let typ = string_member(&header, "typ", "header")?;
    string_member(&header, "cty", "header")?;
    if let Some(want) = &profile.typ {
        let got = typ;
        if got != Some(want.as_str()) {
            return Err(JwsError::Typ {
                want: want.clone(),
                got: got.map(str::to_string),
            });
        }
    }
    let kid = string_member(&header, "kid", "header")?.map(str::to_string);
    let (key_index, jwk) = select(kid.as_deref())?;
    let key = jwk.ed25519_key(alg)?;
    let payload = base64url_decode(payload_b64, "payload")?;
    let signature = base64url_decode(signature_b64, "signature")?;
    let signing_input = format!("{header_b64}.{payload_b64}");
    match jwk.checked_key(&key) {
        Some(checked) => checked.verify(signing_input.as_bytes(), &signature),
        None => ed25519::verify(&key, signing_input.as_bytes(), &signature),
    }
    .map_err(JwsError::Signature)?;
    Ok(Verified {
        header,
        kid,
        key_index,
        payload,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64url_is_strict() {
        assert_eq!(base64url_decode("YQ", "p"), Ok(b"a".to_vec()));
        assert_eq!(base64url_decode("YWI", "p"), Ok(b"ab".to_vec()));
        assert_eq!(base64url_decode("", "p"), Ok(Vec::new()));
        for bad in ["YQ==", "Y Q", "YR", "a+b/", "Y"] {
            assert!(base64url_decode(bad, "p").is_err(), "{bad}");
        }
        for bytes in [&b""[..], b"f", b"fo", b"foo", b"\xff\xfe\xfd\x00"] {
            assert_eq!(
                base64url_decode(&base64url_encode(bytes), "p"),
                Ok(bytes.to_vec())
            );
        }
    }

    /// RFC 8037 A.2's public key, pinned.
    fn rfc_key() -> Jwk {
        Jwk::parse(RFC_KEY.as_bytes()).unwrap()
    }

    const RFC_KEY: &str =
        r#"{"kty":"OKP","crv":"Ed25519","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}"#;

    /// RFC 8037 A.4's token: no kid.
    const RFC_TOKEN: &str = "eyJhbGciOiJFZERTQSJ9.RXhhbXBsZSBvZiBFZDI1NTE5IHNpZ25pbmc.hgyY0il_MGCjP0JzlnLWG1PPOt7-09PGcvMg3AIbQR6dWbhijcNR4ki4iylGjg5BhVsPt9g7sVvpAr_MuM0KAg";

    /// verifiable-mcp v0.2.1's published key (test-vectors/v0.2.1.json) and a token of that
    /// set naming it (case positive_tools_json_arm).
    const MCP_KEY: &str = r#"{"kty":"OKP","crv":"Ed25519","x":"PNL-9wyKHnrinD7J6P3vVoy5_zSSxBvlKeBbQ7OGh8k","kid":"vDGVZHcIh5irseqRr1yIYo2IsyYckjLowPLc5VT5nP4","alg":"EdDSA","use":"sig"}"#;
    const MCP_TOKEN: &str = "eyJhbGciOiJFZERTQSIsImtpZCI6InZER1ZaSGNJaDVpcnNlcVJyMXlJWW8ySXN5WWNrakxvd1BMYzVWVDVuUDQiLCJ0eXAiOiJ2ZXJpZmlhYmxlLW1jcCtqd3MifQ.eyJjb250ZW50X2RpZ2VzdCI6InNoYTI1NjoyYTBiMTMyMzVjMzVhMTU2NjE4MzU0YWY3NTc3NDAyMGYzZTM0ZTRlNzAyODM5ODdiNGVjNmFiMWJjMDA0NzhhIiwiaWF0IjoxNzg3MzA4ODAwLCJwYXlsb2FkIjp7InF1ZXJ5IjoidGVzdCIsInJlc3VsdHMiOlt7InNuaXBwZXQiOiJUaGlzIGlzIHRoZSB0ZXN0IHZlY3RvciBkb2N1bWVudC4iLCJ0aXRsZSI6IlRlc3QgZG9jdW1lbnQiLCJ1cmwiOiJodHRwczovL2V4YW1wbGUub3JnL2RvYy8xIn1dLCJ0b3RhbCI6MX0sInBheWxvYWRfZGlnZXN0Ijoic2hhMjU2OjJhMGIxMzIzNWMzNWExNTY2MTgzNTRhZjc1Nzc0MDIwZjNlMzRlNGU3MDI4Mzk4N2I0ZWM2YWIxYmMwMDQ3OGEiLCJwcm92ZW5hbmNlIjp7ImNhbm9uaWNhbF9vcmlnaW4iOiJodHRwczovL2V4YW1wbGUub3JnIiwiY2Fub25pY2FsX3VybCI6Imh0dHBzOi8vZXhhbXBsZS5vcmcvZG9jLzEiLCJkYXRhc2V0X3ZlcnNpb24iOiJkMjAyNjA4MjEudGVzdCIsImxhc3RfdXBkYXRlZCI6IjIwMjYtMDgtMjEiLCJsZWdhbF9iYXNpcyI6IlRFU1QgdmVjdG9yIC0gbm8gcmlnaHRzIGNvbnZleWVkIiwic2VydmVyX29wZXJhdG9yIjoiRXhhbXBsZSBPcGVyYXRvciAoVEVTVCkifX0.YQwO77Ql7yw5bbPgzDrX1Ih1kDZPzxiF_HGoxH4tsCa9flrKD5cb90AF8iIcNTVX6FLyoqk__EqghTcxSCmgBw";

    fn set(keys: &[&str]) -> Result<Jwks, JwsError> {
        Jwks::parse(format!(r#"{{"keys":[{}]}}"#, keys.join(",")).as_bytes())
    }

    #[test]
    fn registered_header_parameters_must_have_their_types() {
        // RFC 7515 §4.1.9-4.1.10: typ and cty are strings, whatever the profile requires.
        for header in [
            r#"{"alg":"EdDSA","typ":1}"#,
            r#"{"alg":"EdDSA","cty":null}"#,
        ] {
            let token = format!("{}.e30.AA", base64url_encode(header.as_bytes()));
            let error = verify_with_key(&token, &rfc_key(), &Profile::default()).unwrap_err();
            assert_eq!(error.kind(), "shape", "{header}");
        }
    }

    #[test]
    fn keys_not_for_verifying_are_refused() {
        // RFC 7517 §4.3: key_ops must list "verify"; a private part does not belong here.
        for extra in [r#""key_ops":["sign"]"#, r#""d":"AA""#] {
            let key = format!(
                r#"{{"kty":"OKP","crv":"Ed25519","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo",{extra}}}"#
            );
            let key = Jwk::parse(key.as_bytes()).unwrap();
            assert!(verify_with_key(RFC_TOKEN, &rfc_key(), &Profile::default()).is_ok());
            let error = verify_with_key(RFC_TOKEN, &key, &Profile::default()).unwrap_err();
            assert_eq!(error.kind(), "key_mismatch", "{extra}");
        }
    }

    #[test]
    fn a_key_set_is_searched_by_kid_alone() {
        // A token without kid never falls back to a set's only (or first) key.
        let error = verify(RFC_TOKEN, &set(&[RFC_KEY]).unwrap(), &Profile::default()).unwrap_err();
        assert_eq!(error, JwsError::UnknownKey(None));
        // The kid picks its key wherever it stands in the set.
        let other = MCP_KEY.replace("vDGVZ", "other").replace("PNL-9", "11qYA");
        for keys in [[MCP_KEY, other.as_str()], [other.as_str(), MCP_KEY]] {
            let verified = verify(MCP_TOKEN, &set(&keys).unwrap(), &Profile::default()).unwrap();
            assert_eq!(keys.get(verified.key_index), Some(&MCP_KEY));
        }
        let error = verify(MCP_TOKEN, &set(&[&other]).unwrap(), &Profile::default()).unwrap_err();
        assert_eq!(error.kind(), "unknown_key");
    }

    #[test]
    fn two_keys_under_one_kid_are_refused() {
        let twin = MCP_KEY.replace("PNL-9", "11qYA");
        assert_eq!(
            set(&[MCP_KEY, &twin]).unwrap_err(),
            JwsError::DuplicateKid("vDGVZHcIh5irseqRr1yIYo2IsyYckjLowPLc5VT5nP4".into())
        );
        let mistyped = MCP_KEY.replace(
            "\"kid\":\"vDGVZHcIh5irseqRr1yIYo2IsyYckjLowPLc5VT5nP4\"",
            "\"kid\":7",
        );
        assert_eq!(set(&[&mistyped]).unwrap_err().kind(), "shape");
    }

    #[test]
    fn key_sets_are_bounded_by_keys_members_and_bytes() {
        let empty = |n: usize| vec!["{}"; n];
        assert_eq!(set(&empty(MAX_KEYS)).unwrap().keys.len(), MAX_KEYS);
        assert_eq!(set(&empty(MAX_KEYS + 1)), Err(JwsError::Limit(Bound::Keys)));
        // A set of a million empty keys is refused before a value is built for any.
        let million = format!(r#"{{"keys":[{}{MCP_KEY}]}}"#, "{},".repeat(349_000));
        assert_eq!(
            Jwks::parse(million.as_bytes()),
            Err(JwsError::Limit(Bound::Keys))
        );
        let members = |n: usize| {
            let extra: Vec<String> = (0..n).map(|i| format!(r#""p{i}":0"#)).collect();
            format!(r#"{{{}}}"#, extra.join(","))
        };
        assert!(set(&[&members(MAX_KEY_MEMBERS)]).is_ok());
        for too_many in [
            set(&[&members(MAX_KEY_MEMBERS + 1)]),
            Jwk::parse(members(MAX_KEY_MEMBERS + 1).as_bytes()).map(|_| Jwks { keys: Vec::new() }),
        ] {
            assert_eq!(too_many, Err(JwsError::Limit(Bound::KeyMembers)));
        }
        let long = format!(
            r#"{{"kty":"OKP","pad":"{}"}}"#,
            "a".repeat(MAX_KEY_SET_BYTES)
        );
        assert_eq!(set(&[&long]), Err(JwsError::Limit(Bound::KeySetBytes)));
        assert_eq!(
            Jwk::parse(long.as_bytes()),
            Err(JwsError::Limit(Bound::KeySetBytes))
        );
        // A key nested past what a key reader reads is refused, saying so.
        let deep = format!(
            r#"{{"kty":"OKP","ext":{}1{}}}"#,
            "[".repeat(200),
            "]".repeat(200)
        );
        let error = set(&[&deep]).unwrap_err().to_string();
        assert!(
            error.starts_with("keys[0] cannot be read as a JWK"),
            "{error}"
        );
        let error = set(&empty(MAX_KEYS + 1)).unwrap_err();
        assert_eq!(error.kind(), "limit");
        assert!(
            error.to_string().contains("more than 256 keys (MAX_KEYS)"),
            "{error}"
        );
    }

    #[test]
    fn a_header_longer_than_the_bound_is_refused_unread() {
        let header = |len: usize| {
            let pad = "a".repeat(len - r#"{"alg":"EdDSA","x":""}"#.len());
            base64url_encode(format!(r#"{{"alg":"EdDSA","x":"{pad}"}}"#).as_bytes())
        };
        let at_bound = format!("{}.e30.AA", header(MAX_HEADER_BYTES));
        let error = verify_with_key(&at_bound, &rfc_key(), &Profile::default()).unwrap_err();
        assert_eq!(error.kind(), "signature", "{error}");
        let past = format!("{}.e30.AA", header(MAX_HEADER_BYTES + 1));
        assert_eq!(
            verify_with_key(&past, &rfc_key(), &Profile::default()),
            Err(JwsError::Limit(Bound::HeaderBytes))
        );
    }

    #[test]
    fn errors_quote_what_a_token_chose_in_the_projects_words() {
        let token = |header: &str| format!("{}.e30.AA", base64url_encode(header.as_bytes()));
        let profile = Profile {
            typ: Some("verifiable-mcp+jws".into()),
        };
        let error = verify_with_key(
            &token(r#"{"alg":"EdDSA","typ":"JWT"}"#),
            &rfc_key(),
            &profile,
        );
        assert_eq!(
            error.unwrap_err().to_string(),
            r#"typ is "JWT", the profile requires "verifiable-mcp+jws""#
        );
        let error = verify_with_key(&token(r#"{"alg":"EdDSA"}"#), &rfc_key(), &profile);
        assert_eq!(
            error.unwrap_err().to_string(),
            r#"typ is absent, the profile requires "verifiable-mcp+jws""#
        );
        let alg = "E".repeat(20_000_000);
        let error = verify_with_key(
            &token(&format!(r#"{{"alg":"{alg}"}}"#)),
            &rfc_key(),
            &profile,
        );
        assert_eq!(error, Err(JwsError::Limit(Bound::HeaderBytes)));
        let kid = format!("\u{3164}{}", "k".repeat(60_000));
        let error = verify(
            &token(&format!(r#"{{"alg":"EdDSA","kid":"{kid}"}}"#)),
            &set(&[RFC_KEY]).unwrap(),
            &Profile::default(),
        )
        .unwrap_err()
        .to_string();
        assert!(error.len() < 300, "{error}");
        assert!(
            error.starts_with(r#"no key in the set has kid "\u{3164}kkk"#),
            "{error}"
        );
        assert!(error.contains("…\" (60003 bytes, sha256:"), "{error}");
    }

    #[test]
    fn a_pinned_key_must_be_the_one_a_kid_names() {
        let pinned = Jwk::parse(MCP_KEY.as_bytes()).unwrap();
        assert!(verify_with_key(MCP_TOKEN, &pinned, &Profile::default()).is_ok());
        let renamed = Jwk::parse(MCP_KEY.replace("vDGVZ", "other").as_bytes()).unwrap();
        let error = verify_with_key(MCP_TOKEN, &renamed, &Profile::default()).unwrap_err();
        assert_eq!(error.kind(), "unknown_key");
        assert!(verify_with_key(RFC_TOKEN, &rfc_key(), &Profile::default()).is_ok());
    }

    #[test]
    fn a_key_checked_once_answers_like_a_key_checked_each_time() {
        // RFC 8037 A.4's token, verified repeatedly with one key (checked on first use), and
        // after its x is replaced by RFC 8032 §7.1 TEST 2's key, which did not sign it: the
        // remembered check must not answer for the new key.
        let mut key = rfc_key();
        for _ in 0..3 {
            assert!(verify_with_key(RFC_TOKEN, &key, &Profile::default()).is_ok());
        }
        key.members.insert(
            "x".into(),
            "PUAXw-hDiVqStwqnTRt-vJyYLM8uxJaMwM1V8Sr0Zgw".into(),
        );
        let error = verify_with_key(RFC_TOKEN, &key, &Profile::default()).unwrap_err();
        assert_eq!(error.kind(), "signature");
        assert!(error.to_string().contains("does not verify"), "{error}");
    }
}
