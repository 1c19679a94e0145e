//! JWS cases: an EdDSA compact token and the JWK to verify it with, generated honestly and
//! then bent where JOSE libraries are known to differ — base64url laxness (padding, whitespace,
//! the `+/` alphabet, unused bits), header variants (duplicates, `crit`, `b64`, `alg`
//! spellings and `none`, `kid`, a BOM), key variants (short or long `x`, wrong `crv`/`kty`,
//! weak keys) and signature variants (`S` ≥ L, small-order `R`, wrong lengths).
//!
//! Each variant is signed over the text the token carries (or, for encoding variants, over
//! the canonical text it stands for), so a verifier's answer turns on the variant alone.

use base64::engine::general_purpose::STANDARD_NO_PAD;
use base64::engine::Engine;
pub use canonfuzz_props::jws::base64url::lax_decode;
use canonfuzz_props::jws::base64url::{strict, STRICT};
use canonfuzz_props::read::for_judgment::{self, Unreadable};
use serde_json::{json, Map, Value};

use crate::families::ed25519::gen::{add_order, edge_flags, scalar, sign, Part};
use canonfuzz_rng::Rng;

use crate::family::{Category, Field};

/// Base64url laxness in the token's segments.
pub const BASE64URL: Category = Category::new(
    "base64url",
    "A token segment in a base64url form RFC 7515 does not allow.",
);
/// Header variants.
pub const HEADERS: Category = Category::new(
    "headers",
    "A header variant: duplicates, crit, b64, alg spellings, kid, BOM.",
);
/// Key variants.
pub const KEYS: Category = Category::new(
    "keys",
    "A key variant: x length, crv, kty, alg, use, key_ops, weak keys.",
);
/// Signature variants.
pub const JWS_SIGNATURES: Category = Category::new(
    "jws_signatures",
    "A signature variant: S >= L, small-order R, wrong lengths.",
);

/// The decoded header member `name` of a case's token, as JSON text.
fn header_member(input: &[u8], name: &str) -> Vec<String> {
    JwsCase::parse(input)
        .and_then(|case| case.header().ok().flatten())
        .and_then(|header| header.get(name).map(Value::to_string))
        .into_iter()
        .collect()
}

/// Segment `at` of a case's token, as it is written.
fn segment(input: &[u8], at: usize) -> Vec<String> {
    JwsCase::parse(input)
        .and_then(|case| case.token.split('.').nth(at).map(str::to_string))
        .into_iter()
        .collect()
}

/// Every field of a JWS case: the key's members, the token's header parameters, payload and
/// signature, and the token's text, whose encodings the base64url category bends.
pub const FIELDS: [Field; 16] = [
    Field::at("/jwk/kty", "jws::Jwk::parse", &[KEYS]),
    Field::at("/jwk/crv", "jws::Jwk::parse", &[KEYS]),
    Field::at("/jwk/x", "jws::verify_with_key", &CATEGORIES),
    Field::at(
        "/jwk/kid",
        "jws::verify_with_key: the key a kid selects",
        &CATEGORIES,
    ),
    Field::at(
        "/jwk/alg",
        "jws::verify_with_key: the key's restrictions",
        &[KEYS],
    ),
    Field::at(
        "/jwk/use",
        "jws::verify_with_key: the key's restrictions",
        &[KEYS],
    ),
    Field::at(
        "/jwk/key_ops",
        "jws::verify_with_key: the key's restrictions",
        &[KEYS],
    ),
    Field::at(
        "/jwk/d",
        "jws::verify_with_key: the key's restrictions",
        &[KEYS],
    ),
    Field::at(
        "/token",
        "jws::verify_with_key: the compact form",
        &[BASE64URL],
    ),
    Field {
        name: "token header alg",
        read_by: "jws::verify_with_key",
        varied_by: &[HEADERS],
        values: Some(|input| header_member(input, "alg")),
    },
    Field {
        name: "token header kid",
        read_by: "jws::verify_with_key: the key a kid selects",
        varied_by: &[HEADERS],
        values: Some(|input| header_member(input, "kid")),
    },
    Field {
        name: "token header typ",
        read_by: "jws::verify_with_key",
        varied_by: &[HEADERS],
        values: Some(|input| header_member(input, "typ")),
    },
    Field {
        name: "token header crit",
        read_by: "jws::verify_with_key",
        varied_by: &[HEADERS],
        values: Some(|input| header_member(input, "crit")),
    },
    Field {
        name: "token header b64",
        read_by: "jws::verify_with_key",
        varied_by: &[HEADERS],
        values: Some(|input| header_member(input, "b64")),
    },
    Field {
        name: "token payload",
        read_by: "jws::verify_with_key",
        varied_by: &CATEGORIES,
        values: Some(|input| segment(input, 1)),
    },
    Field {
        name: "token signature",
        read_by: "jws::verify_with_key",
        varied_by: &CATEGORIES,
        values: Some(|input| segment(input, 2)),
    },
];

