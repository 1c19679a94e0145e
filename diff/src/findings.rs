//! Saving a minimized disagreement as a conformance vector: one file per signature
//! (content-addressed, written once, atomically), carrying every implementation's outcome and
//! version and the expected result with where it comes from.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use canonfuzz_core::jcs::ErrorKind;

use crate::campaign::{Finding, ImplStats};
use crate::compare::{Expect, Verdict, CORE};
use crate::family::Family;
use crate::gen::ed25519::Ed25519Case;
use crate::gen::jws::JwsCase;
use crate::gen::Category;
use crate::manifest::sha256_hex;
use crate::outcome::Outcome;
use crate::vector::{to_hex, Expectation, Note, Source, TestCase, TestGroup, VectorFile};

/// The vector's path, relative to the corpus, for a signature of `family`.
pub fn vector_path(family: Family, signature: &str) -> String {
    let digest = sha256_hex(signature.as_bytes());
    format!("{}/findings/{}.json", family.name(), &digest[..16])
}

/// The expected outcome of a finding and where that expectation comes from. A policy gives its
/// own answer; otherwise the consensus (or the reference group's answer) does. An expected
/// rejection carries no kind when the policy is about which of several problems is named.
fn expected(family: Family, finding: &Finding, impls: &[ImplStats]) -> Option<(Outcome, String)> {
    let e = &finding.evaluation;
    let campaign = family.campaign()?;
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
                Expect::RejectsFirstProblem(_) | Expect::RejectsWhereOthersAccept => {
                    Some((Outcome::Rejected(String::new()), why))
                }
                Expect::AcceptsWhereOthersReject(_) | Expect::AcceptsWhereOthersRejectAny => {
                    answer_of(&|s| s.group == campaign.rules.reference_group)
                        .or_else(|| answer_of(&|s| s.name != CORE))
                        .map(|(name, o)| (o, format!("{why}; output as {name} writes it")))
                        .or_else(|| {
                            // No one else accepts; a verdict-only answer is the policy's own.
                            answer_of(&|s| s.name == CORE)
                                .filter(|(_, o)| *o == Outcome::Ok(crate::outcome::VALID.to_vec()))
                                .map(|(_, o)| (o, format!("{why}; the policy's verdict")))
                        })
                }
            }
        }
        _ => e.consensus.clone().map(|c| {
            (
                c,
                format!(
                    "the consensus of the independent implementation groups (or, without one, {})",
                    campaign.reference_reason
                ),
            )
        }),
    }
}

fn note(bug_type: &str, description: &str) -> Note {
    Note {
        bug_type: bug_type.to_string(),
        description: description.to_string(),
    }
}

