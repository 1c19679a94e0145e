//! INK's conformance corpus (`ink.conformance.v1`), read and run as INK publishes it: one file
//! per category, each case an input, the decision INK takes (`accept` or `reject`) and, for
//! some categories, what an accepting decision yields (a canonical principal, string, epoch
//! milliseconds or leaf hash). Each category maps to one decision of `canonfuzz_core::ink`.

use canonfuzz_core::ink::{
    audit, card, checkpoint::Checkpoint, containment, discovery, merkle, principal, profile,
    receipt, replay, request, schema, time, transport, witness, InkError,
};
use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{json, Map, Value};

use crate::family::PublishedFile;

/// The schema name the manifest gives INK's vector files.
pub const INK_SCHEMA: &str = "ink.conformance.v1";

/// The categories this runner decides.
pub const CATEGORIES: [&str; 16] = [
    "agent-card",
    "audit-query-response",
    "connection-payload",
    "handshake-message",
    "inclusion-receipt",
    "jcs-number",
    "jcs-string-safety",
    "key-rotation",
    "merkle-checkpoint",
    "merkle-consistency",
    "merkle-inclusion",
    "merkle-leaf",
    "principal-normalization",
    "replay-freshness",
    "signature-base",
    "timestamp-validity",
];

/// Every decision [`decide`] takes, with the members its input has (INK's own field names, as
/// INK's corpus writes a case's `input`): INK's categories, then the seed's (`seed-*`, where
/// `op` picks the decision).
pub const DECISIONS: [(&str, &str); 22] = [
    ("agent-card", "an agent card is well formed: {card}"),
    ("audit-query-response", "a witness's audit response: {response, witnessPublicKeyHex, expectedMessageId, expectedRequester, expectedServiceDid?, agentKeysHex: {did: hex}, laterCheckpoint?}"),
    ("connection-payload", "a connection payload of a kind: {kind, payload}"),
    ("handshake-message", "a handshake message: {message}"),
    ("inclusion-receipt", "a witness's inclusion receipt: {receipt, witnessPublicKeyHex, event?, eventHash?, laterCheckpoint?}"),
    ("jcs-number", "INK's JSON profile and canonical form of a body: {bodyRaw}"),
    ("jcs-string-safety", "the same for strings: {bodyRaw}"),
    ("key-rotation", "a request signed under a key history: {signInput: {method, path, recipientDid, body, timestamp}, signature, keys: [entries], hintKeyId?, liveAuth?, liveAuthAllowRetired?}"),
    ("merkle-checkpoint", "a C2SP checkpoint body: {body}"),
    ("merkle-consistency", "a consistency proof: {first, second, firstRoot, secondRoot, proof}"),
    ("merkle-inclusion", "an inclusion proof, nodes from the root down: {leafIndex, treeSize, leafHash, rootHash, proof}"),
    ("merkle-leaf", "an audit event's leaf hash: {eventRaw}"),
    ("principal-normalization", "an agent id's canonical principal: {agentId}"),
    ("replay-freshness", "freshness and replay: {replay: {messageTimestamp, receiverClock, nonce, previouslySeenNonces}}"),
    ("signature-base", "a request's signature over its base: {signInput: {method, path, recipientDid, body, timestamp}, signature, publicKeyHex}"),
    ("timestamp-validity", "an INK timestamp, as epoch milliseconds: {timestamp}"),
    ("seed-transport-auth", "op base: the signature base {method, path, recipientDid, body, timestamp}; op request: {.., authorization?, keysOwner, keys}"),
    ("seed-containment", "op transport {token, requestTransport}, challenge_budget, sender_rate, counterparty {initiator, responder, from}"),
    ("seed-key-rotation", "a raw message under a key history: {message, signature, messageTimestamp, keyHistory: [entries]}"),
    ("seed-discovery-gating", "op gate {visibility, authenticated, holdsCapability}, redacted {card}"),
    ("seed-witness", "op leaf {event, claimedCanonical?}, node {left, right}, root {leafHashes}, checkpoint or chain {checkpoint, signature, witnessPublicKeyHex, previous?}, submit {event, existingEventIds, authenticatedSenderDid}"),
    ("seed-audit-response", "a witness's signature over an events array: {events, signature, witnessPublicKeyHex}"),
];