/// Every category of the family, in report order.
pub const CATEGORIES: [Category; 4] = [BASE64URL, HEADERS, KEYS, JWS_SIGNATURES];

/// One JWS verification: a compact token and the single key it is checked against.
#[derive(Debug, Clone, PartialEq)]
pub struct JwsCase {
    /// The compact serialization, as sent.
    pub token: String,
    /// The key, as a JWK object.
    pub jwk: Value,
}

impl JwsCase {
    /// The case as a campaign input: one JSON line `{"jwk":{..},"token":".."}`.
    pub fn encode(&self) -> Vec<u8> {
        json!({"jwk": self.jwk, "token": self.token})
            .to_string()
            .into_bytes()
    }

    /// Reads a campaign input back; `None` when it is not one.
    pub fn parse(input: &[u8]) -> Option<JwsCase> {
        JwsCase::read(input).ok().flatten()
    }

    /// Reads a campaign case as a policy judges it: `Ok(None)` for a case without a token
    /// and a key, `Err` when the input cannot be read as a case at all.
    pub fn read(input: &[u8]) -> Result<Option<JwsCase>, Unreadable> {
        let case = for_judgment::case(input)?;
        Ok((|| {
            Some(JwsCase {
                token: case.get("token")?.as_str()?.to_string(),
                jwk: case.get("jwk")?.clone(),
            })
        })())
    }

    /// The token's header as text, decoded as leniently as any library would, a byte order
    /// mark left on.
    fn header_text(&self) -> Option<Vec<u8>> {
        lax_decode(self.token.split('.').next()?)
    }

    /// The token's header parameters, decoded as leniently as any library would and read at
    /// any depth; `Ok(None)` when the header is not a JSON object.
    fn header(&self) -> Result<Option<Map<String, Value>>, Unreadable> {
        let Some(bytes) = self.header_text() else {
            return Ok(None);
        };
        let header = for_judgment::judge(without_boms(&bytes), |value| match value {
            Value::Object(map) => Some(map),
            _ => None,
        })?;
        Ok(header.flatten())
    }
}

/// A header's text after the byte order marks it starts with, which lenient libraries skip.
fn without_boms(mut text: &[u8]) -> &[u8] {
    while let Some(rest) = text.strip_prefix("\u{feff}".as_bytes()) {
        text = rest;
    }
    text
}

/// Whether `holds` is true of the case's token header.
fn header_holds(
    input: &[u8],
    holds: impl Fn(&Map<String, Value>) -> bool,
) -> Result<bool, Unreadable> {
    Ok(match JwsCase::read(input)? {
        Some(case) => case.header()?.is_some_and(|h| holds(&h)),
        None => false,
    })
}

/// Whether `holds` is true of the case.
fn case_holds(input: &[u8], holds: impl Fn(&JwsCase) -> bool) -> Result<bool, Unreadable> {
    Ok(JwsCase::read(input)?.is_some_and(|case| holds(&case)))
}

/// Whether any segment of the token, or the key's `x`, is not strict base64url while a lax
/// decoder still reads it.
pub fn lax_base64url(input: &[u8]) -> Result<bool, Unreadable> {
    case_holds(input, |case| {
        let x = case.jwk.get("x").and_then(Value::as_str);
        case.token
            .split('.')
            .chain(x)
            .any(|s| !strict(s) && lax_decode(s).is_some())
    })
}

