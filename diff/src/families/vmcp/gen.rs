//! verifiable-mcp cases: a whole response as a server sends it, the key set and the clock to
//! verify it with. Genuine responses of every kind (tools/call with a JSON or a prose text arm,
//! tool-level isError, resources/read, JSON-RPC error frames, bare results), signed by the test
//! server over payloads from the JCS generator, and forgeries made from them the way an attacker
//! would: members added, moved, duplicated or nulled, branches mixed, text arms changed, kids
//! missing, unknown or repeated, times at the edges of the skew, payloads nested deep.
//!
//! A case travels as one JSON line `{"jwks":{..},"now":N,"response":"<text>"}`: the response as
//! a string, so that every byte of it (duplicate names, any nesting) reaches every verifier.

pub use canonfuzz_props::vmcp::test_server as server;

use std::sync::OnceLock;

use canonfuzz_core::vmcp::{META_KEY, SKEW_SECONDS, TYP};
use canonfuzz_props::read::for_judgment::{self, nesting, Unreadable};
use serde_json::{json, Map, Value};

use self::server::{jcs, provenance, sha256_label, signer, Signer, IAT};
use canonfuzz_rng::Rng;

use crate::families::jcs::gen::{self as jcs_gen, case as jcs_case};
use crate::family::{Category, Field};

/// Genuine responses of every kind.
pub const VMCP_GENUINE: Category = Category::new(
    "vmcp_genuine",
    "A genuine signed response: tool result, resource, error.",
);
/// Members added, moved, duplicated, nulled; branches mixed; text arms.
pub const VMCP_MEMBERS: Category = Category::new(
    "vmcp_members",
    "A signed response with members added, moved, duplicated or nulled.",
);
/// Kids missing, unknown or repeated; header variants.
pub const VMCP_KEYS: Category = Category::new(
    "vmcp_keys",
    "A signed response whose kid or key set is bent.",
);
/// iat, nbf and exp at the edges of the skew.
pub const VMCP_TIMES: Category = Category::new(
    "vmcp_times",
    "A signed response with iat, nbf or exp near the skew.",
);
/// Payloads nested deep.
pub const VMCP_DEPTH: Category = Category::new(
    "vmcp_depth",
    "A signed response whose payload is nested deep.",
);

/// Every category of the family, in report order.
pub const CATEGORIES: [Category; 5] = [
    VMCP_GENUINE,
    VMCP_MEMBERS,
    VMCP_KEYS,
    VMCP_TIMES,
    VMCP_DEPTH,
];

/// The categories whose responses are built whole, not as one nested text.
const SHAPED: [Category; 4] = [VMCP_GENUINE, VMCP_MEMBERS, VMCP_KEYS, VMCP_TIMES];

/// The header (0) or signed wrapper (1) of the JWS a case's response carries, as a value.
fn signed_part(input: &[u8], part: usize) -> Option<Value> {
    let case = VmcpCase::parse(input)?;
    let response: Value = serde_json::from_str(&case.response).ok()?;
    let holder = ["/result/_meta", "/error/data", "/_meta"]
        .iter()
        .find_map(|at| response.pointer(at))?;
    let jws = holder.get(META_KEY)?.get("jws")?.as_str()?;
    let bytes = canonfuzz_core::jws::base64url_decode(jws.split('.').nth(part)?, "").ok()?;
    serde_json::from_slice(&bytes).ok()
}

/// Member `name` of the signed header (0) or wrapper (1), as JSON text.
fn signed_member(input: &[u8], part: usize, name: &str) -> Vec<String> {
    signed_part(input, part)
        .and_then(|v| v.get(name).map(Value::to_string))
        .into_iter()
        .collect()
}

