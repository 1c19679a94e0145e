//! INK cases: an audit event's Merkle leaf hash, a request's signature base (as its
//! SHA-256), a body's canonical form under INK's profile, an agent id's principal
//! ([`super::principals`]), a timestamp (as epoch milliseconds), and a message's freshness and
//! replay ([`super::times`]). Event bodies and request bodies come from the JCS generator's names, strings and
//! structures (numbers too, though INK's profile takes safe integers only), or sit at the edges
//! of INK's JSON profile (integers around 2^53, nesting around 32 levels), with an
//! `agentSignature` member that must not count. A request's method, path, recipient and
//! timestamp go into its signature base as sent, so each varies as a sender may write it:
//! methods in any case, paths with query strings, percent-escapes and non-ASCII, recipients of
//! several DID methods, timestamps with and without fractions or offsets — and sometimes with
//! the line breaks INK refuses.

use canonfuzz_props::read::for_judgment::{self, Unreadable};
use serde_json::{json, Value};

use canonfuzz_rng::Rng;

use super::{checkpoints, decided, principals, signed, times, witnessed};
use crate::families::jcs::gen::{self as jcs_gen, case as jcs_case};
use crate::families::merkle::gen as merkle_gen;
use crate::family::{Category, Field};

/// The JCS generator's categories of well-formed documents, which events and bodies come
/// from.
pub const BODIES: [Category; 4] = [
    jcs_gen::NUMBERS,
    jcs_gen::ORDERING,
    jcs_gen::ESCAPES,
    jcs_gen::STRUCTURE,
];

/// A message's freshness and replay.
pub const FRESHNESS: Category = Category::new(
    "ink_freshness",
    "A message's timestamp and nonce against the receiver's clock and the nonces seen, at the window's edges.",
);

/// A checkpoint body.
pub const CHECKPOINTS: Category = Category::new(
    "ink_checkpoints",
    "A C2SP checkpoint body, or one bent where readers of its origin, size and root differ.",
);

/// A request's signature.
pub const SIGNATURES: Category = Category::new(
    "ink_signatures",
    "A request signed with INK-Ed25519, or its signature, fields or key bent.",
);

/// A request against a key history.
pub const ROTATION: Category = Category::new(
    "ink_rotation",
    "A signed request against a key history whose entries are active, retired, revoked or otherwise, their windows at the timestamp's edges, with or without a hint and live authentication.",
);

/// The witness's decisions.
pub const WITNESS: Category = Category::new(
    "ink_witness",
    "A node hash, a tree root, an event submission, or a witness's signature over a checkpoint, a chained checkpoint or an audit response, written in any order and spacing, honest or bent.",
);

/// Decisions asked through `ink decide` itself.
pub const DECIDED: Category = Category::new(
    "ink_decide",
    "A decision asked through ink decide: seed 003's containment, discovery gating and endpoint check of a signed request, inclusion receipts, audit-query responses, handshake messages, connection payloads and Agent Cards, at the edges of their rules.",
);

/// An inclusion proof as INK lists it.
pub const INCLUSION: Category = Category::new(
    "ink_inclusion",
    "An inclusion proof as INK lists it, from the root down, honest or bent (the order reversed among the bends).",
);

/// An agent id and the principal it names.
pub const PRINCIPALS: Category = Category::new(
    "ink_principals",
    "An agent id of each of INK's prefixes, with key bodies well and badly encoded, around its length bound.",
);

/// A timestamp on its own.
pub const INK_TIMESTAMPS: Category = Category::new(
    "ink_timestamps",
    "An INK timestamp at the edges of its strict RFC 3339 grammar and of the calendar.",
);

/// Every category of the family, in report order.
pub const CATEGORIES: [Category; 13] = [
    jcs_gen::NUMBERS,
    jcs_gen::ORDERING,
    jcs_gen::ESCAPES,
    jcs_gen::STRUCTURE,
    FRESHNESS,
    INK_TIMESTAMPS,
    PRINCIPALS,
    INCLUSION,
    SIGNATURES,
    ROTATION,
    CHECKPOINTS,
    WITNESS,
    DECIDED,
];

