//! A read-only view into JSON text the canonicalizer has already accepted — its canonical form,
//! or the text as written with the whitespace between tokens removed ([`compact`]): members,
//! items and scalars, without building a tree.
//!
//! Verifiers need a handful of members out of documents of any depth the canonicalizer allows.
//! A tree reader either stops at its own nesting limit (refusing genuine documents) or recurses
//! as deep as the input (risking the stack); this view does neither: it walks one level at a
//! time and skips nested values by counting brackets. Over canonical text every sub-value it
//! hands out is itself canonical, so two values are equal exactly when their bytes are; over
//! compact text the sub-values are as written, and [`super::exact`] compares them.
//!
//! The view trusts only that its text came from the canonicalizer; on any other text it
//! answers `None` rather than panicking.

/// One JSON value inside canonical text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct View<'a> {
    text: &'a [u8],
}

/// The JSON type of a value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Type {
    /// `{...}`
    Object,
    /// `[...]`
    Array,
    /// `"..."`
    String,
    /// A number.
    Number,
    /// `true` or `false`.
    Bool,
    /// `null`.
    Null,
}

impl Type {
    /// The name JSON Schema uses for the type, for messages.
    pub fn name(self) -> &'static str {
        match self {
            Type::Object => "object",
            Type::Array => "array",
            Type::String => "string",
            Type::Number => "number",
            Type::Bool => "boolean",
            Type::Null => "null",
        }
    }
}

/// The end (exclusive) of the string starting at `start`.
fn string_end(text: &[u8], start: usize) -> Option<usize> {
    let mut i = start.checked_add(1)?;
    loop {
        match text.get(i)? {
            b'"' => return i.checked_add(1),
            b'\\' => i = i.checked_add(2)?,
            _ => i = i.checked_add(1)?,
        }
    }
}

/// The end (exclusive) of the value starting at `start`.
fn value_end(text: &[u8], start: usize) -> Option<usize> {
    match text.get(start)? {
        b'"' => string_end(text, start),
        b'{' | b'[' => {
            let mut depth = 0usize;
            let mut i = start;
            loop {
                match text.get(i)? {
                    b'"' => {
                        i = string_end(text, i)?;
                        continue;
                    }
                    b'{' | b'[' => depth = depth.checked_add(1)?,
                    b'}' | b']' => {
                        depth = depth.checked_sub(1)?;
                        if depth == 0 {
                            return i.checked_add(1);
                        }
                    }
                    _ => {}
                }
                i = i.checked_add(1)?;
            }
        }
        _ => {
            let rest = text.get(start..)?;
            let len = rest
                .iter()
                .position(|b| matches!(b, b',' | b']' | b'}' | b':'))
                .unwrap_or(rest.len());
            (len > 0).then(|| start + len)
        }
    }
}

/// Decodes the string literal `literal` (quotes included), every escape JSON has; `None` for
/// a literal that is not a JSON string or holds an unpaired surrogate.
fn decode_string(literal: &[u8]) -> Option<String> {
    let inner = literal.strip_prefix(b"\"")?.strip_suffix(b"\"")?;
    let mut out = Vec::with_capacity(inner.len());
    let mut bytes = inner.iter().copied();
    let hex4 = |bytes: &mut std::iter::Copied<std::slice::Iter<'_, u8>>| -> Option<u32> {
        let mut code = 0u32;
        for _ in 0..4 {
            code = code * 16 + char::from(bytes.next()?).to_digit(16)?;
        }
        Some(code)
    };
    while let Some(b) = bytes.next() {
        if b != b'\\' {
            out.push(b);
            continue;
        }
        let decoded = match bytes.next()? {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => {
                let unit = hex4(&mut bytes)?;
                let code = match unit {
                    0xd800..=0xdbff => {
                        if bytes.next()? != b'\\' || bytes.next()? != b'u' {
                            return None;
                        }
                        let low = hex4(&mut bytes)?;
                        if !(0xdc00..=0xdfff).contains(&low) {
                            return None;
                        }
                        0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00)
                    }
                    other => other,
                };
                char::from_u32(code)?
            }
            _ => return None,
        };
        let mut buf = [0u8; 4];
        out.extend_from_slice(decoded.encode_utf8(&mut buf).as_bytes());
    }
    String::from_utf8(out).ok()
}