/// Every field of a verifiable-mcp case: the clock, the key set's members, the response's
/// members as a client reads them, the envelope's, and the signed header's and wrapper's.
pub const FIELDS: [Field; 31] = [
    Field::at("/now", "vmcp::verify_response: the clock", &CATEGORIES),
    Field::at(
        "/jwks/keys/*/kid",
        "jws::Jwks::parse, the key lookup",
        &[VMCP_KEYS],
    ),
    Field::at("/jwks/keys/*/x", "jws::Jwks::parse", &[VMCP_KEYS]),
    Field::at("/jwks/keys/*/kty", "jws::Jwks::parse", &[VMCP_KEYS]),
    Field::at("/jwks/keys/*/crv", "jws::Jwks::parse", &[VMCP_KEYS]),
    Field::at(
        "/jwks/keys/*/alg",
        "jws::Jwks::parse: the key's restrictions",
        &[VMCP_KEYS],
    ),
    Field::at(
        "/jwks/keys/*/use",
        "jws::Jwks::parse: the key's restrictions",
        &[VMCP_KEYS],
    ),
    Field::at(
        "/jwks/keys/*/key_ops",
        "jws::Jwks::parse: the key's restrictions",
        &[VMCP_KEYS],
    ),
    Field::at(
        "/response/jsonrpc",
        "vmcp::verify_response: the frame",
        &[VMCP_MEMBERS],
    ),
    Field::at("/response/id", "vmcp::verify_response: the frame", &SHAPED),
    Field::at(
        "/response/result/content",
        "vmcp::verify_response: what is served",
        &CATEGORIES,
    ),
    Field::at(
        "/response/result/structuredContent",
        "vmcp::verify_response: what is served",
        &CATEGORIES,
    ),
    Field::at(
        "/response/result/isError",
        "vmcp::verify_response: what is served",
        &[VMCP_MEMBERS],
    ),
    Field::at(
        "/response/result/contents",
        "vmcp::verify_response: what is served",
        &SHAPED,
    ),
    Field::at(
        "/response/error",
        "vmcp::verify_response: what is served",
        &SHAPED,
    ),
    Field::at(
        "/response/result/_meta/org.jardenberg~1verifiable-mcp/jws",
        "vmcp::verify_response: the signature",
        &CATEGORIES,
    ),
    Field::at(
        "/response/result/_meta/org.jardenberg~1verifiable-mcp/kid",
        "vmcp::verify_response: a convenience the JWS header overrules",
        &[VMCP_MEMBERS],
    ),
    Field::at(
        "/response/result/_meta/org.jardenberg~1verifiable-mcp/spec",
        "vmcp::verify_response: a convenience the JWS header overrules",
        &[VMCP_MEMBERS],
    ),
    Field::at(
        "/response/result/_meta/org.jardenberg~1verifiable-mcp/alg",
        "vmcp::verify_response: a convenience the JWS header overrules",
        &[VMCP_MEMBERS],
    ),
    Field::at(
        "/response/result/_meta/org.jardenberg~1verifiable-mcp/signed",
        "vmcp::verify_response: a convenience the JWS header overrules",
        &[VMCP_MEMBERS],
    ),
    Field {
        name: "signed header alg",
        read_by: "vmcp::verify_response: the signature",
        varied_by: &[VMCP_KEYS],
        values: Some(|input| signed_member(input, 0, "alg")),
    },
    Field {
        name: "signed header kid",
        read_by: "vmcp::verify_response: the key lookup",
        varied_by: &[VMCP_KEYS],
        values: Some(|input| signed_member(input, 0, "kid")),
    },
    Field {
        name: "signed header typ",
        read_by: "vmcp::verify_response: the signature",
        varied_by: &[VMCP_KEYS],
        values: Some(|input| signed_member(input, 0, "typ")),
    },
    Field {
        name: "signed wrapper iat",
        read_by: "vmcp::verify_response: freshness",
        varied_by: &[VMCP_TIMES],
        values: Some(|input| signed_member(input, 1, "iat")),
    },
    Field {
        name: "signed wrapper nbf",
        read_by: "vmcp::verify_response: freshness",
        varied_by: &[VMCP_TIMES],
        values: Some(|input| signed_member(input, 1, "nbf")),
    },
    Field {
        name: "signed wrapper exp",
        read_by: "vmcp::verify_response: freshness",
        varied_by: &[VMCP_TIMES],
        values: Some(|input| signed_member(input, 1, "exp")),
    },
    Field {
        name: "signed wrapper payload",
        read_by: "vmcp::verify_response: what was signed",
        varied_by: &CATEGORIES,
        values: Some(|input| signed_member(input, 1, "payload")),
    },
    Field {
        name: "signed wrapper content_digest",
        read_by: "vmcp::verify_response: what was signed",
        varied_by: &CATEGORIES,
        values: Some(|input| signed_member(input, 1, "content_digest")),
    },
    Field {
        name: "signed wrapper payload_digest",
        read_by: "vmcp::verify_response: what was signed",
        varied_by: &CATEGORIES,
        values: Some(|input| signed_member(input, 1, "payload_digest")),
    },
    Field {
        name: "signed wrapper provenance",
        read_by: "vmcp::verify_response: the wrapper's shape",
        varied_by: &[VMCP_MEMBERS],
        values: Some(|input| signed_member(input, 1, "provenance")),
    },
    Field {
        name: "served number spelling",
        read_by: "vmcp::verify_response: served numbers against the signed ones",
        varied_by: &[VMCP_MEMBERS],
        values: Some(served_spelling),
    },
];

/// One verification: a response, the key set and the clock.
#[derive(Debug, Clone, PartialEq)]
pub struct VmcpCase {
    /// The server's key set.
    pub jwks: Value,
    /// The verifier's clock, Unix seconds.
    pub now: u64,
    /// The response's exact text.
    pub response: String,
}

impl VmcpCase {
    /// The case as a campaign input line.
    pub fn encode(&self) -> Vec<u8> {
        json!({"jwks": self.jwks, "now": self.now, "response": self.response})
            .to_string()
            .into_bytes()
    }

    /// Reads a campaign input back; `None` when it is not one.
    pub fn parse(input: &[u8]) -> Option<VmcpCase> {
        VmcpCase::read(input).ok().flatten()
    }

    /// Reads a campaign case as a policy judges it: `Ok(None)` for a case with no response,
    /// key set or clock, `Err` when the input cannot be read as a case at all.
    pub fn read(input: &[u8]) -> Result<Option<VmcpCase>, Unreadable> {
        let case = for_judgment::case(input)?;
        Ok((|| {
            Some(VmcpCase {
                jwks: case.get("jwks")?.clone(),
                now: case.get("now")?.as_u64()?,
                response: case.get("response")?.as_str()?.to_string(),
            })
        })())
    }
}

/// Whether a tools/call result serves more than its one text arm in `content`: a second item,
/// or members beside `type` and `text` on the first. SPEC §6 binds item 0's text only and
/// leaves the rest "at the reader's risk". The response is read as a client reads it, a
/// member named as serde_json's raw-value marker included, at any depth the core reads.
pub fn content_beyond_text_arm(input: &[u8]) -> Result<bool, Unreadable> {
    let Some(case) = VmcpCase::read(input)? else {
        return Ok(false);
    };
    let beyond = for_judgment::judge(case.response.as_bytes(), |response| {
        let result = response.get("result").unwrap_or(&response);
        match result.get("content").and_then(Value::as_array) {
            Some(items) => {
                items.len() > 1
                    || items
                        .first()
                        .and_then(Value::as_object)
                        .is_some_and(|item| item.keys().any(|k| k != "type" && k != "text"))
            }
            None => false,
        }
    })?;
    Ok(beyond == Some(true))
}

/// Whether some object of the response names a member twice (after unescaping), in a
/// response that is otherwise JSON, read at any depth.
pub fn response_has_duplicate_names(input: &[u8]) -> Result<bool, Unreadable> {
    let Some(case) = VmcpCase::read(input)? else {
        return Ok(false);
    };
    let reading = canonfuzz_props::read::problems::read(case.response.as_bytes());
    Ok(reading.problems.contains("duplicate_key")
        && !reading.problems.contains("syntax")
        && !reading.problems.contains("invalid_utf8"))
}