/// The categories whose cases are requests.
const REQUESTS: [Category; 6] = [
    jcs_gen::NUMBERS,
    jcs_gen::ORDERING,
    jcs_gen::ESCAPES,
    jcs_gen::STRUCTURE,
    SIGNATURES,
    ROTATION,
];

/// Every field of an INK case: each is drawn afresh in every category's cases.
pub const FIELDS: [Field; 34] = [
    Field::at(
        "/op",
        "the family's adapter: which entry point",
        &CATEGORIES,
    ),
    Field::at(
        "/event",
        "ink::profile::event_leaf, ink::witness::submit_event",
        &[
            jcs_gen::NUMBERS,
            jcs_gen::ORDERING,
            jcs_gen::ESCAPES,
            jcs_gen::STRUCTURE,
            WITNESS,
        ],
    ),
    Field::at("/method", "ink::request::signature_base", &REQUESTS),
    Field::at("/path", "ink::request::signature_base", &REQUESTS),
    Field::at("/recipientDid", "ink::request::signature_base", &REQUESTS),
    Field::at(
        "/body",
        "ink::request::signature_base, ink::profile::canonical_body",
        &REQUESTS,
    ),
    Field::at(
        "/timestamp",
        "ink::request::signature_base, ink::time::parse",
        &[
            jcs_gen::NUMBERS,
            jcs_gen::ORDERING,
            jcs_gen::ESCAPES,
            jcs_gen::STRUCTURE,
            INK_TIMESTAMPS,
            SIGNATURES,
            ROTATION,
        ],
    ),
    Field::at("/messageTimestamp", "ink::replay::check", &[FRESHNESS]),
    Field::at("/receiverClock", "ink::replay::check", &[FRESHNESS]),
    Field::at("/nonce", "ink::replay::check", &[FRESHNESS]),
    Field::at("/previouslySeenNonces", "ink::replay::check", &[FRESHNESS]),
    Field::at("/agentId", "ink::principal::normalize", &[PRINCIPALS]),
    Field::at("/leafIndex", "ink::receipt::verify_top_down", &[INCLUSION]),
    Field::at("/treeSize", "ink::receipt::verify_top_down", &[INCLUSION]),
    Field::at("/leafHash", "ink::receipt::verify_top_down", &[INCLUSION]),
    Field::at("/rootHash", "ink::receipt::verify_top_down", &[INCLUSION]),
    Field::at("/proof", "ink::receipt::verify_top_down", &[INCLUSION]),
    Field::at(
        "/signature",
        "ink::request::verify, ink::witness",
        &[SIGNATURES, ROTATION, WITNESS],
    ),
    Field::at("/keys", "ink::request::verify_with_history", &[ROTATION]),
    Field::at(
        "/hintKeyId",
        "ink::request::verify_with_history",
        &[ROTATION],
    ),
    Field::at("/liveAuth", "ink::request::live_auth", &[ROTATION]),
    Field::at(
        "/liveAuthAllowRetired",
        "ink::request::live_auth",
        &[ROTATION],
    ),
    Field::at("/publicKeyHex", "ink::request::public_key", &[SIGNATURES]),
    Field::at(
        "/checkpoint",
        "ink::checkpoint::Checkpoint::parse, ink::witness::verify_checkpoint",
        &[CHECKPOINTS, WITNESS],
    ),
    Field::at("/left", "ink::merkle::node_hash", &[WITNESS]),
    Field::at("/right", "ink::merkle::node_hash", &[WITNESS]),
    Field::at("/leafHashes", "ink::merkle::root", &[WITNESS]),
    Field::at(
        "/existingEventIds",
        "ink::witness::submit_event",
        &[WITNESS],
    ),
    Field::at(
        "/authenticatedSenderDid",
        "ink::witness::submit_event",
        &[WITNESS],
    ),
    Field::at("/previous", "ink::witness::verify_chain", &[WITNESS]),
    Field::at("/events", "ink::witness::verify_audit_response", &[WITNESS]),
    Field::at("/decision", "ink decide: which decision", &[DECIDED]),
    Field::at("/input", "ink decide: the decision's input", &[DECIDED]),
    Field::at(
        "/witnessPublicKeyHex",
        "ink::request::public_key",
        &[WITNESS],
    ),
];

