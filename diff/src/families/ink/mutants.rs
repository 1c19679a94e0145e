//! INK mutants: the timestamp or the recipient left out of a request's signature base, the
//! method or path normalized before it goes in, the leaf prefix left out of an event's hash,
//! INK's largest safe integer refused, the future-skew bound a second too long, and in key
//! rotation the hint ignored, a retired key taken for live authentication, and a revocation
//! written null or empty passed over; of the witness, a chain left unchecked and the audit
//! response's domain left out; a token's transport scope left unchecked; and a request's
//! nested actor left unchecked; an inclusion receipt's proof unwalked and its later checkpoint
//! ignored; an audit-query response's events left unscoped; a connection payload's unknown
//! members ignored; and an Agent Card's endpoint read as any https URL.

use canonfuzz_core::ink::{profile, time};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

use super::impls as computations;
use crate::mutants::{with_member, without_member, Mutant};
use crate::outcome::Outcome;
use crate::vector::to_hex;

fn core(input: &[u8]) -> Outcome {
    (computations::core().answer)(input)
}

/// The core's answer to the case with its string member `name` rewritten by `rewrite`.
fn rewritten(input: &[u8], name: &str, rewrite: fn(&str) -> String) -> Outcome {
    let field = serde_json::from_slice::<Value>(input)
        .ok()
        .and_then(|case| case.get(name)?.as_str().map(rewrite));
    match field.and_then(|value| with_member(input, name, value.into())) {
        Some(changed) => core(&changed),
        None => core(input),
    }
}

/// INK's largest safe integer, 2^53 - 1.
const MAX_SAFE: u64 = (1 << 53) - 1;

/// Whether the event or body holds a number whose magnitude is exactly 2^53 - 1.
fn holds_largest_safe_integer(input: &[u8]) -> bool {
    let Ok(case) = serde_json::from_slice::<Value>(input) else {
        return false;
    };
    let text = case
        .get("event")
        .or(case.get("body"))
        .and_then(Value::as_str);
    let Some(Ok(value)) = text.map(serde_json::from_str::<Value>) else {
        return false;
    };
    let mut pending = vec![&value];
    while let Some(v) = pending.pop() {
        match v {
            Value::Number(n) => {
                let largest = n.as_u64() == Some(MAX_SAFE)
                    || n.as_i64().map(i64::unsigned_abs) == Some(MAX_SAFE)
                    || n.as_f64().map(f64::abs) == Some(MAX_SAFE as f64);
                if largest {
                    return true;
                }
            }
            Value::Array(items) => pending.extend(items),
            Value::Object(members) => pending.extend(members.values()),
            _ => {}
        }
    }
    false
}

/// How far a freshness case's message is ahead of the receiver's clock, in milliseconds, and
/// whether its nonce was seen; `None` for another case or a timestamp the core does not read.
fn ahead_and_seen(input: &[u8]) -> Option<(i64, bool)> {
    let case: Value = serde_json::from_slice(input).ok()?;
    let instant = |name: &str| time::parse(case.get(name)?.as_str()?).ok();
    let nonce = case.get("nonce")?;
    let seen = case
        .get("previouslySeenNonces")?
        .as_array()?
        .contains(nonce);
    Some((
        instant("messageTimestamp")? - instant("receiverClock")?,
        seen,
    ))
}

/// The core's answer to a key rotation case whose entries' `revokedAt` members that are null
/// or empty are taken away, as a reader that tests the member's truth rather than its presence
/// would take them.
fn falsy_revocations_ignored(input: &[u8]) -> Outcome {
    let keys = serde_json::from_slice::<Value>(input)
        .ok()
        .and_then(|case| case.get("keys").cloned());
    let Some(Value::Array(mut keys)) = keys else {
        return core(input);
    };
    for entry in keys.iter_mut().filter_map(Value::as_object_mut) {
        let falsy = match entry.get("revokedAt") {
            Some(Value::Null) => true,
            Some(Value::String(at)) => at.is_empty(),
            _ => false,
        };
        if falsy {
            entry.remove("revokedAt");
        }
    }
    match with_member(input, "keys", Value::Array(keys)) {
        Some(changed) => core(&changed),
        None => core(input),
    }
}