/// Whether the key the response's signed header names by its kid says it is not for
/// verifying this signature: `use` other than `sig`, `alg` other than an EdDSA name, `key_ops`
/// without `verify`, or a private part `d`. The response is read at any depth the core reads.
pub fn named_key_restricted(input: &[u8]) -> Result<bool, Unreadable> {
    let Some(case) = VmcpCase::read(input)? else {
        return Ok(false);
    };
    let kid = for_judgment::judge(case.response.as_bytes(), |response| {
        let holder = ["/result/_meta", "/error/data", "/_meta"]
            .iter()
            .find_map(|at| response.pointer(at))?;
        let jws = holder.get(META_KEY)?.get("jws")?.as_str()?;
        let header = canonfuzz_core::jws::base64url_decode(jws.split('.').next()?, "").ok()?;
        let header: Value = serde_json::from_slice(&header).ok()?;
        header.get("kid")?.as_str().map(str::to_string)
    })?
    .flatten();
    let Some(kid) = kid else {
        return Ok(false);
    };
    let keys = case.jwks.get("keys").and_then(Value::as_array);
    Ok(keys.into_iter().flatten().any(|key| {
        key.get("kid").and_then(Value::as_str) == Some(kid.as_str())
            && (key.get("use").is_some_and(|u| u != "sig")
                || key
                    .get("alg")
                    .is_some_and(|a| a != "EdDSA" && a != "Ed25519")
                || key.get("key_ops").is_some_and(|ops| {
                    !ops.as_array()
                        .is_some_and(|l| l.iter().any(|op| op == "verify"))
                })
                || key.get("d").is_some())
    }))
}

/// Whether a client that reads numbers exactly, or as Python's `json` does (integer literals
/// as exact integers, other numbers as doubles), reads something unsigned in the response
/// where a client that reads them as doubles reads only signed data: a served number that
/// rounds to the signed double without being it, an integer written otherwise where no double
/// holds it, or an id or error code not written as the integer it is read as. Both clients
/// are [`canonfuzz_props::vmcp::client_view`]'s, apart from the core.
pub fn served_number_read_otherwise(input: &[u8]) -> Result<bool, Unreadable> {
    use canonfuzz_props::read::exact_numbers::Numbers;
    use canonfuzz_props::vmcp::client_view::covered_by;
    let Some(case) = VmcpCase::read(input)? else {
        return Ok(false);
    };
    let response = case.response.as_bytes();
    Ok(covered_by(response, case.now, Numbers::Every).is_err()
        && covered_by(response, case.now, Numbers::Doubles).is_ok())
}

/// Whether the response nests arrays and objects deeper than the core's bound.
pub fn response_nested_past_bound(input: &[u8]) -> Result<bool, Unreadable> {
    Ok(VmcpCase::read(input)?
        .is_some_and(|c| nesting(c.response.as_bytes()) > canonfuzz_core::jcs::DEFAULT_MAX_DEPTH))
}

/// The kinds of response a server signs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shape {
    /// tools/call, the canonical payload as the text arm.
    ToolJson,
    /// tools/call, a prose text arm.
    ToolProse,
    /// tools/call, a tool-level error (SPEC §8).
    ToolError,
    /// resources/read.
    Resource,
    /// A JSON-RPC error frame (SPEC §8).
    ErrorFrame,
    /// A tools/call result without the JSON-RPC frame.
    Bare,
}

const SHAPES: [Shape; 6] = [
    Shape::ToolJson,
    Shape::ToolProse,
    Shape::ToolError,
    Shape::Resource,
    Shape::ErrorFrame,
    Shape::Bare,
];

/// A response being built: what it serves, and how its wrapper and header are made.
struct Server<'a> {
    signer: &'a Signer,
    shape: Shape,
    data: Value,
    id: Value,
    /// Members set on the wrapper (times, or overrides).
    extra: Map<String, Value>,
    header: Value,
    /// A number the payload carries where a resource or an error frame has room for one:
    /// `contents[0].annotations` or `error.data`, as `served_number`.
    number: Option<Value>,
}

impl Server<'_> {
    /// The text arm and the signed payload of this shape.
    fn parts(&self) -> (Option<String>, Value) {
        let canonical = String::from_utf8_lossy(&jcs(&self.data)).into_owned();
        match self.shape {
            Shape::ToolJson | Shape::Bare => (Some(canonical), self.data.clone()),
            Shape::ToolProse => (
                Some(format!(
                    "Result ({} bytes of JSON) — see structuredContent",
                    canonical.len()
                )),
                self.data.clone(),
            ),
            Shape::ToolError => {
                let message = format!("Tool failed on input {}", excerpt(&canonical));
                (
                    Some(message.clone()),
                    json!({"isError": true, "message": message}),
                )
            }
            Shape::Resource => {
                let mut item = json!({"uri": "https://example.org/r/1", "mimeType": "application/json", "text": canonical});
                if let Some(n) = &self.number {
                    item["annotations"] = json!({ NUMBER_NAME: n });
                }
                (Some(canonical.clone()), json!({ "contents": [item] }))
            }
            Shape::ErrorFrame => {
                let mut error = json!({"code": -32602, "message": format!("Invalid params: {}", excerpt(&canonical))});
                if let Some(n) = &self.number {
                    error["data"] = json!({ NUMBER_NAME: n });
                }
                (None, json!({"id": self.id, "error": error}))
            }
        }
    }

    fn wrapper(&self) -> Value {
        let (text, payload) = self.parts();
        let mut w = json!({"iat": IAT, "payload_digest": sha256_label(&jcs(&payload)), "payload": payload, "provenance": provenance()});
        if let Some(text) = text {
            w["content_digest"] = json!(sha256_label(text.as_bytes()));
        }
        for (name, value) in &self.extra {
            w[name] = value.clone();
        }
        w
    }

    /// The signed response.
    fn response(&self) -> Value {
        let (text, payload) = self.parts();
        let jws = self.signer.sign_bytes(&self.header, &jcs(&self.wrapper()));
        let envelope = json!({ META_KEY: self.signer.envelope(jws) });
        let text_arm = json!([{"type": "text", "text": text}]);
        let result = match self.shape {
            Shape::ToolJson | Shape::ToolProse | Shape::Bare => {
                json!({"content": text_arm, "structuredContent": self.data, "_meta": envelope})
            }
            Shape::ToolError => json!({"content": text_arm, "isError": true, "_meta": envelope}),
            Shape::Resource => {
                json!({"contents": payload["contents"], "_meta": envelope})
            }
            Shape::ErrorFrame => {
                let mut error = payload["error"].clone();
                match error.get_mut("data").and_then(Value::as_object_mut) {
                    Some(data) => data.extend(envelope.as_object().cloned().unwrap_or_default()),
                    None => error["data"] = envelope,
                }
                return json!({"jsonrpc": "2.0", "id": self.id, "error": error});
            }
        };
        if self.shape == Shape::Bare {
            result
        } else {
            json!({"jsonrpc": "2.0", "id": self.id, "result": result})
        }
    }
}

