//! Runs the conformance corpus against the core: checks the manifest and every file's shape,
//! then every test, and collects all failures rather than stopping at the first.

use std::collections::BTreeSet;
use std::fmt;
use std::path::Path;

use canonfuzz_core::ed25519::{self, policy_accepts, Flag};
use canonfuzz_core::jcs::{Canonicalizer, ErrorKind};
use canonfuzz_core::{ekl, jws, vmcp};

use crate::family::Family;
use crate::manifest::{sha256_hex, Manifest, MANIFEST_FILE};
use crate::published::{Published, VMCP_SCHEMA};
use crate::vector::{
    excerpt, from_hex, Expectation, TestCase, VectorFile, ED25519_SCHEMA, JCS_SCHEMA, JWS_SCHEMA,
};

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
            Some(id) => write!(f, "FAIL {} tcId {}: {}", self.file, id, self.message),
            None => write!(f, "FAIL {}: {}", self.file, self.message),
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
    let mut canonicalizer = Canonicalizer::default();
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
        if [
            VMCP_SCHEMA,
            crate::ink::INK_SCHEMA,
            crate::ink::INK_MANIFEST_SCHEMA,
        ]
        .contains(&entry.schema.as_str())
        {
            match Published::parse(&bytes) {
                Some(published) => {
                    for (name, outcome) in published.run(full.parent().unwrap_or(dir)) {
                        match outcome {
                            Ok(()) => report.passed += 1,
                            Err(why) => {
                                report.fail(&entry.path, None, format!("case {name}: {why}"))
                            }
                        }
                    }
                }
                None => report.fail(
                    &entry.path,
                    None,
                    format!("not a {} file any more", entry.schema),
                ),
            }
            continue;
        }
        let file = match VectorFile::read(&full) {
            Ok(f) => f,
            Err(e) => {
                report.fail(&entry.path, None, e);
                continue;
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
        let Some(family) = Family::from_schema(&file.schema) else {
            report.fail(
                &entry.path,
                None,
                format!(
                    "schema is {:?}; this runner reads {JCS_SCHEMA}, {ED25519_SCHEMA} and {JWS_SCHEMA}",
                    file.schema
                ),
            );
            continue;
        };
        lint_file(&entry.path, &file, family, &mut report);
        for test in file.tests() {
            let checked = match family {
                Family::Jcs => check_jcs(test, &mut canonicalizer),
                Family::Ed25519 => check_ed25519(test),
                Family::Jws => check_jws(test),
                Family::Vmcp => check_vmcp(test),
                Family::Ekl => check_ekl(test),
                Family::Merkle | Family::Ink => check_with_core(family, test),
            };
            match checked {
                Ok(()) => report.passed += 1,
                Err(message) => report.fail(&entry.path, Some(test.tc_id), message),
            }
        }
    }
    report
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
fn lint_file(path: &str, file: &VectorFile, family: Family, report: &mut Report) {
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
        if family == Family::Ed25519 {
            lint_ed25519(path, test, report);
            continue;
        }
        if family == Family::Ekl {
            let fingerprint = test.salt.is_some() && test.input.is_some();
            let challenge =
                test.credential.is_some() && test.challenge.is_some() && test.endpoint.is_some();
            if fingerprint == challenge {
                report.fail(
                    path,
                    id,
                    "an adapter-profile test is either a fingerprint (`salt`, `input`) or a challenge proof (`credential`, `challenge`, `endpoint`)",
                );
            }
            if test.result == Expectation::Valid && test.expected.is_none() && test.proof.is_none()
            {
                report.fail(
                    path,
                    id,
                    "a valid adapter-profile test needs `expected` or `proof`",
                );
            }
            continue;
        }
        if family == Family::Vmcp {
            if test.response.is_some() == test.input.is_some() || test.jwks.is_none() {
                report.fail(
                    path,
                    id,
                    "a verifiable-mcp test needs `jwks` and either `response` (a JSON value) or `input` (its exact text)",
                );
            }
            if test.now.is_none() {
                report.fail(
                    path,
                    id,
                    "a verifiable-mcp test needs `now`, the clock its times are held to",
                );
            }
            if test.result == Expectation::Valid && !test.failed_rules.is_empty() {
                report.fail(path, id, "a valid verifiable-mcp test names no failedRules");
            }
            let rules = test.failed_rules.iter().chain(&test.error_kind);
            for rule in rules.filter(|r| vmcp::Rule::from_name(r).is_none()) {
                report.fail(path, id, format!("{rule:?} is not a verifiable-mcp rule"));
            }
            continue;
        }
        if family == Family::Jws {
            match (&test.token, &test.jwks, &test.jwk) {
                (Some(_), Some(_), None) | (Some(_), None, Some(_)) | (None, None, Some(_)) => {}
                _ => report.fail(
                    path,
                    id,
                    "a JWS test is a `token` with `jwks` (looked up by kid) or with `jwk` (pinned), or a `jwk` alone (its thumbprint)",
                ),
            }
            continue;
        }
        match (test.result, &test.expected, &test.error_kind) {
            (Expectation::Valid, None, _) => report.fail(path, id, "a valid test needs `expected`"),
            (Expectation::Valid, _, Some(_)) | (Expectation::Invalid, Some(_), _) => report.fail(
                path,
                id,
                "a test expects either output or an error kind, not both",
            ),
            _ => {}
        }
        if let Some(kind) = test.error_kind.as_ref().filter(|_| family == Family::Jcs) {
            if ErrorKind::from_name(kind).is_none() {
                report.fail(path, id, format!("unknown errorKind {kind:?}"));
            }
        }
        if test.input_text.is_some() && test.input_hex.is_none() {
            report.fail(path, id, "inputText belongs only beside inputHex");
        }
    }
}

