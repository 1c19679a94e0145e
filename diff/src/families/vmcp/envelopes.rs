//! verifiable-mcp responses signed with a deterministic test key, each negative breaking
//! the rules it names by construction, so they are known without running the verifier: the
//! specification's own negatives, and every forgery that gets a genuine signature past a
//! verifier that checks less than a client reads (a result beside a signed error, unsigned
//! members, a token without kid, expired or not-yet-valid wrappers, deep payloads).
//!
//! The key is NOT a secret: its 32-byte Ed25519 seed is SHA-256 of the fixed string
//! [`TEST_KEY_SEED`], so anyone can regenerate every signature here.

use std::collections::BTreeMap;

use canonfuzz_core::vmcp::{META_KEY, TYP};
use serde_json::{json, Value};

use crate::families::vmcp::gen::server::{
    jcs, provenance, sha256_label, signer, Signer, IAT, TEST_KEY_SEED,
};
use crate::importer::{Importer, Reads};
use crate::provenance::note;

/// The clock a test is checked at unless it says otherwise: ten seconds after `IAT`.
const NOW: u64 = IAT + 10;
use super::VmcpTest;
use crate::vector::{tests_of, Expectation, Source, TestGroup, VectorFile};

fn listing() -> Value {
    json!({"listings": [{"address": "4252 Escudo Ct", "price": "1349000.00"}], "next_cursor": null, "note": "Åsa's fäbod – naïve façade"})
}

fn tool_wrapper(payload: &Value, text: &str) -> Value {
    json!({"iat": IAT, "payload": payload, "payload_digest": sha256_label(&jcs(payload)), "content_digest": sha256_label(text.as_bytes()), "provenance": provenance()})
}

fn tool_response(s: &Signer, payload: &Value, text: &str, jws: String) -> Value {
    json!({"jsonrpc": "2.0", "id": 7, "result": {"content": [{"type": "text", "text": text}], "structuredContent": payload, "_meta": {META_KEY: s.envelope(jws)}}})
}

fn error_payload() -> Value {
    json!({"id": 9, "error": {"code": -32602, "message": "Unknown argument: bogus"}})
}

fn error_wrapper(payload: &Value) -> Value {
    json!({"iat": IAT, "payload": payload, "payload_digest": sha256_label(&jcs(payload)), "provenance": provenance()})
}

fn error_response(s: &Signer, wrapper: &Value) -> Value {
    json!({"jsonrpc": "2.0", "id": 9, "error": {"code": -32602, "message": "Unknown argument: bogus", "data": {META_KEY: s.envelope(s.sign(wrapper))}}})
}

/// What a test is checked with besides its response: the key set and the clock.
struct Setting<'a> {
    jwks: &'a Value,
    now: u64,
    max_age: Option<u64>,
}

/// Appends a test: `response` is a JSON value, or (for bytes a value cannot hold — duplicate
/// names, nesting past serde_json's limit) the exact text as `input`.
fn push(
    tests: &mut Vec<VmcpTest>,
    broken_flag: &str,
    comment: &str,
    response: Result<Value, String>,
    setting: &Setting,
    failed: &[&str],
) {
    let mut t = VmcpTest {
        tc_id: tests.len() as u64 + 1,
        comment: comment.into(),
        ..VmcpTest::default()
    };
    t.flags = vec![if failed.is_empty() {
        "Valid"
    } else {
        broken_flag
    }
    .to_string()];
    match response {
        Ok(value) => t.response = Some(value),
        Err(text) => t.input = Some(text),
    }
    t.jwks = Some(setting.jwks.clone());
    t.now = Some(setting.now);
    t.max_age = setting.max_age;
    t.failed_rules = failed.iter().map(|r| r.to_string()).collect();
    t.result = if failed.is_empty() {
        Expectation::Valid
    } else {
        Expectation::Invalid
    };
    tests.push(t);
}

