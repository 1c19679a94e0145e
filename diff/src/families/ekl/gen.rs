//! Adapter-profile cases: a salted fingerprint of a value, of a tool result's body, or an
//! endpoint challenge proof. Values come from the JCS generator (numbers, member order,
//! escapes, structure), so the fingerprint inherits every canonicalization edge; results wrap
//! them as `structuredContent` or as the text of a `content` block, with adapter decorations
//! (`isError`, `_meta`) that must not count.

use serde_json::{json, Value};

use canonfuzz_rng::Rng;

use crate::families::jcs::gen::{self as jcs_gen, case as jcs_case};
use crate::family::Category;

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
/// independent reading ([`crate::reading`], not the core); the JCS family's policies cover
/// those.
pub fn value_refused_by_jcs(input: &[u8]) -> bool {
    let Ok(case) = serde_json::from_slice::<Value>(input) else {
        return false;
    };
    ["value", "result"].iter().any(|name| {
        case.get(*name)
            .and_then(Value::as_str)
            .is_some_and(|text| !crate::reading::read(text.as_bytes()).problems.is_empty())
    })
}

/// Whether a challenge case's challenge is not lowercase hex.
pub fn challenge_not_lowercase_hex(input: &[u8]) -> bool {
    serde_json::from_slice::<Value>(input).is_ok_and(|c| {
        c.get("challenge")
            .and_then(Value::as_str)
            .is_some_and(|ch| {
                ch.is_empty()
                    || !ch
                        .bytes()
                        .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
            })
    })
}

/// The input for case `index` of an adapter-profile campaign with `seed`.
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
    let input = match rng.index(10) {
        0..=4 => json!({"op": "fingerprint", "salt": salt, "value": text}),
        5..=8 => {
            let decorations =
                json!({"isError": rng.chance(50), "_meta": {"ekl": {"n": rng.index(9)}}});
            let result = match rng.index(3) {
                0 => format!(
                    "{{\"structuredContent\":{text},\"content\":[],\"isError\":{}}}",
                    decorations["isError"]
                ),
                1 => format!(
                    "{{\"content\":[{{\"type\":\"text\",\"text\":{}}}],\"_meta\":{}}}",
                    Value::String(text.clone()),
                    decorations["_meta"]
                ),
                _ => format!("{{\"structuredContent\":null,\"content\":[{text}]}}"),
            };
            json!({"op": "result", "salt": salt, "result": result})
        }
        _ => {
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
            json!({"op": "challenge", "credential": credential, "challenge": challenge, "endpoint": endpoint})
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
        assert_eq!(ops.len(), 3);
    }
}
