//! The agreement verdict for one input: who agrees with whom, what the independent
//! implementations' consensus is, and whether the core departs from it by registered policy.
//!
//! Implementations that share code are not independent votes. Each implementation belongs to a
//! group (the four Rust crates share serde_json's parser and ryu-style number formatting, the
//! two npm libraries share V8, the two PyPI libraries share CPython); a group votes for the
//! answer most of its members give, and the consensus is the answer a strict majority of the
//! voting groups other than the core's own give; one group alone is no consensus. Without
//! one, the reference group's answer stands in: RFC 8785 defers to ECMAScript, so V8's.

use std::fmt::Write as _;

use crate::outcome::Outcome;

/// The name and group of one implementation, as the comparison needs them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Member {
    /// The implementation's name.
    pub name: String,
    /// Its independence group.
    pub group: String,
}

/// The name the core goes by.
pub const CORE: &str = "core";

/// The group whose answer stands in when the independent groups reach no consensus.
pub const REFERENCE_GROUP: &str = "node-v8";

/// A deliberate difference between the core and other implementations.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Policy {
    /// A stable identifier.
    pub id: &'static str,
    /// What the core answers.
    pub core: Expect,
    /// Why the core answers differently.
    pub reason: &'static str,
}

/// A pattern over outcomes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expect {
    /// Rejected with this kind.
    Rejects(&'static str),
    /// Accepted, where others reject with this kind.
    AcceptsWhereOthersReject(&'static str),
    /// Rejected, as others do, but naming another of the document's problems first.
    RejectsFirstProblem,
}

/// Every registered policy difference, with its reason. Differences listed here are reported
/// as policy, never silently dropped.
pub const POLICIES: [Policy; 6] = [
    Policy {
        id: "duplicate-names",
        core: Expect::Rejects("duplicate_key"),
        reason: "I-JSON (RFC 7493 §2.3), which RFC 8785 §3.1 requires, forbids duplicate member names; implementations that keep the last member sign a document whose meaning another parser may read differently",
    },
    Policy {
        id: "lone-surrogates",
        core: Expect::Rejects("lone_surrogate"),
        reason: "I-JSON (RFC 7493 §2.1) requires strings to be valid Unicode; an escaped lone surrogate has no UTF-8 form to canonicalize to",
    },
    Policy {
        id: "number-range",
        core: Expect::Rejects("number_out_of_range"),
        reason: "a number beyond the double range has no RFC 8785 §3.2.2.3 serialization; writing null or Infinity would change the value",
    },
    Policy {
        id: "depth-bound",
        core: Expect::Rejects("depth_limit"),
        reason: "the core bounds nesting (default 10,000 levels) so that no document can exhaust its memory; deeper documents are refused, not crashed on",
    },
    Policy {
        id: "deep-nesting",
        core: Expect::AcceptsWhereOthersReject("depth_limit"),
        reason: "RFC 8785 sets no nesting limit; the core accepts up to 10,000 levels where serde_json stops at 128 and CPython near 1,000",
    },
    Policy {
        id: "error-precedence",
        core: Expect::RejectsFirstProblem,
        reason: "when a document breaks several rules the core reports invalid UTF-8 first, then the first grammar error, then the first I-JSON rule in reading order; others report whichever problem their parser meets, or the only one they check",
    },
];

/// The kind of a rejection, `None` for other outcomes.
fn rejection(outcome: &Outcome) -> Option<&str> {
    match outcome {
        Outcome::Rejected(kind) => Some(kind),
        _ => None,
    }
}

impl Policy {
    fn explains(&self, core: &Outcome, consensus: &Outcome) -> bool {
        match self.core {
            Expect::Rejects(kind) => {
                rejection(core) == Some(kind) && rejection(consensus) != Some(kind)
            }
            Expect::AcceptsWhereOthersReject(kind) => {
                matches!(core, Outcome::Ok(_)) && rejection(consensus) == Some(kind)
            }
            Expect::RejectsFirstProblem => {
                rejection(core).is_some() && rejection(consensus).is_some()
            }
        }
    }
}

/// Whether two answers agree: equal bytes, or rejections of the same kind (a rejection whose
/// kind could not be mapped, `other`, agrees with any rejection).
pub fn agree(a: &Outcome, b: &Outcome) -> bool {
    match (a, b) {
        (Outcome::Ok(x), Outcome::Ok(y)) => x == y,
        (Outcome::Rejected(x), Outcome::Rejected(y)) => x == y || x == "other" || y == "other",
        _ => false,
    }
}

/// The verdict for one input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Every implementation that answered agrees.
    Agree,
    /// The core differs from the consensus, as a registered policy says it should.
    Policy(&'static Policy),
    /// The core differs from the consensus of the independent implementations.
    CoreDiverges,
    /// Third parties disagree among themselves (or crash, or hang); the core sides with the
    /// consensus, or there is none.
    ThirdParties,
}

impl Verdict {
    /// A stable name for reports and vectors.
    pub fn name(&self) -> &'static str {
        match self {
            Verdict::Agree => "agree",
            Verdict::Policy(_) => "policy",
            Verdict::CoreDiverges => "core_diverges",
            Verdict::ThirdParties => "third_parties_disagree",
        }
    }
}

