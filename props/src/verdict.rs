//! The agreement verdict for one input: who agrees with whom, what the independent
//! implementations' consensus is, and whether the core departs from it by registered policy.
//!
//! Implementations that share code are not independent votes. Each implementation belongs to a
//! group (the Rust crates share serde_json's parser and ryu-style number formatting, the two
//! npm libraries share V8, the two PyPI libraries share CPython); a group votes for the answer
//! most of its members give, and the consensus is the answer a strict majority of the voting
//! groups other than the core's own give; one group alone is no consensus. Without one, the
//! family's reference group's answer stands in (for JCS, V8's: RFC 8785 defers to ECMAScript).
//!
//! The JCS and Merkle policies live here, beside the readings their predicates rest on, so
//! that the fuzz targets judge with them; the harness registers the other families'.

use std::collections::BTreeSet;

use crate::impls::jcs::RUST_SERDE_JSON_GROUP;
use crate::merkle_case;
use crate::outcome::Outcome;
use crate::reading;
use crate::values::{self, Unreadable};

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

/// A deliberate difference between the core and other implementations: what the core answers
/// wherever the difference's reason holds, and which of the others' answers it excuses there.
/// A policy excuses others, never the core: on an input it covers, a core that answers
/// otherwise than stated diverges, whatever the others answer, and so does a core whose answer
/// differs from what the answers the policy does not excuse agree on.
#[derive(Debug, Clone, Copy)]
pub struct Policy {
    /// A stable identifier.
    pub id: &'static str,
    /// What the core answers on every input the policy covers.
    pub core: Expect,
    /// The answers of the others that the policy excuses there.
    pub excuses: Excuse,
    /// Which inputs the difference is about; elsewhere the same outcomes are a divergence. An
    /// input the predicate cannot read is the harness's failure, never an input it is not
    /// about.
    pub applies: Applies,
    /// Why the core answers differently.
    pub reason: &'static str,
}

/// Policies are told apart by their identifiers.
impl PartialEq for Policy {
    fn eq(&self, other: &Policy) -> bool {
        self.id == other.id
    }
}

impl Eq for Policy {}

/// Whether a policy's reason holds for an input, read from the input alone.
pub type Applies = fn(&[u8]) -> Result<bool, Unreadable>;

/// What the core answers on the inputs a policy covers.
#[derive(Debug, Clone, Copy)]
pub enum Expect {
    /// Rejected with this kind (where an input has several problems, the core may name another
    /// that comes first: the `error-precedence` policy says which).
    Rejects(&'static str),
    /// Rejected, whatever the kind.
    RejectsAny,
    /// Rejected, naming one of the kinds the function reads off the input as those the core
    /// may name first.
    RejectsFirstProblem(fn(&[u8]) -> BTreeSet<&'static str>),
    /// Accepted, writing what the answers the policy does not excuse agree on.
    Accepts,
}

impl Expect {
    /// Whether `core` is the answer stated.
    fn stated_by(self, input: &[u8], core: &Outcome) -> bool {
        match self {
            Expect::Rejects(kind) => rejection(core) == Some(kind),
            Expect::RejectsAny => rejection(core).is_some(),
            Expect::RejectsFirstProblem(first) => {
                rejection(core).is_some_and(|kind| first(input).contains(kind))
            }
            Expect::Accepts => matches!(core, Outcome::Ok(_)),
        }
    }

    /// Whether `core`, an answer, contradicts the statement: accepts where the core refuses,
    /// refuses where it accepts, or names a problem that does not come first.
    fn broken_by(self, input: &[u8], core: &Outcome) -> bool {
        match self {
            Expect::Rejects(_) | Expect::RejectsAny => rejection(core).is_none(),
            Expect::RejectsFirstProblem(first) => {
                !rejection(core).is_some_and(|kind| first(input).contains(kind))
            }
            Expect::Accepts => rejection(core).is_some(),
        }
    }
}

/// The others' answers a policy excuses where it applies: answers of a shape, from any group
/// or from the groups named.
#[derive(Debug, Clone, Copy)]
pub struct Excuse {
    /// The shape of the answers excused.
    pub answers: Excused,
    /// The groups whose answers are excused; empty for every group.
    pub groups: &'static [&'static str],
}

/// The shape of the answers a policy excuses; only answers that differ from the core's are
/// ever excused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Excused {
    /// Any answer.
    Any,
    /// Acceptances.
    Accepting,
    /// Rejections of this kind.
    Rejecting(&'static str),
    /// Rejections of any kind.
    RejectingAny,
    /// Acceptances that write another output than the core's.
    WritingOtherwise,
}

impl Excuse {
    /// Any answer other than the core's, from any group.
    pub const ANY: Excuse = Excuse::of(Excused::Any);
    /// Acceptances, from any group.
    pub const ACCEPTING: Excuse = Excuse::of(Excused::Accepting);
    /// Rejections of any kind, from any group.
    pub const REJECTING: Excuse = Excuse::of(Excused::RejectingAny);

    /// Answers of this shape from any group.
    pub const fn of(answers: Excused) -> Excuse {
        Excuse {
            answers,
            groups: &[],
        }
    }

    /// Answers of this shape from the named groups only.
    pub const fn from(answers: Excused, groups: &'static [&'static str]) -> Excuse {
        Excuse { answers, groups }
    }

