//! A differential campaign: generate inputs, run every implementation on them in batches across
//! cores, compare, keep one input per disagreement signature (the lowest case index, so the
//! result does not depend on timing or thread count), minimize it, and save it as a vector.

mod cases;
mod progress;
mod result;
mod tally;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::bugs::{BugKey, Observation};
use crate::compare::Verdict;
pub use crate::family::Case;
use crate::family::Family;
use crate::findings;
pub use crate::findings::{Finding, ImplStats};
pub use crate::harness::{Harness, Missing};
use crate::impls::{self, External};
use crate::pacing::Board;
use crate::without_vector;
use cases::{in_order, taken_out_of, Cases};
pub(crate) use progress::bar_style;
use progress::progress_bar;
pub use result::{CategoryVotes, Quorum, Status, Summary};
pub use tally::{FirstMet, Tally};

/// Cases per batch: large enough that worker round trips are cheap.
pub const BATCH: u64 = 1024;

/// What to run.
#[derive(Debug, Clone)]
pub struct Config {
    /// The family of inputs.
    pub family: Family,
    /// Stop after this many cases (of this shard).
    pub cases: Option<u64>,
    /// Stop after this long.
    pub duration: Option<Duration>,
    /// The seed every input derives from.
    pub seed: u64,
    /// Threads, and worker processes per external implementation.
    pub jobs: usize,
    /// Implementations to compare with the core; empty for all.
    pub impls: Vec<String>,
    /// Implementations outside the harness to compare as well.
    pub with: Vec<External>,
    /// Corpus directory that findings are saved into; `None` saves nothing.
    pub out: Option<PathBuf>,
    /// This shard's index and the number of shards: case `i` belongs to shard `i % count`.
    pub shard: (u64, u64),
    /// Show a progress bar on stderr.
    pub progress: bool,
    /// Compare without implementations that cannot run here, rather than fail for want of a
    /// quorum; the summary says which groups voted.
    pub allow_missing: bool,
    /// The corpus a finding is new to when it holds no vector of its signature (saved or not).
    pub known: Option<PathBuf>,
    /// A planted mutant of the family's core that stands in the core's place: the campaign
    /// must exit 1. Nothing is saved.
    pub plant: Option<&'static crate::mutants::Mutant>,
    /// Every registered family, whose files the corpus's manifest lists once findings are
    /// saved into it.
    pub registry: &'static [Family],
    /// Ask every implementation every case, at the pace of the slowest, instead of letting the
    /// workers answer at their own ([`crate::pacing`]).
    pub every_case: bool,
    /// Stop at the first case judged a divergence of the core.
    pub fail_fast: bool,
}

/// Set when the user interrupts a campaign (Ctrl-C): it stops taking cases, minimizes none,
/// and ends with a summary of what it ran; vectors saved as found stay, marked unminimized.
pub static INTERRUPTED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// The campaign input of the first test of the vector at `path`, when the family can state
/// it as one.
fn vector_input(family: Family, path: &Path) -> Option<Vec<u8>> {
    let file = crate::vector::VectorFile::read(path).ok()?;
    let test = file.tests().next()?;
    family.replay(test).map(|replay| replay.input)
}

/// The answers of `found` that differ from the expected ones, settled by experiment, and each
/// bug's example minimized for the implementation it is shown for: the findings were
/// minimized to keep every implementation's answer, a bug's example need only keep its own.
/// None when the campaign was interrupted.
fn smallest_examples(
    harness: &Harness,
    found: &[Finding],
    impls: &[ImplStats],
    config: &Config,
    jobs: usize,
) -> (
    Option<Vec<Observation>>,
    BTreeMap<BugKey, crate::bugs::Smallest>,
) {
    if INTERRUPTED.load(Ordering::Relaxed) {
        return (None, BTreeMap::new());
    }
    let settled = crate::settle::settle_with(
        harness,
        crate::bugs::observations(config.family, found, impls),
    );
    let bugs = crate::bugs::group(config.family, settled.clone());
    let bar = progress_bar(&Config {
        cases: Some(bugs.len() as u64),
        ..config.clone()
    });
    let examples = Mutex::new(BTreeMap::new());
    in_order(2 * jobs, bugs, |bug| {
        if INTERRUPTED.load(Ordering::Relaxed) {
            return;
        }
        let example = crate::bugs::smallest(harness, &bug);
        if let Ok(mut examples) = examples.lock() {
            examples.insert(bug.key, example);
        }
        bar.inc(1);
    });
    bar.finish_and_clear();
    (Some(settled), examples.into_inner().unwrap_or_default())
}

/// The independence groups other than the core's with a member of `harness` not named in
/// `out`: those that voted to the end.
fn voting_groups(harness: &Harness, out: &[&str]) -> BTreeSet<String> {
    harness
        .members()
        .iter()
        .filter(|m| !out.contains(&m.name.as_str()))
        .map(|m| m.group.clone())
        .filter(|g| g != impls::CORE_GROUP)
        .collect()
}

