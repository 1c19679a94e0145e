//! The `canonfuzz` binary as a user runs it.

mod common;

use common::{canonfuzz, text};

#[test]
fn canon_writes_canonical_bytes() {
    let out = canonfuzz(&["canon"], b"{ \"b\": [1E2, -0], \"a\": \"\\u00e9\" }\n");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(text(&out.stdout), "{\"a\":\"é\",\"b\":[100,0]}");
}

#[test]
fn canon_reads_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("doc.json");
    std::fs::write(&path, b"[1e21]").unwrap();
    let out = canonfuzz(&["canon", path.to_str().unwrap()], b"");
    assert_eq!(text(&out.stdout), "[1e+21]");
}

#[test]
fn canon_reports_bad_input_with_kind_and_position() {
    let out = canonfuzz(&["canon", "-"], b"{\"a\":1,\n \"a\":2}");
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let err = text(&out.stderr);
    assert!(
        err.starts_with("error[duplicate_key] at line 2, column 2: duplicate member name \"a\""),
        "{err}"
    );
}

#[test]
fn a_million_brackets_end_in_a_clean_error() {
    let doc = format!("{}{}", "[".repeat(1_000_000), "]".repeat(1_000_000));
    let out = canonfuzz(&["canon"], doc.as_bytes());
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).starts_with("error[depth_limit] at line 1, column 10001: "));
}

#[test]
fn max_depth_is_a_flag() {
    let out = canonfuzz(&["canon", "--max-depth", "1"], b"[[]]");
    assert!(text(&out.stderr).starts_with("error[depth_limit]"));
    let out = canonfuzz(&["canon", "--max-depth", "2"], b"[[]]");
    assert_eq!(text(&out.stdout), "[[]]");
}

#[test]
fn canon_io_errors_exit_2() {
    let out = canonfuzz(&["canon", "/nonexistent/doc.json"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("cannot read /nonexistent/doc.json"));
}

#[test]
fn canon_jsonl_answers_every_line() {
    let out = canonfuzz(
        &["canon", "--jsonl"],
        b"{\"b\":0,\"a\":1}\r\n1e400\n\"\xff\"\n",
    );
    assert_eq!(out.status.code(), Some(0));
    let lines: Vec<String> = text(&out.stdout).lines().map(str::to_string).collect();
    assert_eq!(lines[0], r#"{"ok":"{\"a\":1,\"b\":0}"}"#);
    assert!(lines[1].starts_with(r#"{"error":{"kind":"number_out_of_range","message":""#));
    assert!(lines[2].starts_with(r#"{"error":{"kind":"invalid_utf8""#));
    assert_eq!(lines.len(), 3);
}

#[test]
fn vectors_runs_the_corpus() {
    let corpus = common::repo_corpus();
    let out = canonfuzz(&["vectors", corpus.to_str().unwrap()], b"");
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(stdout.trim_end().ends_with(" passed, 0 failed"), "{stdout}");
}

#[test]
fn vectors_names_each_failure() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("jcs")).unwrap();
    let file = r#"{"algorithm":"JCS","schema":"canonfuzz_jcs_v1","numberOfTests":2,"testGroups":[
        {"type":"JcsCanonicalize","source":{"name":"t"},"tests":[
          {"tcId":1,"comment":"right","input":"[1]","expected":"[1]","result":"valid"},
          {"tcId":2,"comment":"wrong on purpose","input":"[2.0]","expected":"[2.0]","result":"valid"}]}]}"#;
    std::fs::write(dir.path().join("jcs/t.json"), file).unwrap();
    let corpus = dir.path().to_str().unwrap();
    assert_eq!(canonfuzz(&["manifest", corpus], b"").status.code(), Some(0));
    let out = canonfuzz(&["vectors", corpus], b"");
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stdout.contains("FAIL jcs/t.json tcId 2: wrong on purpose"),
        "{stdout}"
    );
    assert!(stdout.contains("got:      \"[2]\""), "{stdout}");
    assert!(
        stdout.trim_end().ends_with("1 passed, 1 failed"),
        "{stdout}"
    );
}

#[test]
fn help_and_version() {
    let out = canonfuzz(&["--version"], b"");
    assert_eq!(
        text(&out.stdout).trim(),
        format!("canonfuzz {}", env!("CARGO_PKG_VERSION"))
    );
    let out = canonfuzz(&["canon", "--help"], b"");
    let help = text(&out.stdout);
    assert!(
        help.contains("--jsonl") && help.contains("error[<kind>]"),
        "{help}"
    );
}

/// The subcommands a help text lists, in its order.
fn subcommands(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| !l.is_empty())
        .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .collect()
}

