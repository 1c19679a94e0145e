//! JCS canonicalizers in process: the core, and third-party Rust crates. Each crate serializes
//! a `serde_json::Value`, so the input is parsed by serde_json first; they run with serde_json's
//! `float_roundtrip`, which three of them ask for, and nothing in this build may enable
//! `arbitrary_precision` or `preserve_order`, which would change their parsing (a test below
//! guards it).

use std::cell::RefCell;
use std::rc::Rc;

use canonfuzz_core::jcs::Canonicalizer;
use serde_json::Value;

use crate::impls::{Implementation, CORE_GROUP};
use crate::jcs::RUST_SERDE_JSON_GROUP;
use crate::kept::{kept_or, Slot};
use crate::outcome::{classify_message, Outcome};

/// `canonfuzz_core::jcs` with its default limits.
#[derive(Debug, Default)]
pub struct CoreImpl;

impl Implementation for CoreImpl {
    fn name(&self) -> &str {
        "core"
    }

    fn version(&self) -> String {
        env!("CARGO_PKG_VERSION").to_string()
    }

    fn group(&self) -> &str {
        CORE_GROUP
    }

    fn run_batch(&self, inputs: &[&[u8]]) -> Vec<Outcome> {
        let mut canonicalizer = Canonicalizer::default();
        inputs
            .iter()
            .map(|input| answer(&mut canonicalizer, input))
            .collect()
    }
}

/// The core's answer for one input, as an outcome.
pub fn answer(canonicalizer: &mut Canonicalizer, input: &[u8]) -> Outcome {
    match canonicalizer.canonicalize(input) {
        Ok(out) => Outcome::Ok(out),
        Err(e) => Outcome::Rejected(e.kind().as_str().to_string()),
    }
}

/// A crate that canonicalizes a parsed `serde_json::Value`.
#[derive(Clone, Copy)]
pub struct SerdeValueImpl {
    name: &'static str,
    version: &'static str,
    canonicalize: fn(&Value) -> Result<Vec<u8>, String>,
}

/// Every Rust JCS crate compared in process, each pinned in Cargo.toml. Adding one is an
/// entry here and its dependency line: the campaign, the `jcs_diff` fuzz target, the report
/// and the lockfile test take the list from here.
pub const RUST_CRATES: &[SerdeValueImpl] = &[
    SerdeValueImpl {
        name: "serde_jcs",
        version: "0.2.0",
        canonicalize: |v| serde_jcs::to_vec(v).map_err(|e| e.to_string()),
    },
    SerdeValueImpl {
        name: "serde_json_canonicalizer",
        version: "0.4.1",
        canonicalize: |v| serde_json_canonicalizer::to_vec(v).map_err(|e| e.to_string()),
    },
    SerdeValueImpl {
        name: "json-canon",
        version: "0.1.3",
        canonicalize: |v| json_canon::to_vec(v).map_err(|e| e.to_string()),
    },
    SerdeValueImpl {
        name: "canon-json",
        version: "0.2.1",
        canonicalize: |v| {
            use canon_json::CanonJsonSerialize;
            v.to_canon_json_vec().map_err(|e| e.to_string())
        },
    },
];

/// The Rust JCS crates as implementations.
pub fn rust_crates() -> Vec<Box<dyn Implementation>> {
    RUST_CRATES
        .iter()
        .map(|c| Box::new(*c) as Box<dyn Implementation>)
        .collect()
}

impl SerdeValueImpl {
    /// The crate's answer to an input serde_json read as `read`.
    fn answer(&self, read: &Reading) -> Outcome {
        let value = match read {
            Ok(value) => value,
            Err(refused) => return refused.clone(),
        };
        match crate::impls::in_process::guarded(|| (self.canonicalize)(value)) {
            Ok(Ok(out)) => Outcome::Ok(out),
            Ok(Err(message)) => Outcome::Rejected(classify_message(&message)),
            Err(message) => Outcome::Crashed(format!("panicked: {message}")),
        }
    }
}

/// What serde_json makes of an input: the value, or its refusal as the crates' outcome.
type Reading = Result<Value, Outcome>;

