//! The conformance-vector format, one schema per family (`canonfuzz_<family>_v1`, such as
//! `canonfuzz_jcs_v1`), shaped like Wycheproof's files:
//! a header naming the algorithm and schema, notes explaining each flag, groups that say where
//! their tests come from, and tests with an id, a comment, flags and an expected result.
//!
//! Inputs are bytes. A test gives them as `input` (a string whose UTF-8 encoding is the bytes)
//! when they are valid UTF-8, and otherwise as `inputHex` with a readable copy, `inputText`,
//! in which each byte that is not UTF-8 shows as `\xNN`.

pub use canonfuzz_props::hex::{from_hex, to_hex};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

use crate::outcome::Outcome;

/// One vector file.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct VectorFile {
    /// What is tested, e.g. `JCS`.
    pub algorithm: String,
    /// The format version: the schema name of its family, e.g. `canonfuzz_jcs_v1`.
    pub schema: String,
    /// How many tests the file holds; checked by the lint.
    pub number_of_tests: usize,
    /// Free text describing the file.
    #[serde(default)]
    pub header: Vec<String>,
    /// The meaning of every flag a test may carry.
    #[serde(default)]
    pub notes: BTreeMap<String, Note>,
    /// Tests grouped by where they come from.
    pub test_groups: Vec<TestGroup>,
}

/// What a flag means.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Note {
    /// `BASIC`, `EDGE_CASE`, `MALFORMED_INPUT`, `I_JSON` or `REGRESSION`.
    pub bug_type: String,
    /// What an implementation that fails such a test gets wrong.
    pub description: String,
}

/// Tests that share a source.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TestGroup {
    /// The kind of test, `JcsCanonicalize` for every JCS group.
    #[serde(rename = "type")]
    pub kind: String,
    /// Where the inputs and expected results come from.
    pub source: Source,
    /// Anything a reader should know about the group.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub comment: String,
    /// The tests.
    pub tests: Vec<Test>,
}

/// The provenance of a group's expected results.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Source {
    /// A short name of the source.
    pub name: String,
    /// Where it is published.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// The version, commit or date of the source.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// The source's licence.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub license: Option<String>,
}

/// What a correct implementation does with a test's input.
#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Expectation {
    /// Accept, with exactly the expected output.
    #[default]
    Valid,
    /// Reject, with the expected error kind when one is given.
    Invalid,
    /// Either is allowed; an acceptance must still produce the expected output.
    Acceptable,
}

/// One test as its file holds it: the fields every family shares, read leniently, and the
/// whole text, which the family's own test type reads strictly (see [`vector_test!`]).
#[derive(Debug, Clone)]
pub struct Test {
    raw: Box<RawValue>,
    head: Head,
}

/// The fields every test carries, whatever its family.
#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Head {
    /// Unique within the file, from 1.
    pub tc_id: u64,
    /// What the test checks.
    #[serde(default)]
    pub comment: String,
    /// Flags explained in the file's notes.
    #[serde(default)]
    pub flags: Vec<String>,
    /// Accept, reject, or either.
    pub result: Expectation,
    /// For a differential finding: what each implementation did, as the campaign saw it.
    #[serde(default)]
    pub outcomes: BTreeMap<String, serde_json::Value>,
}

impl Test {
    /// The test a family's typed test writes.
    pub fn new<T: Serialize>(test: &T) -> Result<Test, String> {
        let raw = serde_json::value::to_raw_value(test).map_err(|e| e.to_string())?;
        let head = serde_json::from_str(raw.get()).map_err(|e| e.to_string())?;
        Ok(Test { raw, head })
    }

    /// The test as the family's own type `T`, which refuses fields it does not know.
    pub fn read<T: DeserializeOwned>(&self) -> Result<T, String> {
        serde_json::from_str(self.raw.get()).map_err(|e| {
            let what = e.to_string();
            let what = what.split(" at line ").next().unwrap_or(&what).to_string();
            format!("not a well-formed test of this file's schema: {what}")
        })
    }
}

impl std::ops::Deref for Test {
    type Target = Head;

    fn deref(&self) -> &Head {
        &self.head
    }
}

impl PartialEq for Test {
    fn eq(&self, other: &Test) -> bool {
        self.raw.get() == other.raw.get()
    }
}

