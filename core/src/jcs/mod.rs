//! RFC 8785 JSON Canonicalization Scheme, strict: bytes in, canonical bytes out.
//!
//! - Numbers are IEEE-754 doubles written as ECMAScript's `Number.prototype.toString` writes
//!   them: shortest round-trip digits, `1e+21`, `1e-7`, `0` for `-0`. Integers beyond 2^53
//!   round to the nearest double like every other number.
//! - Object members are sorted by the UTF-16 code units of their decoded names, recursively;
//!   arrays keep their order.
//! - Strings are re-escaped the JCS way: `\"`, `\\`, `\b \t \n \f \r`, other C0 controls as
//!   lowercase `\u00xx`, everything else as raw UTF-8.
//!
//! Input is held to I-JSON (RFC 7493): UTF-8 only, unique member names, no lone surrogates,
//! numbers within the double range. Nesting deeper than [`Options::max_depth`] is refused.
//! Unicode noncharacters are accepted and written as they are, as RFC 8785 and its reference
//! implementations do.
//!
//! # Which error is reported
//! A rejected document gets one error, chosen in this order: invalid UTF-8 anywhere (a text
//! that is not UTF-8 is not JSON text, RFC 8259 §8.1); then the first grammar error; then the
//! first I-JSON rule the document breaks, in reading order (a duplicate name is found when its
//! object closes and is placed at the second occurrence of the name). Grammar errors come
//! before the I-JSON rules so that a truncated document is reported as truncated, however
//! deep or odd its beginning.

/// A table with an entry per byte value from 0, entry `b` being `$rule(b)`, built when the
/// crate compiles: a lookup where a `match` on the byte would compile to branches or a jump.
macro_rules! byte_table {
    ($rule:ident, $len:expr, $empty:expr) => {{
        let mut table = [$empty; $len];
        let mut rest: &mut [_] = &mut table;
        let mut b: u8 = 0;
        while let [entry, tail @ ..] = rest {
            *entry = $rule(b);
            (rest, b) = (tail, b.wrapping_add(1));
        }
        table
    }};
}

mod copy;
mod error;
mod escape;
pub mod exact;
mod number;
mod order;
mod parser;
mod permute;
mod powers_of_five;
mod shortest;
mod string;
mod to_double;
pub mod view;
mod word;

pub use error::{ErrorKind, JcsError};
pub use number::write_number;
pub use order::cmp_utf16;
pub use string::write_string;

use error::BrokenRule;
use parser::{Parser, Scratch};

/// Nesting depth allowed by default: far beyond what any protocol document needs, and small
/// enough that the bookkeeping for it stays in kilobytes.
pub const DEFAULT_MAX_DEPTH: usize = 10_000;

/// Limits a [`Canonicalizer`] applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// Deepest nesting of arrays and objects accepted; one more level is a
    /// [`ErrorKind::DepthLimit`] error. `[]` is depth 1.
    pub max_depth: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            max_depth: DEFAULT_MAX_DEPTH,
        }
    }
}

/// A canonicalizer that keeps its working buffers between documents, for callers that
/// canonicalize many.
#[derive(Debug, Default)]
pub struct Canonicalizer {
    options: Options,
    scratch: Scratch,
}

impl Canonicalizer {
    /// A canonicalizer with the given limits.
    pub fn new(options: Options) -> Self {
        Canonicalizer {
            options,
            scratch: Scratch::default(),
        }
    }

    /// The limits this canonicalizer applies.
    pub fn options(&self) -> Options {
        self.options
    }

    /// Appends the canonical form of `input` to `out`. On error `out` is left as it was.
    pub fn canonicalize_into(&mut self, input: &[u8], out: &mut Vec<u8>) -> Result<(), JcsError> {
        let start = out.len();
        // The output is seldom longer than the input, but short spans are written as whole
        // blocks and cut back, up to a block past the end: room for one keeps the last such
        // write from doubling the buffer.
        out.reserve(input.len() + copy::SHORT_SPAN);
        let mut broken = BrokenRule::default();
        let parser = Parser::new(
            input,
            out,
            &mut self.scratch,
            self.options.max_depth,
            &mut broken,
        );
        let read = parser.run();
        let Err(mut fault) = read else {
            return Ok(());
        };
        out.truncate(start);
        if let Err(e) = std::str::from_utf8(input) {
            fault = string::invalid_utf8(input, e.valid_up_to());
        }
        Err(JcsError::new(input, fault))
    }

    /// Returns the canonical form of `input`.
    pub fn canonicalize(&mut self, input: &[u8]) -> Result<Vec<u8>, JcsError> {
        let mut out = Vec::new();
        self.canonicalize_into(input, &mut out)?;
        Ok(out)
    }
}

/// Returns the RFC 8785 canonical form of the JSON text `input`, with the default limits.
pub fn canonicalize(input: &[u8]) -> Result<Vec<u8>, JcsError> {
    Canonicalizer::default().canonicalize(input)
}

/// Appends the RFC 8785 canonical form of `input` to `out`, with the default limits. On error
/// `out` is left as it was.
pub fn canonicalize_into(input: &[u8], out: &mut Vec<u8>) -> Result<(), JcsError> {
    Canonicalizer::default().canonicalize_into(input, out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_output_buffer_is_reserved_once_when_the_output_is_no_longer_than_the_input() {
        // Records out of order to the end, canonical length equal to the input's: the last
        // record's members are copied back in order as blocks within a block of the end.
        let record = r#"{"b":"x","a":1.5}"#;
        let input = format!("[{}]", vec![record; 50_000].join(","));
        let mut out = Vec::new();
        canonicalize_into(input.as_bytes(), &mut out).unwrap();
        assert_eq!(out.len(), input.len());
        assert!(out.starts_with(br#"[{"a":1.5,"b":"x"},"#));
        assert!(
            out.capacity() <= input.len() + copy::SHORT_SPAN,
            "{} bytes of buffer for {} of output",
            out.capacity(),
            out.len()
        );
    }
}