/// One INK vector file.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct InkVectors {
    /// `ink.conformance.v1`.
    pub format: String,
    /// The category, which names the decision.
    pub category: String,
    /// The cases.
    pub cases: Vec<InkCase>,
}

/// One published case.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct InkCase {
    /// The case's id.
    pub case_id: String,
    /// Why the case decides as it does.
    pub description: String,
    /// The decision's input, as written (it may hold strings a JSON parser would refuse).
    pub input: Box<RawValue>,
    /// `result` (`accept` or `reject`) and what an acceptance yields.
    pub expect: Map<String, Value>,
}

fn text<'a>(input: &'a Value, name: &str) -> Result<&'a str, String> {
    input
        .get(name)
        .and_then(Value::as_str)
        .ok_or_else(|| format!("the input has no string {name:?}"))
}

fn size(input: &Value, name: &str) -> Result<u64, String> {
    input
        .get(name)
        .and_then(Value::as_u64)
        .ok_or_else(|| format!("the input has no size {name:?}"))
}

fn hashes(input: &Value, name: &str) -> Result<Result<Vec<merkle::Hash>, String>, String> {
    let list = input
        .get(name)
        .and_then(Value::as_array)
        .ok_or_else(|| format!("the input has no list {name:?}"))?;
    Ok(list
        .iter()
        .map(|h| {
            h.as_str()
                .ok_or_else(|| "a proof node is not a string".to_string())
                .and_then(|h| merkle::parse_hash(h, "a proof node").map_err(|e| e.to_string()))
        })
        .collect())
}

/// A case's signature base, signature and message timestamp.
struct Signed {
    base: Vec<u8>,
    signature: String,
    timestamp: String,
}

/// The signature base of a case's `signInput`, with the signature.
fn signed(input: &Value) -> Result<Result<Signed, InkError>, String> {
    let s = input.get("signInput").ok_or("the input has no signInput")?;
    let body = s
        .get("body")
        .ok_or("the signInput has no body")?
        .to_string();
    let timestamp = text(s, "timestamp")?.to_string();
    let base = request::signature_base(&request::SignInput {
        method: text(s, "method")?,
        path: text(s, "path")?,
        recipient_did: text(s, "recipientDid")?,
        body: body.as_bytes(),
        timestamp: &timestamp,
    });
    Ok(base.map(|base| Signed {
        base,
        signature: text(input, "signature").unwrap_or_default().to_string(),
        timestamp,
    }))
}

/// The decision on an inclusion-receipt case, its members read as written.
fn receipt_case(raw: &str) -> Result<Result<Map<String, Value>, InkError>, String> {
    let fields: BTreeMap<String, Box<RawValue>> =
        serde_json::from_str(raw).map_err(|e| format!("the input is not an object: {e}"))?;
    let text_of = |name: &str| fields.get(name).map(|v| v.get());
    let decoded = |name: &str| -> Option<String> { serde_json::from_str(text_of(name)?).ok() };
    let key = request::public_key(&decoded("witnessPublicKeyHex").unwrap_or_default());
    let hash = decoded("eventHash");
    let checks = receipt::ReceiptChecks {
        event: text_of("event"),
        event_hash: hash.as_deref(),
        later_checkpoint: text_of("laterCheckpoint"),
    };
    Ok(key.and_then(|key| {
        receipt::verify_receipt(text_of("receipt").unwrap_or("null"), &key, &checks)
            .map(|()| Map::new())
    }))
}