/// serde_json's reading of each input, kept on the thread with the batch until another batch
/// is read: the crates of [`RUST_CRATES`] read with one serde_json and answer a batch in turn,
/// so one reading serves them all. Its cost counts to the crate that asks first.
fn readings(inputs: &[&[u8]]) -> Rc<Vec<Reading>> {
    thread_local! {
        static LAST: Slot<Vec<Vec<u8>>, Vec<Reading>> = const { RefCell::new(None) };
    }
    LAST.with(|last| {
        kept_or(
            last,
            |batch| batch.len() == inputs.len() && batch.iter().zip(inputs).all(|(a, b)| a == b),
            || inputs.iter().map(|input| input.to_vec()).collect(),
            || {
                inputs
                    .iter()
                    .map(|input| {
                        serde_json::from_slice::<Value>(input)
                            .map_err(|e| Outcome::Rejected(classify_message(&e.to_string())))
                    })
                    .collect()
            },
        )
    })
}

impl Implementation for SerdeValueImpl {
    fn name(&self) -> &str {
        self.name
    }

    fn version(&self) -> String {
        self.version.to_string()
    }

    fn group(&self) -> &str {
        RUST_SERDE_JSON_GROUP
    }

    fn run_batch(&self, inputs: &[&[u8]]) -> Vec<Outcome> {
        readings(inputs)
            .iter()
            .map(|read| self.answer(read))
            .collect()
    }
}

/// The independence group of json-syntax, which parses and prints with code of its own.
pub const RUST_JSON_SYNTAX_GROUP: &str = "rust-json-syntax";

/// json-syntax's pinned version.
const JSON_SYNTAX_VERSION: &str = "0.12.5";

/// Nesting json-syntax is asked about on the calling thread: its printing and dropping
/// recurse once a level, and a campaign thread's stack holds several times this many.
const SHALLOW: usize = 1_000;

/// Nesting past which json-syntax is not asked at all; shallower documents past [`SHALLOW`]
/// are answered on the deep-reading thread, whose stack holds its recursion.
const DEEPEST: usize = 100_000;

/// json-syntax, a Rust crate with its own parser, number type and printer: RFC 8785 by its
/// `canonicalize` and compact printing. Its refusals are `other` (its messages are its own),
/// but for text that is not UTF-8, which it cannot be handed.
#[derive(Debug, Default, Clone, Copy)]
pub struct JsonSyntaxImpl;

impl JsonSyntaxImpl {
    /// Its answer to one input, on whatever thread holds its recursion.
    fn answer(input: &[u8]) -> Outcome {
        let Ok(text) = std::str::from_utf8(input) else {
            return Outcome::Rejected("invalid_utf8".to_string());
        };
        let depth = crate::read::for_judgment::nesting(input);
        if depth <= SHALLOW {
            return Self::canonical(text);
        }
        if depth > DEEPEST {
            return Outcome::Unsupported;
        }
        let owned = text.to_string();
        crate::read::any_depth::on_deep_stack(move || Self::canonical(&owned))
            .unwrap_or_else(Outcome::Crashed)
    }

    fn canonical(text: &str) -> Outcome {
        use json_syntax::{Parse, Print};
        let canonicalized = crate::impls::in_process::guarded(|| {
            json_syntax::Value::parse_str(text).map(|(mut value, _)| {
                value.canonicalize();
                value.compact_print().to_string().into_bytes()
            })
        });
        match canonicalized {
            Ok(Ok(out)) => Outcome::Ok(out),
            Ok(Err(_)) => Outcome::Rejected("other".to_string()),
            Err(message) => Outcome::Crashed(format!("panicked: {message}")),
        }
    }
}

impl Implementation for JsonSyntaxImpl {
    fn name(&self) -> &str {
        "json-syntax"
    }

    fn version(&self) -> String {
        JSON_SYNTAX_VERSION.to_string()
    }

    fn group(&self) -> &str {
        RUST_JSON_SYNTAX_GROUP
    }

    fn run_batch(&self, inputs: &[&[u8]]) -> Vec<Outcome> {
        inputs.iter().map(|input| Self::answer(input)).collect()
    }
}

/// jcs-admit's pinned version.
const JCS_ADMIT_VERSION: &str = "0.1.3";

