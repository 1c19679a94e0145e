//! JSON read as a client that keeps every number exactly reads it — Python's `json` with
//! `parse_float=Decimal`, Go's `json.Number`, a Rust `u64` — apart from the core: numbers stay
//! the text they were written as and compare by exact decimal value (`bigdecimal`), so `1e2`
//! and `100` are one number and `12345678901234567891` and `12345678901234567000` two, though
//! both round to one double. Objects read as `JSON.parse` reads them, the last of two members
//! named alike kept. One pass with an explicit stack, so any nesting costs no recursion, and
//! a tree that drops without recursing.

use std::collections::BTreeMap;
use std::str::FromStr;

use bigdecimal::BigDecimal;

use crate::read::problems::{number_span, string_units};

/// One JSON value, its numbers as written.
#[derive(Debug, Clone, PartialEq)]
pub enum Literal {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number, as written.
    Number(String),
    /// A string, decoded (a lone surrogate as U+FFFD).
    String(String),
    /// Elements in order.
    Array(Vec<Literal>),
    /// Members in order, names decoded; a name given twice stays twice.
    Object(Vec<(String, Literal)>),
}

impl Drop for Literal {
    fn drop(&mut self) {
        let mut pending: Vec<Literal> = match self {
            Literal::Array(items) => std::mem::take(items),
            Literal::Object(members) => std::mem::take(members)
                .into_iter()
                .map(|(_, value)| value)
                .collect(),
            _ => return,
        };
        while let Some(mut value) = pending.pop() {
            match &mut value {
                Literal::Array(items) => pending.append(items),
                Literal::Object(members) => {
                    pending.extend(std::mem::take(members).into_iter().map(|(_, v)| v))
                }
                _ => {}
            }
        }
    }
}

/// How two numbers are compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Numbers {
    /// By exact decimal value, as a client that keeps numbers exactly reads them.
    Exact,
    /// As the doubles they round to, as `JSON.parse` reads them.
    Doubles,
    /// As every client reads them: by exact decimal value, and as Python's `json` reads them
    /// (an integer literal as an exact integer, any other number as a double), which tells
    /// `1e+23` from `100000000000000000000000`: no double holds that integer.
    Every,
}

impl Numbers {
    /// Whether two number literals name the same number under this reading; a literal it
    /// cannot read (an exponent past its range) names none.
    pub fn same(self, a: &str, b: &str) -> bool {
        match self {
            Numbers::Exact => matches!(
                (BigDecimal::from_str(a), BigDecimal::from_str(b)),
                (Ok(x), Ok(y)) if x == y
            ),
            Numbers::Doubles => matches!(
                (serde_json::from_str::<f64>(a), serde_json::from_str::<f64>(b)),
                (Ok(x), Ok(y)) if x == y
            ),
            Numbers::Every => Numbers::Exact.same(a, b) && python_reads_alike(a, b),
        }
    }
}

/// Whether Python's `json` reads two number literals of one decimal value as equal values:
/// an integer literal is an exact `int`, any other a `float`, and an `int` equals a `float`
/// only when the float is exactly that integer.
fn python_reads_alike(a: &str, b: &str) -> bool {
    let integer = |t: &str| {
        let digits = t.strip_prefix('-').unwrap_or(t);
        !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
    };
    let (int, float) = match (integer(a), integer(b)) {
        (true, false) => (a, b),
        (false, true) => (b, a),
        _ => return true,
    };
    match serde_json::from_str::<f64>(float) {
        Ok(x) if x.is_finite() && x.fract() == 0.0 => matches!(
            (BigDecimal::from_str(int), BigDecimal::from_str(&format!("{x:.0}"))),
            (Ok(i), Ok(f)) if i == f
        ),
        _ => false,
    }
}

/// A container being read, and where its next value goes.
enum Open {
    Array(Vec<Literal>),
    Object(Vec<(String, Literal)>, Option<String>),
}