/// The file of signed responses.
pub fn envelopes() -> Result<VectorFile, String> {
    let s = signer()?;
    let payload = listing();
    let text = String::from_utf8_lossy(&jcs(&payload)).into_owned();
    let prose = "One listing: 4252 Escudo Ct, $1,349,000 — Åsa's fäbod";
    let wrapper = tool_wrapper(&payload, &text);
    let good = tool_response(&s, &payload, &text, s.sign(&wrapper));
    let mut tests = Vec::new();
    let mut add = |comment: &str,
                   response: Value,
                   jwks: &Value,
                   window: Option<(u64, Option<u64>)>,
                   failed: &[&str]| {
        let (now, max_age) = window.unwrap_or((NOW, None));
        let setting = Setting { jwks, now, max_age };
        push(
            &mut tests,
            "BrokenRule",
            comment,
            Ok(response),
            &setting,
            failed,
        );
    };
    let jwks = s.jwks.clone();
    add(
        "a tool result whose text arm is the canonical payload",
        good.clone(),
        &jwks,
        Some((IAT + 10, Some(3600))),
        &[],
    );
    let prose_wrapper = tool_wrapper(&payload, prose);
    add(
        "a tool result with a prose text arm (content_digest differs from payload_digest)",
        tool_response(&s, &payload, prose, s.sign(&prose_wrapper)),
        &jwks,
        None,
        &[],
    );
    let error_wrapper = error_wrapper(&error_payload());
    let error_frame = |w: &Value| error_response(&s, w);
    add(
        "a JSON-RPC error frame signed at error.data (no content_digest)",
        error_frame(&error_wrapper),
        &jwks,
        None,
        &[],
    );
    let legacy = s.sign_bytes(&s.header(&s.legacy_kid), &jcs(&wrapper));
    add(
        "signed under the legacy truncated kid, which the key set lists for the same key",
        tool_response(&s, &payload, &text, legacy.clone()),
        &jwks,
        None,
        &[],
    );
    let only_current = json!({"keys": [jwks["keys"][0].clone()]});
    add(
        "the legacy kid against a key set that does not list it: fail closed",
        tool_response(&s, &payload, &text, legacy),
        &only_current,
        None,
        &["jws"],
    );
    let mut convenience = good.clone();
    let meta = &mut convenience["result"]["_meta"][META_KEY];
    meta["kid"] = json!("not-the-signing-kid");
    meta["alg"] = json!("RS256");
    meta["spec"] = json!("0.1");
    convenience["result"]["signature"] = json!("deprecated v0.1 sibling");
    convenience["result"]["provenance"] = json!({"publisher": "someone else"});
    add(
        "convenience fields outside the JWS that differ, and v0.1 siblings: ignored for trust",
        convenience,
        &jwks,
        None,
        &[],
    );
    let mut unsigned = good.clone();
    unsigned["result"]["_meta"] = json!({});
    add("no envelope", unsigned, &jwks, None, &["envelope"]);
    let wrong_typ = s.sign_bytes(
        &json!({"alg": "EdDSA", "kid": s.kid, "typ": "JOSE"}),
        &jcs(&wrapper),
    );
    add(
        "typ JOSE instead of verifiable-mcp+jws",
        tool_response(&s, &payload, &text, wrong_typ),
        &jwks,
        None,
        &["jws"],
    );
    let ed25519_alg = s.sign_bytes(
        &json!({"alg": "Ed25519", "kid": s.kid, "typ": TYP}),
        &jcs(&wrapper),
    );
    add(
        "alg Ed25519: a valid JWS, but the profile pins EdDSA",
        tool_response(&s, &payload, &text, ed25519_alg),
        &jwks,
        None,
        &["jws"],
    );
    let mut bad_sig = s.sign(&wrapper);
    let last = bad_sig
        .pop()
        .map_or('A', |c| if c == 'A' { 'Q' } else { 'A' });
    bad_sig.push(last);
    add(
        "signature altered",
        tool_response(&s, &payload, &text, bad_sig),
        &jwks,
        None,
        &["jws"],
    );
    let spaced = wrapper.to_string().replace(",\"", ", \"");
    add(
        "the signed wrapper is not in canonical form",
        tool_response(
            &s,
            &payload,
            &text,
            s.sign_bytes(&s.header(&s.kid), spaced.as_bytes()),
        ),
        &jwks,
        None,
        &["canonical_wrapper"],
    );
    let mut no_provenance = wrapper.clone();
    no_provenance
        .as_object_mut()
        .map(|w| w.remove("provenance"));
    add(
        "the wrapper has no provenance",
        tool_response(&s, &payload, &text, s.sign(&no_provenance)),
        &jwks,
        None,
        &["wrapper_shape"],
    );
    let mut stale_key = wrapper.clone();
    stale_key["content_hash"] = json!("sha256:00");
    add(
        "the wrapper keeps a v0.1 content_hash key",
        tool_response(&s, &payload, &text, s.sign(&stale_key)),
        &jwks,
        None,
        &["wrapper_shape"],
    );
    let mut error_with_digest = error_wrapper.clone();
    error_with_digest["content_digest"] = json!(sha256_label(b""));
    add(
        "an error wrapper with a content_digest",
        error_frame(&error_with_digest),
        &jwks,
        None,
        &["wrapper_shape"],
    );
    let mut wrong_payload_digest = wrapper.clone();
    wrong_payload_digest["payload_digest"] = json!(sha256_label(b"something else"));
    add(
        "payload_digest over something else",
        tool_response(&s, &payload, &text, s.sign(&wrong_payload_digest)),
        &jwks,
        None,
        &["payload_digest"],
    );
    add(
        "the served text arm differs from what content_digest covers",
        tool_response(&s, &payload, &format!("{text} "), s.sign(&wrapper)),
        &jwks,
        None,
        &["content_digest"],
    );
    let mut injected = good.clone();
    injected["result"]["structuredContent"]["injected"] = json!("not signed");
    add(
        "structuredContent carries a member the signed payload lacks",
        injected,
        &jwks,
        None,
        &["served_payload"],
    );
    add(
        "iat two hours before now, with a one-hour window",
        good.clone(),
        &jwks,
        Some((IAT + 7200, Some(3600))),
        &["freshness"],
    );
    add(
        "iat an hour after now",
        good,
        &jwks,
        Some((IAT - 3600, Some(3600))),
        &["freshness"],
    );
    vector_file(
        tests,
        ("BrokenRule", "A response that breaks exactly the rules in failedRules, by construction."),
        format!(
            "verifiable-mcp 0.2.1 responses signed with a deterministic TEST key: its Ed25519 seed is SHA-256({TEST_KEY_SEED:?}). Each negative breaks one rule by construction; failedRules names it."
        ),
    )
}

