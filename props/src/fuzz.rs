//! The properties the cargo-fuzz targets check, kept here so that the targets stay a few lines,
//! build with nothing they do not check, and triage replays an artifact exactly as the target
//! saw it. Each check takes the code it checks as a parameter (the core by default), so that a
//! test can plant a bug and see the check fail.
//!
//! `jcs_diff` inputs come in two shapes, told apart by the first byte: `0` followed by a
//! document's bytes (how seeds from the corpus are written), or anything else, whose bytes
//! drive `arbitrary` to build a document aimed where implementations differ.

use std::sync::OnceLock;

use arbitrary::Unstructured;
use canonfuzz_core::ekl::{Body, EklError, Salt};
use canonfuzz_core::ink::transport::Authorization;
use canonfuzz_core::ink::InkError;
use canonfuzz_core::jws::{Jwk, Jwks, JwsError, Profile, Verified};
use canonfuzz_core::vmcp::{Clock, Verification};

use crate::impls::jcs::{rust_crates, CoreImpl};
use crate::impls::Implementation;
use crate::outcome::Outcome;
use crate::plain_value::{read_value, Repeats};
use crate::verdict::{evaluate_with_quorum, Member, Rules, Verdict, JCS_RULES, MERKLE_RULES};

/// The keys the `jws` and `vmcp` targets verify with, besides the test server's (see
/// [`fuzz_jwks`]): the published verifiable-mcp test key, and RFC 8037's key without a kid
/// (pinned for tokens that name none), so seeds from every vector reach the signature check.
const FUZZ_KEYS: &str = r#"[{"kty":"OKP","crv":"Ed25519","x":"PNL-9wyKHnrinD7J6P3vVoy5_zSSxBvlKeBbQ7OGh8k","kid":"vDGVZHcIh5irseqRr1yIYo2IsyYckjLowPLc5VT5nP4","alg":"EdDSA","use":"sig"},{"kty":"OKP","crv":"Ed25519","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}]"#;

/// The key set of the `jws` and `vmcp` targets: [`FUZZ_KEYS`] and the test server's keys,
/// which sign the corpus's own verifiable-mcp vectors.
pub fn fuzz_jwks() -> &'static canonfuzz_core::jws::Jwks {
    static JWKS: OnceLock<canonfuzz_core::jws::Jwks> = OnceLock::new();
    JWKS.get_or_init(|| {
        let mut keys: Vec<serde_json::Value> = serde_json::from_str(FUZZ_KEYS).unwrap_or_default();
        if let Ok(server) = crate::test_server::signer() {
            keys.extend(
                server.jwks["keys"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .cloned(),
            );
        }
        let set = serde_json::json!({ "keys": keys }).to_string();
        canonfuzz_core::jws::Jwks::parse(set.as_bytes())
            .unwrap_or(canonfuzz_core::jws::Jwks { keys: Vec::new() })
    })
}

/// The clock the `vmcp` target verifies at: a minute after the published vectors' `iat`.
pub const FUZZ_NOW: u64 = 1_787_308_860;

/// The published test key, pinned, for tokens without a `kid`.
fn pinned_key() -> Option<&'static canonfuzz_core::jws::Jwk> {
    fuzz_jwks().keys.get(1)
}

/// The `jws` target's property: verification never panics, and a token accepted — from the
/// key set by its `kid`, or by a pinned key — gives its caller back exactly the bytes its
/// payload segment encodes, under a signature that verifies over the token's own signing
/// input with the key reported.
pub fn jws_check(data: &[u8]) -> Result<(), String> {
    jws_check_with(data, &CORE_JWS)
}

/// The two ways the `jws` property verifies a token: by `kid` in a set, and with a pinned key.
pub struct JwsVerifier {
    /// Verification against a key set.
    pub from_set: fn(&str, &Jwks, &Profile) -> Result<Verified, JwsError>,
    /// Verification with one key.
    pub with_key: fn(&str, &Jwk, &Profile) -> Result<Verified, JwsError>,
}

