//! The engine's `compare` on the registered families.

mod policy_scope_tests {

    use crate::families::jws::gen::JwsCase;
    use canonfuzz_engine::compare::*;
    use canonfuzz_engine::outcome::Outcome;

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
        let padded = evaluate(
            crate::families::jws::FAMILY,
            &case("e30=.e30.AA"),
            &members(),
            &outcomes,
        );
        assert!(matches!(padded.verdict, Verdict::Policy(p) if p.id == "strict-base64url"));
        let strict = evaluate(
            crate::families::jws::FAMILY,
            &case("e30.e30.AA"),
            &members(),
            &outcomes,
        );
        assert_eq!(strict.verdict, Verdict::CoreDiverges);
    }
}

mod family_policy_tests {
    // Every registered policy of the families other than JCS (whose policies are pinned on
    // written documents above), pinned on both sides of its predicate with the family's own
    // generated cases: where its reason holds, and no other policy's does, the outcomes it is
    // about are that policy; where no policy's reason holds, the same outcomes diverge.
    use canonfuzz_engine::compare::*;
    use canonfuzz_engine::family::Family;
    use canonfuzz_engine::outcome::Outcome;

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
            Expect::AcceptsWhereOthersWriteOtherwise => Some((ok, Outcome::Ok(b"y".to_vec()))),
            Expect::RejectsFirstProblem(_) => None,
        }
    }

    fn verdict(family: Family, input: &[u8], core: &Outcome, others: &Outcome) -> Verdict {
        let outcomes = [core.clone(), others.clone(), others.clone()];
        evaluate(family, input, &members(), &outcomes).verdict
    }

    #[test]
    fn every_policy_holds_where_its_reason_does_and_nowhere_else() {
        for family in crate::families::all()
            .iter()
            .copied()
            .filter(|f| *f != crate::families::jcs::FAMILY)
        {
            let budget = family.selftest_budget();
            let cases: Vec<Vec<u8>> = (0..budget).map(|i| family.generate(1, i).1).collect();
            let rules = family.rules();
            let holding = |c: &[u8]| -> Vec<&str> {
                rules
                    .policies
                    .iter()
                    .filter(|p| (p.applies)(c).expect("every generated case is read"))
                    .map(|p| p.id)
                    .collect()
            };
            let plain = cases
                .iter()
                .find(|c| holding(c).is_empty())
                .unwrap_or_else(|| panic!("{}: every case has a policy's reason", family.name()));
            for policy in rules.policies {
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
