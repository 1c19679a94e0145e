//! A canonfuzz worker for Rust libraries that cannot share the harness's build: answers one
//! input per line with one JSON line, in order. It speaks protocol 1 when the first line is
//! `{"canonfuzz":1}`: it answers `{"canonfuzz":1,"name":…}` and then reads each input as
//! `{"input":"<base64>"}`, so that any byte can travel; otherwise each line is an input as it
//! is. The library is the first argument:
//!
//! - JOSE verifiers `josekit` and `jsonwebtoken-aws_lc_rs` read a `{"jwk":…,"token":…}` case
//!   and answer `{"ok":"<payload>"}`, `{"error":{"kind":"rejected",…}}`, or
//!   `{"unsupported":true}` for a line that is not a case;
//! - JCS canonicalizers `acdp-jcs` (which needs serde_json's `preserve_order`) and
//!   `json-syntax` (its own parser, whose printing and dropping recurse: a document deep
//!   enough overflows this process's stack, which the harness records as that input's crash)
//!   read a JSON text and answer `{"ok":"<canonical text>"}` or `{"error":{"kind",…}}`.

use std::io::{self, BufRead, BufReader, BufWriter, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};

use base64::engine::general_purpose::{GeneralPurpose, GeneralPurposeConfig};
use base64::engine::DecodePaddingMode;
use base64::Engine;
use serde_json::{json, Value};

type Check = fn(&str, &Value) -> Result<Vec<u8>, String>;

/// One input's answer line.
type Answer = fn(&[u8]) -> Value;

type Canonicalize = fn(&str) -> Result<Vec<u8>, String>;

/// The payload segment's bytes, for jsonwebtoken, which returns claims instead.
fn payload(token: &str) -> Vec<u8> {
    let lax = GeneralPurpose::new(
        &base64::alphabet::URL_SAFE,
        GeneralPurposeConfig::new()
            .with_decode_padding_mode(DecodePaddingMode::Indifferent)
            .with_decode_allow_trailing_bits(true),
    );
    token
        .split('.')
        .nth(1)
        .and_then(|p| lax.decode(p).ok())
        .unwrap_or_default()
}

fn josekit(token: &str, jwk: &Value) -> Result<Vec<u8>, String> {
    let Value::Object(map) = jwk.clone() else {
        return Err("the key is not a JSON object".into());
    };
    let jwk = josekit::jwk::Jwk::from_map(map).map_err(|e| e.to_string())?;
    let verifier = josekit::jws::EdDSA
        .verifier_from_jwk(&jwk)
        .map_err(|e| e.to_string())?;
    josekit::jws::deserialize_compact(token, &verifier)
        .map(|(payload, _)| payload)
        .map_err(|e| e.to_string())
}

fn jsonwebtoken_aws_lc_rs(token: &str, jwk: &Value) -> Result<Vec<u8>, String> {
    use jsonwebtoken::{decode, Algorithm, DecodingKey, Validation};
    let jwk: jsonwebtoken::jwk::Jwk =
        serde_json::from_value(jwk.clone()).map_err(|e| e.to_string())?;
    let key = DecodingKey::from_jwk(&jwk).map_err(|e| e.to_string())?;
    let mut validation = Validation::new(Algorithm::EdDSA);
    validation.required_spec_claims.clear();
    validation.validate_exp = false;
    validation.validate_nbf = false;
    validation.validate_aud = false;
    decode::<Value>(token, &key, &validation).map_err(|e| e.to_string())?;
    Ok(payload(token))
}

fn acdp_jcs(text: &str) -> Result<Vec<u8>, String> {
    let value: Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
    acdp_jcs::try_canonicalize_value(&value).map_err(|e| e.to_string())
}

fn json_syntax(text: &str) -> Result<Vec<u8>, String> {
    use json_syntax::{Parse, Print};
    let (mut value, _) = json_syntax::Value::parse_str(text).map_err(|e| e.to_string())?;
    value.canonicalize();
    Ok(value.compact_print().to_string().into_bytes())
}

