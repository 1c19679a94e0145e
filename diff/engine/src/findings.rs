//! A campaign's findings, one per disagreement signature, with each implementation's record,
//! and how a minimized one is saved as a conformance vector: one file per signature
//! (content-addressed, written once, atomically), carrying every implementation's outcome and
//! version and the expected result with where it comes from.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use std::time::Duration;

use crate::compare::{Evaluation, Expect, Member, Verdict, CORE};
use crate::family::{Category, Family};
use crate::manifest::sha256_hex;
use crate::outcome::Outcome;
use crate::vector::{Expectation, Head, Note, Source, Test, TestGroup, VectorFile};

/// The vector's path, relative to the corpus, for a signature of `family`.
pub fn vector_path(family: Family, signature: &str) -> String {
    let digest = sha256_hex(signature.as_bytes());
    format!("{}/findings/{}.json", family.name(), &digest[..16])
}

/// Where a triaged fuzzer artifact's vector goes: named by the minimized input, so that every
/// artifact ever triaged keeps its own vector even once the core agrees again.
pub fn regression_path(family: Family, minimized: &[u8]) -> String {
    format!(
        "{}/regressions/{}.json",
        family.name(),
        &sha256_hex(minimized)[..16]
    )
}

/// The expected outcome of a finding and where that expectation comes from. A policy gives its
/// own answer; otherwise the consensus (or the reference group's answer) does. An expected
/// rejection carries no kind when the policy is about which of several problems is named.
pub fn expected(
    family: Family,
    finding: &Finding,
    impls: &[ImplStats],
) -> Option<(Outcome, String)> {
    let e = &finding.evaluation;
    match e.verdict {
        Verdict::Policy(policy) => {
            let why = format!("registered policy {}: {}", policy.id, policy.reason);
            match policy.core {
                Expect::Rejects(kind) => Some((Outcome::Rejected(kind.to_string()), why)),
                Expect::RejectsFirstProblem(_) | Expect::RejectsAny => {
                    Some((Outcome::Rejected(String::new()), why))
                }
                // What the implementations the policy does not excuse write: the reference
                // group's first; without any, a verdict-only answer is the policy's own, and
                // an output no one else vouches for makes no vector.
                Expect::Accepts => {
                    let core = impls
                        .iter()
                        .zip(&finding.outcomes)
                        .find(|(s, _)| s.name == CORE)
                        .map(|(_, o)| o.clone())
                        .unwrap_or(Outcome::Unsupported);
                    let unexcused = |s: &ImplStats, o: &Outcome| {
                        let member = Member {
                            name: s.name.clone(),
                            group: s.group.clone(),
                        };
                        s.name != CORE && !policy.excuses.covers(&member, o, &core)
                    };
                    let reference = family.rules().reference_group;
                    let answer_of = |pick: &dyn Fn(&ImplStats) -> bool| {
                        impls
                            .iter()
                            .zip(&finding.outcomes)
                            .find(|(s, o)| {
                                pick(s) && unexcused(s, o) && matches!(o, Outcome::Ok(_))
                            })
                            .map(|(s, o)| (s.name.clone(), o.clone()))
                    };
                    answer_of(&|s| s.group == reference)
                        .or_else(|| answer_of(&|_| true))
                        .map(|(name, o)| (o, format!("{why}; output as {name} writes it")))
                        .or_else(|| {
                            (core == Outcome::Ok(crate::outcome::VALID.to_vec()))
                                .then(|| (core.clone(), format!("{why}; the policy's verdict")))
                        })
                }
            }
        }
        _ => e.consensus.clone().map(|c| {
            (
                c,
                format!(
                    "the consensus of the independent implementation groups (or, without one, {})",
                    family.reference_reason()
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
    BTreeMap::from([
        ("DiffFinding".to_string(), note("REGRESSION", "A disagreement found and minimized by a differential campaign.")),
        ("FuzzArtifact".to_string(), note("REGRESSION", "An input a fuzz target failed on, triaged and minimized.")),
        ("Agree".to_string(), note("REGRESSION", "Every implementation now agrees on it; kept so that it stays so.")),
        ("CoreDiverges".to_string(), note("REGRESSION", "The core differed from the consensus of the independent implementations.")),
        ("ThirdParties".to_string(), note("EDGE_CASE", "Third-party implementations disagree among themselves (or crash or hang).")),
        ("Policy".to_string(), note("I_JSON", "The core deliberately differs from other implementations, for the reason in the comment.")),
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
    /// A fuzzer artifact: content-addressed by the minimized input (see [`regression_path`]).
    Artifact {
        /// The artifact file name and the target that produced it.
        name: String,
    },
}

impl Origin {
    fn path(&self, family: Family, finding: &Finding) -> String {
        match self {
            Origin::Campaign { .. } => vector_path(family, &finding.signature),
            Origin::Artifact { .. } => regression_path(family, &finding.minimized),
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
        // A case the harness could not judge states no expectation.
        Verdict::Unjudged(_) => return Ok(None),
    };
    let result = match want {
        Outcome::Ok(_) => Expectation::Valid,
        Outcome::Rejected(_) => Expectation::Invalid,
        _ => return Ok(None),
    };
    let mut flags = vec![
        origin.flag().to_string(),
        verdict_flag.to_string(),
        finding.category.name.to_string(),
    ];
    let mut notes = notes();
    notes.insert(finding.category.name.to_string(), finding.category.note());
    for (flag, note) in family.input_flags(&finding.minimized) {
        flags.push(flag.clone());
        notes.insert(flag, note);
    }
    notes.retain(|name, _| flags.contains(name));
    let head = Head {
        tc_id: 1,
        comment: format!("{}; expected: {source}", finding.signature),
        flags,
        result,
        outcomes: impls
            .iter()
            .zip(&finding.outcomes)
            .map(|(s, o)| (s.name.clone(), o.to_json()))
            .collect(),
    };
    let Some(test) = family.test_for(head, &finding.minimized, &want) else {
        return Ok(None);
    };
    vector_file(family, finding, origin, impls, notes, test).write(&path)?;
    Ok(Some(relative))
}

/// The vector file of one finding's `test`: its header says where it came from and whether
/// it was minimized, its source the implementations' versions.
fn vector_file(
    family: Family,
    finding: &Finding,
    origin: &Origin,
    impls: &[ImplStats],
    notes: BTreeMap<String, Note>,
    test: Test,
) -> VectorFile {
    let (algorithm, group_kind) = family.vector_kind();
    VectorFile {
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
    }
}

/// One disagreement, by signature.
#[derive(Debug, Clone)]
pub struct Finding {
    /// The stable signature.
    pub signature: String,
    /// The category of the generator that found it.
    pub category: Category,
    /// The first case (lowest index) that showed it.
    pub case: u64,
    /// That case's input.
    pub input: Vec<u8>,
    /// The minimized input.
    pub minimized: Vec<u8>,
    /// Every implementation's outcome on the minimized input.
    pub outcomes: Vec<Outcome>,
    /// The comparison on the minimized input.
    pub evaluation: Evaluation,
    /// How many cases showed this signature.
    pub count: u64,
    /// The vector that holds it, relative to the corpus: the one written for it, or the known
    /// corpus's of its signature.
    pub vector: Option<String>,
    /// Whether the known corpus held no vector of its signature when the campaign met it.
    pub new: bool,
    /// Whether `minimized` is the minimizer's result: an interrupted campaign minimizes none,
    /// and a finding that is not new is minimized in its vector already.
    pub is_minimized: bool,
    /// When the campaign first met it: the time since the campaign started, and how many
    /// cases it had judged, this one included.
    pub first_met: (Duration, u64),
    /// For a finding that is not new, the input its vector in the known corpus holds, when
    /// the family can state it as a campaign input.
    pub known_input: Option<Vec<u8>>,
}

impl Finding {
    /// Counts one more case showing this finding, and makes it the finding's case when it
    /// comes earlier: the batches finish in no set order, and the lowest case, whichever batch
    /// held it, is the one every run reports, starts minimizing from and saves.
    pub(crate) fn met_again(
        &mut self,
        case: u64,
        category: Category,
        input: &[u8],
        outcomes: &[Outcome],
        evaluation: &Evaluation,
    ) {
        self.count += 1;
        if case < self.case {
            self.case = case;
            self.category = category;
            self.input = input.to_vec();
            self.minimized = input.to_vec();
            self.outcomes = outcomes.to_vec();
            self.evaluation = evaluation.clone();
        }
    }
}

/// Per implementation: how often it agreed with the consensus.
#[derive(Debug, Clone, Default)]
pub struct ImplStats {
    /// Name, version and independence group.
    pub name: String,
    /// The pinned version.
    pub version: String,
    /// The independence group.
    pub group: String,
    /// Cases with a consensus that it answered.
    pub answered: u64,
    /// Of those, cases where it agreed with the consensus.
    pub agreed: u64,
    /// Findings in which it diverges.
    pub findings: u64,
    /// Time it spent answering, over the campaign and the minimizing.
    pub busy: Duration,
    /// The CPU time it used: in process, on the threads that called it; a worker, in its own
    /// processes, when their time can be read.
    pub cpu: Option<Duration>,
    /// In a paced campaign, how a worker met the cases: which it answered and why; `None` for
    /// an implementation that answered every case with the core.
    pub pace: Option<Pace>,
}

/// How a lane's implementations met the campaign's cases.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct Pace {
    /// Cases answered because the answers before them disagreed.
    pub escalated: u64,
    /// Cases answered from the stream: every case while the lane kept up, a sample spread over
    /// the categories while it did not.
    pub sampled: u64,
    /// Cases passed by: no disagreement called for them and the lane had no room.
    pub passed: u64,
    /// Wall time during which the lane had a round in flight.
    #[serde(serialize_with = "seconds")]
    pub busy: Duration,
}

impl Pace {
    /// Cases answered.
    pub fn answered(&self) -> u64 {
        self.escalated + self.sampled
    }
}

fn seconds<S: serde::Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64(d.as_secs_f64())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two categories of a family under test, as any family's generator names its own.
    const STRUCTURE: Category = Category::new("structure", "nesting");
    const NUMBERS: Category = Category::new("numbers", "numbers");

    #[test]
    fn a_finding_keeps_its_lowest_case_whichever_batch_comes_first() {
        let evaluation = |input: &str| Evaluation {
            verdict: Verdict::ThirdParties,
            consensus: None,
            diverging: vec![input.to_string()],
            signature: "jcs: same".to_string(),
        };
        let mut finding = Finding {
            signature: "jcs: same".to_string(),
            category: STRUCTURE,
            case: 5_000,
            input: b"[5000]".to_vec(),
            minimized: b"[5000]".to_vec(),
            outcomes: vec![Outcome::Ok(b"[5000]".to_vec())],
            evaluation: evaluation("5000"),
            count: 1,
            vector: None,
            new: true,
            is_minimized: false,
            known_input: None,
            first_met: (Duration::ZERO, 1),
        };
        // Batches met in the order 5000, 7000, 3000, 4000: the finding ends at case 3000.
        for case in [7_000u64, 3_000, 4_000] {
            let input = format!("[{case}]");
            let category = if case == 3_000 { NUMBERS } else { STRUCTURE };
            finding.met_again(
                case,
                category,
                input.as_bytes(),
                &[Outcome::Ok(input.clone().into_bytes())],
                &evaluation(&case.to_string()),
            );
        }
        assert_eq!(finding.count, 4);
        assert_eq!(finding.case, 3_000);
        assert_eq!(finding.category.name, NUMBERS.name);
        assert_eq!(finding.input, b"[3000]");
        assert_eq!(finding.minimized, b"[3000]");
        assert_eq!(finding.outcomes, [Outcome::Ok(b"[3000]".to_vec())]);
        assert_eq!(finding.evaluation.diverging, ["3000"]);
    }
}