/// The decision on an audit-query-response case.
fn audit_case(raw: &str) -> Result<Result<Map<String, Value>, InkError>, String> {
    let fields: BTreeMap<String, Box<RawValue>> =
        serde_json::from_str(raw).map_err(|e| format!("the input is not an object: {e}"))?;
    let text_of = |name: &str| fields.get(name).map(|v| v.get());
    let decoded = |name: &str| -> Option<String> { serde_json::from_str(text_of(name)?).ok() };
    let agents: BTreeMap<String, String> = text_of("agentKeysHex")
        .and_then(|t| serde_json::from_str(t).ok())
        .unwrap_or_default();
    let mut agent_keys = BTreeMap::new();
    for (did, hex) in agents {
        if let Ok(key) = request::public_key(&hex) {
            agent_keys.insert(did, key);
        }
    }
    let (message_id, requester, service_did) = (
        decoded("expectedMessageId").unwrap_or_default(),
        decoded("expectedRequester").unwrap_or_default(),
        decoded("expectedServiceDid"),
    );
    Ok(
        request::public_key(&decoded("witnessPublicKeyHex").unwrap_or_default()).and_then(|key| {
            audit::verify_response(
                text_of("response").unwrap_or("null"),
                &audit::Expectations {
                    witness_key: key,
                    message_id: &message_id,
                    requester: &requester,
                    service_did: service_did.as_deref(),
                    agent_keys: &agent_keys,
                    later_checkpoint: text_of("laterCheckpoint"),
                },
            )
            .map(|()| Map::new())
        }),
    )
}

