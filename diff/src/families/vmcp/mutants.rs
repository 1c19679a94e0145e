//! verifiable-mcp mutants: the holes the family was built to find, planted back — a verifier
//! blind to unsigned members and JSON-RPC shapes, to what the response serves beside the
//! signed payload, to the clock, or falling back to the first key of the set — and two that
//! refuse too much: the v0.1 siblings SPEC §9 keeps as furniture, and responses nested past
//! serde_json's 128 levels, and numbers written with an uppercase `E`, which its comparator does
//! not read — and one that reads numbers as doubles, so a served number that only rounds to the
//! signed one, or an id written as `7.0`, passes.

use canonfuzz_core::jws::{base64url_decode, Jwks};
use canonfuzz_core::vmcp::{self, served_parts, verify_served, Clock, Rule};

use crate::families::vmcp::gen::VmcpCase;
use crate::families::vmcp::impls::outcome;
use crate::mutants::Mutant;
use crate::outcome::Outcome;

/// The core with the `blind` rules dropped from its verdict, and the clock stopped at zero if
/// `clockless`.
fn blind_to(input: &[u8], blind: &[Rule], clockless: bool) -> Outcome {
    let Some(case) = VmcpCase::parse(input) else {
        return Outcome::Unsupported;
    };
    let Ok(jwks) = Jwks::parse(case.jwks.to_string().as_bytes()) else {
        return Outcome::Rejected(Rule::Jws.name().to_string());
    };
    let served = match served_parts(case.response.as_bytes()) {
        Ok(served) => served,
        Err(failure) => return Outcome::Rejected(failure.rule.name().to_string()),
    };
    let now = if clockless { 0 } else { case.now };
    let mut verdict = verify_served(&served, &jwks, Clock::at(now));
    verdict.failures.retain(|f| !blind.contains(&f.rule));
    outcome(verdict)
}

/// The kid in the header of the JWS a response carries.
fn token_kid(response: &str) -> Option<String> {
    let r: serde_json::Value = serde_json::from_str(response).ok()?;
    let holder = r.pointer("/result/_meta").or(r.pointer("/error/data"))?;
    let jws = holder.get(vmcp::META_KEY)?.get("jws")?.as_str()?;
    let header = base64url_decode(jws.split('.').next()?, "header").ok()?;
    let header: serde_json::Value = serde_json::from_slice(&header).ok()?;
    header.get("kid")?.as_str().map(str::to_string)
}

/// The response of a case, read as serde_json reads it within its nesting limit.
fn response(input: &[u8]) -> Option<serde_json::Value> {
    serde_json::from_str(&VmcpCase::parse(input)?.response).ok()
}

/// Whether the response writes a number with an uppercase `E`, outside its strings.
fn uppercase_exponent(input: &[u8]) -> bool {
    let Some(case) = VmcpCase::parse(input) else {
        return false;
    };
    let (mut in_string, mut escaped, mut in_number) = (false, false, false);
    for c in case.response.chars() {
        match (in_string, escaped, c) {
            (true, true, _) => escaped = false,
            (true, false, '\\') => escaped = true,
            (_, false, '"') => in_string = !in_string,
            (false, _, 'E') if in_number => return true,
            (false, _, c) => in_number = c.is_ascii_digit() || (in_number && "+-.eE".contains(c)),
            _ => {}
        }
    }
    false
}

/// The core's answer, refused as `rule` where it accepts and `refused` holds for the case.
fn refuses(input: &[u8], rule: Rule, refused: fn(&[u8]) -> bool) -> Outcome {
    match (super::impls::core().answer)(input) {
        Outcome::Ok(_) if refused(input) => Outcome::Rejected(rule.name().to_string()),
        other => other,
    }
}

/// Every verifiable-mcp mutant.
pub const MUTANTS: [Mutant; 8] = [
    Mutant {
        family: super::FAMILY,
        name: "unsigned-members-unchecked",
        bug: "members outside the signed payload and JSON-RPC shapes SPEC §5 forbids go unchecked",
        answer: |input| blind_to(input, &[Rule::UnsignedMember, Rule::ResponseShape], false),
    },
    Mutant {
        family: super::FAMILY,
        name: "served-payload-unchecked",
        bug: "isError and the served content never compared with the signed payload",
        answer: |input| blind_to(input, &[Rule::ServedPayload], false),
    },
    Mutant {
        family: super::FAMILY,
        name: "no-clock",
        bug: "iat, nbf and exp never held to a clock",
        answer: |input| blind_to(input, &[Rule::Freshness], true),
    },
    Mutant {
        family: super::FAMILY,
        name: "first-key-fallback",
        bug: "a kid no key has answered with the first key of the set",
        answer: |input| {
            let Some(mut case) = VmcpCase::parse(input) else {
                return Outcome::Unsupported;
            };
            let keys = case.jwks.get_mut("keys").and_then(|k| k.as_array_mut());
            if let (Some(kid), Some(keys)) = (token_kid(&case.response), keys) {
                if !keys.iter().any(|k| k["kid"] == kid.as_str()) {
                    keys.truncate(1);
                    if let Some(first) = keys.first_mut() {
                        first["kid"] = kid.into();
                    }
                }
            }
            blind_to(&case.encode(), &[], false)
        },
    },
    Mutant {
        family: super::FAMILY,
        name: "v01-sibling-refused",
        bug: "a result carrying the deprecated v0.1 signature or provenance sibling refused as an unsigned member, where SPEC §9 keeps them as furniture",
        answer: |input| {
            refuses(input, Rule::UnsignedMember, |input| {
                response(input).is_some_and(|r| {
                    let result = r.get("result").unwrap_or(&r);
                    result.get("signature").is_some() || result.get("provenance").is_some()
                })
            })
        },
    },
    Mutant {
        family: super::FAMILY,
        name: "shallow-response-reader",
        bug: "a response read by serde_json's default reader, so one nested past 128 levels is refused as no envelope",
        answer: |input| {
            refuses(input, Rule::Envelope, |input| {
                VmcpCase::parse(input).is_some_and(|c| {
                    canonfuzz_props::read::for_judgment::nesting(c.response.as_bytes()) > 128
                })
            })
        },
    },
    Mutant {
        family: super::FAMILY,
        name: "numbers-as-doubles",
        bug: "the response read as its canonical form, so served numbers compare as the doubles they round to and an id or code written 7.0 reads as 7",
        answer: |input| {
            let Some(mut case) = VmcpCase::parse(input) else {
                return Outcome::Unsupported;
            };
            if let Ok(rounded) = canonfuzz_core::jcs::canonicalize(case.response.as_bytes()) {
                case.response = String::from_utf8_lossy(&rounded).into_owned();
            }
            blind_to(&case.encode(), &[], false)
        },
    },
    Mutant {
        family: super::FAMILY,
        name: "uppercase-exponent-unread",
        bug: "a served number written with an uppercase E (1E2) not read by the comparator, so a genuine response is refused as serving what was not signed",
        answer: |input| refuses(input, Rule::ServedPayload, uppercase_exponent),
    },
];
