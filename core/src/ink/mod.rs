//! INK's verification decisions, one module per rule family: the timestamp grammar, replay
//! freshness, principal normalization, the JSON number profile and audit-event leaves, the
//! RFC 9162 Merkle tree with inclusion and consistency proofs, and C2SP checkpoints. Each
//! decision either accepts (with what INK's corpus pins, such as a canonical string or a
//! hash) or rejects with a typed reason.

pub mod audit;
pub mod card;
pub mod checkpoint;
pub mod containment;
pub mod discovery;
pub mod merkle;
pub mod principal;
pub mod profile;
pub mod receipt;
pub mod replay;
pub mod request;
pub mod schema;
pub mod time;
pub mod transport;
pub mod witness;

use std::fmt;

/// Why an INK decision rejected its input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InkError {
    /// A stable name for the rule broken.
    pub kind: &'static str,
    /// What was wrong, for a person.
    pub message: String,
}

impl InkError {
    pub(crate) fn new(kind: &'static str, message: impl Into<String>) -> InkError {
        InkError {
            kind,
            message: message.into(),
        }
    }
}

impl fmt::Display for InkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "error[{}]: {}", self.kind, self.message)
    }
}

impl std::error::Error for InkError {}

/// The largest integer every JSON implementation represents exactly (2^53 - 1), INK's bound
/// for numbers and sizes.
pub const MAX_SAFE_INTEGER: u64 = (1 << 53) - 1;

/// A number's value as an integer from `least` to [`MAX_SAFE_INTEGER`], whatever its spelling
/// (`3`, `3.0`, `3e0`): INK's profile reads numbers as values.
pub(crate) fn integral(n: f64, least: u64) -> Option<u64> {
    (n.fract() == 0.0 && n >= least as f64 && n <= MAX_SAFE_INTEGER as f64).then_some(n as u64)
}

/// The length of `text` in UTF-16 code units, the unit INK's length caps count.
pub fn utf16_len(text: &str) -> usize {
    text.chars().map(char::len_utf16).sum()
}
