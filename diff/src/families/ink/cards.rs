//! INK's Agent Cards as campaign cases (decision `agent-card`, asked through `ink decide`): a
//! card with its required members and, now and then, each optional section — a profile
//! snapshot, receipts and third-party audit services, signing and encryption key histories,
//! a discovery descriptor, governance, a card signature and a rotation chain — then bent in
//! one place: the endpoint (or the inbox endpoint beside it) at the edges of INK's narrow URL
//! grammar (scheme case, userinfo, fragment, percent escapes in the path and the authority,
//! IPv6 literals with and without a zone, ports 0, 65535, 65536 and empty, underscores,
//! spaces, controls and backslashes), a string on its UTF-16 bound or past it, an intent or
//! transport outside INK's lists, a discovery scope wider than the card's visibility, a key
//! entry of the wrong algorithm or with a loose timestamp, a repeated key id in a rotation
//! link, a signature a character short, a count of zero or `2.0`.

use canonfuzz_rng::Rng;
use serde_json::{json, Value};

/// Endpoint URLs, INK's grammar taking the first eight and refusing the rest.
const ENDPOINTS: [&str; 26] = [
    "https://a.example/ink/inbox",
    "https://[::1]:8443/x?y=1",
    "https://10.0.0.1",
    "https://a.example:65535",
    "https://a.example/%41%2f",
    "https://A-B.example/é",
    "https://a.example?q=1",
    "https://a.example:00080/x",
    "http://a.example",
    "HTTPS://a.example",
    "https://u@a.example",
    "https://a.example#f",
    "https://",
    "https://a.example:0",
    "https://a.example:65536",
    "https://a.example:",
    "https://a\\b.example",
    "https://a.example/%zz",
    "https://%61.example",
    "https://[fe80::1%25eth0]",
    "https://[::1]x",
    "https://a_b.example",
    "https://a.example/ x",
    "https://a.example/\u{7f}",
    "https://a.example:99999999999",
    "https://a.example\n",
];

/// A string of `units` UTF-16 code units, ASCII or astral.
fn units(rng: &mut Rng, units: usize) -> String {
    if rng.chance(50) {
        "a".repeat(units)
    } else {
        format!("{}{}", "😀".repeat(units / 2), "a".repeat(units % 2))
    }
}

/// A key history entry of `algorithm`.
fn key_entry(id: &str, algorithm: &str) -> Value {
    json!({
        "keyId": id,
        "algorithm": algorithm,
        "publicKeyMultibase": "z6MkgosDnsjFCTf73Ms7S4Nzwe78GD7Bzn94hTU462M4GirX",
        "status": "active",
        "validFrom": "2026-01-01T00:00:00Z",
    })
}

/// A signature's 86 base64url characters.
const SIGNATURE: &str =
    "ZXhhbXBsZS1iYXNlNjR1cmwtc2lnbmF0dXJlLWV4YWN0bHktODYtY2hhcmFjdGVycy1sb25nLWVuY29kZWQtcw";

/// A well-formed card, its optional sections present or not.
fn card(rng: &mut Rng) -> Value {
    let mut card = json!({
        "protocol": "ink/0.1",
        "agentId": "did:web:a.example",
        "handle": "alice",
        "displayName": "Alice",
        "endpoint": "https://a.example/ink/inbox",
        "publicKeyMultibase": "z6MkgosDnsjFCTf73Ms7S4Nzwe78GD7Bzn94hTU462M4GirX",
        "capabilities": {"intentsAccepted": ["ping", "ask"], "intentsSent": ["ask_response"]},
        "availability": {"timezone": "Europe/Paris"},
        "unlistedMember": "ignored",
    });
    if rng.chance(50) {
        card["inboxEndpoint"] = card["endpoint"].clone();
    }
    if rng.chance(30) {
        card["profileSnapshot"] =
            json!({"headline": "Builds agents", "skills": [], "interests": [], "openTo": []});
    }
    if rng.chance(40) {
        card["capabilities"]["receipts"] =
            json!({"send": true, "dispositions": ["received", "acted"]});
        card["capabilities"]["auditExchange"] = json!(false);
        card["capabilities"]["thirdPartyAudit"] = json!({
            "services": [{"endpoint": "https://w.example/audit", "did": "did:web:w.example", "publicKey": "z6Mk"}],
            "submitPolicy": "high_value",
        });
    }
    if rng.chance(40) {
        card["keys"] = json!({
            "signing": [key_entry("sig-1", "Ed25519")],
            "encryption": [key_entry("enc-1", "X25519")],
        });
        card["currentSigningKeyId"] = json!("sig-1");
        card["keySetVersion"] = json!(2);
    }
    if rng.chance(40) {
        card["visibility"] = json!("network_only");
        card["discovery"] = json!({"enabled": true, "scope": "capability_gated", "tags": ["rust"], "queryable": true, "updatedAt": "2026-06-01T00:00:00Z"});
    }
    if rng.chance(30) {
        card["governance"] = json!({
            "maxAcceptedDelegationDepth": 2,
            "supportedTransports": ["ink_http", "voice"],
            "supportsCapabilityGatedDiscovery": true,
            "handshakeBudget": {"maxChallengesPerCorrelation": 3, "maxIntentsPerMinute": 10},
        });
    }
    if rng.chance(30) {
        card["cardSignature"] = json!({"keyId": "sig-1", "signature": SIGNATURE});
        card["rotationChain"] = json!([{
            "keySetVersion": 2,
            "signing": [{"keyId": "sig-1", "publicKeyMultibase": "z6Mk", "status": "active"}],
            "prevKeyId": "sig-0",
            "signature": SIGNATURE,
        }]);
    }
    if rng.chance(20) {
        card["supportedProtocolVersions"] = json!(["ink/0.1"]);
        card["updatedAt"] = json!("2026-06-01T00:00:00+02:00");
    }
    card
}

