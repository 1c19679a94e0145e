//! The fuzzing loop outside libFuzzer: seeds from the corpus, and an artifact triaged into a
//! vector that the corpus replays.

mod common;

use std::process::Output;

use common::{corpus_copy, repo_corpus, text};

use canonfuzz_diff::families::vmcp::VmcpTest;

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
    // The corpus holds longer documents (jcs/long-digits.json); none becomes a seed.
    for target in ["jcs", "jcs_diff", "serde_json_parse", "vmcp"] {
        for entry in std::fs::read_dir(out.path().join(target)).unwrap() {
            let len = entry.unwrap().metadata().unwrap().len();
            assert!(
                len <= canonfuzz_diff::fuzz_target::SEED_LIMIT as u64 + 1,
                "{target}: {len}"
            );
        }
    }
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
            canonfuzz_props::merkle::fuzz::merkle_check as fn(&[u8]) -> Result<(), String>,
        ),
        ("ekl", canonfuzz_props::ekl::fuzz::ekl_check),
        ("ink_header", canonfuzz_props::ink::fuzz::ink_header_check),
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
fn the_ink_header_check_fails_a_parser_that_accepts_outside_the_pattern() {
    use canonfuzz_core::ink::transport::parse_authorization;
    use canonfuzz_props::ink::fuzz::{ink_header_check, ink_header_check_with};
    let sig = "A".repeat(86);
    let hinted = format!("INK-Ed25519 {sig} keyId=sig-2026-03");
    let broken = format!("INK-Ed25519 {sig}\r\n");
    assert_eq!(ink_header_check(hinted.as_bytes()), Ok(()));
    assert!(parse_authorization(&broken).is_err());
    // A parser that trims line breaks accepts a header INK's pattern refuses.
    let trims = |h: &str| parse_authorization(h.trim_end_matches(['\r', '\n']));
    assert!(ink_header_check_with(broken.as_bytes(), trims).is_err());
    // A parser that loses the key id reads an accepted header wrong.
    let loses_hint = |h: &str| {
        parse_authorization(h).map(|mut a| {
            a.key_id = None;
            a
        })
    };
    assert!(ink_header_check_with(hinted.as_bytes(), loses_hint).is_err());
    // One that hands back another signature.
    let other_signature = |h: &str| {
        parse_authorization(h).map(|mut a| {
            a.signature = "B".repeat(86);
            a
        })
    };
    assert!(ink_header_check_with(hinted.as_bytes(), other_signature).is_err());
}

#[test]
fn the_ekl_check_fails_fingerprints_that_take_more_than_the_body() {
    use canonfuzz_core::ekl;
    use canonfuzz_props::ekl::fuzz::{ekl_check, ekl_check_with, Fingerprinter, CORE_EKL};
    let result = br#"{"content":[{"type":"text","text":"x"}],"isError":true}"#;
    assert_eq!(ekl_check(result), Ok(()));
    assert_eq!(ekl_check(b"[1,2]"), Ok(()));
    // A result fingerprinted whole, decorations and all, instead of its body.
    let whole = Fingerprinter {
        result: |salt, data| {
            let (body, _) = ekl::result_fingerprint(salt, data)?;
            Ok((body, ekl::fingerprint(salt, data)?))
        },
        ..CORE_EKL
    };
    let why = ekl_check_with(result, &whole).unwrap_err();
    assert!(why.contains("differs from the body's own"), "{why}");
    // Bodies nested past serde_json's 128 levels, and members named as its raw-value marker,
    // which it will not read as values, are still judged, and a fault there still caught.
    let deep = format!(
        r#"{{"structuredContent":{}1{},"isError":true}}"#,
        "[".repeat(300),
        "]".repeat(300)
    );
    assert_eq!(ekl_check(deep.as_bytes()), Ok(()));
    let why = ekl_check_with(deep.as_bytes(), &whole).unwrap_err();
    assert!(why.contains("differs from the body's own"), "{why}");
    let marked = br#"{"structuredContent":{"$serde_json::private::RawValue":1}}"#;
    assert!(serde_json::from_slice::<serde_json::Value>(marked).is_err());
    assert_eq!(ekl_check(marked), Ok(()));
    let why = ekl_check_with(marked, &whole).unwrap_err();
    assert!(why.contains("differs from the body's own"), "{why}");
    // A value fingerprint that refuses what the result's fingerprint took.
    let refuses = Fingerprinter {
        value: |salt, data| match data.first() {
            Some(b'{') => ekl::fingerprint(salt, b"["),
            _ => ekl::fingerprint(salt, data),
        },
        ..CORE_EKL
    };
    let why = ekl_check_with(result, &refuses).unwrap_err();
    assert!(why.contains("not a fingerprintable value"), "{why}");
}

