//! JWS mutants: the core decoding base64url with padding, ignoring `crit` or `typ`, or finding
//! a token's key by a prefix of its kid.

use canonfuzz_core::ed25519;
use canonfuzz_core::jws::base64url_decode;

use super::impls as verifiers;
use crate::families::jws::gen::JwsCase;
use crate::mutants::Mutant;
use crate::outcome::Outcome;

fn core(input: &[u8]) -> Outcome {
    (verifiers::core().answer)(input)
}

/// The token's signature checked with the case's key and nothing else: what a verifier that
/// skips a header check answers.
fn signature_only(input: &[u8]) -> Option<Outcome> {
    let case = JwsCase::parse(input)?;
    let mut parts = case.token.split('.');
    let (header, payload, signature) = (parts.next()?, parts.next()?, parts.next()?);
    let key = base64url_decode(case.jwk.get("x")?.as_str()?, "x").ok()?;
    let sig = base64url_decode(signature, "signature").ok()?;
    let signed = format!("{header}.{payload}");
    ed25519::verify(&key, signed.as_bytes(), &sig).ok()?;
    Some(Outcome::Ok(base64url_decode(payload, "payload").ok()?))
}

/// The core's answer, except that where it refuses with `kind` and `skipped` holds for the
/// token's header, the signature alone decides.
fn skips(input: &[u8], kind: &str, skipped: fn(&serde_json::Value) -> bool) -> Outcome {
    match core(input) {
        Outcome::Rejected(k) if k == kind && header(input).is_some_and(|h| skipped(&h)) => {
            signature_only(input).unwrap_or(Outcome::Rejected(k))
        }
        other => other,
    }
}

/// The token's header, decoded.
fn header(input: &[u8]) -> Option<serde_json::Value> {
    let case = JwsCase::parse(input)?;
    let bytes = base64url_decode(case.token.split('.').next()?, "header").ok()?;
    serde_json::from_slice(&bytes).ok()
}

/// The case with the key given the token's kid, when the key's kid begins with it: what a key
/// lookup that matches kids by prefix finds.
fn key_found_by_prefix(input: &[u8]) -> Option<Vec<u8>> {
    let mut case = JwsCase::parse(input)?;
    let kid = header(input)?.get("kid")?.as_str()?.to_string();
    let key_kid = case.jwk.get("kid")?.as_str()?;
    if kid == key_kid || !key_kid.starts_with(&kid) {
        return None;
    }
    case.jwk["kid"] = kid.into();
    Some(case.encode())
}

/// Every JWS mutant.
pub const MUTANTS: [Mutant; 4] = [
    Mutant {
        family: super::FAMILY,
        name: "padding-accepted",
        bug: "base64url segments with = padding decoded, not refused",
        answer: |input| {
            let Some(mut case) = JwsCase::parse(input) else {
                return Outcome::Unsupported;
            };
            case.token = case
                .token
                .split('.')
                .map(|s| s.trim_end_matches('='))
                .collect::<Vec<_>>()
                .join(".");
            core(&case.encode())
        },
    },
    Mutant {
        family: super::FAMILY,
        name: "crit-ignored",
        bug:
            "the crit header parameter ignored, so extensions the verifier does not understand pass",
        answer: |input| skips(input, "crit", |h| h.get("crit").is_some()),
    },
    Mutant {
        family: super::FAMILY,
        name: "typ-ignored",
        bug: "the typ header parameter never read, so a typ that is not a string passes",
        answer: |input| {
            skips(input, "shape", |h| {
                h.get("typ").is_some_and(|t| !t.is_string())
            })
        },
    },
    Mutant {
        family: super::FAMILY,
        name: "kid-prefix-match",
        bug: "a token's key found by kid prefix, so a kid that only begins the key's kid (\"\", \"k\") selects it",
        answer: |input| match key_found_by_prefix(input) {
            Some(found) => core(&found),
            None => core(input),
        },
    },
];
