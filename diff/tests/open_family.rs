//! A family defined outside the harness runs through every generic part of it: the campaign
//! (generation, comparison, policies, minimizing, saving vectors), the corpus check of those
//! vectors and the self-test's hunt for its planted mutants. The family is the toy of
//! `toy_family/` (hexadecimal decoded by a strict decoder in the core's place, base16ct and a
//! lax decoder), so what is shown is that one `Spec` implementation is all a family needs.

#[path = "toy_family/toy/mod.rs"]
mod toy;

use canonfuzz_diff::campaign::{self, Config, Status};
use canonfuzz_diff::compare::{Excuse, Expect, Policy};
use canonfuzz_diff::family::Family;
use canonfuzz_diff::selftest::hunt;
use canonfuzz_diff::vector::VectorFile;
use canonfuzz_props::read::for_judgment::Unreadable;

use toy::FAMILY;

/// The empty-text policy, with a predicate that fails to read the empty text.
static UNREADABLE: [Policy; 1] = [Policy {
    id: "no-empty",
    core: Expect::RejectsAny,
    excuses: Excuse::ACCEPTING,
    applies: |input| {
        if input.is_empty() {
            Err(Unreadable("a planted reading failure".to_string()))
        } else {
            Ok(false)
        }
    },
    reason: "the empty text is no value",
}];

/// The toy family with that policy.
static TOY_UNREAD: toy::Toy = toy::Toy(&UNREADABLE);
const UNREAD: Family = Family::new(&TOY_UNREAD);

/// A campaign of 2,000 cases of `family`, saving into `out` if given.
fn campaign_of(family: Family, out: Option<&std::path::Path>) -> campaign::Summary {
    campaign::run(&Config {
        family,
        cases: Some(2_000),
        duration: None,
        seed: 1,
        jobs: 2,
        impls: Vec::new(),
        with: Vec::new(),
        out: out.map(std::path::Path::to_path_buf),
        shard: (0, 1),
        progress: false,
        allow_missing: false,
        known: None,
        plant: None,
        registry: canonfuzz_diff::families::all(),
        every_case: false,
        fail_fast: false,
    })
    .unwrap()
}

#[test]
fn a_family_outside_the_registry_runs_a_whole_campaign() {
    let corpus = tempfile::tempdir().unwrap();
    let summary = campaign_of(FAMILY, Some(corpus.path()));
    assert_eq!(summary.cases, 2_000);
    assert_eq!(
        summary.verdicts.get("core_diverges"),
        None,
        "{:?}",
        summary.verdicts
    );
    // The libraries decode the empty text the core refuses: the registered policy.
    assert!(
        summary.verdicts.get("policy").is_some_and(|&n| n > 0),
        "{:?}",
        summary.verdicts
    );
    assert!(summary.quorum.absent().is_empty());
    let saved: Vec<_> = std::fs::read_dir(corpus.path().join("toy/findings"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert!(!saved.is_empty());
    for path in &saved {
        let file = VectorFile::read(path).unwrap();
        assert_eq!(file.schema, toy::FACTS.schema);
        for test in file.tests() {
            let checked = FAMILY.vectors().check_test(test);
            assert!(
                checked.problems.is_empty(),
                "{}: {:?}",
                path.display(),
                checked.problems
            );
            assert_eq!(checked.passed, Ok(()), "{}", path.display());
        }
    }
}

#[test]
fn a_case_a_predicate_cannot_read_fails_the_campaign_as_the_harness_s_own_fault() {
    // The same cases: where the predicate reads, the empty text is a registered policy and the
    // campaign is clean; where it cannot, the cases it was asked about are unjudged, never
    // "does not apply", and the campaign fails with exit status 2.
    let read = campaign_of(FAMILY, None);
    let unread = campaign_of(UNREAD, None);
    assert_eq!(read.status(), Status::Clean);
    let policy = read.verdicts.get("policy").copied().unwrap_or(0);
    assert!(policy > 0, "{:?}", read.verdicts);
    assert_eq!(unread.verdicts.get("unjudged").copied(), Some(policy));
    assert_eq!(unread.verdicts.get("policy"), None);
    assert_eq!(unread.status(), Status::Unjudged);
    assert_eq!(unread.status().exit_code(), 2);
    let why = canonfuzz_diff::summary::harness_failure(&unread).unwrap();
    assert!(
        why.contains("the no-empty predicate could not read case")
            && why.contains("a planted reading failure"),
        "{why}"
    );
    // No finding of it is remembered as a finding: it is the harness's failure.
    assert!(unread
        .findings
        .iter()
        .all(|f| f.vector.is_none() || f.evaluation.verdict.name() != "unjudged"));
}

#[test]
fn the_selftest_finds_the_mutants_of_a_family_outside_the_registry() {
    let report = hunt(FAMILY, FAMILY.mutants(), 1, false).unwrap();
    assert_eq!(report.found(), 2, "{:?}", report.mutants);
    // Each found on its smallest case: a sign and a digit, and one lone digit.
    let sizes: Vec<usize> = report.mutants.iter().map(|m| m.minimized.len()).collect();
    assert_eq!(sizes, [2, 1], "{:?}", report.mutants);
}