fn excerpt(text: &str) -> String {
    text.chars().take(24).collect()
}

/// A payload: a document of the JCS generator the core accepts and serde_json reads, often
/// an object around it, or a fixed listing. serde_json writes a number it holds as a double in
/// its own spelling (`2.224153828406438e19` for a signed `22241538284064380000`), which
/// Python's `json` reads as another value than the signed integer; a genuine server serves
/// what every client reads as signed, so such a document is passed over.
fn payload(rng: &mut Rng, seed: u64) -> Value {
    use canonfuzz_props::read::exact_numbers::{read, Numbers};
    for _ in 0..4 {
        let (category, doc) = jcs_case(seed ^ 0x7f4a, rng.next_u64());
        if category == jcs_gen::REJECTIONS {
            continue;
        }
        let Ok(canonical) = canonfuzz_core::jcs::canonicalize(&doc) else {
            continue;
        };
        if let Ok(value) = serde_json::from_slice::<Value>(&canonical) {
            let served = read(value.to_string().as_bytes());
            if !matches!((served, read(&canonical)), (Some(a), Some(b)) if a.same_as(&b, Numbers::Every))
            {
                continue;
            }
            return if rng.chance(50) {
                json!({ "result": value, "n": rng.index(1000) })
            } else {
                value
            };
        }
    }
    json!({"listings": [{"address": "4252 Escudo Ct", "price": "1349000.00"}], "note": "Åsa's fäbod"})
}

/// The test server, derived once: its key pair and thumbprint cost more than the rest of a
/// case.
fn test_server() -> Option<&'static Signer> {
    static SERVER: OnceLock<Option<Signer>> = OnceLock::new();
    SERVER.get_or_init(|| signer().ok()).as_ref()
}

/// The input for case `index` of a verifiable-mcp campaign with `seed`.
pub fn case(seed: u64, index: u64) -> (Category, Vec<u8>) {
    let mut rng = Rng::for_case(seed, index);
    let Some(signer) = test_server() else {
        return (VMCP_GENUINE, Vec::new());
    };
    let now = IAT + rng.index(7200) as u64;
    let mut server = Server {
        signer,
        shape: rng.pick(&SHAPES),
        data: payload(&mut rng, seed),
        id: json!(rng.index(100)),
        extra: Map::new(),
        header: signer.header(&signer.kid),
        number: None,
    };
    let mut jwks = signer.jwks.clone();
    let category = match rng.index(100) {
        0..=19 => VMCP_GENUINE,
        20..=59 => VMCP_MEMBERS,
        60..=74 => VMCP_KEYS,
        75..=89 => VMCP_TIMES,
        _ => VMCP_DEPTH,
    };
    let response = match category {
        VMCP_MEMBERS => members(&mut rng, &server),
        VMCP_KEYS => {
            keys(&mut rng, &mut server, &mut jwks);
            Ok(server.response())
        }
        VMCP_TIMES => {
            times(&mut rng, &mut server, now);
            Ok(server.response())
        }
        VMCP_DEPTH => Err(deep(&mut rng, &server)),
        _ => Ok(server.response()),
    };
    let response = match response {
        Err(text) => text,
        Ok(value) if rng.chance(10) => serde_json::to_string_pretty(&value).unwrap_or_default(),
        Ok(value) => value.to_string(),
    };
    let case = VmcpCase {
        jwks,
        now,
        response,
    };
    (category, case.encode())
}

/// The result object of a response (the response itself when bare).
fn result_of(response: &mut Value) -> &mut Value {
    if response.get("result").is_some() {
        &mut response["result"]
    } else {
        response
    }
}

