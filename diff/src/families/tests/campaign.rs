//! The engine's `campaign` on the registered families.

use crate::families::jcs;
use crate::workers;
use canonfuzz_engine::campaign::*;
use canonfuzz_engine::compare::{agreement_signature, evaluate};
use canonfuzz_engine::impls::{Implementation, Together};
use canonfuzz_engine::outcome::Outcome;
use canonfuzz_engine::shrink::minimize;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

#[test]
fn a_diverging_case_is_never_folded_into_a_finding_of_another_verdict() {
    // Two cases with the same answers: the first a registered policy, the second a
    // divergence (no two names alike). They are two findings, and the tally says "core
    // diverges" whichever comes first.
    let members = crate::compare::members_of(&[
        ("core", "canonfuzz-core"),
        ("node", "node-v8"),
        ("py", "cpython"),
    ]);
    let answers = vec![
        Outcome::Rejected("duplicate_key".into()),
        Outcome::Ok(b"{}".to_vec()),
        Outcome::Ok(b"{}".to_vec()),
    ];
    let cases: [Case; 2] = [
        (1, jcs::gen::ORDERING, br#"{"a":1,"a":2}"#.to_vec()),
        (2, jcs::gen::ORDERING, br#"{"a":1,"b":2}"#.to_vec()),
    ];
    for order in [[0, 1], [1, 0]] {
        let mut tally = Tally::new(members.len());
        for k in order {
            let case = &cases[k];
            let evaluation = evaluate(jcs::FAMILY, &case.2, &members, &answers);
            tally.record(&members, case, answers.clone(), evaluation, |_| FirstMet {
                vector: None,
                new: true,
                at: Duration::ZERO,
            });
        }
        assert_eq!(tally.findings.len(), 2, "{order:?}");
        assert_eq!(tally.status(false), Status::CoreDiverges, "{order:?}");
        let verdicts: Vec<&str> = tally
            .findings
            .values()
            .map(|f| f.evaluation.verdict.name())
            .collect();
        assert!(verdicts.contains(&"core_diverges") && verdicts.contains(&"policy"));
    }
}

/// A host of two stand-in implementations that counts the batches it is asked; asked alone,
/// each answers `alone`.
struct CountingHost(std::sync::atomic::AtomicUsize);

impl Together for CountingHost {
    fn width(&self) -> usize {
        2
    }

    fn run_together(&self, inputs: &[&[u8]]) -> Vec<Vec<Outcome>> {
        self.0.fetch_add(1, Ordering::Relaxed);
        let row = vec![Outcome::Ok(b"0".to_vec()), Outcome::Ok(b"1".to_vec())];
        vec![row; inputs.len()]
    }
}

struct HostedStandIn(std::sync::Arc<CountingHost>, usize, &'static str);

impl Implementation for HostedStandIn {
    fn name(&self) -> &str {
        self.2
    }
    fn version(&self) -> String {
        "0".to_string()
    }
    fn group(&self) -> &str {
        "stand-ins"
    }
    fn run_batch(&self, inputs: &[&[u8]]) -> Vec<Outcome> {
        vec![Outcome::Ok(b"alone".to_vec()); inputs.len()]
    }
    fn in_process(&self) -> bool {
        false
    }
    fn together(&self) -> Option<(&dyn Together, usize)> {
        Some((self.0.as_ref(), self.1))
    }
}

#[test]
fn a_host_answers_its_implementations_when_all_of_them_are_asked() {
    let host = std::sync::Arc::new(CountingHost(std::sync::atomic::AtomicUsize::new(0)));
    let harness = Harness::with(
        jcs::FAMILY,
        vec![
            Box::new(canonfuzz_props::jcs::impls::CoreImpl),
            Box::new(HostedStandIn(std::sync::Arc::clone(&host), 1, "second")),
            Box::new(HostedStandIn(std::sync::Arc::clone(&host), 0, "first")),
        ],
    );
    let inputs: [&[u8]; 3] = [b"1", b"[2]", b"{}"];
    let ok = |s: &str| Outcome::Ok(s.as_bytes().to_vec());
    // Each implementation gets the answers of its own place, from one request.
    for row in harness.outcomes(&inputs) {
        assert_eq!(row[1..], [ok("1"), ok("0")]);
    }
    assert_eq!(host.0.load(Ordering::Relaxed), 1);
    // Asked for one of them, the host stands aside.
    for row in harness.outcomes_of(&inputs, |k| k != 2) {
        assert_eq!(row[1..], [ok("alone"), Outcome::Unsupported]);
    }
    assert_eq!(host.0.load(Ordering::Relaxed), 1);
    // The minimizer asks them as one stage.
    assert_eq!(harness.stages(&[]), [vec![0], vec![1, 2]]);
}

#[test]
fn an_in_process_implementation_is_costed_by_the_cpu_time_of_its_calls() {
    let harness = Harness::with(
        jcs::FAMILY,
        vec![Box::new(canonfuzz_props::jcs::impls::CoreImpl)],
    );
    let documents: Vec<Vec<u8>> = (0..2_000)
        .map(|i| format!(r#"{{"b":[{i}.25e3,"\u00e9"],"a":{{"z":{i},"y":"x"}}}}"#).into_bytes())
        .collect();
    let inputs: Vec<&[u8]> = documents.iter().map(Vec::as_slice).collect();
    let started = Instant::now();
    harness.run(&inputs);
    let waited = started.elapsed();
    let cpu = harness.cpu()[0].expect("an in-process implementation's CPU time");
    assert!(
        cpu > Duration::ZERO && cpu <= waited,
        "{cpu:?} in {waited:?}"
    );
}

#[test]
fn asking_a_stage_at_a_time_minimizes_to_what_asking_everyone_does() {
    let harness = Harness::with(
        jcs::FAMILY,
        vec![
            Box::new(canonfuzz_props::jcs::impls::CoreImpl),
            canonfuzz_props::jcs::impls::rust_crates().remove(0),
            Box::new(workers::python(
                "jcs",
                "python-rfc8785",
                "rfc8785",
                "cpython",
            )),
            Box::new(workers::node(
                "jcs",
                "node-canonicalize",
                "canonicalize",
                "node-v8",
            )),
        ],
    );
    // Disagreements: a lone surrogate, duplicate names, a lone surrogate deep down, an
    // integer past 2^64 that PyPI rfc8785 prints otherwise; and an agreement (every one
    // refuses a number past the double range), whose signature any agreement keeps.
    let inputs: [&[u8]; 5] = [
        br#"{"b":[1e21,"\u00e9"],"a":{"x":"\ud800"}}"#,
        br#"[{"z":0.1},{"a":1,"a":2},-0.0]"#,
        br#"[[[[[[[[[[[[[[[[[[[["\udc00",1]]]]]]]]]]]]]]]]]]]]"#,
        br#"{"\u20ac":[45965907877591634829,4.50]}"#,
        br#"{"b":[1e21,"\u00e9"],"a":{"x":1E400}}"#,
    ];
    for (k, input) in inputs.into_iter().enumerate() {
        let (reference, evaluation) = harness.run(&[input]).remove(0);
        let signature = evaluation.signature;
        assert_eq!(
            k == 4,
            signature == agreement_signature("jcs"),
            "{k}: {signature}"
        );
        let mut everyone = |candidates: &[Vec<u8>]| {
            let refs: Vec<&[u8]> = candidates.iter().map(Vec::as_slice).collect();
            harness
                .run(&refs)
                .into_iter()
                .map(|(_, e)| e.signature == signature)
                .collect()
        };
        let asked_everyone = minimize(input, &mut everyone, crate::harness::SHRINK_BUDGET);
        let (minimized, outcomes, evaluation) = harness.minimize(input, &reference, &signature);
        assert_eq!(
            minimized,
            asked_everyone,
            "{}",
            String::from_utf8_lossy(input)
        );
        assert!(asked_everyone.len() < input.len());
        // The answers it gives are those every implementation gives the minimized input
        // when asked afresh.
        let (fresh, fresh_evaluation) = harness.run(&[&minimized]).remove(0);
        assert_eq!(outcomes, fresh, "{}", String::from_utf8_lossy(&minimized));
        assert_eq!(evaluation.signature, fresh_evaluation.signature);
        assert_eq!(evaluation.signature, signature);
    }
}