/// The op of an INK case.
fn op(input: &[u8]) -> Option<String> {
    let case: Value = serde_json::from_slice(input).ok()?;
    Some(case.get("op")?.as_str()?.to_string())
}

/// The core's answer to a case of `decision`, a refusal at `step` taken as an acceptance:
/// what a verifier that leaves the step out answers wherever no later step refuses.
fn step_skipped(input: &[u8], decision: &str, step: &str) -> Outcome {
    let asked =
        serde_json::from_slice::<Value>(input).is_ok_and(|case| case["decision"] == decision);
    match core(input) {
        Outcome::Rejected(kind) if asked && kind == step => Outcome::Ok(b"valid".to_vec()),
        answer => answer,
    }
}

/// The core's answer to a connection payload case with the members INK does not list taken
/// away, at the top, in the profile snapshot and in its availability: a reader that ignores
/// unknown members, as handshake messages may, where payloads must refuse them.
fn unknown_members_dropped(input: &[u8]) -> Outcome {
    let Ok(mut case) = serde_json::from_slice::<Value>(input) else {
        return core(input);
    };
    if case["decision"] != "connection-payload" {
        return core(input);
    }
    let keep = |value: Option<&mut Value>, listed: &[&str]| {
        if let Some(members) = value.and_then(Value::as_object_mut) {
            members.retain(|name, _| listed.contains(&name.as_str()));
        }
    };
    let payload = case.pointer_mut("/input/payload");
    keep(
        payload,
        &[
            "method",
            "introducedBy",
            "context",
            "profileSnapshot",
            "status",
            "note",
        ],
    );
    keep(
        case.pointer_mut("/input/payload/profileSnapshot"),
        &["headline", "skills", "interests", "openTo", "availability"],
    );
    keep(
        case.pointer_mut("/input/payload/profileSnapshot/availability"),
        &["timezone", "meetingHours", "responseSla"],
    );
    core(case.to_string().as_bytes())
}

/// The core's answer to an Agent Card case whose endpoints, when they start with `https://`,
/// are read as a well-formed one: a reader that takes any https URL for an endpoint.
fn any_https_endpoint(input: &[u8]) -> Outcome {
    let Ok(mut case) = serde_json::from_slice::<Value>(input) else {
        return core(input);
    };
    if case["decision"] != "agent-card" {
        return core(input);
    }
    for name in ["endpoint", "inboxEndpoint"] {
        if let Some(url) = case.pointer_mut(&format!("/input/card/{name}")) {
            if url.as_str().is_some_and(|u| u.starts_with("https://")) {
                *url = json!("https://a.example/ink/inbox");
            }
        }
    }
    core(case.to_string().as_bytes())
}

/// The core's answer to a raw-message key rotation case whose message is trimmed of
/// surrounding whitespace and byte-order marks first: a reader that tidies what was signed.
fn raw_message_trimmed(input: &[u8]) -> Outcome {
    let Ok(mut case) = serde_json::from_slice::<Value>(input) else {
        return core(input);
    };
    if case["decision"] != "seed-key-rotation" {
        return core(input);
    }
    if let Some(message) = case.pointer_mut("/input/message") {
        let trimmed = message
            .as_str()
            .unwrap_or_default()
            .trim_matches(|c: char| c.is_whitespace() || c == '\u{feff}')
            .to_string();
        *message = json!(trimmed);
    }
    core(case.to_string().as_bytes())
}

/// The core's answer to a witness leaf case with its claimed canonical form dropped: a
/// witness that logs an event without checking the form its sender says it signed.
fn claimed_canonical_unchecked(input: &[u8]) -> Outcome {
    let Ok(mut case) = serde_json::from_slice::<Value>(input) else {
        return core(input);
    };
    if case["decision"] != "seed-witness" {
        return core(input);
    }
    if let Some(Value::Object(members)) = case.get_mut("input") {
        members.remove("claimedCanonical");
    }
    core(case.to_string().as_bytes())
}

