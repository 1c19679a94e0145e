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

    /// The core's answer a policy states and an answer of the others it excuses.
    fn shaped(policy: &Policy) -> Option<(Outcome, Outcome)> {
        let ok = Outcome::Ok(b"x".to_vec());
        let err = |kind: &str| Outcome::Rejected(kind.to_string());
        let core = match policy.core {
            Expect::Rejects(kind) => err(kind),
            Expect::RejectsAny => err("rejected"),
            Expect::Accepts => ok.clone(),
            Expect::RejectsFirstProblem(_) => return None,
        };
        let others = match policy.excuses.answers {
            Excused::Any if matches!(core, Outcome::Ok(_)) => err("another-kind"),
            Excused::Any | Excused::Accepting => ok,
            Excused::Rejecting(kind) => err(kind),
            Excused::RejectingAny => err("another-kind"),
            Excused::WritingOtherwise => Outcome::Ok(b"y".to_vec()),
        };
        Some((core, others))
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
                let (core, others) = shaped(policy).unwrap();
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
                // A policy states what the core answers: a core that answers as the others do
                // where the reason holds diverges, even when everyone else answers so too.
                assert_eq!(
                    verdict(family, only, &others, &others),
                    Verdict::CoreDiverges,
                    "{name}: a core that stops showing its departure agrees"
                );
                assert_eq!(verdict(family, plain, &others, &others), Verdict::Agree);
            }
        }
    }
}

mod policy_statement_tests {
    // A policy states what the core answers wherever its reason holds; the real core's answers
    // on each family's generated cases keep every statement, so that a campaign turns red only
    // when the core changes, never because a predicate covers cases the core rightly answers
    // otherwise.
    use canonfuzz_engine::compare::*;
    use canonfuzz_engine::outcome::Outcome;

    #[test]
    fn the_core_answers_as_every_policy_covering_a_generated_case_says() {
        for family in crate::families::all() {
            let implementations = family.implementations();
            let core = implementations
                .iter()
                .find(|i| i.name() == CORE)
                .expect("every family has a core");
            let members = members_of(&[(CORE, "canonfuzz-core")]);
            let budget = family.selftest_budget();
            let cases: Vec<Vec<u8>> = (0..budget).map(|i| family.generate(1, i).1).collect();
            let inputs: Vec<&[u8]> = cases.iter().map(Vec::as_slice).collect();
            let answers = core.run_batch(&inputs);
            let mut covered = 0;
            for (input, answer) in inputs.iter().zip(&answers) {
                let rules = family.rules();
                covered += usize::from(
                    rules
                        .policies
                        .iter()
                        .any(|p| (p.applies)(input).expect("every generated case is read")),
                );
                let e = evaluate(*family, input, &members, std::slice::from_ref(answer));
                assert_ne!(
                    e.verdict,
                    Verdict::CoreDiverges,
                    "{}: the core answers {answer} on {}",
                    family.name(),
                    String::from_utf8_lossy(input)
                );
                assert!(!matches!(answer, Outcome::Crashed(_)));
            }
            assert!(
                covered > 0 || family.rules().policies.is_empty(),
                "{}: no generated case is covered by a policy",
                family.name()
            );
        }
    }
}