/// Reads `text` as one JSON value (whitespace around it allowed); `None` when it is not JSON.
pub fn read(text: &[u8]) -> Option<Literal> {
    let mut stack: Vec<Open> = Vec::new();
    let mut i = 0;
    let skip = |i: &mut usize| {
        while matches!(text.get(*i), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            *i += 1;
        }
    };
    loop {
        skip(&mut i);
        // A name, when an object waits for one.
        if let Some(Open::Object(members, name @ None)) = stack.last_mut() {
            match text.get(i)? {
                b'}' if members.is_empty() => {}
                b'"' => {
                    *name = Some(string(text, &mut i)?);
                    skip(&mut i);
                    (text.get(i)? == &b':').then_some(())?;
                    i += 1;
                    continue;
                }
                _ => return None,
            }
        }
        let value = match text.get(i)? {
            b'[' => {
                i += 1;
                skip(&mut i);
                if text.get(i) == Some(&b']') {
                    i += 1;
                    Literal::Array(Vec::new())
                } else {
                    stack.push(Open::Array(Vec::new()));
                    continue;
                }
            }
            b'{' => {
                i += 1;
                stack.push(Open::Object(Vec::new(), None));
                continue;
            }
            b'}' => {
                i += 1;
                match stack.pop()? {
                    Open::Object(members, None) if members.is_empty() => Literal::Object(members),
                    _ => return None,
                }
            }
            _ => scalar(text, &mut i)?,
        };
        // Places the value, then closes every container that ends after it.
        let mut value = value;
        loop {
            match stack.last_mut() {
                None => {
                    skip(&mut i);
                    return (i == text.len()).then_some(value);
                }
                Some(Open::Array(items)) => items.push(value),
                Some(Open::Object(members, name)) => members.push((name.take()?, value)),
            }
            skip(&mut i);
            match (text.get(i)?, stack.last()) {
                (b',', _) => {
                    i += 1;
                    break;
                }
                (b']', Some(Open::Array(_))) | (b'}', Some(Open::Object(..))) => {
                    i += 1;
                    value = match stack.pop()? {
                        Open::Array(items) => Literal::Array(items),
                        Open::Object(members, _) => Literal::Object(members),
                    };
                }
                _ => return None,
            }
        }
    }
}

/// The string, number or literal word at `*i`, read past.
fn scalar(text: &[u8], i: &mut usize) -> Option<Literal> {
    Some(match text.get(*i)? {
        b'"' => Literal::String(string(text, i)?),
        b'-' | b'0'..=b'9' => {
            let start = *i;
            number_span(text, i).ok()?;
            Literal::Number(String::from_utf8(text.get(start..*i)?.to_vec()).ok()?)
        }
        _ => {
            let rest = text.get(*i..)?;
            let (word, literal) = [
                (&b"true"[..], Literal::Bool(true)),
                (b"false", Literal::Bool(false)),
                (b"null", Literal::Null),
            ]
            .into_iter()
            .find(|(word, _)| rest.starts_with(word))?;
            *i += word.len();
            literal
        }
    })
}

/// An object's members as a client reads them: each name once, with its last value.
fn as_read(members: &[(String, Literal)]) -> BTreeMap<&str, &Literal> {
    members.iter().map(|(n, v)| (n.as_str(), v)).collect()
}

/// The string literal at `text[*i]`, decoded.
fn string(text: &[u8], i: &mut usize) -> Option<String> {
    let mut units = Vec::new();
    string_units(text, i, &mut units).ok()?;
    Some(String::from_utf16_lossy(&units))
}