/// A canonicalizer's answer: its refusals' kinds are read by the harness from their messages.
fn canonical(canonicalize: Canonicalize, input: &[u8]) -> Value {
    let Ok(text) = std::str::from_utf8(input) else {
        return json!({"error": {"kind": "invalid_utf8", "message": "not UTF-8", "offset": 0}});
    };
    match catch_unwind(AssertUnwindSafe(|| canonicalize(text))) {
        Ok(Ok(out)) => json!({"ok": String::from_utf8_lossy(&out)}),
        Ok(Err(message)) => json!({"error": {"kind": "other", "message": message, "offset": 0}}),
        Err(_) => json!({"error": {"kind": "crashed", "message": "panicked", "offset": 0}}),
    }
}

fn verdict(check: Check, line: &[u8]) -> Value {
    let case: Option<(String, Value)> = serde_json::from_slice::<Value>(line)
        .ok()
        .and_then(|v| Some((v.get("token")?.as_str()?.to_string(), v.get("jwk")?.clone())));
    let Some((token, jwk)) = case else {
        return json!({"unsupported": true});
    };
    match catch_unwind(AssertUnwindSafe(|| check(&token, &jwk))) {
        Ok(Ok(payload)) => json!({"ok": String::from_utf8_lossy(&payload)}),
        Ok(Err(message)) => json!({"error": {"kind": "rejected", "message": message, "offset": 0}}),
        Err(_) => json!({"error": {"kind": "crashed", "message": "panicked", "offset": 0}}),
    }
}

/// The input a protocol 1 request line carries.
fn request(line: &[u8]) -> Result<Vec<u8>, String> {
    let request: Value = serde_json::from_slice(line).map_err(|e| e.to_string())?;
    let text = request
        .get("input")
        .and_then(Value::as_str)
        .ok_or("no \"input\" string")?;
    base64::engine::general_purpose::STANDARD
        .decode(text)
        .map_err(|e| e.to_string())
}

fn main() {
    let library = std::env::args().nth(1).unwrap_or_default();
    let answer: Answer = match library.as_str() {
        "josekit" => |line| verdict(josekit, line),
        "jsonwebtoken-aws_lc_rs" => |line| verdict(jsonwebtoken_aws_lc_rs, line),
        "acdp-jcs" => |input| canonical(acdp_jcs, input),
        "json-syntax" => |input| canonical(json_syntax, input),
        other => {
            eprintln!("unknown library {other:?}");
            std::process::exit(2);
        }
    };
    std::panic::set_hook(Box::new(|_| {}));
    let mut input = BufReader::new(io::stdin());
    let mut out = BufWriter::new(io::stdout());
    let mut line = Vec::new();
    let mut framed = None;
    loop {
        line.clear();
        match input.read_until(b'\n', &mut line) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        if line.last() == Some(&b'\n') {
            line.pop();
        }
        if line.last() == Some(&b'\r') {
            line.pop();
        }
        let reply = match framed {
            None => {
                let hello = serde_json::from_slice::<Value>(&line).ok();
                let v1 = hello.is_some_and(|h| h.get("canonfuzz") == Some(&json!(1)));
                framed = Some(v1);
                if v1 {
                    json!({"canonfuzz": 1, "name": library})
                } else {
                    answer(&line)
                }
            }
            Some(false) => answer(&line),
            Some(true) => match request(&line) {
                Ok(input) => answer(&input),
                Err(why) => {
                    json!({"error": {"kind": "crashed", "message": format!("not a protocol 1 request: {why}"), "offset": 0}})
                }
            },
        };
        if writeln!(out, "{reply}").is_err() {
            break;
        }
        // Answers go out whenever the input read so far is used up, so a batch never waits.
        if input.buffer().is_empty() && out.flush().is_err() {
            break;
        }
    }
    let _ = out.flush();
}
