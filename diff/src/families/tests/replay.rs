//! The engine's `replay` on the registered families.

use crate::families::resolve;
use crate::families::{ed25519, jcs, jws};
use crate::mutants::find;
use canonfuzz_engine::replay::*;
use std::path::Path;

fn corpus() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus")
}

#[test]
fn the_core_passes_every_test_it_is_given_and_a_mutant_does_not() {
    for family in crate::families::all() {
        let core = family.implementations().remove(0);
        let replayed = replay_corpus(*family, core.as_ref(), &corpus()).unwrap();
        let (passed, run) = replayed.total();
        assert!(run > 0, "{family:?} replayed nothing");
        assert_eq!(passed, run, "{family:?}: {:?}", replayed.misses.first());
    }
    let mutant = find(jcs::FAMILY, "utf8-member-order").unwrap();
    let replayed = replay_corpus(jcs::FAMILY, &mutant.implementation(), &corpus()).unwrap();
    assert!(!replayed.misses.is_empty());
    assert!(replayed.categories["ordering"].0 < replayed.categories["ordering"].1);
    // Its misses are one bug: the order RFC 8785 §3.2.3 asks for, broken one way.
    let core = jcs::FAMILY.implementations().remove(0);
    let bugs = replayed.bugs(jcs::FAMILY, &mutant.implementation(), core.as_ref());
    assert_eq!(bugs.len(), 1, "{bugs:#?}");
    let (bug, misses) = &bugs[0];
    assert_eq!(bug.key.rule, "ordering");
    assert_eq!(misses.len(), replayed.misses.len());
    assert_eq!(bug.cases as usize, misses.len());
}

#[test]
fn a_library_is_not_held_to_what_its_host_parser_lost() {
    // serde_jcs is given serde_json's value, which keeps the last of duplicate names:
    // the duplicate-name tests it misses are serde_json's bug, not its own.
    let (_, library) = resolve("serde_jcs", Some(jcs::FAMILY)).unwrap();
    let replayed = replay_corpus(jcs::FAMILY, library.as_ref(), &corpus()).unwrap();
    let core = jcs::FAMILY.implementations().remove(0);
    let bugs = replayed.bugs(jcs::FAMILY, library.as_ref(), core.as_ref());
    let duplicates = bugs
        .iter()
        .find(|(b, _)| b.key.shape == "accepts a duplicate member name")
        .map(|(b, _)| b)
        .unwrap();
    assert_eq!(duplicates.key.blamed, "serde_json");
    assert!(bugs.iter().all(|(b, _)| b.key.blamed != "serde_jcs"
        || b.key.rule != "I-JSON"
        || !b.key.severity.is_bug()));
}

#[test]
fn a_lax_verifier_fails_the_edge_cases_it_accepts() {
    let lax = ed25519::impls::dalek_verify();
    let replayed = replay_corpus(ed25519::FAMILY, &lax, &corpus()).unwrap();
    assert!(replayed.misses.iter().any(|m| m.file.contains("speccheck")));
    let strict = jws::impls::core();
    let replayed = replay_corpus(jws::FAMILY, &strict, &corpus()).unwrap();
    assert!(
        replayed.left_out > 0,
        "the thumbprint tests state no campaign input"
    );
}

/// The core, naming every refusal a syntax error.
fn renaming(input: &[u8]) -> crate::outcome::Outcome {
    use crate::outcome::Outcome;
    match (jcs::FAMILY.implementations()[0])
        .run_batch(&[input])
        .remove(0)
    {
        Outcome::Rejected(_) => Outcome::Rejected("syntax".to_string()),
        other => other,
    }
}

#[test]
fn the_corpus_compares_error_kinds_as_a_campaign_does() {
    // Every rejection test passes (any refusal refuses), but those naming another problem
    // than their vector states are listed as a campaign lists them: not bugs.
    let implementation = canonfuzz_props::impls::in_process::InProcess {
        name: "renaming",
        answer: renaming,
        ..find(jcs::FAMILY, "utf8-member-order")
            .unwrap()
            .implementation()
    };
    let replayed = replay_corpus(jcs::FAMILY, &implementation, &corpus()).unwrap();
    assert!(replayed.misses.is_empty(), "{:?}", replayed.misses.first());
    assert!(replayed
        .renamed
        .iter()
        .any(|m| m.replay.error_kind.as_deref() == Some("lone_surrogate")));
    let core = jcs::FAMILY.implementations().remove(0);
    let bugs = replayed.bugs(jcs::FAMILY, &implementation, core.as_ref());
    assert!(!bugs.is_empty());
    assert!(bugs.iter().all(|(b, misses)| !b.key.severity.is_bug()
        && misses.is_empty()
        && b.key.shape == "refuses, naming another problem"));
    let rules: std::collections::BTreeSet<&str> =
        bugs.iter().map(|(b, _)| b.key.rule.as_str()).collect();
    assert!(
        rules.contains("I-JSON") && rules.contains("grammar"),
        "{rules:?}"
    );
}