/// HTTP methods as a sender may write them.
const METHODS: [&str; 9] = [
    "POST", "POST", "GET", "PUT", "DELETE", "PATCH", "OPTIONS", "post", "Get",
];

/// Request paths: INK's own, with query strings (repeated, unordered, empty), percent-escapes,
/// non-ASCII and a fragment.
const PATHS: [&str; 11] = [
    "/ink/v1/intent",
    "/ink/v1/intent",
    "/ink/v1/tulpa:z6MkgosDnsjFCTf73Ms7S4Nzwe78GD7Bzn94hTU462M4GirX/intent",
    "/ink/v1/intent?since=2026-06-11T00%3A00%3A00Z&limit=10",
    "/ink/v1/intent?b=2&a=1&a=0",
    "/ink/v1/intent?",
    "/ink/v1/agents/a%2Fb/card",
    "/ink/v1/caf%C3%A9?q=%E2%82%AC&q=%e2%82%ac",
    "/ink/v1/événement",
    "/ink/v1/intent#fragment",
    "/",
];

/// Recipients: DIDs of several methods, with ports, paths, case and non-ASCII.
const RECIPIENTS: [&str; 7] = [
    "did:web:b.example",
    "did:web:b.example",
    "did:web:b.example:agents:c",
    "did:web:b.example%3A8443",
    "did:key:z6MkgosDnsjFCTf73Ms7S4Nzwe78GD7Bzn94hTU462M4GirX",
    "did:web:B.Example",
    "did:web:bé.example",
];

/// Timestamps: INK's form, without a fraction, with a longer one, with an offset, the epoch.
const TIMESTAMPS: [&str; 6] = [
    "2026-06-11T00:00:00.000Z",
    "2026-06-11T00:00:00.000Z",
    "2026-06-11T00:00:00Z",
    "2026-06-11T00:00:00.123456Z",
    "2026-06-11T02:00:00.000+02:00",
    "1970-01-01T00:00:00.000Z",
];

/// Integers at the edge of INK's safe range, and numbers the profile reads as integers or not.
const PROFILE_NUMBERS: [&str; 12] = [
    "9007199254740991",
    "-9007199254740991",
    "9007199254740990",
    "9007199254740992",
    "-9007199254740992",
    "9007199254740993",
    "9.007199254740991e15",
    "9007199254740991.0",
    "1e2",
    "-0",
    "0.0",
    "100",
];

/// A request field as sent: drawn from `choices`, sometimes with a line break INK refuses.
fn field(rng: &mut Rng, choices: &[&str]) -> String {
    let value = rng.pick(choices).to_string();
    if rng.chance(3) {
        let (at, brk) = (rng.index(value.len() + 1), rng.pick(&["\n", "\r", "\r\n"]));
        let at = (0..=at)
            .rev()
            .find(|&i| value.is_char_boundary(i))
            .unwrap_or(0);
        format!("{}{brk}{}", &value[..at], &value[at..])
    } else {
        value
    }
}

/// A document at an edge of INK's profile, and the category it stands in: a number around
/// 2^53, or arrays nested to just below, at or past INK's 32 levels with the body around them.
fn profile_edge(rng: &mut Rng) -> (Category, String) {
    if rng.chance(8) {
        // Around INK's bound of 10,000 values (the event or body around it adds two), and
        // past its bound of 1 MiB of canonical form.
        let text = if rng.chance(85) {
            let zeros = rng.pick(&[9_997usize, 9_998, 12_000]);
            format!("[{}]", vec!["0"; zeros].join(","))
        } else {
            let length = rng.pick(&[(1 << 20) - 200, 1 << 20]);
            format!("\"{}\"", "x".repeat(length))
        };
        return (jcs_gen::STRUCTURE, text);
    }
    if rng.chance(50) {
        let n = rng.pick(&PROFILE_NUMBERS);
        let text = if rng.chance(50) {
            format!("[{n}]")
        } else {
            format!("{{\"n\":{n}}}")
        };
        (jcs_gen::NUMBERS, text)
    } else {
        let levels = rng.pick(&[15usize, 16, 30, 31, 32]);
        let inner = rng.pick(&["", "1"]);
        (
            jcs_gen::STRUCTURE,
            format!("{}{inner}{}", "[".repeat(levels), "]".repeat(levels)),
        )
    }
}

