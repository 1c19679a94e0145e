//! Typed rejections: a stable kind, where in the input, and what to do about it.

use std::fmt;

/// The class of a rejection. The names returned by [`ErrorKind::as_str`] are stable: they
/// appear in the CLI's output, the line protocol and the conformance vectors.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ErrorKind {
    /// The bytes are not JSON text (RFC 8259 grammar).
    Syntax,
    /// The bytes are not UTF-8: stray bytes, overlong forms, encoded surrogates.
    InvalidUtf8,
    /// An escaped UTF-16 surrogate that is not part of a high-low pair.
    LoneSurrogate,
    /// Two members of one object share a name once escapes are decoded (RFC 7493 §2.3).
    DuplicateKey,
    /// A number whose magnitude exceeds the IEEE-754 double range (RFC 7493 §2.2).
    NumberOutOfRange,
    /// Arrays and objects nested deeper than the configured limit.
    DepthLimit,
}

impl ErrorKind {
    /// Every kind, in a fixed order.
    pub const ALL: [ErrorKind; 6] = [
        ErrorKind::Syntax,
        ErrorKind::InvalidUtf8,
        ErrorKind::LoneSurrogate,
        ErrorKind::DuplicateKey,
        ErrorKind::NumberOutOfRange,
        ErrorKind::DepthLimit,
    ];

    /// The stable snake_case name of the kind.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorKind::Syntax => "syntax",
            ErrorKind::InvalidUtf8 => "invalid_utf8",
            ErrorKind::LoneSurrogate => "lone_surrogate",
            ErrorKind::DuplicateKey => "duplicate_key",
            ErrorKind::NumberOutOfRange => "number_out_of_range",
            ErrorKind::DepthLimit => "depth_limit",
        }
    }

    /// The kind with the given stable name, if there is one.
    pub fn from_name(name: &str) -> Option<ErrorKind> {
        ErrorKind::ALL.into_iter().find(|k| k.as_str() == name)
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why an input was rejected: its kind, the byte offset of the offending byte, the same place
/// as 1-based line and column (columns count characters), and a message for a person.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JcsError {
    kind: ErrorKind,
    offset: usize,
    line: usize,
    column: usize,
    message: String,
}

impl JcsError {
    pub(crate) fn new(input: &[u8], fault: Fault) -> JcsError {
        let FaultDetail {
            kind,
            offset,
            message,
        } = *fault.0;
        let (line, column) = line_column(input, offset);
        JcsError {
            kind,
            offset,
            line,
            column,
            message,
        }
    }

    /// The class of the rejection.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// Byte offset (0-based) of the first byte that made the input unacceptable.
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// Line of [`JcsError::offset`], counting from 1; lines end at `\n`.
    pub fn line(&self) -> usize {
        self.line
    }

    /// Column of [`JcsError::offset`] in characters, counting from 1.
    pub fn column(&self) -> usize {
        self.column
    }

    /// What was wrong and what to do about it, without the position.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for JcsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "error[{}] at line {}, column {}: {}",
            self.kind, self.line, self.column, self.message
        )
    }
}

impl std::error::Error for JcsError {}

/// A rejection before its position has been turned into line and column. Boxed, so that the
/// parser's results stay small on the path where nothing is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Fault(Box<FaultDetail>);

#[derive(Debug, Clone, PartialEq, Eq)]
struct FaultDetail {
    kind: ErrorKind,
    offset: usize,
    message: String,
}

impl Fault {
    pub(crate) fn new(kind: ErrorKind, offset: usize, message: impl Into<String>) -> Fault {
        Fault(Box::new(FaultDetail {
            kind,
            offset,
            message: message.into(),
        }))
    }

    pub(crate) fn syntax(offset: usize, message: impl Into<String>) -> Fault {
        Fault::new(ErrorKind::Syntax, offset, message)
    }

    #[cfg(test)]
    pub(crate) fn kind(&self) -> ErrorKind {
        self.0.kind
    }
}

/// The first I-JSON rule a document breaks, once it has broken one. Until then the rules are
/// enforced; after it the rest is read for a grammar error alone, which outranks it (see the
/// module's "Which error is reported").
#[derive(Debug, Default)]
pub(crate) struct BrokenRule(Option<Fault>);

impl BrokenRule {
    /// Whether a rule has been broken, so that the rules no longer apply.
    pub(crate) fn is_broken(&self) -> bool {
        self.0.is_some()
    }

    /// Records the rule `fault` describes as broken, unless one was broken before it.
    #[cold]
    pub(crate) fn note(&mut self, fault: impl FnOnce() -> Fault) {
        if self.0.is_none() {
            self.0 = Some(fault());
        }
    }

    /// The rule broken, as an error.
    pub(crate) fn into_result(self) -> Result<(), Fault> {
        self.0.map_or(Ok(()), Err)
    }
}

/// Describes the byte at `offset` for a message: a quoted ASCII character, a hex byte, or the
/// end of the input.
pub(crate) fn describe_byte(input: &[u8], offset: usize) -> String {
    match input.get(offset) {
        None => "the end of the input".to_string(),
        Some(&b) if b.is_ascii_graphic() => format!("'{}'", char::from(b)),
        Some(b' ') => "a space".to_string(),
        Some(&b) => format!("byte 0x{b:02x}"),
    }
}

/// The line and column of `offset`, both from 1; the column counts characters, a byte that
/// is not UTF-8 counting as one. Each step is a library search or count, not a loop over
/// bytes: under a fuzzer's tracing every byte compared in a loop is a call, and most of the
/// inputs it tries are refused, often with long lines.
fn line_column(input: &[u8], offset: usize) -> (usize, usize) {
    let before = input.get(..offset).unwrap_or(input);
    let line_start = memchr::memrchr(b'\n', before).map_or(0, |i| i + 1);
    let line = 1 + memchr::memchr_iter(b'\n', before).count();
    let text = before.get(line_start..).unwrap_or_default();
    let characters = match std::str::from_utf8(text) {
        Ok(text) => text.chars().count(),
        Err(_) => text.iter().filter(|&&b| b & 0xC0 != 0x80).count(),
    };
    (line, 1 + characters)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for kind in ErrorKind::ALL {
            assert_eq!(ErrorKind::from_name(kind.as_str()), Some(kind));
        }
        assert_eq!(ErrorKind::from_name("nope"), None);
    }

    #[test]
    fn line_and_column_count_characters() {
        let input = "{\n  \"é\": x".as_bytes();
        let offset = input.len() - 1;
        assert_eq!(line_column(input, offset), (2, 8));
        assert_eq!(line_column(b"", 0), (1, 1));
        assert_eq!(line_column(b"ab\n", 3), (2, 1));
        // Bytes that are not UTF-8 count one each; a stray continuation byte joins the
        // character before it, as in the count of lead bytes that defines a column.
        assert_eq!(line_column(b"\n\na\xff\xfe\x80b", 7), (3, 5));
    }

    #[test]
    fn the_line_is_found_however_far_back_it_starts() {
        for newline in 0..100 {
            let mut input = b"{\n\n".to_vec();
            input.extend([b'a'; 100]);
            input[3 + newline] = b'\n';
            input.extend("é".repeat(40).bytes());
            let offset = input.len();
            let characters_after = 100 - newline - 1 + 40;
            assert_eq!(
                line_column(&input, offset),
                (4, characters_after + 1),
                "{newline}"
            );
        }
        assert_eq!(line_column(&[b'a'; 100], 100), (1, 101));
    }
}