impl Serialize for Test {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.raw.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Test {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Test, D::Error> {
        let raw = Box::<RawValue>::deserialize(deserializer)?;
        let head = serde_json::from_str(raw.get()).map_err(serde::de::Error::custom)?;
        Ok(Test { raw, head })
    }
}

/// Declares a family's test type: the fields every test shares (`tcId`, `comment`, `flags`,
/// `result`, `outcomes`) around the family's own, given in two lists, those written before
/// `result` and those after it. The type refuses fields it does not declare.
#[macro_export]
macro_rules! vector_test {
    (
        $(#[$meta:meta])*
        pub struct $name:ident {
            $($(#[$before_meta:meta])* pub $before:ident : $before_ty:ty,)*
        } then {
            $($(#[$after_meta:meta])* pub $after:ident : $after_ty:ty,)*
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
        #[serde(rename_all = "camelCase", deny_unknown_fields)]
        pub struct $name {
            /// Unique within the file, from 1.
            pub tc_id: u64,
            /// What the test checks.
            #[serde(default)]
            pub comment: String,
            /// Flags explained in the file's notes.
            #[serde(default)]
            pub flags: Vec<String>,
            $($(#[$before_meta])* pub $before: $before_ty,)*
            /// Accept, reject, or either.
            pub result: $crate::vector::Expectation,
            $($(#[$after_meta])* pub $after: $after_ty,)*
            /// For a differential finding: what each implementation did, as the campaign saw
            /// it.
            #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
            pub outcomes: std::collections::BTreeMap<String, serde_json::Value>,
        }

        impl $name {
            /// A test with the shared fields of `head` and none of the family's own.
            pub fn from_head(head: $crate::vector::Head) -> $name {
                $name {
                    tc_id: head.tc_id,
                    comment: head.comment,
                    flags: head.flags,
                    result: head.result,
                    outcomes: head.outcomes,
                    ..$name::default()
                }
            }
        }
    };
}

vector_test! {
    /// A test whose input yields an output or a rejection, by its bytes alone: JCS, and the
    /// families whose vectors hold a campaign input (Merkle, INK).
    pub struct OutputTest {
        /// The input when it is valid UTF-8.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub input: Option<String>,
        /// The input as hex when it is not valid UTF-8.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub input_hex: Option<String>,
        /// A readable copy of `inputHex`; informative only.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub input_text: Option<String>,
        /// The output a correct implementation produces.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub expected: Option<String>,
    } then {
        /// The stable error kind of a rejection.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub error_kind: Option<String>,
    }
}

impl OutputTest {
    /// A test whose input is the given bytes, in whichever field suits them.
    pub fn with_input(tc_id: u64, comment: impl Into<String>, bytes: &[u8]) -> OutputTest {
        let (input, input_hex, input_text) = input_fields(bytes);
        OutputTest {
            tc_id,
            comment: comment.into(),
            input,
            input_hex,
            input_text,
            ..OutputTest::default()
        }
    }

    /// The input bytes, or why they cannot be read.
    pub fn input_bytes(&self) -> Result<Vec<u8>, String> {
        input_bytes(self.input.as_deref(), self.input_hex.as_deref())
    }
}

/// Tests of a family's own type, as a file holds them.
pub fn tests_of<T: Serialize>(tests: &[T]) -> Result<Vec<Test>, String> {
    tests.iter().map(Test::new).collect()
}

/// Input bytes as a test's `input` (valid UTF-8), or as `inputHex` with its readable copy
/// `inputText`.
pub fn input_fields(bytes: &[u8]) -> (Option<String>, Option<String>, Option<String>) {
    match std::str::from_utf8(bytes) {
        Ok(text) => (Some(text.to_string()), None, None),
        Err(_) => (None, Some(to_hex(bytes)), Some(readable(bytes))),
    }
}

/// The bytes of a test's `input` or `inputHex`, or why they cannot be read.
pub fn input_bytes(input: Option<&str>, input_hex: Option<&str>) -> Result<Vec<u8>, String> {
    match (input, input_hex) {
        (Some(text), None) => Ok(text.as_bytes().to_vec()),
        (None, Some(hex)) => from_hex(hex),
        (Some(_), Some(_)) => Err("has both input and inputHex; keep one".to_string()),
        (None, None) => Err("has neither input nor inputHex".to_string()),
    }
}

impl VectorFile {
    /// Reads and parses a vector file.
    pub fn read(path: &Path) -> Result<VectorFile, String> {
        let bytes = crate::input::read_file(path).map_err(|e| e.to_string())?;
        serde_json::from_slice(&bytes).map_err(|e| {
            format!(
                "{}: line {}, column {}: not a canonfuzz vector file: {e}",
                path.display(),
                e.line(),
                e.column()
            )
        })
    }

    /// All tests of all groups.
    pub fn tests(&self) -> impl Iterator<Item = &Test> {
        self.test_groups.iter().flat_map(|g| g.tests.iter())
    }

    /// All tests of all groups, as the family's own test type `T`; an error names the first
    /// test that is not one.
    pub fn typed_tests<T: DeserializeOwned>(&self) -> Result<Vec<T>, String> {
        self.tests()
            .map(|t| t.read().map_err(|e| format!("tcId {}: {e}", t.tc_id)))
            .collect()
    }

    /// Serializes the file: the header pretty-printed, one line per test, so that files stay
    /// readable and diffs show one changed test per line.
    pub fn to_bytes(&self) -> Result<Vec<u8>, String> {
        let mut out = String::from("{\n");
        let _ = writeln!(out, "  \"algorithm\": {},", json(&self.algorithm)?);
        let _ = writeln!(out, "  \"schema\": {},", json(&self.schema)?);
        let _ = writeln!(out, "  \"numberOfTests\": {},", self.number_of_tests);
        let _ = writeln!(out, "  \"header\": {},", json(&self.header)?);
        let _ = writeln!(out, "  \"notes\": {{");
        for (i, (flag, note)) in self.notes.iter().enumerate() {
            let comma = if i + 1 < self.notes.len() { "," } else { "" };
            let _ = writeln!(out, "    {}: {}{comma}", json(flag)?, json(note)?);
        }
        let _ = writeln!(out, "  }},");
        let _ = writeln!(out, "  \"testGroups\": [");
        for (g, group) in self.test_groups.iter().enumerate() {
            let _ = writeln!(out, "    {{");
            let _ = writeln!(out, "      \"type\": {},", json(&group.kind)?);
            let _ = writeln!(out, "      \"source\": {},", json(&group.source)?);
            if !group.comment.is_empty() {
                let _ = writeln!(out, "      \"comment\": {},", json(&group.comment)?);
            }
            let _ = writeln!(out, "      \"tests\": [");
            for (t, test) in group.tests.iter().enumerate() {
                let comma = if t + 1 < group.tests.len() { "," } else { "" };
                let _ = writeln!(out, "        {}{comma}", json(test)?);
            }
            let _ = writeln!(out, "      ]");
            let comma = if g + 1 < self.test_groups.len() {
                ","
            } else {
                ""
            };
            let _ = writeln!(out, "    }}{comma}");
        }
        out.push_str("  ]\n}\n");
        Ok(out.into_bytes())
    }

    /// Writes the file atomically: a reader sees the old file or the new one, never half.
    pub fn write(&self, path: &Path) -> Result<(), String> {
        write_atomically(path, &self.to_bytes()?)
    }
}

/// Replaces `path` with `bytes` by writing a sibling temporary file and renaming it; a file
/// that holds these bytes already is left as it is, its time too, so that what watches the
/// corpus (the build, which carries it) sees no change where there is none.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), String> {
    if std::fs::read(path).is_ok_and(|held| held == bytes) {
        return Ok(());
    }
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    std::fs::write(&tmp, bytes).map_err(|e| format!("{}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, path).map_err(|e| format!("{}: {e}", path.display()))
}

fn json<T: Serialize + ?Sized>(value: &T) -> Result<String, String> {
    serde_json::to_string(value).map_err(|e| e.to_string())
}

/// Bytes quoted for a message, shortened past 160 characters.
pub fn excerpt(bytes: &[u8]) -> String {
    const LIMIT: usize = 160;
    let text = readable(bytes);
    match text.char_indices().nth(LIMIT) {
        Some((cut, _)) => format!("{:?}... ({} bytes)", &text[..cut], bytes.len()),
        None => format!("{text:?}"),
    }
}

/// Text for a person: valid UTF-8 as it is, each invalid byte as `\xNN`.
pub fn readable(bytes: &[u8]) -> String {
    let mut out = String::new();
    for chunk in bytes.utf8_chunks() {
        out.push_str(chunk.valid());
        for b in chunk.invalid() {
            let _ = write!(out, "\\x{b:02x}");
        }
    }
    out
}

/// A vector test as a campaign input, and what any implementation must answer to it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Replay {
    /// The campaign input.
    pub input: Vec<u8>,
    /// Accept, reject, or either.
    pub result: Expectation,
    /// The output an acceptance must carry, when the test states one.
    pub output: Option<Vec<u8>>,
    /// The error kind a rejection names, when the test states one.
    pub error_kind: Option<String>,
}

impl Replay {
    /// Whether `outcome` is what the test expects. Any rejection passes a rejection test:
    /// third parties' error kinds are only approximated.
    pub fn passes(&self, outcome: &Outcome) -> bool {
        let output_holds = |out: &Vec<u8>| self.output.as_ref().is_none_or(|want| want == out);
        match (self.result, outcome) {
            (Expectation::Valid | Expectation::Acceptable, Outcome::Ok(out)) => output_holds(out),
            (Expectation::Invalid | Expectation::Acceptable, Outcome::Rejected(_)) => true,
            _ => false,
        }
    }
}

/// The error kind a vector can state for an expected rejection: none for an acceptance, or
/// for a rejection whose kind no implementation shares.
pub fn stated_kind(want: &Outcome) -> Option<String> {
    match want {
        Outcome::Rejected(kind) if !kind.is_empty() && kind != "other" => Some(kind.clone()),
        _ => None,
    }
}

/// The test, of a family whose case is its input's bytes, of campaign `input` expecting
/// `want`, stating `error_kind` for a rejection; `None` when the output cannot be stated.
pub fn output_test(
    head: Head,
    input: &[u8],
    want: &Outcome,
    error_kind: Option<String>,
) -> Option<Test> {
    let (input, input_hex, input_text) = input_fields(input);
    let test = OutputTest {
        input,
        input_hex,
        input_text,
        expected: stated_output(want)?,
        error_kind,
        ..OutputTest::from_head(head)
    };
    Test::new(&test).ok()
}

/// The output a vector states for an expected outcome: `Some(None)` for a rejection, and
/// `None` for an output that is not UTF-8, which no vector can state.
pub fn stated_output(want: &Outcome) -> Option<Option<String>> {
    match want {
        Outcome::Ok(bytes) => String::from_utf8(bytes.clone()).ok().map(Some),
        _ => Some(None),
    }
}

/// The replay of a test whose input yields an output or a rejection by its bytes alone.
pub fn output_replay(test: &Test) -> Option<Replay> {
    let test: OutputTest = test.read().ok()?;
    Some(Replay {
        input: test.input_bytes().ok()?,
        result: test.result,
        output: test.expected.map(String::into_bytes),
        error_kind: test.error_kind,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inputs_that_are_not_utf8_go_to_hex() {
        let t = OutputTest::with_input(1, "x", b"[\"\xff\"]");
        assert_eq!(t.input, None);
        assert_eq!(t.input_hex.as_deref(), Some("5b22ff225d"));
        assert_eq!(t.input_text.as_deref(), Some("[\"\\xff\"]"));
        assert_eq!(t.input_bytes().unwrap(), b"[\"\xff\"]");
        let t = OutputTest::with_input(2, "y", "é".as_bytes());
        assert_eq!(t.input.as_deref(), Some("é"));
        assert_eq!(t.input_bytes().unwrap(), "é".as_bytes());
    }

    #[test]
    fn files_round_trip_through_their_text_form() {
        let mut test = OutputTest::with_input(1, "one", b"[1]");
        test.expected = Some("[1]".into());
        let test = Test::new(&test).unwrap();
        let file = VectorFile {
            algorithm: "JCS".into(),
            schema: "canonfuzz_jcs_v1".into(),
            number_of_tests: 1,
            header: vec!["h".into()],
            notes: BTreeMap::from([(
                "F".to_string(),
                Note {
                    bug_type: "BASIC".into(),
                    description: "d".into(),
                },
            )]),
            test_groups: vec![TestGroup {
                kind: "JcsCanonicalize".into(),
                source: Source {
                    name: "s".into(),
                    url: None,
                    version: None,
                    license: None,
                },
                comment: String::new(),
                tests: vec![test],
            }],
        };
        let bytes = file.to_bytes().unwrap();
        let back: VectorFile = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(back, file);
    }

    #[test]
    fn a_test_keeps_its_text_and_is_read_strictly_as_its_familys_type() {
        let text = r#"{"tcId":3,"comment":"c","flags":["F"],"input":"[1]","expected":"[1]","result":"valid"}"#;
        let test: Test = serde_json::from_str(text).unwrap();
        assert_eq!(
            (test.tc_id, test.flags.as_slice()),
            (3, ["F".to_string()].as_slice())
        );
        assert_eq!(serde_json::to_string(&test).unwrap(), text);
        assert_eq!(
            test.read::<OutputTest>().unwrap().expected.as_deref(),
            Some("[1]")
        );
        let stray: Test = serde_json::from_str(&text.replace("\"input\"", "\"token\"")).unwrap();
        let why = stray.read::<OutputTest>().unwrap_err();
        assert!(why.contains("unknown field `token`"), "{why}");
        assert!(serde_json::from_str::<Test>(r#"{"comment":"no id","result":"valid"}"#).is_err());
    }

    #[test]
    fn hex_rejects_odd_and_non_hex() {
        assert!(from_hex("abc").is_err());
        assert!(from_hex("zz").is_err());
        assert_eq!(from_hex("00Ff").unwrap(), vec![0, 255]);
    }
}
