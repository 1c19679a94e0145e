//! `cargo test` replays the whole conformance corpus; a failing vector names its file and tcId.

use std::path::Path;

use canonfuzz_diff::conformance::run_corpus;
use canonfuzz_diff::manifest::Manifest;

#[test]
fn every_vector_in_the_corpus_passes() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus");
    let report = run_corpus(&dir);
    let failures: String = report.failures.iter().map(|f| format!("{f}\n")).collect();
    assert!(report.failures.is_empty(), "{failures}{}", report.summary());
    let listed: usize = Manifest::read(&dir)
        .unwrap()
        .files
        .iter()
        .map(|f| f.number_of_tests)
        .sum();
    assert!(listed > 0, "the corpus is empty");
    assert_eq!(report.passed, listed, "every listed test must have run");
}
