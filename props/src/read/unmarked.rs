//! JSON texts read into serde_json values by serde_json's reader, without the meaning
//! serde_json's own `Value` gives one member name, and compared with a second text as it
//! streams. With the `raw_value` feature — on in this build, merged in from the core —
//! `Value` reads an object whose first member is named `$serde_json::private::RawValue` as the
//! raw text that member holds, or refuses it: it would take such a document for another, or
//! for no JSON at all. The reading here (the core's `json` module, which builds values from
//! serde_json's events and has nothing to do with its canonicalizer) takes the name as any
//! other, so the properties that rest on serde_json's reading judge every document, that one
//! included.

use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};

pub(crate) use canonfuzz_core::json::Repeats;

use crate::read::any_depth::reader;

/// `text` read by serde_json as one value (nothing may follow it), within its nesting limit or,
/// when `unbounded`, without one.
pub(crate) fn read_value(
    text: &[u8],
    unbounded: bool,
    repeats: Repeats,
) -> Result<Value, serde_json::Error> {
    canonfuzz_core::json::read_from(reader(text, unbounded), repeats)
}

/// Whether serde_json reads `text` as `expected` — numbers as the doubles they denote, arrays
/// element by element, objects by their set of names and each member's value — reading it as
/// it streams rather than building a second value; `Err` when serde_json cannot read it.
/// Every byte is read even after a difference, so that a text serde_json cannot read is told
/// apart from one that means another value.
pub(crate) fn reads_as(
    text: &[u8],
    unbounded: bool,
    expected: &Value,
) -> Result<bool, serde_json::Error> {
    let mut reader = reader(text, unbounded);
    let same = Same(expected).deserialize(&mut reader)?;
    reader.end()?;
    Ok(same)
}

/// A value streamed from serde_json, compared with `.0`.
struct Same<'v>(&'v Value);

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
        Ok(self.0.as_bool() == Some(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<bool, E> {
        Ok(self.0.as_f64() == Some(v as f64))
    }

    fn visit_u64<E>(self, v: u64) -> Result<bool, E> {
        Ok(self.0.as_f64() == Some(v as f64))
    }

    fn visit_f64<E>(self, v: f64) -> Result<bool, E> {
        Ok(self.0.as_f64() == Some(v))
    }

    fn visit_str<E>(self, v: &str) -> Result<bool, E> {
        Ok(self.0.as_str() == Some(v))
    }

    fn visit_unit<E>(self) -> Result<bool, E> {
        Ok(self.0.is_null())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<bool, A::Error> {
        let items = self.0.as_array();
        let mut all = items.is_some();
        let items = items.map_or(&[][..], Vec::as_slice);
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
        let members = self.0.as_object();
        let mut all = true;
        let mut met: Vec<&String> = Vec::new();
        while let Some(name) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            match members.and_then(|m| m.get_key_value(name.as_ref())) {
                Some((key, value)) => {
                    all &= map.next_value_seed(Same(value))?;
                    met.push(key);
                }
                None => {
                    map.next_value::<IgnoredAny>()?;
                    all = false;
                }
            }
        }
        // A name met twice is a difference, even when every expected name is met; a value
        // that is no object has no names to meet.
        let count = met.len();
        met.sort_unstable();
        met.dedup();
        Ok(all && met.len() == count && Some(count) == members.map(Map::len))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn read(text: &str, repeats: Repeats) -> Result<Value, String> {
        read_value(text.as_bytes(), false, repeats).map_err(|e| e.to_string())
    }

    #[test]
    fn serde_jsons_marker_name_is_read_as_any_other() {
        // serde_json's Value reads this object as the array its member holds as text.
        let marker = r#"{"$serde_json::private::RawValue":"[1]"}"#;
        assert_eq!(serde_json::from_str::<Value>(marker).ok(), Some(json!([1])));
        let read = read(marker, Repeats::LastWins).unwrap();
        assert_eq!(read, json!({"$serde_json::private::RawValue": "[1]"}));
        assert_eq!(reads_as(b"[1]", false, &read).ok(), Some(false));
        assert_eq!(reads_as(marker.as_bytes(), false, &read).ok(), Some(true));
    }
}
