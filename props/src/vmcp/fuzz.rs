//! The `vmcp` target's property: a response the core calls valid shows its client only what
//! was signed.

use canonfuzz_core::jws::Jwks;
use canonfuzz_core::vmcp::{Clock, Verification};

use crate::jws::fuzz::{fuzz_jwks, FUZZ_NOW};

/// The `vmcp` target's property: verification never panics, and a response called valid
/// shows its client only what was signed — every member a client reads, read by
/// [`crate::vmcp::client_view`] apart from the verifier, is covered by the signed wrapper.
pub fn vmcp_check(data: &[u8]) -> Result<(), String> {
    vmcp_check_with(data, canonfuzz_core::vmcp::verify_response)
}

/// [`vmcp_check`] of another verifier, so that a planted bug can be shown to break it.
pub fn vmcp_check_with(
    data: &[u8],
    verify: fn(&[u8], &Jwks, Clock) -> Verification,
) -> Result<(), String> {
    let verdict = verify(data, fuzz_jwks(), Clock::at(FUZZ_NOW));
    if !verdict.is_valid() {
        return Ok(());
    }
    crate::vmcp::client_view::covered(data, FUZZ_NOW)
        .map_err(|why| format!("called valid, but {why}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn calls_everything_valid(_: &[u8], _: &Jwks, _: Clock) -> Verification {
        Verification {
            failures: Vec::new(),
            kind: None,
            kid: None,
            key_index: None,
            wrapper: None,
            payload: None,
            unsigned: Vec::new(),
        }
    }

    #[test]
    fn a_verifier_calling_valid_what_is_not_a_response_is_caught() {
        for not_json in [&b"[01]"[..], b"{\"a\":1} x"] {
            let why = vmcp_check_with(not_json, calls_everything_valid).unwrap_err();
            assert!(why.contains("not JSON"), "{why}");
        }
        let why = vmcp_check_with(b"\"\\ud800\"", calls_everything_valid).unwrap_err();
        assert!(why.contains("not an object"), "{why}");
        // serde_json's Value refuses an object led by its marker's name, which the property's
        // reading takes as any other name: these unsigned responses are judged, and caught.
        for marked in [
            &br#"{"_meta":{"$serde_json::private::RawValue":1}}"#[..],
            br#"{"_meta":{"\u0024serde_json::private::RawValue" : [1]}}"#,
        ] {
            assert!(serde_json::from_slice::<serde_json::Value>(marked).is_err());
            let why = vmcp_check_with(marked, calls_everything_valid).unwrap_err();
            assert!(why.starts_with("called valid, but"), "{why}");
        }
    }

    /// A tool result with `content` "hi" and `structuredContent` {"a":1}, served under `jws`.
    fn served_tool(jws: String) -> Vec<u8> {
        let server = crate::vmcp::test_server::signer().unwrap();
        let envelope = server.envelope(jws);
        let response = serde_json::json!({"jsonrpc": "2.0", "id": 1, "result": {
            "content": [{"type": "text", "text": "hi"}], "structuredContent": {"a": 1},
            "_meta": {canonfuzz_core::vmcp::META_KEY: envelope}}});
        response.to_string().into_bytes()
    }

    /// The test server's signature over the wrapper of [`served_tool`], with `extra` members.
    fn signed_wrapper(extra: serde_json::Value) -> String {
        use crate::vmcp::test_server::{provenance, sha256_label, signer, IAT};
        let mut wrapper = serde_json::json!({
            "iat": IAT, "provenance": provenance(), "payload": {"a": 1},
            "payload_digest": sha256_label(br#"{"a":1}"#), "content_digest": sha256_label(b"hi"),
        });
        if let (Some(wrapper), Some(extra)) = (wrapper.as_object_mut(), extra.as_object()) {
            wrapper.extend(extra.clone());
        }
        signer().unwrap().sign(&wrapper)
    }

    #[test]
    fn a_signed_wrapper_naming_the_marker_is_not_called_uncovered() {
        let verify = |data: &[u8]| {
            canonfuzz_core::vmcp::verify_response(data, fuzz_jwks(), Clock::at(FUZZ_NOW))
        };
        let plain = served_tool(signed_wrapper(serde_json::json!({})));
        assert!(verify(&plain).is_valid());
        assert_eq!(vmcp_check(&plain), Ok(()));
        // Led by the marker's name in canonical order, the wrapper is one serde_json's Value
        // will not read; the property reads it, and finds it covered.
        let marker = serde_json::json!({"$serde_json::private::RawValue": 0});
        let marked = served_tool(signed_wrapper(marker));
        assert!(verify(&marked).is_valid());
        assert_eq!(vmcp_check(&marked), Ok(()));
        // A wrapper that is no JSON object is reported, marker or not.
        let b64 = canonfuzz_core::jws::base64url_encode;
        for wrapper in [&b"[1]"[..], br#"{"$serde_json::private::RawValue":0} x"#] {
            let response = served_tool(format!("e30.{}.AA", b64(wrapper)));
            let why = vmcp_check_with(&response, calls_everything_valid).unwrap_err();
            assert!(why.contains("not an object"), "{why}");
        }
    }

    /// A tool result serving `served` as `structuredContent`, signed over `signed`.
    fn served_number(signed: &str, served: &str) -> Vec<u8> {
        use crate::vmcp::test_server::{provenance, sha256_label, signer, IAT};
        let payload: serde_json::Value = serde_json::from_str(signed).unwrap();
        let wrapper = serde_json::json!({
            "iat": IAT, "provenance": provenance(), "payload": payload,
            "payload_digest": sha256_label(&crate::vmcp::test_server::jcs(&payload)),
            "content_digest": sha256_label(b"hi"),
        });
        let text = String::from_utf8(served_tool(signer().unwrap().sign(&wrapper))).unwrap();
        text.replacen(
            r#""structuredContent":{"a":1}"#,
            &format!(r#""structuredContent":{served}"#),
            1,
        )
        .into_bytes()
    }

    #[test]
    fn a_served_number_that_only_rounds_to_the_signed_one_is_never_called_valid() {
        let verify = |data: &[u8]| {
            canonfuzz_core::vmcp::verify_response(data, fuzz_jwks(), Clock::at(FUZZ_NOW))
        };
        let same = served_number(r#"{"v":100}"#, r#"{"v":1e2}"#);
        assert!(verify(&same).is_valid());
        assert_eq!(vmcp_check(&same), Ok(()));
        for (signed, served) in [
            (
                r#"{"v":12345678901234567000}"#,
                r#"{"v":12345678901234567891}"#,
            ),
            (
                r#"{"v":1.0000000000000002}"#,
                r#"{"v":1.00000000000000021}"#,
            ),
            (r#"{"v":0}"#, r#"{"v":1e-400}"#),
        ] {
            let response = served_number(signed, served);
            assert_eq!(vmcp_check(&response), Ok(()), "{served}");
            assert!(!verify(&response).is_valid(), "{served}");
            // A verifier that reads the response as its canonical form compares doubles, and
            // the property catches it calling these valid.
            let why = vmcp_check_with(&response, |data, jwks, clock| {
                let rounded = canonfuzz_core::jcs::canonicalize(data).unwrap_or_default();
                canonfuzz_core::vmcp::verify_response(&rounded, jwks, clock)
            })
            .unwrap_err();
            assert!(why.contains("not what was signed"), "{served}: {why}");
        }
    }
}
