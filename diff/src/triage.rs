//! From a fuzzer artifact to a replayed vector: reproduce what the target saw, minimize it
//! with the harness's minimizer while it still fails the same way, and write a regression
//! vector whose expected result comes from the independent implementations.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

use crate::campaign::{Finding, Harness};
use crate::compare::Verdict;
use crate::findings::{write_vector, Origin};
use crate::fuzzing::{jcs_diff_check, jcs_diff_document, TARGETS};
use crate::outcome::Outcome;
use crate::properties::check_canonical;
use crate::shrink::minimize;

/// Candidates the minimizer may try per artifact.
const BUDGET: usize = 4_000;

/// What triage did with one artifact.
#[derive(Debug, Clone)]
pub struct Triaged {
    /// The artifact.
    pub artifact: PathBuf,
    /// The target it came from.
    pub target: String,
    /// How the target fails on it today, if it still does.
    pub failure: Option<String>,
    /// The document, minimized.
    pub minimized: Vec<u8>,
    /// The implementations' signature on the minimized document.
    pub signature: String,
    /// The vector written, relative to the corpus, if one could be.
    pub vector: Option<String>,
}

/// The target an artifact came from: `--target` if given, else the directory cargo fuzz put
/// it in (`fuzz/artifacts/<target>/`).
pub fn target_of(artifact: &Path, given: Option<&str>) -> Result<String, String> {
    if let Some(t) = given {
        return TARGETS
            .contains(&t)
            .then(|| t.to_string())
            .ok_or_else(|| format!("unknown target {t:?}; targets: {}", TARGETS.join(", ")));
    }
    artifact
        .parent()
        .and_then(Path::file_name)
        .and_then(|n| n.to_str())
        .filter(|n| TARGETS.contains(n))
        .map(str::to_string)
        .ok_or_else(|| {
            format!(
                "{}: cannot tell which target made it (it is not under fuzz/artifacts/<target>/); pass --target",
                artifact.display()
            )
        })
}

/// How `target` fails on `document` today, if it does: a panic or a violated property.
fn failure(target: &str, document: &[u8]) -> Option<String> {
    let run = || match target {
        "jcs_diff" => jcs_diff_check(document).err(),
        _ => check_canonical(document).err(),
    };
    match catch_unwind(AssertUnwindSafe(run)) {
        Ok(found) => found,
        Err(panic) => Some(format!(
            "panicked: {}",
            panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default()
        )),
    }
}

/// Triages one artifact into a vector under `corpus`.
pub fn triage(
    harness: &Harness,
    artifact: &Path,
    target: &str,
    corpus: &Path,
) -> Result<Triaged, String> {
    let data = crate::input::read_file(artifact).map_err(|e| e.to_string())?;
    let document = if target == "jcs_diff" {
        jcs_diff_document(&data)
    } else {
        data
    };
    let reproduced = failure(target, &document);
    let Some((_, first)) = harness.run(&[&document]).pop() else {
        return Err("the harness gave no answer".to_string());
    };
    let original = first.signature;
    let mut judge = |candidates: &[Vec<u8>]| -> Vec<bool> {
        match &reproduced {
            Some(_) => candidates
                .iter()
                .map(|c| failure(target, c).is_some())
                .collect(),
            None => {
                let refs: Vec<&[u8]> = candidates.iter().map(Vec::as_slice).collect();
                harness
                    .run(&refs)
                    .into_iter()
                    .map(|(_, e)| e.signature == original)
                    .collect()
            }
        }
    };
    // An artifact that no longer fails and on which every implementation agrees has nothing
    // left to shrink towards: it is kept whole.
    let minimized = if reproduced.is_none() && first.verdict == Verdict::Agree {
        document.clone()
    } else {
        minimize(&document, &mut judge, BUDGET)
    };
    let (outcomes, evaluation) = harness
        .run(&[&minimized])
        .pop()
        .ok_or("the harness gave no answer")?;
    let category = if matches!(outcomes.first(), Some(Outcome::Rejected(_))) {
        crate::families::jcs::gen::REJECTIONS
    } else {
        crate::families::jcs::gen::STRUCTURE
    };
    let finding = Finding {
        signature: evaluation.signature.clone(),
        category,
        case: 0,
        input: document,
        minimized: minimized.clone(),
        outcomes,
        evaluation,
        count: 1,
        vector: None,
        new: true,
        is_minimized: true,
    };
    let roster = harness.roster();
    let name = format!(
        "{target}/{}",
        artifact.file_name().unwrap_or_default().to_string_lossy()
    );
    let vector = write_vector(
        corpus,
        harness.family(),
        &finding,
        &Origin::Artifact { name },
        &roster,
        false,
    )?;
    if vector.is_some() {
        crate::manifest::Manifest::build(corpus)?.write(corpus)?;
    }
    Ok(Triaged {
        artifact: artifact.to_path_buf(),
        target: target.to_string(),
        failure: reproduced,
        minimized,
        signature: finding.signature,
        vector,
    })
}
