//! What one implementation did with one input, sorted into the classes compared across
//! implementations: bytes for accepts, kinds for rejections.

use std::fmt;

/// What a verifier that returns nothing but its verdict answers on acceptance.
pub const VALID: &[u8] = b"valid";

/// One implementation's answer for one input.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// Accepted, with these canonical bytes.
    Ok(Vec<u8>),
    /// Rejected; the kind is one of the core's stable error kinds when the implementation's
    /// error could be mapped to one, otherwise `other`.
    Rejected(String),
    /// The implementation cannot express this input (e.g. a line protocol that cannot carry a
    /// raw newline); such answers drop out of the comparison.
    Unsupported,
    /// The implementation panicked, its process died, or it answered garbage.
    Crashed(String),
    /// The implementation did not answer in time.
    TimedOut,
}

impl Outcome {
    /// Whether the answer takes part in the comparison.
    pub fn is_answer(&self) -> bool {
        matches!(self, Outcome::Ok(_) | Outcome::Rejected(_))
    }

    /// The outcome in the summary's JSON shape: `{"ok":text}`, `{"error":kind}` or
    /// `{"status":"crashed"|"timed_out"|"unsupported"}`.
    pub fn to_json(&self) -> serde_json::Value {
        use serde_json::json;
        match self {
            Outcome::Ok(bytes) => json!({ "ok": String::from_utf8_lossy(bytes) }),
            Outcome::Rejected(kind) => json!({ "error": kind }),
            Outcome::Unsupported => json!({ "status": "unsupported" }),
            Outcome::Crashed(_) => json!({ "status": "crashed" }),
            Outcome::TimedOut => json!({ "status": "timed_out" }),
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Ok(bytes) => write!(f, "ok {:?}", String::from_utf8_lossy(bytes)),
            Outcome::Rejected(kind) => write!(f, "error[{kind}]"),
            Outcome::Unsupported => f.write_str("unsupported"),
            Outcome::Crashed(why) => write!(f, "crashed ({why})"),
            Outcome::TimedOut => f.write_str("timed out"),
        }
    }
}

/// Maps an error message from a third-party parser or canonicalizer to a stable kind, by the
/// words such messages use. Unrecognised messages map to `other`.
pub fn classify_message(message: &str) -> String {
    let m = message.to_ascii_lowercase();
    let kind = if m.contains("surrogate") {
        "lone_surrogate"
    } else if m.contains("utf-8") || m.contains("utf8") || m.contains("unicode code point") {
        "invalid_utf8"
    } else if m.contains("duplicate") {
        "duplicate_key"
    } else if m.contains("out of range")
        || m.contains("infinity")
        || m.contains("infinite")
        || m.contains("nan")
        || m.contains("integerdomain")
        || m.contains("floatdomain")
    {
        "number_out_of_range"
    } else if m.contains("recursion") || m.contains("depth") || m.contains("call stack") {
        "depth_limit"
    } else if m.contains("expected")
        || m.contains("unexpected")
        || m.contains("eof")
        || m.contains("syntax")
        || m.contains("invalid")
        || m.contains("control character")
        || m.contains("trailing")
    {
        "syntax"
    } else {
        "other"
    };
    kind.to_string()
}