/// Each byte of JSON text with its offset and whether it is structure — outside every string
/// and not a quote: what a scan for tokens of text already accepted needs, without reading it.
pub fn structure(text: &[u8]) -> impl Iterator<Item = (usize, u8, bool)> + '_ {
    let (mut in_string, mut escaped) = (false, false);
    text.iter().enumerate().map(move |(i, &b)| {
        let outside = !in_string && b != b'"';
        match (in_string, escaped, b) {
            (true, true, _) => escaped = false,
            (true, false, b'\\') => escaped = true,
            (_, false, b'"') => in_string = !in_string,
            _ => {}
        }
        (i, b, outside)
    })
}

/// `text` with the whitespace between its tokens removed and nothing else changed: a view of
/// text the canonicalizer accepted but did not rewrite, whose numbers and strings stay as
/// they were written.
pub fn compact(text: &[u8]) -> Vec<u8> {
    structure(text)
        .filter(|&(_, b, outside)| !(outside && matches!(b, b' ' | b'\t' | b'\n' | b'\r')))
        .map(|(_, b, _)| b)
        .collect()
}

impl<'a> View<'a> {
    /// A view of `text`, which must hold exactly one canonical JSON value.
    pub fn new(text: &'a [u8]) -> Option<View<'a>> {
        (value_end(text, 0)? == text.len()).then_some(View { text })
    }

    /// The value's canonical text.
    pub fn bytes(&self) -> &'a [u8] {
        self.text
    }

    /// The value's JSON type.
    pub fn kind(&self) -> Type {
        match self.text.first() {
            Some(b'{') => Type::Object,
            Some(b'[') => Type::Array,
            Some(b'"') => Type::String,
            Some(b't' | b'f') => Type::Bool,
            Some(b'n') => Type::Null,
            _ => Type::Number,
        }
    }

    /// The members of an object, in canonical order; empty for other values.
    pub fn members(&self) -> Members<'a> {
        Members {
            text: if self.kind() == Type::Object {
                self.text
            } else {
                b"{}"
            },
            at: 1,
        }
    }

    /// The member called `name`, if this is an object that has one. Each call reads the
    /// object from its start; [`View::object`] reads it once for several look-ups.
    pub fn get(&self, name: &str) -> Option<View<'a>> {
        self.members().find(|m| m.is(name)).map(|m| m.value)
    }

    /// The members of an object, read once, or `None` for other values.
    pub fn object(&self) -> Option<Object<'a>> {
        (self.kind() == Type::Object).then(|| Object {
            members: self.members().collect(),
        })
    }

    /// The items of an array; empty for other values.
    pub fn items(&self) -> Items<'a> {
        Items {
            text: if self.kind() == Type::Array {
                self.text
            } else {
                b"[]"
            },
            at: 1,
        }
    }

    /// The decoded text of a string.
    pub fn as_str(&self) -> Option<String> {
        (self.kind() == Type::String)
            .then(|| decode_string(self.text))
            .flatten()
    }

    /// A non-negative integer that fits 64 bits, as canonical text writes it (plain digits).
    pub fn as_u64(&self) -> Option<u64> {
        let digits = std::str::from_utf8(self.text).ok()?;
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        digits.parse().ok()
    }

    /// An integer in the signed 64-bit range, as canonical text writes it.
    pub fn as_i64(&self) -> Option<i64> {
        match self.text.strip_prefix(b"-") {
            Some(rest) => View { text: rest }
                .as_u64()
                .and_then(|n| 0i64.checked_sub_unsigned(n)),
            None => self.as_u64().and_then(|n| i64::try_from(n).ok()),
        }
    }

    /// The value of a boolean.
    pub fn as_bool(&self) -> Option<bool> {
        match self.text {
            b"true" => Some(true),
            b"false" => Some(false),
            _ => None,
        }
    }
}

/// One member of an object.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Member<'a> {
    /// The name's canonical literal, quotes included.
    pub literal: &'a [u8],
    /// The decoded name (`None` only for text that is not canonical).
    pub name: Option<&'a str>,
    /// The value.
    pub value: View<'a>,
}

impl Member<'_> {
    /// The decoded name, owned.
    pub fn name(&self) -> String {
        decode_string(self.literal).unwrap_or_default()
    }

    /// Whether the member is called `name`.
    pub fn is(&self, name: &str) -> bool {
        match self.name {
            Some(plain) => plain == name,
            None => self.name() == name,
        }
    }
}

/// An object's members, read once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Object<'a> {
    members: Vec<Member<'a>>,
}

impl<'a> Object<'a> {
    /// The member called `name`, if there is one.
    pub fn get(&self, name: &str) -> Option<View<'a>> {
        self.members.iter().find(|m| m.is(name)).map(|m| m.value)
    }

    /// The members, in canonical order.
    pub fn members(&self) -> &[Member<'a>] {
        &self.members
    }
}

