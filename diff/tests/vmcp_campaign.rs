//! The verifiable-mcp family turns red on a verifier that checks less than its client reads:
//! cores with the holes this family was built to find planted back in, run against the Node and
//! Python verifiers on generated responses, are each caught diverging.

mod common;

use canonfuzz_core::jws::Jwks;
use canonfuzz_core::vmcp::{self, served_parts, verify_served, Clock, Rule};
use canonfuzz_diff::family::Family;
use canonfuzz_diff::gen::vmcp::VmcpCase;
use canonfuzz_diff::impls::in_process::InProcess;
use canonfuzz_diff::impls::{self, Implementation};
use canonfuzz_diff::outcome::Outcome;

/// The core with `blind` rules dropped from its verdict, and the clock stopped at zero.
fn planted(input: &[u8], blind: &[Rule], clockless: bool) -> Outcome {
    let Some(case) = VmcpCase::parse(input) else {
        return Outcome::Unsupported;
    };
    let Ok(jwks) = Jwks::parse(case.jwks.to_string().as_bytes()) else {
        return Outcome::Rejected("jws".into());
    };
    let Ok(served) = served_parts(case.response.as_bytes()) else {
        return Outcome::Rejected("envelope".into());
    };
    let now = if clockless { 0 } else { case.now };
    let mut verdict = verify_served(&served, &jwks, Clock::at(now));
    verdict.failures.retain(|f| !blind.contains(&f.rule));
    match (verdict.failures.first(), verdict.payload) {
        (None, Some(payload)) => Outcome::Ok(payload),
        (Some(f), _) => Outcome::Rejected(f.rule.name().to_string()),
        (None, None) => Outcome::Rejected("wrapper_shape".into()),
    }
}

fn mutant(answer: fn(&[u8]) -> Outcome) -> Box<dyn Implementation> {
    Box::new(InProcess::core(answer))
}

fn diverging_cases(core: Box<dyn Implementation>) -> usize {
    common::diverging(Family::Vmcp, core, 11, 600)
}

#[test]
fn the_core_itself_does_not_diverge() {
    assert_eq!(diverging_cases(impls::vmcp().remove(0)), 0);
}

#[test]
fn a_core_blind_to_unsigned_members_and_json_rpc_shapes_diverges() {
    let blind = mutant(|input| planted(input, &[Rule::UnsignedMember, Rule::ResponseShape], false));
    assert!(diverging_cases(blind) > 0);
}

#[test]
fn a_core_blind_to_is_error_and_served_payloads_diverges() {
    let blind = mutant(|input| planted(input, &[Rule::ServedPayload], false));
    assert!(diverging_cases(blind) > 0);
}

#[test]
fn a_core_without_a_clock_diverges() {
    let clockless = mutant(|input| planted(input, &[Rule::Freshness], true));
    assert!(diverging_cases(clockless) > 0);
}

/// The kid in the header of the JWS a response carries.
fn token_kid(response: &str) -> Option<String> {
    let r: serde_json::Value = serde_json::from_str(response).ok()?;
    let holder = r.pointer("/result/_meta").or(r.pointer("/error/data"))?;
    let jws = holder.get(vmcp::META_KEY)?.get("jws")?.as_str()?;
    let header = canonfuzz_core::jws::base64url_decode(jws.split('.').next()?, "header").ok()?;
    let header: serde_json::Value = serde_json::from_slice(&header).ok()?;
    header.get("kid")?.as_str().map(str::to_string)
}

#[test]
fn a_core_that_falls_back_to_the_first_key_diverges() {
    let fallback = mutant(|input| {
        let Some(mut case) = VmcpCase::parse(input) else {
            return Outcome::Unsupported;
        };
        // The planted bug: a kid no key has is answered with the first key of the set.
        if let (Some(kid), Some(keys)) =
            (token_kid(&case.response), case.jwks["keys"].as_array_mut())
        {
            if !keys.iter().any(|k| k["kid"] == kid.as_str()) {
                keys.truncate(1);
                keys[0]["kid"] = kid.into();
            }
        }
        planted(&case.encode(), &[], false)
    });
    assert!(diverging_cases(fallback) > 0);
}