/// An inclusion proof as INK lists it, its nodes from the root down: honest, or bent as the
/// Merkle campaign bends its own, or listed from the leaf up, or with a hash in uppercase.
fn inclusion(rng: &mut Rng) -> Value {
    let (mut index, mut size, leaf, mut proof, root) = merkle_gen::inclusion(rng);
    match rng.index(10) {
        0 => index = merkle_gen::bend_number(rng, index),
        1 => size = merkle_gen::bend_number(rng, size),
        2 | 3 => merkle_gen::bend_proof(rng, &mut proof),
        4 => {}
        _ => proof.reverse(),
    }
    let hex = |h: &[u8]| crate::vector::to_hex(h);
    let mut case = json!({
        "op": "inclusion",
        "leafIndex": index,
        "treeSize": size,
        "leafHash": hex(&leaf),
        "rootHash": hex(&root),
        "proof": proof.iter().map(|h| hex(h)).collect::<Vec<_>>(),
    });
    if rng.chance(5) {
        case["rootHash"] = json!(hex(&root).to_uppercase());
    }
    case
}

/// The input for case `index` of an INK campaign with `seed`.
pub fn case(seed: u64, index: u64) -> (Category, Vec<u8>) {
    let mut rng = Rng::for_case(seed, index);
    match rng.index(100) {
        0..=11 => {
            return (
                FRESHNESS,
                times::freshness(&mut rng).to_string().into_bytes(),
            )
        }
        12..=17 => {
            let timestamp = json!({"op": "timestamp", "timestamp": times::timestamp(&mut rng)});
            return (INK_TIMESTAMPS, timestamp.to_string().into_bytes());
        }
        18..=22 => {
            let agent = json!({"op": "principal", "agentId": principals::agent_id(&mut rng)});
            return (PRINCIPALS, agent.to_string().into_bytes());
        }
        23..=27 => return (INCLUSION, inclusion(&mut rng).to_string().into_bytes()),
        28..=32 => {
            return (
                SIGNATURES,
                signed::signed(&mut rng).to_string().into_bytes(),
            )
        }
        33..=36 => {
            let body = json!({"op": "checkpoint", "checkpoint": checkpoints::body(&mut rng)});
            return (CHECKPOINTS, body.to_string().into_bytes());
        }
        37..=44 => {
            return (
                ROTATION,
                signed::rotation(&mut rng).to_string().into_bytes(),
            )
        }
        45..=54 => return (WITNESS, witnessed::case(&mut rng).to_string().into_bytes()),
        55..=79 => return (DECIDED, decided::case(&mut rng).to_string().into_bytes()),
        _ => {}
    }
    let (category, text) = if rng.chance(12) {
        profile_edge(&mut rng)
    } else {
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
        (category, String::from_utf8_lossy(&document).into_owned())
    };
    let input = if rng.chance(15) {
        json!({"op": "body", "body": text})
    } else if rng.chance(55) {
        let signature = if rng.chance(40) {
            ",\"agentSignature\":\"z3kmY29udGVudA\""
        } else {
            ""
        };
        let event = if rng.chance(5) {
            // An event that is the document itself, an object or not.
            text
        } else {
            format!("{{\"id\":\"evt-{index}\",\"payload\":{text}{signature}}}")
        };
        json!({"op": "leaf", "event": event})
    } else {
        json!({
            "op": "base",
            "method": field(&mut rng, &METHODS),
            "path": field(&mut rng, &PATHS),
            "recipientDid": field(&mut rng, &RECIPIENTS),
            "body": format!("{{\"from\":\"did:web:a.example\",\"payload\":{text}}}"),
            "timestamp": field(&mut rng, &TIMESTAMPS),
        })
    };
    (category, input.to_string().into_bytes())
}

