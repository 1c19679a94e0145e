//! The fuzzing loop outside libFuzzer: seeds from the corpus, and an artifact triaged into a
//! vector that the corpus replays.

mod common;

use std::process::Output;

use common::{corpus_copy, repo_corpus, text};

fn canonfuzz(args: &[&str]) -> Output {
    common::canonfuzz(args, b"")
}

#[test]
fn seeds_come_from_every_vector_in_each_targets_shape() {
    let out = tempfile::tempdir().unwrap();
    let run = canonfuzz(&[
        "seeds",
        "--corpus",
        repo_corpus().to_str().unwrap(),
        "--out",
        out.path().to_str().unwrap(),
    ]);
    assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
    let count = |t: &str| std::fs::read_dir(out.path().join(t)).unwrap().count();
    assert!(count("jcs") > 10_000);
    assert_eq!(count("jcs"), count("jcs_diff"));
    let seed = std::fs::read_dir(out.path().join("jcs_diff"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    assert_eq!(
        std::fs::read(seed).unwrap()[0],
        0,
        "jcs_diff seeds start with the document marker"
    );
    // Every merkle, ekl and ink_header seed passes its target's check, so a fuzzer starts from inputs the
    // check accepts and only a real violation stops it.
    for (target, check) in [
        (
            "merkle",
            canonfuzz_diff::fuzzing::merkle_check as fn(&[u8]) -> Result<(), String>,
        ),
        ("ekl", canonfuzz_diff::fuzzing::ekl_check),
        ("ink_header", canonfuzz_diff::fuzzing::ink_header_check),
    ] {
        assert!(count(target) >= 3, "{target}");
        for entry in std::fs::read_dir(out.path().join(target)).unwrap() {
            let data = std::fs::read(entry.unwrap().path()).unwrap();
            assert_eq!(
                check(&data),
                Ok(()),
                "{target}: {}",
                String::from_utf8_lossy(&data)
            );
        }
    }
}

#[test]
fn the_parser_refuses_line_breaks_and_empty_key_ids() {
    use canonfuzz_diff::fuzzing::ink_header_check;
    // The check only judges headers the parser accepted; a parser that let these through would
    // fail it. Here the parser refuses them, so the check passes them on.
    let sig = "A".repeat(86);
    for header in [
        format!("INK-Ed25519 {sig}\r\n"),
        format!("INK-Ed25519 {sig} keyId="),
    ] {
        assert_eq!(ink_header_check(header.as_bytes()), Ok(()));
        assert!(canonfuzz_core::ink::transport::parse_authorization(&header).is_err());
    }
}

#[test]
fn the_ekl_check_passes_results_whose_body_fingerprints_alike() {
    // A body whose own fingerprint differs from the result's would be a slicing bug; a body
    // that is fine passes. (The check compares against serde_json's reading of the body.)
    assert_eq!(
        canonfuzz_diff::fuzzing::ekl_check(
            br#"{"content":[{"type":"text","text":"x"}],"isError":true}"#
        ),
        Ok(())
    );
    assert_eq!(canonfuzz_diff::fuzzing::ekl_check(b"[1,2]"), Ok(()));
}

#[test]
fn an_artifact_becomes_a_replayed_vector() {
    let corpus = corpus_copy();
    let artifacts = tempfile::tempdir().unwrap();
    let dir = artifacts.path().join("artifacts/jcs_diff");
    std::fs::create_dir_all(&dir).unwrap();
    let artifact = dir.join("crash-0001");
    std::fs::write(&artifact, b"\x00[1, {\"b\": 2, \"a\": 1, \"a\": 3}, \"x\"]").unwrap();
    let regressions = |corpus: &std::path::Path| {
        std::fs::read_dir(corpus.join("jcs/regressions")).map_or(0, |d| d.count())
    };
    let before = regressions(corpus.path());
    let run = canonfuzz(&[
        "triage",
        artifact.to_str().unwrap(),
        "--out",
        corpus.path().to_str().unwrap(),
    ]);
    let stdout = text(&run.stdout);
    assert_eq!(run.status.code(), Some(0), "{stdout}{}", text(&run.stderr));
    assert!(
        stdout.contains("minimized (13 bytes): \"{\\\"a\\\":1,\\\"a\\\":3}\""),
        "{stdout}"
    );
    assert_eq!(regressions(corpus.path()), before + 1);
    let replay = canonfuzz(&["vectors", corpus.path().to_str().unwrap()]);
    assert_eq!(replay.status.code(), Some(0), "{}", text(&replay.stdout));
}

#[test]
fn an_artifact_outside_a_target_directory_needs_target() {
    let dir = tempfile::tempdir().unwrap();
    let artifact = dir.path().join("crash-x");
    std::fs::write(&artifact, b"[]").unwrap();
    let run = canonfuzz(&["triage", artifact.to_str().unwrap()]);
    assert_eq!(run.status.code(), Some(2));
    assert!(text(&run.stderr).contains("pass --target"));
}
