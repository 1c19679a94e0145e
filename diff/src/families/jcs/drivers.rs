//! How each registered JCS implementation is driven, in words for the report's columns and as
//! a program in the library's own language for an upstream report: a parser's leniency is
//! then not blamed on the library's canonicalization, and a maintainer can rerun a finding
//! without canonfuzz.

use std::fmt::Write as _;

/// The language a reproduction is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Language {
    /// A Cargo binary; `setup` is its `[dependencies]`.
    Rust,
    /// An ES module run by Node 20; `setup` is its `npm install` line.
    Node,
    /// A Python 3 script; `setup` is its `pip install` line.
    Python,
}

/// How one implementation is driven.
#[derive(Debug, Clone, Copy)]
pub struct Driver {
    /// The implementation's name.
    pub name: &'static str,
    /// What reads the input and what canonicalizes it.
    pub how: &'static str,
    /// The host parser that turns the text into the values the library is given, when the
    /// library does not read text itself: what that parser loses before the library sees
    /// the value (duplicate names, the grammar's strictness) is the parser's, not the
    /// library's.
    pub parser: Option<&'static str>,
    /// The reproduction's language.
    pub language: Language,
    /// What installs the library, pinned.
    pub setup: &'static str,
    /// Statements that canonicalize the input (Rust: the bytes `input`; Node and Python: its
    /// UTF-8 text `text`) and print the result.
    pub body: &'static str,
}

const SERDE_DEPS: &str = "serde_json = { version = \"1\", features = [\"float_roundtrip\"] }";

