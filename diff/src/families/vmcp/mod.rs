//! verifiable-mcp responses (`canonfuzz_vmcp_v1`): the core's response verifier against the
//! Node and Python verifiers, on genuine signed responses and ones whose members, keys, times
//! and depth are bent.

pub mod envelopes;
pub mod fuzz;
pub mod gen;
pub mod impls;
pub mod judge;
pub mod mutants;
pub mod policies;
pub mod published;

use canonfuzz_core::jws::Jwks;
use canonfuzz_core::vmcp;

use crate::compare::Rules;
use crate::family::{Category, CheckTest, Facts, Family, PublishedFile, Spec, Vectors};
use crate::impls::Implementation;
use crate::mutants::Mutant;
use crate::outcome::Outcome;
use crate::replay::Replay;
use crate::vector::{excerpt, Expectation, Head, Test};
use crate::vector::{stated_kind, stated_output};
use crate::workers;
use gen::VmcpCase;

/// verifiable-mcp response verification.
pub struct Vmcp;

/// The schema name of verifiable-mcp response vector files.
pub const SCHEMA: &str = "canonfuzz_vmcp_v1";

/// The family, as registered.
pub const FAMILY: Family = Family::new(&Vmcp);

/// The family's constant facts.
const FACTS: Facts = Facts {
    name: "vmcp",
    title: "verifiable-mcp response verifiers",
    schema: SCHEMA,
    vector_kind: ("verifiable-mcp", "VmcpVerify"),
    categories: &gen::CATEGORIES,
    fields: &gen::FIELDS,
    reference_reason: "the Node verifier's answer, built on npm jose, the JOSE library with the widest conformance suite",
    shares_with_core: &[],
    sample_percent: 10,
    nightly_weight: 10,
    nightly_rate: 400,
    decisions: &["accepted", "envelope", "response_shape", "unsigned_member", "jws", "canonical_wrapper", "wrapper_shape", "payload_digest", "content_digest", "served_payload", "freshness"],
};

impl Spec for Vmcp {
    fn fuzzing(&self) -> Option<&'static crate::fuzz_target::Fuzzing> {
        Some(&fuzz::FUZZING)
    }

    fn importers(&self) -> &'static [crate::importer::Importer] {
        envelopes::IMPORTERS
    }

    fn facts(&self) -> &'static Facts {
        &FACTS
    }

    fn generate(&self, seed: u64, index: u64) -> (Category, Vec<u8>) {
        gen::case(seed, index)
    }

    fn implementations(&self) -> Vec<Box<dyn Implementation>> {
        vec![
            Box::new(impls::core()),
            Box::new(judge::JUDGE),
            Box::new(workers::node(FACTS.name, "node-vmcp", "vmcp", "node-v8").pinned_as("jose")),
            Box::new(
                workers::python(FACTS.name, "python-vmcp", "vmcp", "cpython").pinned_as("pynacl"),
            ),
        ]
    }

    fn rules(&self) -> Rules {
        Rules {
            family: "vmcp",
            policies: &policies::POLICIES,
            reference_group: "node-v8",
        }
    }

    fn test_for(&self, head: Head, input: &[u8], want: &Outcome) -> Option<Test> {
        let case = VmcpCase::parse(input)?;
        let test = VmcpTest {
            input: Some(case.response),
            expected: stated_output(want)?,
            jwks: Some(case.jwks),
            now: Some(case.now),
            error_kind: stated_kind(want).filter(|k| vmcp::Rule::from_name(k).is_some()),
            ..VmcpTest::from_head(head)
        };
        Test::new(&test).ok()
    }

    fn selftest_budget(&self) -> u64 {
        3_000
    }

    fn vectors(&self) -> &dyn CheckTest {
        self
    }

    /// A response with its key set and clock; one held to a freshness window states no
    /// campaign input, whose clock has none.
    fn replay(&self, test: &Test) -> Option<Replay> {
        let test: VmcpTest = test.read().ok()?;
        if test.max_age.is_some() {
            return None;
        }
        let response = match (&test.input, &test.response) {
            (Some(text), _) => text.clone(),
            (None, Some(value)) => value.to_string(),
            (None, None) => return None,
        };
        let case = VmcpCase {
            jwks: test.jwks.clone()?,
            now: test.now?,
            response,
        };
        Some(Replay {
            input: case.encode(),
            result: test.result,
            output: test.expected.map(String::into_bytes),
            error_kind: None,
        })
    }

    fn mutants(&self) -> &'static [Mutant] {
        &mutants::MUTANTS
    }

    fn published(&self, bytes: &[u8]) -> Option<Box<dyn PublishedFile>> {
        published::VmcpVectors::parse(bytes).map(|v| Box::new(v) as Box<dyn PublishedFile>)
    }

    fn published_schemas(&self) -> &'static [&'static str] {
        &[published::PUBLISHED_SCHEMA]
    }
}

