//! base64url as RFC 7515 writes it, and as the most forgiving decoders read it: where a
//! verifier's laxness lets one signature stand for many token texts.

use base64::alphabet::URL_SAFE;
use base64::engine::general_purpose::{GeneralPurpose, GeneralPurposeConfig};
use base64::engine::{DecodePaddingMode, Engine};

/// RFC 7515's base64url: no padding, zero unused bits.
pub const STRICT: GeneralPurpose = GeneralPurpose::new(
    &URL_SAFE,
    GeneralPurposeConfig::new()
        .with_encode_padding(false)
        .with_decode_padding_mode(DecodePaddingMode::RequireNone),
);

/// What lax decoders take: padding or none, any unused bits.
pub const LAX: GeneralPurpose = GeneralPurpose::new(
    &URL_SAFE,
    GeneralPurposeConfig::new()
        .with_decode_padding_mode(DecodePaddingMode::Indifferent)
        .with_decode_allow_trailing_bits(true),
);

/// Decodes base64url the way the most forgiving libraries do: whitespace skipped, either
/// alphabet, padding optional, unused bits ignored.
pub fn lax_decode(text: &str) -> Option<Vec<u8>> {
    let cleaned: String = text
        .chars()
        .filter(|c| !c.is_ascii_whitespace())
        .map(|c| match c {
            '+' => '-',
            '/' => '_',
            c => c,
        })
        .collect();
    LAX.decode(cleaned).ok()
}

/// Whether `text` is base64url exactly as RFC 7515 writes it.
pub fn strict(text: &str) -> bool {
    STRICT
        .decode(text)
        .is_ok_and(|bytes| STRICT.encode(bytes) == text)
}
