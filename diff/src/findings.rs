//! Saving a minimized disagreement as a conformance vector: one file per signature
//! (content-addressed, written once, atomically), carrying every implementation's outcome and
//! version and the expected result with where it comes from.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use canonfuzz_core::jcs::ErrorKind;

use crate::campaign::{Finding, ImplStats};
use crate::compare::{Expect, Verdict, CORE, REFERENCE_GROUP};
use crate::manifest::sha256_hex;
use crate::outcome::Outcome;
use crate::vector::{Expectation, Note, Source, TestCase, TestGroup, VectorFile, JCS_SCHEMA};

/// The vector's path, relative to the corpus, for a signature.
pub fn vector_path(signature: &str) -> String {
    let digest = sha256_hex(signature.as_bytes());
    format!("jcs/findings/{}.json", &digest[..16])
}

/// The expected outcome of a finding and where that expectation comes from. A policy gives its
/// own answer; otherwise the consensus (or the reference group's answer) does. An expected
/// rejection carries no kind when the policy is about which of several problems is named.
fn expected(finding: &Finding, impls: &[ImplStats]) -> Option<(Outcome, String)> {
    let e = &finding.evaluation;
    let answer_of = |pick: &dyn Fn(&ImplStats) -> bool| {
        impls
            .iter()
            .zip(&finding.outcomes)
            .find(|(s, o)| pick(s) && matches!(o, Outcome::Ok(_)))
            .map(|(s, o)| (s.name.clone(), o.clone()))
    };
    match e.verdict {
        Verdict::Policy(policy) => {
            let why = format!("registered policy {}: {}", policy.id, policy.reason);
            match policy.core {
                Expect::Rejects(kind) => Some((Outcome::Rejected(kind.to_string()), why)),
                Expect::RejectsFirstProblem => Some((Outcome::Rejected(String::new()), why)),
                Expect::AcceptsWhereOthersReject(_) => answer_of(&|s| s.group == REFERENCE_GROUP)
                    .or_else(|| answer_of(&|s| s.name != CORE))
                    .map(|(name, o)| (o, format!("{why}; output as {name} writes it"))),
            }
        }
        _ => e
            .consensus
            .clone()
            .map(|c| (c, "the consensus of the independent implementation groups (or, without one, V8's answer: RFC 8785 defers to ECMAScript)".to_string())),
    }
}

fn note(bug_type: &str, description: &str) -> Note {
    Note {
        bug_type: bug_type.to_string(),
        description: description.to_string(),
    }
}

fn notes() -> BTreeMap<String, Note> {
    BTreeMap::from([
        ("DiffFinding".to_string(), note("REGRESSION", "A disagreement found and minimized by a differential campaign.")),
        ("FuzzArtifact".to_string(), note("REGRESSION", "An input a fuzz target failed on, triaged and minimized.")),
        ("Agree".to_string(), note("REGRESSION", "Every implementation now agrees on it; kept so that it stays so.")),
        ("CoreDiverges".to_string(), note("REGRESSION", "The core differed from the consensus of the independent implementations.")),
        ("ThirdParties".to_string(), note("EDGE_CASE", "Third-party implementations disagree among themselves (or crash or hang).")),
        ("Policy".to_string(), note("I_JSON", "The core deliberately differs from other implementations, for the reason in the comment.")),
        ("numbers".to_string(), note("EDGE_CASE", "Found by the number generator.")),
        ("ordering".to_string(), note("EDGE_CASE", "Found by the member-name generator.")),
        ("escapes".to_string(), note("EDGE_CASE", "Found by the string generator.")),
        ("structure".to_string(), note("EDGE_CASE", "Found by the whole-document generator.")),
        ("rejections".to_string(), note("MALFORMED_INPUT", "Found by the byte-level damage generator.")),
    ])
}

/// Where a finding came from, which decides its vector's path, flags and source.
#[derive(Debug, Clone)]
pub enum Origin {
    /// A differential campaign with this seed: content-addressed by signature under
    /// `jcs/findings/`.
    Campaign {
        /// The campaign's seed.
        seed: u64,
    },
    /// A fuzzer artifact: content-addressed by the minimized input under `jcs/regressions/`,
    /// so that every crash ever found keeps its own vector even once the core agrees again.
    Artifact {
        /// The artifact file name and the target that produced it.
        name: String,
    },
}

