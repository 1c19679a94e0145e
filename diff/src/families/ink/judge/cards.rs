//! INK's Agent Cards as the judge reads them: endpoints, sections and key histories.

use json_syntax::Value;

use super::epoch_ms;
use super::messages::{bounded, chosen, listed, snapshot, strings};
use super::witness::integer;
use crate::judge::json::{self, text};
use crate::judge::{must, refused, Refusal};

/// INK's endpoint URL: at most 2,048 bytes, no control, space or backslash, no fragment,
/// well-formed percent escapes, `https://`, then an authority without userinfo or escapes — a
/// host of letters, digits, dots and hyphens or a bracketed IPv6 literal of hex digits, colons
/// and dots, and an optional port from 1 to 65535 — then any path and query.
fn endpoint_url(url: Option<&Value>) -> Result<&str, Refusal> {
    let Some(Value::String(url)) = url else {
        return Err(refused("an endpoint is not a string"));
    };
    let url = url.as_str();
    let bytes = url.as_bytes();
    let escaped = bytes.iter().enumerate().all(|(i, b)| {
        *b != b'%'
            || bytes
                .get(i + 1..i + 3)
                .is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit))
    });
    must(
        !url.is_empty()
            && bytes.len() <= 2048
            && !url
                .chars()
                .any(|c| c <= ' ' || c == '\u{7f}' || c == '\\' || c == '#')
            && escaped,
        "a control, space, backslash, fragment or bad escape",
    )?;
    let rest = url
        .strip_prefix("https://")
        .ok_or_else(|| refused("not https"))?;
    let authority = rest.split(['/', '?']).next().unwrap_or_default();
    let (host, port) = match authority.strip_prefix('[') {
        Some(bracketed) => match bracketed.split_once(']') {
            Some((host, "")) => (host, None),
            Some((host, after)) => (host, Some(after.strip_prefix(':').unwrap_or("x"))),
            None => ("", None),
        },
        None => match authority.split_once(':') {
            Some((host, port)) => (host, Some(port)),
            None => (authority, None),
        },
    };
    let bracketed = authority.starts_with('[');
    let host_chars = |c: char| {
        if bracketed {
            c.is_ascii_hexdigit() || c == ':' || c == '.'
        } else {
            c.is_ascii_alphanumeric() || c == '.' || c == '-'
        }
    };
    must(
        !host.is_empty() && host.chars().all(host_chars),
        "not a plain host",
    )?;
    if let Some(port) = port {
        let digits = !port.is_empty() && port.bytes().all(|b| b.is_ascii_digit());
        must(
            digits && port.parse::<u32>().is_ok_and(|n| (1..=65535).contains(&n)),
            "not a port from 1 to 65535",
        )?;
    }
    Ok(url)
}

/// The intent types a card may list.
const CARD_INTENTS: [&str; 15] = [
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

/// Visibility, from the most exposed to the least.
const VISIBILITIES: [&str; 4] = ["public", "network_only", "capability_gated", "private"];

/// The statuses of a key entry.
const KEY_STATUSES: [&str; 3] = ["active", "retired", "revoked"];

/// An object member `key` of `m`, when present; refused when present and not an object.
fn section<'a>(m: &'a Value, key: &str) -> Result<Option<&'a Value>, Refusal> {
    match json::member(m, key) {
        None => Ok(None),
        Some(v @ Value::Object(_)) => Ok(Some(v)),
        Some(_) => Err(refused("a section is not an object")),
    }
}

/// Member `key` of `m` is a boolean; absent only if not `needed`.
fn flag(m: &Value, key: &str, needed: bool) -> Result<(), Refusal> {
    match json::member(m, key) {
        None => must(!needed, "a required flag is missing"),
        Some(v) => must(matches!(v, Value::Boolean(_)), "a flag is not a boolean"),
    }
}

/// Member `key` of `m`, when present, is an integer from 1 to 2^53 − 1.
fn positive(m: &Value, key: &str) -> Result<(), Refusal> {
    match json::member(m, key) {
        None => Ok(()),
        some => must(
            integer(some, 1).is_some(),
            "a count is not a positive integer",
        ),
    }
}

/// Member `key` of `m` is a list of at most `count` of the strings `allowed`; absent only if
/// not `needed`.
fn choices(
    m: &Value,
    key: &str,
    needed: bool,
    count: usize,
    allowed: &[&str],
) -> Result<(), Refusal> {
    strings(m, key, needed, count, |s| allowed.contains(&s))
}

