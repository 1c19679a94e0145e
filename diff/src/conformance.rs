//! Runs the conformance corpus against the core: checks the manifest and every file's shape,
//! then every test, and collects all failures rather than stopping at the first.

use std::collections::BTreeSet;
use std::fmt;
use std::path::Path;

use crate::escape::terminal;

use crate::manifest::{sha256_hex, Manifest, ManifestEntry, MANIFEST_FILE};
use crate::vector::VectorFile;

/// Something wrong in the corpus or a test that the core did not pass.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// The file, relative to the corpus directory.
    pub file: String,
    /// The test, when the failure is about one.
    pub tc_id: Option<u64>,
    /// What went wrong.
    pub message: String,
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.tc_id {
            Some(id) => write!(
                f,
                "FAIL {} tcId {}: {}",
                terminal(&self.file),
                id,
                self.message
            ),
            None => write!(f, "FAIL {}: {}", terminal(&self.file), self.message),
        }
    }
}

/// The outcome of a corpus run.
#[derive(Debug, Default)]
pub struct Report {
    /// Tests that passed.
    pub passed: usize,
    /// Every failure: corpus problems and failed tests.
    pub failures: Vec<Failure>,
}

impl Report {
    /// The closing line, `N passed, N failed`.
    pub fn summary(&self) -> String {
        format!("{} passed, {} failed", self.passed, self.failures.len())
    }

    fn fail(&mut self, file: &str, tc_id: Option<u64>, message: impl Into<String>) {
        self.failures.push(Failure {
            file: file.to_string(),
            tc_id,
            message: message.into(),
        });
    }
}

/// Checks the corpus in `dir` and runs every test in it against the core.
pub fn run_corpus(dir: &Path) -> Report {
    let mut report = Report::default();
    let manifest = match Manifest::read(dir) {
        Ok(m) => m,
        Err(e) => {
            report.fail(MANIFEST_FILE, None, e);
            return report;
        }
    };
    check_listing(dir, &manifest, &mut report);
    for entry in &manifest.files {
        let full = dir.join(&entry.path);
        let bytes = match crate::input::read_file(&full) {
            Ok(b) => b,
            Err(e) => {
                report.fail(
                    &entry.path,
                    None,
                    format!("listed in the manifest but unreadable: {e}"),
                );
                continue;
            }
        };
        if sha256_hex(&bytes) != entry.sha256 {
            report.fail(
                &entry.path,
                None,
                "SHA-256 differs from the manifest: the file changed since the manifest was \
                 written; review the change, then run `canonfuzz manifest`",
            );
        }
        let published = crate::families::all()
            .iter()
            .any(|f| f.published_schemas().contains(&entry.schema.as_str()));
        if published {
            run_published(entry, &bytes, full.parent().unwrap_or(dir), &mut report);
        } else {
            run_vectors(entry, &full, &mut report);
        }
    }
    report
}

/// Runs a file kept as its project publishes it through the family that reads it; `dir` is
/// the file's directory.
fn run_published(entry: &ManifestEntry, bytes: &[u8], dir: &Path, report: &mut Report) {
    match crate::families::all()
        .iter()
        .find_map(|f| f.published(bytes))
    {
        Some(published) => {
            for (name, outcome) in published.run(dir) {
                match outcome {
                    Ok(()) => report.passed += 1,
                    Err(why) => report.fail(&entry.path, None, format!("case {name}: {why}")),
                }
            }
        }
        None => report.fail(
            &entry.path,
            None,
            format!("not a {} file any more", entry.schema),
        ),
    }
}