/// The JWS of a genuine verifiable-mcp response in the corpus, signed by the test server's
/// key, which the `jws` target's key set holds.
fn corpus_token() -> String {
    let file = canonfuzz_diff::vector::VectorFile::read(&repo_corpus().join("vmcp/forgeries.json"))
        .unwrap();
    let tests = file.typed_tests::<VmcpTest>().unwrap();
    let valid = tests
        .iter()
        .find(|t| t.result == canonfuzz_diff::vector::Expectation::Valid && t.response.is_some())
        .unwrap();
    let response = valid.response.clone().unwrap();
    response["result"]["_meta"]["org.jardenberg/verifiable-mcp"]["jws"]
        .as_str()
        .unwrap()
        .to_string()
}

#[test]
fn the_jws_check_fails_a_verifier_that_returns_or_accepts_what_was_not_signed() {
    use canonfuzz_core::jws;
    use canonfuzz_props::jws::fuzz::{fuzz_jwks, jws_check, jws_check_with, JwsVerifier, CORE_JWS};
    let token = corpus_token();
    assert!(jws::verify(&token, fuzz_jwks(), &jws::Profile::default()).is_ok());
    assert_eq!(jws_check(token.as_bytes()), Ok(()));
    // Another payload than the token's.
    let extends = JwsVerifier {
        from_set: |t, s, p| {
            jws::verify(t, s, p).map(|mut v| {
                v.payload.push(b' ');
                v
            })
        },
        ..CORE_JWS
    };
    let why = jws_check_with(token.as_bytes(), &extends).unwrap_err();
    assert!(why.contains("payload its segment does not encode"), "{why}");
    // A signature never checked: the token with one signature character changed.
    let (signed, signature) = token.rsplit_once('.').unwrap();
    let mut bent: Vec<char> = signature.chars().collect();
    bent[10] = if bent[10] == 'A' { 'B' } else { 'A' };
    let forged = format!("{signed}.{}", bent.into_iter().collect::<String>());
    assert!(jws::verify(&forged, fuzz_jwks(), &jws::Profile::default()).is_err());
    let unchecked = JwsVerifier {
        from_set: |t, s, p| match jws::verify(t, s, p) {
            Err(e) if e.kind() == "signature" => Ok(jws::Verified {
                header: Default::default(),
                kid: None,
                key_index: 0,
                payload: jws::base64url_decode(t.split('.').nth(1).unwrap_or(""), "payload")?,
            }),
            other => other,
        },
        ..CORE_JWS
    };
    let why = jws_check_with(forged.as_bytes(), &unchecked).unwrap_err();
    assert!(why.contains("does not verify"), "{why}");
}

