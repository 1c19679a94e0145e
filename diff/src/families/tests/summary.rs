//! The engine's `summary` on the registered families.

use crate::campaign::Quorum;
use crate::compare::Evaluation;
use canonfuzz_engine::campaign::{Finding, ImplStats, Summary};
use canonfuzz_engine::compare::Verdict;
use canonfuzz_engine::outcome::Outcome;
use canonfuzz_engine::summary::*;
use serde_json::Value;

fn finding(verdict: Verdict, outcomes: Vec<Outcome>, input: &str, new: bool) -> Finding {
    Finding {
        signature: format!("jcs: {input}"),
        category: crate::families::jcs::gen::STRUCTURE,
        case: 0,
        input: input.as_bytes().to_vec(),
        minimized: input.as_bytes().to_vec(),
        outcomes,
        evaluation: Evaluation {
            verdict,
            consensus: None,
            diverging: vec!["b".into()],
            signature: format!("jcs: {input}"),
        },
        count: 1,
        vector: Some(format!("jcs/findings/{input}.json")),
        new,
        is_minimized: true,
        known_input: None,
        first_met: (std::time::Duration::ZERO, 1),
    }
}

fn summary(findings: Vec<Finding>) -> Summary {
    let imp = |name: &str| ImplStats {
        name: name.into(),
        ..ImplStats::default()
    };
    Summary {
        family: crate::families::jcs::FAMILY,
        seed: 1,
        cases: 10,
        repeated: 0,
        cases_cpu: std::time::Duration::ZERO,
        elapsed: std::time::Duration::from_secs(1),
        shrink_elapsed: std::time::Duration::ZERO,
        cores: 2,
        impls: vec![imp("core"), imp("b")],
        missing: Vec::new(),
        findings,
        verdicts: Default::default(),
        quorum: Quorum::default(),
        voters: Default::default(),
        categories: Default::default(),
        interrupted: false,
        planned: Some(10),
        plant: None,
        own: Vec::new(),
        examples: Default::default(),
        settled: None,
        unpaced: None,
        dropped: 0,
    }
}

#[test]
fn label_only_findings_fold_unless_verbose_and_core_divergences_never_do() {
    let err = |k: &str| Outcome::Rejected(k.into());
    let s = summary(vec![
        finding(
            Verdict::ThirdParties,
            vec![err("syntax"), err("other")],
            "labels",
            false,
        ),
        finding(
            Verdict::ThirdParties,
            vec![Outcome::Ok(b"1".to_vec()), err("syntax")],
            "answers",
            true,
        ),
        finding(
            Verdict::CoreDiverges,
            vec![err("syntax"), err("depth")],
            "core",
            false,
        ),
    ]);
    let normal = render(&s, Detail::Normal, Paint(false), None);
    // Normally the core's divergences are listed by finding, the rest read as bugs.
    assert!(!normal.contains("labels.json"), "{normal}");
    assert!(!normal.contains("answers.json"), "{normal}");
    assert!(normal.contains("core.json"), "{normal}");
    assert!(normal.lines().all(|l| l.chars().count() <= 80), "{normal}");
    let verbose = render(&s, Detail::Verbose, Paint(false), None);
    assert!(verbose.contains("and 1 more where all reject") || verbose.contains("labels.json"));
    assert!(verbose.contains("labels.json") && verbose.contains("jcs: labels"));
    let shown = verbose
        .lines()
        .find(|l| l.contains("answers.json"))
        .unwrap();
    assert!(shown.trim_start().starts_with("new "), "{shown}");
    let quiet = render(&s, Detail::Quiet, Paint(false), None);
    assert!(!quiet.contains("core.json") && quiet.contains("1 where the core diverges"));
    assert!(!normal.contains('\x1b'));
    assert!(render(&s, Detail::Normal, Paint(true), None).contains("\x1b[1;31m"));
}

#[test]
fn the_bugs_fit_a_screen_lead_with_ones_own_and_narrow_to_one_implementation() {
    let ok = |t: &str| Outcome::Ok(t.as_bytes().to_vec());
    let mut findings = Vec::new();
    // Twenty behaviours of b, each an escape written another way, and one of mine.
    for i in 0..20u8 {
        let want = format!("[\"\\u00{:02x}\"]", i + 0x10);
        let input = want.clone();
        let mut f = finding(
            Verdict::ThirdParties,
            vec![ok(&want), ok(&input.to_uppercase())],
            &input,
            true,
        );
        f.evaluation.consensus = Some(ok(&want));
        f.count = u64::from(i) + 1;
        findings.push(f);
    }
    let mut s = summary(findings);
    let text = render(&s, Detail::Normal, Paint(false), None);
    let bugs = text.lines().filter(|l| l.contains("b, escapes:")).count();
    assert_eq!(bugs, 1, "one behaviour, one bug: {text}");
    assert!(text.lines().all(|l| l.chars().count() <= 80), "{text}");
    assert_eq!(to_json(&s)["bugs"].as_array().unwrap().len(), 1);
    assert_eq!(to_json(&s)["bugs"][0]["cases"], 210);
    // An implementation of one's own: its bugs come first.
    s.impls.push(ImplStats {
        name: "mine".into(),
        ..ImplStats::default()
    });
    for f in &mut s.findings {
        f.outcomes.push(ok("[\"x\"]"));
    }
    s.own = vec!["mine".into()];
    let text = render(&s, Detail::Normal, Paint(false), None);
    let first = text.lines().position(|l| l.contains("mine,")).unwrap();
    let other = text.lines().position(|l| l.contains("b, escapes")).unwrap();
    assert!(first < other, "{text}");
    let only = render(&s, Detail::Normal, Paint(false), Some("b"));
    assert!(
        !only.contains("mine,") && only.contains("b, escapes"),
        "{only}"
    );
}

