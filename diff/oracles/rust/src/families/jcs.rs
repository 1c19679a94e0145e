//! The JCS family's libraries: canonicalizers that read a JSON text and answer
//! `{"ok":"<canonical text>"}` or `{"error":{"kind",…}}`. acdp-jcs needs serde_json's
//! `preserve_order`, which the harness's build must not have.

use std::panic::{catch_unwind, AssertUnwindSafe};

use serde_json::{json, Value};

use super::Answer;

/// Every library of the family, by the name the harness asks for.
pub const LIBRARIES: &[(&str, Answer)] = &[("acdp-jcs", |input| canonical(acdp_jcs, input))];

type Canonicalize = fn(&str) -> Result<Vec<u8>, String>;

fn acdp_jcs(text: &str) -> Result<Vec<u8>, String> {
    let value: Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
    acdp_jcs::try_canonicalize_value(&value).map_err(|e| e.to_string())
}

/// A canonicalizer's answer: its refusals' kinds are read by the harness from their messages.
fn canonical(canonicalize: Canonicalize, input: &[u8]) -> Value {
    let Ok(text) = std::str::from_utf8(input) else {
        return json!({"error": {"kind": "invalid_utf8", "message": "not UTF-8", "offset": 0}});
    };
    match catch_unwind(AssertUnwindSafe(|| canonicalize(text))) {
        Ok(Ok(out)) => json!({"ok": String::from_utf8_lossy(&out)}),
        Ok(Err(message)) => json!({"error": {"kind": "other", "message": message, "offset": 0}}),
        Err(_) => json!({"error": {"kind": "crashed", "message": "panicked", "offset": 0}}),
    }
}
