//! The self-test: every family's planted mutants are found as "core diverges" within their
//! budgets, and a mutant no case tells apart from the core is reported as not found.

mod common;

use common::{canonfuzz, text};

use canonfuzz_diff::families::{jcs, merkle};
use canonfuzz_diff::mutants::Mutant;
use canonfuzz_diff::selftest::hunt;

#[test]
fn the_selftest_finds_every_planted_mutant_of_every_family() {
    let out = canonfuzz(&["selftest", "--json"], b"");
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let families = report["families"].as_array().unwrap();
    let names: Vec<&str> = families
        .iter()
        .map(|f| f["family"].as_str().unwrap())
        .collect();
    let every: Vec<&str> = canonfuzz_diff::families::all()
        .iter()
        .map(|f| f.name())
        .collect();
    assert_eq!(names, every);
    let planted: usize = canonfuzz_diff::families::all()
        .iter()
        .map(|f| f.mutants().len())
        .sum();
    assert_eq!(report["planted"], planted);
    assert_eq!(report["found"], planted);
    for family in families {
        let name = family["family"].as_str().unwrap();
        let f = canonfuzz_diff::families::from_name(name).unwrap();
        assert_eq!(family["found"], family["planted"], "{name}");
        assert!(family["missing"].as_array().unwrap().is_empty(), "{name}");
        let reports = family["mutants"].as_array().unwrap();
        assert_eq!(reports.len(), f.mutants().len(), "{name}");
        assert_eq!(family["core_exit_status"], 0, "{name}");
        for m in reports {
            assert_eq!(m["found"], true, "{m}");
            assert_eq!(m["exit_status"], 1, "{m}");
            assert!(
                m["cases_until_found"].as_u64().unwrap() <= f.selftest_budget(),
                "{m}"
            );
            assert!(m["signature"].as_str().unwrap().starts_with(name), "{m}");
            if f == jcs::FAMILY {
                let bound = jcs::FAMILY.minimized_bound().unwrap();
                let minimized =
                    canonfuzz_props::hex::from_hex(m["minimized_hex"].as_str().unwrap()).unwrap();
                let beyond = canonfuzz_diff::selftest::beyond_shape(&minimized);
                assert!(beyond <= bound, "{m}");
            }
        }
    }
}

/// A "mutant" that is the core itself.
static THE_CORE: [Mutant; 1] = [Mutant {
    family: merkle::FAMILY,
    name: "the-core",
    bug: "none",
    answer: |input| {
        merkle::FAMILY
            .implementations()
            .remove(0)
            .run_batch(&[input])
            .remove(0)
    },
}];

#[test]
fn a_mutant_no_case_tells_apart_is_not_found() {
    let report = hunt(merkle::FAMILY, &THE_CORE, 1, false).unwrap();
    assert_eq!(report.cases, merkle::FAMILY.selftest_budget());
    assert_eq!(report.found(), 0);
    assert!(report.mutants[0].found_after.is_none());
    assert!(!report.mutants[0].passed());
}

#[test]
fn an_unknown_family_is_a_usage_error() {
    let out = canonfuzz(&["selftest", "--family", "nonesuch"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("unknown family \"nonesuch\""));
}
