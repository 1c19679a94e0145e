//! INK Agent Cards: the discovery document an agent publishes. Unknown top-level members are
//! ignored (the embedded profile snapshot stays strict); required are `protocol` `ink/0.1`,
//! `agentId`, `handle`, `displayName`, an `endpoint` under INK's narrow endpoint URL grammar
//! (an `inboxEndpoint`, when present, equal to it byte for byte), a `z` multibase public key,
//! `capabilities` (intent types from INK's list) and `availability`. Optional members — keys
//! (Ed25519 signing and X25519 encryption entries with `z` multibase keys, as the corpus this
//! follows pins them, and strict key-window timestamps), governance, visibility and a discovery descriptor that may only narrow the
//! card's visibility, the card proof and rotation chain shapes — are checked when present.

use std::collections::BTreeSet;

use serde_json::Value;

use super::schema::{bad, object, one_of, optional, profile_snapshot, required, strings, Object};
use super::{time, utf16_len, InkError, MAX_SAFE_INTEGER};

/// The intent types a card may list.
pub const INTENT_TYPES: [&str; 15] = [
    "schedule_meeting",
    "schedule_meeting_response",
    "intro_request",
    "intro_response",
    "opportunity",
    "opportunity_response",
    "follow_up",
    "ask",
    "ask_response",
    "connection_request",
    "connection_response",
    "context_share",
    "ping",
    "retract",
    "multi_party_sync",
];

/// Visibility from most to least exposed.
pub const VISIBILITY: [&str; 4] = ["public", "network_only", "capability_gated", "private"];

/// Whether `value` is an INK endpoint URL: at most 2,048 bytes, no control character, space or
/// backslash, well-formed percent escapes, `https://`, a host of `[A-Za-z0-9.-]` or a bracketed
/// IPv6 literal of `[0-9A-Fa-f:.]` (no userinfo, no percent-encoding in the authority), an
/// optional port 1-65535, an optional path and query, and no fragment.
pub fn is_endpoint_url(value: &str) -> bool {
    let bytes = value.as_bytes();
    if value.is_empty() || bytes.len() > 2048 || value.chars().any(|c| c <= ' ' || c == '\u{7f}') {
        return false;
    }
    let escapes_ok = bytes.iter().enumerate().all(|(i, b)| {
        *b != b'%'
            || (bytes.get(i + 1).is_some_and(u8::is_ascii_hexdigit)
                && bytes.get(i + 2).is_some_and(u8::is_ascii_hexdigit))
    });
    if value.contains(['\\', '#']) || !escapes_ok {
        return false;
    }
    let Some(rest) = value.strip_prefix("https://") else {
        return false;
    };
    let authority = rest.split(['/', '?']).next().unwrap_or_default();
    if authority.is_empty() || authority.contains(['@', '%']) {
        return false;
    }
    let (host_ok, port) = if let Some(bracketed) = authority.strip_prefix('[') {
        let Some((host, after)) = bracketed.split_once(']') else {
            return false;
        };
        let port = match after.strip_prefix(':') {
            Some(p) => Some(p),
            None if after.is_empty() => None,
            None => return false,
        };
        (
            !host.is_empty()
                && host
                    .chars()
                    .all(|c| c.is_ascii_hexdigit() || c == ':' || c == '.'),
            port,
        )
    } else {
        let (host, port) = match authority.split_once(':') {
            Some((h, p)) => (h, Some(p)),
            None => (authority, None),
        };
        (
            !host.is_empty()
                && host
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '-'),
            port,
        )
    };
    host_ok
        && port.is_none_or(|p| {
            !p.is_empty()
                && p.bytes().all(|b| b.is_ascii_digit())
                && p.parse::<u32>().is_ok_and(|n| (1..=65535).contains(&n))
        })
}

fn positive_integer(m: &Object, key: &str) -> Result<(), InkError> {
    match m.get(key) {
        None => Ok(()),
        Some(v)
            if v.as_f64()
                .is_some_and(|f| f.fract() == 0.0 && f >= 1.0 && f <= MAX_SAFE_INTEGER as f64) =>
        {
            Ok(())
        }
        Some(_) => Err(bad(format!("{key} is not a positive integer"))),
    }
}