/// A genuine response bent at its members: the response, or its text when a value cannot
/// hold the change (a duplicate name).
fn members(rng: &mut Rng, server: &Server) -> Result<Value, String> {
    let mut r = server.response();
    let framed = server.shape != Shape::Bare;
    match rng.index(18) {
        0 => {
            let name = rng.pick(&[
                "notes",
                "summary",
                "data",
                "structuredcontent",
                "annotations",
            ]);
            result_of(&mut r)[name] = json!("unsigned");
        }
        1 if framed => {
            if r.get("error").is_some() {
                r["result"] = json!({"structuredContent": {"ok": true}, "content": [{"type": "text", "text": "ok"}]});
            } else {
                r["error"] = json!({"code": -32000, "message": "unsigned"});
            }
        }
        2 => {
            let branch = rng.pick(&["structuredContent", "contents", "content", "isError"]);
            let value = match branch {
                "isError" => json!(rng.chance(50)),
                "content" => json!([{"type": "text", "text": "unsigned"}]),
                "contents" => json!([{"uri": "https://attacker.example/", "text": "unsigned"}]),
                _ => json!({"unsigned": true}),
            };
            result_of(&mut r)[branch] = value;
        }
        3 => {
            if let Some(result) = result_of(&mut r).as_object_mut() {
                result.remove(rng.pick(&["structuredContent", "content", "isError", "contents"]));
            }
        }
        4 => {
            let result = result_of(&mut r);
            if result.get("structuredContent").is_some() {
                result["structuredContent"] = Value::Null;
            } else if result.get("contents").is_some() {
                result["contents"][0]["uri"] = json!("https://attacker.example/");
            } else if let Some(error) = r.get_mut("error") {
                error["message"] = json!("a different message");
            }
        }
        5 => {
            if let Some(items) = result_of(&mut r)["content"].as_array_mut() {
                items.push(json!({"type": "text", "text": "unsigned"}));
            }
        }
        6 => {
            if let Some(item) = result_of(&mut r)["content"].get_mut(0) {
                item[rng.pick(&["annotations", "_meta", "mimeType"])] = json!({"priority": 1});
            }
        }
        7 => {
            if let Some(text) = result_of(&mut r)["content"][0]["text"].as_str() {
                let changed = format!("{text}{}", rng.pick(&[" ", "\u{200b}", "!", "\n"]));
                result_of(&mut r)["content"][0]["text"] = json!(changed);
            }
        }
        8 => {
            let result = result_of(&mut r);
            if result.get("isError").is_some() {
                result["isError"] = json!(false);
            } else {
                result["isError"] = json!(true);
            }
        }
        9 => {
            if let Some(error) = r.get_mut("error") {
                match rng.index(3) {
                    0 => error["data"]["hint"] = json!("unsigned"),
                    1 => error["note"] = json!("unsigned"),
                    _ => r["id"] = json!(1000 + rng.index(1000)),
                }
            } else if framed {
                r["id"] = json!("another-request");
            }
        }
        10 => {
            let result = result_of(&mut r);
            let envelope = result["_meta"].clone();
            result["_meta"] = json!({});
            if result
                .get("structuredContent")
                .is_some_and(Value::is_object)
            {
                result["structuredContent"]["_meta"] = envelope;
            } else if let Some(item) = result["content"].get_mut(0) {
                item["_meta"] = envelope;
            }
        }
        11 if framed => match rng.index(3) {
            0 => r["jsonrpc"] = json!("1.0"),
            1 => r["debug"] = json!({"unsigned": true}),
            _ => {
                if let Some(frame) = r.as_object_mut() {
                    frame.remove("id");
                }
            }
        },
        12 => {
            let text = r.to_string();
            let (name, forged) = if text.contains("\"structuredContent\":") {
                ("\"structuredContent\":", "{\"forged\":true}")
            } else if text.contains("\"message\":") {
                ("\"message\":", "\"forged\"")
            } else {
                ("\"content\":", "[{\"type\":\"text\",\"text\":\"forged\"}]")
            };
            let twice = if rng.chance(50) {
                text.replacen(name, &format!("{name}{forged},{name}"), 1)
            } else {
                let at = text.find(name).map_or(0, |i| i + name.len());
                let end = value_end(&text, at);
                format!("{},{name}{forged}{}", &text[..end], &text[end..])
            };
            return Err(twice);
        }
        13 => {
            result_of(&mut r)["_meta"]["deployment.example/trace"] = json!({"id": rng.index(9)});
            if framed {
                let (sibling, value) = if rng.chance(50) {
                    ("signature", json!("deprecated v0.1 sibling"))
                } else {
                    ("provenance", provenance())
                };
                result_of(&mut r)[sibling] = value;
            }
        }
        14 => {
            // The envelope's convenience members, which the JWS header overrules.
            let meta = &mut result_of(&mut r)["_meta"][META_KEY];
            for (name, value) in [
                ("kid", json!("convenience-kid")),
                ("alg", json!("RS256")),
                ("spec", json!(rng.pick(&["0.1", "0.3.0", ""]))),
                ("signed", json!(rng.pick(&["payload", "content"]))),
            ] {
                if rng.chance(60) {
                    meta[name] = value;
                }
            }
        }
        15 if rng.chance(15) => {
            // The wrapper signed in a text that is not its canonical form.
            let pretty = serde_json::to_string_pretty(&server.wrapper()).unwrap_or_default();
            let jws = server.signer.sign_bytes(&server.header, pretty.as_bytes());
            let envelope = if r.get("error").is_some() {
                &mut r["error"]["data"][META_KEY]
            } else {
                &mut result_of(&mut r)["_meta"][META_KEY]
            };
            envelope["jws"] = json!(jws);
        }
        15 => {
            // The signed wrapper itself bent, and signed so: its provenance not an object, a
            // digest that covers nothing served, or a member no reader looks at.
            let mut extra = server.extra.clone();
            let (name, value) = match rng.index(6) {
                0 => ("provenance", json!("test operator")),
                1 => ("provenance", Value::Null),
                2 => ("provenance", json!([provenance()])),
                3 => ("content_digest", json!(sha256_label(b"other text"))),
                4 => ("payload_digest", json!(sha256_label(b"{}"))),
                _ => ("note", json!("signed, read by no one")),
            };
            extra.insert(name.into(), value);
            let bent = Server {
                signer: server.signer,
                shape: server.shape,
                data: server.data.clone(),
                id: server.id.clone(),
                extra,
                header: server.header.clone(),
                number: None,
            };
            return Ok(bent.response());
        }
        16 => return Err(served_number(rng, server)),
        _ => {
            // A character inside the signature, so that its bits, not unused ones, change.
            if let Some(jws) = result_of(&mut r)["_meta"][META_KEY]["jws"].as_str() {
                let at = jws.len().saturating_sub(20);
                let flipped: String = jws
                    .char_indices()
                    .map(|(i, c)| match (i == at, c) {
                        (true, 'A') => 'B',
                        (true, _) => 'A',
                        (false, c) => c,
                    })
                    .collect();
                result_of(&mut r)["_meta"][META_KEY]["jws"] = json!(flipped);
            }
        }
    }
    Ok(r)
}

/// The end of the JSON value starting at byte `at` of `text` (a container, string or scalar).
fn value_end(text: &str, at: usize) -> usize {
    let bytes = text.as_bytes();
    let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
    for (i, &b) in bytes.iter().enumerate().skip(at) {
        match (in_string, escaped, b) {
            (true, true, _) => escaped = false,
            (true, false, b'\\') => escaped = true,
            (true, false, b'"') => {
                in_string = false;
                if depth == 0 {
                    return i + 1;
                }
            }
            (false, _, b'"') => in_string = true,
            (false, _, b'[' | b'{') => depth += 1,
            (false, _, b']' | b'}') => {
                if depth <= 1 {
                    return i + usize::from(depth == 1);
                }
                depth -= 1;
            }
            (false, _, b',') if depth == 0 => return i,
            _ => {}
        }
    }
    bytes.len()
}

