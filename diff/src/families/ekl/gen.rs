//! ekl cases: a salted fingerprint of a value, of a tool result's body, an endpoint
//! challenge proof, or the verification of one. Values come from the JCS generator (numbers,
//! member order, escapes, structure), so the fingerprint inherits every canonicalization edge;
//! results wrap them as `structuredContent` or as the text of a `content` block, with adapter
//! decorations (`isError`, `_meta`) that must not count. A proof to verify is the right one,
//! in either case of hex, or one wrong in a single byte anywhere, cut short, lengthened, not
//! hex, or made for another endpoint.

use canonfuzz_props::read::for_judgment::{self, Unreadable};
use serde_json::{json, Value};

use canonfuzz_rng::Rng;

use crate::families::jcs::gen::{self as jcs_gen, case as jcs_case};
use crate::family::{Category, Field};

/// The JCS generator's categories of well-formed documents, which the family's values come
/// from.
pub const CATEGORIES: [Category; 4] = [
    jcs_gen::NUMBERS,
    jcs_gen::ORDERING,
    jcs_gen::ESCAPES,
    jcs_gen::STRUCTURE,
];
use crate::vector::to_hex;

fn hex(rng: &mut Rng, bytes: usize) -> String {
    let raw: Vec<u8> = (0..bytes).map(|_| rng.next_u64() as u8).collect();
    to_hex(&raw)
}

/// Whether the case's value (or result) has a problem RFC 8785 and I-JSON refuse, by an
/// independent reading ([`canonfuzz_props::read::problems`], not the core); the JCS family's policies cover
/// those.
pub fn value_refused_by_jcs(input: &[u8]) -> Result<bool, Unreadable> {
    let case = for_judgment::case(input)?;
    Ok(["value", "result"].iter().any(|name| {
        case.get(*name).and_then(Value::as_str).is_some_and(|text| {
            !canonfuzz_props::read::problems::read(text.as_bytes())
                .problems
                .is_empty()
        })
    }))
}

/// Whether a challenge case's challenge is not lowercase hex.
pub fn challenge_not_lowercase_hex(input: &[u8]) -> Result<bool, Unreadable> {
    let case = for_judgment::case(input)?;
    Ok(case
        .get("challenge")
        .and_then(Value::as_str)
        .is_some_and(|ch| {
            ch.is_empty()
                || !ch
                    .bytes()
                    .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
        }))
}

/// Every field of an ekl case: each is drawn afresh in every category's cases.
pub const FIELDS: [Field; 8] = [
    Field::at(
        "/op",
        "the family's adapter: which entry point",
        &CATEGORIES,
    ),
    Field::at(
        "/salt",
        "ekl::fingerprint, ekl::result_fingerprint",
        &CATEGORIES,
    ),
    Field::at("/value", "ekl::fingerprint", &CATEGORIES),
    Field::at("/result", "ekl::result_fingerprint", &CATEGORIES),
    Field::at(
        "/credential",
        "ekl::challenge_proof, ekl::verify_challenge",
        &CATEGORIES,
    ),
    Field::at(
        "/challenge",
        "ekl::challenge_proof, ekl::verify_challenge",
        &CATEGORIES,
    ),
    Field::at(
        "/endpoint",
        "ekl::challenge_proof, ekl::verify_challenge",
        &CATEGORIES,
    ),
    Field::at("/proof", "ekl::verify_challenge", &CATEGORIES),
];

/// HMAC-SHA256 keyed with the hex SHA-256 of the credential, over the challenge and endpoint:
/// the profile's proof, computed with ring, apart from the core.
fn mac(credential: &str, challenge: &str, endpoint: &str) -> Vec<u8> {
    let key_hex =
        to_hex(ring::digest::digest(&ring::digest::SHA256, credential.as_bytes()).as_ref());
    let key = ring::hmac::Key::new(ring::hmac::HMAC_SHA256, key_hex.as_bytes());
    let message = format!("{challenge}{endpoint}");
    ring::hmac::sign(&key, message.as_bytes()).as_ref().to_vec()
}

/// A proof to verify: the right one (in lowercase or uppercase hex), or one wrong in one bit
/// of any of its 32 bytes, a byte short or long, with a character that is not hex, or right for
/// another endpoint.
fn proof(rng: &mut Rng, credential: &str, challenge: &str, endpoint: &str) -> String {
    let mut right = mac(credential, challenge, endpoint);
    match rng.index(10) {
        0..=2 => to_hex(&right),
        3 => to_hex(&right).to_uppercase(),
        4..=6 => {
            let at = rng.index(right.len());
            let bit = 1u8 << rng.index(8);
            if let Some(byte) = right.get_mut(at) {
                *byte ^= bit;
            }
            to_hex(&right)
        }
        7 => {
            if rng.chance(50) {
                right.pop();
            } else {
                right.push(rng.next_u64() as u8);
            }
            to_hex(&right)
        }
        8 => {
            let mut text = to_hex(&right);
            let at = rng.index(text.len());
            text.replace_range(at..=at, rng.pick(&["g", " ", "-", "é"]));
            text
        }
        _ => to_hex(&mac(credential, challenge, &format!("{endpoint}/"))),
    }
}