fn boolean(m: &Object, key: &str, required: bool) -> Result<(), InkError> {
    match m.get(key) {
        None if !required => Ok(()),
        Some(Value::Bool(_)) => Ok(()),
        _ => Err(bad(format!("{key} is not a boolean"))),
    }
}

fn enum_array(
    m: &Object,
    key: &str,
    required: bool,
    max: usize,
    allowed: &[&str],
) -> Result<(), InkError> {
    let Some(v) = m.get(key) else {
        return if required {
            Err(bad(format!("{key} is missing")))
        } else {
            Ok(())
        };
    };
    let items = v
        .as_array()
        .ok_or_else(|| bad(format!("{key} is not an array")))?;
    if items.len() > max
        || items
            .iter()
            .any(|i| !i.as_str().is_some_and(|s| allowed.contains(&s)))
    {
        return Err(bad(format!(
            "{key} holds more than {max} entries or one outside its list"
        )));
    }
    Ok(())
}

fn strict_time(m: &Object, key: &str, required: bool) -> Result<(), InkError> {
    match m.get(key) {
        None if !required => Ok(()),
        Some(Value::String(s)) if time::parse(s).is_ok() => Ok(()),
        _ => Err(bad(format!("{key} is not a strict INK timestamp"))),
    }
}

fn endpoint(m: &Object, key: &str) -> Result<String, InkError> {
    match m.get(key).and_then(Value::as_str) {
        Some(e) if is_endpoint_url(e) => Ok(e.to_string()),
        _ => Err(bad(format!(
            "{key} is not an INK endpoint URL (https, a plain host, no userinfo or fragment)"
        ))),
    }
}

fn multibase_key(m: &Object) -> Result<(), InkError> {
    match m.get("publicKeyMultibase").and_then(Value::as_str) {
        Some(key) if key.starts_with('z') => Ok(()),
        _ => Err(bad(
            "a key entry's publicKeyMultibase does not start with z",
        )),
    }
}

fn key_entry(value: &Value, role: &str) -> Result<(), InkError> {
    let k = object(value, "a key entry")?;
    if k.get("keyId")
        .and_then(Value::as_str)
        .is_none_or(str::is_empty)
    {
        return Err(bad("a key entry has no keyId"));
    }
    let algorithm = if role == "encryption" {
        "X25519"
    } else {
        "Ed25519"
    };
    one_of(k, "algorithm", &[algorithm])?;
    multibase_key(k)?;
    one_of(k, "status", &["active", "retired", "revoked"])?;
    strict_time(k, "validFrom", true)?;
    strict_time(k, "validUntil", false)?;
    strict_time(k, "revokedAt", false)?;
    match k.get("revokeReason") {
        None | Some(Value::String(_)) => Ok(()),
        Some(_) => Err(bad("revokeReason is not a string")),
    }
}

fn capabilities(value: &Value) -> Result<(), InkError> {
    let c = object(value, "capabilities")?;
    enum_array(c, "intentsAccepted", true, 32, &INTENT_TYPES)?;
    enum_array(c, "intentsSent", true, 32, &INTENT_TYPES)?;
    if let Some(r) = c.get("receipts") {
        let r = object(r, "receipts")?;
        boolean(r, "send", true)?;
        enum_array(
            r,
            "dispositions",
            true,
            16,
            &["received", "delivered", "acted", "rejected", "expired"],
        )?;
    }
    boolean(c, "auditExchange", false)?;
    if let Some(t) = c.get("thirdPartyAudit") {
        let t = object(t, "thirdPartyAudit")?;
        let services = t
            .get("services")
            .and_then(Value::as_array)
            .filter(|s| s.len() <= 16)
            .ok_or_else(|| bad("thirdPartyAudit.services is not an array of at most 16"))?;
        for s in services {
            let s = object(s, "a third-party audit service")?;
            endpoint(s, "endpoint")?;
            required(s, "did", 512)?;
            required(s, "publicKey", 256)?;
        }
        one_of(t, "submitPolicy", &["all", "high_value", "none"])?;
    }
    Ok(())
}

