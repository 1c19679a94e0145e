//! The agreement verdict for one input: who agrees with whom, what the independent
//! implementations' consensus is, and whether the core departs from it by registered policy.
//!
//! Implementations that share code are not independent votes. Each implementation belongs to a
//! group (the four Rust crates share serde_json's parser and ryu-style number formatting, the
//! two npm libraries share V8, the two PyPI libraries share CPython); a group votes for the
//! answer most of its members give, and the consensus is the answer a strict majority of the
//! voting groups other than the core's own give; one group alone is no consensus. Without
//! one, the family's reference group's answer stands in (for JCS, V8's: RFC 8785 defers to
//! ECMAScript).

use std::fmt::Write as _;

use std::collections::BTreeSet;

use crate::family::Family;
use crate::gen;
use crate::outcome::Outcome;
use crate::reading;

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

/// A deliberate difference between the core and other implementations.
#[derive(Debug, Clone, Copy)]
pub struct Policy {
    /// A stable identifier.
    pub id: &'static str,
    /// What the core answers.
    pub core: Expect,
    /// Which inputs the difference is about; elsewhere the same outcomes are a divergence.
    pub applies: fn(&[u8]) -> bool,
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

/// A pattern over outcomes.
#[derive(Debug, Clone, Copy)]
pub enum Expect {
    /// Rejected with this kind, where others accept or reject for another reason.
    Rejects(&'static str),
    /// Rejected, whatever the kind, where others accept.
    RejectsWhereOthersAccept,
    /// Accepted, where others reject with this kind.
    AcceptsWhereOthersReject(&'static str),
    /// Accepted, where others reject for whatever reason.
    AcceptsWhereOthersRejectAny,
    /// Rejected, as others do, naming one of the kinds the function reads off the input as
    /// those the core may name first.
    RejectsFirstProblem(fn(&[u8]) -> BTreeSet<&'static str>),
}

/// The kinds the core may name first for a document, by an independent reading of it.
fn first_problems(input: &[u8]) -> BTreeSet<&'static str> {
    reading::read(input).first_problems()
}

/// Whether the document's first problems (see [`first_problems`]) include `kind`.
fn first_problem_is(input: &[u8], kind: &str) -> bool {
    first_problems(input).contains(kind)
}

fn duplicate_names(input: &[u8]) -> bool {
    first_problem_is(input, "duplicate_key")
}

fn lone_surrogates(input: &[u8]) -> bool {
    first_problem_is(input, "lone_surrogate")
}

fn number_range(input: &[u8]) -> bool {
    first_problem_is(input, "number_out_of_range")
}

fn past_depth_bound(input: &[u8]) -> bool {
    first_problem_is(input, "depth_limit")
}

/// The deepest nesting serde_json reads (its recursion limit refuses 128 levels), past which
/// it refuses what RFC 8785 allows.
const SERDE_JSON_DEPTH: usize = 127;

/// Whether a valid document nests deeper than serde_json reads but within the core's bound.
fn deeper_than_readers_go(input: &[u8]) -> bool {
    let r = reading::read(input);
    r.problems.is_empty() && r.depth > SERDE_JSON_DEPTH
}

/// Whether a valid document has a member with serde_json's private marker name.
fn names_serde_json_marker(input: &[u8]) -> bool {
    let r = reading::read(input);
    r.problems.is_empty() && r.names.contains("$serde_json::private::RawValue")
}

/// Whether the document has two or more distinct problems, counting nesting past what
/// serde_json reads as one (the serde_json-based crates meet it before anything after it).
fn several_problems(input: &[u8]) -> bool {
    let r = reading::read(input);
    let too_deep_for_serde_json = r.depth > SERDE_JSON_DEPTH && !r.problems.contains("depth_limit");
    r.problems.len() + usize::from(too_deep_for_serde_json) >= 2
}

/// Every registered policy difference of the JCS family, with its reason. Differences listed
/// here are reported as policy, never silently dropped. `error-precedence` comes first: where
/// a document has several problems and everyone rejects, the difference is which one is named,
/// not a rule the others skip.
pub const JCS_POLICIES: [Policy; 7] = [
    Policy {
        id: "error-precedence",
        core: Expect::RejectsFirstProblem(first_problems),
        applies: several_problems,
        reason: "when a document breaks several rules the core reports invalid UTF-8 first, then the first grammar error, then the first I-JSON rule in reading order; others report whichever problem their parser meets, or the only one they check",
    },
    Policy {
        id: "duplicate-names",
        core: Expect::Rejects("duplicate_key"),
        applies: duplicate_names,
        reason: "I-JSON (RFC 7493 §2.3), which RFC 8785 §3.1 requires, forbids duplicate member names; implementations that keep the last member sign a document whose meaning another parser may read differently",
    },
    Policy {
        id: "lone-surrogates",
        core: Expect::Rejects("lone_surrogate"),
        applies: lone_surrogates,
        reason: "I-JSON (RFC 7493 §2.1) requires strings to be valid Unicode; an escaped lone surrogate has no UTF-8 form to canonicalize to",
    },
    Policy {
        id: "number-range",
        core: Expect::Rejects("number_out_of_range"),
        applies: number_range,
        reason: "a number beyond the double range has no RFC 8785 §3.2.2.3 serialization; writing null or Infinity would change the value",
    },
    Policy {
        id: "depth-bound",
        core: Expect::Rejects("depth_limit"),
        applies: past_depth_bound,
        reason: "the core bounds nesting (default 10,000 levels) so that no document can exhaust its memory; deeper documents are refused, not crashed on",
    },
    Policy {
        id: "deep-nesting",
        core: Expect::AcceptsWhereOthersReject("depth_limit"),
        applies: deeper_than_readers_go,
        reason: "RFC 8785 sets no nesting limit; the core accepts up to 10,000 levels where serde_json stops at 128 and CPython near 1,000",
    },
    Policy {
        id: "serde-json-marker-name",
        core: Expect::AcceptsWhereOthersReject("syntax"),
        applies: names_serde_json_marker,
        reason: "a member named \"$serde_json::private::RawValue\" is an ordinary name to RFC 8785, and Node and Python accept it as the core does; the in-process Rust crates refuse an object that starts with it because serde_json's raw_value feature, which the core's dependency switches on for the whole build, reserves the name for its raw-value marker",
    },
];

/// The Ed25519 family's registered differences.
pub const ED25519_POLICIES: [Policy; 1] = [Policy {
    id: "strict-ed25519",
    core: Expect::RejectsWhereOthersAccept,
    applies: gen::ed25519::has_edge_case,
    reason: "the core verifies under one strict policy: canonical A and R of prime order and S below L, with the cofactorless equation; a signature with a small-order or mixed-order point, a non-canonical encoding or S >= L is refused even where RFC 8032's cofactored check, ZIP-215 or a lax decoder accepts it",
}];

/// The JWS family's registered differences.
pub const JWS_POLICIES: [Policy; 10] = [
    Policy {
        id: "strict-ed25519",
        core: Expect::RejectsWhereOthersAccept,
        applies: gen::jws::signature_has_edge_case,
        reason: "the signature or key shows an Ed25519 edge case (small-order or mixed-order point, non-canonical encoding, S >= L) that the core's strict Ed25519 policy refuses",
    },
    Policy {
        id: "strict-base64url",
        core: Expect::Rejects("base64"),
        applies: gen::jws::lax_base64url,
        reason: "RFC 7515 §2 and §C: base64url without padding, whitespace, other alphabets or non-zero unused bits; a decoder that tolerates these lets one signature stand for many token texts",
    },
    Policy {
        id: "duplicate-header-parameters",
        core: Expect::Rejects("json"),
        applies: gen::jws::header_has_duplicates,
        reason: "RFC 7515 §5.2 step 4: a header with duplicate parameter names must be rejected (or parsed as I-JSON, which forbids them); keeping the last one lets two readers see different algorithms or keys",
    },
    Policy {
        id: "ed25519-alg-name",
        core: Expect::AcceptsWhereOthersRejectAny,
        applies: gen::jws::alg_is_ed25519,
        reason: "RFC 9864 registers the fully-specified `Ed25519` algorithm name beside the polymorphic `EdDSA`; the core accepts both for an Ed25519 key, libraries older than the RFC know only `EdDSA`",
    },
    Policy {
        id: "b64-refused",
        core: Expect::Rejects("b64"),
        applies: gen::jws::b64_not_true,
        reason: "RFC 7797: a header with `b64` other than true changes what was signed; verifiers that ignore it read the token one way, those that honour it another, so the core refuses it rather than half-support it",
    },
    Policy {
        id: "crit-refused",
        core: Expect::Rejects("crit"),
        applies: gen::jws::has_crit,
        reason: "RFC 7515 §4.1.11: a recipient must reject a token whose `crit` lists an extension it does not understand, and producers must not send `[]` or names the JWS specification defines; the core understands no extension, so it refuses every `crit`",
    },
    Policy {
        id: "header-bom",
        core: Expect::Rejects("json"),
        applies: gen::jws::header_has_bom,
        reason: "RFC 7515 §5.2 requires the header to be a UTF-8 JSON object, and RFC 8259 §8.1 forbids a byte order mark before JSON text; parsers that skip it accept a header others refuse",
    },
    Policy {
        id: "header-types",
        core: Expect::Rejects("shape"),
        applies: gen::jws::header_parameter_mistyped,
        reason: "RFC 7515 §4.1 defines `alg`, `kid`, `typ` and `cty` as strings and `crit` as an array; a token with another type there (`kid: null`, say) is malformed, not a token without the parameter",
    },
    Policy {
        id: "key-restrictions",
        core: Expect::Rejects("key_mismatch"),
        applies: gen::jws::key_restricted,
        reason: "RFC 7517 §4.2-4.4: a key whose `use` is not `sig`, whose `alg` is not an EdDSA name or whose `key_ops` lack `verify` is not for verifying EdDSA signatures; a key carrying its private part `d` does not belong in a verification key set",
    },
    Policy {
        id: "kid-selects-key",
        core: Expect::Rejects("unknown_key"),
        applies: gen::jws::kid_names_another_key,
        reason: "the core, handed the case's one key pinned, refuses a token whose `kid` names another key (or a key that carries no `kid`): it cannot be the key the token was signed for; the libraries are handed the key directly and never look",
    },
];

/// The adapter profile's registered differences.
pub const EKL_POLICIES: [Policy; 2] = [
    Policy {
        id: "i-json-values",
        core: Expect::Rejects("json"),
        applies: gen::ekl::value_refused_by_jcs,
        reason: "a fingerprint is over the JCS form, and the core refuses what RFC 8785 and I-JSON refuse (duplicate names, lone surrogates, numbers beyond the double range, nesting past its bound) — the JCS family's registered policies — where JSON.parse or json.loads reads something and fingerprints it",
    },
    Policy {
        id: "challenge-lowercase-hex",
        core: Expect::Rejects("challenge"),
        applies: gen::ekl::challenge_not_lowercase_hex,
        reason: "the proof covers the challenge's text, so the core takes the challenge only as the lowercase hex the endpoint sends; a differently cased challenge would prove something else",
    },
];

/// The INK family's registered differences.
pub const INK_POLICIES: [Policy; 2] = [
    Policy {
        id: "field-line-breaks",
        core: Expect::Rejects("signature_base"),
        applies: gen::ink::field_has_line_break,
        reason: "a line break in a request field moves a field boundary of the signature base, so two requests could share one; INK refuses it (signature-base, path-with-newline-rejects)",
    },
    Policy {
        id: "ink-json-profile",
        core: Expect::RejectsWhereOthersAccept,
        applies: gen::ink::outside_ink_profile,
        reason: "INK commits only bodies under its JSON profile — RFC 8785 and I-JSON, safe integers only (no fraction, no -0, |n| < 2^53), nesting at most 32 — so both of INK's implementations refuse what a plain JCS library would hash (merkle-leaf and jcs-number in INK's corpus)",
    },
];

/// The verifiable-mcp family's registered differences.
pub const VMCP_POLICIES: [Policy; 3] = [
    Policy {
        id: "one-text-arm",
        core: Expect::Rejects("unsigned_member"),
        applies: gen::vmcp::content_beyond_text_arm,
        reason: "SPEC §6 binds content_digest to item 0's text only and leaves further items, and other members of item 0, \"at the reader's risk\"; the core refuses what no signature covers, where verifiers that follow the letter of §6 accept",
    },
    Policy {
        id: "duplicate-names",
        core: Expect::Rejects("envelope"),
        applies: gen::vmcp::response_has_duplicate_names,
        reason: "a response whose object names a member twice is not I-JSON (RFC 7493 §2.3): JSON.parse and json.loads keep the last, other readers the first, so a client may read the unsigned one; the core refuses it",
    },
    Policy {
        id: "depth-bound",
        core: Expect::Rejects("envelope"),
        applies: gen::vmcp::response_nested_past_bound,
        reason: "the core reads a response with its canonicalizer's nesting bound (10,000 levels), so that no response can exhaust its memory; readers without a bound go on",
    },
];

/// The Merkle family's registered differences.
pub const MERKLE_POLICIES: [Policy; 2] = [
    Policy {
        id: "empty-prefix",
        core: Expect::AcceptsWhereOthersRejectAny,
        applies: gen::merkle::first_size_is_zero,
        reason: "RFC 9162 §2.1.4 defines consistency for 0 < m < n only; INK's corpus (merkle-consistency, empty-prefix-accepts) takes the empty tree as a prefix of every tree, with the empty tree's root and an empty proof, which libraries that follow the RFC's range refuse",
    },
    Policy {
        id: "safe-integer-sizes",
        core: Expect::Rejects("size"),
        applies: gen::merkle::size_past_safe_integers,
        reason: "INK bounds tree sizes to 2^53 - 1 so that a JavaScript implementation reads the same number (merkle-consistency, second-above-safe-integer-rejects); libraries with 64-bit sizes go on",
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
    fn explains(&self, input: &[u8], core: &Outcome, consensus: &Outcome) -> bool {
        let outcomes = match self.core {
            Expect::Rejects(kind) => {
                rejection(core) == Some(kind) && rejection(consensus) != Some(kind)
            }
            Expect::RejectsWhereOthersAccept => {
                rejection(core).is_some() && matches!(consensus, Outcome::Ok(_))
            }
            Expect::AcceptsWhereOthersReject(kind) => {
                matches!(core, Outcome::Ok(_)) && rejection(consensus) == Some(kind)
            }
            Expect::AcceptsWhereOthersRejectAny => {
                matches!(core, Outcome::Ok(_)) && rejection(consensus).is_some()
            }
            Expect::RejectsFirstProblem(first) => {
                rejection(core).is_some_and(|kind| first(input).contains(kind))
                    && rejection(consensus).is_some()
            }
        };
        outcomes && (self.applies)(input)
    }

    /// Whether the core's answer breaks this policy: the policy has the core refuse, its reason
    /// holds for the input, and the core accepted (or, for error precedence, named a problem
    /// the input's first problems do not include). A registered difference is a rule the core
    /// keeps, not only an excuse for differing: a core that stops keeping it diverges even
    /// where lenient implementations agree with it.
    fn broken_by(&self, input: &[u8], core: &Outcome) -> bool {
        let kept = match (self.core, core) {
            (Expect::Rejects(_) | Expect::RejectsWhereOthersAccept, o) => rejection(o).is_some(),
            (Expect::RejectsFirstProblem(first), o) => {
                rejection(o).is_some_and(|kind| first(input).contains(kind))
            }
            (Expect::AcceptsWhereOthersReject(_) | Expect::AcceptsWhereOthersRejectAny, _) => true,
        };
        core.is_answer() && !kept && (self.applies)(input)
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

/// Compares the outcomes of `members` (same order) for `input`, a case of `family`.
pub fn evaluate(
    family: Family,
    input: &[u8],
    members: &[Member],
    outcomes: &[Outcome],
) -> Evaluation {
    evaluate_with_quorum(family, input, members, outcomes, 2)
}

/// [`evaluate`], with the number of voting groups a consensus needs set by the caller: a fuzz
/// target that has only one independent group in process accepts that group's answer.
pub fn evaluate_with_quorum(
    family: Family,
    input: &[u8],
    members: &[Member],
    outcomes: &[Outcome],
    quorum: usize,
) -> Evaluation {
    let pairs: Vec<(&Member, &Outcome)> = members.iter().zip(outcomes).collect();
    let (policies, reference): (&[Policy], &str) = match family.campaign() {
        Some(c) => (c.policies, c.reference_group),
        None => (&[], ""),
    };
    let consensus = consensus(&pairs, quorum, reference);
    let core = pairs.iter().find(|(m, _)| m.name == CORE).map(|(_, o)| *o);
    let failed = |o: &Outcome| matches!(o, Outcome::Crashed(_) | Outcome::TimedOut);
    let answers: Vec<&Outcome> = outcomes.iter().filter(|o| o.is_answer()).collect();
    let all_agree = answers
        .windows(2)
        .all(|w| matches!(w, [a, b] if agree(a, b)))
        && answers.iter().all(|a| agree(a, answers[0]))
        && !outcomes.iter().any(failed);
    let breaks_policy = core.is_some_and(|c| policies.iter().any(|p| p.broken_by(input, c)));
    let mut diverging: Vec<String> = pairs
        .iter()
        .filter(|(_, o)| {
            failed(o) || (o.is_answer() && consensus.as_ref().is_some_and(|c| !agree(o, c)))
        })
        .map(|(m, _)| m.name.clone())
        .collect();
    if breaks_policy && !diverging.iter().any(|n| n == CORE) {
        diverging.push(CORE.to_string());
    }
    let verdict = if breaks_policy {
        Verdict::CoreDiverges
    } else if all_agree {
        Verdict::Agree
    } else {
        match (core, &consensus) {
            (Some(core), Some(consensus)) if core.is_answer() && !agree(core, consensus) => {
                match policies.iter().find(|p| p.explains(input, core, consensus)) {
                    Some(policy) => Verdict::Policy(policy),
                    None => Verdict::CoreDiverges,
                }
            }
            (Some(core), _) if failed(core) => Verdict::CoreDiverges,
            _ => Verdict::ThirdParties,
        }
    };
    let signature = if verdict == Verdict::Agree {
        format!("{}: all agree", family.name())
    } else {
        signature(family.name(), &pairs)
    };
    Evaluation {
        verdict,
        consensus,
        diverging,
        signature,
    }
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

/// Members named and grouped as given, for the tests below.
#[cfg(test)]
fn test_members(pairs: &[(&str, &str)]) -> Vec<Member> {
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
        test_members(&[
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
            Family::Jcs,
            b"",
            &members(),
            &[ok("1"), ok("1"), ok("1"), ok("1"), err("other")],
        );
        assert_eq!(e.verdict, Verdict::ThirdParties);
        assert_eq!(e.diverging, vec!["py"]);
        let e = evaluate(
            Family::Jcs,
            b"",
            &members(),
            &[ok("2"), ok("1"), ok("1"), ok("1"), ok("1")],
        );
        assert_eq!(e.verdict, Verdict::CoreDiverges);
        assert_eq!(
            e.signature,
            "jcs: core=ok(A) json-canon=ok(B) node=ok(B) py=ok(B) serde_jcs=ok(B)"
        );
        let e = evaluate(
            Family::Jcs,
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
            Family::Jcs,
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
            Family::Jcs,
            br#"{"a":1,"a":2}"#,
            &members(),
            &[err("duplicate_key"), ok("{}"), ok("{}"), ok("{}"), ok("{}")],
        );
        assert!(matches!(e.verdict, Verdict::Policy(p) if p.id == "duplicate-names"));
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        let e = evaluate(
            Family::Jcs,
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
        let e = evaluate(Family::Jcs, dup, &members(), &all_accept);
        assert_eq!(e.verdict, Verdict::CoreDiverges);
        assert_eq!(e.diverging, ["core"]);
        // Keeping the policy, the same input is policy, not a divergence.
        let mut kept = all_accept.clone();
        kept[0] = err("duplicate_key");
        let e = evaluate(Family::Jcs, dup, &members(), &kept);
        assert!(matches!(e.verdict, Verdict::Policy(p) if p.id == "duplicate-names"));
        // Where the policy's reason does not hold, agreement stays agreement.
        let e = evaluate(Family::Jcs, br#"{"a":2}"#, &members(), &all_accept);
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
            Family::Jcs,
            several,
            &members(),
            &rejections("duplicate_key"),
        );
        assert_ne!(e.verdict, Verdict::CoreDiverges);
        let e = evaluate(
            Family::Jcs,
            several,
            &members(),
            &rejections("number_out_of_range"),
        );
        assert_eq!(e.verdict, Verdict::CoreDiverges);
    }

    #[test]
    fn crashes_and_hangs_are_findings() {
        let e = evaluate(
            Family::Jcs,
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
        test_members(&[
            ("core", "canonfuzz-core"),
            ("node", "node-v8"),
            ("py", "cpython"),
        ])
    }

    fn verdict(input: &str, core: Outcome, others: Outcome) -> Verdict {
        evaluate(
            Family::Jcs,
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
        let cases: [(&str, Outcome, Outcome, &str, &str); 8] = [
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
                "serde-json-marker-name",
                ok(),
                err("syntax"),
                r#"{"$serde_json::private::RawValue":0}"#,
                r#"{"a":0}"#,
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
mod policy_scope_tests {
    use super::*;
    use crate::gen::jws::JwsCase;

    fn members() -> Vec<Member> {
        test_members(&[("core", "canonfuzz-core"), ("a", "a"), ("b", "b")])
    }

    #[test]
    fn a_policy_explains_only_the_inputs_it_is_about() {
        let outcomes = [
            Outcome::Rejected("base64".into()),
            Outcome::Ok(b"{}".to_vec()),
            Outcome::Ok(b"{}".to_vec()),
        ];
        let case = |token: &str| {
            JwsCase {
                token: token.to_string(),
                jwk: serde_json::json!({}),
            }
            .encode()
        };
        let padded = evaluate(Family::Jws, &case("e30=.e30.AA"), &members(), &outcomes);
        assert!(matches!(padded.verdict, Verdict::Policy(p) if p.id == "strict-base64url"));
        let strict = evaluate(Family::Jws, &case("e30.e30.AA"), &members(), &outcomes);
        assert_eq!(strict.verdict, Verdict::CoreDiverges);
    }
}

#[cfg(test)]
mod reference_tests {
    use super::*;

    #[test]
    fn without_a_consensus_the_reference_group_decides() {
        let members = test_members(&[
            ("core", "canonfuzz-core"),
            ("rs", "rust"),
            ("node", "node-v8"),
            ("py", "cpython"),
        ]);
        let o = |s: &str| Outcome::Ok(s.as_bytes().to_vec());
        let e = evaluate(
            Family::Jcs,
            b"",
            &members,
            &[o("1"), o("2"), o("1"), o("3")],
        );
        assert_eq!(e.consensus, Some(o("1")));
        assert_eq!(e.verdict, Verdict::ThirdParties);
        let e = evaluate(
            Family::Jcs,
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

#[cfg(test)]
mod family_policy_tests {
    //! Every registered policy of the families other than JCS (whose policies are pinned on
    //! written documents above), pinned on both sides of its predicate with the family's own
    //! generated cases: where its reason holds, and no other policy's does, the outcomes it is
    //! about are that policy; where no policy's reason holds, the same outcomes diverge.
    use super::*;

    fn members() -> Vec<Member> {
        test_members(&[("core", "canonfuzz-core"), ("a", "a"), ("b", "b")])
    }

    /// The core's and the others' outcomes of the shape a policy is about.
    fn shaped(expect: Expect) -> Option<(Outcome, Outcome)> {
        let ok = Outcome::Ok(b"x".to_vec());
        let err = |kind: &str| Outcome::Rejected(kind.to_string());
        match expect {
            Expect::Rejects(kind) => Some((err(kind), ok)),
            Expect::RejectsWhereOthersAccept => Some((err("rejected"), ok)),
            Expect::AcceptsWhereOthersReject(kind) => Some((ok, err(kind))),
            Expect::AcceptsWhereOthersRejectAny => Some((ok, err("another-kind"))),
            Expect::RejectsFirstProblem(_) => None,
        }
    }

    fn verdict(family: Family, input: &[u8], core: &Outcome, others: &Outcome) -> Verdict {
        let outcomes = [core.clone(), others.clone(), others.clone()];
        evaluate(family, input, &members(), &outcomes).verdict
    }

    #[test]
    fn every_policy_holds_where_its_reason_does_and_nowhere_else() {
        for family in Family::ALL.into_iter().filter(|f| *f != Family::Jcs) {
            let campaign = family.campaign().unwrap();
            let budget = crate::selftest::case_budget(family);
            let cases: Vec<Vec<u8>> = (0..budget).map(|i| (campaign.generate)(1, i).1).collect();
            let holding = |c: &[u8]| -> Vec<&str> {
                campaign
                    .policies
                    .iter()
                    .filter(|p| (p.applies)(c))
                    .map(|p| p.id)
                    .collect()
            };
            let plain = cases
                .iter()
                .find(|c| holding(c).is_empty())
                .unwrap_or_else(|| panic!("{}: every case has a policy's reason", family.name()));
            for policy in campaign.policies {
                let (core, others) = shaped(policy.core).unwrap();
                let name = format!("{} {}", family.name(), policy.id);
                let only = cases
                    .iter()
                    .find(|c| holding(c) == [policy.id])
                    .unwrap_or_else(|| {
                        panic!("{name}: no case in {budget} shows its reason alone")
                    });
                assert!(
                    matches!(verdict(family, only, &core, &others), Verdict::Policy(p) if p.id == policy.id),
                    "{name}: not explained where its reason holds"
                );
                assert_eq!(
                    verdict(family, plain, &core, &others),
                    Verdict::CoreDiverges,
                    "{name}: explains a case its reason does not hold for"
                );
                // A policy that has the core refuse is a rule it keeps: accepting where the
                // reason holds diverges even when everyone else accepts too.
                if matches!(
                    policy.core,
                    Expect::Rejects(_) | Expect::RejectsWhereOthersAccept
                ) {
                    assert_eq!(
                        verdict(family, only, &others, &others),
                        Verdict::CoreDiverges,
                        "{name}: a core that stops refusing agrees"
                    );
                    assert_eq!(verdict(family, plain, &others, &others), Verdict::Agree);
                }
            }
        }
    }
}