/// The input for case `index` of an ekl campaign with `seed`.
pub fn case(seed: u64, index: u64) -> (Category, Vec<u8>) {
    let mut rng = Rng::for_case(seed, index);
    let salt = if rng.chance(3) {
        hex(&mut rng, 31)
    } else {
        hex(&mut rng, 32)
    };
    let (category, document) = loop {
        let (category, doc) = jcs_case(seed ^ 0xe41, rng.next_u64());
        if category != jcs_gen::REJECTIONS {
            break (category, doc);
        }
    };
    let text = String::from_utf8_lossy(&document).into_owned();
    let input = match rng.index(16) {
        0..=5 => json!({"op": "fingerprint", "salt": salt, "value": text}),
        6..=10 => {
            let decorations =
                json!({"isError": rng.chance(50), "_meta": {"ekl": {"n": rng.index(9)}}});
            let result = match rng.index(12) {
                0..=3 => format!(
                    "{{\"structuredContent\":{text},\"content\":[],\"isError\":{}}}",
                    decorations["isError"]
                ),
                4..=6 => format!(
                    "{{\"content\":[{{\"type\":\"text\",\"text\":{}}}],\"_meta\":{}}}",
                    Value::String(text.clone()),
                    decorations["_meta"]
                ),
                7..=8 => format!("{{\"structuredContent\":null,\"content\":[{text}]}}"),
                // A JSON-RPC response around the result.
                9 => format!(
                    "{{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{{\"structuredContent\":{text}}}}}"
                ),
                // A result with no body, a content that is no array, and one that is no object.
                10 => match rng.index(3) {
                    0 => format!(
                        "{{\"isError\":{},\"_meta\":{}}}",
                        decorations["isError"], decorations["_meta"]
                    ),
                    1 => "{\"structuredContent\":null}".to_string(),
                    _ => format!("{{\"content\":{}}}", Value::String(text.clone())),
                },
                _ => format!("[{text}]"),
            };
            json!({"op": "result", "salt": salt, "result": result})
        }
        op => {
            let length = 1 + rng.index(24);
            let credential = format!("eklp_{}", hex(&mut rng, length));
            let challenge = if rng.chance(5) {
                hex(&mut rng, 32).to_uppercase()
            } else {
                hex(&mut rng, 32)
            };
            let endpoint = format!(
                "https://mcp{}.example.com/ekl{}",
                rng.index(100),
                rng.pick(&["", "/", "?x=1", "/é"])
            );
            if op < 12 {
                json!({"op": "challenge", "credential": credential, "challenge": challenge, "endpoint": endpoint})
            } else {
                let proof = proof(&mut rng, &credential, &challenge, &endpoint);
                json!({"op": "verify", "credential": credential, "challenge": challenge, "endpoint": endpoint, "proof": proof})
            }
        }
    };
    (category, input.to_string().into_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_op_is_generated() {
        let ops: std::collections::BTreeSet<String> = (0..300)
            .map(|i| {
                let v: Value = serde_json::from_slice(&case(1, i).1).unwrap();
                v["op"].as_str().unwrap().to_string()
            })
            .collect();
        assert_eq!(ops.len(), 4, "{ops:?}");
    }

    #[test]
    fn proofs_to_verify_are_right_and_wrong_in_every_byte() {
        let mut right = 0;
        let mut wrong_at = std::collections::BTreeSet::new();
        for i in 0..20_000 {
            let v: Value = serde_json::from_slice(&case(1, i).1).unwrap();
            if v["op"] != "verify" {
                continue;
            }
            let text = |name: &str| v[name].as_str().unwrap().to_string();
            let mac = mac(&text("credential"), &text("challenge"), &text("endpoint"));
            let Ok(given) = canonfuzz_props::hex::from_hex(&text("proof").to_ascii_lowercase())
            else {
                continue;
            };
            if given == mac {
                right += 1;
            } else if given.len() == mac.len() {
                let differ: Vec<usize> = (0..mac.len()).filter(|&k| given[k] != mac[k]).collect();
                if let [at] = differ[..] {
                    wrong_at.insert(at);
                }
            }
        }
        assert!(right > 50, "{right} right proofs");
        assert_eq!(wrong_at.len(), 32, "wrong in one byte only at {wrong_at:?}");
    }
}