/// Whether the token's signature or key shows an Ed25519 edge case.
pub fn signature_has_edge_case(input: &[u8]) -> Result<bool, Unreadable> {
    case_holds(input, |case| {
        let key = case
            .jwk
            .get("x")
            .and_then(Value::as_str)
            .and_then(lax_decode);
        let sig = case.token.split('.').nth(2).and_then(lax_decode);
        match (key, sig) {
            (Some(key), Some(sig)) => !edge_flags(&key, &sig).is_empty(),
            _ => false,
        }
    })
}

/// Whether the token's header, otherwise JSON, names a parameter twice (after unescaping),
/// read at any depth.
pub fn header_has_duplicates(input: &[u8]) -> Result<bool, Unreadable> {
    case_holds(input, |case| {
        let Some(bytes) = case.header_text() else {
            return false;
        };
        let reading = canonfuzz_props::read::problems::read(without_boms(&bytes));
        reading.problems.contains("duplicate_key")
            && !reading.problems.contains("syntax")
            && !reading.problems.contains("invalid_utf8")
    })
}

/// Whether the header's `alg` is RFC 9864's fully-specified `Ed25519` on a token every other
/// check takes, so that the core accepts it.
pub fn alg_is_ed25519(input: &[u8]) -> Result<bool, Unreadable> {
    if !header_holds(input, |h| h.get("alg") == Some(&json!("Ed25519")))? {
        return Ok(false);
    }
    for other in [
        lax_base64url,
        signature_has_edge_case,
        header_has_duplicates,
        b64_not_true,
        has_crit,
        header_has_bom,
        header_parameter_mistyped,
        key_restricted,
        kid_names_another_key,
    ] {
        if other(input)? {
            return Ok(false);
        }
    }
    case_holds(input, verifies_apart_from_the_core)
}

/// Whether a token is one every check of RFC 7515 and RFC 8037 takes, read apart from the
/// core: three strict base64url segments, a header that is an I-JSON object, an OKP Ed25519
/// key of 32 bytes, and a signature over the token's text that ring (BoringSSL's Ed25519)
/// verifies.
fn verifies_apart_from_the_core(case: &JwsCase) -> bool {
    let parts: Vec<&str> = case.token.split('.').collect();
    let [header, payload, signature] = parts[..] else {
        return false;
    };
    let decoded = |part: &str| strict(part).then(|| STRICT.decode(part).ok()).flatten();
    let header_is_object = decoded(header).is_some_and(|text| {
        canonfuzz_props::read::problems::read(&text)
            .problems
            .is_empty()
            && serde_json::from_slice::<Value>(&text).is_ok_and(|v| v.is_object())
    });
    let key = case.jwk.get("x").and_then(Value::as_str).and_then(decoded);
    let okp = case.jwk.get("kty") == Some(&json!("OKP"))
        && case.jwk.get("crv") == Some(&json!("Ed25519"));
    match (key, decoded(payload), decoded(signature)) {
        (Some(key), Some(_), Some(signature)) if okp && header_is_object && key.len() == 32 => {
            ring::signature::UnparsedPublicKey::new(&ring::signature::ED25519, key)
                .verify(format!("{header}.{payload}").as_bytes(), &signature)
                .is_ok()
        }
        _ => false,
    }
}

/// Whether the header names a `kid` that the key does not carry.
pub fn kid_names_another_key(input: &[u8]) -> Result<bool, Unreadable> {
    let Some(case) = JwsCase::read(input)? else {
        return Ok(false);
    };
    Ok(case
        .header()?
        .and_then(|h| h.get("kid").cloned())
        .is_some_and(|kid| case.jwk.get("kid") != Some(&kid)))
}

/// Whether the header carries `b64` with another value than `true`.
pub fn b64_not_true(input: &[u8]) -> Result<bool, Unreadable> {
    header_holds(input, |h| h.get("b64").is_some_and(|b| b != &json!(true)))
}

/// Whether the header carries `crit` at all.
pub fn has_crit(input: &[u8]) -> Result<bool, Unreadable> {
    header_holds(input, |h| h.contains_key("crit"))
}