/// The core's verifier, which the `jws` target checks.
pub const CORE_JWS: JwsVerifier = JwsVerifier {
    from_set: canonfuzz_core::jws::verify,
    with_key: canonfuzz_core::jws::verify_with_key,
};

/// [`jws_check`] of another verifier, so that a planted bug can be shown to break it.
pub fn jws_check_with(data: &[u8], verifier: &JwsVerifier) -> Result<(), String> {
    use canonfuzz_core::jws;
    let token = String::from_utf8_lossy(data);
    let from_set = (verifier.from_set)(&token, fuzz_jwks(), &Profile::default())
        .map(|v| (v.payload, fuzz_jwks().keys.get(v.key_index)));
    let pinned = pinned_key()
        .and_then(|key| (verifier.with_key)(&token, key, &Profile::default()).ok())
        .map(|v| (v.payload, pinned_key()));
    for (payload, key) in from_set.ok().into_iter().chain(pinned) {
        let parts: Vec<&str> = token.split('.').collect();
        let [header, body, signature] = parts[..] else {
            return Err(format!("accepted {token:?}, which is not three segments"));
        };
        let encoded = crate::base64url::lax_decode(body).unwrap_or_default();
        if payload != encoded {
            return Err(format!(
                "accepted {token:?} and returned a payload its segment does not encode"
            ));
        }
        let x = key
            .and_then(|k| k.members.get("x"))
            .and_then(|x| x.as_str())
            .unwrap_or_default();
        let x = jws::base64url_decode(x, "x").map_err(|e| e.to_string())?;
        let signature = jws::base64url_decode(signature, "signature").map_err(|e| e.to_string())?;
        canonfuzz_core::ed25519::verify(&x, format!("{header}.{body}").as_bytes(), &signature)
            .map_err(|e| format!("accepted {token:?} whose signature does not verify: {e}"))?;
    }
    Ok(())
}

/// The `jwks` target's property: reading a key set never panics, and a set read is one a
/// verifier can trust to be bounded and unambiguous — within the core's bounds on bytes, keys
/// and members, its keys those serde_json reads from the same text, in order, no two under one
/// `kid`, and each `kid` finding its own key.
pub fn jwks_check(data: &[u8]) -> Result<(), String> {
    jwks_check_with(data, canonfuzz_core::jws::Jwks::parse)
}

/// [`jwks_check`] of another reader, so that a planted bug can be shown to break it.
pub fn jwks_check_with(
    data: &[u8],
    parse: fn(&[u8]) -> Result<Jwks, canonfuzz_core::jws::JwsError>,
) -> Result<(), String> {
    use canonfuzz_core::jws::{MAX_KEYS, MAX_KEY_MEMBERS, MAX_KEY_SET_BYTES};
    let Ok(set) = parse(data) else {
        return Ok(());
    };
    if data.len() > MAX_KEY_SET_BYTES || set.keys.len() > MAX_KEYS {
        return Err(format!(
            "read a set of {} bytes and {} keys, past the bounds of {MAX_KEY_SET_BYTES} bytes \
             and {MAX_KEYS} keys",
            data.len(),
            set.keys.len()
        ));
    }
    let read: serde_json::Value = serde_json::from_slice(data)
        .map_err(|e| format!("read a set serde_json does not read as JSON: {e}"))?;
    let theirs = read["keys"].as_array().map_or(&[][..], Vec::as_slice);
    if theirs.len() != set.keys.len() {
        return Err(format!(
            "read {} keys where serde_json reads {}",
            set.keys.len(),
            theirs.len()
        ));
    }
    let mut kids = std::collections::BTreeSet::new();
    for (i, (key, their)) in set.keys.iter().zip(theirs).enumerate() {
        if key.members.len() > MAX_KEY_MEMBERS {
            return Err(format!("keys[{i}] has {} members", key.members.len()));
        }
        if key.kid() != their["kid"].as_str() {
            return Err(format!("keys[{i}]'s kid is not the one serde_json reads"));
        }
        if let Some(kid) = key.kid() {
            if !kids.insert(kid) {
                return Err(format!("two keys share the kid of keys[{i}]"));
            }
        }
    }
    Ok(())
}

