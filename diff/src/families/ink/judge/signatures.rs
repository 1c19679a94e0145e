//! INK's request signatures as the judge checks them: the signature base, INK-Ed25519 over it
//! by ring, keys in hex, a key history's usable entries in the order rotation tries them, and
//! the Authorization header.

use json_syntax::Value;

use super::epoch_ms;
use crate::judge::json::{self, text};
use crate::judge::{must, refused, Refusal};

/// Whether a request's INK-Ed25519 signature verifies over its signature base with its key.
pub(super) fn verified(case: &Value, base: &[u8]) -> Result<(), Refusal> {
    let key = key(text(case, "publicKeyHex").ok_or(Refusal::Unanswered)?)
        .ok_or_else(|| refused("the key is not 64 lowercase hex digits"))?;
    let signature = signature(text(case, "signature").ok_or(Refusal::Unanswered)?)?;
    must(
        verifies(&key, &signature, base),
        "the signature does not verify",
    )
}

/// An INK-Ed25519 signature's bytes: 86 base64url characters, strictly decoded.
pub(super) fn signature(text: &str) -> Result<Vec<u8>, Refusal> {
    must(text.len() == 86, "not 86 base64url characters")?;
    crate::judge::jws::decode(text)
}

/// Whether `signature` verifies over `base` under `key`, by ring.
pub(super) fn verifies(key: &[u8], signature: &[u8], base: &[u8]) -> bool {
    ring::signature::UnparsedPublicKey::new(&ring::signature::ED25519, key)
        .verify(base, signature)
        .is_ok()
}

/// A key or hash written as 64 lowercase hex digits, as its 32 bytes.
pub(super) fn key(hex: &str) -> Option<Vec<u8>> {
    if hex.len() != 64 || !hex.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')) {
        return None;
    }
    hex.as_bytes()
        .chunks(2)
        .map(|pair| {
            std::str::from_utf8(pair)
                .ok()
                .and_then(|d| u8::from_str_radix(d, 16).ok())
        })
        .collect()
}

/// An entry of a key history that can verify a message sent at `at` (epoch milliseconds): an
/// object whose status is exactly `active` or `retired`, with no `revokedAt` member, whose
/// `validFrom` and `validUntil`, each absent or an INK timestamp, hold `at` (both bounds
/// inclusive), and whose key is 64 lowercase hex digits. Its id, status and key.
pub(super) fn usable(entry: &Value, at: i64) -> Option<(Option<&str>, &str, Vec<u8>)> {
    let status = text(entry, "status").filter(|s| matches!(*s, "active" | "retired"))?;
    if json::member(entry, "revokedAt").is_some() {
        return None;
    }
    let bound = |name: &str| match json::member(entry, name) {
        None => Some(None),
        Some(Value::String(s)) => epoch_ms(s).ok().map(Some),
        Some(_) => None,
    };
    let (from, until) = (bound("validFrom")?, bound("validUntil")?);
    if from.is_some_and(|f| at < f) || until.is_some_and(|u| at > u) {
        return None;
    }
    Some((
        text(entry, "keyId"),
        status,
        key(text(entry, "publicKeyHex")?)?,
    ))
}

/// A request's signature base: `ink/0.1`, the request's method, path and recipient, its
/// body's JCS form and `timestamp`, one per line, no field holding a line break.
pub(super) fn signature_base(
    request: &Value,
    body: &Value,
    timestamp: &str,
) -> Result<Vec<u8>, Refusal> {
    let [method, path, recipient] = ["method", "path", "recipientDid"]
        .map(|name| text(request, name).ok_or(Refusal::Unanswered));
    let (method, path, recipient) = (method?, path?, recipient?);
    for value in [method, path, recipient, timestamp] {
        must(!value.contains(['\n', '\r']), "a field holds a line break")?;
    }
    let mut base = format!("ink/0.1\n{method}\n{path}\n{recipient}\n").into_bytes();
    base.extend(json::canonical(body)?);
    base.push(b'\n');
    base.extend_from_slice(timestamp.as_bytes());
    Ok(base)
}

/// A request's signature checked against a key history.
pub(super) struct Rotation<'a> {
    /// The request's timestamp.
    pub(super) timestamp: &'a str,
    /// The key history.
    pub(super) keys: &'a [Value],
    /// The signature, as written.
    pub(super) signature: &'a str,
    /// The key id hint, if any.
    pub(super) hint: Option<&'a str>,
    /// Whether live authentication asks for the entry.
    pub(super) live: bool,
    /// Whether live authentication takes retired keys.
    pub(super) allow_retired: bool,
}

