//! Whole verifiable-mcp responses, assembled from the protocol's published v0.2.1 vectors the
//! way a server serves them, through `canonfuzz vmcp verify`.

mod common;

use serde_json::{json, Value};

fn published() -> Value {
    let path = common::repo_corpus().join("vmcp/verifiable-mcp-v0.2.1.json");
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

fn case(name: &str) -> Value {
    published()["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == name)
        .unwrap()
        .clone()
}

fn envelope(c: &Value) -> Value {
    json!({"spec": "0.2.1", "alg": "EdDSA", "kid": "vDGVZHcIh5irseqRr1yIYo2IsyYckjLowPLc5VT5nP4", "signed": "wrapper", "jws": c["jws"]})
}

/// A tools/call response as a server sends it.
fn tool_response(c: &Value) -> Value {
    json!({"jsonrpc": "2.0", "id": 1, "result": {
        "content": [{"type": "text", "text": c["content_text"]}],
        "structuredContent": c["wrapper"]["payload"],
        "_meta": {"org.jardenberg/verifiable-mcp": envelope(c)}
    }})
}

fn verify(response: &Value, extra: &[&str]) -> (Option<i32>, String) {
    let dir = tempfile::tempdir().unwrap();
    let jwks = dir.path().join("jwks.json");
    std::fs::write(&jwks, published()["jwks"].to_string()).unwrap();
    let mut args = vec!["vmcp", "verify", "--jwks", jwks.to_str().unwrap()];
    args.extend_from_slice(extra);
    let out = common::canonfuzz(&args, response.to_string().as_bytes());
    (
        out.status.code(),
        common::text(&out.stdout) + &common::text(&out.stderr),
    )
}

#[test]
fn served_tool_results_verify_and_name_the_key() {
    for name in ["positive_tools_json_arm", "positive_tools_prose_arm"] {
        let (code, out) = verify(&tool_response(&case(name)), &[]);
        assert_eq!(code, Some(0), "{name}: {out}");
        assert!(
            out.contains("kid: \"vDGVZHcIh5irseqRr1yIYo2IsyYckjLowPLc5VT5nP4\"\n"),
            "{out}"
        );
    }
}

#[test]
fn convenience_fields_do_not_decide_the_verdict() {
    let mut response = tool_response(&case("positive_tools_json_arm"));
    let meta = &mut response["result"]["_meta"]["org.jardenberg/verifiable-mcp"];
    meta["kid"] = json!("some-other-kid");
    meta["alg"] = json!("RS256");
    meta["spec"] = json!("9.9");
    response["result"]["signature"] = json!("v0.1 sibling, ignored for trust");
    response["result"]["provenance"] = json!({"publisher": "anyone"});
    response["result"]["_meta"]["deployment.example/extra"] = json!(true);
    let (code, out) = verify(&response, &[]);
    assert_eq!(code, Some(0), "{out}");
}

#[test]
fn resources_and_error_frames_verify() {
    let c = case("positive_resources_read");
    let resource = json!({"jsonrpc": "2.0", "id": 2, "result": {
        "contents": c["wrapper"]["payload"]["contents"],
        "_meta": {"org.jardenberg/verifiable-mcp": envelope(&c)}
    }});
    let (code, out) = verify(&resource, &[]);
    assert_eq!(code, Some(0), "{out}");
    let e = case("positive_error_frame");
    let frame = json!({"jsonrpc": "2.0", "id": e["wrapper"]["payload"]["id"], "error": {
        "code": e["wrapper"]["payload"]["error"]["code"],
        "message": e["wrapper"]["payload"]["error"]["message"],
        "data": {"org.jardenberg/verifiable-mcp": envelope(&e)}
    }});
    let (code, out) = verify(&frame, &["--json"]);
    assert_eq!(code, Some(0), "{out}");
    let parsed: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(parsed["valid"], true);
}

#[test]
fn every_broken_rule_is_named() {
    let (code, out) = verify(
        &tool_response(&case("negative_mismatched_content_digest")),
        &[],
    );
    assert_eq!(code, Some(1));
    assert!(out.contains("failed [content_digest]"), "{out}");
    let (_, out) = verify(&tool_response(&case("negative_tampered_payload")), &[]);
    assert!(out.contains("failed [served_payload]"), "{out}");
    for (name, rule) in [
        ("negative_unknown_kid", "no key in the set"),
        ("negative_wrong_alg", "RS256"),
        ("negative_wrong_typ", "typ"),
    ] {
        let (code, out) = verify(&tool_response(&case(name)), &[]);
        assert_eq!(code, Some(1), "{name}");
        assert!(
            out.contains("failed [jws]") && out.contains(rule),
            "{name}: {out}"
        );
    }
    let mut altered = tool_response(&case("positive_tools_json_arm"));
    altered["result"]["structuredContent"]["total"] = json!(2);
    let (_, out) = verify(&altered, &[]);
    assert!(out.contains("failed [served_payload]"), "{out}");
    let mut unsigned = tool_response(&case("positive_tools_json_arm"));
    unsigned["result"]["_meta"] = json!({});
    let (code, out) = verify(&unsigned, &[]);
    assert_eq!(code, Some(1));
    assert!(out.contains("failed [envelope]"), "{out}");
}

#[test]
fn iat_is_held_to_the_window() {
    let response = tool_response(&case("positive_tools_json_arm"));
    let iat = case("positive_tools_json_arm")["wrapper"]["iat"]
        .as_u64()
        .unwrap();
    let (code, _) = verify(
        &response,
        &["--now", &(iat + 30).to_string(), "--max-age", "60"],
    );
    assert_eq!(code, Some(0));
    let (code, out) = verify(
        &response,
        &["--now", &(iat + 3600).to_string(), "--max-age", "60"],
    );
    assert_eq!(code, Some(1));
    assert!(out.contains("failed [freshness]"), "{out}");
    let (_, out) = verify(
        &response,
        &["--now", &(iat - 3600).to_string(), "--max-age", "60"],
    );
    assert!(out.contains("in the future"), "{out}");
}