    /// Whether `answer`, given by `member` where the core answered `core`, is excused.
    pub fn covers(&self, member: &Member, answer: &Outcome, core: &Outcome) -> bool {
        if member.name == CORE || !answer.is_answer() || agree(answer, core) {
            return false;
        }
        if !self.groups.is_empty() && !self.groups.contains(&member.group.as_str()) {
            return false;
        }
        match self.answers {
            Excused::Any => true,
            Excused::Accepting => matches!(answer, Outcome::Ok(_)),
            Excused::Rejecting(kind) => rejection(answer) == Some(kind),
            Excused::RejectingAny => rejection(answer).is_some(),
            Excused::WritingOtherwise => {
                matches!((answer, core), (Outcome::Ok(_), Outcome::Ok(_)))
            }
        }
    }
}

/// The kinds the core may name first for a document, by an independent reading of it. The
/// predicates here share one reading of an input (`reading::read_shared`): a verdict asks
/// them about it in turn.
fn first_problems(input: &[u8]) -> BTreeSet<&'static str> {
    reading::read_shared(input).first_problems()
}

/// Whether the document's first problems (see [`first_problems`]) include `kind`.
fn first_problem_is(input: &[u8], kind: &str) -> bool {
    first_problems(input).contains(kind)
}

fn duplicate_names(input: &[u8]) -> Result<bool, Unreadable> {
    Ok(first_problem_is(input, "duplicate_key"))
}

fn lone_surrogates(input: &[u8]) -> Result<bool, Unreadable> {
    Ok(first_problem_is(input, "lone_surrogate"))
}

fn number_range(input: &[u8]) -> Result<bool, Unreadable> {
    Ok(first_problem_is(input, "number_out_of_range"))
}

fn past_depth_bound(input: &[u8]) -> Result<bool, Unreadable> {
    Ok(first_problem_is(input, "depth_limit"))
}

/// The deepest nesting serde_json reads (its recursion limit refuses 128 levels), past which
/// it refuses what RFC 8785 allows.
const SERDE_JSON_DEPTH: usize = 127;

/// Whether a valid document nests deeper than serde_json reads but within the core's bound.
fn deeper_than_readers_go(input: &[u8]) -> Result<bool, Unreadable> {
    let r = reading::read_shared(input);
    Ok(r.problems.is_empty() && r.depth > SERDE_JSON_DEPTH)
}

/// The member name serde_json's raw-value feature reserves for its marker.
const MARKER: &str = "$serde_json::private::RawValue";

/// Whether a valid document has a member with serde_json's private marker name.
fn names_serde_json_marker(input: &[u8]) -> Result<bool, Unreadable> {
    let r = reading::read_shared(input);
    Ok(r.problems.is_empty() && r.names.contains(MARKER))
}

/// Whether a document without a problem has an object whose one member is named as serde_json's
/// private marker and holds a string that is itself JSON: serde_json's `Value` reads that object
/// as the JSON the string holds.
fn marker_holds_json(input: &[u8]) -> Result<bool, Unreadable> {
    if !names_serde_json_marker(input)? {
        return Ok(false);
    }
    let holds = values::judge(input, |value| {
        let mut pending = vec![&value];
        while let Some(v) = pending.pop() {
            match v {
                serde_json::Value::Array(items) => pending.extend(items),
                serde_json::Value::Object(members) => {
                    let holds_json = members.len() == 1
                        && members
                            .get(MARKER)
                            .and_then(serde_json::Value::as_str)
                            .is_some_and(|text| {
                                serde_json::from_str::<serde::de::IgnoredAny>(text).is_ok()
                            });
                    if holds_json {
                        return true;
                    }
                    pending.extend(members.values());
                }
                _ => {}
            }
        }
        false
    })?;
    Ok(holds == Some(true))
}

/// Whether a document with a problem also has a member with serde_json's private marker
/// name, which the serde_json-based crates stop at before they reach the problem.
fn marker_beside_a_problem(input: &[u8]) -> Result<bool, Unreadable> {
    let r = reading::read_shared(input);
    Ok(!r.problems.is_empty() && r.names.contains(MARKER))
}

/// Whether the document has two or more distinct problems, counting nesting past what
/// serde_json reads as one (the serde_json-based crates meet it before anything after it).
fn several_problems(input: &[u8]) -> Result<bool, Unreadable> {
    let r = reading::read_shared(input);
    let too_deep_for_serde_json = r.depth > SERDE_JSON_DEPTH && !r.problems.contains("depth_limit");
    Ok(r.problems.len() + usize::from(too_deep_for_serde_json) >= 2)
}