/// Whether the decoded header begins with a byte order mark.
pub fn header_has_bom(input: &[u8]) -> Result<bool, Unreadable> {
    case_holds(input, |case| {
        case.header_text()
            .is_some_and(|h| h.starts_with("\u{feff}".as_bytes()))
    })
}

/// Whether a parameter RFC 7515 defines as a string (`alg`, `kid`, `typ`, `cty`) is
/// something else, or `crit` is not an array.
pub fn header_parameter_mistyped(input: &[u8]) -> Result<bool, Unreadable> {
    header_holds(input, |h| {
        ["alg", "kid", "typ", "cty"]
            .iter()
            .any(|name| h.get(*name).is_some_and(|v| !v.is_string()))
            || h.get("crit").is_some_and(|v| !v.is_array())
    })
}

/// Whether the key says it is not for verifying EdDSA signatures: `use` other than `sig`,
/// `alg` other than an EdDSA name, `key_ops` without `verify`, or a private part `d`.
pub fn key_restricted(input: &[u8]) -> Result<bool, Unreadable> {
    case_holds(input, |case| {
        let jwk = &case.jwk;
        jwk.get("use").is_some_and(|u| u != "sig")
            || jwk
                .get("alg")
                .is_some_and(|a| a != "EdDSA" && a != "Ed25519")
            || jwk.get("key_ops").is_some_and(|ops| {
                !ops.as_array()
                    .is_some_and(|l| l.iter().any(|op| op == "verify"))
            })
            || jwk.get("d").is_some()
    })
}

/// What the signer holds: the key pair's parts and the header and payload texts.
struct Draft {
    key: Part,
    nonce: Part,
    jwk: Map<String, Value>,
    header: Vec<u8>,
    payload: Vec<u8>,
}

impl Draft {
    fn new(rng: &mut Rng) -> Draft {
        let key = Part::honest(scalar(rng));
        let nonce = Part::honest(scalar(rng));
        let mut jwk = Map::new();
        jwk.insert("kty".into(), json!("OKP"));
        jwk.insert("crv".into(), json!("Ed25519"));
        jwk.insert("x".into(), json!(STRICT.encode(key.bytes)));
        let mut header = Map::new();
        header.insert("alg".into(), json!("EdDSA"));
        if rng.chance(50) {
            let kid = rng.pick(&["k1", "k1", "k1", "key-2026-06-11", "k1/x", "ü"]);
            jwk.insert("kid".into(), json!(kid));
            if rng.chance(70) {
                header.insert("kid".into(), json!(kid));
            }
        }
        if rng.chance(30) {
            jwk.insert("alg".into(), json!("EdDSA"));
        }
        if rng.chance(20) {
            jwk.insert("use".into(), json!("sig"));
        }
        if rng.chance(30) {
            header.insert("typ".into(), json!("JWT"));
        }
        let words = ["alice", "bob", "tool", "x", "ünï", "a b"];
        let payload = json!({"n": rng.index(1000), "sub": rng.pick(&words)});
        Draft {
            key,
            nonce,
            jwk,
            header: Value::Object(header).to_string().into_bytes(),
            payload: payload.to_string().into_bytes(),
        }
    }

    /// The token over `header_b64.payload_b64` as written, signed by the draft's key.
    fn token(&self, header_b64: &str, payload_b64: &str) -> String {
        let input = format!("{header_b64}.{payload_b64}");
        let sig = sign(&self.key, &self.nonce, input.as_bytes(), false);
        format!("{input}.{}", STRICT.encode(sig))
    }

    fn signed(&self) -> String {
        self.token(&STRICT.encode(&self.header), &STRICT.encode(&self.payload))
    }

    fn case(self, token: String) -> JwsCase {
        JwsCase {
            token,
            jwk: Value::Object(self.jwk),
        }
    }
}

