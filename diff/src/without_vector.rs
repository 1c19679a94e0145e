//! Findings a campaign minimized but could write no vector for: the implementations reach no
//! answer a vector could expect (no consensus, and no answer from the group that stands in
//! for one), or the expected output is not text. The corpus remembers each by signature with
//! its minimized input and the case it was first met at, so that a later campaign against the
//! corpus knows it and does not minimize it again. The file, `<family>/findings/
//! without-vector.jsonl`, holds one JSON object a line in signature order; it is not a vector,
//! so the corpus runner and the manifest pass it by.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::family::Family;
use crate::vector::{input_bytes, input_fields, write_atomically};

/// A finding the corpus remembers without a vector.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Remembered {
    /// Its minimized input.
    pub input: Vec<u8>,
    /// The seed of the campaign that met it.
    pub seed: u64,
    /// The index of the case it was first met at: of two shards' records of one signature,
    /// `canonfuzz merge` keeps the one met first, as one unsharded campaign would.
    pub case: u64,
}

/// One line of the file.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Line {
    signature: String,
    seed: u64,
    case: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    input: Option<String>,
    #[serde(rename = "inputHex", skip_serializing_if = "Option::is_none")]
    input_hex: Option<String>,
}

/// The file's path, relative to the corpus.
pub fn path(family: Family) -> String {
    format!("{}/findings/without-vector.jsonl", family.name())
}

/// The findings `corpus` remembers for `family`, by signature; none when it has no file.
pub fn read(corpus: &Path, family: Family) -> Result<BTreeMap<String, Remembered>, String> {
    let file = corpus.join(path(family));
    let text = match std::fs::read_to_string(&file) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(BTreeMap::new()),
        Err(e) => return Err(format!("cannot read {}: {e}", file.display())),
    };
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(i, line)| {
            let bad = |why: String| {
                format!(
                    "{}:{}: {why}; the line only spares a campaign minimizing a finding again, \
                     so it can be deleted",
                    file.display(),
                    i + 1
                )
            };
            let line: Line = serde_json::from_str(line).map_err(|e| bad(e.to_string()))?;
            let input = input_bytes(line.input.as_deref(), line.input_hex.as_deref())
                .map_err(|e| bad(format!("the finding {e}")))?;
            let (seed, case) = (line.seed, line.case);
            Ok((line.signature, Remembered { input, seed, case }))
        })
        .collect()
}

/// Adds to the findings `corpus` remembers for `family` those of `found` whose signature it
/// does not remember yet, as a vector already written is kept; the file is rewritten only
/// when it changes.
pub fn remember(
    corpus: &Path,
    family: Family,
    found: impl IntoIterator<Item = (String, Remembered)>,
) -> Result<(), String> {
    let mut all = read(corpus, family)?;
    let before = all.len();
    for (signature, finding) in found {
        all.entry(signature).or_insert(finding);
    }
    if all.len() == before {
        return Ok(());
    }
    let mut text = String::new();
    for (signature, Remembered { input, seed, case }) in all {
        let (input, input_hex, _) = input_fields(&input);
        let line = Line {
            signature,
            seed,
            case,
            input,
            input_hex,
        };
        text.push_str(&serde_json::to_string(&line).map_err(|e| e.to_string())?);
        text.push('\n');
    }
    write_atomically(&corpus.join(path(family)), text.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::families::jcs;

    fn finding(input: &[u8], case: u64) -> Remembered {
        Remembered {
            input: input.to_vec(),
            seed: 1,
            case,
        }
    }

    #[test]
    fn findings_are_remembered_in_signature_order_and_read_back() {
        let corpus = tempfile::tempdir().unwrap();
        let family = jcs::FAMILY;
        assert_eq!(read(corpus.path(), family).unwrap(), BTreeMap::new());
        remember(
            corpus.path(),
            family,
            [
                ("jcs: b".to_string(), finding(b"[1e400]", 7)),
                ("jcs: a".to_string(), finding(b"\"\xff\"", 3)),
            ],
        )
        .unwrap();
        let text = std::fs::read_to_string(corpus.path().join(path(family))).unwrap();
        assert_eq!(
            text,
            "{\"signature\":\"jcs: a\",\"seed\":1,\"case\":3,\"inputHex\":\"22ff22\"}\n\
             {\"signature\":\"jcs: b\",\"seed\":1,\"case\":7,\"input\":\"[1e400]\"}\n"
        );
        let read_back = read(corpus.path(), family).unwrap();
        assert_eq!(read_back.get("jcs: a"), Some(&finding(b"\"\xff\"", 3)));
        assert_eq!(read_back.get("jcs: b"), Some(&finding(b"[1e400]", 7)));
    }

    #[test]
    fn a_record_already_there_is_kept() {
        let corpus = tempfile::tempdir().unwrap();
        let family = jcs::FAMILY;
        let at = |case| {
            [(
                "jcs: a".to_string(),
                finding(format!("[{case}]").as_bytes(), case),
            )]
        };
        remember(corpus.path(), family, at(50)).unwrap();
        let file = corpus.path().join(path(family));
        let written = std::fs::read(&file).unwrap();
        remember(corpus.path(), family, at(10)).unwrap();
        assert_eq!(std::fs::read(&file).unwrap(), written);
        // Also when it comes with one that is new.
        let other = ("jcs: b".to_string(), finding(b"[]", 70));
        remember(corpus.path(), family, at(10).into_iter().chain([other])).unwrap();
        let now = read(corpus.path(), family).unwrap();
        assert_eq!(now["jcs: a"], finding(b"[50]", 50));
        assert_eq!(now["jcs: b"], finding(b"[]", 70));
    }

    #[test]
    fn the_repository_corpus_remembers_only_findings_it_has_no_vector_of() {
        let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus");
        let mut remembered = 0;
        for &family in Family::all() {
            for signature in read(&corpus, family).unwrap().keys() {
                let vector = crate::findings::vector_path(family, signature);
                assert!(!corpus.join(&vector).exists(), "{vector}: {signature}");
                remembered += 1;
            }
        }
        assert!(
            remembered > 0,
            "the default JCS campaign meets findings no vector states"
        );
    }

    #[test]
    fn a_bad_line_is_named_with_what_to_do() {
        let corpus = tempfile::tempdir().unwrap();
        let family = jcs::FAMILY;
        let file = corpus.path().join(path(family));
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(
            &file,
            "{\"signature\":\"s\",\"seed\":1,\"case\":1,\"input\":\"1\"}\n{\"case\":2}\n",
        )
        .unwrap();
        let e = read(corpus.path(), family).unwrap_err();
        assert!(
            e.contains("without-vector.jsonl:2: ") && e.contains("can be deleted"),
            "{e}"
        );
        std::fs::write(&file, "{\"signature\":\"s\",\"seed\":1,\"case\":1}\n").unwrap();
        let e = read(corpus.path(), family).unwrap_err();
        assert!(
            e.contains(":1: the finding has neither input nor inputHex"),
            "{e}"
        );
    }
}