/// Bends the header or the key set.
fn keys(rng: &mut Rng, server: &mut Server, jwks: &mut Value) {
    let signer = server.signer;
    let current = jwks["keys"][0].clone();
    let decoy = {
        let mut k = current.clone();
        k["x"] = json!("11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo");
        k
    };
    match rng.index(10) {
        0 => {
            server.header = json!({"alg": "EdDSA", "typ": TYP});
            if rng.chance(50) {
                *jwks = json!({ "keys": [current] });
            }
        }
        1 => server.header = signer.header("a-kid-nobody-published"),
        2 => server.header = signer.header(&signer.legacy_kid),
        3 => {
            let mut other = decoy;
            other["kid"] = json!("an-older-key");
            *jwks = json!({ "keys": [other, current] });
        }
        4 => *jwks = json!({ "keys": [decoy, current] }),
        5 => {
            let mut twin = current.clone();
            twin["kid"] = json!(signer.legacy_kid);
            *jwks = json!({ "keys": [current, twin.clone(), twin] });
        }
        6 => server.header = json!({"alg": "Ed25519", "kid": signer.kid, "typ": TYP}),
        7 => {
            server.header = json!({"alg": "EdDSA", "kid": signer.kid, "typ": rng.pick(&["JOSE", "jwt", "verifiable-mcp+JWS"])})
        }
        8 => {
            let mut header = signer.header(&signer.kid);
            header["jwk"] = decoy;
            server.header = header;
        }
        _ => {
            // The signing key listed with a member that says it is not for this signature.
            let mut bent = current.clone();
            let (name, value) = match rng.index(5) {
                0 => ("use", json!("enc")),
                1 => ("alg", json!(rng.pick(&["ES256", "Ed25519", "none"]))),
                2 => ("kty", json!("EC")),
                3 => ("crv", json!("X25519")),
                _ => ("key_ops", json!([rng.pick(&["verify", "sign", "encrypt"])])),
            };
            bent[name] = value;
            *jwks = json!({ "keys": [bent] });
        }
    }
}

/// Sets a time of the wrapper at an edge of the skew around `now`.
fn times(rng: &mut Rng, server: &mut Server, now: u64) {
    let skew = SKEW_SECONDS as i64;
    let delta = rng.pick(&[
        -3600,
        -skew - 1,
        -skew,
        -skew + 1,
        -1,
        0,
        1,
        skew - 1,
        skew,
        skew + 1,
        3600,
    ]);
    let at = now.saturating_add_signed(delta);
    match rng.index(5) {
        0 => {
            server.extra.insert("iat".into(), json!(at));
        }
        1 => {
            server.extra.insert("exp".into(), json!(at));
        }
        2 => {
            server.extra.insert("nbf".into(), json!(at));
        }
        3 => {
            server.extra.insert("exp".into(), json!(at.to_string()));
        }
        _ => {
            server.extra.insert("iat".into(), json!(at));
            server.extra.insert(
                "exp".into(),
                json!(at.saturating_add(rng.index(120) as u64)),
            );
        }
    }
}

/// The member name of the number [`served_number`] serves.
const NUMBER_NAME: &str = "served_number";

/// Numbers as signed (canonical) and as served: written another way, the same number; or one
/// that rounds to the signed double, another number to a client that reads numbers exactly.
const SERVED_NUMBERS: [(&str, &str); 9] = [
    ("100", "1e2"),
    ("100", "100.0"),
    ("0.5", "5e-1"),
    ("0", "-0"),
    ("12345678901234567000", "12345678901234567891"),
    ("9007199254740992", "9007199254740993"),
    ("1.0000000000000002", "1.00000000000000021"),
    ("0", "1e-400"),
    ("1e+21", "1000000000000000000001"),
];

/// A double of a kind servers send: a count, an amount, a small or a large measure, or any.
fn measure(rng: &mut Rng) -> f64 {
    let v = match rng.index(5) {
        0 => rng.index(1_000_000) as f64,
        1 => rng.index(1_000_000) as f64 / 1000.0,
        2 => (1 + rng.index(999)) as f64 * 1e-9,
        3 => (1 + rng.index(999)) as f64 * 1e22,
        _ => f64::from_bits(rng.next_u64() & 0x7FEF_FFFF_FFFF_FFFF),
    };
    if rng.chance(20) {
        -v
    } else {
        v
    }
}

/// A number literal's sign, digits without leading or trailing zeros, and the power of ten
/// they are scaled by: `-1.50e3` is (true, "15", 2). Zero is ("0", 0).
fn decimal(literal: &str) -> (bool, String, i64) {
    let (negative, unsigned) = match literal.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, literal),
    };
    let (mantissa, exponent) = unsigned
        .split_once(['e', 'E'])
        .map_or((unsigned, 0), |(m, e)| (m, e.parse::<i64>().unwrap_or(0)));
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let all = format!("{whole}{fraction}");
    let kept = all.trim_start_matches('0');
    let digits = kept.trim_end_matches('0');
    if digits.is_empty() {
        return (negative, "0".to_string(), 0);
    }
    let trailing = (kept.len() - digits.len()) as i64;
    (
        negative,
        digits.to_string(),
        exponent - fraction.len() as i64 + trailing,
    )
}

