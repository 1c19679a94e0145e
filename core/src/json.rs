//! JSON read into serde_json values as every other JSON reader reads it.
//!
//! serde_json's own `Value` gives one member name a meaning of its own when serde_json's
//! `raw_value` feature is on, as it is in this crate and, since Cargo merges features, in any
//! build that holds it: an object whose first member is named `$serde_json::private::RawValue`
//! is read as the JSON text that member's string holds. A verifier reading that way checks
//! another document than the one signed or hashed — a header's `alg` hidden in a string, an
//! audit event whose leaf hash is another event's. These readings take the name as any other.
//! serde_json's nesting limit still bounds them, unless a caller lifts it. The harness's
//! policies and fuzz properties read documents with them too, for the same reason.

use serde::de::{DeserializeSeed, Deserializer, Error, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};

/// `bytes` read as one JSON value; nothing but whitespace may follow it. Of a name given twice
/// in an object, the last member is kept, as serde_json and JavaScript keep it.
pub fn read(bytes: &[u8]) -> Result<Value, serde_json::Error> {
    read_from(
        serde_json::Deserializer::from_slice(bytes),
        Repeats::LastWins,
    )
}

/// [`read`] from a reader set up by the caller, such as one without serde_json's nesting limit
/// for a caller on a stack that holds any depth, with the caller's choice for repeated names.
pub fn read_from(
    mut reader: serde_json::Deserializer<serde_json::de::SliceRead<'_>>,
    repeats: Repeats,
) -> Result<Value, serde_json::Error> {
    let value = reader.deserialize_any(PlainValue(repeats))?;
    reader.end()?;
    Ok(value)
}

/// What a reading makes of an object that names a member twice.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Repeats {
    /// The last of the members named alike is kept.
    LastWins,
    /// The object is refused.
    Refused,
}

/// Builds a value from serde_json's events, member names taken as they are written.
#[derive(Clone, Copy)]
struct PlainValue(Repeats);

impl<'de> DeserializeSeed<'de> for PlainValue {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for PlainValue {
    type Value = Value;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }

    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element_seed(self)? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut members = Map::new();
        while let Some(name) = map.next_key::<String>()? {
            let value = map.next_value_seed(self)?;
            if self.0 == Repeats::Refused && members.contains_key(&name) {
                return Err(A::Error::custom(format!(
                    "an object names the member {} twice, which I-JSON forbids",
                    crate::shown::quoted(&name)
                )));
            }
            members.insert(name, value);
        }
        Ok(Value::Object(members))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Deserializer};

    #[test]
    fn values_are_read_as_json_defines_them() {
        for text in [
            r#"{"b":[1,-2,0.5e1,1e21,18446744073709551616],"a":null,"c":"\u00e9","d":true}"#,
            "[]",
            " \"x\" ",
        ] {
            let expected: Value = serde_json::from_str(text).unwrap();
            assert_eq!(read(text.as_bytes()).unwrap(), expected, "{text}");
        }
        for repeated in [&br#"{"a":1,"a":2}"#[..], br#"{"\u0061":1,"a":2}"#] {
            assert_eq!(read(repeated).unwrap(), json!({"a": 2}));
            let unique = read_from(Deserializer::from_slice(repeated), Repeats::Refused);
            let why = unique.unwrap_err().to_string();
            assert!(why.contains("names the member \"a\" twice"), "{why}");
        }
        let apart = read_from(
            Deserializer::from_slice(br#"[{"a":1},{"a":2}]"#),
            Repeats::Refused,
        );
        assert_eq!(apart.unwrap(), json!([{"a": 1}, {"a": 2}]));
        for not_json in [&b"[1,]"[..], b"[1] x", b"\"\\ud800\"", b"[1e400]"] {
            assert!(read(not_json).is_err(), "{not_json:?}");
        }
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        assert!(read(deep.as_bytes()).is_err());
    }

    #[test]
    fn serde_jsons_marker_name_is_a_member_name_like_any_other() {
        let marker = r#"{"$serde_json::private::RawValue":"{\"alg\":\"EdDSA\"}"}"#;
        let misread: Value = serde_json::from_str(marker).unwrap();
        assert_eq!(misread, json!({"alg": "EdDSA"}));
        assert_eq!(
            read(marker.as_bytes()).unwrap(),
            json!({"$serde_json::private::RawValue": "{\"alg\":\"EdDSA\"}"})
        );
        // Nested too.
        let nested = r#"[{"$serde_json::private::RawValue":"1"}]"#;
        assert_eq!(
            read(nested.as_bytes()).unwrap(),
            json!([{"$serde_json::private::RawValue": "1"}])
        );
    }
}