/// Every registered JCS implementation but the core.
pub const DRIVERS: &[Driver] = &[
    Driver {
        name: "serde_jcs",
        how: "parsed by serde_json::from_slice, then serde_jcs::to_vec",
        parser: Some("serde_json"),
        language: Language::Rust,
        setup: "serde_jcs = \"=0.2.0\"",
        body: "let text = std::str::from_utf8(input).unwrap();\n    let value: serde_json::Value = serde_json::from_str(text).unwrap();\n    println!(\"{}\", String::from_utf8(serde_jcs::to_vec(&value).unwrap()).unwrap());",
    },
    Driver {
        name: "serde_json_canonicalizer",
        how: "parsed by serde_json::from_slice, then serde_json_canonicalizer::to_vec",
        parser: Some("serde_json"),
        language: Language::Rust,
        setup: "serde_json_canonicalizer = \"=0.4.1\"",
        body: "let text = std::str::from_utf8(input).unwrap();\n    let value: serde_json::Value = serde_json::from_str(text).unwrap();\n    println!(\"{}\", String::from_utf8(serde_json_canonicalizer::to_vec(&value).unwrap()).unwrap());",
    },
    Driver {
        name: "json-canon",
        how: "parsed by serde_json::from_slice, then json_canon::to_vec",
        parser: Some("serde_json"),
        language: Language::Rust,
        setup: "json-canon = \"=0.1.3\"",
        body: "let text = std::str::from_utf8(input).unwrap();\n    let value: serde_json::Value = serde_json::from_str(text).unwrap();\n    println!(\"{}\", String::from_utf8(json_canon::to_vec(&value).unwrap()).unwrap());",
    },
    Driver {
        name: "canon-json",
        how: "parsed by serde_json::from_slice, then CanonJsonSerialize::to_canon_json_vec",
        parser: Some("serde_json"),
        language: Language::Rust,
        setup: "canon-json = \"=0.2.1\"",
        body: "use canon_json::CanonJsonSerialize;\n    let text = std::str::from_utf8(input).unwrap();\n    let value: serde_json::Value = serde_json::from_str(text).unwrap();\n    println!(\"{}\", String::from_utf8(value.to_canon_json_vec().unwrap()).unwrap());",
    },
    Driver {
        name: "json-syntax",
        how: "parsed by json_syntax::Value::parse_str, then canonicalize() and compact_print()",
        parser: None,
        language: Language::Rust,
        setup: "json-syntax = { version = \"=0.12.5\", features = [\"canonicalize\"] }",
        body: "use json_syntax::{Parse, Print};\n    let text = std::str::from_utf8(input).unwrap();\n    let (mut value, _) = json_syntax::Value::parse_str(text).unwrap();\n    value.canonicalize();\n    println!(\"{}\", value.compact_print());",
    },
    Driver {
        name: "jcs-admit",
        how: "the bytes, to jcs_admit::admit (its own reader, then serde_json_canonicalizer 0.3)",
        parser: None,
        language: Language::Rust,
        setup: "jcs-admit = \"=0.1.3\"",
        body: "println!(\"{}\", String::from_utf8(jcs_admit::admit(input).unwrap()).unwrap());",
    },
    Driver {
        name: "acdp-jcs",
        how: "parsed by serde_json::from_str (preserve_order), then acdp_jcs::try_canonicalize_value",
        parser: Some("serde_json"),
        language: Language::Rust,
        setup: "acdp-jcs = \"=0.21.0\"",
        body: "let text = std::str::from_utf8(input).unwrap();\n    let value: serde_json::Value = serde_json::from_str(text).unwrap();\n    println!(\"{}\", String::from_utf8(acdp_jcs::try_canonicalize_value(&value).unwrap()).unwrap());",
    },
    Driver {
        name: "node-canonicalize",
        how: "parsed by JSON.parse, then canonicalize()",
        parser: Some("JSON.parse"),
        language: Language::Node,
        setup: "npm install canonicalize@5.1.0",
        body: "const { default: canonicalize } = await import('canonicalize');\nconsole.log(canonicalize(JSON.parse(text)));",
    },
    Driver {
        name: "node-json-canonicalize",
        how: "parsed by JSON.parse, then canonicalize() of json-canonicalize",
        parser: Some("JSON.parse"),
        language: Language::Node,
        setup: "npm install json-canonicalize@3.0.1",
        body: "const { canonicalize } = await import('json-canonicalize');\nconsole.log(canonicalize(JSON.parse(text)));",
    },
    Driver {
        name: "node-json-canon",
        how: "parsed by JSON.parse, then json-canon's default export",
        parser: Some("JSON.parse"),
        language: Language::Node,
        setup: "npm install json-canon@1.0.1",
        body: "const { default: serialize } = await import('json-canon');\nconsole.log(serialize(JSON.parse(text)));",
    },
    Driver {
        name: "node-truestamp-canonify",
        how: "parsed by JSON.parse, then canonify()",
        parser: Some("JSON.parse"),
        language: Language::Node,
        setup: "npm install @truestamp/canonify@2.1.0",
        body: "const { canonify } = await import('@truestamp/canonify');\nconsole.log(canonify(JSON.parse(text)));",
    },
    Driver {
        name: "python-rfc8785",
        how: "parsed by json.loads (NaN and Infinity refused), then rfc8785.dumps",
        parser: Some("json.loads"),
        language: Language::Python,
        setup: "pip install rfc8785==0.1.4",
        body: "import rfc8785\nprint(rfc8785.dumps(json.loads(text, parse_constant=refuse)).decode())",
    },
    Driver {
        name: "python-jcs",
        how: "parsed by json.loads (NaN and Infinity refused), then jcs.canonicalize",
        parser: Some("json.loads"),
        language: Language::Python,
        setup: "pip install jcs==0.2.1",
        body: "import jcs\nprint(jcs.canonicalize(json.loads(text, parse_constant=refuse)).decode())",
    },
    Driver {
        name: "python-jsoncanon",
        how: "parsed by json.loads (NaN and Infinity refused), then jsoncanon.canonicalize",
        parser: Some("json.loads"),
        language: Language::Python,
        setup: "pip install jsoncanon==0.2.4",
        body: "import jsoncanon\nprint(jsoncanon.canonicalize(json.loads(text, parse_constant=refuse)).decode())",
    },
];

/// How the core is driven.
pub const CORE_HOW: &str = "the bytes, to canonfuzz_core::jcs::Canonicalizer::canonicalize";