#[test]
fn the_help_leads_with_the_main_job_and_every_line_fits_80_columns() {
    let top = text(&canonfuzz(&["--help"], b"").stdout);
    let commands = subcommands(&top);
    assert_eq!(commands.first().map(String::as_str), Some("diff"), "{top}");
    assert!(commands.len() > 15, "{commands:?}");
    assert!(
        top.contains("canonfuzz diff "),
        "the examples start from a campaign"
    );
    // Every command at every depth, its long help and its short one.
    let mut helps = Vec::new();
    let mut pending: Vec<Vec<String>> = vec![Vec::new()];
    while let Some(path) = pending.pop() {
        for flag in ["--help", "-h"] {
            let args: Vec<&str> = path.iter().map(String::as_str).chain([flag]).collect();
            let out = canonfuzz(&args, b"");
            assert_eq!(out.status.code(), Some(0), "{args:?}");
            let help = text(&out.stdout);
            if flag == "--help" {
                for sub in subcommands(&help).into_iter().filter(|c| c != "help") {
                    pending.push(path.iter().cloned().chain([sub]).collect());
                }
            }
            helps.push((args.join(" "), help));
        }
    }
    assert!(helps.len() > 2 * (commands.len() + 5), "{}", helps.len());
    assert!(helps.iter().any(|(c, _)| c == "challenge verify -h"));
    for (command, help) in &helps {
        for line in help.lines() {
            assert!(
                line.chars().count() <= 80,
                "{command}: {} columns: {line}",
                line.chars().count()
            );
        }
    }
}

/// The line of `canonfuzz list implementations` output that lists `name`.
fn listed_line<'a>(listed: &'a str, name: &str) -> &'a str {
    listed
        .lines()
        .find(|l| l.trim_start().starts_with(&format!("{name} ")))
        .unwrap_or_else(|| panic!("{name} is not listed:\n{listed}"))
}

#[test]
fn an_implementation_whose_runtime_cannot_run_is_listed_as_not_set_up() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_canonfuzz"))
        .args(["list", "implementations", "--family", "ed25519"])
        .env("PATH", "/nonexistent")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let listed = text(&out.stdout);
    let crypto = listed_line(&listed, "node-crypto");
    assert!(crypto.contains("(not set up)"), "{listed}");
    assert!(listed.contains("not set up: canonfuzz setup"), "{listed}");
    assert!(listed.lines().all(|l| l.chars().count() <= 80), "{listed}");
}

#[test]
fn list_names_every_family_and_implementation_with_its_group() {
    let out = canonfuzz(&["list"], b"");
    assert_eq!(out.status.code(), Some(0));
    let families = text(&out.stdout);
    for family in canonfuzz_diff::families::names() {
        assert!(
            families
                .lines()
                .any(|l| l.starts_with(&format!("{family} "))),
            "{family}: {families}"
        );
    }
    let out = canonfuzz(&["list", "implementations", "--family", "jcs"], b"");
    assert_eq!(out.status.code(), Some(0));
    let listed = text(&out.stdout);
    let serde_jcs = listed_line(&listed, "serde_jcs");
    assert!(
        serde_jcs.contains("rust-serde_json") && serde_jcs.contains("in process"),
        "{serde_jcs}"
    );
    assert!(
        !listed.contains("ed25519-zebra"),
        "another family's: {listed}"
    );
    assert!(listed.lines().all(|l| l.chars().count() <= 80), "{listed}");
    assert_eq!(canonfuzz(&["list", "nonesuch"], b"").status.code(), Some(2));
}

#[test]
fn conflicting_options_are_refused() {
    for args in [
        &["diff", "--cases", "5", "--duration", "1s"][..],
        &["diff", "--no-save", "--out", "x"],
        &["diff", "--plant", "utf8-member-order", "--out", "x"],
        &["vectors", "--junit", "x.xml"],
    ] {
        let out = canonfuzz(args, b"");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let why = text(&out.stderr);
        assert!(
            why.contains("cannot be used with") || why.contains("required"),
            "{args:?}: {why}"
        );
    }
}

