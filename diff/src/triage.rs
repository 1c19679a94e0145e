//! From a fuzzer artifact to a replayed vector: reproduce what the target saw, minimize it
//! with the harness's minimizer while it still fails the same way, and write a regression
//! vector whose expected result comes from the independent implementations — or, for a target
//! whose inputs no vector holds, keep the input itself for the corpus to replay.

use std::path::{Path, PathBuf};

use crate::campaign::{Finding, Harness};
use crate::compare::Verdict;
use crate::findings::{write_vector, Origin};
use crate::fuzzing::{failure, keep_regression, target, target_names, Target};
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
    /// The input as the target read it, minimized.
    pub minimized: Vec<u8>,
    /// The implementations' signature on the minimized input, where the target's family has
    /// implementations to compare.
    pub signature: Option<String>,
    /// What was written under the corpus — the vector, or the kept input of a target whose
    /// inputs no vector holds — or why nothing was.
    pub saved: Result<String, String>,
}

/// The target an artifact came from: `--target` if given, else the directory cargo fuzz put
/// it in (`fuzz/artifacts/<target>/`).
pub fn target_of(artifact: &Path, given: Option<&str>) -> Result<Target, String> {
    if let Some(t) = given {
        return target(t)
            .ok_or_else(|| format!("unknown target {t:?}; targets: {}", target_names()));
    }
    artifact
        .parent()
        .and_then(Path::file_name)
        .and_then(|n| n.to_str())
        .and_then(target)
        .ok_or_else(|| {
            format!(
                "{}: cannot tell which target made it (it is not under fuzz/artifacts/<target>/); pass --target",
                artifact.display()
            )
        })
}

/// Triages one artifact of `target` into a vector under `corpus`, comparing with `harness`:
/// the implementations of the target's family, or `None` for a target whose inputs no
/// family's vectors hold, whose minimized input is then kept as it is
/// ([`crate::fuzzing::REGRESSIONS`]).
pub fn triage(
    harness: Option<&Harness>,
    artifact: &Path,
    target: &Target,
    corpus: &Path,
) -> Result<Triaged, String> {
    let data = crate::input::read_file(artifact).map_err(|e| e.to_string())?;
    let input = (target.reads)(&data);
    let reproduced = failure(target, &input);
    let still_fail = |candidates: &[Vec<u8>]| -> Vec<bool> {
        candidates
            .iter()
            .map(|c| failure(target, c).is_some())
            .collect()
    };
    let Some(harness) = harness else {
        let minimized = match reproduced {
            Some(_) => minimize(&input, &mut { still_fail }, BUDGET),
            None => input,
        };
        let saved = Ok(keep_regression(corpus, target, &minimized)?);
        return Ok(Triaged {
            artifact: artifact.to_path_buf(),
            target: target.name.to_string(),
            failure: reproduced,
            minimized,
            signature: None,
            saved,
        });
    };
    let Some((_, first)) = harness.run(&[&input]).pop() else {
        return Err("the harness gave no answer".to_string());
    };
    let original = first.signature;
    let mut judge = |candidates: &[Vec<u8>]| -> Vec<bool> {
        match &reproduced {
            Some(_) => still_fail(candidates),
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
        input.clone()
    } else {
        minimize(&input, &mut judge, BUDGET)
    };
    let (signature, vector) = save(harness, artifact, target, corpus, input, &minimized)?;
    Ok(Triaged {
        artifact: artifact.to_path_buf(),
        target: target.name.to_string(),
        failure: reproduced,
        minimized,
        signature: Some(signature),
        saved: vector.ok_or_else(|| "no implementation gives an expected result".to_string()),
    })
}

/// Files the minimized input of an artifact as a finding of the harness's family, writes
/// its vector under `corpus` (the manifest rebuilt) and gives its signature and the vector,
/// if any implementation gives an expected result.
fn save(
    harness: &Harness,
    artifact: &Path,
    target: &Target,
    corpus: &Path,
    input: Vec<u8>,
    minimized: &[u8],
) -> Result<(String, Option<String>), String> {
    let (outcomes, evaluation) = harness
        .run(&[minimized])
        .pop()
        .ok_or("the harness gave no answer")?;
    let family = harness.family();
    let category = outcomes
        .first()
        .and_then(|core| family.category_of(minimized, core))
        .ok_or_else(|| {
            format!(
                "the {} family has no category to file it under",
                family.name()
            )
        })?;
    let finding = Finding {
        signature: evaluation.signature.clone(),
        category,
        case: 0,
        input,
        minimized: minimized.to_vec(),
        outcomes,
        evaluation,
        count: 1,
        vector: None,
        new: true,
        is_minimized: true,
        known_input: None,
        first_met: (std::time::Duration::ZERO, 1),
    };
    let roster = harness.roster();
    let name = format!(
        "{}/{}",
        target.name,
        artifact.file_name().unwrap_or_default().to_string_lossy()
    );
    let vector = write_vector(
        corpus,
        family,
        &finding,
        &Origin::Artifact { name },
        &roster,
        false,
    )?;
    if vector.is_some() {
        crate::manifest::Manifest::build(corpus, crate::families::all())?.write(corpus)?;
    }
    Ok((finding.signature, vector))
}
