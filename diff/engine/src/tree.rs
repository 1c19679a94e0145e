//! A lenient syntax tree of JSON text that keeps every token's raw bytes (number texts,
//! strings with their escapes, duplicate names), so the minimizer can cut a document apart and
//! write it back without changing what it did not touch.

/// One value, its scalars kept as raw tokens.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Node {
    /// A number, string (quotes included) or literal, exactly as written.
    Scalar(Vec<u8>),
    /// Elements in order.
    Array(Vec<Node>),
    /// Members in order, names as raw string tokens.
    Object(Vec<(Vec<u8>, Node)>),
}

/// Deepest nesting the tree reader follows; deeper documents are left to byte-level shrinking.
const MAX_DEPTH: usize = 200;

/// Reads `input` as a tree, or `None` when it is not shaped like JSON (strings and number
/// tokens are not checked, only the structure).
pub fn parse(input: &[u8]) -> Option<Node> {
    let mut pos = 0;
    let node = value(input, &mut pos, 0)?;
    skip_ws(input, &mut pos);
    (pos == input.len()).then_some(node)
}

/// Moves `pos` past JSON whitespace.
pub fn skip_ws(input: &[u8], pos: &mut usize) {
    while matches!(input.get(*pos), Some(b' ' | b'\t' | b'\n' | b'\r')) {
        *pos += 1;
    }
}

pub use canonfuzz_props::read::for_judgment::nesting;

/// The string token at `pos` (quotes included), with `pos` moved past it.
pub fn string_token(input: &[u8], pos: &mut usize) -> Option<Vec<u8>> {
    let start = *pos;
    *pos += 1;
    loop {
        match input.get(*pos)? {
            b'"' => {
                *pos += 1;
                return input.get(start..*pos).map(<[u8]>::to_vec);
            }
            b'\\' => *pos += 2,
            _ => *pos += 1,
        }
    }
}

/// The number or literal token at `pos` (its bytes unchecked), with `pos` moved past it;
/// `None` when no such token starts there.
pub fn scalar_token<'a>(input: &'a [u8], pos: &mut usize) -> Option<&'a [u8]> {
    let start = *pos;
    let token_byte = |b: &u8| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'+' | b'.');
    while input.get(*pos).is_some_and(token_byte) {
        *pos += 1;
    }
    input.get(start..*pos).filter(|t| !t.is_empty())
}

fn value(input: &[u8], pos: &mut usize, depth: usize) -> Option<Node> {
    if depth > MAX_DEPTH {
        return None;
    }
    skip_ws(input, pos);
    match *input.get(*pos)? {
        b'"' => string_token(input, pos).map(Node::Scalar),
        b'[' => {
            *pos += 1;
            let mut items = Vec::new();
            skip_ws(input, pos);
            if input.get(*pos) == Some(&b']') {
                *pos += 1;
                return Some(Node::Array(items));
            }
            loop {
                items.push(value(input, pos, depth + 1)?);
                skip_ws(input, pos);
                match input.get(*pos)? {
                    b',' => *pos += 1,
                    b']' => {
                        *pos += 1;
                        return Some(Node::Array(items));
                    }
                    _ => return None,
                }
            }
        }
        b'{' => {
            *pos += 1;
            let mut members = Vec::new();
            skip_ws(input, pos);
            if input.get(*pos) == Some(&b'}') {
                *pos += 1;
                return Some(Node::Object(members));
            }
            loop {
                skip_ws(input, pos);
                if input.get(*pos) != Some(&b'"') {
                    return None;
                }
                let name = string_token(input, pos)?;
                skip_ws(input, pos);
                if input.get(*pos) != Some(&b':') {
                    return None;
                }
                *pos += 1;
                members.push((name, value(input, pos, depth + 1)?));
                skip_ws(input, pos);
                match input.get(*pos)? {
                    b',' => *pos += 1,
                    b'}' => {
                        *pos += 1;
                        return Some(Node::Object(members));
                    }
                    _ => return None,
                }
            }
        }
        _ => scalar_token(input, pos).map(|t| Node::Scalar(t.to_vec())),
    }
}

impl Node {
    /// Writes the tree back as compact JSON text.
    pub fn write(&self, out: &mut Vec<u8>) {
        match self {
            Node::Scalar(raw) => out.extend_from_slice(raw),
            Node::Array(items) => {
                out.push(b'[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(b',');
                    }
                    item.write(out);
                }
                out.push(b']');
            }
            Node::Object(members) => {
                out.push(b'{');
                for (i, (name, value)) in members.iter().enumerate() {
                    if i > 0 {
                        out.push(b',');
                    }
                    out.extend_from_slice(name);
                    out.push(b':');
                    value.write(out);
                }
                out.push(b'}');
            }
        }
    }

    /// The tree as compact JSON text.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        self.write(&mut out);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_raw_tokens_and_drops_whitespace() {
        let tree = parse(b" { \"a\\u0062\" : [ 1.50E+2 , \"\\ud800\" ], \"a\":tru } ").unwrap();
        assert_eq!(
            tree.to_bytes(),
            b"{\"a\\u0062\":[1.50E+2,\"\\ud800\"],\"a\":tru}"
        );
    }

    #[test]
    fn refuses_what_is_not_shaped_like_json() {
        assert_eq!(parse(b"[1,"), None);
        assert_eq!(parse(b"{1:2}"), None);
        assert_eq!(parse(b"[1] x"), None);
        assert_eq!(parse(&[b'['; 1000]), None);
    }
}
