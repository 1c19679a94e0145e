//! The JSON value a text means, as RFC 8785 compares values — numbers as the doubles they
//! denote, objects as sets of uniquely named members — read by serde_json apart from the
//! core, and compared with a second text as serde_json streams it.
//!
//! The tree is read through serde_json's deserializer with a visitor of its own, not into a
//! `serde_json::Value`: with the `raw_value` feature `Value` reads an object whose first member
//! is named `$serde_json::private::RawValue` as the raw text it holds, so it would take such a
//! document for another one.

use serde::de::{DeserializeSeed, Deserializer, Error, IgnoredAny, MapAccess, SeqAccess, Visitor};

use crate::deep::reader;

/// A JSON value. An object's members are sorted by name, and no name occurs twice.
#[derive(Debug, PartialEq)]
pub(crate) enum Tree {
    Null,
    Bool(bool),
    Number(f64),
    String(String),
    Array(Vec<Tree>),
    Object(Vec<(String, Tree)>),
}

/// `text` read by serde_json as one value (nothing may follow it), within its nesting limit or,
/// when `unbounded`, without one. An object that names a member twice is refused: I-JSON
/// (RFC 7493 §2.3) forbids it, so no accepted input has one.
pub(crate) fn read_tree(text: &[u8], unbounded: bool) -> Result<Tree, serde_json::Error> {
    let mut reader = reader(text, unbounded);
    let tree = reader.deserialize_any(Reading)?;
    reader.end()?;
    Ok(tree)
}

/// Whether serde_json reads `text` as `expected`, reading it as it streams rather than
/// building a second tree; `Err` when serde_json cannot read it. Every byte is read even after
/// a difference, so that a text serde_json cannot read is told apart from one that means
/// another value.
pub(crate) fn reads_as(
    text: &[u8],
    unbounded: bool,
    expected: &Tree,
) -> Result<bool, serde_json::Error> {
    let mut reader = reader(text, unbounded);
    let same = Same(expected).deserialize(&mut reader)?;
    reader.end()?;
    Ok(same)
}

/// Builds a [`Tree`] from serde_json's events.
struct Reading;

impl<'de> DeserializeSeed<'de> for Reading {
    type Value = Tree;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Tree, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Reading {
    type Value = Tree;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Tree, E> {
        Ok(Tree::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Tree, E> {
        Ok(Tree::Number(v as f64))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Tree, E> {
        Ok(Tree::Number(v as f64))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Tree, E> {
        Ok(Tree::Number(v))
    }

    fn visit_str<E>(self, v: &str) -> Result<Tree, E> {
        Ok(Tree::String(v.to_owned()))
    }

    fn visit_string<E>(self, v: String) -> Result<Tree, E> {
        Ok(Tree::String(v))
    }

    fn visit_unit<E>(self) -> Result<Tree, E> {
        Ok(Tree::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Tree, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element_seed(Reading)? {
            items.push(item);
        }
        Ok(Tree::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Tree, A::Error> {
        let mut members = Vec::new();
        while let Some(name) = map.next_key::<String>()? {
            members.push((name, map.next_value_seed(Reading)?));
        }
        members.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        if let Some(pair) = members.windows(2).find(|pair| match pair {
            [a, b] => a.0 == b.0,
            _ => false,
        }) {
            let name = pair.first().map(|m| m.0.as_str()).unwrap_or_default();
            return Err(A::Error::custom(format!(
                "an object names the member {name:?} twice, which I-JSON forbids"
            )));
        }
        Ok(Tree::Object(members))
    }
}

/// A value streamed from serde_json, compared with `.0`: numbers as the doubles they denote,
/// arrays element by element, objects by their set of names and each member's value.
struct Same<'t>(&'t Tree);

impl<'de> DeserializeSeed<'de> for Same<'_> {
    type Value = bool;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<bool, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Same<'_> {
    type Value = bool;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<bool, E> {
        Ok(*self.0 == Tree::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<bool, E> {
        Ok(*self.0 == Tree::Number(v as f64))
    }

    fn visit_u64<E>(self, v: u64) -> Result<bool, E> {
        Ok(*self.0 == Tree::Number(v as f64))
    }

    fn visit_f64<E>(self, v: f64) -> Result<bool, E> {
        Ok(*self.0 == Tree::Number(v))
    }

    fn visit_str<E>(self, v: &str) -> Result<bool, E> {
        Ok(matches!(self.0, Tree::String(s) if s == v))
    }

    fn visit_unit<E>(self) -> Result<bool, E> {
        Ok(*self.0 == Tree::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<bool, A::Error> {
        let items = match self.0 {
            Tree::Array(items) => items.as_slice(),
            _ => &[],
        };
        let mut all = matches!(self.0, Tree::Array(_));
        let mut count = 0;
        while let Some(same) = match items.get(count) {
            Some(item) => seq.next_element_seed(Same(item))?,
            None => seq.next_element::<IgnoredAny>()?.map(|_| false),
        } {
            all &= same;
            count += 1;
        }
        Ok(all && count == items.len())
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<bool, A::Error> {
        let members = match self.0 {
            Tree::Object(members) => members.as_slice(),
            _ => &[],
        };
        let mut all = matches!(self.0, Tree::Object(_));
        // Which of the expected members have been met; a name met twice is a difference.
        let mut met = vec![false; members.len()];
        while let Some(name) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            let found = members.binary_search_by(|m| m.0.as_str().cmp(name.as_ref()));
            match found
                .ok()
                .and_then(|i| Some((members.get(i)?, met.get_mut(i)?)))
            {
                Some(((_, value), met)) if !*met => {
                    *met = true;
                    all &= map.next_value_seed(Same(value))?;
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                    all = false;
                }
            }
        }
        Ok(all && met.iter().all(|&m| m))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(text: &str) -> Tree {
        read_tree(text.as_bytes(), false).unwrap()
    }

    #[test]
    fn members_are_kept_sorted_and_numbers_as_doubles() {
        use Tree::*;
        assert_eq!(
            tree(r#"{"b":[1,-2,0.5e1,1e21],"a":null,"c":"\u00e9"}"#),
            Object(vec![
                ("a".into(), Null),
                (
                    "b".into(),
                    Array(vec![Number(1.0), Number(-2.0), Number(5.0), Number(1e21)])
                ),
                ("c".into(), String("é".into())),
            ])
        );
    }

    #[test]
    fn a_repeated_name_is_refused_as_it_decodes() {
        for repeated in [r#"{"a":1,"a":2}"#, r#"[{"b":0,"a":1,"\u0061":1}]"#] {
            let why = read_tree(repeated.as_bytes(), false)
                .unwrap_err()
                .to_string();
            assert!(
                why.contains("names the member \"a\" twice"),
                "{repeated}: {why}"
            );
        }
    }

    #[test]
    fn serde_jsons_marker_name_is_read_as_any_other() {
        // serde_json's Value reads this object as the array its member holds as text.
        let marker = r#"{"$serde_json::private::RawValue":"[1]"}"#;
        assert_eq!(
            serde_json::from_str::<serde_json::Value>(marker).ok(),
            Some(serde_json::json!([1]))
        );
        assert_eq!(
            tree(marker),
            Tree::Object(vec![(
                "$serde_json::private::RawValue".into(),
                Tree::String("[1]".into())
            )])
        );
        assert_eq!(reads_as(b"[1]", false, &tree(marker)).ok(), Some(false));
        assert_eq!(
            reads_as(marker.as_bytes(), false, &tree(marker)).ok(),
            Some(true)
        );
    }
}