#[test]
fn the_table_names_the_costliest_implementation_and_fits_80_columns() {
    let mut s = summary(Vec::new());
    s.impls[0].busy = std::time::Duration::from_millis(300);
    s.impls[1].busy = std::time::Duration::from_millis(2_500);
    let text = render(&s, Detail::Normal, Paint(false), None);
    assert!(text.contains("costliest: b, 2.5 s answering"), "{text}");
    assert!(!text.contains("CPU-s in all"), "{text}");
    assert!(text.lines().all(|l| l.chars().count() <= 80), "{text}");
    s.impls[0].busy = std::time::Duration::from_secs(9);
    let text = render(&s, Detail::Normal, Paint(false), None);
    assert!(text.contains("costliest: core, 9.0 s"), "{text}");
    assert_eq!(to_json(&s)["implementations"][0]["busy_s"], 9.0);
    assert_eq!(to_json(&s)["implementations"][1]["cpu_s"], Value::Null);
    // An implementation is costed by its CPU time, however long it was waited on, and the
    // CPU time spent on the cases (not on minimizing) bounds the rate: 10 cases on 2 cores
    // in 2.0 CPU-s, 10 cases/s.
    s.impls[1].cpu = Some(std::time::Duration::from_millis(2_500));
    s.impls[1].busy = std::time::Duration::from_secs(20);
    s.cases_cpu = std::time::Duration::from_millis(2_000);
    let text = render(&s, Detail::Normal, Paint(false), None);
    assert!(text.contains("costliest: core, 9.0 s answering"), "{text}");
    assert!(
        text.contains(
            "2.5 CPU-s in all, 2.0 running the cases: on 2 cores they could not run \
             faster\n  than 10 cases/s"
        ),
        "{text}"
    );
    assert_eq!(to_json(&s)["cases_cpu_s"], 2.0);
    s.impls[1].cpu = Some(std::time::Duration::from_secs(12));
    let text = render(&s, Detail::Normal, Paint(false), None);
    assert!(text.contains("costliest: b, 12.0 s of CPU"), "{text}");
    assert!(text.lines().all(|l| l.chars().count() <= 80), "{text}");
    assert_eq!(to_json(&s)["implementations"][1]["cpu_s"], 12.0);
}

#[test]
fn the_rate_a_user_waits_for_counts_the_minimizing() {
    // 10 cases in 1 s, then a new finding minimized in 1.5 s: 4 cases/s end to end.
    let mut s = summary(vec![finding(
        Verdict::ThirdParties,
        vec![Outcome::Ok(b"1".to_vec()), Outcome::Ok(b"2".to_vec())],
        "new",
        true,
    )]);
    s.shrink_elapsed = std::time::Duration::from_millis(1_500);
    let text = render(&s, Detail::Normal, Paint(false), None);
    assert!(text.contains("10 cases in 1.0s (10 cases/s)"), "{text}");
    assert!(
        text.contains("1 new finding minimized in 1.5s (4 cases/s end to end)"),
        "{text}"
    );
    let json = to_json(&s);
    assert_eq!(json["cases_per_s"], 10.0);
    assert_eq!(json["elapsed_s"], 1.0);
    assert_eq!(json["minimize_s"], 1.5);
    assert_eq!(json["end_to_end_cases_per_s"], 4.0);
}

#[test]
fn cases_judged_from_an_earlier_answer_are_counted_apart() {
    let mut s = summary(Vec::new());
    let text = render(&s, Detail::Normal, Paint(false), None);
    assert!(!text.contains("repeated"), "{text}");
    s.repeated = 3;
    let text = render(&s, Detail::Normal, Paint(false), None);
    assert!(
        text.contains("3 cases repeated an earlier input and were judged from its answers"),
        "{text}"
    );
    assert!(text.lines().all(|l| l.chars().count() <= 80), "{text}");
    assert_eq!(to_json(&s)["repeated"], 3);
}

#[test]
fn nothing_an_input_or_a_worker_says_can_forge_a_line_of_the_summary() {
    use crate::escape::hostile::{safe_for_a_terminal, HOSTILE};
    let crashed = vec![Outcome::Crashed(HOSTILE.into()), Outcome::Ok(b"1".to_vec())];
    let mut hostile = finding(Verdict::ThirdParties, crashed, HOSTILE, true);
    hostile.evaluation.diverging = vec![HOSTILE.into()];
    hostile.signature = HOSTILE.into();
    let mut s = summary(vec![hostile]);
    s.impls[1].name = HOSTILE.into();
    s.impls[1].version = HOSTILE.into();
    s.missing = vec![(HOSTILE.into(), HOSTILE.into())];
    for detail in [Detail::Quiet, Detail::Normal, Detail::Verbose] {
        let out = render(&s, detail, Paint(false), None);
        let lines = out.lines().count();
        safe_for_a_terminal(&out, lines);
    }
}