fn notes() -> BTreeMap<String, Note> {
    let mut notes = BTreeMap::from([
        ("DiffFinding".to_string(), note("REGRESSION", "A disagreement found and minimized by a differential campaign.")),
        ("FuzzArtifact".to_string(), note("REGRESSION", "An input a fuzz target failed on, triaged and minimized.")),
        ("Agree".to_string(), note("REGRESSION", "Every implementation now agrees on it; kept so that it stays so.")),
        ("CoreDiverges".to_string(), note("REGRESSION", "The core differed from the consensus of the independent implementations.")),
        ("ThirdParties".to_string(), note("EDGE_CASE", "Third-party implementations disagree among themselves (or crash or hang).")),
        ("Policy".to_string(), note("I_JSON", "The core deliberately differs from other implementations, for the reason in the comment.")),
    ]);
    for category in Category::ALL {
        notes.insert(
            category.name().to_string(),
            note(
                if category == Category::Rejections {
                    "MALFORMED_INPUT"
                } else {
                    "EDGE_CASE"
                },
                category.description(),
            ),
        );
    }
    notes
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
    fn path(&self, family: Family, finding: &Finding) -> String {
        match self {
            Origin::Campaign { .. } => vector_path(family, &finding.signature),
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
    family: Family,
    finding: &Finding,
    seed: u64,
    impls: &[ImplStats],
    replace: bool,
) -> Result<Option<String>, String> {
    write_vector(
        corpus,
        family,
        finding,
        &Origin::Campaign { seed },
        impls,
        replace,
    )
}

/// The Ed25519 edge cases a campaign input shows, by CCTV's flag names.
fn edge_flags(input: &[u8]) -> Vec<&'static str> {
    Ed25519Case::parse(input).map_or_else(Vec::new, |c| {
        crate::gen::ed25519::edge_flags(&c.key, &c.sig)
    })
}

/// The test for `input` of `family` expecting `want`, or `None` when the family's format
/// cannot state that expectation.
fn test_case(family: Family, comment: String, input: &[u8], want: Outcome) -> Option<TestCase> {
    let (valid, kind) = match want {
        Outcome::Ok(bytes) => (Some(bytes), None),
        Outcome::Rejected(kind) => (None, Some(kind)),
        _ => return None,
    };
    let mut test = match family {
        Family::Jcs => {
            let mut test = TestCase::with_input(1, comment, input);
            test.error_kind = kind
                .as_deref()
                .and_then(ErrorKind::from_name)
                .map(|k| k.as_str().to_string());
            test
        }
        Family::Ed25519 => {
            let case = Ed25519Case::parse(input)?;
            let mut test = TestCase {
                tc_id: 1,
                comment,
                ..TestCase::default()
            };
            test.public_key = Some(to_hex(&case.key));
            test.msg = Some(to_hex(&case.msg));
            test.sig = Some(to_hex(&case.sig));
            test
        }
        Family::Jws => {
            let case = JwsCase::parse(input)?;
            let mut test = TestCase {
                tc_id: 1,
                comment,
                ..TestCase::default()
            };
            test.token = Some(case.token);
            test.jwk = Some(case.jwk);
            test.error_kind = kind.filter(|k| !k.is_empty() && k != "other");
            test
        }
        Family::Merkle | Family::Ink => {
            let mut test = TestCase::with_input(1, comment, input);
            test.error_kind = kind.filter(|k| !k.is_empty() && k != "other");
            test
        }
        Family::Ekl => {
            let case: serde_json::Value = serde_json::from_slice(input).ok()?;
            let text = |name: &str| {
                case.get(name)
                    .and_then(serde_json::Value::as_str)
                    .map(str::to_string)
            };
            let mut test = TestCase {
                tc_id: 1,
                comment,
                ..TestCase::default()
            };
            match text("op")?.as_str() {
                "challenge" => {
                    test.credential = text("credential");
                    test.challenge = text("challenge");
                    test.endpoint = text("endpoint");
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
            test.error_kind = kind.filter(|k| !k.is_empty() && k != "other");
            test
        }
        Family::Vmcp => {
            let case = crate::gen::vmcp::VmcpCase::parse(input)?;
            let mut test = TestCase {
                tc_id: 1,
                comment,
                ..TestCase::default()
            };
            test.jwks = Some(case.jwks);
            test.now = Some(case.now);
            test.input = Some(case.response);
            test.error_kind = kind.filter(|k| canonfuzz_core::vmcp::Rule::from_name(k).is_some());
            test
        }
    };
    match valid {
        Some(bytes) => {
            test.result = Expectation::Valid;
            if family != Family::Ed25519 {
                test.expected = Some(String::from_utf8(bytes).ok()?);
            }
        }
        None => test.result = Expectation::Invalid,
    }
    Some(test)
}

/// Writes the vector of a finding from `origin` under `corpus`; an existing vector at the same
/// path is kept unless `replace`.
pub fn write_vector(
    corpus: &Path,
    family: Family,
    finding: &Finding,
    origin: &Origin,
    impls: &[ImplStats],
    replace: bool,
) -> Result<Option<String>, String> {
    let relative = origin.path(family, finding);
    let path: PathBuf = corpus.join(&relative);
    if path.exists() && !replace {
        return Ok(Some(relative));
    }
    let Some((want, source)) = expected(family, finding, impls) else {
        return Ok(None);
    };
    let verdict_flag = match finding.evaluation.verdict {
        Verdict::CoreDiverges => "CoreDiverges",
        Verdict::Policy(_) => "Policy",
        Verdict::Agree => "Agree",
        Verdict::ThirdParties => "ThirdParties",
    };
    let comment = format!("{}; expected: {source}", finding.signature);
    let Some(mut test) = test_case(family, comment, &finding.minimized, want) else {
        return Ok(None);
    };
    test.flags = vec![
        origin.flag().to_string(),
        verdict_flag.to_string(),
        finding.category.name().to_string(),
    ];
    let mut notes = notes();
    if family == Family::Ed25519 {
        let edge = edge_flags(&finding.minimized);
        test.flags.extend(edge.iter().map(|f| f.to_string()));
        notes.extend(crate::import::ed25519::policy_notes());
    }
    notes.retain(|name, _| test.flags.contains(name));
    test.outcomes = impls
        .iter()
        .zip(&finding.outcomes)
        .map(|(s, o)| (s.name.clone(), o.to_json()))
        .collect();
    let (algorithm, group_kind) = match family {
        Family::Jcs => ("JCS", "JcsCanonicalize"),
        Family::Ed25519 => ("Ed25519", "Ed25519Verify"),
        Family::Merkle => ("Merkle", "MerkleVerify"),
        Family::Ink => ("INK", "InkFinding"),
        Family::Ekl => ("EKL", "EklFinding"),
        Family::Jws => ("JWS", "JwsVerify"),
        Family::Vmcp => ("verifiable-mcp", "VmcpVerify"),
    };
    let file = VectorFile {
        algorithm: algorithm.to_string(),
        schema: family.schema().to_string(),
        number_of_tests: 1,
        header: vec![format!(
            "{}, {}; the implementations' verdict: {}.",
            origin.source(finding),
            if finding.is_minimized {
                "minimized"
            } else {
                "not minimized (the campaign was interrupted before minimizing it)"
            },
            finding.evaluation.verdict.name()
        )],
        notes,
        test_groups: vec![TestGroup {
            kind: group_kind.to_string(),
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