/// A strict base64url segment bent the way lax decoders forgive.
fn bend(rng: &mut Rng, segment: &str, bytes: &[u8]) -> String {
    match rng.index(6) {
        0 => format!("{segment}{}", rng.pick(&["=", "==", "==="])),
        1 => {
            let at = rng.index(segment.len() + 1);
            let ws = rng.pick(&[" ", "\n", "\t", "\r\n"]);
            format!(
                "{}{ws}{}",
                segment.get(..at).unwrap_or(segment),
                segment.get(at..).unwrap_or_default()
            )
        }
        2 => STANDARD_NO_PAD.encode(bytes),
        3 => {
            let Some(last) = segment
                .chars()
                .last()
                .filter(|_| !segment.len().is_multiple_of(4))
            else {
                return format!("{segment}=");
            };
            let alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
            let index = alphabet.find(last).unwrap_or(0);
            let unused = if segment.len() % 4 == 2 { 0xf } else { 0x3 };
            let bent = alphabet
                .chars()
                .nth(index | (1 + rng.index(unused)))
                .unwrap_or(last);
            format!(
                "{}{bent}",
                segment.get(..segment.len() - 1).unwrap_or_default()
            )
        }
        4 => format!("{segment}{}", rng.pick(&["!", "*", "~"])),
        _ => segment.get(1..).unwrap_or_default().to_string(),
    }
}

fn header_variant(rng: &mut Rng, draft: &mut Draft) {
    let kid = draft
        .jwk
        .get("kid")
        .map(|k| format!(",\"kid\":{k}"))
        .unwrap_or_default();
    let text = match rng.index(11) {
        0 => format!("{{\"alg\":\"EdDSA\",\"alg\":\"EdDSA\"{kid}}}"),
        1 => format!("{{\"alg\":\"none\",\"alg\":\"EdDSA\"{kid}}}"),
        2 => format!("{{\"alg\":\"EdDSA\"{kid},\"alg\":\"none\"}}"),
        3 => format!(
            "{{\"alg\":\"EdDSA\"{kid},\"crit\":{}}}",
            rng.pick(&[
                "[\"exp\"],\"exp\":1",
                "[]",
                "\"exp\"",
                "[\"b64\"],\"b64\":true",
                "[\"alg\"]"
            ])
        ),
        4 => format!(
            "{{\"alg\":\"EdDSA\"{kid},\"b64\":{}}}",
            rng.pick(&["false,\"crit\":[\"b64\"]", "true", "false", "\"false\""])
        ),
        5 => format!(
            "{{\"alg\":{}{kid}}}",
            rng.pick(&[
                "\"Ed25519\"",
                "\"ED25519\"",
                "\"eddsa\"",
                "\"EdDSA \"",
                "\"none\"",
                "\"HS256\"",
                "\"ES256\"",
                "null",
                "[\"EdDSA\"]",
                "\"Ed448\"",
            ])
        ),
        6 => format!(
            "{{\"alg\":\"EdDSA\"{}}}",
            rng.pick(&[
                "",
                ",\"kid\":\"k2\"",
                ",\"kid\":1",
                ",\"kid\":\"\"",
                ",\"kid\":null",
                ",\"kid\":\"k\"",
                ",\"kid\":\"k10\"",
                ",\"kid\":\"K1\"",
                ",\"kid\":\"k\\u0031\""
            ])
        ),
        7 => format!("\u{feff}{{\"alg\":\"EdDSA\"{kid}}}"),
        8 => rng
            .pick(&[
                "[]",
                "\"EdDSA\"",
                "{}",
                "{\"alg\":\"EdDSA\"} ",
                " { \"alg\" : \"EdDSA\" }",
                "{\"alg\":\"EdDSA\",}",
                "{\"alg\":\"Ed\\u0044SA\"}",
                "{\"alg\":\"EdDSA\"}x",
                // One member, a string: no alg, though serde_json's Value reads the object the
                // string holds.
                "{\"$serde_json::private::RawValue\":\"{\\\"alg\\\":\\\"EdDSA\\\"}\"}",
            ])
            .to_string(),
        9 => format!(
            "{{\"alg\":\"EdDSA\"{kid},\"typ\":{}}}",
            rng.pick(&["\"JWT\"", "\"jwt\"", "\"application/jwt\"", "1", "\"JOSE\""])
        ),
        _ => format!(
            "{{\"alg\":\"EdDSA\"{kid},{}}}",
            rng.pick(&[
                "\"zip\":\"DEF\"",
                "\"jwk\":{}",
                "\"x5u\":\"http://x\"",
                "\"enc\":\"A128GCM\"",
                "\"cty\":\"JWT\"",
                "\"exp\":0",
            ])
        ),
    };
    draft.header = text.into_bytes();
}