/// jcs-admit: admission checks on the raw bytes (repeated names, depth, strings that are not
/// Unicode scalar values, numbers with no finite double) by a reader of its own, then
/// serde_json_canonicalizer's serializer. It shares that serializer, and so its number
/// formatting and member order, with the serde_json crates, and votes with them.
#[derive(Debug, Default, Clone, Copy)]
pub struct JcsAdmitImpl;

impl JcsAdmitImpl {
    /// Its answer to one input, its refusals by the kind its error's variant names.
    fn answer(input: &[u8]) -> Outcome {
        use jcs_admit::Error;
        match crate::impls::in_process::guarded(|| jcs_admit::admit(input)) {
            Ok(Ok(out)) => Outcome::Ok(out),
            Ok(Err(e)) => Outcome::Rejected(match &e {
                Error::Syntax { .. } | Error::TrailingContent { .. } => "syntax".to_string(),
                Error::DuplicateMember { .. } => "duplicate_key".to_string(),
                Error::StringNotScalar { reason, .. } => match classify_message(reason) {
                    kind if kind == "other" => "syntax".to_string(),
                    kind => kind,
                },
                Error::NonFiniteNumber { .. } => "number_out_of_range".to_string(),
                Error::TooDeep { .. } => "depth_limit".to_string(),
                _ => "other".to_string(),
            }),
            Err(message) => Outcome::Crashed(format!("panicked: {message}")),
        }
    }
}

impl Implementation for JcsAdmitImpl {
    fn name(&self) -> &str {
        "jcs-admit"
    }

    fn version(&self) -> String {
        JCS_ADMIT_VERSION.to_string()
    }

    fn group(&self) -> &str {
        RUST_SERDE_JSON_GROUP
    }

    fn run_batch(&self, inputs: &[&[u8]]) -> Vec<Outcome> {
        inputs.iter().map(|input| Self::answer(input)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serde_json_features_stay_as_the_crates_expect() {
        // preserve_order would keep "b" first; arbitrary_precision would keep the digits.
        let v: Value = serde_json::from_str(r#"{"b":1,"a":2.50}"#).unwrap();
        assert_eq!(serde_json::to_string(&v).unwrap(), r#"{"a":2.5,"b":1}"#);
        // float_roundtrip: correctly rounded parsing.
        let v: Value = serde_json::from_str("2.4703282292062328e-324").unwrap();
        assert_eq!(v.as_f64(), Some(5e-324));
    }

    #[test]
    fn a_shared_reading_is_of_the_batch_asked_about() {
        let [first, second, rest @ ..] = RUST_CRATES else {
            panic!("a shared reading needs two crates at least");
        };
        // Two batches of inputs of the same lengths that read differently.
        let one: &[&[u8]] = &[br#"{"b":1,"a":2}"#, b"[1,2]"];
        let other: &[&[u8]] = &[br#"{"d":3,"c":4}"#, b"[3,x]"];
        let one_canonical = vec![
            Outcome::Ok(br#"{"a":2,"b":1}"#.to_vec()),
            Outcome::Ok(b"[1,2]".to_vec()),
        ];
        assert_eq!(first.run_batch(one), one_canonical);
        let answered = second.run_batch(other);
        assert_eq!(answered[0], Outcome::Ok(br#"{"c":4,"d":3}"#.to_vec()));
        assert!(matches!(answered[1], Outcome::Rejected(_)), "{answered:?}");
        // Every crate answers a batch from its reading, whichever asked first.
        for crate_ in std::iter::once(first).chain(rest) {
            assert_eq!(crate_.run_batch(one), one_canonical, "{}", crate_.name);
        }
    }

    #[test]
    fn pinned_versions_match_the_lockfile() {
        let lock =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../Cargo.lock")).unwrap();
        let pinned = RUST_CRATES
            .iter()
            .map(|imp| (imp.name, imp.version))
            .chain([
                ("json-syntax", JSON_SYNTAX_VERSION),
                ("jcs-admit", JCS_ADMIT_VERSION),
            ]);
        for (name, version) in pinned {
            let entry = format!("name = \"{name}\"\nversion = \"{version}\"");
            assert!(lock.contains(&entry), "{name} is not locked at {version}");
        }
    }
}