/// The members of an object, in order.
#[derive(Debug, Clone)]
pub struct Members<'a> {
    text: &'a [u8],
    at: usize,
}

impl<'a> Iterator for Members<'a> {
    type Item = Member<'a>;

    fn next(&mut self) -> Option<Member<'a>> {
        let text = self.text;
        let name_end = string_end(text, self.at)?;
        let literal = text.get(self.at..name_end)?;
        let start = name_end.checked_add(1)?;
        let end = value_end(text, start)?;
        self.at = end.checked_add(1)?;
        let simple = literal
            .get(1..literal.len().saturating_sub(1))
            .filter(|inner| !inner.contains(&b'\\'))
            .and_then(|inner| std::str::from_utf8(inner).ok());
        Some(Member {
            literal,
            name: simple,
            value: View {
                text: text.get(start..end)?,
            },
        })
    }
}

/// The items of an array, in order.
#[derive(Debug, Clone)]
pub struct Items<'a> {
    text: &'a [u8],
    at: usize,
}

impl<'a> Iterator for Items<'a> {
    type Item = View<'a>;

    fn next(&mut self) -> Option<View<'a>> {
        let end = value_end(self.text, self.at)?;
        let item = View {
            text: self.text.get(self.at..end)?,
        };
        self.at = end.checked_add(1)?;
        Some(item)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::jcs::canonicalize;

    fn view(text: &str) -> Vec<u8> {
        canonicalize(text.as_bytes()).unwrap()
    }

    #[test]
    fn members_and_items_are_the_canonical_sub_texts() {
        let doc = view(r#"{"b":[1,{"x":"]}\""},true],"a":"\n\u0001é","c":null,"d":-5}"#);
        let v = View::new(&doc).unwrap();
        let names: Vec<String> = v.members().map(|m| m.name()).collect();
        assert_eq!(names, ["a", "b", "c", "d"]);
        assert_eq!(v.get("a").unwrap().as_str().unwrap(), "\n\u{1}é");
        let items: Vec<&[u8]> = v.get("b").unwrap().items().map(|i| i.bytes()).collect();
        assert_eq!(items, [&b"1"[..], br#"{"x":"]}\""}"#, b"true"]);
        assert_eq!(v.get("c").unwrap().kind(), Type::Null);
        assert_eq!(v.get("d").unwrap().as_i64(), Some(-5));
        assert_eq!(v.get("d").unwrap().as_u64(), None);
        assert_eq!(v.get("zz"), None);
    }

    #[test]
    fn an_object_read_once_answers_like_its_view() {
        let doc = view(r#"{"b":{"x":1},"a\n":2,"c":[3]}"#);
        let v = View::new(&doc).unwrap();
        let object = v.object().unwrap();
        for name in ["a\n", "b", "c", "d", ""] {
            assert_eq!(object.get(name), v.get(name), "{name:?}");
        }
        assert_eq!(object.members().len(), 3);
        assert_eq!(v.get("c").unwrap().object(), None);
    }

    #[test]
    fn a_sub_value_is_equal_to_its_own_canonical_form() {
        let doc = view(r#"{"p":{"z":[1.50,{"é":2e0,"a":1}],"a":"x"}}"#);
        let inner = View::new(&doc).unwrap().get("p").unwrap();
        assert_eq!(inner.bytes(), view(r#"{"a":"x","z":[1.5,{"a":1,"é":2}]}"#));
    }

    #[test]
    fn depth_costs_no_stack() {
        let levels = (crate::jcs::DEFAULT_MAX_DEPTH - 1) / 2;
        let text = format!("{}{}", "{\"a\":[".repeat(levels), "]}".repeat(levels));
        let doc = view(&text);
        let mut v = View::new(&doc).unwrap();
        for level in 0..3 {
            assert_eq!(v.bytes().len(), 8 * (levels - level));
            v = v.get("a").unwrap().items().next().unwrap();
        }
    }

    #[test]
    fn text_that_is_not_one_value_has_no_view() {
        for bad in [
            &b""[..],
            b"{",
            b"[1",
            b"\"a",
            b"{}{}",
            b"1,2",
            b"{\"a\"",
            b"]",
        ] {
            assert_eq!(View::new(bad), None, "{:?}", String::from_utf8_lossy(bad));
        }
        let odd = View { text: b"{\"a\":}" };
        assert_eq!(odd.members().count(), 0);
    }
}