/// Runs a campaign.
pub fn run(config: &Config) -> Result<Summary, String> {
    let (harness, missing) = harness_for(config)?;
    // A planted core's findings are the mutant's, not the corpus's.
    let config = &Config {
        out: config.out.clone().filter(|_| config.plant.is_none()),
        cases: match (config.cases, config.duration) {
            (None, None) => Some(crate::DEFAULT_CASES),
            (cases, _) => cases,
        },
        ..config.clone()
    };
    let mut quorum = quorum_for(config, &harness, &missing)?;
    if let Some(dir) = &config.out {
        std::fs::create_dir_all(dir).map_err(|e| {
            format!(
                "cannot create the corpus folder {} that findings are saved into: {e}; pass another --out",
                dir.display()
            )
        })?;
    }
    let jobs = config.jobs.max(1);
    let roster = harness.roster();
    // Findings the known corpus met before and holds no vector for: known all the same.
    let remembered = match &config.known {
        Some(dir) => without_vector::read(dir, config.family)?,
        None => BTreeMap::new(),
    };
    let cases = Cases::new(config, &harness, &roster, &remembered);
    cases.run(jobs);
    let missing = taken_out_of(&cases, config, missing)?;
    let out: Vec<&str> = missing.iter().map(|(name, _)| name.as_str()).collect();
    quorum.present = voting_groups(&harness, &out);
    let elapsed = cases.started.elapsed();
    let repeated = cases.repeats.repeated();
    let cases_cpu: Duration = harness.cpu().into_iter().flatten().sum();
    let shrink_started = Instant::now();
    let tally = cases
        .tally
        .into_inner()
        .map_err(|_| "a campaign thread panicked".to_string())?;
    let mut found: Vec<Finding> = tally.findings.into_values().collect();
    minimize_new(&harness, &mut found, config, jobs);
    show_known(&harness, &mut found, config, &remembered);
    if let Some(e) = tally.errors.first() {
        return Err(format!("cannot save a finding: {e}"));
    }
    let unpaced = cases.board.as_ref().err().copied();
    let paces = cases.board.as_ref().map(Board::paces).unwrap_or_default();
    let mut impls = impl_stats(&harness, &roster, (&tally.answered, &tally.agreed), &found);
    for (imp, pace) in impls.iter_mut().zip(paces) {
        imp.pace = pace;
    }
    if let Some(dir) = &config.out {
        persist(dir, &mut found, config, &impls, &tally.created)?;
    }
    let (settled, examples) = smallest_examples(&harness, &found, &impls, config, jobs);
    Ok(Summary {
        family: config.family,
        seed: config.seed,
        cases: tally.cases,
        repeated,
        cases_cpu,
        elapsed,
        shrink_elapsed: shrink_started.elapsed(),
        cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
        impls,
        missing,
        findings: found,
        verdicts: tally.verdicts,
        quorum,
        voters: tally.voters,
        categories: tally.categories,
        interrupted: INTERRUPTED.load(Ordering::Relaxed),
        planned: config.cases,
        plant: config.plant,
        own: config.with.iter().map(|w| w.name.clone()).collect(),
        examples,
        settled,
        unpaced,
        dropped: cases.dropped.load(Ordering::Relaxed),
    })
}

/// The harness a campaign compares with, the mutant it plants in the core's place if any,
/// and the implementations that could not run.
fn harness_for(config: &Config) -> Result<(Harness, Missing), String> {
    let (harness, missing) = Harness::choose(config.family, &config.impls, &config.with)?;
    let Some(mutant) = config.plant else {
        return Ok((harness, missing));
    };
    if mutant.family != config.family {
        return Err(format!(
            "the mutant {} is planted in the {} core, not the {} one",
            mutant.name,
            mutant.family.name(),
            config.family.name()
        ));
    }
    Ok((harness.planted(mutant), missing))
}

/// The independence groups the campaign needs and those that can vote; an error naming
/// what is missing when a needed group cannot, unless `--allow-missing`.
fn quorum_for(config: &Config, harness: &Harness, missing: &Missing) -> Result<Quorum, String> {
    let needed = impls::choose(
        config.family.name(),
        config.family.implementations(),
        &config.impls,
        &config.with,
    )?
    .iter()
    .map(|i| i.group().to_string())
    .filter(|g| g != impls::CORE_GROUP)
    .collect();
    let quorum = Quorum {
        needed,
        present: voting_groups(harness, &[]),
        narrowed: !config.impls.is_empty(),
        allow_missing: config.allow_missing,
    };
    if quorum.absent().is_empty() || config.allow_missing {
        return Ok(quorum);
    }
    let why: Vec<String> = missing.iter().map(|(n, w)| format!("{n}: {w}")).collect();
    Err(format!(
        "no quorum: the {} campaign needs the independence groups {}, and {} could not run ({}); install what is missing, narrow the campaign with --impls, or pass --allow-missing to compare without them",
        config.family.name(),
        quorum.needed.iter().cloned().collect::<Vec<_>>().join(", "),
        quorum.absent().join(", "),
        why.join("; ")
    ))
}

