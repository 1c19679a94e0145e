//! INK principal normalization: an agent id names a principal. `tulpa:` and `ink:` ids whose
//! body is an Ed25519 did:key multibase value (`z` + base58btc of the multicodec prefix
//! 0xed 0x01 and 32 key bytes, canonically encoded) become `key:<body>`; any other id carrying
//! one of INK's prefixes (`tulpa:`, `ink:`, `key:`, `raw:`) is escaped as `raw:<id>`, so no
//! spelling can collide with a key principal; other ids (`did:web:…`) pass through. Ids are
//! non-empty and at most 512 UTF-16 code units.

use super::{utf16_len, InkError};

/// The longest agent id accepted, in UTF-16 code units.
pub const MAX_LEN: usize = 512;

const ALPHABET: &[u8; 58] = b"123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

/// Decodes base58btc; `None` on a character outside the alphabet.
fn base58_decode(text: &str) -> Option<Vec<u8>> {
    let mut bytes: Vec<u8> = Vec::new();
    for c in text.bytes() {
        let mut carry = ALPHABET.iter().position(|a| *a == c)? as u32;
        for b in bytes.iter_mut().rev() {
            carry += u32::from(*b) * 58;
            *b = carry as u8;
            carry >>= 8;
        }
        while carry > 0 {
            bytes.insert(0, carry as u8);
            carry >>= 8;
        }
    }
    let zeros = text.bytes().take_while(|c| *c == b'1').count();
    let mut out = vec![0u8; zeros];
    out.extend(bytes);
    Some(out)
}

/// Whether `body` is `z` + base58btc(0xed 0x01 ‖ 32 bytes).
fn is_ed25519_multibase(body: &str) -> bool {
    let Some(encoded) = body.strip_prefix('z') else {
        return false;
    };
    base58_decode(encoded)
        .is_some_and(|bytes| bytes.len() == 34 && bytes.starts_with(&[0xed, 0x01]))
}

/// The canonical principal of an agent id.
pub fn normalize(agent_id: &str) -> Result<String, InkError> {
    if agent_id.is_empty() {
        return Err(InkError::new("principal", "the agent id is empty"));
    }
    let len = utf16_len(agent_id);
    if len > MAX_LEN {
        return Err(InkError::new(
            "principal",
            format!("the agent id is {len} UTF-16 code units; at most {MAX_LEN}"),
        ));
    }
    for prefix in ["tulpa:", "ink:"] {
        if let Some(body) = agent_id.strip_prefix(prefix) {
            if is_ed25519_multibase(body) {
                return Ok(format!("key:{body}"));
            }
        }
    }
    if ["tulpa:", "ink:", "key:", "raw:"]
        .iter()
        .any(|p| agent_id.starts_with(p))
    {
        return Ok(format!("raw:{agent_id}"));
    }
    Ok(agent_id.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base58_decodes_the_did_key_spec_example() {
        // The W3C did:key Ed25519 example's body decodes to the multicodec prefix and 32 bytes.
        let bytes = base58_decode("6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK").unwrap();
        assert_eq!(bytes.len(), 34);
        assert_eq!(&bytes[..2], &[0xed, 0x01]);
        assert_eq!(base58_decode("11"), Some(vec![0, 0]));
        assert_eq!(base58_decode("0"), None);
    }
}