/// Whether a request field carries a line break, which INK refuses in its signature base.
pub fn field_has_line_break(input: &[u8]) -> Result<bool, Unreadable> {
    let case = for_judgment::case(input)?;
    Ok(["method", "path", "recipientDid", "timestamp"]
        .iter()
        .any(|f| {
            case.get(*f)
                .and_then(Value::as_str)
                .is_some_and(|v| v.contains(['\n', '\r']))
        }))
}

/// Whether the event or body breaks INK's JSON profile as serde_json reads it: a number that
/// is not a safe integer (or is -0), nesting past 32, more than 10,000 values, a canonical form
/// (serde_json_canonicalizer's) past 1 MiB, or a text with a problem RFC 8785 and I-JSON refuse
/// ([`canonfuzz_props::read::problems`], not the core). The text is read at any depth the core reads.
pub fn outside_ink_profile(input: &[u8]) -> Result<bool, Unreadable> {
    let case = for_judgment::case(input)?;
    let Some(text) = case
        .get("event")
        .or(case.get("body"))
        .and_then(Value::as_str)
    else {
        return Ok(false);
    };
    if !canonfuzz_props::read::problems::read(text.as_bytes())
        .problems
        .is_empty()
    {
        return Ok(true);
    }
    let outside = for_judgment::judge(text.as_bytes(), |value| {
        let canonical = serde_json_canonicalizer::to_vec(&value).map_or(0, |c| c.len());
        if canonical > canonfuzz_core::ink::profile::MAX_CANONICAL_BYTES {
            return true;
        }
        // Each value with the number of arrays and objects it sits in, itself included.
        let level = |v: &Value, outer: usize| outer + usize::from(v.is_array() || v.is_object());
        let mut pending = vec![(&value, level(&value, 0))];
        let mut values = 0;
        while let Some((v, depth)) = pending.pop() {
            values += 1;
            if depth > canonfuzz_core::ink::profile::MAX_DEPTH
                || values > canonfuzz_core::ink::profile::MAX_NODES
            {
                return true;
            }
            match v {
                Value::Number(n) if !safe_integer(n) => return true,
                Value::Array(items) => pending.extend(items.iter().map(|i| (i, level(i, depth)))),
                Value::Object(m) => pending.extend(m.values().map(|i| (i, level(i, depth)))),
                _ => {}
            }
        }
        false
    })?;
    // A text serde_json does not read as JSON is outside the profile too.
    Ok(outside != Some(false))
}

/// Whether a number is an integer INK's profile takes: no fraction, not -0, |n| < 2^53.
fn safe_integer(n: &serde_json::Number) -> bool {
    n.as_i64().is_some_and(|i| i.unsigned_abs() < 1 << 53)
        || n.as_u64().is_some_and(|u| u < 1 << 53)
        || n.as_f64().is_some_and(|f| {
            f.fract() == 0.0 && f.abs() < 9007199254740992.0 && !(f == 0.0 && f.is_sign_negative())
        })
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
            &format!("{}{}", "[".repeat(32), "]".repeat(32)),
            &format!("{}9007199254740991{}", "[".repeat(32), "]".repeat(32)),
        ] {
            assert_eq!(outside_ink_profile(&leaf(inside)), Ok(false), "{inside}");
        }
        let deep = format!("{}1{}", "[".repeat(33), "]".repeat(33));
        let deep_and_empty = format!("{}{}", "[".repeat(33), "]".repeat(33));
        let deeper = format!("{}1{}", "[".repeat(200), "]".repeat(200));
        for outside in [
            "[1.5]",
            "[-0]",
            "[9007199254740992]",
            r#"{"$serde_json::private::RawValue":0.5}"#,
            deep.as_str(),
            deep_and_empty.as_str(),
            deeper.as_str(),
            "[01]",
        ] {
            assert_eq!(outside_ink_profile(&leaf(outside)), Ok(true), "{outside}");
        }
    }
}
