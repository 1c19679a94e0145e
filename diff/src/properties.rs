//! Properties every accepted document's canonical form must have, checked against an
//! independent parser (serde_json) rather than the core itself. Fuzz targets and tests share
//! them.

use canonfuzz_core::jcs::{canonicalize, cmp_utf16};
use std::cmp::Ordering;
use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::Value;

/// Checks that when the core accepts `input`, its output is accepted again unchanged (a fixed
/// point), holds no insignificant whitespace and sorted members, and means the same JSON value
/// as the input. Returns what was violated.
pub fn check_canonical(input: &[u8]) -> Result<(), String> {
    let Ok(out) = canonicalize(input) else {
        return Ok(());
    };
    match canonicalize(&out) {
        Ok(again) if again == out => {}
        Ok(again) => {
            return Err(format!(
                "not a fixed point: {:?} became {:?}",
                String::from_utf8_lossy(&out),
                String::from_utf8_lossy(&again)
            ))
        }
        Err(e) => {
            return Err(format!(
                "output {:?} is rejected: {e}",
                String::from_utf8_lossy(&out)
            ))
        }
    }
    let parsed_in = serde_json::from_slice::<Value>(input);
    let parsed_out = serde_json::from_slice::<Value>(&out);
    match (parsed_in, parsed_out) {
        (Ok(a), Ok(b)) => {
            if normalized(a) != normalized(b) {
                return Err(format!(
                    "output {:?} means another value than the input",
                    String::from_utf8_lossy(&out)
                ));
            }
            check_shape(&out)
        }
        // serde_json refuses nesting beyond 128 levels; both sides then fail alike.
        (Err(a), Err(b)) if a.classify() == b.classify() => Ok(()),
        (a, b) => Err(format!(
            "serde_json reads input and output differently: input {:?}, output {:?}",
            a.err().map(|e| e.to_string()),
            b.err().map(|e| e.to_string())
        )),
    }
}

/// Numbers compared as the doubles they denote; everything else as is.
fn normalized(value: Value) -> Value {
    match value {
        Value::Number(n) => n
            .as_f64()
            .and_then(serde_json::Number::from_f64)
            .map_or(Value::Null, Value::Number),
        Value::Array(items) => Value::Array(items.into_iter().map(normalized).collect()),
        Value::Object(members) => Value::Object(
            members
                .into_iter()
                .map(|(k, v)| (k, normalized(v)))
                .collect(),
        ),
        other => other,
    }
}

/// The output's own structure: no whitespace outside strings, members in UTF-16 order.
fn check_shape(out: &[u8]) -> Result<(), String> {
    let mut in_string = false;
    let mut escaped = false;
    for &b in out {
        match (in_string, escaped, b) {
            (true, true, _) => escaped = false,
            (true, false, b'\\') => escaped = true,
            (_, false, b'"') => in_string = !in_string,
            (false, _, b' ' | b'\t' | b'\n' | b'\r') => {
                return Err(format!(
                    "whitespace outside strings in {:?}",
                    String::from_utf8_lossy(out)
                ))
            }
            _ => {}
        }
    }
    serde_json::from_slice::<Ordered>(out)
        .map(|_| ())
        .map_err(|e| format!("{e} in {:?}", String::from_utf8_lossy(out)))
}

/// Deserializes any JSON value, failing when an object's members are not in UTF-16 order.
struct Ordered;

impl<'de> Deserialize<'de> for Ordered {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(OrderedVisitor)
    }
}

struct OrderedVisitor;

impl<'de> Visitor<'de> for OrderedVisitor {
    type Value = Ordered;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<Ordered, E> {
        Ok(Ordered)
    }

    fn visit_i64<E>(self, _: i64) -> Result<Ordered, E> {
        Ok(Ordered)
    }

    fn visit_u64<E>(self, _: u64) -> Result<Ordered, E> {
        Ok(Ordered)
    }

    fn visit_f64<E>(self, _: f64) -> Result<Ordered, E> {
        Ok(Ordered)
    }

    fn visit_str<E>(self, _: &str) -> Result<Ordered, E> {
        Ok(Ordered)
    }

    fn visit_unit<E>(self) -> Result<Ordered, E> {
        Ok(Ordered)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Ordered, A::Error> {
        while seq.next_element::<Ordered>()?.is_some() {}
        Ok(Ordered)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Ordered, A::Error> {
        let mut previous: Option<String> = None;
        while let Some(name) = map.next_key::<String>()? {
            if let Some(p) = &previous {
                if cmp_utf16(p.as_bytes(), name.as_bytes()) != Ordering::Less {
                    return Err(de::Error::custom(format!("member {name:?} follows {p:?}")));
                }
            }
            map.next_value::<Ordered>()?;
            previous = Some(name);
        }
        Ok(Ordered)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn misordered_members_are_caught() {
        assert!(check_shape(br#"{"a":{"b":1,"c":2}}"#).is_ok());
        assert!(check_shape(br#"{"a":{"c":1,"b":2}}"#)
            .unwrap_err()
            .contains("member \"b\" follows \"c\""));
        assert!(check_shape("{\"\u{ff61}\":1,\"\u{10000}\":2}".as_bytes()).is_err());
        assert!(check_shape(b"[1, 2]").unwrap_err().contains("whitespace"));
        assert!(check_shape(br#"[" a"]"#).is_ok());
    }

    #[test]
    fn every_corpus_input_keeps_the_properties() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus");
        let manifest = crate::manifest::Manifest::read(&dir).unwrap();
        let mut checked = 0;
        for entry in &manifest.files {
            let file = crate::vector::VectorFile::read(&dir.join(&entry.path)).unwrap();
            for test in file.tests() {
                let input = test.input_bytes().unwrap();
                if let Err(e) = check_canonical(&input) {
                    panic!("{} tcId {}: {e}", entry.path, test.tc_id);
                }
                checked += 1;
            }
        }
        assert!(checked > 0);
    }
}