/// Appends the forgeries of numbers served otherwise than signed, and the genuine responses
/// that carry what the signature does not cover, each with where its verdict lists that.
fn exact_and_unsigned(s: &Signer, tests: &mut Vec<VmcpTest>) -> Result<(), String> {
    let jwks = s.jwks.clone();
    let now = Setting {
        jwks: &jwks,
        now: NOW,
        max_age: None,
    };
    let mut add =
        |comment: &str, response: Result<Value, String>, failed: &[&str], unsigned: &[&str]| {
            push(tests, "Forgery", comment, response, &now, failed);
            if let Some(test) = tests.last_mut() {
                test.unsigned = Some(unsigned.iter().map(|u| u.to_string()).collect());
            }
        };
    // Numbers a client that reads them exactly reads otherwise than signed.
    let numbers = json!({"big": 1e23, "count": 12345678901234567000u64, "floor": 0, "hundred": 100, "ratio": 1.0000000000000002});
    let text = String::from_utf8_lossy(&jcs(&numbers)).into_owned();
    let served = serde_json::to_string(&tool_response(
        s,
        &numbers,
        &text,
        s.sign(&tool_wrapper(&numbers, &text)),
    ))
    .map_err(|e| e.to_string())?;
    let bent = |from: &str, to: &str| -> Result<String, String> {
        served
            .contains(from)
            .then(|| served.replacen(from, to, 1))
            .ok_or_else(|| format!("the response has no {from}"))
    };
    add("a served integer that rounds to the signed double: a client reading integers exactly reads 12345678901234567891, which nobody signed", Err(bent(r#""count":12345678901234567000"#, r#""count":12345678901234567891"#)?), &["served_payload"], &[]);
    add("a served decimal that rounds to the signed double: a client keeping decimals reads 1.00000000000000021, which nobody signed", Err(bent(r#""ratio":1.0000000000000002"#, r#""ratio":1.00000000000000021"#)?), &["served_payload"], &[]);
    add(
        "1e-400 served for a signed 0: it rounds to 0, but is not 0",
        Err(bent(r#""floor":0"#, r#""floor":1e-400"#)?),
        &["served_payload"],
        &[],
    );
    add(
        "1e2 served for a signed 100: the same number, written another way",
        Err(bent(r#""hundred":100"#, r#""hundred":1e2"#)?),
        &[],
        &[],
    );
    add("1.2345678901234567e19 served for a signed 12345678901234567000: one decimal value, but Python's json reads the served float 12345678901234567168.0 against the signed int", Err(bent(r#""count":12345678901234567000"#, r#""count":1.2345678901234567e19"#)?), &["served_payload"], &[]);
    add("100000000000000000000000 served for a signed 1e+23: one decimal value, but Python's json reads the served int against the signed float 99999999999999991611392.0", Err(bent(r#""big":1e+23"#, r#""big":100000000000000000000000"#)?), &["served_payload"], &[]);
    add(
        "1E23 served for a signed 1e+23: both read as the one double by every client",
        Err(bent(r#""big":1e+23"#, r#""big":1E23"#)?),
        &[],
        &[],
    );
    let error = serde_json::to_string(&error_response(s, &error_wrapper(&error_payload())))
        .map_err(|e| e.to_string())?;
    add(
        "an error frame's id written 9.0 for a signed 9: a client reads ids as integers (§5)",
        Err(error.replacen(r#""id":9"#, r#""id":9.0"#, 1)),
        &["response_shape"],
        &[],
    );
    add(
        "an error frame's code written -32602.0: JSON-RPC codes are integers (§5.1)",
        Err(error.replacen(r#""code":-32602"#, r#""code":-32602.0"#, 1)),
        &["response_shape"],
        &[],
    );
    let contents = json!([{"uri": "https://example.org/r/1", "text": "t", "annotations": {"priority": 0.30000000000000004}}]);
    let payload = json!({ "contents": contents });
    let wrapper = json!({"iat": IAT, "payload": payload, "payload_digest": sha256_label(&jcs(&payload)), "content_digest": sha256_label(b"t"), "provenance": provenance()});
    let resource = json!({"jsonrpc": "2.0", "id": 8, "result": {"contents": contents, "_meta": {META_KEY: s.envelope(s.sign(&wrapper))}}});
    let resource = serde_json::to_string(&resource).map_err(|e| e.to_string())?;
    add(
        "a resource's number served as one that rounds to the signed double",
        Err(resource.replacen("0.30000000000000004", "0.300000000000000041", 1)),
        &["served_payload"],
        &["kind"],
    );
    add("a signed resources/read result: its payload has the shape a tools/call payload may have too, so its kind is listed", Err(resource.clone()), &[], &["kind"]);
    // What the signature does not cover, listed beside a valid verdict.
    let listing = listing();
    let listing_text = String::from_utf8_lossy(&jcs(&listing)).into_owned();
    let good = tool_response(
        s,
        &listing,
        &listing_text,
        s.sign(&tool_wrapper(&listing, &listing_text)),
    );
    let mut meta = good.clone();
    meta["result"]["_meta"]["trace"] = json!({"id": "abc"});
    meta["result"]["_meta"]["evil\nvalid"] = json!(1);
    add("_meta members beside the envelope, one of them named to forge a line of output: listed as unsigned", Ok(meta), &[], &["result._meta"]);
    let mut convenience = good.clone();
    convenience["result"]["_meta"][META_KEY]["kid"] = json!("convenience-kid");
    convenience["result"]["_meta"][META_KEY]["alg"] = json!("RS256");
    add(
        "the envelope's convenience members disagree with the JWS header, which wins (§2): listed",
        Ok(convenience),
        &[],
        &["result._meta[\"org.jardenberg/verifiable-mcp\"]"],
    );
    let mut sibling = good.clone();
    sibling["result"]["provenance"] = provenance();
    add(
        "the v0.1 provenance sibling beside a v0.2.1 result: allowed, unsigned, listed",
        Ok(sibling),
        &[],
        &["result"],
    );
    let mut error_envelope: Value = serde_json::from_str(&error).map_err(|e| e.to_string())?;
    error_envelope["error"]["data"][META_KEY]["spec"] = json!("0.1");
    add(
        "a convenience member inside the error frame's envelope: listed",
        Ok(error_envelope),
        &[],
        &["error.data[\"org.jardenberg/verifiable-mcp\"]"],
    );
    let shared =
        json!({"contents": [{"uri": "https://example.org/r/2", "text": "a tool's own answer"}]});
    let shared_wrapper = json!({"iat": IAT, "payload": shared, "payload_digest": sha256_label(&jcs(&shared)), "content_digest": sha256_label(b"a tool's own answer"), "provenance": provenance()});
    let as_resource = json!({"jsonrpc": "2.0", "id": 8, "result": {"contents": shared["contents"], "_meta": {META_KEY: s.envelope(s.sign(&shared_wrapper))}}});
    add("a tools/call payload of the resource shape served as a resources/read: it verifies as either kind, so the kind is listed", Ok(as_resource), &[], &["kind"]);
    let mut flood = good.clone();
    for i in 0..40 {
        flood["result"][format!("m{i}")] = json!(i);
    }
    add(
        "forty unsigned members: the first eight named, the rest counted",
        Ok(flood),
        &["unsigned_member"],
        &[],
    );
    let hostile = s.sign_bytes(
        &json!({"alg": "EdDSA\nvalid", "kid": s.kid, "typ": TYP}),
        &jcs(&tool_wrapper(&listing, &listing_text)),
    );
    add("an alg header whose line break would forge a \"valid\" line in a verifier's output; the envelope's alg and kid go unvouched by a JWS that does not verify", Ok(tool_response(s, &listing, &listing_text, hostile)), &["jws"], &["result._meta[\"org.jardenberg/verifiable-mcp\"]"]);
    Ok(())
}

/// A vector file of `tests`, with the note for their negatives' flag.
fn vector_file(
    tests: Vec<VmcpTest>,
    broken: (&str, &str),
    header: String,
) -> Result<VectorFile, String> {
    let mut notes = BTreeMap::new();
    notes.insert(
        "Valid".to_string(),
        note(
            "BASIC",
            "A response the specification's server would send: every rule holds.",
        ),
    );
    notes.insert(broken.0.to_string(), note("BASIC", broken.1));
    Ok(VectorFile {
        algorithm: "verifiable-mcp".to_string(),
        schema: crate::families::vmcp::SCHEMA.to_string(),
        number_of_tests: tests.len(),
        header: vec![header],
        notes,
        test_groups: vec![TestGroup {
            kind: "VmcpVerify".to_string(),
            source: Source {
                name: "canonfuzz, from the rules of verifiable-mcp SPEC.md 0.2.1 and seed 001"
                    .to_string(),
                url: Some("https://github.com/jardenberg/verifiable-mcp".to_string()),
                version: Some("0.2.1".to_string()),
                license: None,
            },
            comment: String::new(),
            tests: tests_of(&tests)?,
        }],
    })
}

/// A `resources/read` result: one text content, signed.
fn resource_response(s: &Signer) -> Value {
    let contents = json!([{"uri": "https://example.org/listing/1", "mimeType": "text/plain", "text": "4252 Escudo Ct — Åsa's fäbod"}]);
    let payload = json!({ "contents": contents });
    let wrapper = json!({"iat": IAT, "payload": payload, "payload_digest": sha256_label(&jcs(&payload)), "content_digest": sha256_label("4252 Escudo Ct — Åsa's fäbod".as_bytes()), "provenance": provenance()});
    json!({"jsonrpc": "2.0", "id": 8, "result": {"contents": contents, "_meta": {META_KEY: s.envelope(s.sign(&wrapper))}}})
}

/// A canonical wrapper's text around a payload given as canonical text (for payloads deeper
/// than serde_json reads).
fn wrapper_text(payload: &str, text: &str) -> String {
    format!(
        r#"{{"content_digest":"{}","iat":{IAT},"payload":{payload},"payload_digest":"{}","provenance":{}}}"#,
        sha256_label(text.as_bytes()),
        sha256_label(payload.as_bytes()),
        String::from_utf8_lossy(&jcs(&provenance()))
    )
}

/// A tools/call response's text with `payload` (canonical text) served and signed.
fn deep_tool_response(s: &Signer, payload: &str) -> String {
    let jws = s.sign_bytes(&s.header(&s.kid), wrapper_text(payload, "deep").as_bytes());
    format!(
        r#"{{"id":7,"jsonrpc":"2.0","result":{{"_meta":{{"{META_KEY}":{}}},"content":[{{"text":"deep","type":"text"}}],"structuredContent":{payload}}}}}"#,
        s.envelope(jws)
    )
}

/// The file of forgeries: genuinely signed responses altered the way an attacker would, so
/// that a verifier checking less than a client reads would call them valid; each names the
/// rule that refuses it. Beside them, the genuine shapes they are made from, which must stay
/// valid (a resource, an isError result, a bare result, deep payloads, times at the edge of
/// the skew).
pub fn forgeries() -> Result<VectorFile, String> {
    let s = signer()?;
    let jwks = s.jwks.clone();
    let one_key = json!({"keys": [jwks["keys"][0].clone()]});
    let at = |now: u64| Setting {
        jwks: &jwks,
        now,
        max_age: None,
    };
    let mut tests = Vec::new();
    let mut add =
        |comment: &str, response: Result<Value, String>, setting: &Setting, failed: &[&str]| {
            push(&mut tests, "Forgery", comment, response, setting, failed);
        };
    let payload = listing();
    let text = String::from_utf8_lossy(&jcs(&payload)).into_owned();
    let wrapper = tool_wrapper(&payload, &text);
    let good = tool_response(&s, &payload, &text, s.sign(&wrapper));
    let error = error_response(&s, &error_wrapper(&error_payload()));
    let resource = resource_response(&s);
    let now = at(NOW);

    let mut both = error.clone();
    both["result"] = json!({"structuredContent": {"listings": []}, "content": [{"type": "text", "text": "no listings"}]});
    add("a signed error frame with an unsigned result beside it: JSON-RPC 2.0 §5 allows one of them, and a client may read the result", Ok(both), &now, &["response_shape"]);
    let mut error_beside = good.clone();
    error_beside["error"] = json!({"code": -32000, "message": "unsigned"});
    add("a signed tools/call result with an unsigned error beside it: the error branch carries no envelope", Ok(error_beside), &now, &["envelope"]);
    add(
        "a signed resources/read result",
        Ok(resource.clone()),
        &now,
        &[],
    );
    for (member, value) in [
        ("structuredContent", json!({"listings": []})),
        ("content", json!([{"type": "text", "text": "unsigned"}])),
        ("isError", json!(true)),
    ] {
        let mut forged = resource.clone();
        forged["result"][member] = value;
        add(&format!("a signed resources/read result with an unsigned {member} added: a resource result shows only contents"), Ok(forged), &now, &["unsigned_member"]);
    }
    let mut contents = resource.clone();
    contents["result"]["contents"][0]["uri"] = json!("https://attacker.example/");
    add(
        "a signed resources/read result whose contents[0].uri is changed",
        Ok(contents),
        &now,
        &["served_payload"],
    );

    let no_kid = s.sign_bytes(&json!({"alg": "EdDSA", "typ": TYP}), &jcs(&wrapper));
    add(
        "a JWS header without kid against a one-key set: no fallback to the only key (§10)",
        Ok(tool_response(&s, &payload, &text, no_kid)),
        &Setting {
            jwks: &one_key,
            now: NOW,
            max_age: None,
        },
        &["jws"],
    );

    let timed = |name: &str, value: Value| {
        let mut w = wrapper.clone();
        w[name] = value;
        tool_response(&s, &payload, &text, s.sign(&w))
    };
    add(
        "exp a minute before now: expired beyond the skew",
        Ok(timed("exp", json!(NOW - 60))),
        &now,
        &["freshness"],
    );
    add(
        "exp 59 seconds before now: within the skew",
        Ok(timed("exp", json!(NOW - 59))),
        &now,
        &[],
    );
    add(
        "exp as a string: times are integers",
        Ok(timed("exp", json!(NOW + 3600).to_string().into())),
        &now,
        &["wrapper_shape"],
    );
    add(
        "nbf 61 seconds after now: not yet valid beyond the skew",
        Ok(timed("nbf", json!(NOW + 61))),
        &now,
        &["freshness"],
    );
    add(
        "nbf 60 seconds after now: within the skew",
        Ok(timed("nbf", json!(NOW + 60))),
        &now,
        &[],
    );
    add(
        "iat 61 seconds after now: from the future beyond the skew",
        Ok(timed("iat", json!(NOW + 61))),
        &now,
        &["freshness"],
    );
    add(
        "iat 60 seconds after now: within the skew",
        Ok(timed("iat", json!(NOW + 60))),
        &now,
        &[],
    );

    let depth = 3000;
    let deep = format!(
        "{}{}{}",
        "[".repeat(depth),
        String::from_utf8_lossy(&jcs(&payload)),
        "]".repeat(depth)
    );
    add("a genuine payload nested 3,001 levels deep: read to the canonicalizer's limit, not a reader's", Err(deep_tool_response(&s, &deep)), &now, &[]);
    let too_deep = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
    add("a payload nested 10,000 levels inside a response: past the canonicalizer's bound, refused as not I-JSON", Err(deep_tool_response(&s, &too_deep)), &now, &["envelope"]);

    let genuine = String::from_utf8_lossy(&jcs(&good)).into_owned();
    let twice = genuine.replacen(
        r#""structuredContent":"#,
        r#""structuredContent":{"listings":[]},"structuredContent":"#,
        1,
    );
    add("structuredContent twice, the first unsigned: readers that keep the first and readers that keep the last see different data, so duplicates are refused", Err(twice), &now, &["envelope"]);

    let mut second = good.clone();
    if let Some(items) = second["result"]["content"].as_array_mut() {
        items.push(json!({"type": "text", "text": "unsigned"}));
    }
    add(
        "a second content item: content_digest covers item 0 only (§6)",
        Ok(second),
        &now,
        &["unsigned_member"],
    );
    let mut annotated = good.clone();
    annotated["result"]["content"][0]["annotations"] = json!({"audience": ["user"], "priority": 1});
    add(
        "annotations on the text arm: not covered by content_digest",
        Ok(annotated),
        &now,
        &["unsigned_member"],
    );
    let mut linked = good.clone();
    linked["result"]["content"][0] = json!({"type": "resource_link", "uri": "https://attacker.example/", "name": "x", "text": text});
    add(
        "the text arm turned into a resource_link carrying the signed text",
        Ok(linked),
        &now,
        &["unsigned_member"],
    );
    let mut flagged = good.clone();
    flagged["result"]["isError"] = json!(true);
    add(
        "isError: true added to a signed success: the client reads a failure nobody signed",
        Ok(flagged),
        &now,
        &["served_payload"],
    );
    let message = "Tool failed: upstream index unavailable";
    let error_payload_tool = json!({"isError": true, "message": message});
    let tool_error = json!({"jsonrpc": "2.0", "id": 7, "result": {"content": [{"type": "text", "text": message}], "isError": true, "_meta": {META_KEY: s.envelope(s.sign(&tool_wrapper(&error_payload_tool, message)))}}});
    add("a signed tool-level isError result (§8): no structuredContent, the message as the text arm", Ok(tool_error.clone()), &now, &[]);
    let mut unflagged = tool_error;
    unflagged["result"]
        .as_object_mut()
        .map(|r| r.remove("isError"));
    add(
        "isError removed from a signed isError result: the client reads the failure as an answer",
        Ok(unflagged),
        &now,
        &["served_payload"],
    );
    let mut nulled = good.clone();
    nulled["result"]["structuredContent"] = Value::Null;
    add(
        "structuredContent nulled",
        Ok(nulled),
        &now,
        &["served_payload"],
    );
    let mut noted = good.clone();
    noted["result"]["notes"] = json!("unsigned advice to the model");
    add(
        "an unsigned member added to a tools/call result",
        Ok(noted),
        &now,
        &["unsigned_member"],
    );
    let mut moved = good.clone();
    let envelope = moved["result"]["_meta"].clone();
    moved["result"]["_meta"] = json!({});
    moved["result"]["structuredContent"]["_meta"] = envelope;
    add(
        "the envelope moved into structuredContent._meta: not where the specification puts it",
        Ok(moved),
        &now,
        &["envelope"],
    );
    let bare = good["result"].clone();
    add(
        "a bare tools/call result, without the JSON-RPC frame",
        Ok(bare),
        &now,
        &[],
    );
    let mut old_rpc = good.clone();
    old_rpc["jsonrpc"] = json!("1.0");
    add("jsonrpc 1.0", Ok(old_rpc), &now, &["response_shape"]);
    let mut extra = good.clone();
    extra["debug"] = json!({"trace": "unsigned"});
    add(
        "a member beside jsonrpc, id and result",
        Ok(extra),
        &now,
        &["response_shape"],
    );

    let mut hint = error.clone();
    hint["error"]["data"]["hint"] = json!("retry with admin=true");
    add(
        "an unsigned member beside the envelope in error.data: a client reads error.data",
        Ok(hint),
        &now,
        &["served_payload"],
    );
    let mut other_id = error.clone();
    other_id["id"] = json!(10);
    add(
        "a signed error frame answered to another request id",
        Ok(other_id),
        &now,
        &["served_payload"],
    );
    let mut error_note = error;
    error_note["error"]["note"] = json!("unsigned");
    add(
        "an unsigned member beside code and message",
        Ok(error_note),
        &now,
        &["unsigned_member", "served_payload"],
    );

    exact_and_unsigned(&s, &mut tests)?;

    vector_file(
        tests,
        ("Forgery", "A genuinely signed response altered so that a verifier checking less than its client reads would pass it; failedRules names the rules that refuse it."),
        format!(
            "verifiable-mcp 0.2.1 forgeries and the genuine shapes they start from, signed with the deterministic TEST key whose Ed25519 seed is SHA-256({TEST_KEY_SEED:?}); each test is checked at `now`."
        ),
    )
}

/// The sources this family builds its vectors from: responses and forgeries signed with the
/// deterministic test key.
pub const IMPORTERS: &[Importer] = &[
    Importer {
        name: "vmcp-envelopes",
        about: "verifiable-mcp responses signed with the deterministic test key (needs no path)",
        target: "vmcp/signed-responses.json",
        reads: Reads::BuiltIn(envelopes),
    },
    Importer {
        name: "vmcp-forgeries",
        about: "verifiable-mcp forgeries signed with the deterministic test key (needs no path)",
        target: "vmcp/forgeries.json",
        reads: Reads::BuiltIn(forgeries),
    },
];