/// Decisions for seed 003's illustrative cases, made real in INK's format (`seed-*` categories).
fn seed_case(
    category: &str,
    input: &Value,
) -> Result<Result<Map<String, Value>, InkError>, String> {
    let op = input.get("op").and_then(Value::as_str).unwrap_or_default();
    let number = |name: &str| input.get(name).and_then(Value::as_u64).unwrap_or_default();
    let key = |name: &str| request::public_key(text(input, name).unwrap_or_default());
    let raw = |name: &str| input.get(name).map(Value::to_string).unwrap_or_default();
    let none = |r: Result<(), InkError>| r.map(|()| Map::new());
    Ok(match (category, op) {
        ("seed-transport-auth", "base") => request::signature_base(&request::SignInput {
            method: text(input, "method")?,
            path: text(input, "path")?,
            recipient_did: text(input, "recipientDid")?,
            body: raw("body").as_bytes(),
            timestamp: text(input, "timestamp")?,
        })
        .map(|b| {
            let mut m = Map::new();
            m.insert("signatureBase".into(), json!(String::from_utf8_lossy(&b)));
            m
        }),
        ("seed-transport-auth", "request") => {
            let mut directory = Map::new();
            directory.insert(
                text(input, "keysOwner")?.to_string(),
                input.get("keys").cloned().unwrap_or(Value::Null),
            );
            let body = raw("body");
            transport::verify_request(&transport::Request {
                method: text(input, "method")?,
                path: text(input, "path")?,
                recipient_did: text(input, "recipientDid")?,
                body: body.as_bytes(),
                authorization: input.get("authorization").and_then(Value::as_str),
                keys: &directory,
                allow_retired: false,
                now: None,
            })
            .map(|a| {
                let mut m = Map::new();
                m.insert("sender".into(), json!(a.sender));
                m
            })
        }
        ("seed-containment", "transport") => none(containment::transport_scope(
            input.get("token").unwrap_or(&Value::Null),
            text(input, "requestTransport")?,
        )),
        ("seed-containment", "challenge_budget") => none(containment::challenge_budget(
            number("challengesSentSoFar"),
            number("maxChallengesPerCorrelation"),
        )),
        ("seed-containment", "sender_rate") => none(containment::sender_rate(
            number("intentsSentInWindow"),
            number("maxIntentsPerWindow"),
            number("windowDurationSeconds"),
        )),
        ("seed-containment", "counterparty") => none(containment::counterparty(
            text(input, "initiator")?,
            text(input, "responder")?,
            text(input, "from")?,
        )),
        ("seed-key-rotation", _) => {
            let keys = input
                .get("keyHistory")
                .and_then(Value::as_array)
                .map(Vec::as_slice)
                .unwrap_or_default();
            request::verify_with_history(
                text(input, "message")?.as_bytes(),
                text(input, "signature")?,
                text(input, "messageTimestamp")?,
                keys,
                None,
            )
            .map(|found| {
                let mut m = Map::new();
                m.insert("usedRetiredKey".into(), json!(found.status == "retired"));
                m.insert("keyId".into(), json!(found.key_id));
                m.insert("keyStatus".into(), json!(found.status));
                m
            })
        }
        ("seed-discovery-gating", "gate") => discovery::gate(
            text(input, "visibility")?,
            input.get("authenticated") == Some(&Value::Bool(true)),
            input.get("holdsCapability") == Some(&Value::Bool(true)),
        )
        .map(|d| {
            let mut m = Map::new();
            m.insert("disclosure".into(), json!(d.name()));
            m.insert("httpStatus".into(), json!(d.http_status()));
            m
        }),
        ("seed-discovery-gating", "redacted") => none(discovery::check_redacted(
            input.get("card").unwrap_or(&Value::Null),
        )),
        ("seed-witness", "leaf") => {
            let event = raw("event");
            profile::canonical_body(event.as_bytes()).and_then(|canonical| {
                let canonical = String::from_utf8_lossy(&canonical).into_owned();
                if let Some(claimed) = input.get("claimedCanonical").and_then(Value::as_str) {
                    if claimed != canonical {
                        return Err(InkError {
                            kind: "canonical_form",
                            message: format!(
                                "the claimed canonical form is not RFC 8785's: {canonical}"
                            ),
                        });
                    }
                }
                let leaf = profile::event_leaf(event.as_bytes())?;
                let mut m = Map::new();
                m.insert("canonicalString".into(), json!(canonical));
                m.insert("leafHash".into(), json!(crate::vector::to_hex(&leaf)));
                Ok(m)
            })
        }
        ("seed-witness", "root") => {
            let leaves: Result<Vec<merkle::Hash>, InkError> = input
                .get("leafHashes")
                .and_then(Value::as_array)
                .ok_or("the input has no leafHashes array")?
                .iter()
                .map(|h| merkle::parse_hash(h.as_str().unwrap_or_default(), "a leaf hash"))
                .collect();
            leaves.map(|leaves| {
                let mut m = Map::new();
                m.insert(
                    "rootHash".into(),
                    json!(crate::vector::to_hex(&merkle::root(&leaves))),
                );
                m.insert("treeSize".into(), json!(leaves.len()));
                m
            })
        }
        ("seed-witness", "node") => {
            let hash = |name: &str| merkle::parse_hash(text(input, name).unwrap_or_default(), name);
            hash("left").and_then(|l| {
                let mut m = Map::new();
                m.insert(
                    "nodeHash".into(),
                    json!(crate::vector::to_hex(&merkle::node_hash(
                        &l,
                        &hash("right")?
                    ))),
                );
                Ok(m)
            })
        }
        ("seed-witness", "checkpoint") => key("witnessPublicKeyHex").and_then(|k| {
            none(witness::verify_checkpoint(
                raw("checkpoint").as_bytes(),
                text(input, "signature").unwrap_or_default(),
                &k,
            ))
        }),
        ("seed-witness", "chain") => key("witnessPublicKeyHex").and_then(|k| {
            none(witness::verify_chain(
                raw("checkpoint").as_bytes(),
                raw("previous").as_bytes(),
                text(input, "signature").unwrap_or_default(),
                &k,
            ))
        }),
        ("seed-witness", "submit") => {
            let event = input.get("event").unwrap_or(&Value::Null);
            let field = |name: &str| event.get(name).and_then(Value::as_str).unwrap_or_default();
            let existing: Vec<&str> = input
                .get("existingEventIds")
                .and_then(Value::as_array)
                .map(|l| l.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            none(witness::submit_event(
                field("eventId"),
                field("agentId"),
                text(input, "authenticatedSenderDid")?,
                existing,
            ))
        }
        ("seed-audit-response", _) => key("witnessPublicKeyHex").and_then(|k| {
            none(witness::verify_audit_response(
                raw("events").as_bytes(),
                text(input, "signature").unwrap_or_default(),
                &k,
            ))
        }),
        _ => return Err(format!("no decision for {category} op {op:?}")),
    })
}

/// Checks a Merkle proof given as JSON, RFC 9162's audit path from the leaf up:
/// `{"index","size","leafHash","proof","root"}` for inclusion,
/// `{"first","firstRoot","second","secondRoot","proof"}` for consistency (hashes in lowercase
/// hex). `Err` says what the proof lacks; `Ok(Err)` is INK's rejection of a value.
pub fn verify_proof(proof: &Value) -> Result<Result<Value, InkError>, String> {
    let text = |name: &str| proof.get(name).and_then(|v| v.as_str()).unwrap_or_default();
    let number = |name: &str| proof.get(name).and_then(|v| v.as_u64());
    let path = || -> Result<Vec<merkle::Hash>, InkError> {
        proof
            .get("proof")
            .and_then(|p| p.as_array())
            .map(Vec::as_slice)
            .unwrap_or_default()
            .iter()
            .map(|h| merkle::parse_hash(h.as_str().unwrap_or_default(), "a proof node"))
            .collect()
    };
    const INCLUSION: &str = r#"{"index","size","leafHash","proof","root"}"#;
    const CONSISTENCY: &str = r#"{"first","firstRoot","second","secondRoot","proof"}"#;
    let inclusion = number("index").zip(number("size"));
    let consistency = number("first").zip(number("second"));
    let (form, needs, shape) = match (inclusion, consistency) {
        (Some(_), _) => ("inclusion", ["leafHash", "proof", "root"], INCLUSION),
        (_, Some(_)) => ("consistency", ["firstRoot", "secondRoot", "proof"], CONSISTENCY),
        (None, None) => {
            return Err(format!(
                "the proof has neither index and size nor first and second; give {INCLUSION} or {CONSISTENCY}"
            ))
        }
    };
    if let Some(name) = needs.iter().find(|n| proof.get(**n).is_none()) {
        let ink_form = if form == "inclusion" {
            " (or INK's own form, nodes from the root down, with `canonfuzz ink decide merkle-inclusion`)"
        } else {
            ""
        };
        return Err(format!(
            "the {form} proof has no {name:?}; give {shape}{ink_form}"
        ));
    }
    let outcome = (|| match (inclusion, consistency) {
        (Some((index, size)), _) => merkle::verify_inclusion(
            index,
            size,
            &merkle::parse_hash(text("leafHash"), "leafHash")?,
            &path()?,
            &merkle::parse_hash(text("root"), "root")?,
        ),
        (_, first_second) => {
            let (first, second) = first_second.unwrap_or_default();
            merkle::verify_consistency(
                first,
                second,
                &merkle::parse_hash(text("firstRoot"), "firstRoot")?,
                &merkle::parse_hash(text("secondRoot"), "secondRoot")?,
                &path()?,
            )
        }
    })();
    Ok(outcome.map(|()| json!({"proof": "valid"})))
}

/// INK's decision on one input of `category`, given as written: `Ok(Ok(yields))` accepts with
/// what the acceptance yields, `Ok(Err(why))` rejects; `Err` means the case is unreadable.
pub fn decide(category: &str, raw: &str) -> Result<Result<Map<String, Value>, InkError>, String> {
    match category {
        "inclusion-receipt" => return receipt_case(raw),
        "audit-query-response" => return audit_case(raw),
        _ => {}
    }
    let parsed: Value =
        serde_json::from_str(raw).map_err(|e| format!("the input is not JSON: {e}"))?;
    let input = &parsed;
    if category.starts_with("seed-") {
        return seed_case(category, input);
    }
    let yields = |pairs: Value| match pairs {
        Value::Object(map) => map,
        _ => Map::new(),
    };
    let refused = |e: InkError| e;
    Ok(match category {
        "agent-card" => {
            card::validate(input.get("card").unwrap_or(&Value::Null)).map(|()| Map::new())
        }
        "handshake-message" => {
            schema::handshake_message(input.get("message").unwrap_or(&Value::Null))
                .map(|()| Map::new())
        }
        "connection-payload" => schema::connection_payload(
            text(input, "kind")?,
            input.get("payload").unwrap_or(&Value::Null),
        )
        .map(|()| Map::new()),
        "signature-base" => signed(input)?.and_then(|s| {
            let key = request::public_key(text(input, "publicKeyHex").unwrap_or_default())?;
            request::verify(&s.base, &s.signature, &key).map(|()| Map::new())
        }),
        "key-rotation" => signed(input)?.and_then(|s| {
            let keys = input
                .get("keys")
                .and_then(Value::as_array)
                .map(Vec::as_slice)
                .unwrap_or_default();
            let hint = input.get("hintKeyId").and_then(Value::as_str);
            let found =
                request::verify_with_history(&s.base, &s.signature, &s.timestamp, keys, hint)?;
            let found = if input.get("liveAuth") == Some(&Value::Bool(true)) {
                let allow = input.get("liveAuthAllowRetired") == Some(&Value::Bool(true));
                request::live_auth(found, allow)?
            } else {
                found
            };
            Ok(yields(
                json!({"keyStatus": found.status, "keyId": found.key_id}),
            ))
        }),
        "timestamp-validity" => time::parse(text(input, "timestamp")?)
            .map(|ms| yields(json!({ "epochMs": ms })))
            .map_err(refused),
        "principal-normalization" => principal::normalize(text(input, "agentId")?)
            .map(|p| yields(json!({ "canonicalPrincipal": p })))
            .map_err(refused),
        "replay-freshness" => {
            let r = input.get("replay").ok_or("the input has no replay")?;
            let seen: Vec<&str> = r
                .get("previouslySeenNonces")
                .and_then(Value::as_array)
                .map(|l| l.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            replay::check(
                text(r, "messageTimestamp")?,
                text(r, "receiverClock")?,
                text(r, "nonce")?,
                seen,
            )
            .map(|()| Map::new())
            .map_err(refused)
        }
        "jcs-number" | "jcs-string-safety" => {
            profile::canonical_body(text(input, "bodyRaw")?.as_bytes())
                .map(|c| yields(json!({ "canonicalString": String::from_utf8_lossy(&c) })))
                .map_err(refused)
        }
        "merkle-leaf" => profile::event_leaf(text(input, "eventRaw")?.as_bytes())
            .map(|h| yields(json!({ "leafHash": crate::vector::to_hex(&h) })))
            .map_err(refused),
        "merkle-checkpoint" => Checkpoint::parse(text(input, "body")?)
            .map(|c| yields(json!({ "canonicalString": c.to_body() })))
            .map_err(refused),
        "merkle-inclusion" => {
            let hash = |name: &str| merkle::parse_hash(text(input, name).unwrap_or_default(), name);
            let proof = hashes(input, "proof")?.map_err(|e| InkError {
                kind: "hash",
                message: e,
            });
            proof.and_then(|proof| {
                receipt::verify_top_down(
                    input
                        .get("leafIndex")
                        .and_then(Value::as_u64)
                        .unwrap_or(u64::MAX),
                    input.get("treeSize").and_then(Value::as_u64).unwrap_or(0),
                    &hash("leafHash")?,
                    &proof,
                    &hash("rootHash")?,
                )
                .map(|()| Map::new())
            })
        }
        "merkle-consistency" => {
            let roots = (
                merkle::parse_hash(text(input, "firstRoot")?, "firstRoot"),
                merkle::parse_hash(text(input, "secondRoot")?, "secondRoot"),
            );
            match (roots, hashes(input, "proof")?) {
                ((Ok(first_root), Ok(second_root)), Ok(proof)) => merkle::verify_consistency(
                    size(input, "first")?,
                    size(input, "second")?,
                    &first_root,
                    &second_root,
                    &proof,
                )
                .map(|()| Map::new())
                .map_err(refused),
                ((Err(e), _) | (_, Err(e)), _) => Err(refused(e)),
                (_, Err(e)) => Err(InkError {
                    kind: "hash",
                    message: e,
                }),
            }
        }
        other => return Err(format!("category {other:?} has no decision here yet")),
    })
}

/// A manifest in INK's format (`ink.conformance.manifest.v1`): each category's vector file
/// with its case count and SHA-256, which must match the file beside it.
#[derive(Debug, Deserialize)]
pub struct InkManifest {
    /// `ink.conformance.manifest.v1`.
    pub format: String,
    /// The categories listed.
    pub categories: Vec<InkManifestEntry>,
}

/// One category of an INK-style manifest.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct InkManifestEntry {
    /// The category.
    pub id: String,
    /// The vector file, relative to the manifest.
    pub vector: String,
    /// Cases in the file.
    pub case_count: usize,
    /// SHA-256 of the file's bytes.
    pub sha256: String,
}

/// The format name of INK-style manifests.
pub const INK_MANIFEST_SCHEMA: &str = "ink.conformance.manifest.v1";

impl InkManifest {
    /// Reads a file if it is one.
    pub fn parse(bytes: &[u8]) -> Option<InkManifest> {
        serde_json::from_slice::<InkManifest>(bytes)
            .ok()
            .filter(|m| m.format == INK_MANIFEST_SCHEMA)
    }

    /// Checks every listed file, relative to `dir`: present, with the listed digest and count.
    fn checked(&self, dir: &std::path::Path) -> Vec<(String, Result<(), String>)> {
        self.categories
            .iter()
            .map(|c| {
                let path = dir.join(&c.vector);
                let checked = crate::input::read_file(&path)
                    .map_err(|e| e.to_string())
                    .and_then(|bytes| {
                        let count = InkVectors::parse(&bytes).map(|v| v.cases.len());
                        if crate::manifest::sha256_hex(&bytes) != c.sha256 {
                            Err(format!(
                                "{} changed since its manifest entry was written",
                                c.vector
                            ))
                        } else if count != Some(c.case_count) {
                            Err(format!(
                                "{} holds {count:?} cases, the manifest says {}",
                                c.vector, c.case_count
                            ))
                        } else {
                            Ok(())
                        }
                    });
                (c.id.clone(), checked)
            })
            .collect()
    }
}

impl InkVectors {
    /// Reads a file if it is one.
    pub fn parse(bytes: &[u8]) -> Option<InkVectors> {
        serde_json::from_slice::<InkVectors>(bytes)
            .ok()
            .filter(|v| v.format == INK_SCHEMA)
    }

    /// Runs every case; per case its id and, when the decision differs from INK's, how.
    fn cases(&self) -> Vec<(String, Result<(), String>)> {
        self.cases
            .iter()
            .map(|case| {
                let want = case.expect.get("result").and_then(Value::as_str);
                let outcome = match (decide(&self.category, case.input.get()), want) {
                    (Err(e), _) => Err(e),
                    (Ok(Ok(yields)), Some("accept")) => case
                        .expect
                        .iter()
                        .filter(|(k, _)| *k != "result")
                        .find(|(k, v)| yields.get(*k) != Some(v))
                        .map_or(Ok(()), |(k, v)| {
                            Err(format!(
                                "INK yields {k} = {v}; the core yields {}",
                                yields
                                    .get(k)
                                    .map_or("nothing".to_string(), Value::to_string)
                            ))
                        }),
                    (Ok(Err(e)), Some("reject")) => {
                        let status = transport::http_status(&e);
                        match (
                            case.expect.get("reason").or(case.expect.get("step")),
                            case.expect.get("message"),
                            case.expect.get("httpStatus"),
                        ) {
                            (Some(reason), _, _) if reason != e.kind => Err(format!(
                                "INK rejects at {reason}; the core at {}: {}",
                                e.kind, e.message
                            )),
                            (_, Some(message), _) if message != &e.message => {
                                Err(format!("INK says {message}; the core says {:?}", e.message))
                            }
                            (_, _, Some(want)) if want != &json!(status) => {
                                Err(format!("INK answers HTTP {want}; the core {status}"))
                            }
                            _ => Ok(()),
                        }
                    }
                    (Ok(Ok(_)), _) => Err(format!(
                        "INK rejects ({}); the core accepts",
                        case.description
                    )),
                    (Ok(Err(why)), _) => Err(format!("INK accepts; the core rejects: {why}")),
                };
                (case.case_id.clone(), outcome)
            })
            .collect()
    }
}

impl PublishedFile for InkVectors {
    fn schema(&self) -> &'static str {
        INK_SCHEMA
    }

    fn count(&self) -> usize {
        self.cases.len()
    }

    fn run(&self, _dir: &std::path::Path) -> Vec<(String, Result<(), String>)> {
        self.cases()
    }
}