/// The number `canonical` stands for, written another way a client reads the same: with `E`
/// or `e`, an exponent with `+` or leading zeros, trailing zeros in the mantissa, the point
/// moved, or as a plain decimal with trailing zeros.
fn respelled(rng: &mut Rng, canonical: &str) -> String {
    let (negative, digits, scale) = decimal(canonical);
    let sign = if negative { "-" } else { "" };
    let e = rng.pick(&["e", "E"]);
    let (plus, zeros) = (rng.chance(50), rng.index(3));
    let exponent = |n: i64| match (n < 0, plus) {
        (true, _) => format!("-{}{}", "0".repeat(zeros), -n),
        (false, true) => format!("+{}{n}", "0".repeat(zeros)),
        (false, false) => format!("{}{n}", "0".repeat(zeros)),
    };
    let padding = "0".repeat(1 + rng.index(3));
    let length = digits.len() as i64;
    match rng.index(4) {
        0 => format!(
            "{sign}{digits}{padding}{e}{}",
            exponent(scale - padding.len() as i64)
        ),
        1 => format!(
            "{sign}{}.{}{padding}{e}{}",
            digits.get(..1).unwrap_or("0"),
            digits.get(1..).unwrap_or_default(),
            exponent(scale + length - 1)
        ),
        2 if (0..30).contains(&scale) => {
            format!("{sign}{digits}{}.{padding}", "0".repeat(scale as usize))
        }
        2 if (-30..0).contains(&scale) => {
            let point = length + scale;
            let (whole, fraction) = if point > 0 {
                let (w, f) = digits.split_at(point as usize);
                (w.to_string(), f.to_string())
            } else {
                (
                    "0".to_string(),
                    format!("{}{digits}", "0".repeat((-point) as usize)),
                )
            };
            format!("{sign}{whole}.{fraction}{padding}")
        }
        _ => format!("{sign}0.{digits}{e}{}", exponent(scale + length)),
    }
}

/// How a served number literal is spelled, for the field list: `E`, an exponent with `+` or
/// leading zeros, trailing zeros in a fraction, or plain.
fn spelling(literal: &str) -> &'static str {
    let exponent = literal.split_once(['e', 'E']).map(|(_, e)| e);
    let fraction = literal
        .split(['e', 'E'])
        .next()
        .and_then(|m| m.split_once('.'));
    if literal.contains('E') {
        "E"
    } else if exponent.is_some_and(|e| e.starts_with('+')) {
        "e+"
    } else if exponent.is_some_and(|e| e.trim_start_matches('-').starts_with('0')) {
        "exponent with leading zeros"
    } else if fraction.is_some_and(|(_, f)| f.ends_with('0')) {
        "trailing zeros"
    } else {
        "plain"
    }
}

/// The spelling of the number served as [`NUMBER_NAME`] in a case's response, if any.
fn served_spelling(input: &[u8]) -> Vec<String> {
    let Some(case) = VmcpCase::parse(input) else {
        return Vec::new();
    };
    let key = format!("\"{NUMBER_NAME}\":");
    case.response
        .split_once(&key)
        .map(|(_, rest)| {
            let end = rest
                .find(|c: char| !(c.is_ascii_digit() || "+-.eE".contains(c)))
                .unwrap_or(rest.len());
            spelling(rest.get(..end).unwrap_or_default()).to_string()
        })
        .into_iter()
        .collect()
}

/// A genuine response, as text, that serves a number otherwise than it was signed: in its
/// payload (`structuredContent`, a resource's contents, an error frame's `data`), as one of the
/// fixed pairs or a number written another way a client reads the same; or, for an error
/// frame, as its `id` or `code` written with a fraction or an exponent.
fn served_number(rng: &mut Rng, server: &Server) -> String {
    let (signed, served) = if rng.chance(50) {
        let (signed, served) = rng.pick(&SERVED_NUMBERS);
        (signed.to_string(), served.to_string())
    } else {
        let signed = ryu_js::Buffer::new()
            .format_finite(measure(rng))
            .to_string();
        let served = respelled(rng, &signed);
        (signed, served)
    };
    let number: Value = serde_json::from_str(&signed).unwrap_or(Value::Null);
    let data = match &server.data {
        Value::Object(members) => {
            let mut members = members.clone();
            members.insert(NUMBER_NAME.into(), number.clone());
            Value::Object(members)
        }
        other => json!({"result": other, NUMBER_NAME: number}),
    };
    let bent = Server {
        signer: server.signer,
        shape: server.shape,
        data,
        id: json!(7),
        extra: server.extra.clone(),
        header: server.header.clone(),
        number: Some(number.clone()),
    };
    let text = bent.response().to_string();
    let (from, to) = match (bent.shape, rng.index(3)) {
        (Shape::ErrorFrame, 0) => (
            "\"id\":7".to_string(),
            rng.pick(&["\"id\":7.0", "\"id\":7e0"]).to_string(),
        ),
        (Shape::ErrorFrame, 1) => (
            "\"code\":-32602".to_string(),
            rng.pick(&["\"code\":-32602.0", "\"code\":-3.2602e4"])
                .to_string(),
        ),
        _ => (
            format!("\"{NUMBER_NAME}\":{number}"),
            format!("\"{NUMBER_NAME}\":{served}"),
        ),
    };
    text.replacen(&from, &to, 1)
}

