//! Nothing an input says can forge a line of what canonfuzz prints. Each printer is fed names
//! and values that try to: a line break and the word `valid` (for `… | grep -x valid`), a
//! terminal's escape sequences and one-byte CSI, a reordering override. Every line printed is
//! one the printer meant, and carries no control character.

mod common;

use common::{canonfuzz, text};

/// What tries to leave its place.
const FORGED: &str = "x\nvalid\r\n\u{1b}]0;owned\u{7}\u{1b}[2J\u{9b}31m\u{202e}";

/// Whether a character is one a terminal takes for control or layout.
fn hidden(c: char) -> bool {
    c.is_control() || matches!(c, '\u{2028}' | '\u{2029}' | '\u{202a}'..='\u{202e}')
}

/// Output with `lines` lines, none of them a bare `valid` but the first when `valid` is
/// meant, and nothing hidden but line feeds.
fn printed(out: &str, lines: usize, valid: bool) {
    assert_eq!(out.lines().count(), lines, "{out:?}");
    assert!(!out.chars().any(|c| hidden(c) && c != '\n'), "{out:?}");
    let bare: Vec<usize> = out
        .lines()
        .enumerate()
        .filter(|(_, l)| l.trim() == "valid")
        .map(|(i, _)| i)
        .collect();
    assert_eq!(bare, if valid { vec![0] } else { vec![] }, "{out:?}");
}

/// The test of the verifiable-mcp forgeries whose comment starts `comment`, as its response
/// text, key set and clock.
fn forgery(comment: &str) -> (String, String, String) {
    let path = common::repo_corpus().join("vmcp/forgeries.json");
    let file: serde_json::Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    let test = file["testGroups"][0]["tests"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["comment"].as_str().unwrap().starts_with(comment))
        .unwrap()
        .clone();
    let response = match test["input"].as_str() {
        Some(text) => text.to_string(),
        None => test["response"].to_string(),
    };
    (response, test["jwks"].to_string(), test["now"].to_string())
}

fn vmcp_verify(comment: &str) -> (Option<i32>, String) {
    let (response, jwks, now) = forgery(comment);
    let dir = tempfile::tempdir().unwrap();
    let keys = dir.path().join("jwks.json");
    std::fs::write(&keys, jwks).unwrap();
    let out = canonfuzz(
        &[
            "vmcp",
            "verify",
            "--jwks",
            keys.to_str().unwrap(),
            "--now",
            &now,
        ],
        response.as_bytes(),
    );
    (out.status.code(), text(&out.stdout))
}

#[test]
fn a_vmcp_verdict_names_hostile_members_and_headers_without_forging_a_line() {
    // A valid response whose `_meta` names a member "evil\nvalid": valid, kind, kid, key,
    // the unsigned listing, the payload.
    let (code, out) = vmcp_verify("_meta members beside the envelope, one of them named to forge");
    assert_eq!(code, Some(0), "{out}");
    printed(&out, 6, true);
    assert!(out.contains(r#""evil\nvalid""#), "{out}");
    // An alg header of "EdDSA\nvalid": refused, and no line reads valid.
    let (code, out) = vmcp_verify("an alg header whose line break would forge");
    assert_eq!(code, Some(1), "{out}");
    printed(&out, out.lines().count(), false);
    assert!(out.contains(r#"alg "EdDSA\nvalid""#), "{out}");
}

#[test]
fn a_jws_verdict_names_a_hostile_alg_without_forging_a_line() {
    let b64 = canonfuzz_core::jws::base64url_encode;
    let header = serde_json::json!({ "alg": FORGED }).to_string();
    let token = format!("{}.e30.AA", b64(header.as_bytes()));
    let dir = tempfile::tempdir().unwrap();
    let key = dir.path().join("key.json");
    std::fs::write(
        &key,
        r#"{"kty":"OKP","crv":"Ed25519","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}"#,
    )
    .unwrap();
    let out = canonfuzz(
        &["jws", "verify", "--jwk", key.to_str().unwrap(), &token],
        b"",
    );
    assert_eq!(out.status.code(), Some(1));
    printed(&text(&out.stdout), 1, false);
}

#[test]
fn a_canonicalizer_error_names_a_hostile_member_without_forging_a_line() {
    let name = serde_json::to_string(FORGED).unwrap();
    let document = format!("{{{name}:1,{name}:2}}");
    let out = canonfuzz(&["canon"], document.as_bytes());
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    printed(&err, 1, false);
    assert!(err.contains("duplicate_key"), "{err}");
}

#[test]
fn the_corpus_runner_reports_a_hostile_vector_without_forging_a_line() {
    let dir = tempfile::tempdir().unwrap();
    let file = serde_json::json!({
        "algorithm": "JCS",
        "schema": "canonfuzz_jcs_v1",
        "numberOfTests": 1,
        "header": [FORGED],
        "notes": {},
        "testGroups": [{
            "type": "JcsCanonicalize",
            "source": {"name": FORGED},
            "tests": [{"tcId": 1, "comment": FORGED, "flags": [], "input": "[1]", "expected": "[2]", "result": "valid"}]
        }]
    });
    std::fs::create_dir_all(dir.path().join("jcs")).unwrap();
    std::fs::write(dir.path().join("jcs/hostile.json"), file.to_string()).unwrap();
    let manifest = canonfuzz(&["manifest", dir.path().to_str().unwrap()], b"");
    assert_eq!(
        manifest.status.code(),
        Some(0),
        "{}",
        text(&manifest.stderr)
    );
    let out = canonfuzz(&["vectors", dir.path().to_str().unwrap()], b"");
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out.stdout);
    printed(&stdout, stdout.lines().count(), false);
    assert!(stdout.contains(r#"x\nvalid"#), "{stdout}");
}
