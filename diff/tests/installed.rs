//! The binary away from its clone: run from an empty directory, with its home elsewhere and
//! nothing of the build tree to lean on, it unpacks the corpus it carries and gives what the
//! clone gives — the same known findings, vector results and report — and writes nothing
//! into the directory it runs in.

use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;

/// In-process JCS implementations (the report runs every family's table besides).
const IMPLS: &str = "serde_jcs,serde_json_canonicalizer,json-canon,canon-json";

/// `canonfuzz args` run in `dir`, its home (workers, corpus) in `home` when given.
fn run(args: &[&str], dir: &Path, home: Option<&Path>) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_canonfuzz"));
    command
        .args(args)
        .current_dir(dir)
        .env_remove("CANONFUZZ_CORPUS");
    if let Some(home) = home {
        // The workers are the build tree's, installed once for every test: what is compared
        // here is the corpus, which the binary unpacks into `home`.
        let binary = Path::new(env!("CARGO_BIN_EXE_canonfuzz"));
        let target = binary.ancestors().nth(2).unwrap();
        command
            .env("CANONFUZZ_HOME", home)
            .env("CANONFUZZ_ORACLES", target.join("canonfuzz-oracles"));
    }
    command.output().unwrap()
}

/// A JSON document without what differs between two runs of the same work: times and rates,
/// the moment and commit of a report, and where its corpus was.
fn steady(value: Value) -> Value {
    match value {
        Value::Object(members) => Value::Object(
            members
                .into_iter()
                .filter(|(k, _)| {
                    !(k.ends_with("_s")
                        || k.ends_with("_per_s")
                        || ["busy", "generated", "commit", "corpus"].contains(&k.as_str()))
                })
                .map(|(k, v)| (k, steady(v)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.into_iter().map(steady).collect()),
        other => other,
    }
}

fn json(output: &Output) -> Value {
    assert!(output.status.code().is_some_and(|c| c < 2), "{output:?}");
    steady(serde_json::from_slice(&output.stdout).unwrap())
}

#[test]
fn an_installed_binary_in_an_empty_directory_answers_as_the_clone_does() {
    let clone = Path::new(env!("CARGO_MANIFEST_DIR"));
    let home = tempfile::tempdir().unwrap();
    let empty = tempfile::tempdir().unwrap();
    let away = (empty.path(), Some(home.path()));

    let vectors = |(dir, home): (&Path, Option<&Path>)| run(&["vectors"], dir, home);
    let (here, there) = (vectors((clone, None)), vectors(away));
    assert_eq!(here.status.code(), Some(0), "{here:?}");
    assert_eq!(there.stdout, here.stdout);
    let said = String::from_utf8_lossy(&there.stderr);
    assert!(
        said.contains(&format!("corpus {}", home.path().join("corpus").display()))
            && said.contains("(the one this build carries)"),
        "{said}"
    );

    let campaign = [
        "diff",
        "--cases",
        "1500",
        "--seed",
        "3",
        "-q",
        "--impls",
        IMPLS,
        "--summary-json",
        "-",
    ];
    let here = json(&run(&campaign, clone, None));
    let there = json(&run(&campaign, empty.path(), Some(home.path())));
    assert!(
        here["findings"].as_array().is_some_and(|f| !f.is_empty()),
        "{here}"
    );
    assert_eq!(there, here);

    let report = |(dir, home): (&Path, Option<&Path>), out: &Path| {
        let out = out.to_str().unwrap();
        let done = run(&["report", "--impls", IMPLS, "--out", out], dir, home);
        assert_eq!(done.status.code(), Some(0), "{done:?}");
        let text = std::fs::read(Path::new(out).join("conformance.json")).unwrap();
        steady(serde_json::from_slice(&text).unwrap())
    };
    let (mine, theirs) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    assert_eq!(
        report(away, theirs.path()),
        report((clone, None), mine.path())
    );

    let left: Vec<_> = std::fs::read_dir(empty.path()).unwrap().collect();
    assert!(left.is_empty(), "written where nothing was asked: {left:?}");
}
