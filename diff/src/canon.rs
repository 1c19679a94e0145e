//! The `canon --jsonl` line protocol: one JSON text per input line, one answer per line, the
//! plain form of the worker protocol, so that `canon --jsonl` itself can be compared as a
//! worker: answers go out as soon as the input read so far is used up.

use std::io::{self, BufRead, BufReader, Read, Write};

use canonfuzz_core::jcs::{write_string, Canonicalizer};

/// Appends the protocol's answer for one input line, newline included:
/// `{"ok":"<canonical text>"}` or `{"error":{"kind":..,"message":..,"offset":N}}`.
pub fn answer_line(
    canonicalizer: &mut Canonicalizer,
    line: &[u8],
    out: &mut Vec<u8>,
    scratch: &mut Vec<u8>,
) {
    scratch.clear();
    match canonicalizer.canonicalize_into(line, scratch) {
        Ok(()) => {
            out.extend_from_slice(b"{\"ok\":");
            // Canonical output is always UTF-8: it is built from validated input.
            write_string(&String::from_utf8_lossy(scratch), out);
            out.extend_from_slice(b"}\n");
        }
        Err(e) => {
            out.extend_from_slice(b"{\"error\":{\"kind\":\"");
            out.extend_from_slice(e.kind().as_str().as_bytes());
            out.extend_from_slice(b"\",\"message\":");
            write_string(e.message(), out);
            out.extend_from_slice(format!(",\"offset\":{}}}}}\n", e.offset()).as_bytes());
        }
    }
}

/// Reads the next line of `reader` into `line` (bytes up to `\n`, which is consumed), keeping
/// at most `keep` bytes and discarding the rest. Returns the line's full length, or `None` at
/// the end of the input.
fn next_line(
    reader: &mut impl BufRead,
    line: &mut Vec<u8>,
    keep: usize,
) -> io::Result<Option<usize>> {
    line.clear();
    let mut length = 0usize;
    let mut any = false;
    loop {
        let buf = reader.fill_buf()?;
        if buf.is_empty() {
            break;
        }
        any = true;
        let newline = buf.iter().position(|b| *b == b'\n');
        let take = newline.map_or(buf.len(), |i| i + 1);
        let room = keep.saturating_sub(line.len());
        line.extend_from_slice(buf.get(..take.min(room)).unwrap_or_default());
        length = length.saturating_add(take);
        reader.consume(take);
        if newline.is_some() {
            break;
        }
    }
    Ok(any.then_some(length))
}

/// A reader that can say how many bytes it holds already read, so that answers go out before
/// it waits for more.
pub trait Pending: BufRead {
    /// Bytes read and not yet consumed.
    fn pending(&self) -> usize;
}

impl<R: Read> Pending for BufReader<R> {
    fn pending(&self) -> usize {
        self.buffer().len()
    }
}

impl<P: Pending + ?Sized> Pending for &mut P {
    fn pending(&self) -> usize {
        (**self).pending()
    }
}

impl Pending for &[u8] {
    fn pending(&self) -> usize {
        self.len()
    }
}

/// Splits `reader` into lines (bytes up to `\n`, a `\r` before it dropped) and writes one
/// answer per line to `writer`, in order. A line longer than `max_line` bytes is answered
/// `too_large` without being held in memory. Returns the number of lines answered.
pub fn run_jsonl(
    mut reader: impl Pending,
    mut writer: impl Write,
    canonicalizer: &mut Canonicalizer,
    max_line: u64,
) -> io::Result<usize> {
    let keep = usize::try_from(max_line)
        .unwrap_or(usize::MAX)
        .saturating_add(2);
    let mut line = Vec::new();
    let mut out = Vec::new();
    let mut scratch = Vec::new();
    let mut count = 0;
    while let Some(length) = next_line(&mut reader, &mut line, keep)? {
        if line.last() == Some(&b'\n') {
            line.pop();
            if line.last() == Some(&b'\r') {
                line.pop();
            }
        }
        if length > keep || line.len() as u64 > max_line {
            out.extend_from_slice(b"{\"error\":{\"kind\":\"too_large\",\"message\":");
            write_string(
                &format!("the line is larger than the input limit of {max_line} bytes; raise it with --max-input-bytes"),
                &mut out,
            );
            out.extend_from_slice(format!(",\"offset\":{max_line}}}}}\n").as_bytes());
        } else {
            answer_line(canonicalizer, &line, &mut out, &mut scratch);
        }
        count += 1;
        if out.len() >= 1 << 16 || reader.pending() == 0 {
            writer.write_all(&out)?;
            writer.flush()?;
            out.clear();
        }
    }
    writer.write_all(&out)?;
    writer.flush()?;
    Ok(count)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn jsonl(input: &[u8]) -> String {
        let mut out = Vec::new();
        run_jsonl(input, &mut out, &mut Canonicalizer::default(), 1 << 20).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn one_answer_per_line_in_order() {
        let out = jsonl(b"{\"b\":\"\\n\",\"a\":1}\r\n[1,]\n\n2e0");
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 4);
        assert_eq!(lines[0], r#"{"ok":"{\"a\":1,\"b\":\"\\n\"}"}"#);
        assert!(
            lines[1].starts_with(r#"{"error":{"kind":"syntax","message":""#),
            "{}",
            lines[1]
        );
        assert!(lines[1].ends_with(r#","offset":3}}"#), "{}", lines[1]);
        assert!(lines[2].starts_with(r#"{"error":{"kind":"syntax""#));
        assert_eq!(lines[3], r#"{"ok":"2"}"#);
    }

    #[test]
    fn answers_are_json_even_for_bytes_that_are_not_utf8() {
        let out = jsonl(b"\"\xff\"\n");
        assert!(
            out.starts_with(r#"{"error":{"kind":"invalid_utf8""#),
            "{out}"
        );
        assert!(out.ends_with(",\"offset\":1}}\n"));
    }

    #[test]
    fn a_line_over_the_limit_is_answered_and_the_next_one_still_is() {
        let mut input = b"[1]\n".to_vec();
        input.extend(std::iter::repeat_n(b' ', 100_000));
        input.extend_from_slice(b"[2]\r\n[3]");
        let mut out = Vec::new();
        let mut reader = std::io::BufReader::with_capacity(64, &input[..]);
        run_jsonl(&mut reader, &mut out, &mut Canonicalizer::default(), 50).unwrap();
        let out = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 3, "{out}");
        assert_eq!(lines[0], r#"{"ok":"[1]"}"#);
        assert!(
            lines[1].starts_with(r#"{"error":{"kind":"too_large""#),
            "{}",
            lines[1]
        );
        assert_eq!(lines[2], r#"{"ok":"[3]"}"#);
        let mut out = Vec::new();
        run_jsonl(&b"[1]\r\n"[..], &mut out, &mut Canonicalizer::default(), 3).unwrap();
        assert_eq!(out, b"{\"ok\":\"[1]\"}\n");
    }
}
