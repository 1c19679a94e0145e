//! The `ekl` target's property: a tool result's fingerprint is its body's.

use canonfuzz_core::ekl::{Body, EklError, Salt};

use crate::read::unmarked::{read_value, Repeats};

/// The salt every `ekl` input is fingerprinted with; the input is the document.
const EKL_SALT: [u8; 32] = [0x5a; 32];

/// Fingerprints `data` as a value and as a tool result: neither may panic, and a result's
/// fingerprint must equal the fingerprint of its body taken out by a JSON parser and
/// canonicalized on its own — the core cuts the body from the whole's canonical form.
pub fn ekl_check(data: &[u8]) -> Result<(), String> {
    ekl_check_with(data, &CORE_EKL)
}

/// A tool result's body and its fingerprint, or why it has none.
pub type ResultFingerprint = Result<(Body, String), EklError>;

/// The two fingerprints the `ekl` property compares.
pub struct Fingerprinter {
    /// A value's salted fingerprint.
    pub value: fn(&Salt, &[u8]) -> Result<String, EklError>,
    /// A tool result's body and its fingerprint.
    pub result: fn(&Salt, &[u8]) -> ResultFingerprint,
}

/// The core's fingerprints, which the `ekl` target checks.
pub const CORE_EKL: Fingerprinter = Fingerprinter {
    value: canonfuzz_core::ekl::fingerprint,
    result: canonfuzz_core::ekl::result_fingerprint,
};

/// [`ekl_check`] of other fingerprints, so that a planted bug can be shown to break it.
pub fn ekl_check_with(data: &[u8], fingerprints: &Fingerprinter) -> Result<(), String> {
    let salt = Salt::from_hex(&crate::hex::to_hex(&EKL_SALT))
        .map_err(|e| format!("the fuzz salt is unusable: {e}"))?;
    let as_value = (fingerprints.value)(&salt, data);
    let Ok((body, from_result)) = (fingerprints.result)(&salt, data) else {
        return Ok(());
    };
    if as_value.is_err() {
        return Err(
            "a result fingerprints, but the same text is not a fingerprintable value".into(),
        );
    }
    // The body as serde_json takes it out, past its nesting limit too, written back as text
    // on the stack it was read on.
    let name = body.name();
    let taken = crate::read::any_depth::read_at_any_depth([data], move |[data], unbounded| {
        let parsed = read_value(data, unbounded, Repeats::LastWins)?;
        Ok(parsed
            .get(name)
            .or_else(|| parsed.get("result").and_then(|r| r.get(name)))
            .map(serde_json::Value::to_string))
    })?;
    let holder = match taken {
        Ok(holder) => holder.ok_or("the body named is not in the document")?,
        Err(e) => return Err(format!("serde_json refuses it: {e}")),
    };
    let alone = (fingerprints.value)(&salt, holder.as_bytes())
        .map_err(|e| format!("the body alone does not fingerprint: {e}"))?;
    if alone == from_result {
        Ok(())
    } else {
        Err(format!(
            "the {} fingerprint differs from the body's own: {from_result} vs {alone}",
            body.name()
        ))
    }
}
