//! The fields of a verifiable-mcp case, each read off the response and the signed token, and
//! the predicates the vmcp policies decide from.

use canonfuzz_core::vmcp::META_KEY;
use canonfuzz_props::read::for_judgment::{self, nesting, Unreadable};
use serde_json::Value;

use crate::family::Field;

use super::numbers::spelling;
use super::numbers::NUMBER_NAME;
use super::{VmcpCase, CATEGORIES, SHAPED, VMCP_KEYS, VMCP_MEMBERS, VMCP_TIMES};

/// The header (0) or signed wrapper (1) of the JWS a case's response carries, as a value.
pub(super) fn signed_part(input: &[u8], part: usize) -> Option<Value> {
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
pub(super) fn signed_member(input: &[u8], part: usize, name: &str) -> Vec<String> {
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

/// The spelling of the number served as [`NUMBER_NAME`] in a case's response, if any.
pub(super) fn served_spelling(input: &[u8]) -> Vec<String> {
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
