//! Every subcommand's exit status follows one rule: 0 success, 1 rejected input or a failed
//! check, 2 usage, I/O or harness failure.

mod common;

use common::{canonfuzz, text};

const KEY: &str =
    r#"{"kty":"OKP","crv":"Ed25519","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}"#;

#[test]
fn every_subcommand_exits_by_the_one_rule() {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let (key, keys, credential) = (path("key.json"), path("keys.json"), path("credential"));
    std::fs::write(&key, KEY).unwrap();
    std::fs::write(&keys, format!(r#"{{"keys":[{KEY}]}}"#)).unwrap();
    // Key sets a server serves that the core refuses: two keys under one kid, and past the
    // bound on keys. Both are the server's input, not a usage error.
    let (twins, many) = (path("twins.json"), path("many.json"));
    let named = KEY.replace('}', r#","kid":"a"}"#);
    std::fs::write(&twins, format!(r#"{{"keys":[{named},{named}]}}"#)).unwrap();
    std::fs::write(
        &many,
        format!(r#"{{"keys":[{}{KEY}]}}"#, "{},".repeat(1000)),
    )
    .unwrap();
    std::fs::write(&credential, "secret\n").unwrap();
    let zeros = "0".repeat(64);
    let out = path("out");
    let missing = "/nonexistent/input";
    let challenge = [
        "--credential-file",
        &credential,
        "--challenge",
        "00ff",
        "--endpoint",
        "https://example.org/mcp",
    ];
    let plain_core = format!("plain={} canon --jsonl", env!("CARGO_BIN_EXE_canonfuzz"));
    let sorted = format!(
        "sorted=python3 {}/adapters/python_json_sorted.py",
        env!("CARGO_MANIFEST_DIR")
    );
    let cases: Vec<(Vec<&str>, &str, i32)> = vec![
        // Success.
        (vec!["vectors", "--impl", &plain_core], "", 0),
        (vec!["canon"], "[1]", 0),
        (vec!["canon", "--jsonl"], "[\n{}", 0),
        (vec!["jwk", "thumbprint"], KEY, 0),
        (vec!["fingerprint", "--salt", &zeros], "[1]", 0),
        ([&["challenge", "prove"][..], &challenge].concat(), "", 0),
        (vec!["completions", "fish"], "", 0),
        // Rejected input, or a failed check.
        (vec!["canon"], "[", 1),
        (vec!["vectors", "--impl", &sorted], "", 1),
        (vec!["--max-input-bytes", "2", "canon"], "[1]", 1),
        (vec!["jwk", "thumbprint"], r#"{"kty":"OKP"}"#, 1),
        (vec!["fingerprint", "--salt", &zeros], r#"{"a":1,"a":2}"#, 1),
        (vec!["jws", "verify", "--jwk", &key], "e30.e30.AA", 1),
        (vec!["jws", "verify", "--jwks", &twins], "e30.e30.AA", 1),
        (vec!["jws", "verify", "--jwks", &many], "e30.e30.AA", 1),
        (
            vec!["vmcp", "verify", "--jwks", &twins, "--now", "0"],
            "{}",
            1,
        ),
        (
            vec!["vmcp", "verify", "--jwks", &many, "--now", "0"],
            "{}",
            1,
        ),
        (
            vec!["vmcp", "verify", "--jwks", &keys, "--now", "0"],
            "{}",
            1,
        ),
        (
            [
                &["challenge", "verify"][..],
                &challenge,
                &["--proof", &zeros],
            ]
            .concat(),
            "",
            1,
        ),
        (
            vec!["ink", "decide", "timestamp-validity"],
            r#"{"timestamp":"x"}"#,
            1,
        ),
        // Usage, I/O or harness failure.
        (vec!["canon", missing], "", 2),
        (
            vec!["diff", "--cases", "2000", "-q", "--with", "mute=cat"],
            "",
            2,
        ),
        (vec!["canon", "--jsonl", missing], "", 2),
        (
            vec!["jws", "verify", "--jwks", missing, "e30.e30.AA"],
            "",
            2,
        ),
        (vec!["jws", "verify", "e30.e30.AA"], "", 2),
        (
            vec!["jws", "verify", "--jwk", &key, "--file", missing],
            "",
            2,
        ),
        (vec!["vmcp", "verify", "--jwks", missing], "", 2),
        (vec!["jwk", "thumbprint", missing], "", 2),
        (vec!["fingerprint", "--salt", "00"], "[1]", 2),
        (vec!["fingerprint", "--salt", &zeros, missing], "", 2),
        (
            vec![
                "challenge",
                "prove",
                "--credential-file",
                missing,
                "--challenge",
                "00",
                "--endpoint",
                "x",
            ],
            "",
            2,
        ),
        (vec!["diff", "--family", "nonesuch"], "", 2),
        (vec!["diff", "--cases", "1", "--impls", "nonesuch"], "", 2),
        (vec!["selftest", "--family", "nonesuch"], "", 2),
        (vec!["vectors", missing], "", 2),
        (vec!["vectors", "--impl", "core"], "", 2),
        (vec!["vectors", "--impl", "nonesuch"], "", 2),
        (vec!["vectors", "--impl", "broken=exit 3"], "", 2),
        (vec!["vectors", "--junit", "j.xml"], "", 2),
        (
            vec![
                "vectors",
                "--impl",
                &plain_core,
                "--junit",
                "/nonexistent/j.xml",
            ],
            "",
            2,
        ),
        (vec!["manifest", missing], "", 2),
        (vec!["merge", missing, "--into", &out], "", 2),
        (vec!["seeds", "--corpus", missing, "--out", &out], "", 2),
        (vec!["triage", missing], "", 2),
        (vec!["triage", "--target", "jcs", missing], "", 2),
        (vec!["report", "--corpus", missing, "--out", &out], "", 2),
        (vec!["import", "wycheproof-ed25519", missing], "", 2),
        (vec!["ink", "verify-proof", missing], "", 2),
        (vec!["ink", "decide", "merkle-leaf", missing], "", 2),
        (
            vec![
                "ink",
                "verify-request",
                "--path",
                "/",
                "--recipient",
                "x",
                "--no-authorization",
                "--keys",
                missing,
            ],
            "{}",
            2,
        ),
        (vec!["man", "--out", "/proc/none/here"], "", 2),
        (
            vec!["ed25519", "verify", "--key", "zz", "--sig", "00"],
            "",
            2,
        ),
        (
            vec!["ed25519", "verify", "--key", "00", "--sig", "00", missing],
            "",
            2,
        ),
        (vec!["nonesuch"], "", 2),
    ];
    for (args, stdin, want) in cases {
        let run = canonfuzz(&args, stdin.as_bytes());
        assert_eq!(
            run.status.code(),
            Some(want),
            "canonfuzz {}: {}{}",
            args.join(" "),
            text(&run.stdout),
            text(&run.stderr)
        );
        if want == 2 {
            assert!(
                !text(&run.stderr).trim().is_empty(),
                "canonfuzz {} says nothing of why",
                args.join(" ")
            );
        }
    }
}

#[test]
fn a_key_set_past_its_bounds_is_refused_naming_the_bound() {
    let dir = tempfile::tempdir().unwrap();
    let many = dir.path().join("many.json");
    std::fs::write(
        &many,
        format!(r#"{{"keys":[{}{KEY}]}}"#, "{},".repeat(4000)),
    )
    .unwrap();
    let many = many.to_str().unwrap();
    for args in [
        vec!["jws", "verify", "--jwks", many, "e30.e30.AA"],
        vec!["vmcp", "verify", "--jwks", many, "--now", "0"],
    ] {
        let run = canonfuzz(&args, b"{}");
        let said = text(&run.stderr);
        assert_eq!(run.status.code(), Some(1), "{said}");
        assert!(
            said.contains("error[limit] the key set holds more than 256 keys (MAX_KEYS)"),
            "{said}"
        );
    }
}