/// An Ed25519 test carries key, message and signature as hex; where every flag is one of the
/// policy's edge cases, its result must be the one the policy derives from them.
fn lint_ed25519(path: &str, test: &TestCase, report: &mut Report) {
    let id = Some(test.tc_id);
    for (field, value) in [
        ("publicKey", &test.public_key),
        ("msg", &test.msg),
        ("sig", &test.sig),
    ] {
        match value {
            None => report.fail(path, id, format!("an Ed25519 test needs `{field}`")),
            Some(hex) if from_hex(hex).is_err() => {
                report.fail(path, id, format!("`{field}` is not hex"))
            }
            Some(_) => {}
        }
    }
    let policy_flags: Option<Vec<Flag>> = test.flags.iter().map(|f| Flag::from_name(f)).collect();
    if let Some(flags) = policy_flags {
        let derived = if policy_accepts(&flags) {
            Expectation::Valid
        } else {
            Expectation::Invalid
        };
        if test.result != derived {
            report.fail(
                path,
                id,
                format!(
                    "the policy derives {derived:?} from flags {:?}, but the test says {:?}",
                    test.flags, test.result
                ),
            );
        }
    }
}

/// Runs one JWS test: a token verified against its key set (valid: the payload is
/// `expected`; invalid: the error's kind is `errorKind`), or a JWK's thumbprint.
pub fn check_jws(test: &TestCase) -> Result<(), String> {
    let comment = &test.comment;
    if let (None, Some(jwk)) = (&test.token, &test.jwk) {
        let got = jws::Jwk::parse(jwk.to_string().as_bytes())
            .and_then(|k| k.thumbprint())
            .map_err(|e| format!("{comment}\n    got:      {e}"))?;
        let want = test.expected.as_deref().unwrap_or_default();
        return if got == want {
            Ok(())
        } else {
            Err(format!(
                "{comment}\n    expected: {want}\n    got:      {got}"
            ))
        };
    }
    let token = test.token.as_deref().unwrap_or_default();
    let profile = jws::Profile {
        typ: test.typ.clone(),
    };
    let verified = match &test.jwk {
        Some(key) => jws::Jwk::parse(key.to_string().as_bytes())
            .and_then(|key| jws::verify_with_key(token, &key, &profile)),
        None => jws::Jwks::parse(test_jwks_text(test).as_bytes())
            .and_then(|set| jws::verify(token, &set, &profile)),
    };
    match (verified, test.result) {
        (Ok(v), Expectation::Valid | Expectation::Acceptable) => {
            let want = test.expected.as_deref().unwrap_or_default();
            if v.payload == want.as_bytes() {
                Ok(())
            } else {
                Err(format!(
                    "{comment}\n    expected payload: {}\n    got:              {}",
                    excerpt(want.as_bytes()),
                    excerpt(&v.payload)
                ))
            }
        }
        (Err(e), Expectation::Invalid | Expectation::Acceptable) => match &test.error_kind {
            Some(kind) if kind != e.kind() => Err(format!(
                "{comment}\n    expected: error[{kind}]\n    got:      error[{}] {e}",
                e.kind()
            )),
            _ => Ok(()),
        },
        (Ok(_), _) => Err(format!(
            "{comment}\n    expected: error[{}]\n    got:      verified",
            test.error_kind.as_deref().unwrap_or("any")
        )),
        (Err(e), _) => Err(format!(
            "{comment}\n    expected: verified\n    got:      error[{}] {e}",
            e.kind()
        )),
    }
}