/// Minimizes the findings the known corpus lacks. A finding whose signature the known corpus
/// holds already has its vector there, with a minimized input of that signature. A minimizer
/// waits on one worker at a time, so twice the batches' threads keep the cores busy; the
/// findings with the longest inputs, which take longest, go first, so that none of them is
/// left running alone at the end.
fn minimize_new(harness: &Harness, found: &mut [Finding], config: &Config, jobs: usize) {
    let bar = progress_bar(&Config {
        cases: Some(found.iter().filter(|f| f.new).count() as u64),
        ..config.clone()
    });
    let mut queue: Vec<&mut Finding> = found.iter_mut().filter(|f| f.new).collect();
    queue.sort_by_key(|f| std::cmp::Reverse(f.input.len()));
    in_order(2 * jobs, queue, |f| {
        if INTERRUPTED.load(Ordering::Relaxed) {
            return;
        }
        (f.minimized, f.outcomes, f.evaluation) =
            harness.minimize(&f.input, &f.outcomes, &f.signature);
        f.is_minimized = true;
        bar.inc(1);
    });
    bar.finish_and_clear();
}

/// Shows each known finding by the input its vector holds (or the one the corpus remembers
/// it by) when that input still shows it, with its answers: its bugs are then shown by the
/// minimized input, not by the case that met it again.
fn show_known(
    harness: &Harness,
    found: &mut [Finding],
    config: &Config,
    remembered: &BTreeMap<String, without_vector::Remembered>,
) {
    if let Some(dir) = &config.known {
        for f in found.iter_mut().filter(|f| !f.new) {
            f.known_input = match &f.vector {
                Some(v) => vector_input(config.family, &dir.join(v)),
                None => remembered.get(&f.signature).map(|r| r.input.clone()),
            };
        }
    }
    let known: Vec<&mut Finding> = found
        .iter_mut()
        .filter(|f| f.known_input.is_some())
        .collect();
    let inputs: Vec<Vec<u8>> = known.iter().filter_map(|f| f.known_input.clone()).collect();
    let refs: Vec<&[u8]> = inputs.iter().map(Vec::as_slice).collect();
    for (f, (outcomes, evaluation)) in known.into_iter().zip(harness.run(&refs)) {
        if evaluation.signature == f.signature {
            f.minimized = f.known_input.clone().unwrap_or_default();
            (f.outcomes, f.evaluation) = (outcomes, evaluation);
        }
    }
}

/// Each implementation's figures over the campaign: its time, the cases it answered and
/// agreed on (`counts`), and the findings it diverges in.
fn impl_stats(
    harness: &Harness,
    roster: &[ImplStats],
    counts: (&[u64], &[u64]),
    found: &[Finding],
) -> Vec<ImplStats> {
    let (answered, agreed) = counts;
    let busy = harness.busy();
    let cpu = harness.cpu();
    roster
        .iter()
        .enumerate()
        .map(|(i, imp)| ImplStats {
            busy: busy.get(i).copied().unwrap_or_default(),
            cpu: cpu.get(i).copied().flatten(),
            answered: answered.get(i).copied().unwrap_or_default(),
            agreed: agreed.get(i).copied().unwrap_or_default(),
            findings: found
                .iter()
                .filter(|f| f.evaluation.diverging.contains(&imp.name))
                .count() as u64,
            ..imp.clone()
        })
        .collect()
}

/// Writes every finding into the corpus `dir` (replacing the first-met vectors `created`
/// with the minimized ones), remembers the minimized findings no vector can state, and
/// rebuilds the manifest once.
fn persist(
    dir: &Path,
    found: &mut [Finding],
    config: &Config,
    impls: &[ImplStats],
    created: &BTreeSet<String>,
) -> Result<(), String> {
    for finding in found.iter_mut() {
        let replace = created.contains(&finding.signature);
        finding.vector = findings::save(dir, config.family, finding, config.seed, impls, replace)?;
    }
    // A case the harness could not judge is its own failure, not a finding to remember.
    let without = found.iter().filter(|f| {
        f.vector.is_none()
            && f.is_minimized
            && !matches!(f.evaluation.verdict, Verdict::Unjudged(_))
    });
    without_vector::remember(
        dir,
        config.family,
        without.map(|f| {
            (
                f.signature.clone(),
                without_vector::Remembered {
                    input: f.minimized.clone(),
                    seed: config.seed,
                    case: f.case,
                },
            )
        }),
    )?;
    crate::manifest::Manifest::build(dir, config.registry)?.write(dir)
}