/// The comparison of every implementation's outcome for one input.
#[derive(Debug, Clone)]
pub struct Evaluation {
    /// The verdict.
    pub verdict: Verdict,
    /// The consensus of the independent groups (or the reference group's answer), when there
    /// is one.
    pub consensus: Option<Outcome>,
    /// Implementations whose answer differs from the consensus (or crashed or hung).
    pub diverging: Vec<String>,
    /// The stable signature: family, implementations and outcome classes (for agreement, only
    /// that).
    pub signature: String,
}

/// Compares the outcomes of `members` (same order) for one input of `family`.
pub fn evaluate(family: &str, members: &[Member], outcomes: &[Outcome]) -> Evaluation {
    evaluate_with_quorum(family, members, outcomes, 2)
}

/// [`evaluate`], with the number of voting groups a consensus needs set by the caller: a fuzz
/// target that has only one independent group in process accepts that group's answer.
pub fn evaluate_with_quorum(
    family: &str,
    members: &[Member],
    outcomes: &[Outcome],
    quorum: usize,
) -> Evaluation {
    let pairs: Vec<(&Member, &Outcome)> = members.iter().zip(outcomes).collect();
    let consensus = consensus(&pairs, quorum);
    let core = pairs.iter().find(|(m, _)| m.name == CORE).map(|(_, o)| *o);
    let failed = |o: &Outcome| matches!(o, Outcome::Crashed(_) | Outcome::TimedOut);
    let answers: Vec<&Outcome> = outcomes.iter().filter(|o| o.is_answer()).collect();
    let all_agree = answers
        .windows(2)
        .all(|w| matches!(w, [a, b] if agree(a, b)))
        && answers.iter().all(|a| agree(a, answers[0]))
        && !outcomes.iter().any(failed);
    let diverging: Vec<String> = pairs
        .iter()
        .filter(|(_, o)| {
            failed(o) || (o.is_answer() && consensus.as_ref().is_some_and(|c| !agree(o, c)))
        })
        .map(|(m, _)| m.name.clone())
        .collect();
    let verdict = if all_agree {
        Verdict::Agree
    } else {
        match (core, &consensus) {
            (Some(core), Some(consensus)) if core.is_answer() && !agree(core, consensus) => {
                match POLICIES.iter().find(|p| p.explains(core, consensus)) {
                    Some(policy) => Verdict::Policy(policy),
                    None => Verdict::CoreDiverges,
                }
            }
            (Some(core), _) if failed(core) => Verdict::CoreDiverges,
            _ => Verdict::ThirdParties,
        }
    };
    let signature = if verdict == Verdict::Agree {
        format!("{family}: all agree")
    } else {
        signature(family, &pairs)
    };
    Evaluation {
        verdict,
        consensus,
        diverging,
        signature,
    }
}

/// The answer a strict majority of the voting independent groups give (the core's group does
/// not vote), when at least `quorum` groups vote; otherwise the reference group's answer. A group
/// votes for the answer a strict majority of its answering members give.
fn consensus(pairs: &[(&Member, &Outcome)], quorum: usize) -> Option<Outcome> {
    let mut groups: Vec<&str> = pairs.iter().map(|(m, _)| m.group.as_str()).collect();
    groups.dedup();
    groups.sort_unstable();
    groups.dedup();
    let core_group = pairs
        .iter()
        .find(|(m, _)| m.name == CORE)
        .map(|(m, _)| m.group.as_str());
    let votes: Vec<&Outcome> = groups
        .iter()
        .filter(|g| Some(**g) != core_group)
        .filter_map(|g| {
            let answers: Vec<&Outcome> = pairs
                .iter()
                .filter(|(m, o)| m.group == *g && o.is_answer())
                .map(|(_, o)| *o)
                .collect();
            majority(&answers)
        })
        .collect();
    if votes.len() >= quorum {
        if let Some(m) = majority(&votes) {
            return Some(m.clone());
        }
    }
    let reference: Vec<&Outcome> = pairs
        .iter()
        .filter(|(m, o)| m.group == REFERENCE_GROUP && o.is_answer())
        .map(|(_, o)| *o)
        .collect();
    majority(&reference).cloned()
}

/// The answer more than half of `answers` agree with, preferring one whose rejection kind is
/// known.
fn majority<'a>(answers: &[&'a Outcome]) -> Option<&'a Outcome> {
    let mut candidates: Vec<&&Outcome> = answers.iter().collect();
    candidates.sort_by_key(|o| rejection(o) == Some("other"));
    candidates
        .into_iter()
        .find(|c| answers.iter().filter(|a| agree(a, c)).count() * 2 > answers.len())
        .copied()
}

