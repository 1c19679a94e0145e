//! One implementation's run over the corpus as JUnit XML, the test report CI services read: a
//! suite per vector file, a test case per vector test, a failure naming the bug the test
//! shows (its severity as the failure's type), and a bug the run was told to allow as
//! skipped. Every text from the corpus or the implementation is escaped for XML.

use std::collections::HashMap;
use std::fmt::Write as _;

use crate::bugs::Bug;
use crate::escape::html;
use crate::replay::{Miss, Ran, Replayed};

/// What became of one test.
#[derive(Clone, Copy)]
enum Verdict<'a> {
    Passed,
    Failed(&'a Bug, &'a Miss),
    Allowed(&'a Bug),
}

/// The counts of a suite: tests, failures, skipped.
fn counts<'a, 'b: 'a>(verdicts: impl Iterator<Item = &'a Verdict<'b>>) -> (usize, usize, usize) {
    verdicts.fold((0, 0, 0), |(run, failed, skipped), v| {
        (
            run + 1,
            failed + usize::from(matches!(v, Verdict::Failed(..))),
            skipped + usize::from(matches!(v, Verdict::Allowed(_))),
        )
    })
}

/// Text for an XML element or a quoted attribute: HTML's escaping is XML's, and it leaves no
/// character an XML document may not hold.
fn xml(text: &str) -> String {
    html(text)
}

/// Test cases by suite: each vector file with its tests and their verdicts.
type Suites<'a> = Vec<(&'a str, Vec<(&'a Ran, Verdict<'a>)>)>;

/// The tests of `replayed` by file, in corpus order, each with its verdict: `bugs` with the
/// misses that show each, those `allowed` says to allow skipped, every other test passed.
fn suites<'a>(
    replayed: &'a Replayed,
    bugs: &'a [(Bug, Vec<&'a Miss>)],
    allowed: impl Fn(&Bug) -> bool,
) -> Suites<'a> {
    let mut by_test: HashMap<(&str, u64), Verdict<'_>> = HashMap::new();
    for (bug, misses) in bugs {
        for miss in misses {
            let verdict = if allowed(bug) {
                Verdict::Allowed(bug)
            } else {
                Verdict::Failed(bug, miss)
            };
            by_test.insert((miss.file.as_str(), miss.tc_id), verdict);
        }
    }
    let mut suites: Suites<'a> = Vec::new();
    for ran in &replayed.ran {
        let verdict = by_test
            .remove(&(ran.file.as_str(), ran.tc_id))
            .unwrap_or(Verdict::Passed);
        match suites.last_mut() {
            Some((file, cases)) if *file == ran.file => cases.push((ran, verdict)),
            _ => suites.push((&ran.file, vec![(ran, verdict)])),
        }
    }
    suites
}

/// The report of `replayed`, named `name`: `bugs` with the misses that show each, those
/// `allowed` says to allow written as skipped.
pub fn report(
    name: &str,
    replayed: &Replayed,
    bugs: &[(Bug, Vec<&Miss>)],
    allowed: impl Fn(&Bug) -> bool,
) -> String {
    let suites = suites(replayed, bugs, allowed);
    let (tests, failures, skipped) = counts(
        suites
            .iter()
            .flat_map(|(_, cases)| cases.iter().map(|(_, v)| v)),
    );
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        out,
        "<testsuites name=\"{}\" tests=\"{tests}\" failures=\"{failures}\" skipped=\"{skipped}\">",
        xml(name)
    );
    for (file, cases) in &suites {
        let (tests, failures, skipped) = counts(cases.iter().map(|(_, v)| v));
        let _ = writeln!(
            out,
            "  <testsuite name=\"{}\" tests=\"{tests}\" failures=\"{failures}\" skipped=\"{skipped}\">",
            xml(file)
        );
        for (ran, verdict) in cases {
            test_case(&mut out, file, ran, *verdict);
        }
        out.push_str("  </testsuite>\n");
    }
    out.push_str("</testsuites>\n");
    out
}

/// One test case of the suite `file`: empty when it passed, else its skip or its failure.
fn test_case(out: &mut String, file: &str, ran: &Ran, verdict: Verdict<'_>) {
    let _ = write!(
        out,
        "    <testcase classname=\"{}\" name=\"{}\"",
        xml(file),
        xml(&format!("tcId {}: {}", ran.tc_id, ran.comment))
    );
    match verdict {
        Verdict::Passed => out.push_str("/>\n"),
        Verdict::Allowed(bug) => {
            let _ = writeln!(
                out,
                ">\n      <skipped message=\"allowed: {}\"/>\n    </testcase>",
                xml(&bug.allowance())
            );
        }
        Verdict::Failed(bug, miss) => {
            let body = [
                format!("input:    {}", miss.input),
                format!("expected: {}", miss.expected),
                format!("got:      {}", miss.got),
            ]
            .iter()
            .map(|line| xml(line))
            .collect::<Vec<_>>()
            .join("\n");
            let _ = writeln!(
                out,
                ">\n      <failure type=\"{}\" message=\"{}\">{body}</failure>\n    </testcase>",
                bug.key.severity.name(),
                xml(&format!("{}, {}", bug.key.blamed, bug.allowance())),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::escape::tests::HOSTILE;
    use crate::families::jcs;
    use crate::mutants::find;
    use crate::outcome::Outcome;
    use crate::replay::{replay_corpus, Replay};
    use crate::vector::{Expectation, Head};

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
        let mutant = find(jcs::FAMILY, "utf8-member-order")
            .unwrap()
            .implementation();
        let replayed = replay_corpus(jcs::FAMILY, &mutant, &corpus()).unwrap();
        let core = jcs::FAMILY.implementations().remove(0);
        let bugs = replayed.bugs(jcs::FAMILY, "mutant", core.as_ref());
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
        let bugs = replayed.bugs(
            jcs::FAMILY,
            &hostile,
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
}
