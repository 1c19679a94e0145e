//! ekl (`canonfuzz_ekl_v1`): salted fingerprints of values and tool results,
//! and endpoint challenge proofs, from the core against the Python and Node implementations.

pub mod fuzz;
pub mod gen;
pub mod impls;
pub mod import;
pub mod judge;
pub mod mutants;
pub mod policies;

use canonfuzz_core::ekl;

use crate::compare::Rules;
use crate::family::{Category, CheckTest, Facts, Family, Spec, Vectors};
use crate::impls::Implementation;
use crate::mutants::Mutant;
use crate::outcome::Outcome;
use crate::replay::Replay;
use crate::vector::{stated_kind, stated_output};
use crate::vector::{Expectation, Head, Test};
use crate::workers;

/// ekl's fingerprints and challenge proofs.
pub struct Ekl;

/// The schema name of ekl (fingerprint and challenge proof) vector files.
pub const SCHEMA: &str = "canonfuzz_ekl_v1";

/// The family, as registered.
pub const FAMILY: Family = Family::new(&Ekl);

/// The family's constant facts.
const FACTS: Facts = Facts {
    name: "ekl",
    title: "salted fingerprints and endpoint challenge proofs",
    schema: SCHEMA,
    vector_kind: ("EKL", "EklFinding"),
    categories: &gen::CATEGORIES,
    fields: &gen::FIELDS,
    reference_reason: "V8's answer, as RFC 8785 defers to ECMAScript",
    shares_with_core: &[],
    sample_percent: 25,
    nightly_weight: 10,
    nightly_rate: 10000,
    decisions: &[
        "accepted",
        "salt",
        "json",
        "not_an_object",
        "no_body",
        "content_not_array",
        "challenge",
        "proof_format",
        "proof_mismatch",
    ],
};

impl Spec for Ekl {
    fn fuzzing(&self) -> Option<&'static crate::fuzz_target::Fuzzing> {
        Some(&fuzz::FUZZING)
    }

    fn importers(&self) -> &'static [crate::importer::Importer] {
        import::IMPORTERS
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
            Box::new(
                workers::python(FACTS.name, "python-ekl", "ekl", "cpython").pinned_as("rfc8785"),
            ),
            Box::new(
                workers::node(FACTS.name, "node-ekl", "ekl", "node-v8").pinned_as("canonicalize"),
            ),
        ]
    }

    fn rules(&self) -> Rules {
        Rules {
            family: "ekl",
            policies: &policies::POLICIES,
            reference_group: "node-v8",
        }
    }

    fn test_for(&self, head: Head, input: &[u8], want: &Outcome) -> Option<Test> {
        let case: serde_json::Value = serde_json::from_slice(input).ok()?;
        let text = |name: &str| {
            case.get(name)
                .and_then(serde_json::Value::as_str)
                .map(str::to_string)
        };
        let mut test = EklTest {
            expected: stated_output(want)?,
            error_kind: stated_kind(want),
            ..EklTest::from_head(head)
        };
        match text("op")?.as_str() {
            "challenge" => {
                test.credential = text("credential");
                test.challenge = text("challenge");
                test.endpoint = text("endpoint");
            }
            "verify" => {
                test.credential = text("credential");
                test.challenge = text("challenge");
                test.endpoint = text("endpoint");
                test.proof = text("proof");
                // A proof that verifies is its own expectation.
                test.expected = None;
            }
            "fingerprint" => {
                test.salt = text("salt");
                test.input = text("value");
            }
            _ => {
                test.salt = text("salt");
                test.input = text("result");
                // The body the profile's rule names, read by serde_json, not by the core.
                let result: serde_json::Value =
                    serde_json::from_str(test.input.as_deref()?).ok()?;
                let inner = if result.get("structuredContent").is_none()
                    && result.get("content").is_none()
                {
                    result.get("result").cloned().unwrap_or(result)
                } else {
                    result
                };
                let structured = inner.get("structuredContent").is_some_and(|v| !v.is_null());
                test.result_body = Some(
                    if structured {
                        "structuredContent"
                    } else {
                        "content"
                    }
                    .to_string(),
                );
            }
        }
        Test::new(&test).ok()
    }

    fn vectors(&self) -> &dyn CheckTest {
        self
    }

    /// A fingerprint or a proof to compute, or a proof to check.
    fn replay(&self, test: &Test) -> Option<Replay> {
        let test: EklTest = test.read().ok()?;
        let verified = (test.result == Expectation::Valid).then(|| b"valid".to_vec());
        let output = match &test.proof {
            Some(_) => verified,
            None => test.expected.clone().map(String::into_bytes),
        };
        let case = match (&test.salt, &test.input, &test.credential, &test.proof) {
            (Some(salt), Some(input), _, _) if test.result_body.is_some() => {
                serde_json::json!({"op": "result", "salt": salt, "result": input})
            }
            (Some(salt), Some(input), _, _) => {
                serde_json::json!({"op": "fingerprint", "salt": salt, "value": input})
            }
            (_, _, Some(credential), None) => serde_json::json!({
                "op": "challenge",
                "credential": credential,
                "challenge": test.challenge,
                "endpoint": test.endpoint,
            }),
            (_, _, Some(credential), Some(proof)) => serde_json::json!({
                "op": "verify",
                "credential": credential,
                "challenge": test.challenge,
                "endpoint": test.endpoint,
                "proof": proof,
            }),
            _ => return None,
        };
        Some(Replay {
            input: case.to_string().into_bytes(),
            result: test.result,
            output,
            error_kind: None,
        })
    }

    fn mutants(&self) -> &'static [Mutant] {
        &mutants::MUTANTS
    }
}

