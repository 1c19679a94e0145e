//! verifiable-mcp cases: a whole response as a server sends it, the key set and the clock to
//! verify it with. Genuine responses of every kind (tools/call with a JSON or a prose text arm,
//! tool-level isError, resources/read, JSON-RPC error frames, bare results), signed by the test
//! server over payloads from the JCS generator, and forgeries made from them the way an attacker
//! would: members added, moved, duplicated or nulled, branches mixed, text arms changed, kids
//! missing, unknown or repeated, times at the edges of the skew, payloads nested deep.
//!
//! A case travels as one JSON line `{"jwks":{..},"now":N,"response":"<text>"}`: the response as
//! a string, so that every byte of it (duplicate names, any nesting) reaches every verifier.

mod depth;
mod fields;
mod keys_and_times;
mod members;
mod numbers;

pub use canonfuzz_props::vmcp::test_server as server;
pub use fields::{
    content_beyond_text_arm, named_key_restricted, response_has_duplicate_names,
    response_nested_past_bound, served_number_read_otherwise, FIELDS,
};

use std::sync::OnceLock;

use canonfuzz_core::vmcp::META_KEY;
use canonfuzz_props::read::for_judgment::{self, Unreadable};
use serde_json::{json, Map, Value};

use self::server::{jcs, provenance, sha256_label, signer, Signer, IAT};
use canonfuzz_rng::Rng;
use depth::deep;
use keys_and_times::{keys, times};
use numbers::NUMBER_NAME;

use crate::families::jcs::gen::{self as jcs_gen, case as jcs_case};
use crate::family::Category;

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
        VMCP_MEMBERS => members::members(&mut rng, &server),
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

#[cfg(test)]
mod tests {
    use super::*;
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
}
