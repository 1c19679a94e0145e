//! No case's verdict is folded into another's. Each core here once diverged on cases whose
//! answers equal those of an earlier policy or third-party case, and a campaign that grouped
//! findings by the answers alone kept the earlier case's verdict and exited 0. Planted in the
//! core's place in a campaign of the default size, each must turn it red (exit 1), with every
//! diverging case counted in a finding of its own verdict. A verifiable-mcp response nested
//! past serde_json's 128 levels is judged by the policy whose reason holds, read whole; and a
//! predicate that cannot read it leaves the case unjudged, never "does not apply".

mod common;

use common::{canonfuzz, text};

use canonfuzz_diff::campaign::Harness;
use canonfuzz_diff::compare::{Policy, Rules, Verdict};
use canonfuzz_diff::families::vmcp;
use canonfuzz_props::read::for_judgment::Unreadable;

/// Runs a default-size campaign of `family` with `mutant` planted, and checks it is red and
/// that its findings account for every diverging case.
fn red_at_default_size(family: &str, mutant: &str) {
    let out = canonfuzz(
        &[
            "diff",
            "--family",
            family,
            "--plant",
            mutant,
            "-q",
            "--summary-json",
            "-",
        ],
        b"",
    );
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{family} {mutant}: {stderr}");
    let summary: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(summary["cases"], 100_000, "{family} {mutant}");
    assert_eq!(summary["planted"], mutant);
    assert_eq!(summary["status"], "core_diverges");
    let diverging = summary["verdicts"]["core_diverges"].as_u64().unwrap_or(0);
    assert!(diverging > 0, "{family} {mutant}: {}", summary["verdicts"]);
    // Every verdict's cases are its findings' cases, and no others.
    for (verdict, cases) in summary["verdicts"].as_object().unwrap() {
        if verdict == "agree" {
            continue;
        }
        let in_findings: u64 = summary["findings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["verdict"] == verdict.as_str())
            .map(|f| f["cases"].as_u64().unwrap())
            .sum();
        assert_eq!(
            Some(in_findings),
            cases.as_u64(),
            "{family} {mutant} {verdict}"
        );
    }
    assert!(stderr.contains("where the core diverges"), "{stderr}");
}

#[test]
fn a_key_lookup_by_kid_prefix_is_not_folded_into_the_kid_policy() {
    red_at_default_size("jws", "kid-prefix-match");
}

#[test]
fn a_refused_v0_1_sibling_is_not_folded_into_the_text_arm_policy() {
    red_at_default_size("vmcp", "v01-sibling-refused");
}

#[test]
fn a_refused_largest_safe_integer_is_not_folded_into_the_profile_policy() {
    red_at_default_size("ink", "largest-safe-integer-refused");
}

#[test]
fn a_shallow_value_reader_is_not_folded_into_the_i_json_policy() {
    red_at_default_size("ekl", "shallow-value-reader");
}

/// Case 35442 of the default verifiable-mcp campaign (seed 1) as the generator made it before
/// it learned key and wrapper variants: a genuine signed tools/call response whose payload
/// nests 130 levels, served with a second, unsigned text arm. A predicate reading it with
/// serde_json's 128-level limit found nothing, and the case diverged.
fn deep_case() -> Vec<u8> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/vmcp-deep-second-arm.json"
    );
    let mut case = std::fs::read(path).unwrap();
    case.pop();
    case
}

/// The verifiable-mcp policies, with `one-text-arm`'s predicate reading the response as
/// serde_json's default reader does, failing where that reader stops.
static NARROW: [Policy; 4] = [
    Policy {
        applies: |input| {
            let case = vmcp::gen::VmcpCase::parse(input).ok_or(Unreadable("no case".into()))?;
            canonfuzz_core::json::read(case.response.as_bytes())
                .map_err(|e| Unreadable(e.to_string()))?;
            vmcp::gen::content_beyond_text_arm(input)
        },
        ..vmcp::policies::POLICIES[0]
    },
    vmcp::policies::POLICIES[1],
    vmcp::policies::POLICIES[2],
    vmcp::policies::POLICIES[3],
];

#[test]
fn a_response_past_serde_json_s_depth_is_judged_by_the_policy_whose_reason_holds() {
    let input = deep_case();
    let response = vmcp::gen::VmcpCase::parse(&input).unwrap().response;
    assert_eq!(
        canonfuzz_props::read::for_judgment::nesting(response.as_bytes()),
        130
    );
    let (harness, missing) = Harness::new(vmcp::FAMILY, &[]).unwrap();
    assert!(missing.is_empty(), "{missing:?}");
    let (outcomes, evaluation) = harness.run(&[&input]).remove(0);
    assert!(
        matches!(evaluation.verdict, Verdict::Policy(p) if p.id == "one-text-arm"),
        "{}",
        evaluation.signature
    );
    // A predicate that cannot read the response leaves the case unjudged: red, not green.
    let narrow = Rules {
        policies: &NARROW,
        ..vmcp::FAMILY.rules()
    };
    let judged = canonfuzz_props::verdict::evaluate(&narrow, &input, harness.members(), &outcomes);
    assert!(
        matches!(judged.verdict, Verdict::Unjudged(p) if p.id == "one-text-arm"),
        "{:?}",
        judged.verdict
    );
}