/// Every registered policy difference of the JCS family, with its reason. Differences listed
/// here are reported as policy, never silently dropped. `error-precedence` comes first: where
/// a document has several problems and everyone rejects, the difference is which one is named,
/// not a rule the others skip.
pub const JCS_POLICIES: [Policy; 9] = [
    Policy {
        id: "error-precedence",
        core: Expect::RejectsFirstProblem(first_problems),
        excuses: Excuse::REJECTING,
        applies: several_problems,
        reason: "when a document breaks several rules the core reports invalid UTF-8 first, then the first grammar error, then the first I-JSON rule in reading order; others report whichever problem their parser meets, or the only one they check",
    },
    Policy {
        id: "duplicate-names",
        core: Expect::Rejects("duplicate_key"),
        excuses: Excuse::ANY,
        applies: duplicate_names,
        reason: "I-JSON (RFC 7493 §2.3), which RFC 8785 §3.1 requires, forbids duplicate member names; implementations that keep the last member sign a document whose meaning another parser may read differently",
    },
    Policy {
        id: "lone-surrogates",
        core: Expect::Rejects("lone_surrogate"),
        excuses: Excuse::ANY,
        applies: lone_surrogates,
        reason: "I-JSON (RFC 7493 §2.1) requires strings to be valid Unicode; an escaped lone surrogate has no UTF-8 form to canonicalize to",
    },
    Policy {
        id: "number-range",
        core: Expect::Rejects("number_out_of_range"),
        excuses: Excuse::ANY,
        applies: number_range,
        reason: "a number beyond the double range has no RFC 8785 §3.2.2.3 serialization; writing null or Infinity would change the value",
    },
    Policy {
        id: "depth-bound",
        core: Expect::Rejects("depth_limit"),
        excuses: Excuse::ANY,
        applies: past_depth_bound,
        reason: "the core bounds nesting (default 10,000 levels) so that no document can exhaust its memory; deeper documents are refused, not crashed on",
    },
    Policy {
        id: "deep-nesting",
        core: Expect::Accepts,
        excuses: Excuse::of(Excused::Rejecting("depth_limit")),
        applies: deeper_than_readers_go,
        reason: "RFC 8785 sets no nesting limit; the core accepts up to 10,000 levels where serde_json stops at 128 and CPython near 1,000",
    },
    Policy {
        id: "serde-json-marker-name",
        core: Expect::Accepts,
        excuses: Excuse::from(Excused::RejectingAny, &[RUST_SERDE_JSON_GROUP]),
        applies: names_serde_json_marker,
        reason: "a member named \"$serde_json::private::RawValue\" is an ordinary name to RFC 8785, and Node and Python accept it as the core does; the in-process Rust crates refuse an object that starts with it because serde_json's raw_value feature, which the core's dependency switches on for the whole build, reserves the name for its raw-value marker: as a syntax error, or as whatever the JSON its string holds breaks (\"1e400\" as a number out of range)",
    },
    Policy {
        id: "serde-json-marker-value",
        core: Expect::Accepts,
        excuses: Excuse::from(Excused::WritingOtherwise, &[RUST_SERDE_JSON_GROUP]),
        applies: marker_holds_json,
        reason: "an object whose one member is named \"$serde_json::private::RawValue\" and holds a string of JSON is that object to RFC 8785, and Node and Python write it as the core does; the in-process Rust crates canonicalize the JSON the string holds instead, because serde_json's raw_value feature, which the core's dependency switches on for the whole build, reads the object as its raw-value marker",
    },
    Policy {
        id: "serde-json-marker-kind",
        core: Expect::RejectsFirstProblem(first_problems),
        excuses: Excuse::from(Excused::RejectingAny, &[RUST_SERDE_JSON_GROUP]),
        applies: marker_beside_a_problem,
        reason: "a document that names serde_json's private marker (see serde-json-marker-name) and has a problem besides: the core names the problem an independent reading sees first, as Node and Python do, where the in-process Rust crates stop at the marker and report a syntax error",
    },
];

/// The Merkle family's registered differences.
pub const MERKLE_POLICIES: [Policy; 2] = [
    Policy {
        id: "empty-prefix",
        core: Expect::Accepts,
        excuses: Excuse::REJECTING,
        applies: merkle_case::empty_prefix,
        reason: "RFC 9162 §2.1.4 defines consistency for 0 < m < n only; INK's corpus (merkle-consistency, empty-prefix-accepts) takes the empty tree as a prefix of every tree, with the empty tree's root and an empty proof, which libraries that follow the RFC's range refuse",
    },
    Policy {
        id: "safe-integer-sizes",
        core: Expect::Rejects("size"),
        excuses: Excuse::ANY,
        applies: merkle_case::size_past_safe_integers,
        reason: "INK bounds tree sizes to 2^53 - 1 so that a JavaScript implementation reads the same number (merkle-consistency, second-above-safe-integer-rejects); libraries with 64-bit sizes go on",
    },
];

/// What a family's verdicts rest on: its name in signatures, its registered policies, and the
/// group whose answer stands in when the independent groups reach no consensus.
#[derive(Debug, Clone, Copy)]
pub struct Rules {
    /// The family's name, as signatures begin.
    pub family: &'static str,
    /// Its registered differences.
    pub policies: &'static [Policy],
    /// The group whose answer stands in without a consensus.
    pub reference_group: &'static str,
}

/// The JCS family's rules: RFC 8785 defers to ECMAScript, so V8's answer stands in.
pub const JCS_RULES: Rules = Rules {
    family: "jcs",
    policies: &JCS_POLICIES,
    reference_group: "node-v8",
};

/// The Merkle family's rules: ct-merkle is the only other verifier of consistency proofs.
pub const MERKLE_RULES: Rules = Rules {
    family: "merkle",
    policies: &MERKLE_POLICIES,
    reference_group: "ct-merkle",
};

/// The kind of a rejection, `None` for other outcomes.
fn rejection(outcome: &Outcome) -> Option<&str> {
    match outcome {
        Outcome::Rejected(kind) => Some(kind),
        _ => None,
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
    /// The core differs from the consensus of the independent implementations, or breaks a
    /// rule it registered as policy where the rule's reason holds.
    CoreDiverges,
    /// Third parties disagree among themselves (or crash, or hang); the core sides with the
    /// consensus, or there is none.
    ThirdParties,
    /// The harness could not judge the case: this policy's predicate could not read the
    /// input. Never an excuse: a campaign with such a case has failed.
    Unjudged(&'static Policy),
}

impl Verdict {
    /// A stable name for reports and vectors.
    pub fn name(&self) -> &'static str {
        match self {
            Verdict::Agree => "agree",
            Verdict::Policy(_) => "policy",
            Verdict::CoreDiverges => "core_diverges",
            Verdict::ThirdParties => "third_parties_disagree",
            Verdict::Unjudged(_) => UNJUDGED,
        }
    }

    /// The verdict as a finding's key names it: its name, and the policy it is about.
    pub fn tag(&self) -> String {
        match self {
            Verdict::Policy(p) => format!("policy({})", p.id),
            Verdict::Unjudged(p) => format!("unjudged({})", p.id),
            _ => self.name().to_string(),
        }
    }
}

/// The name of the verdict of a case the harness could not judge.
pub const UNJUDGED: &str = "unjudged";

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
    /// The stable signature: family, verdict (with its policy), implementations and outcome
    /// classes (for agreement, only that). Cases are findings of one signature only when their
    /// verdicts are the same, so no case's verdict is folded into another's.
    pub signature: String,
}

