//! INK cases: an audit event's Merkle leaf hash, and a request's signature base (as its
//! SHA-256). Event bodies and request bodies come from the JCS generator's names, strings and
//! structures (numbers too, though INK's profile takes safe integers only), with an
//! `agentSignature` member that must not count, and request fields that sometimes carry the
//! line breaks INK refuses.

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

/// The input for case `index` of an INK campaign with `seed`.
pub fn case(seed: u64, index: u64) -> (Category, Vec<u8>) {
    let mut rng = Rng::for_case(seed, index);
    let (category, document) = loop {
        let (category, doc) = jcs_case(seed ^ 0x1e4, rng.next_u64());
        let wanted = match category {
            jcs_gen::NUMBERS => rng.chance(15),
            jcs_gen::REJECTIONS => false,
            _ => true,
        };
        if wanted {
            break (category, doc);
        }
    };
    let text = String::from_utf8_lossy(&document).into_owned();
    let input = if rng.chance(60) {
        let signature = if rng.chance(40) {
            ",\"agentSignature\":\"z3kmY29udGVudA\""
        } else {
            ""
        };
        json!({"op": "leaf", "event": format!("{{\"id\":\"evt-{index}\",\"payload\":{text}{signature}}}")})
    } else {
        let path = if rng.chance(5) {
            "/ink/v1/a\nb"
        } else {
            "/ink/v1/intent"
        };
        let recipient = if rng.chance(5) {
            "did:web:b.example\r"
        } else {
            "did:web:b.example"
        };
        json!({"op": "base", "method": "POST", "path": path, "recipientDid": recipient,
            "body": format!("{{\"from\":\"did:web:a.example\",\"payload\":{text}}}"),
            "timestamp": "2026-06-11T00:00:00.000Z"})
    };
    (category, input.to_string().into_bytes())
}

/// Whether a request field carries a line break, which INK refuses in its signature base.
pub fn field_has_line_break(input: &[u8]) -> bool {
    serde_json::from_slice::<Value>(input).is_ok_and(|c| {
        ["method", "path", "recipientDid", "timestamp"]
            .iter()
            .any(|f| {
                c.get(*f)
                    .and_then(Value::as_str)
                    .is_some_and(|v| v.contains(['\n', '\r']))
            })
    })
}

/// Whether the event or body breaks INK's JSON profile as serde_json reads it: a number that
/// is not a safe integer (or is -0), nesting past 32, or a text with a problem RFC 8785 and
/// I-JSON refuse ([`crate::reading`], not the core).
pub fn outside_ink_profile(input: &[u8]) -> bool {
    let Ok(case) = serde_json::from_slice::<Value>(input) else {
        return false;
    };
    let Some(text) = case
        .get("event")
        .or(case.get("body"))
        .and_then(Value::as_str)
    else {
        return false;
    };
    if !crate::reading::read(text.as_bytes()).problems.is_empty() {
        return true;
    }
    // Nesting past serde_json's limit is past the profile's too.
    let Ok(value) = canonfuzz_core::json::read(text.as_bytes()) else {
        return true;
    };
    let mut pending = vec![(&value, 0usize)];
    while let Some((v, depth)) = pending.pop() {
        if depth > 32 {
            return true;
        }
        match v {
            Value::Number(n) => {
                let safe = n.as_i64().is_some_and(|i| i.unsigned_abs() < 1 << 53)
                    || n.as_u64().is_some_and(|u| u < 1 << 53)
                    || n.as_f64().is_some_and(|f| {
                        f.fract() == 0.0
                            && f.abs() < 9007199254740992.0
                            && !(f == 0.0 && f.is_sign_negative())
                    });
                if !safe {
                    return true;
                }
            }
            Value::Array(items) => pending.extend(items.iter().map(|i| (i, depth + 1))),
            Value::Object(m) => pending.extend(m.values().map(|i| (i, depth + 1))),
            _ => {}
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn leaf(event: &str) -> Vec<u8> {
        json!({"op": "leaf", "event": event})
            .to_string()
            .into_bytes()
    }

    #[test]
    fn the_profile_is_judged_as_inks_implementations_read_json() {
        for inside in [
            r#"{"a":[1,-2,{"b":"c"}]}"#,
            r#"{"$serde_json::private::RawValue":1}"#,
        ] {
            assert!(!outside_ink_profile(&leaf(inside)), "{inside}");
        }
        let deep = format!("{}1{}", "[".repeat(33), "]".repeat(33));
        let deeper = format!("{}1{}", "[".repeat(200), "]".repeat(200));
        for outside in [
            "[1.5]",
            "[-0]",
            "[9007199254740992]",
            r#"{"$serde_json::private::RawValue":0.5}"#,
            deep.as_str(),
            deeper.as_str(),
            "[01]",
        ] {
            assert!(outside_ink_profile(&leaf(outside)), "{outside}");
        }
    }
}