/// The entry of a request's key history that verifies it, as its status and key id: of the usable
/// entries, the hinted one first, then the active ones in order, then the retired ones; none
/// usable, a signature not 86 base64url characters, or none verifying, and the request is
/// refused. Under live authentication a retired entry is refused unless retired keys are
/// allowed.
pub(super) fn rotated(r: &Rotation, base: &[u8]) -> Result<(String, String), Refusal> {
    let at = epoch_ms(r.timestamp)?;
    let usable: Vec<_> = r
        .keys
        .iter()
        .filter_map(|entry| usable(entry, at))
        .collect();
    let hinted = usable
        .iter()
        .find(|(id, ..)| r.hint.is_some() && *id == r.hint);
    let by = |wanted: &'static str| {
        usable
            .iter()
            .filter(move |(_, status, _)| *status == wanted)
    };
    let mut order = hinted
        .into_iter()
        .chain(by("active"))
        .chain(by("retired"))
        .peekable();
    must(
        order.peek().is_some(),
        "no entry of the key history is usable",
    )?;
    let signature = signature(r.signature)?;
    let (id, status, _) = order
        .find(|(_, _, key)| verifies(key, &signature, base))
        .ok_or_else(|| refused("no usable entry verifies the signature"))?;
    must(
        !(r.live && *status == "retired" && !r.allow_retired),
        "live authentication takes active keys",
    )?;
    Ok((status.to_string(), id.unwrap_or_default().to_string()))
}

/// A rotation case's entry, as [`rotated`] finds it, written `<status> <keyId>`.
pub(super) fn rotation(case: &Value, base: &[u8]) -> Result<String, Refusal> {
    let Some(Value::Array(keys)) = json::member(case, "keys") else {
        return Err(Refusal::Unanswered);
    };
    let flag = |name: &str| matches!(json::member(case, name), Some(Value::Boolean(true)));
    let rotation = Rotation {
        timestamp: text(case, "timestamp").ok_or(Refusal::Unanswered)?,
        keys,
        signature: text(case, "signature").ok_or(Refusal::Unanswered)?,
        hint: text(case, "hintKeyId"),
        live: flag("liveAuth"),
        allow_retired: flag("liveAuthAllowRetired"),
    };
    rotated(&rotation, base).map(|(status, id)| format!("{status} {id}"))
}

/// Seed 003's key rotation over a raw message: the entry [`rotated`] finds for the message's
/// bytes with no hint and no live authentication, as RFC 8785 JSON of its `keyId`,
/// `keyStatus` and whether it is retired (`usedRetiredKey`).
pub(super) fn raw_rotation(input: &Value) -> Result<Vec<u8>, Refusal> {
    let Some(Value::Array(keys)) = json::member(input, "keyHistory") else {
        return Err(Refusal::Unanswered);
    };
    let field = |name: &str| text(input, name).ok_or(Refusal::Unanswered);
    let rotation = Rotation {
        timestamp: field("messageTimestamp")?,
        keys,
        signature: field("signature")?,
        hint: None,
        live: false,
        allow_retired: false,
    };
    let (status, id) = rotated(&rotation, field("message")?.as_bytes())?;
    let mut yields = json_syntax::Object::new();
    yields.insert("keyId".into(), Value::String(id.as_str().into()));
    yields.insert("keyStatus".into(), Value::String(status.as_str().into()));
    yields.insert("usedRetiredKey".into(), Value::Boolean(status == "retired"));
    json::canonical(&Value::Object(yields))
}

/// An Authorization header's signature and key id hint: `INK-Ed25519`, spaces or tabs, 86
/// base64url characters, then optionally spaces or tabs and `keyId=` with 1 to 128 of
/// `[A-Za-z0-9_:.-]`; trailing spaces or tabs allowed, nothing else.
pub(super) fn authorization(header: &str) -> Result<(&str, Option<&str>), Refusal> {
    let bad = || refused("not an INK-Ed25519 Authorization header");
    let rest = header.strip_prefix("INK-Ed25519").ok_or_else(bad)?;
    let blank = |c: char| c == ' ' || c == '\t';
    must(rest.starts_with(blank), "no blank after the scheme")?;
    let mut words = rest.split(blank).filter(|w| !w.is_empty());
    let signature = words.next().ok_or_else(bad)?;
    let base64url = |b: u8| b.is_ascii_alphanumeric() || b == b'-' || b == b'_';
    must(
        signature.len() == 86 && signature.bytes().all(base64url),
        "the signature is not 86 base64url characters",
    )?;
    let hint = match words.next() {
        None => None,
        Some(word) => {
            let id = word.strip_prefix("keyId=").ok_or_else(bad)?;
            let allowed = |b: u8| b.is_ascii_alphanumeric() || b"_:.-".contains(&b);
            must(
                (1..=128).contains(&id.len()) && id.bytes().all(allowed),
                "the keyId is not 1 to 128 of [A-Za-z0-9_:.-]",
            )?;
            Some(id)
        }
    };
    must(
        words.next().is_none() && rest.chars().all(|c| c != '\r' && c != '\n'),
        "text after the parameters",
    )?;
    Ok((signature, hint))
}