/// Checks a vector file's count and shape against the manifest and runs each test against
/// the core of the family its schema names.
fn run_vectors(entry: &ManifestEntry, full: &Path, report: &mut Report) {
    let file = match VectorFile::read(full) {
        Ok(f) => f,
        Err(e) => {
            report.fail(&entry.path, None, e);
            return;
        }
    };
    if entry.number_of_tests != file.tests().count() {
        report.fail(
            &entry.path,
            None,
            format!(
                "the manifest lists {} tests but the file holds {}; run `canonfuzz manifest`",
                entry.number_of_tests,
                file.tests().count()
            ),
        );
    }
    let Some(family) = crate::families::from_schema(&file.schema) else {
        report.fail(
            &entry.path,
            None,
            format!(
                "schema is {:?}; this runner reads {}",
                file.schema,
                crate::families::all()
                    .iter()
                    .map(|f| f.schema())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        );
        return;
    };
    lint_file(&entry.path, &file, report);
    for test in file.tests() {
        let checked = family.vectors().check_test(test);
        for problem in checked.problems {
            report.fail(&entry.path, Some(test.tc_id), problem);
        }
        match checked.passed {
            Ok(()) => report.passed += 1,
            Err(message) => report.fail(&entry.path, Some(test.tc_id), message),
        }
    }
}

/// The manifest must list exactly the vector files present.
fn check_listing(dir: &Path, manifest: &Manifest, report: &mut Report) {
    let listed: BTreeSet<&str> = manifest.files.iter().map(|e| e.path.as_str()).collect();
    match crate::manifest::vector_paths(dir) {
        Ok(present) => {
            for path in present.iter().filter(|p| !listed.contains(p.as_str())) {
                report.fail(
                    path,
                    None,
                    "not listed in manifest.json, so other runs may not see it; run `canonfuzz manifest`",
                );
            }
        }
        Err(e) => report.fail(MANIFEST_FILE, None, e),
    }
}

/// Shape checks that the format alone cannot express.
fn lint_file(path: &str, file: &VectorFile, report: &mut Report) {
    let count = file.tests().count();
    if file.number_of_tests != count {
        report.fail(
            path,
            None,
            format!(
                "numberOfTests says {} but the file holds {count} tests; correct numberOfTests",
                file.number_of_tests
            ),
        );
    }
    let mut seen = BTreeSet::new();
    for test in file.tests() {
        let id = Some(test.tc_id);
        if test.tc_id == 0 || !seen.insert(test.tc_id) {
            report.fail(
                path,
                id,
                "tcId must be unique within the file and at least 1",
            );
        }
        for flag in test.flags.iter().filter(|f| !file.notes.contains_key(*f)) {
            report.fail(path, id, format!("flag {flag:?} is not explained in notes"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILE: &str = r#"{"algorithm":"JCS","schema":"canonfuzz_jcs_v1","numberOfTests":2,
      "notes":{"F":{"bugType":"BASIC","description":"d"}},
      "testGroups":[{"type":"JcsCanonicalize","source":{"name":"t"},"tests":[
        {"tcId":1,"flags":["F"],"input":"{\"b\":1,\"a\":2}","expected":"{\"a\":2,\"b\":1}","result":"valid"},
        {"tcId":2,"input":"[1,]","result":"invalid","errorKind":"syntax"}]}]}"#;

    fn corpus(file: &str) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("jcs")).unwrap();
        std::fs::write(dir.path().join("jcs/a.json"), file).unwrap();
        Manifest::build(dir.path(), crate::families::all())
            .unwrap()
            .write(dir.path())
            .unwrap();
        dir
    }

    fn messages(report: &Report) -> Vec<String> {
        report.failures.iter().map(|f| f.to_string()).collect()
    }

    #[test]
    fn a_sound_corpus_passes() {
        let dir = corpus(FILE);
        let report = run_corpus(dir.path());
        assert_eq!(
            (report.passed, report.failures.len()),
            (2, 0),
            "{:?}",
            messages(&report)
        );
    }

    #[test]
    fn stale_digests_and_unlisted_files_are_reported() {
        let dir = corpus(FILE);
        std::fs::write(
            dir.path().join("jcs/a.json"),
            FILE.replace("[1,]", "[1,2,]"),
        )
        .unwrap();
        std::fs::write(dir.path().join("jcs/b.json"), FILE).unwrap();
        let all = messages(&run_corpus(dir.path())).join("\n");
        assert!(all.contains("FAIL jcs/a.json: SHA-256 differs"), "{all}");
        assert!(
            all.contains("FAIL jcs/b.json: not listed in manifest.json"),
            "{all}"
        );
    }

    #[test]
    fn shape_errors_are_reported() {
        let broken = FILE
            .replace("\"numberOfTests\":2", "\"numberOfTests\":3")
            .replace("\"tcId\":2", "\"tcId\":1")
            .replace("[\"F\"]", "[\"G\"]")
            .replace("\"errorKind\":\"syntax\"", "\"errorKind\":\"nonsense\"");
        let all = messages(&run_corpus(corpus(&broken).path())).join("\n");
        assert!(
            all.contains("numberOfTests says 3 but the file holds 2"),
            "{all}"
        );
        assert!(all.contains("tcId 1: tcId must be unique"), "{all}");
        assert!(all.contains("flag \"G\" is not explained"), "{all}");
        assert!(all.contains("unknown errorKind \"nonsense\""), "{all}");
    }

    #[test]
    fn a_wrong_error_kind_fails_the_test() {
        let wrong = FILE.replace("\"errorKind\":\"syntax\"", "\"errorKind\":\"depth_limit\"");
        let all = messages(&run_corpus(corpus(&wrong).path())).join("\n");
        assert!(all.contains("expected: error[depth_limit]"), "{all}");
        assert!(all.contains("got:      error[syntax]"), "{all}");
    }

    #[test]
    fn a_field_the_family_does_not_know_fails_its_test() {
        let stray = FILE.replace("{\"tcId\":2,", "{\"tcId\":2,\"publicKey\":\"00\",");
        let report = run_corpus(corpus(&stray).path());
        let all = messages(&report).join("\n");
        assert!(
            all.contains(
                "tcId 2: not a well-formed test of this file's schema: unknown field `publicKey`"
            ),
            "{all}"
        );
        assert_eq!((report.passed, report.failures.len()), (1, 1), "{all}");
    }
}
