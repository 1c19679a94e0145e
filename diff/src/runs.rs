//! Long inputs written by their runs. A number bug that needs an exponent of 655,360 shows
//! only on a literal of that many digits; a report spelling it byte by byte is megabytes long.
//! Past [`LONG`] bytes, an input is shown with each run of one repeated byte counted, and a
//! reproduction builds it the same way in its own language.

use std::fmt::Write as _;

use crate::vector::{readable, to_hex};

/// Inputs longer than this are shown and rebuilt by their runs.
pub const LONG: usize = 4096;

/// A run of one byte repeated at least this often is counted rather than written.
const RUN: usize = 64;

/// A piece of an input: bytes as they are, or one byte repeated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Run<'a> {
    /// Bytes written out.
    Bytes(&'a [u8]),
    /// One byte, this many times.
    Repeat(u8, usize),
}

/// `input` as its pieces, runs of [`RUN`] or more of one byte counted.
pub fn runs(input: &[u8]) -> Vec<Run<'_>> {
    let mut out = Vec::new();
    let (mut at, mut plain) = (0, 0);
    while let Some(&b) = input.get(at) {
        let length = input
            .get(at..)
            .unwrap_or_default()
            .iter()
            .take_while(|&&c| c == b)
            .count();
        if length >= RUN {
            if plain < at {
                out.push(Run::Bytes(input.get(plain..at).unwrap_or_default()));
            }
            out.push(Run::Repeat(b, length));
            plain = at + length;
        }
        at += length;
    }
    if plain < input.len() {
        out.push(Run::Bytes(input.get(plain..).unwrap_or_default()));
    }
    out
}

/// `input` as a person reads it: in full, or past [`LONG`] bytes with each long run written
/// `⟨N × c⟩`.
pub fn shown(input: &[u8]) -> String {
    if input.len() <= LONG {
        return readable(input);
    }
    let mut out = String::new();
    for run in runs(input) {
        match run {
            Run::Bytes(bytes) => out.push_str(&readable(bytes)),
            Run::Repeat(b, n) => {
                let _ = write!(out, "⟨{n} × {}⟩", readable(&[b]));
            }
        }
    }
    out
}

/// A Rust statement binding `input: &[u8]` to the input.
pub fn rust(input: &[u8]) -> String {
    let listed = |bytes: &[u8]| {
        let each: Vec<String> = bytes.iter().map(|b| format!("0x{b:02x}")).collect();
        each.join(", ")
    };
    if input.len() <= LONG {
        return format!("let input: &[u8] = &[{}];", listed(input));
    }
    let mut out = String::from("let mut built: Vec<u8> = Vec::new();\n");
    for run in runs(input) {
        match run {
            Run::Bytes(bytes) => {
                let _ = writeln!(out, "    built.extend_from_slice(&[{}]);", listed(bytes));
            }
            Run::Repeat(b, n) => {
                let _ = writeln!(
                    out,
                    "    built.extend(std::iter::repeat(0x{b:02x}u8).take({n}));"
                );
            }
        }
    }
    out.push_str("    let input: &[u8] = &built;");
    out
}

/// A Node expression for the input as a `Buffer`.
pub fn node(input: &[u8]) -> String {
    if input.len() <= LONG {
        return format!("Buffer.from('{}', 'hex')", to_hex(input));
    }
    let parts: Vec<String> = runs(input)
        .into_iter()
        .map(|run| match run {
            Run::Bytes(bytes) => format!("Buffer.from('{}', 'hex')", to_hex(bytes)),
            Run::Repeat(b, n) => format!("Buffer.alloc({n}, 0x{b:02x})"),
        })
        .collect();
    format!("Buffer.concat([{}])", parts.join(", "))
}

/// A Python expression for the input as `bytes`.
pub fn python(input: &[u8]) -> String {
    if input.len() <= LONG {
        return format!("bytes.fromhex(\"{}\")", to_hex(input));
    }
    let parts: Vec<String> = runs(input)
        .into_iter()
        .map(|run| match run {
            Run::Bytes(bytes) => format!("bytes.fromhex(\"{}\")", to_hex(bytes)),
            Run::Repeat(b, n) => format!("b\"\\x{b:02x}\" * {n}"),
        })
        .collect();
    format!("({})", parts.join(" + "))
}

/// A POSIX shell command list writing the input's bytes to standard output.
pub fn shell(input: &[u8]) -> String {
    let octal = |bytes: &[u8]| {
        let each: String = bytes.iter().map(|b| format!("\\{b:03o}")).collect();
        format!("printf '{each}'")
    };
    let parts: Vec<String> = runs(input)
        .into_iter()
        .map(|run| match run {
            Run::Bytes(bytes) => octal(bytes),
            Run::Repeat(b, n) => format!("head -c {n} /dev/zero | tr '\\000' '\\{b:03o}'"),
        })
        .collect();
    format!("{{ {}; }}", parts.join("; "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn long() -> Vec<u8> {
        format!("[0.{}1e655360,\"é\"]", "0".repeat(655_357)).into_bytes()
    }

    #[test]
    fn a_long_input_is_shown_with_its_runs_counted_and_a_short_one_in_full() {
        assert_eq!(shown(b"[1e21]"), "[1e21]");
        assert_eq!(shown(&long()), "[0.⟨655357 × 0⟩1e655360,\"é\"]");
        let input = long();
        let pieces = runs(&input);
        assert_eq!(pieces.len(), 3);
        assert_eq!(pieces[1], Run::Repeat(b'0', 655_357));
    }

    #[test]
    fn each_language_rebuilds_every_byte() {
        let input = long();
        let python = std::process::Command::new("python3")
            .args([
                "-c",
                &format!("import sys; sys.stdout.buffer.write({})", python(&input)),
            ])
            .output()
            .unwrap();
        assert_eq!(python.stdout, input);
        let node = std::process::Command::new("node")
            .args(["-e", &format!("process.stdout.write({})", node(&input))])
            .output()
            .unwrap();
        assert_eq!(node.stdout, input);
        let shell = std::process::Command::new("sh")
            .args(["-c", &shell(&input)])
            .output()
            .unwrap();
        assert_eq!(shell.stdout, input);
        assert!(rust(&input).contains("repeat(0x30u8).take(655357)"));
        assert!(rust(&input).len() < 400, "{}", rust(&input));
    }
}