/// Every INK mutant.
pub const MUTANTS: [Mutant; 22] = [
    Mutant {
        family: super::FAMILY,
        name: "timestamp-left-out",
        bug: "the request's timestamp left out of its signature base",
        answer: |input| without_member(input, "timestamp", core),
    },
    Mutant {
        family: super::FAMILY,
        name: "recipient-left-out",
        bug: "the recipient's DID left out of a request's signature base",
        answer: |input| without_member(input, "recipientDid", core),
    },
    Mutant {
        family: super::FAMILY,
        name: "method-uppercased",
        bug: "the HTTP method uppercased before it goes into the signature base",
        answer: |input| rewritten(input, "method", str::to_ascii_uppercase),
    },
    Mutant {
        family: super::FAMILY,
        name: "query-dropped",
        bug: "the query string dropped from the path in the signature base",
        answer: |input| {
            rewritten(input, "path", |path| {
                path.split('?').next().unwrap_or_default().to_string()
            })
        },
    },
    Mutant {
        family: super::FAMILY,
        name: "leaf-prefix-left-out",
        bug: "an event's leaf hash taken without RFC 9162's 0x00 leaf prefix",
        answer: |input| {
            let case: Value = serde_json::from_slice(input).unwrap_or_default();
            match (case["op"].as_str(), case["event"].as_str(), core(input)) {
                (Some("leaf"), Some(event), Outcome::Ok(_)) => {
                    match profile::canonical_body(event.as_bytes()) {
                        Ok(body) => Outcome::Ok(to_hex(&Sha256::digest(body)).into_bytes()),
                        Err(e) => Outcome::Rejected(e.kind.to_string()),
                    }
                }
                (_, _, answer) => answer,
            }
        },
    },
    Mutant {
        family: super::FAMILY,
        name: "largest-safe-integer-refused",
        bug: "2^53 - 1, INK's largest safe integer, refused as a number past the profile (a bound checked with < where INK says <=)",
        answer: |input| match core(input) {
            Outcome::Ok(_) if holds_largest_safe_integer(input) => {
                Outcome::Rejected("number".to_string())
            }
            answer => answer,
        },
    },
    Mutant {
        family: super::FAMILY,
        name: "shallow-body-reader",
        bug: "an event or body read with a nesting limit of 16, half INK's 32",
        answer: |input| {
            let deep = serde_json::from_slice::<Value>(input).ok().is_some_and(|case| {
                case.get("event")
                    .or(case.get("body"))
                    .and_then(Value::as_str)
                    .is_some_and(|text| canonfuzz_props::read::for_judgment::nesting(text.as_bytes()) > 16)
            });
            match core(input) {
                Outcome::Ok(_) if deep => Outcome::Rejected("json".to_string()),
                answer => answer,
            }
        },
    },
    Mutant {
        family: super::FAMILY,
        name: "future-skew-a-second-long",
        bug: "a message up to 31 seconds ahead of the receiver's clock taken as fresh: the future-skew bound off by one second",
        answer: |input| match (core(input), ahead_and_seen(input)) {
            (Outcome::Rejected(kind), Some((ahead, seen))) if kind == "future" && ahead <= 31_000 => {
                if seen {
                    Outcome::Rejected("replay".to_string())
                } else {
                    Outcome::Ok(b"valid".to_vec())
                }
            }
            (answer, _) => answer,
        },
    },
    Mutant {
        family: super::FAMILY,
        name: "key-hint-ignored",
        bug: "a request's key id hint ignored, so the first active entry that verifies answers where the hinted one should",
        answer: |input| without_member(input, "hintKeyId", core),
    },
    Mutant {
        family: super::FAMILY,
        name: "retired-key-live",
        bug: "live authentication taking a retired key outside any grace window",
        answer: |input| without_member(input, "liveAuth", core),
    },
    Mutant {
        family: super::FAMILY,
        name: "falsy-revocation-ignored",
        bug: "a key history entry whose revokedAt is null or empty taken as unrevoked",
        answer: falsy_revocations_ignored,
    },
    Mutant {
        family: super::FAMILY,
        name: "chain-unchecked",
        bug: "a witness checkpoint taken as chained once its signature verifies, whatever previousCheckpointHash it names",
        answer: |input| match (op(input).as_deref(), core(input)) {
            (Some("chain"), Outcome::Rejected(kind)) if kind == "chain" => {
                Outcome::Ok(b"valid".to_vec())
            }
            (_, answer) => answer,
        },
    },
    Mutant {
        family: super::FAMILY,
        name: "audit-domain-left-out",
        bug: "a witness's audit response verified over JCS(events) without the ink/audit-response domain line",
        answer: |input| {
            let events = serde_json::from_slice::<Value>(input)
                .ok()
                .filter(|case| case["op"] == "audit-response")
                .and_then(|case| case.get("events").cloned());
            let unprefixed = events.and_then(|events| {
                let as_checkpoint = with_member(input, "op", "witness-checkpoint".into())?;
                with_member(&as_checkpoint, "checkpoint", events)
            });
            core(unprefixed.as_deref().unwrap_or(input))
        },
    },
    Mutant {
        family: super::FAMILY,
        name: "transport-scope-unchecked",
        bug: "every token taken as a legacy one, permitted on every transport, its version and allowed transports unread",
        answer: |input| match core(input) {
            Outcome::Rejected(kind) if kind == "transport_scope_violation" => {
                Outcome::Ok(b"valid".to_vec())
            }
            answer => answer,
        },
    },
    Mutant {
        family: super::FAMILY,
        name: "nested-actor-unchecked",
        bug: "a signed request accepted whatever actor its payload claims, the sender cross-check left out",
        answer: |input| {
            let case: Value = serde_json::from_slice(input).unwrap_or_default();
            match core(input) {
                Outcome::Rejected(kind) if kind == "sender_mismatch" && case["decision"] == "seed-transport-auth" => {
                    let sender = json!({"sender": case["input"]["body"]["from"]});
                    Outcome::Ok(sender.to_string().into_bytes())
                }
                answer => answer,
            }
        },
    },
    Mutant {
        family: super::FAMILY,
        name: "receipt-proof-unchecked",
        bug: "an inclusion receipt accepted once its witness signature verifies, its proof never walked to the root",
        answer: |input| step_skipped(input, "inclusion-receipt", "proof"),
    },
    Mutant {
        family: super::FAMILY,
        name: "later-checkpoint-ignored",
        bug: "an inclusion receipt accepted against a later checkpoint that rewinds or forks the log",
        answer: |input| step_skipped(input, "inclusion-receipt", "checkpoint"),
    },
    Mutant {
        family: super::FAMILY,
        name: "audit-scope-unchecked",
        bug: "an audit-query response accepted with events about another message or not involving the requester",
        answer: |input| step_skipped(input, "audit-query-response", "scope"),
    },
    Mutant {
        family: super::FAMILY,
        name: "payload-unknown-members-ignored",
        bug: "a connection payload's unknown members ignored, as a handshake message's are, where INK refuses them",
        answer: unknown_members_dropped,
    },
    Mutant {
        family: super::FAMILY,
        name: "any-https-endpoint",
        bug: "an Agent Card's endpoint taken whatever follows https:// (userinfo, fragments, bad ports and escapes), as a lax URL reader takes it",
        answer: any_https_endpoint,
    },
    Mutant {
        family: super::FAMILY,
        name: "raw-message-trimmed",
        bug: "a raw message trimmed of surrounding whitespace and byte-order marks before its signature is checked against the key history",
        answer: raw_message_trimmed,
    },
    Mutant {
        family: super::FAMILY,
        name: "claimed-canonical-unchecked",
        bug: "an event's claimed canonical form not checked against its RFC 8785 form before the witness logs its leaf",
        answer: claimed_canonical_unchecked,
    },
];