/// The `vmcp` target's property: verification never panics, and a response called valid
/// shows its client only what was signed — every member a client reads, read by
/// [`crate::client_view`] apart from the verifier, is covered by the signed wrapper.
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
    crate::client_view::covered(data, FUZZ_NOW).map_err(|why| format!("called valid, but {why}"))
}

/// The salt every `ekl` input is fingerprinted with; the input is the document.
const EKL_SALT: [u8; 32] = [0x5a; 32];

/// Fingerprints `data` as a value and as a tool result: neither may panic, and a result's
/// fingerprint must equal the fingerprint of its body taken out by a JSON parser and
/// canonicalized on its own — the core cuts the body from the whole's canonical form.
pub fn ekl_check(data: &[u8]) -> Result<(), String> {
    ekl_check_with(data, &CORE_EKL)
}

/// A tool result's body and its fingerprint, or why it has none.
pub type ResultFingerprint = Result<(Body, String), EklError>;

/// The two fingerprints the `ekl` property compares.
pub struct Fingerprinter {
    /// A value's salted fingerprint.
    pub value: fn(&Salt, &[u8]) -> Result<String, EklError>,
    /// A tool result's body and its fingerprint.
    pub result: fn(&Salt, &[u8]) -> ResultFingerprint,
}

/// The core's fingerprints, which the `ekl` target checks.
pub const CORE_EKL: Fingerprinter = Fingerprinter {
    value: canonfuzz_core::ekl::fingerprint,
    result: canonfuzz_core::ekl::result_fingerprint,
};

/// [`ekl_check`] of other fingerprints, so that a planted bug can be shown to break it.
pub fn ekl_check_with(data: &[u8], fingerprints: &Fingerprinter) -> Result<(), String> {
    let salt = Salt::from_hex(&crate::hex::to_hex(&EKL_SALT))
        .map_err(|e| format!("the fuzz salt is unusable: {e}"))?;
    let as_value = (fingerprints.value)(&salt, data);
    let Ok((body, from_result)) = (fingerprints.result)(&salt, data) else {
        return Ok(());
    };
    if as_value.is_err() {
        return Err(
            "a result fingerprints, but the same text is not a fingerprintable value".into(),
        );
    }
    // The body as serde_json takes it out, past its nesting limit too, written back as text
    // on the stack it was read on.
    let name = body.name();
    let taken = crate::deep::read_at_any_depth([data], move |[data], unbounded| {
        let parsed = read_value(data, unbounded, Repeats::LastWins)?;
        Ok(parsed
            .get(name)
            .or_else(|| parsed.get("result").and_then(|r| r.get(name)))
            .map(serde_json::Value::to_string))
    })?;
    let holder = match taken {
        Ok(holder) => holder.ok_or("the body named is not in the document")?,
        Err(e) => return Err(format!("serde_json refuses it: {e}")),
    };
    let alone = (fingerprints.value)(&salt, holder.as_bytes())
        .map_err(|e| format!("the body alone does not fingerprint: {e}"))?;
    if alone == from_result {
        Ok(())
    } else {
        Err(format!(
            "the {} fingerprint differs from the body's own: {from_result} vs {alone}",
            body.name()
        ))
    }
}

/// Parses `data` as an INK Authorization header: the parser must never panic, and an accepted
/// header must match INK's published pattern
/// `^INK-Ed25519[ \t]+([A-Za-z0-9_-]{86})(?:[ \t]+keyId=([A-Za-z0-9_:.-]{1,128}))?$` (with the
/// pattern's whitespace narrowed to spaces and tabs), checked here by a separate reading.
pub fn ink_header_check(data: &[u8]) -> Result<(), String> {
    ink_header_check_with(data, canonfuzz_core::ink::transport::parse_authorization)
}

