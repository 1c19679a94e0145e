//! INK's document shapes as campaign cases (decisions `handshake-message` and
//! `connection-payload`, asked through `ink decide`): handshake challenges, rejections and
//! resolutions in both namespaces, and connection requests and responses with their profile
//! snapshots — each well formed, then bent in one place: a string on its UTF-16 bound or one
//! unit past it (in ASCII, `é` or astral characters, which count two), a list on its length
//! bound or one past, a value from outside its list or of another type, a required member
//! missing, an unknown member added (which handshakes ignore and payloads refuse), a
//! timestamp with an offset or out of range, a retry delay of zero, fractional, a string or
//! past 2^53 − 1.

use canonfuzz_rng::Rng;
use serde_json::{json, Map, Value};

/// One of `values`.
fn any(rng: &mut Rng, values: &[Value]) -> Value {
    values
        .get(rng.index(values.len()))
        .cloned()
        .unwrap_or_default()
}

/// A string of `units` UTF-16 code units, in ASCII, `é` or astral characters.
fn units(rng: &mut Rng, units: usize) -> String {
    match rng.index(3) {
        0 => "a".repeat(units),
        1 => "é".repeat(units),
        _ => format!("{}{}", "😀".repeat(units / 2), "a".repeat(units % 2)),
    }
}

/// A string on `bound` UTF-16 code units or, now and then, one past it.
fn near(rng: &mut Rng, bound: usize) -> Value {
    let past = usize::from(rng.chance(30));
    json!(units(rng, bound + past))
}

/// A list of `item`-unit strings on `bound` entries or one past it.
fn listed(rng: &mut Rng, bound: usize, item: usize) -> Value {
    let past = usize::from(rng.chance(30));
    let mut items: Vec<Value> = (0..bound + past).map(|_| json!("x")).collect();
    if let Some(last) = items.last_mut() {
        *last = near(rng, item);
    }
    json!(items)
}

/// A handshake message of some kind, well formed.
fn handshake(rng: &mut Rng) -> Value {
    let namespace = rng.pick(&["network.tulpa", "network.ink"]);
    let kind = rng.pick(&["challenge", "rejection", "resolution"]);
    let mut message = json!({
        "type": format!("{namespace}.{kind}"),
        "protocol": "ink/0.1",
        "intentRef": "intent-001",
        "nonce": "n-0123456789abcdef",
        "timestamp": "2026-06-11T00:00:00Z",
    });
    match kind {
        "challenge" => {
            message["challengeType"] = json!("identity_verification");
            message["fields"] = json!(["name"]);
        }
        "rejection" => {
            message["reason"] = json!("capacity");
            message["backoffHint"] = json!({
                "retryAfterSeconds": 30,
                "cooldownUntil": "2026-06-11T00:05:00Z",
                "backoffClass": "sender",
            });
        }
        _ => {
            message["outcome"] = json!("accepted");
            message["details"] =
                json!({"scheduledAt": "2026-06-12T10:00:00Z", "duration": "PT30M"});
        }
    }
    message
}

