//! What a host parser hands a JCS library. `JSON.parse`, `json.loads` and serde_json's
//! `Value` keep one member of each name — the first one's place, the last one's value — and
//! the library given the result cannot see the others. Written back as text, that value is
//! what the library is judged on ([`crate::settle`]).

use crate::family::HostReading;
use crate::outcome::Outcome;
use crate::tree::{scalar_token, skip_ws, string_token};

use super::drivers::driver;

/// What the host parser of `implementation` hands it for `input`, when the input holds a
/// repeated member name; `None` for a library reading text itself, an input without one, or
/// one not shaped like JSON.
pub fn host_reading(implementation: &str, input: &[u8]) -> Option<HostReading> {
    driver(implementation)?.parser?;
    let (nodes, root, repeated) = read(input)?;
    repeated.then(|| HostReading {
        input: write(input, &nodes, root),
        departure: Outcome::Rejected("duplicate_key".to_string()),
    })
}

/// One value of the text, its children by index: a document nested as deep as the core
/// allows is read, resolved and written without recursion.
enum Value {
    /// A scalar token's span in the input.
    Scalar(usize, usize),
    /// The elements.
    Array(Vec<usize>),
    /// The members kept: the name token's span and the value, one per name.
    Object(Vec<((usize, usize), usize)>),
}

/// An object being read: the members so far, each with the units of its name, and the name
/// whose value comes next.
type Open = (
    Vec<(Vec<u16>, (usize, usize), usize)>,
    Option<(Vec<u16>, (usize, usize))>,
);

/// The values of `input` with each object's repeated names resolved as the host parsers
/// resolve them, the root's index, and whether any was; `None` when the input is not shaped
/// like JSON.
fn read(input: &[u8]) -> Option<(Vec<Value>, usize, bool)> {
    let mut nodes: Vec<Value> = Vec::new();
    let mut stack: Vec<Frame> = Vec::new();
    let mut repeated = false;
    let mut pos = 0;
    // Whether a value was just read inside a container, so a comma or its end comes next.
    let mut after_value = false;
    loop {
        skip_ws(input, &mut pos);
        let next = input.get(pos)?;
        if !stack.is_empty() && (after_value || matches!(next, b']' | b'}')) {
            // A comma after a value; an end after a value or in an empty container.
            match (after_value, next) {
                (true, b',') => {
                    pos += 1;
                    after_value = false;
                    continue;
                }
                (false, _) if stack.last().is_some_and(|f| !f.is_empty()) => return None,
                (_, b']' | b'}') => {}
                _ => return None,
            }
        }
        after_value = opens(input, &mut pos, &mut stack, &mut nodes)?;
        if !after_value {
            continue;
        }
        // A value is complete: it joins its container, or is the document.
        let value = nodes.len() - 1;
        match stack.last_mut() {
            None => {
                skip_ws(input, &mut pos);
                return (pos == input.len()).then_some((nodes, value, repeated));
            }
            Some(Frame::Array(items)) => items.push(value),
            Some(Frame::Object((members, pending))) => {
                let (name_units, name) = pending.take()?;
                match members.iter_mut().find(|(seen, _, _)| *seen == name_units) {
                    Some(member) => {
                        member.2 = value;
                        repeated = true;
                    }
                    None => members.push((name_units, name, value)),
                }
            }
        }
    }
}

/// A container being read.
enum Frame {
    Array(Vec<usize>),
    Object(Open),
}

impl Frame {
    fn is_empty(&self) -> bool {
        match self {
            Frame::Array(items) => items.is_empty(),
            Frame::Object((members, _)) => members.is_empty(),
        }
    }
}

/// Reads what starts at `pos`: a container opened or a member's name (`false`: no value is
/// complete yet), or a scalar or a container's end, pushed to `nodes` (`true`); `None` where
/// the text is not shaped like JSON.
fn opens(
    input: &[u8],
    pos: &mut usize,
    stack: &mut Vec<Frame>,
    nodes: &mut Vec<Value>,
) -> Option<bool> {
    let next = input.get(*pos)?;
    // Inside an object with no name pending, a name (or the end) comes next.
    if let Some(Frame::Object((members, pending @ None))) = stack.last_mut() {
        return match next {
            b'}' => {
                *pos += 1;
                let kept = members.drain(..).map(|(_, name, v)| (name, v)).collect();
                stack.pop();
                nodes.push(Value::Object(kept));
                Some(true)
            }
            b'"' => {
                let start = *pos;
                let token = string_token(input, pos)?;
                skip_ws(input, pos);
                (input.get(*pos) == Some(&b':')).then_some(())?;
                *pos += 1;
                *pending = Some((units(&token), (start, start + token.len())));
                Some(false)
            }
            _ => None,
        };
    }
    match next {
        b'[' | b'{' => {
            *pos += 1;
            stack.push(if *next == b'[' {
                Frame::Array(Vec::new())
            } else {
                Frame::Object((Vec::new(), None))
            });
            return Some(false);
        }
        b']' => {
            *pos += 1;
            let Some(Frame::Array(items)) = stack.pop() else {
                return None;
            };
            nodes.push(Value::Array(items));
        }
        _ => {
            let start = *pos;
            if *next == b'"' {
                string_token(input, pos)?;
            } else {
                scalar_token(input, pos)?;
            }
            nodes.push(Value::Scalar(start, *pos));
        }
    }
    Some(true)
}