impl Literal {
    /// The member `name` as a client reads it (the last one so named).
    pub fn get(&self, name: &str) -> Option<&Literal> {
        match self {
            Literal::Object(members) => members
                .iter()
                .rev()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v),
            _ => None,
        }
    }

    /// The item at `index` of an array.
    pub fn item(&self, index: usize) -> Option<&Literal> {
        match self {
            Literal::Array(items) => items.get(index),
            _ => None,
        }
    }

    /// The string, if this is one.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Literal::String(s) => Some(s),
            _ => None,
        }
    }

    /// Whether this value is the same as `other` when numbers are read as `numbers` says:
    /// objects by the members a client reads (each name once, its last value), arrays item by
    /// item, strings by their decoded text.
    pub fn same_as(&self, other: &Literal, numbers: Numbers) -> bool {
        let mut pending = vec![(self, other)];
        while let Some(pair) = pending.pop() {
            match pair {
                (Literal::Number(a), Literal::Number(b)) => {
                    if !numbers.same(a, b) {
                        return false;
                    }
                }
                (Literal::Array(a), Literal::Array(b)) => {
                    if a.len() != b.len() {
                        return false;
                    }
                    pending.extend(a.iter().zip(b));
                }
                (Literal::Object(a), Literal::Object(b)) => {
                    let (a, b) = (as_read(a), as_read(b));
                    if !a.keys().eq(b.keys()) {
                        return false;
                    }
                    pending.extend(a.into_values().zip(b.into_values()));
                }
                (a, b) => {
                    let scalar = !matches!(
                        a,
                        Literal::Array(_) | Literal::Object(_) | Literal::Number(_)
                    );
                    if !(scalar && a == b) {
                        return false;
                    }
                }
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lit(text: &str) -> Literal {
        read(text.as_bytes()).unwrap_or_else(|| panic!("{text}"))
    }

    #[test]
    fn values_are_read_with_their_numbers_as_written() {
        let v = lit(r#" {"a":[1E2,-0.50,"\u00e9\ud83d\ude00"],"b":{},"c":[],"d":null,"e":true} "#);
        assert_eq!(
            v.get("a"),
            Some(&Literal::Array(vec![
                Literal::Number("1E2".into()),
                Literal::Number("-0.50".into()),
                Literal::String("é😀".into()),
            ]))
        );
        assert_eq!(v.get("b"), Some(&Literal::Object(Vec::new())));
        assert_eq!(v.get("c"), Some(&Literal::Array(Vec::new())));
        assert_eq!(v.get("e"), Some(&Literal::Bool(true)));
        assert_eq!(
            lit(r#"{"a":1,"a":2}"#).get("a"),
            Some(&Literal::Number("2".into()))
        );
        for not_json in [
            "[1,]",
            "{\"a\"}",
            "[1] x",
            "01",
            "{,}",
            "[",
            "\"\\x\"",
            "{\"a\":1,}",
        ] {
            assert_eq!(read(not_json.as_bytes()), None, "{not_json}");
        }
        let deep = format!("{}1{}", "[".repeat(100_000), "]".repeat(100_000));
        assert!(read(deep.as_bytes()).is_some());
    }

    #[test]
    fn numbers_compare_exactly_or_as_doubles() {
        let same = |a: &str, b: &str, numbers| lit(a).same_as(&lit(b), numbers);
        // One number, written two ways: the same under either reading.
        for (a, b) in [("[1e2]", "[100]"), ("[-0]", "[0]"), ("[1.50]", "[1.5]")] {
            assert!(
                same(a, b, Numbers::Exact) && same(a, b, Numbers::Doubles),
                "{a} {b}"
            );
        }
        // Two numbers that round to one double: apart exactly, together as doubles.
        for (a, b) in [
            ("[12345678901234567891]", "[12345678901234567000]"),
            ("[1.00000000000000021]", "[1.0000000000000002]"),
            ("[1e-400]", "[0]"),
        ] {
            assert!(
                !same(a, b, Numbers::Exact) && same(a, b, Numbers::Doubles),
                "{a} {b}"
            );
        }
        assert!(!same("[1]", "[2]", Numbers::Doubles));
        assert!(same(
            r#"{"b":1,"a":[2]}"#,
            r#"{"a":[2],"b":1}"#,
            Numbers::Exact
        ));
        assert!(!same(r#"{"a":1}"#, r#"{"a":1,"b":1}"#, Numbers::Exact));
        assert!(!same(r#"["1"]"#, "[1]", Numbers::Exact));
        assert!(!same("[[]]", "[{}]", Numbers::Exact));
        assert!(same(r#""\u0061""#, r#""a""#, Numbers::Exact));
        // One decimal value, an integer literal against another form: Python 3.11's
        // json.loads reads 1e+23 as 99999999999999991611392.0 and 1.2345678901234567e19 as
        // 12345678901234567168.0, so neither equals the integer; 1e2 == 100 and
        // 1e+21 == 1000000000000000000000 hold.
        for (a, b) in [
            ("[100000000000000000000000]", "[1e+23]"),
            ("[1.2345678901234567e19]", "[12345678901234567000]"),
        ] {
            assert!(
                same(a, b, Numbers::Exact) && !same(a, b, Numbers::Every),
                "{a} {b}"
            );
        }
        for (a, b) in [
            ("[1e2]", "[100]"),
            ("[1e+21]", "[1000000000000000000000]"),
            ("[-0.0]", "[0]"),
        ] {
            assert!(same(a, b, Numbers::Every), "{a} {b}");
        }
    }
}