/// Runs canonfuzz with `args` and `stdin`, reads one line of its output and closes the pipe:
/// the line read, the exit code and what it said on stderr.
fn read_one_line_then_close(args: &[&str], stdin: Vec<u8>) -> (String, Option<i32>, String) {
    use std::io::{BufRead, BufReader, Write};
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_canonfuzz"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut pipe = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let _ = pipe.write_all(&stdin);
    });
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    (first, out.status.code(), text(&out.stderr))
}

#[test]
fn a_reader_that_closes_the_pipe_ends_the_command_quietly() {
    // Far more than a pipe holds: the command is still writing when the reader goes, through
    // its own writer (canon --jsonl) or through the standard printing macros (vectors -v).
    let (first, code, said) =
        read_one_line_then_close(&["canon", "--jsonl"], "[1]\n".repeat(200_000).into_bytes());
    assert_eq!(first, "{\"ok\":\"[1]\"}\n");
    assert_eq!((code, said.as_str()), (Some(0), ""));
    let sorted = format!(
        "sorted=python3 {}/adapters/python_json_sorted.py",
        env!("CARGO_MANIFEST_DIR")
    );
    let (first, code, said) =
        read_one_line_then_close(&["vectors", "-v", "--impl", &sorted], Vec::new());
    assert!(first.starts_with("FAIL "), "{first}");
    // Nothing on stderr but which corpus it read, said before the pipe closed.
    let said: Vec<&str> = said
        .lines()
        .filter(|l| !l.starts_with("canonfuzz: corpus "))
        .collect();
    assert_eq!((code, said), (Some(0), Vec::<&str>::new()));
}

const RFC8037_TOKEN: &str = "eyJhbGciOiJFZERTQSJ9.RXhhbXBsZSBvZiBFZDI1NTE5IHNpZ25pbmc.hgyY0il_MGCjP0JzlnLWG1PPOt7-09PGcvMg3AIbQR6dWbhijcNR4ki4iylGjg5BhVsPt9g7sVvpAr_MuM0KAg";
const RFC8037_JWK: &str =
    r#"{"kty":"OKP","crv":"Ed25519","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}"#;