/// Compares the outcomes of `members` (same order) for `input`, a case of the family whose
/// `rules` are given.
pub fn evaluate(
    rules: &Rules,
    input: &[u8],
    members: &[Member],
    outcomes: &[Outcome],
) -> Evaluation {
    evaluate_with_quorum(rules, input, members, outcomes, 2)
}

/// [`evaluate`], with the number of voting groups a consensus needs set by the caller: a fuzz
/// target that has only one independent group in process accepts that group's answer.
pub fn evaluate_with_quorum(
    rules: &Rules,
    input: &[u8],
    members: &[Member],
    outcomes: &[Outcome],
    quorum: usize,
) -> Evaluation {
    let pairs: Vec<(&Member, &Outcome)> = members.iter().zip(outcomes).collect();
    let consensus = consensus(&pairs, quorum, rules.reference_group);
    let failed = |o: &Outcome| matches!(o, Outcome::Crashed(_) | Outcome::TimedOut);
    let answers: Vec<&Outcome> = outcomes.iter().filter(|o| o.is_answer()).collect();
    let all_agree = answers
        .windows(2)
        .all(|w| matches!(w, [a, b] if agree(a, b)))
        && answers.iter().all(|a| agree(a, answers[0]))
        && !outcomes.iter().any(failed);
    let mut diverging: Vec<String> = pairs
        .iter()
        .filter(|(_, o)| {
            failed(o) || (o.is_answer() && consensus.as_ref().is_some_and(|c| !agree(o, c)))
        })
        .map(|(m, _)| m.name.clone())
        .collect();
    let verdict = match judge(rules, input, &pairs, consensus.as_ref(), all_agree, quorum) {
        Ok(verdict) => verdict,
        Err(policy) => Verdict::Unjudged(policy),
    };
    if verdict == Verdict::CoreDiverges && !diverging.iter().any(|n| n == CORE) {
        diverging.push(CORE.to_string());
    }
    let signature = if verdict == Verdict::Agree {
        agreement_signature(rules.family)
    } else {
        signature(&format!("{} {}", rules.family, verdict.tag()), &pairs)
    };
    Evaluation {
        verdict,
        consensus,
        diverging,
        signature,
    }
}

/// The verdict on the core's answer among `pairs`, given the consensus and whether every
/// answer agrees; `Err` names the policy whose predicate could not read the input. A core that
/// breaks what a policy covering the input says it answers diverges first of all; where the
/// core differs from the consensus, a policy explains it only when the core answers as the
/// policy says, the policy excuses some of the differing answers, and the answers it does not
/// excuse reach no consensus against the core's.
fn judge(
    rules: &Rules,
    input: &[u8],
    pairs: &[(&Member, &Outcome)],
    consensus: Option<&Outcome>,
    all_agree: bool,
    quorum: usize,
) -> Result<Verdict, &'static Policy> {
    let failed = |o: &Outcome| matches!(o, Outcome::Crashed(_) | Outcome::TimedOut);
    let core = pairs.iter().find(|(m, _)| m.name == CORE).map(|(_, o)| *o);
    if let Some(core) = core.filter(|c| c.is_answer()) {
        for policy in rules.policies {
            if policy.core.broken_by(input, core) && (policy.applies)(input).map_err(|_| policy)? {
                return Ok(Verdict::CoreDiverges);
            }
        }
    }
    if all_agree {
        return Ok(Verdict::Agree);
    }
    Ok(match (core, consensus) {
        (Some(core), Some(consensus)) if core.is_answer() && !agree(core, consensus) => {
            for policy in rules.policies {
                if excused_by(rules, policy, input, pairs, core, quorum)? {
                    return Ok(Verdict::Policy(policy));
                }
            }
            Verdict::CoreDiverges
        }
        (Some(core), _) if failed(core) => Verdict::CoreDiverges,
        _ => Verdict::ThirdParties,
    })
}

/// Whether `policy` explains the core's answer `core` among `pairs`: the core answers as the
/// policy says, the policy excuses at least one answer that differs from it, its reason holds
/// for the input, and the answers it does not excuse reach no consensus other than the core's.
fn excused_by(
    rules: &Rules,
    policy: &'static Policy,
    input: &[u8],
    pairs: &[(&Member, &Outcome)],
    core: &Outcome,
    quorum: usize,
) -> Result<bool, &'static Policy> {
    if !policy.core.stated_by(input, core) {
        return Ok(false);
    }
    let excused: Vec<bool> = pairs
        .iter()
        .map(|(m, o)| policy.excuses.covers(m, o, core))
        .collect();
    if !excused.contains(&true) || !(policy.applies)(input).map_err(|_| policy)? {
        return Ok(false);
    }
    let rest: Vec<(&Member, &Outcome)> = pairs
        .iter()
        .zip(&excused)
        .filter(|(_, excused)| !**excused)
        .map(|(pair, _)| *pair)
        .collect();
    Ok(consensus(&rest, quorum, rules.reference_group).is_none_or(|c| agree(core, &c)))
}

