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
