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