/// A handshake message bent in one place.
fn bent_handshake(rng: &mut Rng) -> Value {
    let mut m = handshake(rng);
    let kind = m["type"].as_str().unwrap_or_default().to_string();
    match rng.index(16) {
        0 => {
            m["type"] =
                json!(rng.pick(&["network.ink.offer", "network.INK.challenge", "challenge"]))
        }
        1 => m["protocol"] = json!("ink/0.2"),
        2 => m["intentRef"] = near(rng, 256),
        3 => {
            m["nonce"] = if rng.chance(50) {
                near(rng, 256)
            } else {
                json!(7)
            }
        }
        4 => {
            m["timestamp"] = json!(rng.pick(&[
                "2026-06-11T00:00:00+00:00",
                "2026-06-11T00:00:00.5Z",
                "2026-06-11T24:00:00Z",
                "2026-06-11t00:00:00z",
            ]))
        }
        5 => m["unknownMember"] = json!({"any": "thing"}),
        6 => {
            if let Some(members) = m.as_object_mut() {
                members.remove(rng.pick(&["intentRef", "nonce", "timestamp", "protocol"]));
            }
        }
        _ if kind.ends_with("challenge") => match rng.index(4) {
            0 => m["challengeType"] = json!(rng.pick(&["None", "availability", "none"])),
            1 => m["fields"] = listed(rng, 32, 256),
            2 => m["availableWindows"] = listed(rng, 32, 64),
            _ => m["contextFields"] = listed(rng, 32, 256),
        },
        _ if kind.ends_with("rejection") => match rng.index(6) {
            0 => m["reason"] = json!(rng.pick(&["Capacity", "transport_scope_violation", "busy"])),
            1 => m["detail"] = near(rng, 500),
            2 => m["retryAfter"] = near(rng, 64),
            3 => {
                m["backoffHint"]["retryAfterSeconds"] = any(
                    rng,
                    &[
                        json!(0),
                        json!(1.5),
                        json!(30.0),
                        json!("30"),
                        json!(9_007_199_254_740_992u64),
                        json!(9_007_199_254_740_991u64),
                    ],
                )
            }
            4 => {
                m["backoffHint"]["cooldownUntil"] =
                    json!(rng.pick(&["2026-06-11T00:05:00+01:00", "soon"]))
            }
            _ => m["backoffHint"] = any(rng, &[json!({"backoffClass": "global"}), json!([])]),
        },
        _ => match rng.index(4) {
            0 => m["outcome"] = json!(rng.pick(&["Accepted", "maybe"])),
            1 => m["counterpartyDid"] = near(rng, 512),
            2 => m["details"]["scheduledAt"] = near(rng, 64),
            _ => m["details"] = json!("tomorrow"),
        },
    }
    m
}

/// A profile snapshot, well formed.
fn snapshot() -> Value {
    json!({
        "headline": "Builds agents",
        "skills": ["rust", "cryptography"],
        "interests": ["protocols"],
        "openTo": ["intros"],
        "availability": {"timezone": "Europe/Paris", "meetingHours": "9-17"},
    })
}

/// A connection payload of some kind, bent in one place or not.
fn connection(rng: &mut Rng) -> (String, Value) {
    let request = rng.chance(60);
    let mut payload = if request {
        json!({"method": "intro", "introducedBy": "did:web:c.example", "context": "Met at a workshop", "profileSnapshot": snapshot()})
    } else {
        json!({"status": "accepted", "note": "Glad to connect", "profileSnapshot": snapshot()})
    };
    let mut kind = if request {
        "connection_request"
    } else {
        "connection_response"
    };
    let snapshot = &mut payload["profileSnapshot"];
    match rng.index(20) {
        0 => kind = "connection_ping",
        1 => payload["unknownMember"] = json!(true),
        2 => snapshot["unknownMember"] = json!(true),
        3 => snapshot["availability"]["unknownMember"] = json!(true),
        4 => snapshot["headline"] = near(rng, 500),
        5 => snapshot["skills"] = listed(rng, 50, 100),
        6 => snapshot["interests"] = listed(rng, 50, 100),
        7 => snapshot["openTo"] = listed(rng, 20, 100),
        8 => {
            if let Some(availability) = snapshot["availability"].as_object_mut() {
                availability.remove("timezone");
            }
        }
        9 => snapshot["availability"]["responseSla"] = near(rng, 200),
        10 => {
            if let Some(members) = payload.as_object_mut() {
                members.remove("profileSnapshot");
            }
        }
        11 if request => payload["method"] = json!(rng.pick(&["QR", "email", "import"])),
        12 if request => payload["context"] = near(rng, 2000),
        13 if request => payload["introducedBy"] = near(rng, 512),
        11..=13 => payload["status"] = json!(rng.pick(&["Accepted", "maybe", "pending"])),
        14 if !request => payload["note"] = near(rng, 1000),
        15 => *snapshot = json!(Map::new()),
        _ => {}
    }
    (kind.to_string(), payload)
}

/// A case of one of the shape decisions.
pub fn case(rng: &mut Rng) -> Value {
    if rng.chance(50) {
        let message = if rng.chance(25) {
            handshake(rng)
        } else {
            bent_handshake(rng)
        };
        json!({"op": "decide", "decision": "handshake-message", "input": {"message": message}})
    } else {
        let (kind, payload) = connection(rng);
        json!({"op": "decide", "decision": "connection-payload", "input": {"kind": kind, "payload": payload}})
    }
}