/// A card bent in one place.
fn bent(rng: &mut Rng, mut c: Value) -> Value {
    let long = |rng: &mut Rng, bound: usize| {
        let past = usize::from(rng.chance(50));
        json!(units(rng, bound + past))
    };
    match rng.index(24) {
        0..=5 => c["endpoint"] = json!(rng.pick(&ENDPOINTS)),
        6 => c["inboxEndpoint"] = json!(rng.pick(&ENDPOINTS[..8])),
        7 => c["protocol"] = json!("ink/0.2"),
        8 => c["handle"] = long(rng, 256),
        9 => c["displayName"] = long(rng, 200),
        10 => c["publicKeyMultibase"] = json!(rng.pick(&["u6Mk", "z", ""])),
        11 => c["capabilities"]["intentsAccepted"] = json!(["ping", "wave"]),
        12 => {
            if let Some(members) = c.as_object_mut() {
                members.remove(rng.pick(&["availability", "capabilities", "agentId", "handle"]));
            }
        }
        13 => {
            c["visibility"] = json!(rng.pick(&["private", "public", "hidden"]));
            c["discovery"] = json!({"enabled": true, "scope": rng.pick(&["public", "network_only", "private", "everyone"])});
        }
        14 => {
            c["discovery"] = json!({"enabled": "yes", "scope": "public", "tags": [long(rng, 64)]})
        }
        15 => {
            c["keys"] = json!({
                "signing": [key_entry("sig-1", rng.pick(&["X25519", "EdDSA", "Ed25519"]))],
                "encryption": [],
            })
        }
        16 => {
            let mut entry = key_entry("sig-1", "Ed25519");
            entry["validFrom"] = json!(rng.pick(&[
                "2026-01-01",
                "2026-01-01T00:00:00+01:00",
                "2026-01-01t00:00:00z"
            ]));
            c["keys"] = json!({"signing": [entry], "encryption": []});
        }
        17 => c["keySetVersion"] = json!(rng.pick(&[0.0, 2.0, 2.5, -1.0])),
        18 => {
            c["governance"] = json!({
                "supportedTransports": [rng.pick(&["ink_http", "smtp", "INK_HTTP"])],
                "handshakeBudget": {"maxIntentsPerMinute": rng.pick(&[0, 1, 60])},
            })
        }
        19 => {
            c["cardSignature"] = json!({
                "keyId": long(rng, 128),
                "signature": SIGNATURE.get(..85 + rng.index(2)).unwrap_or_default(),
            })
        }
        20 => {
            c["rotationChain"] = json!([{
                "keySetVersion": 1,
                "signing": [
                    {"keyId": "sig-1", "publicKeyMultibase": "z6Mk", "status": "active"},
                    {"keyId": rng.pick(&["sig-1", "sig-2"]), "publicKeyMultibase": "z6Mk", "status": "retired"},
                ],
                "prevKeyId": "sig-0",
                "signature": SIGNATURE,
            }])
        }
        21 => c["supportedProtocolVersions"] = json!([long(rng, 16)]),
        22 => c["availability"]["meetingHours"] = long(rng, 200),
        _ => c["updatedAt"] = json!(rng.pick(&["2026-06-01", "2026-06-01T00:00:00Z"])),
    }
    c
}

/// A card, well formed or bent, as `ink decide agent-card` takes it.
pub fn case(rng: &mut Rng) -> Value {
    let card = card(rng);
    let card = if rng.chance(20) {
        card
    } else {
        bent(rng, card)
    };
    json!({"op": "decide", "decision": "agent-card", "input": {"card": card}})
}
