//! INK decisions the campaign asks through `ink decide` itself (op `decide`, which names the
//! decision and gives its input as INK's corpus writes one): seed 003's containment — a
//! token's transport scope by its version and allowed transports (absent, empty, null, a
//! string, holding a number), the handshake's challenge budget and a sender's intent rate on
//! and around their bounds, the handshake's counterparties with senders that differ from one
//! only in case, a trailing slash or a space — and its discovery gating: what each visibility,
//! and spellings that are none, discloses to a caller authenticated or holding a capability
//! (flags written `true`, `false`, `"true"`, `1` or absent), and the redacted card's six
//! members with one missing, renamed or added (`__proto__` among them); and the endpoint's
//! whole check of a signed request ([`super::transported`]), a witness's inclusion receipts
//! ([`super::receipts`]) and its audit-query responses ([`super::audits`]), and handshake
//! messages, connection payloads ([`super::shapes`]) and Agent Cards ([`super::cards`]).

use canonfuzz_rng::Rng;
use serde_json::{json, Value};

/// The members of a redacted card, as seed 003 lists them.
const REDACTED: [&str; 6] = [
    "agentId",
    "displayName",
    "supportsInk",
    "discoveryMode",
    "visibility",
    "updatedAt",
];

/// A request on some transport under a token of some version.
fn transport(rng: &mut Rng) -> Value {
    let mut token = json!({"sub": "did:web:a.example"});
    match rng.index(4) {
        0 => {}
        1 => token["tokenVersion"] = json!(2),
        2 => token["tokenVersion"] = Value::Null,
        _ => token["tokenVersion"] = json!(rng.pick(&[0, 1])),
    }
    if rng.chance(60) {
        token["allowedTransports"] = match rng.index(6) {
            0 => json!(["ink_http", "ink_ws"]),
            1 => json!([]),
            2 => json!("ink_http"),
            3 => Value::Null,
            4 => json!([1, "ink_ws"]),
            _ => json!(["ink_ws"]),
        };
    }
    let transport = rng.pick(&[
        "ink_http",
        "ink_http",
        "ink_http",
        "ink_ws",
        "INK_HTTP",
        "ink_http ",
        "",
        "ink_grpc",
    ]);
    json!({"op": "transport", "token": token, "requestTransport": transport})
}

/// A count of things sent against its bound: one below, on it, one past, or small.
fn against_bound(rng: &mut Rng) -> (u64, u64) {
    let bound = rng.pick(&[0u64, 1, 3, 5, 100]);
    let sent = match rng.index(4) {
        0 => bound.saturating_sub(1),
        1 => bound,
        2 => bound + 1,
        _ => rng.index(6) as u64,
    };
    (sent, bound)
}

/// A handshake's challenge budget.
fn budget(rng: &mut Rng) -> Value {
    let (sent, bound) = against_bound(rng);
    json!({
        "op": "challenge_budget",
        "challengesSentSoFar": sent,
        "maxChallengesPerCorrelation": bound,
    })
}

/// A sender's intents in a window.
fn rate(rng: &mut Rng) -> Value {
    let (sent, bound) = against_bound(rng);
    json!({
        "op": "sender_rate",
        "intentsSentInWindow": sent,
        "maxIntentsPerWindow": bound,
        "windowDurationSeconds": rng.pick(&[60, 3600]),
    })
}

/// A message on a handshake between two agents, from one of them or not quite.
fn counterparty(rng: &mut Rng) -> Value {
    let from = rng.pick(&[
        "did:web:a.example",
        "did:web:b.example",
        "did:web:c.example",
        "did:web:A.example",
        "did:web:b.example/",
        "did:web:b.example ",
    ]);
    json!({
        "op": "counterparty",
        "initiator": "did:web:a.example",
        "responder": "did:web:b.example",
        "from": from,
    })
}

/// A caller's flag as a request may carry it, or none.
fn flag(rng: &mut Rng) -> Option<Value> {
    match rng.index(7) {
        0 | 1 => Some(json!(true)),
        2 | 3 => Some(json!(false)),
        4 => Some(json!("true")),
        5 => Some(json!(1)),
        _ => None,
    }
}

/// A request for a card of some visibility.
fn gate(rng: &mut Rng) -> Value {
    let visibility = rng.pick(&[
        "public",
        "network_only",
        "capability_gated",
        "private",
        "Public",
        "",
        "network-only",
    ]);
    let mut input = json!({"op": "gate", "visibility": visibility});
    for name in ["authenticated", "holdsCapability"] {
        if let Some(value) = flag(rng) {
            input[name] = value;
        }
    }
    input
}

/// A redacted card, whole or with a member missing, renamed or added.
fn redacted(rng: &mut Rng) -> Value {
    let mut card = json!({
        "agentId": "did:web:a.example",
        "displayName": "Agent A",
        "supportsInk": true,
        "discoveryMode": "open",
        "visibility": "network_only",
        "updatedAt": "2026-04-01T12:00:00Z",
    });
    let name = rng.pick(&REDACTED);
    match (rng.index(8), card.as_object_mut()) {
        (0, Some(members)) => {
            members.remove(name);
        }
        (1, Some(members)) => {
            let extra = rng.pick(&["endpoint", "__proto__", "capabilities", ""]);
            members.insert(extra.to_string(), json!("https://a.example/ink"));
        }
        (2, Some(members)) => {
            let value = members.remove(name).unwrap_or_default();
            members.insert(name.to_ascii_uppercase(), value);
        }
        (3, _) => {
            card = if rng.chance(50) {
                json!([])
            } else {
                Value::Null
            }
        }
        _ => {}
    }
    json!({"op": "redacted", "card": card})
}

/// A case of one of the decisions asked through `ink decide`.
pub fn case(rng: &mut Rng) -> Value {
    match rng.index(18) {
        0..=4 => return super::transported::case(rng),
        5 | 6 => return super::receipts::case(rng),
        7 | 8 => return super::audits::case(rng),
        9 | 10 => return super::shapes::case(rng),
        11 | 12 => return super::cards::case(rng),
        13 => return super::signed::raw_rotation(rng),
        14 => return super::witnessed::claimed(rng),
        _ => {}
    }
    let (decision, input) = match rng.index(6) {
        0 => ("seed-containment", transport(rng)),
        1 => ("seed-containment", budget(rng)),
        2 => ("seed-containment", rate(rng)),
        3 => ("seed-containment", counterparty(rng)),
        4 => ("seed-discovery-gating", gate(rng)),
        _ => ("seed-discovery-gating", redacted(rng)),
    };
    json!({"op": "decide", "decision": decision, "input": input})
}
