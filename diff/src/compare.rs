//! The registered policies of the families whose predicates read the harness's own cases
//! (Ed25519, JWS, the adapter profile, INK, verifiable-mcp), and the verdict by family. The
//! verdict itself, and the JCS and Merkle policies, are `canonfuzz_props::verdict`.

pub use canonfuzz_props::verdict::*;

use crate::family::Family;
use crate::gen;
use crate::outcome::Outcome;

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
    canonfuzz_props::verdict::evaluate_with_quorum(
        &family.rules(),
        input,
        members,
        outcomes,
        quorum,
    )
}

#[cfg(test)]
mod policy_scope_tests {
    use super::*;
    use crate::gen::jws::JwsCase;

    fn members() -> Vec<Member> {
        members_of(&[("core", "canonfuzz-core"), ("a", "a"), ("b", "b")])
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
mod family_policy_tests {
    //! Every registered policy of the families other than JCS (whose policies are pinned on
    //! written documents above), pinned on both sides of its predicate with the family's own
    //! generated cases: where its reason holds, and no other policy's does, the outcomes it is
    //! about are that policy; where no policy's reason holds, the same outcomes diverge.
    use super::*;

    fn members() -> Vec<Member> {
        members_of(&[("core", "canonfuzz-core"), ("a", "a"), ("b", "b")])
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
                    .rules
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
            for policy in campaign.rules.policies {
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