impl PublishedFile for InkManifest {
    fn schema(&self) -> &'static str {
        INK_MANIFEST_SCHEMA
    }

    fn count(&self) -> usize {
        self.categories.len()
    }

    fn run(&self, dir: &std::path::Path) -> Vec<(String, Result<(), String>)> {
        self.checked(dir)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_decision_listed_is_one_decide_takes() {
        let listed: Vec<&str> = DECISIONS.iter().map(|(name, _)| *name).collect();
        for category in CATEGORIES {
            assert!(listed.contains(&category), "{category} is not listed");
        }
        for name in listed {
            if let Err(why) = decide(name, "{}") {
                assert!(!why.contains("has no decision"), "{name}: {why}");
            }
        }
        assert!(decide("nonesuch", "{}")
            .unwrap_err()
            .contains("has no decision"));
    }

    fn file(category: &str, cases: Value) -> InkVectors {
        let text = json!({"format": INK_SCHEMA, "category": category, "cases": cases}).to_string();
        InkVectors::parse(text.as_bytes()).unwrap()
    }

    #[test]
    fn a_decision_or_yield_that_differs_from_inks_fails_the_case() {
        let vectors = file(
            "timestamp-validity",
            json!([
                {"caseId": "right", "description": "", "input": {"timestamp": "1970-01-01T00:00:01Z"}, "expect": {"result": "accept", "epochMs": 1000}},
                {"caseId": "wrong-yield", "description": "", "input": {"timestamp": "1970-01-01T00:00:01Z"}, "expect": {"result": "accept", "epochMs": 1001}},
                {"caseId": "wrong-decision", "description": "", "input": {"timestamp": "1970-01-01T00:00:01Z"}, "expect": {"result": "reject"}},
            ]),
        );
        let outcomes: Vec<bool> = vectors
            .cases()
            .into_iter()
            .map(|(_, o)| o.is_ok())
            .collect();
        assert_eq!(outcomes, [true, false, false]);
        let unknown = file(
            "payload-encryption",
            json!([{"caseId": "x", "description": "", "input": {}, "expect": {"result": "reject"}}]),
        );
        assert!(
            unknown.cases()[0].1.is_err(),
            "an undecided category never passes"
        );
    }

    #[test]
    fn an_ink_style_manifest_catches_a_changed_file() {
        let dir = tempfile::tempdir().unwrap();
        let vectors = json!({"format": INK_SCHEMA, "category": "c", "cases": []}).to_string();
        std::fs::write(dir.path().join("c.json"), &vectors).unwrap();
        let manifest = |sha: String| {
            InkManifest::parse(
                json!({"format": INK_MANIFEST_SCHEMA, "categories": [
                    {"id": "c", "vector": "c.json", "caseCount": 0, "sha256": sha}]})
                .to_string()
                .as_bytes(),
            )
            .unwrap()
        };
        let right = crate::manifest::sha256_hex(vectors.as_bytes());
        assert!(manifest(right).run(dir.path())[0].1.is_ok());
        assert!(manifest("00".repeat(32)).run(dir.path())[0].1.is_err());
    }
}
