//! Whole documents: whitespace, nesting, and a mix of every kind of value.

use super::{numbers, strings, Rng};

const WHITESPACE: [&str; 5] = ["", " ", "\t", "\r", " \t "];

fn value(rng: &mut Rng, depth: usize, out: &mut String) {
    let ws = |rng: &mut Rng| rng.pick(&WHITESPACE);
    match if depth > 4 {
        rng.index(3)
    } else {
        rng.index(6)
    } {
        0 => out.push_str(&numbers::number(rng)),
        1 => out.push_str(&strings::string(rng)),
        2 => {
            let literal = rng.pick(&["true", "false", "null"]);
            out.push_str(literal)
        }
        3 | 4 => {
            out.push('[');
            for i in 0..rng.index(4) {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(ws(rng));
                value(rng, depth + 1, out);
                out.push_str(ws(rng));
            }
            out.push(']');
        }
        _ => {
            out.push('{');
            for i in 0..rng.index(4) {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(ws(rng));
                out.push_str(&format!(
                    "\"{}\"",
                    rng.pick(&["b", "a", "é", "\u{10000}", "\u{ff61}", "c"])
                ));
                out.push_str(ws(rng));
                out.push(':');
                value(rng, depth + 1, out);
            }
            out.push('}');
        }
    }
}

/// A mixed document, sometimes wrapped in deep nesting.
pub fn document(rng: &mut Rng, out: &mut Vec<u8>) {
    let mut text = String::new();
    value(rng, 0, &mut text);
    // Deep nesting is rare: some implementations take quadratic time over it. 10,001 levels
    // put the document past the core's bound of 10,000.
    if rng.chance(2) {
        let depth = rng.pick(&[127, 129, 129, 257, 257, 257, 257, 1001, 10_001]);
        text = format!("{}{text}{}", "[".repeat(depth), "]".repeat(depth));
    }
    let ws = rng.pick(&WHITESPACE);
    // A '\r' at the very end would not survive the workers' line protocol.
    out.extend_from_slice(format!("{ws}{text}{}", ws.trim_end_matches('\r')).as_bytes());
}
