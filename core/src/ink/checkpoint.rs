//! C2SP tlog-checkpoint bodies as INK reads them: exactly three lines, each ended by a line
//! feed — the origin (non-empty, at most 256 UTF-16 code units, no whitespace of any kind, no
//! `+`, no control character), the tree size (decimal digits, no sign, no leading zero, a safe
//! integer) and the root hash (64 lowercase hex digits) — in a body of at most 1,024 UTF-16
//! code units. A body that parses is already its canonical form.

use super::{merkle, utf16_len, InkError, MAX_SAFE_INTEGER};
use crate::shown::quoted;

/// The longest body, in UTF-16 code units.
pub const MAX_BODY: usize = 1024;
/// The longest origin line, in UTF-16 code units.
pub const MAX_ORIGIN: usize = 256;

/// A parsed checkpoint body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checkpoint {
    /// The log's origin line.
    pub origin: String,
    /// The number of leaves.
    pub size: u64,
    /// The root hash.
    pub root: merkle::Hash,
}

fn bad(why: impl Into<String>) -> InkError {
    InkError::new("checkpoint", why)
}

impl Checkpoint {
    /// Parses a checkpoint body.
    pub fn parse(body: &str) -> Result<Checkpoint, InkError> {
        let len = utf16_len(body);
        if len > MAX_BODY {
            return Err(bad(format!(
                "the body is {len} UTF-16 code units; at most {MAX_BODY}"
            )));
        }
        let Some(content) = body.strip_suffix('\n') else {
            return Err(bad("the body must end with a line feed"));
        };
        let lines: Vec<&str> = content.split('\n').collect();
        let [origin, size, root] = lines[..] else {
            return Err(bad(format!(
                "{} lines; a checkpoint body has three",
                lines.len()
            )));
        };
        if origin.is_empty() {
            return Err(bad("the origin line is empty"));
        }
        if utf16_len(origin) > MAX_ORIGIN {
            return Err(bad(format!(
                "the origin is longer than {MAX_ORIGIN} UTF-16 code units"
            )));
        }
        if let Some(c) = origin
            .chars()
            .find(|c| c.is_whitespace() || c.is_control() || *c == '+')
        {
            return Err(bad(format!(
                "the origin contains {}",
                quoted(&c.to_string())
            )));
        }
        if size.is_empty()
            || !size.bytes().all(|b| b.is_ascii_digit())
            || (size.len() > 1 && size.starts_with('0'))
        {
            return Err(bad(format!(
                "the tree size {} is not a decimal integer without sign or leading zero",
                quoted(size)
            )));
        }
        let size: u64 = size
            .parse()
            .ok()
            .filter(|n| *n <= MAX_SAFE_INTEGER)
            .ok_or_else(|| bad("the tree size is past the safe-integer range"))?;
        let root = merkle::parse_hash(root, "the root hash")?;
        Ok(Checkpoint {
            origin: origin.to_string(),
            size,
            root,
        })
    }

    /// The body in its canonical form.
    pub fn to_body(&self) -> String {
        let mut root = String::with_capacity(64);
        for b in self.root {
            root.push_str(&format!("{b:02x}"));
        }
        format!("{}\n{}\n{root}\n", self.origin, self.size)
    }
}