canonfuzz_engine::vector_test! {
    /// One ekl computation: a salted fingerprint of a value or a tool result, or
    /// an endpoint challenge proof.
    pub struct EklTest {
        /// The value or tool result a fingerprint is of.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub input: Option<String>,
        /// The fingerprint or proof a correct implementation computes.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub expected: Option<String>,
    } then {
        /// The error kind of a rejection.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub error_kind: Option<String>,
        /// The fingerprint salt, as hex.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub salt: Option<String>,
        /// For a tool result, the body its fingerprint covers.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub result_body: Option<String>,
        /// The provider credential of a challenge proof.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub credential: Option<String>,
        /// The challenge, as the endpoint sent it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub challenge: Option<String>,
        /// The endpoint URL the proof binds.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub endpoint: Option<String>,
        /// The proof to check.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub proof: Option<String>,
    }
}

impl Vectors for Ekl {
    type Test = EklTest;

    fn lint(&self, test: &EklTest) -> Vec<String> {
        let mut problems = Vec::new();
        let fingerprint = test.salt.is_some() && test.input.is_some();
        let challenge =
            test.credential.is_some() && test.challenge.is_some() && test.endpoint.is_some();
        if fingerprint == challenge {
            problems.push("an ekl test is either a fingerprint (`salt`, `input`) or a challenge proof (`credential`, `challenge`, `endpoint`)".to_string());
        }
        if test.result == Expectation::Valid && test.expected.is_none() && test.proof.is_none() {
            problems.push("a valid ekl test needs `expected` or `proof`".to_string());
        }
        problems
    }

    fn check(&self, test: &EklTest) -> Result<(), String> {
        check(test)
    }
}

/// Runs one ekl test: a value's or tool result's fingerprint (and which body it
/// covers), or a challenge proof — computed and checked — with the test's result.
fn check(test: &EklTest) -> Result<(), String> {
    let comment = crate::escape::terminal(&test.comment);
    let got: Result<String, ekl::EklError> = match (&test.salt, &test.input, &test.credential) {
        (Some(salt), Some(input), _) => ekl::Salt::from_hex(salt).and_then(|salt| {
            if let Some(want) = &test.result_body {
                let (body, fingerprint) = ekl::result_fingerprint(&salt, input.as_bytes())?;
                if body.name() != want {
                    return Ok(format!("(the {} body)", body.name()));
                }
                Ok(fingerprint)
            } else {
                ekl::fingerprint(&salt, input.as_bytes())
            }
        }),
        (_, _, Some(credential)) => {
            let challenge = test.challenge.as_deref().unwrap_or_default();
            let endpoint = test.endpoint.as_deref().unwrap_or_default();
            match &test.proof {
                Some(proof) => {
                    ekl::verify_challenge(credential.as_bytes(), challenge, endpoint, proof)
                        .map(|()| proof.clone())
                }
                None => ekl::challenge_proof(credential.as_bytes(), challenge, endpoint),
            }
        }
        _ => {
            return Err(format!(
                "{comment}: neither a fingerprint nor a challenge test"
            ))
        }
    };
    let want = test.expected.as_ref().or(test.proof.as_ref());
    match (got, test.result) {
        (Ok(got), Expectation::Valid | Expectation::Acceptable) if Some(&got) == want => Ok(()),
        (Ok(got), Expectation::Valid) => Err(format!(
            "{comment}\n    expected: {}\n    got:      {got}",
            want.map(String::as_str).unwrap_or("(nothing)")
        )),
        (Err(e), Expectation::Invalid | Expectation::Acceptable) => match &test.error_kind {
            Some(kind) if kind != e.kind() => Err(format!(
                "{comment}\n    expected: error[{kind}]\n    got:      error[{}] {e}",
                e.kind()
            )),
            _ => Ok(()),
        },
        (Ok(got), _) => Err(format!(
            "{comment}\n    expected: error[{}]\n    got:      {got}",
            test.error_kind.as_deref().unwrap_or("any")
        )),
        (Err(e), _) => Err(format!(
            "{comment}\n    expected: {}\n    got:      error[{}] {e}",
            want.map(String::as_str).unwrap_or("(nothing)"),
            e.kind()
        )),
    }
}