/// How `implementation` is driven, in words: the core, a registered third party, or what the
/// implementation says of itself (a command's line).
pub fn describe(implementation: &dyn crate::impls::Implementation) -> String {
    match (implementation.name(), driver(implementation.name())) {
        ("core", _) => CORE_HOW.to_string(),
        (_, Some(d)) => d.how.to_string(),
        _ => implementation
            .driven()
            .unwrap_or_else(|| "as its adapter drives it".to_string()),
    }
}

/// The driver of the implementation `name`, if it is a registered third party.
pub fn driver(name: &str) -> Option<&'static Driver> {
    DRIVERS.iter().find(|d| d.name == name)
}

impl Driver {
    /// A program in the library's language that feeds it `input` exactly as canonfuzz does and
    /// prints what it answers.
    pub fn reproduction(&self, input: &[u8]) -> String {
        use crate::runs;
        let mut out = String::new();
        match self.language {
            Language::Rust => {
                let _ = write!(
                    out,
                    "// Cargo.toml [dependencies]:\n//   {}\n//   {SERDE_DEPS}\nfn main() {{\n    {}\n    {}\n}}\n",
                    self.setup,
                    runs::rust(input),
                    self.body
                );
            }
            Language::Node => {
                let _ = write!(
                    out,
                    "// {}; run as an ES module (repro.mjs) with Node 20\nconst text = new TextDecoder('utf-8', {{ fatal: true, ignoreBOM: true }})\n  .decode({});\n{}\n",
                    self.setup,
                    runs::node(input),
                    self.body
                );
            }
            Language::Python => {
                let _ = write!(
                    out,
                    "# {}; run with Python 3.11\nimport json\n\n\ndef refuse(name):\n    raise ValueError(f\"{{name}} is not JSON\")\n\n\ntext = {}.decode(\"utf-8\")\n{}\n",
                    self.setup,
                    runs::python(input),
                    self.body
                );
            }
        }
        out
    }

    /// The language's name and its code fence tag.
    pub fn language_name(&self) -> (&'static str, &'static str) {
        match self.language {
            Language::Rust => ("Rust", "rust"),
            Language::Node => ("JavaScript (Node)", "js"),
            Language::Python => ("Python", "python"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::family::Spec;

    #[test]
    fn every_registered_third_party_has_a_driver_and_no_driver_is_stray() {
        let registered: Vec<String> = super::super::Jcs
            .implementations()
            .iter()
            .skip(1)
            .map(|i| i.name().to_string())
            .collect();
        let drivers: Vec<String> = DRIVERS.iter().map(|d| d.name.to_string()).collect();
        assert_eq!(registered, drivers);
    }

    #[test]
    fn every_driver_installs_the_version_its_implementation_is_pinned_at() {
        // The setup line repeats the pin a report's reader installs; it must be the one the
        // harness runs (Cargo.lock, package-lock.json, requirements.txt).
        for implementation in super::super::Jcs.implementations().iter().skip(1) {
            let driver = driver(implementation.name()).unwrap();
            let version = implementation.version();
            let pinned = version.split_whitespace().next().unwrap_or_default();
            let installs = match driver.language {
                Language::Rust => format!("\"={pinned}\""),
                Language::Node => format!("@{pinned}"),
                Language::Python => format!("=={pinned}"),
            };
            assert!(
                driver.setup.contains(&installs) && !pinned.is_empty(),
                "{}: runs {version}, installs {}",
                driver.name,
                driver.setup
            );
        }
    }

    #[test]
    fn a_reproduction_carries_every_byte_of_the_input() {
        let input = b"{\"\\ud800\":\n1e400}";
        let node = driver("node-canonicalize").unwrap().reproduction(input);
        assert!(node.contains(&crate::vector::to_hex(input)), "{node}");
        let rust = driver("serde_jcs").unwrap().reproduction(input);
        assert!(rust.contains("0x7b, 0x22, 0x5c"), "{rust}");
        assert!(rust.contains("0x0a"), "{rust}");
    }
}