/// [`ink_header_check`] of another parser, so that a planted bug can be shown to break it.
pub fn ink_header_check_with(
    data: &[u8],
    parse: fn(&str) -> Result<Authorization, InkError>,
) -> Result<(), String> {
    let text = String::from_utf8_lossy(data);
    let Ok(parsed) = parse(&text) else {
        return Ok(());
    };
    let blank = |c: char| c == ' ' || c == '\t';
    let rest = text.strip_prefix("INK-Ed25519").unwrap_or_default();
    let words: Vec<&str> = rest.split(blank).filter(|w| !w.is_empty()).collect();
    let base64url = |w: &str| {
        w.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
    };
    let id_ok = |w: &str| {
        (1..=128).contains(&w.len())
            && w.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"_:.-".contains(&b))
    };
    let matches = rest.starts_with(blank)
        && !text.contains(['\r', '\n'])
        && match words.as_slice() {
            [sig] => sig.len() == 86 && base64url(sig) && parsed.key_id.is_none(),
            [sig, hint] => {
                sig.len() == 86
                    && base64url(sig)
                    && hint.strip_prefix("keyId=").is_some_and(id_ok)
                    && parsed.key_id.as_deref() == hint.strip_prefix("keyId=")
            }
            _ => false,
        };
    if matches && words.first() == Some(&parsed.signature.as_str()) {
        Ok(())
    } else {
        Err(format!(
            "accepted a header outside INK's pattern, or read it wrong: {text:?}"
        ))
    }
}

/// Compares the core's Merkle verdicts with ct-merkle's on `data` (a Merkle case); returns the
/// signature when they differ in a way no registered policy explains.
pub fn merkle_check(data: &[u8]) -> Result<(), String> {
    static PANEL: OnceLock<Panel> = OnceLock::new();
    PANEL
        .get_or_init(|| merkle_panel(Box::new(crate::impls::merkle::core())))
        .diverges(data)
}

/// The `merkle` target's comparison with `core` standing for the core: it and ct-merkle.
pub fn merkle_panel(core: Box<dyn Implementation>) -> Panel {
    Panel::new(
        MERKLE_RULES,
        vec![core, Box::new(crate::impls::merkle::ct_merkle())],
    )
}

/// Implementations compared in process on one input at a time, by a family's rules.
pub struct Panel {
    rules: Rules,
    impls: Vec<Box<dyn Implementation>>,
    members: Vec<Member>,
}

impl Panel {
    /// The implementations, the core (named `core`) among them, judged by `rules`.
    pub fn new(rules: Rules, impls: Vec<Box<dyn Implementation>>) -> Panel {
        let members = crate::impls::members(&impls);
        Panel {
            rules,
            impls,
            members,
        }
    }

    /// The signature of `input` when the core diverges from the others on it in a way no
    /// registered policy explains, or a policy's predicate could not read it; the others'
    /// majority stands as the consensus.
    pub fn diverges(&self, input: &[u8]) -> Result<(), String> {
        let outcomes: Vec<_> = self
            .impls
            .iter()
            .map(|i| i.run_batch(&[input]).pop().unwrap_or(Outcome::Unsupported))
            .collect();
        let evaluation = evaluate_with_quorum(&self.rules, input, &self.members, &outcomes, 1);
        if matches!(
            evaluation.verdict,
            Verdict::CoreDiverges | Verdict::Unjudged(_)
        ) {
            Err(evaluation.signature)
        } else {
            Ok(())
        }
    }
}

/// Deepest nesting the structured generator builds.
const MAX_DEPTH: usize = 24;

/// The document a `jcs_diff` input stands for.
pub fn jcs_diff_document(data: &[u8]) -> Vec<u8> {
    match data.split_first() {
        Some((0, document)) => document.to_vec(),
        _ => {
            let mut u = Unstructured::new(data);
            let mut out = Vec::new();
            let _ = value(&mut u, 0, &mut out);
            out
        }
    }
}

/// The `jcs_diff` seed for a document: a zero byte, then the document.
pub fn jcs_diff_seed(document: &[u8]) -> Vec<u8> {
    let mut seed = vec![0];
    seed.extend_from_slice(document);
    seed
}

/// The `jcs_diff` target's comparison: `core` (the core itself when `None`) and the in-process
/// Rust crates ([`crate::impls::jcs::RUST_CRATES`]).
pub fn jcs_diff_panel(core: Option<Box<dyn Implementation>>) -> Panel {
    let mut impls = vec![core.unwrap_or_else(|| Box::new(CoreImpl))];
    impls.extend(rust_crates());
    Panel::new(JCS_RULES, impls)
}