/// The answer a strict majority of the voting independent groups give (the core's group does
/// not vote), when at least `quorum` groups vote; otherwise the `reference` group's answer. A
/// group votes for the answer a strict majority of its answering members give.
fn consensus(pairs: &[(&Member, &Outcome)], quorum: usize, reference: &str) -> Option<Outcome> {
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
        .filter(|(m, o)| m.group == reference && o.is_answer())
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

/// The signature of every case where all implementations agree, which names no answer.
pub fn agreement_signature(family: &str) -> String {
    format!("{family}: all agree")
}

/// The answers part of a disagreement's signature among `members` answering `outcomes`, without
/// the verdict: each member's answer class, members in name order, outputs lettered by first
/// appearance, unsupported answers left out. Equal answers over a set of members give equal
/// answers over any subset of them, so a subset's can rule a candidate out before the rest are
/// asked.
pub fn signature_of(family: &str, members: &[Member], outcomes: &[Outcome]) -> String {
    let pairs: Vec<(&Member, &Outcome)> = members.iter().zip(outcomes).collect();
    signature(family, &pairs)
}

/// `head:` followed by each member's answer class.
fn signature(head: &str, pairs: &[(&Member, &Outcome)]) -> String {
    let mut sorted: Vec<&(&Member, &Outcome)> = pairs.iter().collect();
    sorted.sort_by(|a, b| a.0.name.cmp(&b.0.name));
    let mut outputs: Vec<&[u8]> = Vec::new();
    let mut text = String::with_capacity(head.len() + 32 * pairs.len());
    text.push_str(head);
    text.push(':');
    for (member, outcome) in sorted {
        if *outcome == &Outcome::Unsupported {
            continue;
        }
        text.push(' ');
        text.push_str(&member.name);
        text.push('=');
        match outcome {
            Outcome::Ok(bytes) => {
                let index = outputs.iter().position(|o| o == bytes).unwrap_or_else(|| {
                    outputs.push(bytes);
                    outputs.len() - 1
                });
                text.push_str("ok(");
                text.push(char::from(b'A' + (index % 26) as u8));
                text.push(')');
            }
            Outcome::Rejected(kind) => {
                text.push_str("error(");
                text.push_str(kind);
                text.push(')');
            }
            Outcome::Crashed(_) => text.push_str("crashed"),
            Outcome::TimedOut => text.push_str("timed_out"),
            Outcome::Unsupported => {}
        }
    }
    text
}

/// Members named and grouped as given: how tests state who answered.
pub fn members_of(pairs: &[(&str, &str)]) -> Vec<Member> {
    pairs
        .iter()
        .map(|(n, g)| Member {
            name: n.to_string(),
            group: g.to_string(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn members() -> Vec<Member> {
        members_of(&[
            ("core", "canonfuzz-core"),
            ("serde_jcs", "rust"),
            ("json-canon", "rust"),
            ("node", "node-v8"),
            ("py", "cpython"),
        ])
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
            &JCS_RULES,
            b"",
            &members(),
            &[ok("1"), ok("1"), ok("1"), ok("1"), err("other")],
        );
        assert_eq!(e.verdict, Verdict::ThirdParties);
        assert_eq!(e.diverging, vec!["py"]);
        let e = evaluate(
            &JCS_RULES,
            b"",
            &members(),
            &[ok("2"), ok("1"), ok("1"), ok("1"), ok("1")],
        );
        assert_eq!(e.verdict, Verdict::CoreDiverges);
        assert_eq!(
            e.signature,
            "jcs core_diverges: core=ok(A) json-canon=ok(B) node=ok(B) py=ok(B) serde_jcs=ok(B)"
        );
        let e = evaluate(
            &JCS_RULES,
            b"",
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
            &JCS_RULES,
            b"",
            &members(),
            &[ok("A"), ok("A"), ok("A"), ok("B"), ok("B")],
        );
        assert_eq!(e.consensus, Some(ok("B")));
        assert_eq!(e.verdict, Verdict::CoreDiverges);
    }

    #[test]
    fn registered_policy_is_reported_as_such() {
        let e = evaluate(
            &JCS_RULES,
            br#"{"a":1,"a":2}"#,
            &members(),
            &[err("duplicate_key"), ok("{}"), ok("{}"), ok("{}"), ok("{}")],
        );
        assert!(matches!(e.verdict, Verdict::Policy(p) if p.id == "duplicate-names"));
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        let e = evaluate(
            &JCS_RULES,
            deep.as_bytes(),
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
    fn a_core_that_stops_keeping_its_policy_diverges_even_where_others_agree_with_it() {
        // Everyone, the core included, keeps the last of two duplicate names: agreement among
        // lenient implementations, but the core's duplicate-names policy says it refuses.
        let dup = br#"{"a":1,"a":2}"#;
        let all_accept = [
            ok("{\"a\":2}"),
            ok("{\"a\":2}"),
            ok("{\"a\":2}"),
            ok("{\"a\":2}"),
            ok("{\"a\":2}"),
        ];
        let e = evaluate(&JCS_RULES, dup, &members(), &all_accept);
        assert_eq!(e.verdict, Verdict::CoreDiverges);
        assert_eq!(e.diverging, ["core"]);
        // Keeping the policy, the same input is policy, not a divergence.
        let mut kept = all_accept.clone();
        kept[0] = err("duplicate_key");
        let e = evaluate(&JCS_RULES, dup, &members(), &kept);
        assert!(matches!(e.verdict, Verdict::Policy(p) if p.id == "duplicate-names"));
        // Where the policy's reason does not hold, agreement stays agreement.
        let e = evaluate(&JCS_RULES, br#"{"a":2}"#, &members(), &all_accept);
        assert_eq!(e.verdict, Verdict::Agree);
        // An error-precedence policy is broken by naming a problem that is not first.
        let several = br#"{"a":1,"a":"\ud800"}"#;
        let rejections = |core: &str| {
            [
                err(core),
                err("other"),
                err("other"),
                err("syntax"),
                err("other"),
            ]
        };
        let e = evaluate(
            &JCS_RULES,
            several,
            &members(),
            &rejections("duplicate_key"),
        );
        assert_ne!(e.verdict, Verdict::CoreDiverges);
        let e = evaluate(
            &JCS_RULES,
            several,
            &members(),
            &rejections("number_out_of_range"),
        );
        assert_eq!(e.verdict, Verdict::CoreDiverges);
    }

    #[test]
    fn a_core_that_stops_showing_a_departure_diverges_even_where_others_agree_with_it() {
        // RFC 8785 sets no nesting limit and the core states that it accepts 10,000 levels:
        // a core that refuses 200 levels as serde_json does agrees with serde_json and
        // CPython, and diverges.
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        let all_refuse = [
            err("depth_limit"),
            err("depth_limit"),
            err("depth_limit"),
            err("depth_limit"),
            err("depth_limit"),
        ];
        let e = evaluate(&JCS_RULES, deep.as_bytes(), &members(), &all_refuse);
        assert_eq!(e.verdict, Verdict::CoreDiverges);
        // Accepting, it must write what the answers the policy does not excuse write: V8's
        // here, which stands in for a consensus.
        let mut written = all_refuse.clone();
        written[0] = ok("[[]]");
        written[3] = ok("[]");
        let e = evaluate(&JCS_RULES, deep.as_bytes(), &members(), &written);
        assert_eq!(e.verdict, Verdict::CoreDiverges);
        written[0] = ok("[]");
        let e = evaluate(&JCS_RULES, deep.as_bytes(), &members(), &written);
        assert!(matches!(e.verdict, Verdict::Policy(p) if p.id == "deep-nesting"));
        // INK takes the empty tree as a prefix of every tree: a core that refuses it as the
        // RFC's range does diverges though ct-merkle refuses it too.
        let merkle = members_of(&[("core", "canonfuzz-core"), ("ct-merkle", "ct-merkle")]);
        let empty_root = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
        let consistency = |first_root: &str, proof: &str| {
            format!(
                r#"{{"op":"consistency","first":0,"second":3,"firstRoot":"{first_root}","secondRoot":"{}","proof":[{proof}]}}"#,
                "ab".repeat(32)
            )
        };
        let both_refuse = [err("other"), err("other")];
        let taken = consistency(empty_root, "");
        let e = evaluate_with_quorum(&MERKLE_RULES, taken.as_bytes(), &merkle, &both_refuse, 1);
        assert_eq!(e.verdict, Verdict::CoreDiverges);
        let accepted = [ok("valid"), err("other")];
        let e = evaluate_with_quorum(&MERKLE_RULES, taken.as_bytes(), &merkle, &accepted, 1);
        assert!(matches!(e.verdict, Verdict::Policy(p) if p.id == "empty-prefix"));
        // A wrong first root, or a proof where none is due, is refused by everyone.
        for refused in [
            consistency(&"00".repeat(32), ""),
            consistency(empty_root, &format!("\"{}\"", "cd".repeat(32))),
        ] {
            let e =
                evaluate_with_quorum(&MERKLE_RULES, refused.as_bytes(), &merkle, &both_refuse, 1);
            assert_eq!(e.verdict, Verdict::Agree, "{refused}");
            let e = evaluate_with_quorum(&MERKLE_RULES, refused.as_bytes(), &merkle, &accepted, 1);
            assert_eq!(e.verdict, Verdict::CoreDiverges, "{refused}");
        }
    }

    #[test]
    fn equal_answers_under_different_verdicts_are_different_findings() {
        // The same answers: a policy where two names are alike, a divergence where they are
        // not. A finding keyed by the answers alone would fold the second into the first.
        let answers = [err("duplicate_key"), ok("{}"), ok("{}"), ok("{}"), ok("{}")];
        let policy = evaluate(&JCS_RULES, br#"{"a":1,"a":2}"#, &members(), &answers);
        let diverges = evaluate(&JCS_RULES, br#"{"a":1,"b":2}"#, &members(), &answers);
        assert!(matches!(policy.verdict, Verdict::Policy(p) if p.id == "duplicate-names"));
        assert_eq!(diverges.verdict, Verdict::CoreDiverges);
        assert_ne!(policy.signature, diverges.signature);
        assert!(
            policy
                .signature
                .starts_with("jcs policy(duplicate-names): "),
            "{}",
            policy.signature
        );
        assert!(diverges.signature.starts_with("jcs core_diverges: "));
        // The answers part is the same, as the minimizer's screening compares it.
        let answers_part = |s: &str| s.split_once(": ").map(|(_, a)| a.to_string());
        assert_eq!(
            answers_part(&policy.signature),
            answers_part(&diverges.signature)
        );
        assert_eq!(
            answers_part(&policy.signature),
            answers_part(&signature_of("jcs", &members(), &answers))
        );
    }

    /// A policy whose predicate cannot read any input.
    static UNREADABLE: [Policy; 1] = [Policy {
        id: "unreadable",
        core: Expect::Rejects("duplicate_key"),
        excuses: Excuse::ANY,
        applies: |_| Err(Unreadable("a planted reading failure".to_string())),
        reason: "none",
    }];

    #[test]
    fn a_predicate_that_cannot_read_leaves_the_case_unjudged() {
        let rules = Rules {
            family: "jcs",
            policies: &UNREADABLE,
            reference_group: "node-v8",
        };
        // The policy is asked whether it explains the core's refusal: unjudged, not a
        // divergence and not "does not apply".
        let refused = [err("duplicate_key"), ok("{}"), ok("{}"), ok("{}"), ok("{}")];
        let e = evaluate(&rules, br#"{"a":1,"a":2}"#, &members(), &refused);
        assert!(matches!(e.verdict, Verdict::Unjudged(p) if p.id == "unreadable"));
        assert!(e.signature.starts_with("jcs unjudged(unreadable): "));
        // Asked whether an accepting core breaks it: unjudged too.
        let accepted = [ok("{}"), ok("{}"), ok("{}"), ok("{}"), ok("{}")];
        let e = evaluate(&rules, b"{}", &members(), &accepted);
        assert!(matches!(e.verdict, Verdict::Unjudged(_)));
        // Where no policy is asked (the core refuses, but not as the policy says), the
        // verdict stands.
        let e = evaluate(
            &rules,
            b"[1]",
            &members(),
            &[err("syntax"), ok("1"), ok("1"), ok("1"), ok("1")],
        );
        assert_eq!(e.verdict, Verdict::CoreDiverges);
    }

    #[test]
    fn crashes_and_hangs_are_findings() {
        let e = evaluate(
            &JCS_RULES,
            b"",
            &members(),
            &[ok("1"), ok("1"), ok("1"), Outcome::TimedOut, ok("1")],
        );
        assert_eq!(e.verdict, Verdict::ThirdParties);
        assert_eq!(e.diverging, vec!["node"]);
        assert!(e.signature.contains("node=timed_out"));
    }
}

#[cfg(test)]
mod jcs_policy_tests {
    use super::*;

    fn members() -> Vec<Member> {
        members_of(&[
            ("core", "canonfuzz-core"),
            ("node", "node-v8"),
            ("py", "cpython"),
        ])
    }

    fn verdict(input: &str, core: Outcome, others: Outcome) -> Verdict {
        evaluate(
            &JCS_RULES,
            input.as_bytes(),
            &members(),
            &[core, others.clone(), others],
        )
        .verdict
    }

    fn ok() -> Outcome {
        Outcome::Ok(b"[]".to_vec())
    }

    fn err(kind: &str) -> Outcome {
        Outcome::Rejected(kind.to_string())
    }

    fn policy(v: Verdict) -> Option<&'static str> {
        match v {
            Verdict::Policy(p) => Some(p.id),
            _ => None,
        }
    }

    #[test]
    fn each_policy_holds_where_its_reason_does_and_nowhere_else() {
        let deep = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
        let (past, within, beyond_serde, shallow) =
            (deep(10_001), deep(10_000), deep(200), deep(100));
        // (policy, core, others, an input where the reason holds, one where it does not)
        let cases: [(&str, Outcome, Outcome, &str, &str); 7] = [
            (
                "duplicate-names",
                err("duplicate_key"),
                ok(),
                r#"{"a":1,"\u0061":2}"#,
                r#"{"a":1,"\u00e9":2}"#,
            ),
            (
                "lone-surrogates",
                err("lone_surrogate"),
                ok(),
                r#"["\ud800"]"#,
                r#"["\ud83d\ude00"]"#,
            ),
            (
                "number-range",
                err("number_out_of_range"),
                ok(),
                "[1e400]",
                "[1e300]",
            ),
            ("depth-bound", err("depth_limit"), ok(), &past, &within),
            (
                "deep-nesting",
                ok(),
                err("depth_limit"),
                &beyond_serde,
                &shallow,
            ),
            (
                "error-precedence",
                err("duplicate_key"),
                err("lone_surrogate"),
                r#"{"a":1,"a":"\ud800"}"#,
                r#"{"a":1,"a":2,}"#,
            ),
            (
                "error-precedence",
                err("number_out_of_range"),
                err("duplicate_key"),
                r#"{"a":1e400,"a":1}"#,
                r#"{"a":1e400,"a":1,}"#,
            ),
        ];
        for (id, core, others, holds, not) in cases {
            assert_eq!(
                policy(verdict(holds, core.clone(), others.clone())),
                Some(id),
                "{id}: {holds:.40}"
            );
            assert_eq!(
                verdict(not, core, others),
                Verdict::CoreDiverges,
                "{id}: {not:.40}"
            );
        }
    }

    /// The verdict where the serde_json-based crates answer `serde` and the core `core`, the
    /// crates being the only others, as in the in-process fuzz target.
    fn beside_serde_json(input: &str, core: Outcome, serde: Outcome) -> Verdict {
        let members = members_of(&[
            ("core", "canonfuzz-core"),
            ("serde_jcs", RUST_SERDE_JSON_GROUP),
        ]);
        evaluate_with_quorum(&JCS_RULES, input.as_bytes(), &members, &[core, serde], 1).verdict
    }

    #[test]
    fn the_marker_policies_excuse_the_readers_that_read_the_marker() {
        let holds_json = r#"[{"$serde_json::private::RawValue":"[1]"}]"#;
        let as_written = Outcome::Ok(holds_json.as_bytes().to_vec());
        let as_marker = Outcome::Ok(b"[[1]]".to_vec());
        // The crates that read the marker are excused for writing the JSON it holds.
        assert_eq!(
            policy(beside_serde_json(
                holds_json,
                as_written.clone(),
                as_marker.clone()
            )),
            Some("serde-json-marker-value")
        );
        // Only a string of JSON is read in the object's place.
        let holds_no_json = r#"[{"$serde_json::private::RawValue":"x"}]"#;
        assert_eq!(
            beside_serde_json(holds_no_json, ok(), Outcome::Ok(b"x".to_vec())),
            Verdict::CoreDiverges
        );
        // Others than those readers are not excused: where they write the object as written,
        // a core that reads the marker diverges.
        assert_eq!(
            verdict(holds_json, as_marker.clone(), as_written.clone()),
            Verdict::CoreDiverges
        );
        // The crates refuse a marker-named object, as a syntax error or as whatever the JSON
        // its string holds breaks; only they are excused for it.
        let named = r#"{"$serde_json::private::RawValue":0}"#;
        assert_eq!(
            policy(beside_serde_json(named, ok(), err("syntax"))),
            Some("serde-json-marker-name")
        );
        let holds_a_big_number = r#"{"$serde_json::private::RawValue":"1e400"}"#;
        assert_eq!(
            policy(beside_serde_json(
                holds_a_big_number,
                ok(),
                err("number_out_of_range")
            )),
            Some("serde-json-marker-name")
        );
        assert_eq!(verdict(named, ok(), err("syntax")), Verdict::CoreDiverges);
        assert_eq!(
            beside_serde_json(r#"{"a":0}"#, ok(), err("syntax")),
            Verdict::CoreDiverges
        );
        // A valid document with the marker name is one the core accepts: refusing it diverges
        // even where the crates refuse it too.
        assert_eq!(
            beside_serde_json(named, err("syntax"), err("syntax")),
            Verdict::CoreDiverges
        );
        assert_eq!(
            beside_serde_json(holds_json, err("syntax"), as_marker),
            Verdict::CoreDiverges
        );
    }

    #[test]
    fn the_marker_name_explains_a_syntax_error_only_beside_the_problem_the_core_names() {
        // Found by the jcs_diff fuzz target: the Rust crates stop at the marker and say
        // `syntax`; the core, Node and Python name the invalid UTF-8 after it.
        let with = |first: &[u8], core: Outcome| {
            let mut input = first.to_vec();
            input.extend_from_slice(b":0,\"\xd6\":[]}");
            let members = members_of(&[
                ("core", "canonfuzz-core"),
                ("serde_jcs", RUST_SERDE_JSON_GROUP),
                ("json-canon", RUST_SERDE_JSON_GROUP),
            ]);
            let outcomes = [core, err("syntax"), err("syntax")];
            evaluate_with_quorum(&JCS_RULES, &input, &members, &outcomes, 1).verdict
        };
        let marker = br#"{"$serde_json::private::RawValue""#;
        assert_eq!(
            policy(with(marker, err("invalid_utf8"))),
            Some("serde-json-marker-kind")
        );
        assert_eq!(with(br#"{"a""#, err("invalid_utf8")), Verdict::CoreDiverges);
        // Where the marker is named, the core must still name the first problem, and refuse.
        assert_eq!(with(marker, err("depth_limit")), Verdict::CoreDiverges);
        assert_eq!(with(marker, ok()), Verdict::CoreDiverges);
    }

    #[test]
    fn a_false_rejection_of_a_valid_document_is_red_whatever_kind_it_names() {
        for kind in [
            "duplicate_key",
            "lone_surrogate",
            "number_out_of_range",
            "depth_limit",
            "syntax",
        ] {
            let v = verdict(r#"{"a":"\u00e9","b":[1.5]}"#, err(kind), ok());
            assert_eq!(v, Verdict::CoreDiverges, "{kind}");
        }
    }

    #[test]
    fn a_case_goes_to_the_policy_whose_reason_holds() {
        // A duplicate and a lone surrogate: the others reject too, so it is not the
        // "others keep the last member" reason but the precedence one.
        let v = verdict(
            r#"{"a":"\ud800","a":1}"#,
            err("duplicate_key"),
            err("lone_surrogate"),
        );
        assert_eq!(policy(v), Some("error-precedence"));
        // One problem that serde_json-based crates report as a syntax error: the core's kind
        // is the right one, and the policy about that problem explains it.
        let v = verdict(r#""\ud800""#, err("lone_surrogate"), err("syntax"));
        assert_eq!(policy(v), Some("lone-surrogates"));
        // A truncated document nested past serde_json's limit: the crates meet their depth
        // limit first, the core reports the truncation; not so where the nesting is shallow.
        let cut = |n: usize| "[".repeat(n);
        let v = verdict(&cut(200), err("syntax"), err("depth_limit"));
        assert_eq!(policy(v), Some("error-precedence"));
        assert_eq!(
            verdict(&cut(100), err("syntax"), err("depth_limit")),
            Verdict::CoreDiverges
        );
    }
}

#[cfg(test)]
mod reference_tests {
    use super::*;

    #[test]
    fn without_a_consensus_the_reference_group_decides() {
        let members = members_of(&[
            ("core", "canonfuzz-core"),
            ("rs", "rust"),
            ("node", "node-v8"),
            ("py", "cpython"),
        ]);
        let o = |s: &str| Outcome::Ok(s.as_bytes().to_vec());
        let e = evaluate(&JCS_RULES, b"", &members, &[o("1"), o("2"), o("1"), o("3")]);
        assert_eq!(e.consensus, Some(o("1")));
        assert_eq!(e.verdict, Verdict::ThirdParties);
        let e = evaluate(
            &JCS_RULES,
            b"[1e400,]",
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
