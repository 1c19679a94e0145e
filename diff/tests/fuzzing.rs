//! The fuzzing loop outside libFuzzer: seeds from the corpus, and an artifact triaged into a
//! vector that the corpus replays.

mod common;

use std::process::Output;

use common::{corpus_copy, repo_corpus, text};

fn canonfuzz(args: &[&str]) -> Output {
    common::canonfuzz(args, b"")
}

/// The seed corpus `canonfuzz seeds` writes from the repository's corpus.
fn seeds() -> tempfile::TempDir {
    let out = tempfile::tempdir().unwrap();
    let run = canonfuzz(&[
        "seeds",
        "--corpus",
        repo_corpus().to_str().unwrap(),
        "--out",
        out.path().to_str().unwrap(),
    ]);
    assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
    out
}

#[test]
fn seeds_come_from_every_vector_in_each_targets_shape() {
    let out = seeds();
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

#[test]
fn vmcp_seeds_reach_a_valid_verdict_and_the_property_holds_on_them() {
    let out = seeds();
    let clock = canonfuzz_core::vmcp::Clock::at(canonfuzz_diff::fuzzing::FUZZ_NOW);
    let mut valid = 0;
    for entry in std::fs::read_dir(out.path().join("vmcp")).unwrap() {
        let data = std::fs::read(entry.unwrap().path()).unwrap();
        let jwks = canonfuzz_diff::fuzzing::fuzz_jwks();
        if canonfuzz_core::vmcp::verify_response(&data, jwks, clock).is_valid() {
            valid += 1;
        }
        assert_eq!(canonfuzz_diff::fuzzing::vmcp_check(&data), Ok(()));
    }
    // The published vectors' four positives and the corpus's own valid responses.
    assert!(valid >= 10, "only {valid} seeds verify");
}

#[test]
fn the_vmcp_property_fails_a_verifier_that_checks_less_than_its_client_reads() {
    // A signed error frame from the corpus with an unsigned result beside it, as the verifier
    // before this property took it: valid by the error branch, yet the client reads a result
    // nobody signed.
    let file = canonfuzz_diff::vector::VectorFile::read(&repo_corpus().join("vmcp/forgeries.json"))
        .unwrap();
    let forged = file
        .tests()
        .find(|t| {
            t.comment
                .starts_with("a signed error frame with an unsigned result")
        })
        .unwrap();
    let response = forged.response.clone().unwrap();
    let why = canonfuzz_diff::client_view::covered(&response, forged.now.unwrap()).unwrap_err();
    assert!(why.contains("both result and error"), "{why}");
}

#[test]
fn the_client_view_agrees_with_every_vmcp_vector_on_what_is_signed() {
    // Vectors whose response a client reads unsigned data from (an unsigned member, a served
    // structure that is not the payload) fail the client view; valid vectors pass it. The
    // reader is the fuzz target's oracle, so both sides matter.
    let uncovered = ["unsigned_member", "served_payload"];
    let (mut failed, mut passed) = (0, 0);
    for name in ["vmcp/forgeries.json", "vmcp/signed-responses.json"] {
        let file = canonfuzz_diff::vector::VectorFile::read(&repo_corpus().join(name)).unwrap();
        for test in file.tests() {
            let Some(response) = &test.response else {
                continue;
            };
            let verdict = canonfuzz_diff::client_view::covered(response, test.now.unwrap());
            if test
                .failed_rules
                .iter()
                .any(|r| uncovered.contains(&r.as_str()))
            {
                assert!(
                    verdict.is_err(),
                    "{name} tcId {}: {}",
                    test.tc_id,
                    test.comment
                );
                failed += 1;
            } else if test.failed_rules.is_empty() {
                assert_eq!(
                    verdict,
                    Ok(()),
                    "{name} tcId {}: {}",
                    test.tc_id,
                    test.comment
                );
                passed += 1;
            }
        }
    }
    assert!(
        failed >= 15 && passed >= 10,
        "{failed} failed, {passed} passed"
    );
}

#[test]
fn every_jcs_diff_seed_passes_its_check() {
    // A seed the check fails stops the fuzzer before it starts (the smoke run in CI would be
    // the first to notice); every vector's document must be one the policies explain.
    let out = seeds();
    let mut checked = 0;
    for entry in std::fs::read_dir(out.path().join("jcs_diff")).unwrap() {
        let data = std::fs::read(entry.unwrap().path()).unwrap();
        let document = canonfuzz_diff::fuzzing::jcs_diff_document(&data);
        assert_eq!(
            canonfuzz_diff::fuzzing::jcs_diff_check(&document),
            Ok(()),
            "{}",
            String::from_utf8_lossy(&document)
        );
        checked += 1;
    }
    assert!(checked > 10_000);
}