fn key_variant(rng: &mut Rng, draft: &mut Draft) {
    let x = STRICT.encode(draft.key.bytes);
    let (name, value) = match rng.index(10) {
        0 => (
            "x",
            json!(STRICT.encode(draft.key.bytes.get(..31).unwrap_or_default())),
        ),
        1 => {
            let mut long = draft.key.bytes.to_vec();
            long.push(0);
            ("x", json!(STRICT.encode(long)))
        }
        2 => (
            "crv",
            json!(rng.pick(&["X25519", "Ed448", "ed25519", "P-256"])),
        ),
        3 => ("kty", json!(rng.pick(&["EC", "oct", "okp", "RSA"]))),
        4 => (
            "alg",
            json!(rng.pick(&["ES256", "none", "Ed25519", "HS256", "EdDSA"])),
        ),
        5 => ("use", json!(rng.pick(&["enc", "sig", "SIG"]))),
        6 => (
            "key_ops",
            json!(rng.pick(&[["sign"], ["verify"], ["encrypt"]])),
        ),
        7 => ("d", json!(x.clone())),
        8 => {
            // A small-order key with a signature that verifies under the cofactored equation.
            let weak = Part::small_order(rng);
            draft.key = weak;
            let nonce = Part::small_order(rng);
            draft.nonce = nonce;
            ("x", json!(STRICT.encode(draft.key.bytes)))
        }
        _ => {
            draft.jwk.remove(rng.pick(&["kty", "crv", "x"]));
            return;
        }
    };
    draft.jwk.insert(name.to_string(), value);
}

fn signature_variant(rng: &mut Rng, draft: &Draft) -> String {
    let header = STRICT.encode(&draft.header);
    let payload = STRICT.encode(&draft.payload);
    let honest = draft.token(&header, &payload);
    let sig = honest
        .rsplit('.')
        .next()
        .and_then(|s| STRICT.decode(s).ok())
        .unwrap_or_default();
    let mut r = [0u8; 32];
    let mut s = [0u8; 32];
    r.copy_from_slice(sig.get(..32).unwrap_or(&[0; 32]));
    s.copy_from_slice(sig.get(32..).unwrap_or(&[0; 32]));
    let bent: Vec<u8> = match rng.index(7) {
        0 => [r, add_order(s, 1)].concat(),
        1 => [r, add_order(s, 2 + rng.index(13) as u8)].concat(),
        2 => {
            let weak = Part::small_order(rng);
            let mut out = sign(
                &draft.key,
                &weak,
                format!("{header}.{payload}").as_bytes(),
                false,
            );
            out.truncate(64);
            out
        }
        3 => sig.get(..63).unwrap_or_default().to_vec(),
        4 => [sig.as_slice(), &[0]].concat(),
        5 => vec![0; 64],
        _ => return honest,
    };
    format!("{header}.{payload}.{}", STRICT.encode(bent))
}

/// An honest token over a JSON payload and its key, drawn from `seed`.
#[cfg(test)]
pub(crate) fn honest(seed: u64) -> JwsCase {
    let draft = Draft::new(&mut Rng::for_case(seed, 0));
    let token = draft.signed();
    draft.case(token)
}