/// Compares the core with the in-process implementations on `document`; returns the
/// signature when the core departs from them in a way no registered policy explains. With only
/// one independence group in process, that group's majority stands as the consensus.
pub fn jcs_diff_check(document: &[u8]) -> Result<(), String> {
    static PANEL: OnceLock<Panel> = OnceLock::new();
    PANEL
        .get_or_init(|| jcs_diff_panel(None))
        .diverges(document)
}

fn whitespace(u: &mut Unstructured, out: &mut Vec<u8>) -> arbitrary::Result<()> {
    if u.ratio(1, 4)? {
        out.extend_from_slice(u.choose(&[&b" "[..], b"\t", b"\r", b"\n", b"  \t"])?);
    }
    Ok(())
}

fn value(u: &mut Unstructured, depth: usize, out: &mut Vec<u8>) -> arbitrary::Result<()> {
    whitespace(u, out)?;
    let kinds = if depth >= MAX_DEPTH { 4 } else { 6 };
    match u.choose_index(kinds)? {
        0 => out.extend_from_slice(u.choose(&[&b"null"[..], b"true", b"false"])?),
        1 => number(u, out)?,
        2 => string(u, out)?,
        3 => {
            let raw: Vec<u8> = u.arbitrary()?;
            out.extend(raw.into_iter().take(8));
        }
        4 => {
            out.push(b'[');
            for i in 0..u.int_in_range(0..=4)? {
                if i > 0 {
                    out.push(b',');
                }
                value(u, depth + 1, out)?;
            }
            out.push(b']');
        }
        _ => {
            out.push(b'{');
            for i in 0..u.int_in_range(0..=4)? {
                if i > 0 {
                    out.push(b',');
                }
                whitespace(u, out)?;
                string(u, out)?;
                whitespace(u, out)?;
                out.push(b':');
                value(u, depth + 1, out)?;
            }
            out.push(b'}');
        }
    }
    whitespace(u, out)
}

/// A number in one of the textual forms of the kinds of values that trip formatters.
fn number(u: &mut Unstructured, out: &mut Vec<u8>) -> arbitrary::Result<()> {
    if u.ratio(1, 8)? {
        let bits: u64 = u.arbitrary()?;
        let v = f64::from_bits(bits);
        if v.is_finite() {
            let text = if u.arbitrary()? {
                format!("{v:e}")
            } else {
                format!("{v:?}")
            };
            out.extend_from_slice(text.as_bytes());
            return Ok(());
        }
    }
    if u.arbitrary()? {
        out.push(b'-');
    }
    let mantissa: u64 = u.arbitrary()?;
    let digits = mantissa >> u.int_in_range(0..=63)?;
    out.extend_from_slice(digits.to_string().as_bytes());
    if u.arbitrary()? {
        out.push(b'.');
        let fraction: u32 = u.arbitrary()?;
        out.extend_from_slice(
            format!("{fraction:0width$}", width = u.int_in_range(1..=12)?).as_bytes(),
        );
    }
    if u.arbitrary()? {
        out.push(*u.choose(b"eE")?);
        out.extend_from_slice(u.choose(&[&b""[..], b"+", b"-"])?);
        let exponent: u16 = u.int_in_range(0..=400)?;
        out.extend_from_slice(
            format!("{exponent:0width$}", width = u.int_in_range(1..=4)?).as_bytes(),
        );
    }
    Ok(())
}