fn discovery(value: &Value, upper: &str) -> Result<(), InkError> {
    let d = object(value, "discovery")?;
    boolean(d, "enabled", true)?;
    let scope = d.get("scope").and_then(Value::as_str).unwrap_or_default();
    let rank = |v: &str| VISIBILITY.iter().position(|x| *x == v);
    match (rank(scope), rank(upper)) {
        (Some(s), Some(u)) if s >= u => {}
        (Some(_), _) => {
            return Err(bad(
                "the discovery scope exposes more than the card's visibility",
            ))
        }
        _ => return Err(bad("the discovery scope is not a visibility value")),
    }
    if let Some(tags) = d.get("tags") {
        let ok = tags.as_array().is_some_and(|t| {
            t.len() <= 32
                && t.iter().all(|x| {
                    x.as_str()
                        .is_some_and(|s| !s.is_empty() && utf16_len(s) <= 64)
                })
        });
        if !ok {
            return Err(bad(
                "discovery tags are not at most 32 non-empty strings of at most 64",
            ));
        }
    }
    boolean(d, "queryable", false)?;
    strict_time(d, "updatedAt", false)
}

fn signature_86(value: Option<&Value>) -> bool {
    value.and_then(Value::as_str).is_some_and(|s| {
        s.len() == 86
            && s.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
    })
}

fn id_128(value: Option<&Value>) -> bool {
    value
        .and_then(Value::as_str)
        .is_some_and(|s| (1..=128).contains(&utf16_len(s)))
}

fn rotation_chain(value: &Value) -> Result<(), InkError> {
    let links = value
        .as_array()
        .filter(|l| l.len() <= 32)
        .ok_or_else(|| bad("rotationChain is not an array of at most 32 links"))?;
    for link in links {
        let l = object(link, "a rotation link")?;
        positive_integer(l, "keySetVersion")?;
        if !l.contains_key("keySetVersion") {
            return Err(bad("a rotation link has no keySetVersion"));
        }
        let signing = l
            .get("signing")
            .and_then(Value::as_array)
            .filter(|s| (1..=32).contains(&s.len()))
            .ok_or_else(|| bad("a rotation link's signing set is not 1 to 32 entries"))?;
        let mut seen = BTreeSet::new();
        for entry in signing {
            let e = object(entry, "a rotation signing entry")?;
            let pk = e
                .get("publicKeyMultibase")
                .and_then(Value::as_str)
                .unwrap_or_default();
            if !id_128(e.get("keyId"))
                || !pk.starts_with('z')
                || utf16_len(pk) > 128
                || !seen.insert(e.get("keyId").and_then(Value::as_str).unwrap_or_default())
            {
                return Err(bad(
                    "a rotation signing entry is malformed or repeats a keyId",
                ));
            }
            one_of(e, "status", &["active", "retired", "revoked"])?;
        }
        if !id_128(l.get("prevKeyId")) || !signature_86(l.get("signature")) {
            return Err(bad("a rotation link's prevKeyId or signature is malformed"));
        }
    }
    Ok(())
}

