//! The engine's `junit` on the registered families.

use crate::escape::hostile::HOSTILE;
use crate::families::jcs;
use crate::mutants::find;
use crate::outcome::Outcome;
use crate::replay::{replay_corpus, Replay};
use crate::vector::{Expectation, Head};
use canonfuzz_engine::junit::*;
use canonfuzz_engine::replay::{Miss, Ran, Replayed};

fn corpus() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus")
}

/// The report's cases as (suite, failure message or skipped message or "").
fn cases(xml: &str) -> Vec<(String, String)> {
    let doc = roxmltree::Document::parse(xml).expect("well-formed XML");
    doc.descendants()
        .filter(|n| n.has_tag_name("testcase"))
        .map(|case| {
            let suite = case
                .parent()
                .and_then(|s| s.attribute("name"))
                .unwrap_or("");
            let verdict = case
                .children()
                .find(|c| c.is_element())
                .map(|c| {
                    format!(
                        "{}: {}",
                        c.tag_name().name(),
                        c.attribute("message").unwrap_or("")
                    )
                })
                .unwrap_or_default();
            (suite.to_string(), verdict)
        })
        .collect()
}

#[test]
fn every_test_is_a_case_and_every_miss_a_failure_naming_its_bug() {
    // A core that orders members by UTF-8 bytes breaks RFC 8785 §3.2.3's UTF-16 order.
    let mutant = canonfuzz_props::impls::in_process::InProcess {
        name: "mutant",
        ..find(jcs::FAMILY, "utf8-member-order")
            .unwrap()
            .implementation()
    };
    let replayed = replay_corpus(jcs::FAMILY, &mutant, &corpus()).unwrap();
    let core = jcs::FAMILY.implementations().remove(0);
    let bugs = replayed.bugs(jcs::FAMILY, &mutant, core.as_ref());
    let xml = report("t", &replayed, &bugs, |_| false);
    let seen = cases(&xml);
    assert_eq!(seen.len(), replayed.ran.len());
    let failures: Vec<&String> = seen
        .iter()
        .map(|(_, v)| v)
        .filter(|v| v.starts_with("failure: "))
        .collect();
    assert_eq!(failures.len(), replayed.misses.len());
    assert!(!failures.is_empty());
    assert!(
        failures
            .iter()
            .all(|f| f.contains("mutant, ordering: orders names by")),
        "{failures:?}"
    );
    // The suites are the corpus's files, each test under its own.
    for miss in &replayed.misses {
        assert!(seen
            .iter()
            .any(|(suite, v)| *suite == miss.file && !v.is_empty()));
    }
    // Allowed, every failure becomes a skip.
    let xml = report("t", &replayed, &bugs, |_| true);
    let seen = cases(&xml);
    let skipped = seen
        .iter()
        .filter(|(_, v)| v.starts_with("skipped: allowed: ordering"))
        .count();
    assert_eq!(skipped, replayed.misses.len());
    assert!(!seen.iter().any(|(_, v)| v.starts_with("failure")));
    // The core itself: every case passes.
    let replayed = replay_corpus(jcs::FAMILY, core.as_ref(), &corpus()).unwrap();
    let xml = report("t", &replayed, &[], |_| false);
    assert!(cases(&xml).iter().all(|(_, v)| v.is_empty()));
}

#[test]
fn nothing_a_vector_or_an_implementation_says_can_break_the_document() {
    let hostile = format!("{HOSTILE}\u{fffe}\u{ffff}\u{0}]]></failure><failure>");
    let head: Head = serde_json::from_value(serde_json::json!({
        "tcId": 1, "comment": hostile, "flags": [hostile], "result": "valid"
    }))
    .unwrap();
    let replay = Replay {
        input: hostile.as_bytes().to_vec(),
        result: Expectation::Valid,
        output: Some(b"[]".to_vec()),
        error_kind: None,
    };
    let miss = Miss::new(
        &hostile,
        &head,
        &replay,
        &Outcome::Ok(hostile.as_bytes().to_vec()),
    );
    let replayed = Replayed {
        ran: vec![Ran {
            file: hostile.clone(),
            tc_id: 1,
            comment: hostile.clone(),
        }],
        misses: vec![miss],
        ..Replayed::default()
    };
    let named = canonfuzz_props::impls::in_process::InProcess {
        name: Box::leak(hostile.clone().into_boxed_str()),
        ..find(jcs::FAMILY, "utf8-member-order")
            .unwrap()
            .implementation()
    };
    let bugs = replayed.bugs(
        jcs::FAMILY,
        &named,
        jcs::FAMILY.implementations().remove(0).as_ref(),
    );
    let xml = report(&hostile, &replayed, &bugs, |_| false);
    let doc = roxmltree::Document::parse(&xml).expect("well-formed XML");
    let names: Vec<&str> = doc
        .descendants()
        .filter(|n| n.is_element())
        .map(|n| n.tag_name().name())
        .collect();
    assert_eq!(names, ["testsuites", "testsuite", "testcase", "failure"]);
    for node in doc.descendants() {
        for text in node.attributes().map(|a| a.value()).chain(node.text()) {
            assert!(!text.contains('\u{1b}') && !text.contains('\r'), "{text:?}");
        }
    }
}