/// The text of the key set a test carries.
fn test_jwks_text(test: &TestCase) -> String {
    test.jwks
        .as_ref()
        .map(|v| v.to_string())
        .unwrap_or_default()
}

/// The key set a test carries.
fn test_jwks(test: &TestCase) -> Result<jws::Jwks, String> {
    jws::Jwks::parse(test_jwks_text(test).as_bytes())
        .map_err(|e| format!("{}: the test's key set is unusable: {e}", test.comment))
}

/// Runs one verifiable-mcp test: valid, or failing exactly the named rules.
pub fn check_vmcp(test: &TestCase) -> Result<(), String> {
    let comment = &test.comment;
    let jwks = test_jwks(test)?;
    let response = match &test.input {
        Some(text) => text.clone().into_bytes(),
        None => serde_json::to_vec(&test.response).map_err(|e| e.to_string())?,
    };
    let now = test
        .now
        .ok_or_else(|| format!("{comment}: a verifiable-mcp test needs `now`"))?;
    let clock = vmcp::Clock {
        now,
        max_age: test.max_age,
    };
    let verdict = vmcp::verify_response(&response, &jwks, clock);
    let mut got: Vec<&str> = verdict.failures.iter().map(|f| f.rule.name()).collect();
    got.sort_unstable();
    got.dedup();
    let mut want: Vec<&str> = test.failed_rules.iter().map(String::as_str).collect();
    want.sort_unstable();
    let details = || -> Vec<String> {
        verdict
            .failures
            .iter()
            .map(|f| format!("{}: {}", f.rule.name(), f.message))
            .collect()
    };
    let holds = match test.result {
        Expectation::Valid => got.is_empty(),
        _ if !want.is_empty() => got == want,
        _ => match &test.error_kind {
            Some(kind) => got.contains(&kind.as_str()),
            None => !got.is_empty(),
        },
    };
    if !holds {
        let want = match (&test.result, want.is_empty(), &test.error_kind) {
            (Expectation::Valid, ..) => "valid".to_string(),
            (_, false, _) => format!("failed rules {want:?}"),
            (_, true, Some(kind)) => format!("a failed rule {kind:?}"),
            _ => "invalid".to_string(),
        };
        return Err(format!(
            "{comment}\n    expected: {want}\n    got:      {got:?} {:?}",
            details()
        ));
    }
    match (&test.expected, &verdict.payload) {
        (Some(want), Some(payload)) if want.as_bytes() != payload.as_slice() => Err(format!(
            "{comment}\n    expected payload: {}\n    got:              {}",
            excerpt(want.as_bytes()),
            excerpt(payload)
        )),
        _ => Ok(()),
    }
}

/// Runs one adapter-profile test: a value's or tool result's fingerprint (and which body it
/// covers), or a challenge proof — computed and checked — with the test's result.
pub fn check_ekl(test: &TestCase) -> Result<(), String> {
    let comment = &test.comment;
    let got: Result<String, ekl::EklError> = match (&test.salt, &test.input, &test.credential) {
        (Some(salt), Some(input), _) => ekl::Salt::from_hex(salt).and_then(|salt| {
            if let Some(want) = &test.result_body {
                let (body, fingerprint) = ekl::result_fingerprint(&salt, input.as_bytes())?;
                if body.name() != want {
                    return Ok(format!("(the {} body)", body.name()));
                }
                Ok(fingerprint)
            } else {
                ekl::fingerprint(&salt, input.as_bytes())
            }
        }),
        (_, _, Some(credential)) => {
            let challenge = test.challenge.as_deref().unwrap_or_default();
            let endpoint = test.endpoint.as_deref().unwrap_or_default();
            match &test.proof {
                Some(proof) => {
                    ekl::verify_challenge(credential.as_bytes(), challenge, endpoint, proof)
                        .map(|()| proof.clone())
                }
                None => ekl::challenge_proof(credential.as_bytes(), challenge, endpoint),
            }
        }
        _ => {
            return Err(format!(
                "{comment}: neither a fingerprint nor a challenge test"
            ))
        }
    };
    let want = test.expected.as_ref().or(test.proof.as_ref());
    match (got, test.result) {
        (Ok(got), Expectation::Valid | Expectation::Acceptable) if Some(&got) == want => Ok(()),
        (Ok(got), Expectation::Valid) => Err(format!(
            "{comment}\n    expected: {}\n    got:      {got}",
            want.map(String::as_str).unwrap_or("(nothing)")
        )),
        (Err(e), Expectation::Invalid | Expectation::Acceptable) => match &test.error_kind {
            Some(kind) if kind != e.kind() => Err(format!(
                "{comment}\n    expected: error[{kind}]\n    got:      error[{}] {e}",
                e.kind()
            )),
            _ => Ok(()),
        },
        (Ok(got), _) => Err(format!(
            "{comment}\n    expected: error[{}]\n    got:      {got}",
            test.error_kind.as_deref().unwrap_or("any")
        )),
        (Err(e), _) => Err(format!(
            "{comment}\n    expected: {}\n    got:      error[{}] {e}",
            want.map(String::as_str).unwrap_or("(nothing)"),
            e.kind()
        )),
    }
}