/// A genuine response whose payload is nested deep, as text: deeper than some readers go,
/// near the core's bound, or past it.
fn deep(rng: &mut Rng, server: &Server) -> String {
    let depth = rng.pick(&[100, 127, 129, 1_000, 5_000, 9_990, 9_997, 10_001, 12_000]);
    let inner = String::from_utf8_lossy(&jcs(&server.data)).into_owned();
    let payload = format!("{}{inner}{}", "[".repeat(depth), "]".repeat(depth));
    let text = format!("Nested {depth} levels");
    let wrapper = format!(
        r#"{{"content_digest":"{}","iat":{IAT},"payload":{payload},"payload_digest":"{}","provenance":{}}}"#,
        sha256_label(text.as_bytes()),
        sha256_label(payload.as_bytes()),
        String::from_utf8_lossy(&jcs(&provenance()))
    );
    let jws = server.signer.sign_bytes(&server.header, wrapper.as_bytes());
    format!(
        r#"{{"jsonrpc":"2.0","id":1,"result":{{"content":[{{"type":"text","text":"{text}"}}],"structuredContent":{payload},"_meta":{{"{META_KEY}":{}}}}}}}"#,
        server.signer.envelope(jws)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn served_numbers_come_in_every_spelling_a_client_reads_alike() {
        let mut seen = std::collections::BTreeSet::new();
        for i in 0..20_000 {
            seen.extend(served_spelling(&case(1, i).1));
        }
        for spelling in [
            "E",
            "e+",
            "exponent with leading zeros",
            "trailing zeros",
            "plain",
        ] {
            assert!(seen.contains(spelling), "{spelling}: {seen:?}");
        }
        // Each respelling is the canonical number's exact value, as bigdecimal reads both.
        let mut rng = Rng::new(5);
        for _ in 0..2_000 {
            let signed = ryu_js::Buffer::new()
                .format_finite(measure(&mut rng))
                .to_string();
            let served = respelled(&mut rng, &signed);
            assert!(serde_json::from_str::<Value>(&served).is_ok(), "{served}");
            assert!(
                canonfuzz_props::read::exact_numbers::Numbers::Exact.same(&served, &signed),
                "{signed} {served}"
            );
        }
    }
    use canonfuzz_core::jws::Jwks;
    use canonfuzz_core::vmcp::{verify_response, Clock};

    fn verdict(input: &[u8]) -> Option<bool> {
        let case = VmcpCase::parse(input)?;
        let jwks = Jwks::parse(case.jwks.to_string().as_bytes()).ok()?;
        Some(verify_response(case.response.as_bytes(), &jwks, Clock::at(case.now)).is_valid())
    }

    #[test]
    fn the_served_content_is_read_as_a_client_reads_it() {
        let case = |response: &str| {
            VmcpCase {
                jwks: json!({"keys": []}),
                now: IAT,
                response: response.to_string(),
            }
            .encode()
        };
        let two_items = r#"{"result":{"content":[{"type":"text","text":"a"},{}]}}"#;
        assert_eq!(content_beyond_text_arm(&case(two_items)), Ok(true));
        // serde_json's Value reads this object as the text its one member holds, which has
        // two items; a client reads one member, and no content.
        let marker = json!({"$serde_json::private::RawValue": two_items}).to_string();
        assert_eq!(content_beyond_text_arm(&case(&marker)), Ok(false));
        // Past serde_json's 128 levels, as deep as the core reads: the second arm is seen.
        for depth in [130, canonfuzz_core::jcs::DEFAULT_MAX_DEPTH - 5] {
            let deep = format!(
                r#"{{"result":{{"structuredContent":{}1{},"content":[{{"type":"text","text":"a"}},{{}}]}}}}"#,
                "[".repeat(depth),
                "]".repeat(depth)
            );
            assert_eq!(content_beyond_text_arm(&case(&deep)), Ok(true), "{depth}");
        }
        // A case the harness cannot read is its own failure, not a case the policy is not about.
        assert!(content_beyond_text_arm(b"not a case").is_err());
    }

    #[test]
    fn genuine_responses_of_every_shape_verify() {
        let signer = signer().unwrap();
        for (i, shape) in SHAPES.into_iter().enumerate() {
            let mut rng = Rng::for_case(3, i as u64);
            let server = Server {
                signer: &signer,
                shape,
                data: payload(&mut rng, 3),
                id: json!(5),
                extra: Map::new(),
                header: signer.header(&signer.kid),
                number: None,
            };
            let case = VmcpCase {
                jwks: signer.jwks.clone(),
                now: IAT,
                response: server.response().to_string(),
            };
            assert_eq!(
                verdict(&case.encode()),
                Some(true),
                "{shape:?}: {}",
                case.response
            );
        }
    }

    #[test]
    fn every_category_is_generated_and_both_verdicts_occur() {
        let mut seen = std::collections::BTreeSet::new();
        let (mut valid, mut invalid) = (0, 0);
        for i in 0..400 {
            let (category, input) = case(1, i);
            seen.insert(category);
            match verdict(&input) {
                Some(true) => valid += 1,
                _ => invalid += 1,
            }
        }
        assert_eq!(seen.len(), 5, "{seen:?}");
        assert!(
            valid > 60 && invalid > 60,
            "{valid} valid, {invalid} invalid"
        );
    }

    #[test]
    fn the_policy_predicates_read_the_response() {
        let case = |response: &str| {
            VmcpCase {
                jwks: json!({}),
                now: 0,
                response: response.to_string(),
            }
            .encode()
        };
        let holds = |predicate: fn(&[u8]) -> Result<bool, Unreadable>, response: &str| {
            predicate(&case(response)).unwrap()
        };
        assert!(holds(
            response_has_duplicate_names,
            r#"{"a":{"b":1,"b":2}}"#
        ));
        assert!(holds(
            response_has_duplicate_names,
            r#"{"a":{"b":1,"\u0062":2}}"#
        ));
        assert!(!holds(
            response_has_duplicate_names,
            r#"{"a":{"b":1,"c":[{"b":2}]}}"#
        ));
        let deep_twice = format!(r#"{}{{"b":1,"b":2}}{}"#, "[".repeat(300), "]".repeat(300));
        assert!(holds(response_has_duplicate_names, &deep_twice));
        let deep = format!("{}{}", "[".repeat(10_001), "]".repeat(10_001));
        assert!(holds(response_nested_past_bound, &deep));
        let shallow = format!("{}\"[[\"{}", "[".repeat(9_999), "]".repeat(9_999));
        assert!(!holds(response_nested_past_bound, &shallow));
        assert!(holds(
            content_beyond_text_arm,
            r#"{"result":{"content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}}"#
        ));
        assert!(holds(
            content_beyond_text_arm,
            r#"{"content":[{"type":"text","text":"a","annotations":{}}]}"#
        ));
        assert!(!holds(
            content_beyond_text_arm,
            r#"{"result":{"content":[{"type":"text","text":"a"}]}}"#
        ));
    }

    #[test]
    fn a_value_ends_where_its_json_ends() {
        let text = r#"{"a":{"b":"}"},"c":[1,[2]],"d":3}"#;
        assert_eq!(&text[5..value_end(text, 5)], r#"{"b":"}"}"#);
        assert_eq!(&text[19..value_end(text, 19)], "[1,[2]]");
        assert_eq!(&text[31..value_end(text, 31)], "3");
    }
}