#[test]
fn jws_verify_prints_the_verdict_key_and_payload() {
    let dir = tempfile::tempdir().unwrap();
    let jwk = dir.path().join("jwk.json");
    std::fs::write(&jwk, RFC8037_JWK).unwrap();
    let jwks = dir.path().join("jwks.json");
    std::fs::write(&jwks, format!(r#"{{"keys":[{RFC8037_JWK}]}}"#)).unwrap();
    let out = canonfuzz(
        &[
            "jws",
            "verify",
            "--jwk",
            jwk.to_str().unwrap(),
            RFC8037_TOKEN,
        ],
        b"",
    );
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    // RFC 8037 A.3 gives the thumbprint, A.4 the payload.
    assert!(
        stdout.contains("thumbprint kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k"),
        "{stdout}"
    );
    assert!(
        stdout.contains("payload: Example of Ed25519 signing"),
        "{stdout}"
    );
    // The token names no kid: a key set is never searched by position, even with one key.
    let out = canonfuzz(
        &[
            "jws",
            "verify",
            "--jwks",
            jwks.to_str().unwrap(),
            RFC8037_TOKEN,
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stdout).starts_with("invalid: error[unknown_key] the token names no kid"),
        "{}",
        text(&out.stdout)
    );
    let tampered = RFC8037_TOKEN.replace(".RXhh", ".RXhi");
    let out = canonfuzz(
        &["jws", "verify", "--jwk", jwk.to_str().unwrap(), "-"],
        tampered.as_bytes(),
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stdout).starts_with("invalid: error[signature]"),
        "{}",
        text(&out.stdout)
    );
    let out = canonfuzz(
        &[
            "jws",
            "verify",
            "--jwks",
            "/nonexistent.json",
            RFC8037_TOKEN,
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn jws_verify_reads_a_token_from_a_file_only_when_told_to() {
    let dir = tempfile::tempdir().unwrap();
    let jwk = dir.path().join("key.json");
    std::fs::write(&jwk, RFC8037_JWK).unwrap();
    let saved = dir.path().join("token.txt");
    std::fs::write(&saved, format!("{RFC8037_TOKEN}\n")).unwrap();
    let key = jwk.to_str().unwrap();
    let out = canonfuzz(
        &[
            "jws",
            "verify",
            "--jwk",
            key,
            "--file",
            saved.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    // A path given where the token goes is not read, and the error says how to read it.
    let out = canonfuzz(
        &["jws", "verify", "--jwk", key, saved.to_str().unwrap()],
        b"",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("give --file"),
        "{}",
        text(&out.stderr)
    );
    // A file named like a token does not stand in for the token it is named like.
    std::fs::write(dir.path().join("e30.e30.AA"), RFC8037_TOKEN).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_canonfuzz"))
        .current_dir(dir.path())
        .args(["jws", "verify", "--jwk", key, "e30.e30.AA"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
}

#[test]
fn jwk_thumbprint_follows_rfc_7638() {
    let out = canonfuzz(&["jwk", "thumbprint"], RFC8037_JWK.as_bytes());
    assert_eq!(
        text(&out.stdout).trim(),
        "kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k"
    );
}

/// Seed 000's salt, and its published fingerprints and proof.
const SEED_SALT: &str = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";

#[test]
fn fingerprints_match_the_ekl_seed() {
    let out = canonfuzz(
        &["fingerprint", "--salt", SEED_SALT],
        br#"{"min_beds": 3, "area_ref": "loc:ca:dublin"}"#,
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout).trim(),
        "46839dcf7511e1b9789e56ccbce9a4e7a562adc9aa9b1088337802fec1018a3c"
    );
    let result = br#"{"structuredContent":{"listings":[{"address":"4252 Escudo Ct","price":"1349000.00"}],"next_cursor":null},"content":[{"type":"text","text":"{...}"}],"isError":true,"_meta":{"x":1}}"#;
    let out = canonfuzz(&["fingerprint", "--salt", SEED_SALT, "--result"], result);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout).trim(),
        "1a22bbbe0546873ae70004bfdd78ba62541b74cfe70744b98f5ce490dbad6858"
    );
    assert!(text(&out.stderr).contains("structuredContent"));
    let out = canonfuzz(
        &["fingerprint", "--salt", SEED_SALT],
        b"{\"a\":1,\n\"a\":2}",
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("at line 2, column 1"),
        "{}",
        text(&out.stderr)
    );
    let out = canonfuzz(&["fingerprint", "--salt", "0011"], b"{}");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("is 2 bytes"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn challenge_proofs_match_the_ekl_seed() {
    let dir = tempfile::tempdir().unwrap();
    let credential = dir.path().join("credential");
    std::fs::write(&credential, "eklp_example-credential-not-a-real-one\n").unwrap();
    let challenge = "9f".repeat(32);
    let args = |verb: &'static str, endpoint: &'static str| -> Vec<String> {
        [
            "challenge",
            verb,
            "--credential-file",
            credential.to_str().unwrap(),
            "--challenge",
            &challenge,
            "--endpoint",
            endpoint,
        ]
        .iter()
        .map(|s| s.to_string())
        .collect()
    };
    let run = |args: Vec<String>| {
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        canonfuzz(&refs, b"")
    };
    let proof = "53d2cef6a77ddb2c0c41485276e84217bb9b878ce200fa1e64c321990d91dd8a";
    let out = run(args("prove", "https://mcp.example.com/ekl"));
    assert_eq!(text(&out.stdout).trim(), proof);
    let mut verify = args("verify", "https://mcp.example.com/ekl");
    verify.extend(["--proof".to_string(), proof.to_string()]);
    assert_eq!(run(verify).status.code(), Some(0));
    let mut wrong = args("verify", "https://mcp.example.com/other");
    wrong.extend(["--proof".to_string(), proof.to_string()]);
    let out = run(wrong);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stdout).contains("does not match"));
}

/// A case of INK's published corpus, from the copy under corpus/ink.
fn ink_case(category: &str, index: usize) -> serde_json::Value {
    let path = common::repo_corpus().join(format!("ink/conformance-v1/{category}.json"));
    let file: serde_json::Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    file["cases"][index]["input"].clone()
}

#[test]
fn ink_verify_request_reproduces_inks_decisions() {
    // signature-base valid-signature-accepts and wrong-key-rejects, as a whole request.
    let dir = tempfile::tempdir().unwrap();
    let run = |case: serde_json::Value, path_suffix: &str, extra: &[&str]| {
        let sign = &case["signInput"];
        let keys = dir.path().join("keys.json");
        let sender = sign["body"]["from"].as_str().unwrap();
        let directory = serde_json::json!({ sender: [
            {"keyId": "k0", "publicKeyHex": case["publicKeyHex"], "status": "active", "validFrom": "yesterday"},
            {"keyId": "k1", "publicKeyHex": case["publicKeyHex"], "status": "active"}
        ], "did:key:someone-else": [
            {"keyId": "k1", "publicKeyHex": "00".repeat(32), "status": "active"}
        ]});
        std::fs::write(&keys, directory.to_string()).unwrap();
        let path = format!("{}{path_suffix}", sign["path"].as_str().unwrap());
        let header = format!(
            "INK-Ed25519 {} keyId=k1",
            case["signature"].as_str().unwrap()
        );
        let mut args = vec![
            "ink",
            "verify-request",
            "--json",
            "--path",
            &path,
            "--recipient",
            sign["recipientDid"].as_str().unwrap(),
            "--authorization",
            &header,
            "--keys",
            keys.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        let out = canonfuzz(&args, sign["body"].to_string().as_bytes());
        let answer: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        (out.status.code(), answer)
    };
    let (code, answer) = run(ink_case("signature-base", 0), "", &[]);
    assert_eq!(code, Some(0), "{answer}");
    assert_eq!(answer["details"]["keyStatus"], "active");
    // The malformed entry is skipped, as INK's key-rotation corpus requires, and said so.
    assert_eq!(
        answer["details"]["skippedKeys"],
        serde_json::json!(["keys[0] (k0): validFrom \"yesterday\" is not an INK timestamp"])
    );
    // The same request from a sender the directory does not know.
    let mut stranger = ink_case("signature-base", 0);
    stranger["signInput"]["body"]["from"] = "did:key:unknown".into();
    let dir2 = tempfile::tempdir().unwrap();
    let keys = dir2.path().join("keys.json");
    let directory = serde_json::json!({"did:key:known": [{"keyId": "k1", "publicKeyHex": stranger["publicKeyHex"], "status": "active"}]});
    std::fs::write(&keys, directory.to_string()).unwrap();
    let sign = &stranger["signInput"];
    let header = format!("INK-Ed25519 {}", stranger["signature"].as_str().unwrap());
    let out = canonfuzz(
        &[
            "ink",
            "verify-request",
            "--json",
            "--path",
            sign["path"].as_str().unwrap(),
            "--recipient",
            sign["recipientDid"].as_str().unwrap(),
            "--authorization",
            &header,
            "--keys",
            keys.to_str().unwrap(),
        ],
        sign["body"].to_string().as_bytes(),
    );
    let answer: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(answer["error"]["error"], "unknown_sender", "{answer}");
    let (code, answer) = run(ink_case("signature-base", 4), "", &[]);
    assert_eq!(code, Some(1));
    assert_eq!(answer["error"]["error"], "signature_verification_failed");
    assert_eq!(answer["httpStatus"], 401);
    let (code, answer) = run(
        ink_case("signature-base", 0),
        "",
        &["--now", "2026-06-12T00:00:00Z"],
    );
    assert_eq!(code, Some(1));
    assert_eq!(answer["error"]["error"], "stale");
}

#[test]
fn ink_verify_proof_reproduces_inks_decisions() {
    // merkle-consistency five-to-eight-accepts and tampered-second-root-rejects.
    for (index, code) in [(4, 0), (9, 1)] {
        let case = ink_case("merkle-consistency", index);
        let out = canonfuzz(&["ink", "verify-proof"], case.to_string().as_bytes());
        assert_eq!(out.status.code(), Some(code), "{}", text(&out.stdout));
    }
}

#[test]
fn vmcp_verify_json_reports_the_payload_as_it_was_signed() {
    use canonfuzz_props::vmcp::test_server::{provenance, sha256_label, signer, IAT};
    use serde_json::json;
    // A payload led by serde_json's marker name, which serde_json's Value reads as the
    // document its member holds as text: {"a":1}, not what was signed.
    let signed = r#"{"$serde_json::private::RawValue":"{\"a\":1}"}"#;
    let misread: serde_json::Value = serde_json::from_str(signed).unwrap();
    assert_eq!(misread, json!({"a": 1}));
    let payload = json!({"$serde_json::private::RawValue": "{\"a\":1}"});
    let server = signer().unwrap();
    let wrapper = json!({"iat": IAT, "provenance": provenance(), "payload": payload,
        "payload_digest": sha256_label(signed.as_bytes()), "content_digest": sha256_label(b"hi")});
    let response = json!({"jsonrpc": "2.0", "id": 1, "result": {
        "content": [{"type": "text", "text": "hi"}], "structuredContent": payload,
        "_meta": {canonfuzz_core::vmcp::META_KEY: server.envelope(server.sign(&wrapper))}}});
    let dir = tempfile::tempdir().unwrap();
    let jwks = dir.path().join("jwks.json");
    std::fs::write(&jwks, server.jwks.to_string()).unwrap();
    let now = (IAT + 60).to_string();
    let out = canonfuzz(
        &[
            "vmcp",
            "verify",
            "--jwks",
            jwks.to_str().unwrap(),
            "--now",
            &now,
            "--json",
        ],
        response.to_string().as_bytes(),
    );
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains(r#""valid":true"#), "{stdout}");
    assert!(
        stdout.contains(&format!(r#""payload":{signed}"#)),
        "{stdout}"
    );
}

#[test]
fn every_reader_refuses_input_past_the_limit() {
    let dir = tempfile::tempdir().unwrap();
    let jwk = dir.path().join("jwk.json");
    std::fs::write(&jwk, RFC8037_JWK).unwrap();
    let jwks = dir.path().join("jwks.json");
    std::fs::write(&jwks, format!(r#"{{"keys":[{RFC8037_JWK}]}}"#)).unwrap();
    let big = dir.path().join("big.json");
    std::fs::write(&big, vec![b' '; 4096]).unwrap();
    let keys = dir.path().join("keys.json");
    std::fs::write(&keys, "{}").unwrap();
    let (jwk, jwks, big, keys) = (
        jwk.to_str().unwrap(),
        jwks.to_str().unwrap(),
        big.to_str().unwrap(),
        keys.to_str().unwrap(),
    );
    let salt = "00".repeat(32);
    let commands: [&[&str]; 8] = [
        &["canon"],
        &["canon", big],
        &["jws", "verify", "--jwk", jwk],
        &["jws", "verify", "--jwk", big, RFC8037_TOKEN],
        &["vmcp", "verify", "--jwks", jwks],
        &["jwk", "thumbprint"],
        &["fingerprint", "--salt", &salt],
        &[
            "ink",
            "verify-request",
            "--path",
            "/p",
            "--recipient",
            "did:r",
            "--authorization",
            "x",
            "--keys",
            keys,
        ],
    ];
    for command in commands {
        let mut args = vec!["--max-input-bytes", "1KiB"];
        args.extend_from_slice(command);
        let out = canonfuzz(&args, &[b' '; 2048]);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{command:?}: {stderr}");
        assert!(
            stderr.contains("error[too_large]") && stderr.contains("--max-input-bytes"),
            "{command:?}: {stderr}"
        );
    }
    // Within the limit the same commands read their input.
    let out = canonfuzz(&["--max-input-bytes", "1KiB", "canon"], b"[1]");
    assert_eq!(text(&out.stdout), "[1]");
}

#[test]
fn an_endless_stdin_is_refused_at_the_default_limit() {
    let stdin = vec![b'['; (32 << 20) + 4096];
    let out = canonfuzz(&["canon"], &stdin);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("larger than the input limit of 32 MiB"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn vectors_on_a_missing_directory_is_an_io_error() {
    let out = canonfuzz(&["vectors", "/nonexistent/corpus"], b"");
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("/nonexistent/corpus is not a directory"),
        "{stderr}"
    );
}

#[test]
fn ink_decide_takes_every_decision_of_inks_corpus_as_the_library_does() {
    use canonfuzz_diff::families::ink::published::{decide, InkVectors, INK_SCHEMA};
    let corpus = common::repo_corpus();
    let manifest = canonfuzz_diff::manifest::Manifest::read(&corpus).unwrap();
    let mut decided = 0;
    for entry in manifest.files_of(INK_SCHEMA) {
        let file = InkVectors::parse(&std::fs::read(corpus.join(&entry.path)).unwrap()).unwrap();
        for case in &file.cases {
            let raw = case.input.get();
            let out = canonfuzz(&["ink", "decide", &file.category, "--json"], raw.as_bytes());
            let id = format!("{} {}", entry.path, case.case_id);
            let answer: serde_json::Value = serde_json::from_slice(&out.stdout)
                .unwrap_or_else(|e| panic!("{id}: {e}: {}", text(&out.stderr)));
            // The published decision sets the exit status; the library's, the details.
            let accepts = case.expect["result"] == "accept";
            assert_eq!(out.status.code(), Some(if accepts { 0 } else { 1 }), "{id}");
            match decide(&file.category, raw).unwrap() {
                Ok(yields) => {
                    assert_eq!(answer["details"], serde_json::Value::Object(yields), "{id}")
                }
                Err(e) => {
                    assert_eq!(answer["error"]["error"], e.kind, "{id}");
                    assert_eq!(answer["error"]["message"], e.message, "{id}");
                }
            }
            decided += 1;
        }
    }
    assert!(decided > 100, "only {decided} INK cases");
}

#[test]
fn ink_decide_names_what_it_takes() {
    let out = canonfuzz(&["ink", "decide", "--list"], b"");
    assert_eq!(out.status.code(), Some(0));
    let listed = text(&out.stdout);
    for category in canonfuzz_diff::families::ink::published::CATEGORIES {
        assert!(listed.contains(category), "{category} is not listed");
    }
    let out = canonfuzz(&["ink", "decide", "nonesuch"], b"{}");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("ink decide --list"));
    let out = canonfuzz(&["ink", "decide", "merkle-leaf"], b"[1]");
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("not a merkle-leaf case") && stderr.contains("{eventRaw}"),
        "{stderr}"
    );
}

#[test]
fn ink_verify_proof_refuses_a_proof_without_its_members_as_usage() {
    for (proof, says) in [
        ("{}", "neither index and size nor first and second"),
        (r#"{"index":0,"size":1,"proof":[]}"#, "no \"leafHash\""),
        (r#"{"first":1,"second":2,"proof":[]}"#, "no \"firstRoot\""),
    ] {
        let out = canonfuzz(&["ink", "verify-proof"], proof.as_bytes());
        assert_eq!(out.status.code(), Some(2), "{proof}");
        assert!(
            text(&out.stderr).contains(says),
            "{proof}: {}",
            text(&out.stderr)
        );
    }
    // A proof with every member whose values INK refuses is a rejection.
    let out = canonfuzz(
        &["ink", "verify-proof"],
        br#"{"index":0,"size":1,"proof":[],"leafHash":"zz","root":"00"}"#,
    );
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn a_request_without_an_authorization_header_is_said_so_and_rejected() {
    let case = ink_case("signature-base", 0);
    let sign = &case["signInput"];
    let dir = tempfile::tempdir().unwrap();
    let keys = dir.path().join("keys.json");
    let directory = serde_json::json!({ sign["body"]["from"].as_str().unwrap(): [
        {"keyId": "k1", "publicKeyHex": case["publicKeyHex"], "status": "active"}
    ]});
    std::fs::write(&keys, directory.to_string()).unwrap();
    let base = [
        "ink",
        "verify-request",
        "--json",
        "--path",
        sign["path"].as_str().unwrap(),
        "--recipient",
        sign["recipientDid"].as_str().unwrap(),
        "--keys",
        keys.to_str().unwrap(),
    ];
    let body = sign["body"].to_string();
    let out = canonfuzz(
        &[&base[..], &["--no-authorization"]].concat(),
        body.as_bytes(),
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let answer: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(answer["httpStatus"], 401);
    assert_eq!(answer["error"]["error"], "invalid_authorization");
    assert!(answer["error"]["message"]
        .as_str()
        .unwrap()
        .contains("no Authorization header"));
    // Saying neither is a usage error.
    let out = canonfuzz(&base, body.as_bytes());
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn completions_and_man_pages_come_from_the_command_definitions() {
    for shell in ["bash", "zsh", "fish"] {
        let out = canonfuzz(&["completions", shell], b"");
        assert_eq!(out.status.code(), Some(0), "{shell}");
        let script = text(&out.stdout);
        for command in ["canon", "diff", "selftest", "vectors", "decide"] {
            assert!(
                script.contains(command),
                "{shell} completion lacks {command}"
            );
        }
    }
    assert_eq!(
        canonfuzz(&["completions", "tcsh"], b"").status.code(),
        Some(2)
    );
    let page = canonfuzz(&["man"], b"");
    assert_eq!(page.status.code(), Some(0));
    assert!(text(&page.stdout).starts_with(".ie"));
    assert!(text(&page.stdout).contains(".TH canonfuzz 1"));
    let dir = tempfile::tempdir().unwrap();
    let out = canonfuzz(&["man", "--out", dir.path().to_str().unwrap()], b"");
    assert_eq!(out.status.code(), Some(0));
    for page in ["canonfuzz.1", "canonfuzz-diff.1", "canonfuzz-ink-decide.1"] {
        let roff = std::fs::read_to_string(dir.path().join(page)).unwrap();
        assert!(roff.contains(".SH"), "{page}");
    }
}

#[test]
fn ink_decide_computes_a_trees_root_as_rfc_9162_defines_it() {
    use sha2::{Digest, Sha256};
    let (a, b) = ([0x11u8; 32], [0x22u8; 32]);
    let hex = |bytes: &[u8]| canonfuzz_diff::vector::to_hex(bytes);
    // RFC 9162 §2.1.1: MTH of two leaves is SHA-256(0x01 || left || right); of none, SHA-256().
    let node = Sha256::new()
        .chain_update([1u8])
        .chain_update(a)
        .chain_update(b)
        .finalize();
    for (leaves, root) in [
        (vec![], hex(&Sha256::digest(b""))),
        (vec![hex(&a)], hex(&a)),
        (vec![hex(&a), hex(&b)], hex(&node)),
    ] {
        let input = serde_json::json!({"op": "root", "leafHashes": leaves}).to_string();
        let out = canonfuzz(
            &["ink", "decide", "seed-witness", "--json"],
            input.as_bytes(),
        );
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        let answer: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(answer["details"]["rootHash"], root, "{input}");
    }
    let out = canonfuzz(
        &["ink", "decide", "seed-witness"],
        br#"{"op":"root","leafHashes":["zz"]}"#,
    );
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn ed25519_verify_decides_every_wycheproof_case_as_published() {
    let path = common::repo_corpus().join("ed25519/wycheproof.json");
    let file: serde_json::Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    let mut checked = 0;
    for group in file["testGroups"].as_array().unwrap() {
        for test in group["tests"].as_array().unwrap() {
            let msg = canonfuzz_diff::vector::from_hex(test["msg"].as_str().unwrap()).unwrap();
            let out = canonfuzz(
                &[
                    "ed25519",
                    "verify",
                    "--key",
                    test["publicKey"].as_str().unwrap(),
                    "--sig",
                    test["sig"].as_str().unwrap(),
                ],
                &msg,
            );
            let want = if test["result"] == "valid" { 0 } else { 1 };
            assert_eq!(out.status.code(), Some(want), "tcId {}", test["tcId"]);
            checked += 1;
        }
    }
    assert_eq!(checked, 151);
}

#[test]
fn the_field_lists_page_is_what_canonfuzz_fields_prints() {
    let out = canonfuzz(&["fields"], b"");
    assert_eq!(out.status.code(), Some(0));
    let page =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/fields.md")).unwrap();
    assert_eq!(
        text(&out.stdout),
        page,
        "docs/fields.md is out of date: run `canonfuzz fields > docs/fields.md`"
    );
    let one = canonfuzz(&["fields", "--family", "ink"], b"");
    assert!(text(&one.stdout).contains("| `/method` | ink::request::signature_base |"));
    assert!(!text(&one.stdout).contains("## jcs"));
}