#[test]
fn the_jwks_check_fails_a_reader_that_is_unbounded_or_ambiguous() {
    use canonfuzz_core::jws::{Jwk, Jwks, JwsError, MAX_KEYS};
    use canonfuzz_props::jws::fuzz::{jwks_check, jwks_check_with};
    const KEY: &str = r#"{"kty":"OKP","crv":"Ed25519","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo","kid":"a"}"#;
    /// Each key read by itself, in the order `order` puts them, with no bound (on depth
    /// neither) and no check across keys.
    fn lax(data: &[u8], order: fn(&mut Vec<serde_json::Value>)) -> Result<Jwks, JwsError> {
        let mut reader = serde_json::Deserializer::from_slice(data);
        reader.disable_recursion_limit();
        let set: serde_json::Value = serde::Deserialize::deserialize(&mut reader)
            .map_err(|e| JwsError::Shape(e.to_string()))?;
        let mut keys = set["keys"].as_array().cloned().unwrap_or_default();
        order(&mut keys);
        let keys = keys
            .iter()
            .map(|k| Jwk::parse(k.to_string().as_bytes()))
            .collect::<Result<_, _>>()?;
        Ok(Jwks { keys })
    }
    let unbounded: fn(&[u8]) -> Result<Jwks, JwsError> = |d| lax(d, |_| {});
    let reversed: fn(&[u8]) -> Result<Jwks, JwsError> = |d| lax(d, |k| k.reverse());
    let many = format!(r#"{{"keys":[{}{KEY}]}}"#, "{},".repeat(MAX_KEYS));
    assert_eq!(jwks_check(many.as_bytes()), Ok(()));
    let why = jwks_check_with(many.as_bytes(), unbounded).unwrap_err();
    assert!(why.contains("past the bounds"), "{why}");
    let twins = format!(r#"{{"keys":[{KEY},{KEY}]}}"#);
    assert_eq!(jwks_check(twins.as_bytes()), Ok(()));
    let why = jwks_check_with(twins.as_bytes(), unbounded).unwrap_err();
    assert!(why.contains("two keys share"), "{why}");
    let two = format!(
        r#"{{"keys":[{KEY},{}]}}"#,
        KEY.replace(r#""kid":"a""#, r#""kid":"b""#)
    );
    assert!(Jwks::parse(two.as_bytes()).is_ok());
    assert_eq!(jwks_check(two.as_bytes()), Ok(()));
    let why = jwks_check_with(two.as_bytes(), reversed).unwrap_err();
    assert!(why.contains("not the one serde_json reads"), "{why}");
    // A key whose one member is named as serde_json's raw-value marker: its `Value` reads the
    // key as the text the member holds, a key under kid "m"; the core and the check's own
    // reading see a key of one member and no kid.
    let marked = format!(
        r#"{{"keys":[{{"$serde_json::private::RawValue":{}}}]}}"#,
        serde_json::to_string(&KEY.replace(r#""kid":"a""#, r#""kid":"m""#)).unwrap()
    );
    assert_eq!(Jwks::parse(marked.as_bytes()).unwrap().keys[0].kid(), None);
    assert_eq!(jwks_check(marked.as_bytes()), Ok(()));
    let why = jwks_check_with(marked.as_bytes(), unbounded).unwrap_err();
    assert!(why.contains("not the one serde_json reads"), "{why}");
    // A set nested past serde_json's limit beside its keys, which the core reads: the check
    // reads it too, and still tells a reader that reorders its keys.
    let nested = "[".repeat(200) + &"]".repeat(200);
    let deep = two.replacen('{', &format!(r#"{{"o":{nested},"#), 1);
    assert_eq!(Jwks::parse(deep.as_bytes()).unwrap().keys.len(), 2);
    assert_eq!(jwks_check(deep.as_bytes()), Ok(()));
    let why = jwks_check_with(deep.as_bytes(), reversed).unwrap_err();
    assert!(why.contains("not the one serde_json reads"), "{why}");
}

#[test]
fn the_vmcp_property_fails_a_verifier_that_checks_less_than_its_client_reads() {
    use canonfuzz_props::vmcp::fuzz::{vmcp_check, vmcp_check_with};
    // A signed error frame from the corpus with an unsigned result beside it: a verifier that
    // reads only the error branch calls it valid, yet the client reads a result nobody signed.
    let file = canonfuzz_diff::vector::VectorFile::read(&repo_corpus().join("vmcp/forgeries.json"))
        .unwrap();
    let tests = file.typed_tests::<VmcpTest>().unwrap();
    let forged = tests
        .iter()
        .find(|t| {
            t.comment
                .starts_with("a signed error frame with an unsigned result")
        })
        .unwrap();
    let response = forged.response.clone().unwrap().to_string();
    assert_eq!(vmcp_check(response.as_bytes()), Ok(()));
    /// The response as a client reads it, at any depth, without its result.
    fn without_result(data: &[u8]) -> String {
        let mut reader = serde_json::Deserializer::from_slice(data);
        reader.disable_recursion_limit();
        let mut response: serde_json::Value =
            serde::Deserialize::deserialize(&mut reader).unwrap_or_default();
        if let Some(frame) = response.as_object_mut() {
            frame.remove("result");
        }
        response.to_string()
    }
    let error_branch_only = |data: &[u8], jwks: &_, clock| {
        canonfuzz_core::vmcp::verify_response(without_result(data).as_bytes(), jwks, clock)
    };
    let why = vmcp_check_with(response.as_bytes(), error_branch_only).unwrap_err();
    assert!(why.contains("both result and error"), "{why}");
    // The same unsigned result nested past serde_json's 128 levels is read all the same.
    let mut deep: serde_json::Value = serde_json::from_str(&response).unwrap();
    deep["result"]["content"] = serde_json::json!("nested");
    let nested = format!("{}{}", "[".repeat(300), "]".repeat(300));
    let deep = deep.to_string().replace("\"nested\"", &nested);
    assert!(serde_json::from_str::<serde_json::Value>(&deep).is_err());
    let why = vmcp_check_with(deep.as_bytes(), error_branch_only).unwrap_err();
    assert!(why.contains("both result and error"), "{why}");
    // A verifier that calls valid what is not JSON at all: here, text after the response.
    let lenient = |data: &[u8], jwks: &_, clock| {
        let response = data.strip_suffix(b" ]").unwrap_or(data);
        canonfuzz_core::vmcp::verify_response(without_result(response).as_bytes(), jwks, clock)
    };
    let trailing = format!("{response} ]");
    let why = vmcp_check_with(trailing.as_bytes(), lenient).unwrap_err();
    assert!(why.contains("not JSON"), "{why}");
}

#[test]
fn the_merkle_and_jcs_diff_checks_fail_every_planted_core() {
    use canonfuzz_diff::families::{jcs, merkle};
    use canonfuzz_props::jcs::fuzz::jcs_diff_panel;
    use canonfuzz_props::merkle::fuzz::merkle_panel;
    // Each Merkle mutant diverges on some generated case within the self-test's budget, with
    // ct-merkle alone beside it as in the target; the core on none.
    let budget = merkle::FAMILY.selftest_budget();
    let seeds: Vec<Vec<u8>> = (0..budget)
        .map(|i| merkle::FAMILY.generate(1, i).1)
        .collect();
    let core = merkle_panel(Box::new(canonfuzz_props::merkle::impls::core()));
    for s in &seeds {
        assert_eq!(core.diverges(s), Ok(()), "{}", String::from_utf8_lossy(s));
    }
    for mutant in merkle::FAMILY.mutants() {
        let planted = merkle_panel(Box::new(mutant.implementation()));
        assert!(
            seeds.iter().any(|s| planted.diverges(s).is_err()),
            "{} passes the merkle check",
            mutant.name
        );
    }
    // JCS mutants on documents that show their bug; the in-process crates stand as consensus.
    for (name, document) in [
        ("utf8-member-order", "{\"\u{ff61}\":1,\"\u{10000}\":2}"),
        ("escapes-refused-as-duplicate", r#"{"a":"\u0041","b":1}"#),
        ("duplicate-named-syntax", r#"{"a":1,"a":2}"#),
        ("minus-zero-kept", "[-0]"),
    ] {
        let mutant = canonfuzz_diff::mutants::find(jcs::FAMILY, name).unwrap();
        assert_eq!(
            jcs_diff_panel(None).diverges(document.as_bytes()),
            Ok(()),
            "{document}"
        );
        let planted = jcs_diff_panel(Some(Box::new(mutant.implementation())));
        assert!(
            planted.diverges(document.as_bytes()).is_err(),
            "{name} passes the jcs_diff check on {document}"
        );
    }
}

/// Triages `data` as an artifact of `target` (found under `artifacts/<target>/`) into
/// `corpus`; returns what triage printed, once it has exited 0.
fn triage_into(corpus: &std::path::Path, target: &str, data: &[u8]) -> String {
    let artifacts = tempfile::tempdir().unwrap();
    let dir = artifacts.path().join("artifacts").join(target);
    std::fs::create_dir_all(&dir).unwrap();
    let artifact = dir.join("crash-0001");
    std::fs::write(&artifact, data).unwrap();
    let run = canonfuzz(&[
        "triage",
        artifact.to_str().unwrap(),
        "--out",
        corpus.to_str().unwrap(),
    ]);
    let stdout = text(&run.stdout);
    assert_eq!(run.status.code(), Some(0), "{stdout}{}", text(&run.stderr));
    stdout
}

#[test]
fn an_artifact_becomes_a_replayed_vector() {
    let corpus = corpus_copy();
    let regressions = |corpus: &std::path::Path| {
        std::fs::read_dir(corpus.join("jcs/regressions")).map_or(0, |d| d.count())
    };
    let before = regressions(corpus.path());
    let stdout = triage_into(
        corpus.path(),
        "jcs_diff",
        b"\x00[1, {\"b\": 2, \"a\": 1, \"a\": 3}, \"x\"]",
    );
    assert!(
        stdout.contains("minimized (13 bytes): \"{\\\"a\\\":1,\\\"a\\\":3}\""),
        "{stdout}"
    );
    assert_eq!(regressions(corpus.path()), before + 1);
    let replay = canonfuzz(&["vectors", corpus.path().to_str().unwrap()]);
    assert_eq!(replay.status.code(), Some(0), "{}", text(&replay.stdout));
}

/// A planted `merkle` property that fails on any consistency proof with a node shorter than a
/// hash, which no JCS check notices.
fn short_node(input: &[u8]) -> Result<(), String> {
    use canonfuzz_props::merkle::case::MerkleCase;
    match MerkleCase::parse(input) {
        Some(MerkleCase::Consistency { proof, .. }) if proof.iter().any(|n| n.len() < 32) => {
            Err("a short node".to_string())
        }
        _ => Ok(()),
    }
}

#[test]
fn an_artifact_is_reproduced_by_its_own_targets_check_and_filed_in_its_family() {
    use canonfuzz_diff::families::merkle::FAMILY;
    use canonfuzz_diff::fuzzing::Target;
    let planted = Target {
        name: "merkle",
        reads: <[u8]>::to_vec,
        check: short_node,
        family: Some(FAMILY),
    };
    let corpus = corpus_copy();
    let dir = tempfile::tempdir().unwrap();
    let artifact = dir.path().join("crash-split-node");
    // The `merkle` target's first artifact: a consistency proof with one node written as two
    // strings of 12 and 20 bytes, which ct-merkle's adapter once joined into a valid proof.
    let found =
        std::fs::read(repo_corpus().join("merkle/regressions/08bd50bf22e7304f.json")).unwrap();
    let file: serde_json::Value = serde_json::from_slice(&found).unwrap();
    let input = file["testGroups"][0]["tests"][0]["input"].as_str().unwrap();
    std::fs::write(&artifact, input).unwrap();
    let (harness, _) =
        canonfuzz_diff::campaign::Harness::new(FAMILY, &["core".into(), "ct-merkle".into()])
            .unwrap();
    let triaged =
        canonfuzz_diff::triage::triage(Some(&harness), &artifact, &planted, corpus.path()).unwrap();
    assert_eq!(triaged.failure.as_deref(), Some("a short node"));
    assert!(short_node(&triaged.minimized).is_err());
    assert!(triaged.minimized.len() < input.len() / 2, "{triaged:?}");
    let vector = triaged.saved.unwrap();
    assert!(vector.starts_with("merkle/regressions/"), "{vector}");
    let written = canonfuzz_diff::vector::VectorFile::read(&corpus.path().join(&vector)).unwrap();
    assert_eq!(written.schema, "canonfuzz_merkle_v1");
    let replay = canonfuzz(&["vectors", corpus.path().to_str().unwrap()]);
    assert_eq!(replay.status.code(), Some(0), "{}", text(&replay.stdout));
}

#[test]
fn an_artifact_of_a_target_without_vectors_is_kept_as_it_is_and_seeds_its_target() {
    use canonfuzz_diff::fuzzing::{regressions, write_seeds};
    let corpus = corpus_copy();
    let manifest = || std::fs::read(corpus.path().join("manifest.json")).unwrap();
    let before = manifest();
    let artifact = b"INK-Ed25519 AAAA";
    let stdout = triage_into(corpus.path(), "ink_header", artifact);
    assert!(
        stdout.contains("(ink_header)\n  no longer reproduces"),
        "{stdout}"
    );
    let kept = corpus
        .path()
        .join("fuzz/ink_header")
        .join(&canonfuzz_diff::manifest::sha256_hex(artifact)[..16]);
    assert!(
        stdout.contains(&format!("saved: {}", kept.display())),
        "{stdout}"
    );
    assert_eq!(std::fs::read(&kept).unwrap(), artifact);
    assert_eq!(manifest(), before);
    let found = regressions(corpus.path()).unwrap();
    assert!(found
        .iter()
        .any(|r| r.target.name == "ink_header" && r.input == artifact));
    let seeds = tempfile::tempdir().unwrap();
    write_seeds(corpus.path(), seeds.path()).unwrap();
    let seed = seeds
        .path()
        .join("ink_header")
        .join(kept.file_name().unwrap());
    assert_eq!(std::fs::read(seed).unwrap(), artifact);
}

#[test]
fn every_kept_input_passes_the_target_it_once_failed() {
    use canonfuzz_diff::fuzzing::{failure, regressions};
    let kept = regressions(&repo_corpus()).unwrap();
    // The smoke run's jwks artifact: a key whose first member is named as serde_json's
    // raw-value marker, which the property's reading once took for the key's text.
    assert!(kept.iter().any(|r| r.target.name == "jwks"));
    let failed: Vec<String> = kept
        .iter()
        .filter_map(|r| failure(&r.target, &r.input).map(|f| format!("{}: {f}", r.path)))
        .collect();
    assert!(failed.is_empty(), "{failed:#?}");
}

#[test]
fn a_kept_input_under_no_target_is_refused() {
    let corpus = tempfile::tempdir().unwrap();
    let stray = corpus.path().join("fuzz/jwsk");
    std::fs::create_dir_all(&stray).unwrap();
    std::fs::write(stray.join("0000"), b"{}").unwrap();
    let why = canonfuzz_diff::fuzzing::regressions(corpus.path())
        .err()
        .unwrap();
    assert!(why.contains(r#"no target is named "jwsk""#), "{why}");
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
    let clock = canonfuzz_core::vmcp::Clock::at(canonfuzz_props::jws::fuzz::FUZZ_NOW);
    let mut valid = 0;
    for entry in std::fs::read_dir(out.path().join("vmcp")).unwrap() {
        let data = std::fs::read(entry.unwrap().path()).unwrap();
        let jwks = canonfuzz_props::jws::fuzz::fuzz_jwks();
        if canonfuzz_core::vmcp::verify_response(&data, jwks, clock).is_valid() {
            valid += 1;
        }
        assert_eq!(canonfuzz_props::vmcp::fuzz::vmcp_check(&data), Ok(()));
    }
    // The published vectors' four positives and the corpus's own valid responses.
    assert!(valid >= 10, "only {valid} seeds verify");
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
        for test in file.typed_tests::<VmcpTest>().unwrap() {
            let Some(response) = &test.response else {
                continue;
            };
            let text = response.to_string();
            let verdict =
                canonfuzz_props::vmcp::client_view::covered(text.as_bytes(), test.now.unwrap());
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
        let document = canonfuzz_props::jcs::fuzz::jcs_diff_document(&data);
        assert_eq!(
            canonfuzz_props::jcs::fuzz::jcs_diff_check(&document),
            Ok(()),
            "{}",
            String::from_utf8_lossy(&document)
        );
        checked += 1;
    }
    assert!(checked > 10_000);
}

#[test]
fn every_registered_target_is_a_bin_of_its_fuzz_directory_and_no_other_is() {
    use std::collections::BTreeSet;
    let root = repo_corpus().join("..");
    let dirs = [
        canonfuzz_diff::fuzz_target::CORE_ONLY,
        canonfuzz_diff::fuzz_target::DIFFERENTIAL,
    ];
    let bins: BTreeSet<(String, String)> = dirs
        .iter()
        .flat_map(|dir| {
            let manifest = std::fs::read_to_string(root.join(dir).join("Cargo.toml")).unwrap();
            let names: Vec<String> = manifest
                .split("[[bin]]")
                .skip(1)
                .filter_map(|bin| {
                    let name = bin.lines().find(|l| l.starts_with("name = "))?;
                    Some(
                        name.trim_start_matches("name = ")
                            .trim_matches('"')
                            .to_string(),
                    )
                })
                .collect();
            names.into_iter().map(|n| (dir.to_string(), n))
        })
        .collect();
    let registered: BTreeSet<(String, String)> = canonfuzz_diff::fuzzing::fuzz_targets()
        .iter()
        .map(|(_, t)| (t.dir.to_string(), t.name.to_string()))
        .collect();
    assert_eq!(
        bins, registered,
        "the fuzz directories' bins against the families' targets"
    );
    for (dir, name) in &registered {
        let file = root.join(format!("{dir}/fuzz_targets/{name}.rs"));
        assert!(file.is_file(), "{}", file.display());
    }
    // `canonfuzz list fuzz-targets` is what the nightly script and ClusterFuzzLite read.
    let listed = text(&canonfuzz(&["list", "fuzz-targets"]).stdout);
    let read: BTreeSet<(String, String)> = listed
        .lines()
        .filter_map(|l| {
            let fields: Vec<&str> = l.split(' ').collect();
            Some((fields.get(3)?.to_string(), fields.first()?.to_string()))
        })
        .collect();
    assert_eq!(read, registered);
    assert_eq!(
        listed.lines().filter(|l| l.contains(" baseline ")).count(),
        1,
        "{listed}"
    );
}

#[test]
fn the_nightly_plan_is_every_registered_family_and_checked_target() {
    let root = repo_corpus().join("..");
    let out = std::process::Command::new(root.join("scripts/nightly"))
        .args(["--plan", "--budget", "10m"])
        .env("CANONFUZZ", env!("CARGO_BIN_EXE_canonfuzz"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let plan = text(&out.stdout);
    let families = canonfuzz_diff::families::all();
    let weights: u64 = families
        .iter()
        .map(|f| u64::from(f.facts().nightly_weight))
        .sum();
    // 40 % of a 600 s budget goes to the campaigns, shared by weight, at each family's rate.
    for family in families {
        let facts = family.facts();
        let cases = 240 * u64::from(facts.nightly_weight) / weights * u64::from(facts.nightly_rate);
        let line = format!("campaign {}: {cases} cases", family.name());
        assert!(plan.lines().any(|l| l == line), "{line}\n{plan}");
    }
    let checked: Vec<&str> = canonfuzz_diff::fuzzing::fuzz_targets()
        .iter()
        .filter(|(_, t)| !t.baseline)
        .map(|(_, t)| t.name)
        .collect();
    let line = format!("fuzz targets: {}", checked.join(" "));
    assert!(plan.lines().any(|l| l == line), "{line}\n{plan}");
}