/// Runs one test of a family whose vectors hold a campaign input (Merkle, INK): the core's
/// answer, through the family's campaign adapter, must be the test's expected output, or its
/// rejection the test's error kind.
pub fn check_with_core(family: Family, test: &TestCase) -> Result<(), String> {
    let input = test.input_bytes()?;
    let core = family
        .campaign()
        .and_then(|c| (c.implementations)().into_iter().next())
        .ok_or_else(|| format!("the {} family has no core adapter", family.name()))?;
    let outcome = core
        .run_batch(&[&input])
        .pop()
        .unwrap_or(crate::outcome::Outcome::Unsupported);
    let comment = &test.comment;
    let want = test.expected.as_deref().unwrap_or_default();
    match (&outcome, test.result) {
        (crate::outcome::Outcome::Ok(got), Expectation::Valid | Expectation::Acceptable)
            if got == want.as_bytes() =>
        {
            Ok(())
        }
        (
            crate::outcome::Outcome::Rejected(kind),
            Expectation::Invalid | Expectation::Acceptable,
        ) if test.error_kind.as_ref().is_none_or(|k| k == kind) => Ok(()),
        _ => Err(format!(
            "{comment}\n    expected: {}\n    got:      {outcome}",
            match test.result {
                Expectation::Invalid =>
                    format!("error[{}]", test.error_kind.as_deref().unwrap_or("any")),
                _ => want.to_string(),
            }
        )),
    }
}

/// Runs one Ed25519 test: the core's verdict must be the test's result.
pub fn check_ed25519(test: &TestCase) -> Result<(), String> {
    let field = |v: &Option<String>, name: &str| {
        v.as_deref()
            .ok_or_else(|| format!("missing {name}"))
            .and_then(from_hex)
    };
    let key = field(&test.public_key, "publicKey")?;
    let msg = field(&test.msg, "msg")?;
    let sig = field(&test.sig, "sig")?;
    let verdict = ed25519::verify(&key, &msg, &sig);
    let comment = &test.comment;
    match (verdict, test.result) {
        (Ok(()), Expectation::Valid | Expectation::Acceptable) => Ok(()),
        (Err(_), Expectation::Invalid | Expectation::Acceptable) => Ok(()),
        (Ok(()), _) => Err(format!(
            "{comment} (flags {:?})\n    expected: rejected\n    got:      accepted",
            test.flags
        )),
        (Err(e), _) => Err(format!(
            "{comment} (flags {:?})\n    expected: accepted\n    got:      rejected: {e}",
            test.flags
        )),
    }
}

/// Runs one JCS test; the error says what was expected and what the core did.
pub fn check_jcs(test: &TestCase, canonicalizer: &mut Canonicalizer) -> Result<(), String> {
    let input = test.input_bytes()?;
    let shown = excerpt(&input);
    let comment = &test.comment;
    match (canonicalizer.canonicalize(&input), test.result) {
        (Ok(out), Expectation::Valid | Expectation::Acceptable) => {
            let want = test.expected.as_deref().unwrap_or_default();
            if out == want.as_bytes() {
                Ok(())
            } else {
                Err(format!(
                    "{comment}\n    input:    {shown}\n    expected: {}\n    got:      {}",
                    excerpt(want.as_bytes()),
                    excerpt(&out)
                ))
            }
        }
        (Ok(out), Expectation::Invalid) => Err(format!(
            "{comment}\n    input:    {shown}\n    expected: error[{}]\n    got:      ok {}",
            test.error_kind.as_deref().unwrap_or("any"),
            excerpt(&out)
        )),
        (Err(e), Expectation::Invalid | Expectation::Acceptable) => match &test.error_kind {
            Some(kind) if kind != e.kind().as_str() => Err(format!(
                "{comment}\n    input:    {shown}\n    expected: error[{kind}]\n    got:      {e}"
            )),
            _ => Ok(()),
        },
        (Err(e), Expectation::Valid) => Err(format!(
            "{comment}\n    input:    {shown}\n    expected: {}\n    got:      {e}",
            excerpt(test.expected.as_deref().unwrap_or_default().as_bytes())
        )),
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
        Manifest::build(dir.path())
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
}