/// Validates an Agent Card.
pub fn validate(value: &Value) -> Result<(), InkError> {
    let c = object(value, "the card")?;
    one_of(c, "protocol", &["ink/0.1"])?;
    required(c, "agentId", 512)?;
    optional(c, "ownerDid", 512)?;
    optional(c, "ownerHandle", 256)?;
    optional(c, "atprotoRecordUri", 2048)?;
    required(c, "handle", 256)?;
    required(c, "displayName", 200)?;
    let main = endpoint(c, "endpoint")?;
    if c.contains_key("inboxEndpoint") && endpoint(c, "inboxEndpoint")? != main {
        return Err(bad("inboxEndpoint differs from endpoint"));
    }
    let pk = required(c, "publicKeyMultibase", 128)?;
    if !pk.starts_with('z') {
        return Err(bad("publicKeyMultibase does not start with z"));
    }
    if let Some(p) = c.get("profileSnapshot") {
        profile_snapshot(p)?;
    }
    capabilities(
        c.get("capabilities")
            .ok_or_else(|| bad("capabilities is missing"))?,
    )?;
    let availability = object(
        c.get("availability")
            .ok_or_else(|| bad("availability is missing"))?,
        "availability",
    )?;
    required(availability, "timezone", 64)?;
    optional(availability, "meetingHours", 200)?;
    optional(availability, "responseSla", 200)?;
    if let Some(keys) = c.get("keys") {
        key_sets(keys)?;
    }
    optional(c, "currentSigningKeyId", 128)?;
    optional(c, "currentEncryptionKeyId", 128)?;
    positive_integer(c, "keySetVersion")?;
    strings(c, "supportedProtocolVersions", false, 8, 16)?;
    let visibility = match c.get("visibility") {
        None => "public",
        Some(v) => v
            .as_str()
            .filter(|v| VISIBILITY.contains(v))
            .ok_or_else(|| {
                bad("visibility is not one of public, network_only, capability_gated, private")
            })?,
    };
    if let Some(d) = c.get("discovery") {
        discovery(d, visibility)?;
    }
    if let Some(g) = c.get("governance") {
        governance(g)?;
    }
    if let Some(s) = c.get("cardSignature") {
        let s = object(s, "cardSignature")?;
        if !id_128(s.get("keyId")) || !signature_86(s.get("signature")) {
            return Err(bad(
                "cardSignature needs a keyId and an 86-character base64url signature",
            ));
        }
    }
    if let Some(chain) = c.get("rotationChain") {
        rotation_chain(chain)?;
    }
    strict_time(c, "updatedAt", false)
}

/// Checks a card's `keys`: its signing and encryption key histories.
fn key_sets(keys: &Value) -> Result<(), InkError> {
    let keys = object(keys, "keys")?;
    for role in ["signing", "encryption"] {
        let entries = keys
            .get(role)
            .and_then(Value::as_array)
            .filter(|e| e.len() <= 32)
            .ok_or_else(|| bad(format!("keys.{role} is not an array of at most 32")))?;
        for e in entries {
            key_entry(e, role)?;
        }
    }
    Ok(())
}

/// Checks a card's `governance`: delegation depth, transports, discovery and the handshake
/// budget.
fn governance(g: &Value) -> Result<(), InkError> {
    let g = object(g, "governance")?;
    positive_integer(g, "maxAcceptedDelegationDepth")?;
    if let Some(t) = g.get("supportedTransports") {
        let ok = t.as_array().is_some_and(|t| {
            t.iter().all(|x| {
                x.as_str().is_some_and(|s| {
                    [
                        "ink_http",
                        "ink_ws",
                        "extension_api",
                        "voice",
                        "line_phone",
                        "human_review_queue",
                    ]
                    .contains(&s)
                })
            })
        });
        if !ok {
            return Err(bad(
                "governance.supportedTransports holds an unknown transport",
            ));
        }
    }
    boolean(g, "supportsCapabilityGatedDiscovery", false)?;
    if let Some(b) = g.get("handshakeBudget") {
        let b = object(b, "handshakeBudget")?;
        positive_integer(b, "maxChallengesPerCorrelation")?;
        positive_integer(b, "maxIntentsPerMinute")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_endpoint_grammar_is_narrow() {
        for good in [
            "https://a.example/ink/inbox",
            "https://[::1]:8443/x?y=1",
            "https://10.0.0.1",
        ] {
            assert!(is_endpoint_url(good), "{good}");
        }
        for bad in [
            "http://a.example",
            "https://u@a.example",
            "https://a.example#f",
            "https://",
            "//a.example",
            "https://a.example:0",
            "https://a.example:65536",
            "https://a\\b",
            "https://a.example/%zz",
            "https://%61.example",
            "https://[fe80::1%25eth0]",
            "https://a.example\n",
            "javascript:alert(1)",
        ] {
            assert!(!is_endpoint_url(bad), "{bad}");
        }
    }
}