/// The input for case `index` of a JWS campaign with `seed`.
pub fn case(seed: u64, index: u64) -> (Category, Vec<u8>) {
    let mut rng = Rng::for_case(seed, index);
    let category = match rng.index(100) {
        0..=24 => BASE64URL,
        25..=54 => HEADERS,
        55..=74 => KEYS,
        _ => JWS_SIGNATURES,
    };
    let mut draft = Draft::new(&mut rng);
    let token = match category {
        BASE64URL => {
            let header = STRICT.encode(&draft.header);
            let payload = STRICT.encode(&draft.payload);
            let signed = draft.signed();
            let sig = signed.rsplit('.').next().unwrap_or_default().to_string();
            let mut parts = [header, payload, sig];
            let which = rng.index(3);
            let raw = match which {
                0 => draft.header.clone(),
                1 => draft.payload.clone(),
                _ => STRICT.decode(&parts[2]).unwrap_or_default(),
            };
            parts[which] = bend(&mut rng, &parts[which], &raw);
            if rng.chance(8) {
                // A compact form of two or four segments.
                match rng.index(3) {
                    0 => parts[..2].join("."),
                    1 => format!("{}.", parts.join(".")),
                    _ => format!("{}.{}", parts.join("."), parts[2]),
                }
            } else if which < 2 && rng.chance(50) {
                draft.token(&parts[0], &parts[1])
            } else {
                parts.join(".")
            }
        }
        HEADERS => {
            header_variant(&mut rng, &mut draft);
            draft.signed()
        }
        KEYS => {
            key_variant(&mut rng, &mut draft);
            draft.signed()
        }
        _ => signature_variant(&mut rng, &draft),
    };
    (category, draft.case(token).encode())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_header_is_read_as_a_library_reads_it() {
        let case_of = |header: &str| JwsCase {
            token: format!(
                "{}.e30.AA",
                canonfuzz_core::jws::base64url_encode(header.as_bytes())
            ),
            jwk: json!({}),
        };
        let header = |text: &str| case_of(text).header().unwrap().map(Value::Object);
        assert_eq!(header(r#"{"alg":"EdDSA"}"#), Some(json!({"alg": "EdDSA"})));
        assert_eq!(header("\u{feff}\u{feff}{}"), Some(json!({})));
        // Past serde_json's 128 levels, a header is still read.
        let deep = format!(
            r#"{{"kid":"k2","x":{}1{}}}"#,
            "[".repeat(200),
            "]".repeat(200)
        );
        assert_eq!(
            header(&deep).and_then(|h| h.get("kid").cloned()),
            Some(json!("k2"))
        );
        // serde_json's Value reads this object as the text its one member holds.
        let marker = r#"{"$serde_json::private::RawValue":"{\"alg\":1}"}"#;
        assert_eq!(
            header(marker),
            Some(json!({"$serde_json::private::RawValue": "{\"alg\":1}"}))
        );
        // The campaign signs such a header, for its verifiers to find no alg in.
        let signed_marker = (0..5_000).any(|i| {
            JwsCase::parse(&case(1, i).1)
                .and_then(|c| c.header().ok().flatten())
                .is_some_and(|h| h.contains_key("$serde_json::private::RawValue"))
        });
        assert!(signed_marker);
    }

    #[test]
    fn every_category_is_generated_and_round_trips() {
        let mut seen = std::collections::BTreeSet::new();
        for i in 0..1000 {
            let (category, input) = case(1, i);
            let c = JwsCase::parse(&input).unwrap();
            assert_eq!(JwsCase::parse(&c.encode()), Some(c));
            seen.insert(category);
        }
        assert_eq!(seen.len(), 4);
    }

    #[test]
    fn rfc_7515s_base64url_is_told_from_lax_forms() {
        assert!(strict("eyJhbGciOiJFZERTQSJ9"));
        assert!(!strict("eyJhbGciOiJFZERTQSJ9="));
        assert!(!strict("eyJhbGciOi JFZERTQSJ9"));
        // "QR" leaves 4 unused bits set; "QQ" is the canonical encoding of 0x41.
        assert!(strict("QQ"));
        assert!(!strict("QR"));
        assert_eq!(lax_decode("QR"), Some(b"A".to_vec()));
    }

    #[test]
    fn duplicate_header_names_are_seen() {
        let case = |header: &str| {
            JwsCase {
                token: format!("{}.e30.", STRICT.encode(header)),
                jwk: json!({}),
            }
            .encode()
        };
        assert_eq!(
            header_has_duplicates(&case(r#"{"alg":"EdDSA","alg":"none"}"#)),
            Ok(true)
        );
        assert_eq!(
            header_has_duplicates(&case(r#"{"alg":"EdDSA","\u0061lg":"none"}"#)),
            Ok(true)
        );
        assert_eq!(
            header_has_duplicates(&case(r#"{"alg":"EdDSA","kid":"alg"}"#)),
            Ok(false)
        );
        assert!(header_has_duplicates(b"[not a case]").is_err());
    }
}