impl Origin {
    fn path(&self, finding: &Finding) -> String {
        match self {
            Origin::Campaign { .. } => vector_path(&finding.signature),
            Origin::Artifact { .. } => {
                format!(
                    "jcs/regressions/{}.json",
                    &sha256_hex(&finding.minimized)[..16]
                )
            }
        }
    }

    fn flag(&self) -> &'static str {
        match self {
            Origin::Campaign { .. } => "DiffFinding",
            Origin::Artifact { .. } => "FuzzArtifact",
        }
    }

    fn source(&self, finding: &Finding) -> String {
        match self {
            Origin::Campaign { seed } => {
                format!(
                    "canonfuzz diff campaign, seed {seed}, case {}",
                    finding.case
                )
            }
            Origin::Artifact { name } => format!("canonfuzz triage of fuzzer artifact {name}"),
        }
    }
}

/// Writes a campaign finding's vector under `corpus` unless its signature already has one
/// (or, with `replace`, over the one this campaign wrote when it first met the signature);
/// returns the vector's path relative to the corpus, or `None` when no expected result can be
/// given.
pub fn save(
    corpus: &Path,
    finding: &Finding,
    seed: u64,
    impls: &[ImplStats],
    replace: bool,
) -> Result<Option<String>, String> {
    write_vector(corpus, finding, &Origin::Campaign { seed }, impls, replace)
}

/// Writes the vector of a finding from `origin` under `corpus`; an existing vector at the same
/// path is kept unless `replace`.
pub fn write_vector(
    corpus: &Path,
    finding: &Finding,
    origin: &Origin,
    impls: &[ImplStats],
    replace: bool,
) -> Result<Option<String>, String> {
    let relative = origin.path(finding);
    let path: PathBuf = corpus.join(&relative);
    if path.exists() && !replace {
        return Ok(Some(relative));
    }
    let Some((want, source)) = expected(finding, impls) else {
        return Ok(None);
    };
    let verdict_flag = match finding.evaluation.verdict {
        Verdict::CoreDiverges => "CoreDiverges",
        Verdict::Policy(_) => "Policy",
        Verdict::Agree => "Agree",
        Verdict::ThirdParties => "ThirdParties",
    };
    let mut test = TestCase::with_input(
        1,
        format!("{}; expected: {source}", finding.signature),
        &finding.minimized,
    );
    test.flags = vec![
        origin.flag().to_string(),
        verdict_flag.to_string(),
        finding.category.name().to_string(),
    ];
    match want {
        Outcome::Ok(bytes) => match String::from_utf8(bytes) {
            Ok(text) => {
                test.expected = Some(text);
                test.result = Expectation::Valid;
            }
            Err(_) => return Ok(None),
        },
        Outcome::Rejected(kind) => {
            test.result = Expectation::Invalid;
            test.error_kind = ErrorKind::from_name(&kind).map(|k| k.as_str().to_string());
        }
        _ => return Ok(None),
    }
    test.outcomes = impls
        .iter()
        .zip(&finding.outcomes)
        .map(|(s, o)| (s.name.clone(), o.to_json()))
        .collect();
    let file = VectorFile {
        algorithm: "JCS".to_string(),
        schema: JCS_SCHEMA.to_string(),
        number_of_tests: 1,
        header: vec![format!(
            "{}, minimized; the implementations' verdict: {}.",
            origin.source(finding),
            finding.evaluation.verdict.name()
        )],
        notes: notes(),
        test_groups: vec![TestGroup {
            kind: "JcsCanonicalize".to_string(),
            source: Source {
                name: origin.source(finding),
                url: None,
                version: Some(
                    impls
                        .iter()
                        .map(|s| format!("{} {}", s.name, s.version))
                        .collect::<Vec<_>>()
                        .join("; "),
                ),
                license: None,
            },
            comment: String::new(),
            tests: vec![test],
        }],
    };
    file.write(&path)?;
    Ok(Some(relative))
}