/// Member `key` of `m` is an INK timestamp; absent only if not `needed`.
fn strict(m: &Value, key: &str, needed: bool) -> Result<(), Refusal> {
    match json::member(m, key) {
        None => must(!needed, "a required timestamp is missing"),
        Some(Value::String(s)) => epoch_ms(s).map(|_| ()),
        Some(_) => Err(refused("a timestamp is not a string")),
    }
}

/// A string of 1 to 128 UTF-16 code units.
fn id_128(value: Option<&Value>) -> bool {
    matches!(value, Some(Value::String(s)) if (1..=128).contains(&s.encode_utf16().count()))
}

/// A string of 86 base64url characters.
fn signature_86(value: Option<&Value>) -> bool {
    matches!(value, Some(Value::String(s)) if s.len() == 86
        && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'))
}

/// INK's Agent Card: its required members (protocol, ids, handle, display name, endpoint,
/// multibase key, capabilities, availability) and, when present, each optional section as INK
/// bounds it; unknown top-level members ignored.
pub(super) fn card(c: &Value) -> Result<Vec<u8>, Refusal> {
    must(matches!(c, Value::Object(_)), "the card is not an object")?;
    chosen(c, "protocol", &["ink/0.1"])?;
    bounded(c, "agentId", 512, true)?;
    bounded(c, "ownerDid", 512, false)?;
    bounded(c, "ownerHandle", 256, false)?;
    bounded(c, "atprotoRecordUri", 2048, false)?;
    bounded(c, "handle", 256, true)?;
    bounded(c, "displayName", 200, true)?;
    let endpoint = endpoint_url(json::member(c, "endpoint"))?;
    if let Some(inbox) = json::member(c, "inboxEndpoint") {
        must(
            endpoint_url(Some(inbox))? == endpoint,
            "inboxEndpoint differs from endpoint",
        )?;
    }
    bounded(c, "publicKeyMultibase", 128, true)?;
    must(
        text(c, "publicKeyMultibase").is_some_and(|k| k.starts_with('z')),
        "publicKeyMultibase is not z-multibase",
    )?;
    if let Some(profile) = json::member(c, "profileSnapshot") {
        snapshot(Some(profile))?;
    }
    capabilities(section(c, "capabilities")?.ok_or_else(|| refused("no capabilities"))?)?;
    let availability = section(c, "availability")?.ok_or_else(|| refused("no availability"))?;
    bounded(availability, "timezone", 64, true)?;
    bounded(availability, "meetingHours", 200, false)?;
    bounded(availability, "responseSla", 200, false)?;
    if let Some(keys) = section(c, "keys")? {
        key_histories(keys)?;
    }
    bounded(c, "currentSigningKeyId", 128, false)?;
    bounded(c, "currentEncryptionKeyId", 128, false)?;
    positive(c, "keySetVersion")?;
    listed(c, "supportedProtocolVersions", false, 8, 16)?;
    let visibility = match json::member(c, "visibility") {
        None => "public",
        Some(_) => text(c, "visibility").ok_or_else(|| refused("visibility"))?,
    };
    let card_rank = rank(visibility).ok_or_else(|| refused("not a visibility"))?;
    if let Some(d) = section(c, "discovery")? {
        discovery(d, card_rank)?;
    }
    if let Some(g) = section(c, "governance")? {
        governance(g)?;
    }
    if let Some(s) = section(c, "cardSignature")? {
        must(
            id_128(json::member(s, "keyId")) && signature_86(json::member(s, "signature")),
            "cardSignature",
        )?;
    }
    if let Some(chain) = json::member(c, "rotationChain") {
        rotation_chain(chain)?;
    }
    strict(c, "updatedAt", false)?;
    Ok(b"valid".to_vec())
}

/// A card's capabilities: the intents it accepts and sends, receipts, audit exchange and
/// third-party audit services.
fn capabilities(caps: &Value) -> Result<(), Refusal> {
    choices(caps, "intentsAccepted", true, 32, &CARD_INTENTS)?;
    choices(caps, "intentsSent", true, 32, &CARD_INTENTS)?;
    if let Some(receipts) = section(caps, "receipts")? {
        flag(receipts, "send", true)?;
        let dispositions = ["received", "delivered", "acted", "rejected", "expired"];
        choices(receipts, "dispositions", true, 16, &dispositions)?;
    }
    flag(caps, "auditExchange", false)?;
    if let Some(audit) = section(caps, "thirdPartyAudit")? {
        let Some(Value::Array(services)) = json::member(audit, "services") else {
            return Err(refused("services is not a list"));
        };
        must(services.len() <= 16, "more than 16 services")?;
        for service in services.iter() {
            must(
                matches!(service, Value::Object(_)),
                "a service is not an object",
            )?;
            endpoint_url(json::member(service, "endpoint"))?;
            bounded(service, "did", 512, true)?;
            bounded(service, "publicKey", 256, true)?;
        }
        chosen(audit, "submitPolicy", &["all", "high_value", "none"])?;
    }
    Ok(())
}

/// A card's signing and encryption key histories: at most 32 entries each, every one with a
/// key id, its role's algorithm, a multibase key, a status and INK timestamps.
fn key_histories(keys: &Value) -> Result<(), Refusal> {
    for (role, algorithm) in [("signing", "Ed25519"), ("encryption", "X25519")] {
        let Some(Value::Array(entries)) = json::member(keys, role) else {
            return Err(refused("a key history is not a list"));
        };
        must(entries.len() <= 32, "a key history past 32 entries")?;
        for entry in entries.iter() {
            must(
                matches!(entry, Value::Object(_)),
                "a key entry is not an object",
            )?;
            must(text(entry, "keyId").is_some_and(|k| !k.is_empty()), "keyId")?;
            chosen(entry, "algorithm", &[algorithm])?;
            must(
                text(entry, "publicKeyMultibase").is_some_and(|k| k.starts_with('z')),
                "publicKeyMultibase",
            )?;
            chosen(entry, "status", &KEY_STATUSES)?;
            strict(entry, "validFrom", true)?;
            strict(entry, "validUntil", false)?;
            strict(entry, "revokedAt", false)?;
            must(
                matches!(
                    json::member(entry, "revokeReason"),
                    None | Some(Value::String(_))
                ),
                "revokeReason",
            )?;
        }
    }
    Ok(())
}

/// How exposed a visibility is, from 0 for `public`.
fn rank(visibility: &str) -> Option<usize> {
    VISIBILITIES.iter().position(|x| *x == visibility)
}

/// A card's discovery section: enabled, a scope no more exposed than the card, bounded tags.
fn discovery(d: &Value, card_rank: usize) -> Result<(), Refusal> {
    flag(d, "enabled", true)?;
    let scope = text(d, "scope")
        .and_then(rank)
        .ok_or_else(|| refused("scope"))?;
    must(scope >= card_rank, "the scope exposes more than the card")?;
    strings(d, "tags", false, 32, |t| {
        (1..=64).contains(&t.encode_utf16().count())
    })?;
    flag(d, "queryable", false)?;
    strict(d, "updatedAt", false)?;
    Ok(())
}

/// A card's governance section: delegation depth, known transports, handshake budget.
fn governance(g: &Value) -> Result<(), Refusal> {
    positive(g, "maxAcceptedDelegationDepth")?;
    let known = [
        "ink_http",
        "ink_ws",
        "extension_api",
        "voice",
        "line_phone",
        "human_review_queue",
    ];
    choices(g, "supportedTransports", false, usize::MAX, &known)?;
    flag(g, "supportsCapabilityGatedDiscovery", false)?;
    if let Some(budget) = section(g, "handshakeBudget")? {
        positive(budget, "maxChallengesPerCorrelation")?;
        positive(budget, "maxIntentsPerMinute")?;
    }
    Ok(())
}

/// A card's rotation chain: at most 32 links, each a key set version, 1 to 32 signing entries
/// with distinct key ids, the previous key's id and a signature.
fn rotation_chain(chain: &Value) -> Result<(), Refusal> {
    let Value::Array(links) = chain else {
        return Err(refused("rotationChain is not a list"));
    };
    must(links.len() <= 32, "rotationChain past 32 links")?;
    for link in links.iter() {
        must(matches!(link, Value::Object(_)), "a link is not an object")?;
        must(
            json::member(link, "keySetVersion").is_some(),
            "no keySetVersion",
        )?;
        positive(link, "keySetVersion")?;
        let Some(Value::Array(signing)) = json::member(link, "signing") else {
            return Err(refused("a link's signing set is not a list"));
        };
        must((1..=32).contains(&signing.len()), "a link's signing set")?;
        let mut seen: Vec<&str> = Vec::new();
        for entry in signing.iter() {
            let key = text(entry, "publicKeyMultibase").unwrap_or_default();
            must(
                id_128(json::member(entry, "keyId"))
                    && key.starts_with('z')
                    && key.encode_utf16().count() <= 128,
                "a signing entry",
            )?;
            let id = text(entry, "keyId").unwrap_or_default();
            must(!seen.contains(&id), "a repeated keyId")?;
            seen.push(id);
            chosen(entry, "status", &KEY_STATUSES)?;
        }
        must(
            id_128(json::member(link, "prevKeyId"))
                && signature_86(json::member(link, "signature")),
            "a link's prevKeyId or signature",
        )?;
    }
    Ok(())
}