/// A string literal: characters raw or escaped (either hex case, short escapes), and now and
/// then a lone or reversed surrogate.
fn string(u: &mut Unstructured, out: &mut Vec<u8>) -> arbitrary::Result<()> {
    out.push(b'"');
    for _ in 0..u.int_in_range(0..=6)? {
        let c = if u.ratio(1, 4)? {
            u.arbitrary::<char>()?
        } else {
            *u.choose(&crate::tricky::TRICKY)?
        };
        match u.choose_index(6)? {
            0 | 1 => {
                let upper: bool = u.arbitrary()?;
                out.extend_from_slice(crate::tricky::escape(c, upper).as_bytes());
            }
            2 if u.ratio(1, 4)? => {
                let lone: u16 = u.int_in_range(0xD800..=0xDFFF)?;
                out.extend_from_slice(format!("\\u{lone:04x}").as_bytes());
            }
            3 => out.extend_from_slice(u.choose(&[
                &b"\\n"[..],
                b"\\t",
                b"\\\"",
                b"\\\\",
                b"\\/",
                b"\\b",
                b"\\f",
                b"\\r",
            ])?),
            _ => {
                let mut buf = [0u8; 4];
                out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
            }
        }
    }
    out.push(b'"');
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serde_jsons_marker_name_is_explained_only_as_a_member_name() {
        // The in-process Rust crates refuse an object starting with the marker's name (the
        // core accepts it, as Node and Python do); as a string value it is nothing special.
        assert!(jcs_diff_check(br#"{"$serde_json::private::RawValue":0}"#).is_ok());
        assert!(jcs_diff_check(br#"{"\u0024serde_json::private::RawValue":[1]}"#).is_ok());
        assert!(jcs_diff_check(br#"["$serde_json::private::RawValue"]"#).is_ok());
        let panel = jcs_diff_panel(None);
        let document: &[u8] = br#"{"$serde_json::private::RawValue":0}"#;
        let outcomes: Vec<_> = panel
            .impls
            .iter()
            .map(|i| {
                i.run_batch(&[document])
                    .pop()
                    .unwrap_or(Outcome::Unsupported)
            })
            .collect();
        let evaluation = evaluate_with_quorum(&JCS_RULES, document, &panel.members, &outcomes, 1);
        assert!(
            matches!(evaluation.verdict, Verdict::Policy(p) if p.id == "serde-json-marker-name"),
            "{:?}",
            evaluation.verdict
        );
    }

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
        let server = crate::test_server::signer().unwrap();
        let envelope = server.envelope(jws);
        let response = serde_json::json!({"jsonrpc": "2.0", "id": 1, "result": {
            "content": [{"type": "text", "text": "hi"}], "structuredContent": {"a": 1},
            "_meta": {canonfuzz_core::vmcp::META_KEY: envelope}}});
        response.to_string().into_bytes()
    }

    /// The test server's signature over the wrapper of [`served_tool`], with `extra` members.
    fn signed_wrapper(extra: serde_json::Value) -> String {
        use crate::test_server::{provenance, sha256_label, signer, IAT};
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
        use crate::test_server::{provenance, sha256_label, signer, IAT};
        let payload: serde_json::Value = serde_json::from_str(signed).unwrap();
        let wrapper = serde_json::json!({
            "iat": IAT, "provenance": provenance(), "payload": payload,
            "payload_digest": sha256_label(&crate::test_server::jcs(&payload)),
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

    #[test]
    fn seeds_stand_for_their_document() {
        assert_eq!(jcs_diff_document(&jcs_diff_seed(b"[1e21]")), b"[1e21]");
    }

    #[test]
    fn structured_inputs_build_documents_shaped_like_json() {
        let mut parsed = 0;
        for i in 0..200u32 {
            let data: Vec<u8> = (0..256u32)
                .map(|j| (i.wrapping_mul(2654435761).wrapping_add(j * 40503) >> 7) as u8)
                .collect();
            let doc = jcs_diff_document(&data);
            parsed += usize::from(canonfuzz_core::jcs::canonicalize(&doc).is_ok());
        }
        assert!(
            parsed > 20,
            "only {parsed} of 200 documents were valid JSON"
        );
    }

    #[test]
    fn the_core_agrees_with_the_in_process_crates_on_the_corpus_seeds() {
        for doc in [
            &b"{\"b\":[1e21,0.1],\"a\":\"\\u00e9\"}"[..],
            b"{\"a\":1,\"a\":2}",
            b"[9007199254740993]",
        ] {
            assert_eq!(
                jcs_diff_check(doc),
                Ok(()),
                "{}",
                String::from_utf8_lossy(doc)
            );
        }
    }
}