canonfuzz_engine::vector_test! {
    /// One verifiable-mcp response, the key set and clock it is verified with, and the rules
    /// it breaks.
    pub struct VmcpTest {
        /// The response's exact text (or give `response`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub input: Option<String>,
        /// The payload a valid response carries.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub expected: Option<String>,
    } then {
        /// A rule the response breaks.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub error_kind: Option<String>,
        /// The key set the response's `kid` is looked up in.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub jwks: Option<serde_json::Value>,
        /// The whole response as a JSON value (or give `input`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub response: Option<serde_json::Value>,
        /// The current time for the freshness check.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub now: Option<u64>,
        /// The freshness window, seconds.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub max_age: Option<u64>,
        /// The rules an invalid response breaks, by name.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pub failed_rules: Vec<String>,
        /// Where the verdict lists what the signature does not cover (`result._meta`,
        /// `kind`...), when the test states it: exactly these places, in order.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub unsigned: Option<Vec<String>>,
    }
}

impl Vectors for Vmcp {
    type Test = VmcpTest;

    fn lint(&self, test: &VmcpTest) -> Vec<String> {
        let mut problems = Vec::new();
        if test.response.is_some() == test.input.is_some() || test.jwks.is_none() {
            problems.push("a verifiable-mcp test needs `jwks` and either `response` (a JSON value) or `input` (its exact text)".to_string());
        }
        if test.now.is_none() {
            problems.push(
                "a verifiable-mcp test needs `now`, the clock its times are held to".to_string(),
            );
        }
        if test.result == Expectation::Valid && !test.failed_rules.is_empty() {
            problems.push("a valid verifiable-mcp test names no failedRules".to_string());
        }
        let rules = test.failed_rules.iter().chain(&test.error_kind);
        for rule in rules.filter(|r| vmcp::Rule::from_name(r).is_none()) {
            problems.push(format!("{rule:?} is not a verifiable-mcp rule"));
        }
        problems
    }

    fn check(&self, test: &VmcpTest) -> Result<(), String> {
        check(test)
    }
}

/// Runs one verifiable-mcp test: valid, or failing exactly the named rules.
fn check(test: &VmcpTest) -> Result<(), String> {
    let comment = crate::escape::terminal(&test.comment);
    let jwks = test
        .jwks
        .as_ref()
        .map(|v| v.to_string())
        .unwrap_or_default();
    let response = match &test.input {
        Some(text) => text.clone().into_bytes(),
        None => serde_json::to_vec(&test.response).map_err(|e| e.to_string())?,
    };
    let now = test
        .now
        .ok_or_else(|| format!("{comment}: a verifiable-mcp test needs `now`"))?;
    let clock = vmcp::Clock {
        now,
        max_age: test.max_age,
    };
    let verdict = match Jwks::parse(jwks.as_bytes()) {
        Ok(jwks) => vmcp::verify_response(&response, &jwks, clock),
        // A key set no key can be taken from verifies no signature: the JWS rule fails, as the
        // campaign's adapter of the core answers.
        Err(e) => vmcp::Verification {
            failures: vec![vmcp::Failure {
                rule: vmcp::Rule::Jws,
                message: format!("the key set is unusable: {e}"),
            }],
            ..vmcp::Verification::default()
        },
    };
    let mut got: Vec<&str> = verdict.failures.iter().map(|f| f.rule.name()).collect();
    got.sort_unstable();
    got.dedup();
    let mut want: Vec<&str> = test.failed_rules.iter().map(String::as_str).collect();
    want.sort_unstable();
    let details = || -> Vec<String> {
        verdict
            .failures
            .iter()
            .map(|f| format!("{}: {}", f.rule.name(), f.message))
            .collect()
    };
    let holds = match test.result {
        Expectation::Valid => got.is_empty(),
        _ if !want.is_empty() => got == want,
        _ => match &test.error_kind {
            Some(kind) => got.contains(&kind.as_str()),
            None => !got.is_empty(),
        },
    };
    if !holds {
        let want = match (&test.result, want.is_empty(), &test.error_kind) {
            (Expectation::Valid, ..) => "valid".to_string(),
            (_, false, _) => format!("failed rules {want:?}"),
            (_, true, Some(kind)) => format!("a failed rule {kind:?}"),
            _ => "invalid".to_string(),
        };
        return Err(format!(
            "{comment}\n    expected: {want}\n    got:      {got:?} {:?}",
            details()
        ));
    }
    let listed: Vec<&str> = verdict.unsigned.iter().map(|u| u.place.as_str()).collect();
    if let Some(want) = test.unsigned.as_ref().filter(|want| **want != listed) {
        return Err(format!(
            "{comment}\n    expected unsigned: {want:?}\n    got:               {listed:?}"
        ));
    }
    match (&test.expected, &verdict.payload) {
        (Some(want), Some(payload)) if want.as_bytes() != payload.as_slice() => Err(format!(
            "{comment}\n    expected payload: {}\n    got:              {}",
            excerpt(want.as_bytes()),
            excerpt(payload)
        )),
        _ => Ok(()),
    }
}
