//! The agreement verdict for one input: who agrees with whom, what the independent
//! implementations' consensus is, and whether the core departs from it by registered policy.
//!
//! Implementations that share code are not independent votes. Each implementation belongs to a
//! group (the Rust crates share serde_json's parser and ryu-style number formatting, the two
//! npm libraries share V8, the two PyPI libraries share CPython); a group votes for the answer
//! most of its members give, and the consensus is the answer a strict majority of the voting
//! groups other than the core's own give; one group alone is no consensus. Without one, the
//! family's reference group's answer stands in (for JCS, V8's: RFC 8785 defers to ECMAScript).

use std::collections::BTreeSet;

use crate::outcome::Outcome;
use crate::read::for_judgment::Unreadable;

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
    use crate::jcs::policies::JCS_RULES;
    use crate::merkle::policies::MERKLE_RULES;

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
mod reference_tests {
    use super::*;
    use crate::jcs::policies::JCS_RULES;

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