/// The values from `root` as compact JSON text, tokens as `input` spells them.
fn write(input: &[u8], nodes: &[Value], root: usize) -> Vec<u8> {
    let bytes = |(from, to): (usize, usize)| input.get(from..to).unwrap_or_default();
    let mut out = Vec::with_capacity(input.len());
    // Each entry: a value, and how many of its children are written.
    let mut stack: Vec<(usize, usize)> = vec![(root, 0)];
    while let Some((node, done)) = stack.pop() {
        match nodes.get(node) {
            Some(Value::Scalar(from, to)) => out.extend_from_slice(bytes((*from, *to))),
            Some(Value::Array(items)) => {
                out.push(if done == 0 { b'[' } else { b',' });
                match items.get(done) {
                    Some(&item) => stack.extend([(node, done + 1), (item, 0)]),
                    None if done == 0 => out.push(b']'),
                    None => *out.last_mut().unwrap_or(&mut 0) = b']',
                }
            }
            Some(Value::Object(members)) => {
                out.push(if done == 0 { b'{' } else { b',' });
                match members.get(done) {
                    Some(&(name, value)) => {
                        out.extend_from_slice(bytes(name));
                        out.push(b':');
                        stack.extend([(node, done + 1), (value, 0)]);
                    }
                    None if done == 0 => out.push(b'}'),
                    None => *out.last_mut().unwrap_or(&mut 0) = b'}',
                }
            }
            None => {}
        }
    }
    out
}

/// The UTF-16 code units a string token (quotes included) stands for, lone surrogates kept:
/// the names the host parsers compare.
fn units(token: &[u8]) -> Vec<u16> {
    let body = token
        .strip_prefix(b"\"")
        .and_then(|t| t.strip_suffix(b"\""))
        .unwrap_or(token);
    let text = String::from_utf8_lossy(body);
    let mut out = Vec::with_capacity(body.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            let mut buffer = [0u16; 2];
            out.extend_from_slice(c.encode_utf16(&mut buffer));
            continue;
        }
        match chars.next() {
            Some('u') => {
                let hex: String = chars.by_ref().take(4).collect();
                out.push(u16::from_str_radix(&hex, 16).unwrap_or(0xfffd));
            }
            Some('b') => out.push(0x08),
            Some('f') => out.push(0x0c),
            Some('n') => out.push(0x0a),
            Some('r') => out.push(0x0d),
            Some('t') => out.push(0x09),
            Some(other) => {
                let mut buffer = [0u16; 2];
                out.extend_from_slice(other.encode_utf16(&mut buffer));
            }
            None => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(implementation: &str, input: &str) -> Option<String> {
        host_reading(implementation, input.as_bytes()).map(|r| String::from_utf8(r.input).unwrap())
    }

    #[test]
    fn a_repeated_name_keeps_the_first_place_and_the_last_value() {
        // What JSON.parse does, by ECMA-262 §25.5.1 (InternalizeJSONProperty over an object
        // built by CreateDataProperty: a repeated name overwrites in place).
        assert_eq!(
            read("node-canonicalize", r#"{"a":"\ud800","b":1,"a":0}"#).as_deref(),
            Some(r#"{"a":0,"b":1}"#)
        );
        // Names are compared as the characters they stand for, escapes and all, and inside
        // every nested value.
        assert_eq!(
            read("python-jcs", r#"[{"x":{"\u0061":1,"a":1e400}}]"#).as_deref(),
            Some(r#"[{"x":{"\u0061":1e400}}]"#)
        );
        assert_eq!(
            read("serde_jcs", r#"{"\ud800":1,"\uD800":2}"#).as_deref(),
            Some(r#"{"\ud800":2}"#)
        );
    }

    #[test]
    fn a_document_nested_as_deep_as_the_core_allows_is_read() {
        let depth = 20_000;
        let input = format!(
            "{}{{\"a\":1,\"a\":[]}}{}",
            "[".repeat(depth),
            "]".repeat(depth)
        );
        let want = format!("{}{{\"a\":[]}}{}", "[".repeat(depth), "]".repeat(depth));
        assert_eq!(read("python-jcs", &input), Some(want));
    }

    #[test]
    fn nothing_is_read_otherwise_without_a_repeat_or_without_a_host_parser() {
        assert_eq!(read("node-canonicalize", r#"{"a":"\ud800","b":0}"#), None);
        assert_eq!(read("node-canonicalize", r#"{"a":0,"a":0"#), None);
        assert_eq!(read("node-canonicalize", r#"{"a":0,,"a":0}"#), None);
        assert_eq!(read("node-canonicalize", r#"[1,]"#), None);
        assert_eq!(read("node-canonicalize", r#"[{"a":0 "a":0}]"#), None);
        assert_eq!(read("node-canonicalize", r#"[1 2,{"a":0,"a":0}]"#), None);
        assert_eq!(read("node-canonicalize", r#"[{"a":0,"a":0},]"#), None);
        assert_eq!(read("node-canonicalize", r#"{"a":0,"a":0,}"#), None);
        // json-syntax reads the text itself, and so does the core.
        assert_eq!(read("json-syntax", r#"{"a":0,"a":1}"#), None);
        assert_eq!(read("core", r#"{"a":0,"a":1}"#), None);
    }
}
