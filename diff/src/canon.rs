//! The `canon --jsonl` line protocol: one JSON text per input line, one answer per line.
//! The external implementations' workers speak the same protocol.

use std::io::{self, BufRead, Write};

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

/// Splits `reader` into lines (bytes up to `\n`, a `\r` before it dropped) and writes one
/// answer per line to `writer`, in order. Returns the number of lines answered.
pub fn run_jsonl(
    mut reader: impl BufRead,
    mut writer: impl Write,
    canonicalizer: &mut Canonicalizer,
) -> io::Result<usize> {
    let mut line = Vec::new();
    let mut out = Vec::new();
    let mut scratch = Vec::new();
    let mut count = 0;
    loop {
        line.clear();
        if reader.read_until(b'\n', &mut line)? == 0 {
            break;
        }
        if line.last() == Some(&b'\n') {
            line.pop();
            if line.last() == Some(&b'\r') {
                line.pop();
            }
        }
        answer_line(canonicalizer, &line, &mut out, &mut scratch);
        count += 1;
        if out.len() >= 1 << 16 {
            writer.write_all(&out)?;
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
        run_jsonl(input, &mut out, &mut Canonicalizer::default()).unwrap();
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
}