/// `family: a=ok(A) b=error(kind) c=crashed ...`, names sorted, accepted outputs lettered by
/// first appearance; implementations that cannot express the input are left out.
fn signature(family: &str, pairs: &[(&Member, &Outcome)]) -> String {
    let mut sorted: Vec<&(&Member, &Outcome)> = pairs.iter().collect();
    sorted.sort_by(|a, b| a.0.name.cmp(&b.0.name));
    let mut outputs: Vec<&[u8]> = Vec::new();
    let mut text = format!("{family}:");
    for (member, outcome) in sorted {
        let class = match outcome {
            Outcome::Ok(bytes) => {
                let index = outputs.iter().position(|o| o == bytes).unwrap_or_else(|| {
                    outputs.push(bytes);
                    outputs.len() - 1
                });
                let letter = char::from(b'A' + (index % 26) as u8);
                format!("ok({letter})")
            }
            Outcome::Rejected(kind) => format!("error({kind})"),
            Outcome::Crashed(_) => "crashed".to_string(),
            Outcome::TimedOut => "timed_out".to_string(),
            Outcome::Unsupported => continue,
        };
        let _ = write!(text, " {}={class}", member.name);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn members() -> Vec<Member> {
        [
            ("core", "canonfuzz-core"),
            ("serde_jcs", "rust"),
            ("json-canon", "rust"),
            ("node", "node-v8"),
            ("py", "cpython"),
        ]
        .iter()
        .map(|(n, g)| Member {
            name: n.to_string(),
            group: g.to_string(),
        })
        .collect()
    }

    fn ok(s: &str) -> Outcome {
        Outcome::Ok(s.as_bytes().to_vec())
    }

    fn err(k: &str) -> Outcome {
        Outcome::Rejected(k.to_string())
    }

    #[test]
    fn agreement_and_divergence() {
        let e = evaluate(
            "jcs",
            &members(),
            &[ok("1"), ok("1"), ok("1"), ok("1"), err("other")],
        );
        assert_eq!(e.verdict, Verdict::ThirdParties);
        assert_eq!(e.diverging, vec!["py"]);
        let e = evaluate(
            "jcs",
            &members(),
            &[ok("2"), ok("1"), ok("1"), ok("1"), ok("1")],
        );
        assert_eq!(e.verdict, Verdict::CoreDiverges);
        assert_eq!(
            e.signature,
            "jcs: core=ok(A) json-canon=ok(B) node=ok(B) py=ok(B) serde_jcs=ok(B)"
        );
        let e = evaluate(
            "jcs",
            &members(),
            &[
                err("syntax"),
                err("syntax"),
                err("other"),
                err("syntax"),
                Outcome::Unsupported,
            ],
        );
        assert_eq!(e.verdict, Verdict::Agree);
    }

    #[test]
    fn shared_code_counts_once() {
        // Both Rust crates say A, but they are one group; v8 and cpython say B.
        let e = evaluate(
            "jcs",
            &members(),
            &[ok("A"), ok("A"), ok("A"), ok("B"), ok("B")],
        );
        assert_eq!(e.consensus, Some(ok("B")));
        assert_eq!(e.verdict, Verdict::CoreDiverges);
    }

    #[test]
    fn registered_policy_is_reported_as_such() {
        let e = evaluate(
            "jcs",
            &members(),
            &[err("duplicate_key"), ok("{}"), ok("{}"), ok("{}"), ok("{}")],
        );
        assert!(matches!(e.verdict, Verdict::Policy(p) if p.id == "duplicate-names"));
        let e = evaluate(
            "jcs",
            &members(),
            &[
                ok("[]"),
                err("depth_limit"),
                err("depth_limit"),
                ok("[]"),
                err("depth_limit"),
            ],
        );
        assert!(matches!(e.verdict, Verdict::Policy(p) if p.id == "deep-nesting"));
    }

    #[test]
    fn crashes_and_hangs_are_findings() {
        let e = evaluate(
            "jcs",
            &members(),
            &[ok("1"), ok("1"), ok("1"), Outcome::TimedOut, ok("1")],
        );
        assert_eq!(e.verdict, Verdict::ThirdParties);
        assert_eq!(e.diverging, vec!["node"]);
        assert!(e.signature.contains("node=timed_out"));
    }
}

#[cfg(test)]
mod reference_tests {
    use super::*;

    #[test]
    fn without_a_consensus_the_reference_group_decides() {
        let members: Vec<Member> = [
            ("core", "canonfuzz-core"),
            ("rs", "rust"),
            ("node", "node-v8"),
            ("py", "cpython"),
        ]
        .iter()
        .map(|(n, g)| Member {
            name: n.to_string(),
            group: g.to_string(),
        })
        .collect();
        let o = |s: &str| Outcome::Ok(s.as_bytes().to_vec());
        let e = evaluate("jcs", &members, &[o("1"), o("2"), o("1"), o("3")]);
        assert_eq!(e.consensus, Some(o("1")));
        assert_eq!(e.verdict, Verdict::ThirdParties);
        let e = evaluate(
            "jcs",
            &members,
            &[
                Outcome::Rejected("syntax".into()),
                Outcome::Rejected("number_out_of_range".into()),
                Outcome::Rejected("number_out_of_range".into()),
                o("3"),
            ],
        );
        assert!(matches!(e.verdict, Verdict::Policy(p) if p.id == "error-precedence"));
    }
}
