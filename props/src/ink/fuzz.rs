//! The `ink_header` target's property.

use canonfuzz_core::ink::transport::Authorization;
use canonfuzz_core::ink::InkError;

/// Parses `data` as an INK Authorization header: the parser must never panic, and an accepted
/// header must match INK's published pattern
/// `^INK-Ed25519[ \t]+([A-Za-z0-9_-]{86})(?:[ \t]+keyId=([A-Za-z0-9_:.-]{1,128}))?$` (with the
/// pattern's whitespace narrowed to spaces and tabs), checked here by a separate reading.
pub fn ink_header_check(data: &[u8]) -> Result<(), String> {
    ink_header_check_with(data, canonfuzz_core::ink::transport::parse_authorization)
}

/// [`ink_header_check`] of another parser, so that a planted bug can be shown to break it.
pub fn ink_header_check_with(
    data: &[u8],
    parse: fn(&str) -> Result<Authorization, InkError>,
) -> Result<(), String> {
    let text = String::from_utf8_lossy(data);
    let Ok(parsed) = parse(&text) else {
        return Ok(());
    };
    let blank = |c: char| c == ' ' || c == '\t';
    let rest = text.strip_prefix("INK-Ed25519").unwrap_or_default();
    let words: Vec<&str> = rest.split(blank).filter(|w| !w.is_empty()).collect();
    let base64url = |w: &str| {
        w.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
    };
    let id_ok = |w: &str| {
        (1..=128).contains(&w.len())
            && w.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"_:.-".contains(&b))
    };
    let matches = rest.starts_with(blank)
        && !text.contains(['\r', '\n'])
        && match words.as_slice() {
            [sig] => sig.len() == 86 && base64url(sig) && parsed.key_id.is_none(),
            [sig, hint] => {
                sig.len() == 86
                    && base64url(sig)
                    && hint.strip_prefix("keyId=").is_some_and(id_ok)
                    && parsed.key_id.as_deref() == hint.strip_prefix("keyId=")
            }
            _ => false,
        };
    if matches && words.first() == Some(&parsed.signature.as_str()) {
        Ok(())
    } else {
        Err(format!(
            "accepted a header outside INK's pattern, or read it wrong: {text:?}"
        ))
    }
}
