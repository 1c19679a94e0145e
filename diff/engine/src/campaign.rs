//! A differential campaign: generate inputs, run every implementation on them in batches across
//! cores, compare, keep one input per disagreement signature (the lowest case index, so the
//! result does not depend on timing or thread count), minimize it, and save it as a vector.

use std::collections::{BTreeMap, BTreeSet};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::bugs::{BugKey, Observation};
use crate::compare::{agree, evaluate, Evaluation, Member, Verdict, UNJUDGED};
pub use crate::family::Case;
use crate::family::Family;
use crate::findings;
pub use crate::findings::{Finding, ImplStats};
pub use crate::harness::{Harness, Missing};
use crate::impls::{self, External};
use crate::outcome::Outcome;
use crate::pacing::Board;
use crate::repeats::Repeats;
use crate::without_vector;

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

/// What a campaign did and found.
#[derive(Debug, Clone)]
pub struct Summary {
    /// The family.
    pub family: Family,
    /// The seed.
    pub seed: u64,
    /// Cases run.
    pub cases: u64,
    /// Cases that repeated an earlier one's input, judged from its answers (`repeats`).
    pub repeated: u64,
    /// Wall time running the cases.
    pub elapsed: Duration,
    /// CPU time the implementations spent running the cases, before the minimizing; none
    /// is counted for a `--with` command.
    pub cases_cpu: Duration,
    /// Wall time minimizing and saving the findings.
    pub shrink_elapsed: Duration,
    /// The cores the campaign ran on.
    pub cores: usize,
    /// Per implementation.
    pub impls: Vec<ImplStats>,
    /// Implementations that could not run here, with why.
    pub missing: Vec<(String, String)>,
    /// Every distinct disagreement, by signature.
    pub findings: Vec<Finding>,
    /// Cases per verdict.
    pub verdicts: BTreeMap<&'static str, u64>,
    /// Which independence groups the campaign needed and which voted.
    pub quorum: Quorum,
    /// Whether the user interrupted the campaign before it ran every case.
    pub interrupted: bool,
    /// The cases it was to run (of this shard), when bounded by a count.
    pub planned: Option<u64>,
    /// Per verdict, per independence group (the core's included): the cases in which the group
    /// answered, so a reader sees that the comparison really took place.
    pub voters: BTreeMap<&'static str, BTreeMap<String, u64>>,
    /// Per generator category: its cases, and per independence group the cases in which the
    /// group answered, so a reader sees which kinds of input were compared by whom.
    pub categories: BTreeMap<&'static str, CategoryVotes>,
    /// The mutant planted in the core's place, if one was.
    pub plant: Option<&'static crate::mutants::Mutant>,
    /// The implementations given with `--with`, whose bugs are shown first.
    pub own: Vec<String>,
    /// Each bug's example minimized for the implementation it is shown for, by its key;
    /// a bug not here is shown by its smallest finding.
    pub examples: BTreeMap<BugKey, crate::bugs::Smallest>,
    /// Every answer that differs from the expected one, settled by experiment where a host
    /// parser read the input ([`crate::settle`]); `None` when the campaign was interrupted
    /// first, and the findings' answers stand as they are.
    pub settled: Option<Vec<Observation>>,
    /// Why every implementation answered every case, when the workers did not answer at
    /// their own pace (see [`ImplStats::pace`]).
    pub unpaced: Option<&'static str>,
    /// Cases escalated to the workers and left unjudged, because the campaign stopped (an
    /// interruption, `--fail-fast`) before every worker answered them.
    pub dropped: u64,
}

/// The cases of one generator category and who answered them.
#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct CategoryVotes {
    /// Cases generated in the category.
    pub cases: u64,
    /// Per independence group, the cases it answered.
    pub voters: BTreeMap<String, u64>,
}

/// The independence groups a campaign compares: those it needs (every group of the family's
/// implementations, or of those `--impls` selected) and those that could run.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Quorum {
    /// The groups other than the core's that the campaign needs.
    pub needed: BTreeSet<String>,
    /// The groups other than the core's that could run.
    pub present: BTreeSet<String>,
    /// Whether `--impls` narrowed the campaign.
    pub narrowed: bool,
    /// Whether `--allow-missing` let it run without a needed group.
    pub allow_missing: bool,
}

impl Quorum {
    /// The needed groups that could not run.
    pub fn absent(&self) -> Vec<&str> {
        self.needed
            .difference(&self.present)
            .map(String::as_str)
            .collect()
    }
}

impl Summary {
    /// Cases per second while the cases ran, before any finding was minimized.
    pub fn cases_per_second(&self) -> f64 {
        self.cases as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }

    /// Cases per second from the first case to the last finding minimized: what a user waits.
    pub fn end_to_end_cases_per_second(&self) -> f64 {
        let waited = self.elapsed + self.shrink_elapsed;
        self.cases as f64 / waited.as_secs_f64().max(1e-9)
    }

    /// The bugs its findings show, most severe first.
    pub fn bugs(&self) -> Vec<crate::bugs::Bug> {
        let observations = self
            .settled
            .clone()
            .unwrap_or_else(|| crate::bugs::observations(self.family, &self.findings, &self.impls));
        let mut bugs = crate::bugs::group(self.family, observations);
        for bug in &mut bugs {
            if let Some(smallest) = self.examples.get(&bug.key) {
                bug.shown_by(smallest.clone());
            }
        }
        crate::bugs::one_per_cause(bugs)
    }

    /// What the campaign's cases add up to, from every case's own verdict.
    pub fn status(&self) -> Status {
        Status::of(&self.verdicts, self.interrupted)
    }
}

/// What a campaign's cases add up to, decided from every case's own verdict (never from its
/// findings, which group cases): the one decision its exit status is made from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Every case ran, and each agreed, differed by registered policy or among third parties.
    Clean,
    /// The core diverged on at least one case.
    CoreDiverges,
    /// The harness could not judge at least one case: a policy's predicate could not read it.
    Unjudged,
    /// The campaign stopped before it ran every case, and nothing it ran diverged.
    Interrupted,
}

impl Status {
    /// The status of a campaign whose cases had these verdicts (counted by name).
    pub fn of(verdicts: &BTreeMap<&'static str, u64>, interrupted: bool) -> Status {
        let any = |verdict: &str| verdicts.get(verdict).is_some_and(|&n| n > 0);
        if any(UNJUDGED) {
            Status::Unjudged
        } else if any(Verdict::CoreDiverges.name()) {
            Status::CoreDiverges
        } else if interrupted {
            Status::Interrupted
        } else {
            Status::Clean
        }
    }

    /// The exit status `canonfuzz diff` ends with: 0 clean, 1 a diverging core, 2 a failure of
    /// the harness or a campaign cut short.
    pub fn exit_code(self) -> u8 {
        match self {
            Status::Clean => 0,
            Status::CoreDiverges => 1,
            Status::Unjudged | Status::Interrupted => 2,
        }
    }
}

/// Every case of a campaign counted as it is judged: its verdict, who voted, its category, each
/// implementation's agreement, and the finding it belongs to. The campaign and the self-test
/// count through this one path, so that the status a campaign ends with is the one the
/// self-test holds each mutant to.
#[derive(Default)]
pub struct Tally {
    /// Every finding, by signature (which carries the verdict).
    pub findings: BTreeMap<String, Finding>,
    /// Signatures whose vector this campaign wrote when it first met them.
    created: BTreeSet<String>,
    /// Failures to write vectors, reported at the end.
    errors: Vec<String>,
    answered: Vec<u64>,
    agreed: Vec<u64>,
    /// Cases per verdict.
    pub verdicts: BTreeMap<&'static str, u64>,
    voters: BTreeMap<&'static str, BTreeMap<String, u64>>,
    categories: BTreeMap<&'static str, CategoryVotes>,
    /// Cases counted.
    pub cases: u64,
}

impl Tally {
    /// An empty tally for `implementations` implementations.
    pub fn new(implementations: usize) -> Tally {
        Tally {
            answered: vec![0; implementations],
            agreed: vec![0; implementations],
            ..Tally::default()
        }
    }

    /// Counts one case judged `evaluation` from `outcomes` (one per member). A case that is
    /// not an agreement joins the finding of its signature; `first_met` makes that finding
    /// when the case is the first of it met, and its signature is then returned.
    pub fn record(
        &mut self,
        members: &[Member],
        case: &Case,
        outcomes: Vec<Outcome>,
        evaluation: Evaluation,
        first_met: impl FnOnce(&Evaluation) -> FirstMet,
    ) -> Option<String> {
        let (index, category, input) = case;
        self.cases += 1;
        *self.verdicts.entry(evaluation.verdict.name()).or_default() += 1;
        let voted: BTreeSet<&str> = members
            .iter()
            .zip(&outcomes)
            .filter(|(_, o)| o.is_answer())
            .map(|(m, _)| m.group.as_str())
            .collect();
        count_votes(
            self.voters.entry(evaluation.verdict.name()).or_default(),
            &voted,
        );
        let class = self.categories.entry(category.name).or_default();
        class.cases += 1;
        count_votes(&mut class.voters, &voted);
        if let Some(consensus) = &evaluation.consensus {
            for (i, o) in outcomes.iter().enumerate() {
                if o.is_answer() {
                    if let (Some(answered), Some(agreed)) =
                        (self.answered.get_mut(i), self.agreed.get_mut(i))
                    {
                        *answered += 1;
                        *agreed += u64::from(agree(o, consensus));
                    }
                }
            }
        }
        if evaluation.verdict == Verdict::Agree {
            return None;
        }
        match self.findings.entry(evaluation.signature.clone()) {
            std::collections::btree_map::Entry::Occupied(mut entry) => {
                entry
                    .get_mut()
                    .met_again(*index, *category, input, &outcomes, &evaluation);
                None
            }
            std::collections::btree_map::Entry::Vacant(entry) => {
                let FirstMet { vector, new, at } = first_met(&evaluation);
                let signature = evaluation.signature.clone();
                entry.insert(Finding {
                    signature: evaluation.signature.clone(),
                    category: *category,
                    case: *index,
                    input: input.clone(),
                    minimized: input.clone(),
                    outcomes,
                    evaluation,
                    count: 1,
                    known_input: None,
                    vector,
                    new,
                    is_minimized: false,
                    first_met: (at, self.cases),
                });
                Some(signature)
            }
        }
    }

    /// What the cases counted so far add up to.
    pub fn status(&self, interrupted: bool) -> Status {
        Status::of(&self.verdicts, interrupted)
    }
}

/// What a campaign knows of a finding when it first meets it.
pub struct FirstMet {
    /// The known corpus's vector of its signature, if it has one.
    pub vector: Option<String>,
    /// Whether the known corpus holds no record of its signature.
    pub new: bool,
    /// How long after the campaign's start it was met.
    pub at: Duration,
}

/// Counts one case for each group that answered it; a group's name is copied only the first
/// time it is counted.
fn count_votes(counts: &mut BTreeMap<String, u64>, voted: &BTreeSet<&str>) {
    for group in voted {
        match counts.get_mut(*group) {
            Some(n) => *n += 1,
            None => {
                counts.insert(group.to_string(), 1);
            }
        }
    }
}

/// Saves a finding's vector the moment its signature is first met, so a campaign cut short
/// loses nothing it found; the minimized input replaces it, and the manifest is rebuilt once,
/// at the end (a campaign killed outright leaves vectors `canonfuzz manifest` then lists).
fn save_as_found(
    dir: &Path,
    family: Family,
    finding: &Finding,
    seed: u64,
    roster: &[ImplStats],
    created: &mut BTreeSet<String>,
    errors: &mut Vec<String>,
) {
    if dir
        .join(findings::vector_path(family, &finding.signature))
        .exists()
    {
        return;
    }
    match findings::save(dir, family, finding, seed, roster, false) {
        Ok(Some(_)) => {
            created.insert(finding.signature.clone());
        }
        Ok(None) => {}
        Err(e) => errors.push(e),
    }
}

/// Runs `work` on every item on `threads` threads, each item started in the order given.
fn in_order<T: Send>(threads: usize, items: Vec<T>, work: impl Fn(T) + Sync) {
    let queue = Mutex::new(items.into_iter());
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                while let Some(item) = queue.lock().ok().and_then(|mut q| q.next()) {
                    work(item);
                }
            });
        }
    });
}

fn progress_bar(config: &Config) -> ProgressBar {
    let bar = match config.cases {
        Some(n) => ProgressBar::new(n),
        None => ProgressBar::new(0),
    };
    if !config.progress {
        bar.set_draw_target(ProgressDrawTarget::hidden());
    }
    bar.set_style(bar_style(
        "{spinner} {elapsed_precise} [{wide_bar}] {human_pos}/{human_len} cases  {rate}  findings: {msg}  ETA {eta}",
    ));
    bar.set_message("0");
    bar
}

/// A progress bar's style from `template`, in which `{rate}` is the cases per second as a
/// whole number.
pub(crate) fn bar_style(template: &str) -> ProgressStyle {
    ProgressStyle::with_template(template)
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .with_key(
            "rate",
            |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = write!(w, "{:.0}/s", state.per_sec());
            },
        )
        .progress_chars("=> ")
}

/// Seconds between the progress lines of a campaign whose standard error is no terminal.
const PROGRESS_EVERY: Duration = Duration::from_secs(10);

/// Prints the progress bar's state as a line every [`PROGRESS_EVERY`] until `stopped`: a
/// campaign logged to a file or a CI job shows that it moves, and how fast.
fn progress_lines(bar: &ProgressBar, stopped: &std::sync::atomic::AtomicBool) {
    let mut last = Instant::now();
    while !stopped.load(Ordering::Relaxed) {
        std::thread::sleep(Duration::from_millis(100));
        if last.elapsed() < PROGRESS_EVERY {
            continue;
        }
        last = Instant::now();
        let (done, total) = (bar.position(), bar.length().unwrap_or(0));
        let rate = bar.per_sec();
        let eta = match total.checked_sub(done) {
            Some(left) if rate > 0.0 && total > 0 => format!(", ETA {:.0}s", left as f64 / rate),
            _ => String::new(),
        };
        eprintln!(
            "canonfuzz: {done}/{total} cases, {rate:.0} cases/s, {} findings{eta}",
            bar.message()
        );
    }
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

/// Whether an implementation was taken out of the comparison and the campaign is to stop for
/// it; each one taken out is recorded once in `taken_out`.
fn out_of_comparison(
    harness: &Harness,
    taken_out: &Mutex<Vec<(String, String)>>,
    allow_missing: bool,
) -> bool {
    let Ok(mut out) = taken_out.lock() else {
        return true;
    };
    for imp in harness.implementations() {
        if let Some(why) = imp.taken_out() {
            if !out.iter().any(|(name, _)| name == imp.name()) {
                out.push((imp.name().to_string(), why));
            }
        }
    }
    !out.is_empty() && !allow_missing
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
    let needed = impls::choose(config.family.implementations(), &config.impls, &config.with)?
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

/// The cases of a campaign as its threads run them: what they share, and the tally they
/// add to.
struct Cases<'a> {
    config: &'a Config,
    harness: &'a Harness,
    roster: &'a [ImplStats],
    remembered: &'a BTreeMap<String, without_vector::Remembered>,
    /// The members registered with the family, not given with `--with`.
    registered: Vec<Member>,
    started: Instant,
    next_batch: AtomicU64,
    repeats: Repeats<(Vec<Outcome>, Evaluation)>,
    tally: Mutex<Tally>,
    taken_out: Mutex<Vec<(String, String)>>,
    bar: ProgressBar,
    /// The lanes the workers answer from at their own pace, or why every case is asked of
    /// every implementation together.
    board: Result<Board<'a>, &'static str>,
    /// Set by the first case judged a divergence of the core when the campaign fails fast.
    failed: std::sync::atomic::AtomicBool,
    /// Escalated cases left unjudged when the campaign stopped before the lanes answered them.
    dropped: AtomicU64,
}

impl<'a> Cases<'a> {
    fn new(
        config: &'a Config,
        harness: &'a Harness,
        roster: &'a [ImplStats],
        remembered: &'a BTreeMap<String, without_vector::Remembered>,
    ) -> Cases<'a> {
        Cases {
            config,
            harness,
            roster,
            remembered,
            registered: harness
                .members()
                .iter()
                .filter(|m| !config.with.iter().any(|w| w.name == m.name))
                .cloned()
                .collect(),
            started: Instant::now(),
            next_batch: AtomicU64::new(0),
            repeats: Repeats::default(),
            tally: Mutex::new(Tally::new(harness.implementations().len())),
            taken_out: Mutex::new(Vec::new()),
            bar: progress_bar(config),
            board: if config.every_case {
                Err(crate::pacing::ASKED)
            } else {
                Board::new(
                    harness,
                    &config
                        .with
                        .iter()
                        .map(|w| w.name.clone())
                        .collect::<Vec<_>>(),
                )
            },
            failed: std::sync::atomic::AtomicBool::new(false),
            dropped: AtomicU64::new(0),
        }
    }

    /// Runs every case on `jobs` threads, a batch at a time, until the count, the duration,
    /// an interruption or an implementation taken out stops them; each lane of a paced
    /// campaign answers on `jobs` threads of its own.
    fn run(&self, jobs: usize) {
        let stopped = std::sync::atomic::AtomicBool::new(false);
        std::thread::scope(|scope| {
            if self.config.progress && !std::io::stderr().is_terminal() {
                scope.spawn(|| progress_lines(&self.bar, &stopped));
            }
            let workers: Vec<_> = (0..jobs)
                .map(|_| {
                    scope.spawn(|| {
                        while let Some((start, end)) = self.next() {
                            if !self.batch(start, end) {
                                break;
                            }
                        }
                    })
                })
                .collect();
            let lanes: Vec<_> = self
                .board
                .iter()
                .flat_map(|board| (0..board.lanes().len()).map(move |lane| (board, lane)))
                .flat_map(|(board, lane)| {
                    (0..jobs).map(move |_| scope.spawn(move || self.lane(board, lane)))
                })
                .collect();
            for worker in workers {
                let _ = worker.join();
            }
            if let Ok(board) = &self.board {
                board.close();
            }
            for lane in lanes {
                let _ = lane.join();
            }
            if let Ok(board) = &self.board {
                let (rest, dropped) = board.rest();
                self.dropped.store(dropped, Ordering::Relaxed);
                self.settle(rest);
            }
            stopped.store(true, Ordering::Relaxed);
        });
        self.bar.finish_and_clear();
        // One taken out during the last batches is recorded too.
        out_of_comparison(self.harness, &self.taken_out, self.config.allow_missing);
    }

    /// The next batch's local case range, or `None` when the campaign is to stop.
    fn next(&self) -> Option<(u64, u64)> {
        let start = self.next_batch.fetch_add(1, Ordering::Relaxed) * BATCH;
        let end = match self.config.cases {
            Some(l) if start >= l => return None,
            Some(l) => (start + BATCH).min(l),
            None => start + BATCH,
        };
        let deadline = self.config.duration.map(|d| self.started + d);
        let stop = deadline.is_some_and(|d| Instant::now() >= d) || self.stopping();
        (!stop).then_some((start, end))
    }

    /// Whether the campaign is to stop before its cases are all run.
    fn stopping(&self) -> bool {
        INTERRUPTED.load(Ordering::Relaxed)
            || self.failed.load(Ordering::Relaxed)
            || out_of_comparison(self.harness, &self.taken_out, self.config.allow_missing)
    }

    /// Runs the cases `start..end` of this shard and tallies those judged; false when the
    /// tally can no longer be written. In a paced campaign the implementations in process
    /// answer them and the board hands them to the lanes.
    fn batch(&self, start: u64, end: u64) -> bool {
        let config = self.config;
        let (shard, shards) = config.shard;
        if let Ok(board) = &self.board {
            board.wait_for_room(&|| self.stopping());
        }
        let cases: Vec<Case> = (start..end)
            .map(|local| {
                let index = local * shards + shard;
                let (category, input) = config.family.generate(config.seed, index);
                (index, category, input)
            })
            .collect();
        let inputs: Vec<&[u8]> = cases.iter().map(|(_, _, i)| i.as_slice()).collect();
        let Ok(board) = &self.board else {
            let results = self
                .repeats
                .answer(&inputs, |asked| self.harness.run(asked));
            let judged = cases
                .into_iter()
                .zip(results)
                .map(|(case, (outcomes, evaluation))| (case, outcomes, evaluation));
            return self.settle(judged.collect());
        };
        let results = self
            .repeats
            .answer(&inputs, |asked| board.in_process(asked));
        self.settle(board.publish(start / BATCH, cases, results))
    }

    /// Lane `lane` of `board`: answers the rounds it takes until no case is left for it.
    fn lane(&self, board: &Board<'_>, lane: usize) {
        let own = board.lanes().get(lane).cloned().unwrap_or_default();
        while let Some(round) = board.take(lane, &|| self.stopping()) {
            let inputs: Vec<&[u8]> = round.iter().map(|(_, i)| i.as_slice()).collect();
            let answers = self.harness.outcomes_of(&inputs, |k| own.contains(&k));
            let indices: Vec<u64> = round.iter().map(|(index, _)| *index).collect();
            if !self.settle(board.answer(lane, &indices, answers)) {
                break;
            }
        }
    }

    /// Tallies judged cases and moves the progress bar; false when the tally can no longer be
    /// written.
    fn settle(&self, judged: Vec<crate::pacing::Settled>) -> bool {
        let config = self.config;
        let Ok(mut tally) = self.tally.lock() else {
            return false;
        };
        let count = judged.len() as u64;
        for (case, outcomes, evaluation) in judged {
            self.record(&mut tally, &case, outcomes, evaluation);
        }
        let found = tally.findings.len();
        if config.fail_fast && tally.status(false) == Status::CoreDiverges {
            self.failed.store(true, Ordering::Relaxed);
        }
        drop(tally);
        self.bar.inc(count);
        if let Some(d) = config.duration {
            let elapsed = self.started.elapsed().as_secs_f64().max(1e-3);
            self.bar
                .set_length((self.bar.position() as f64 * d.as_secs_f64() / elapsed) as u64);
        }
        self.bar.set_message(found.to_string());
        true
    }

    /// Tallies one case, and saves the finding it meets first into `--out` at once.
    fn record(
        &self,
        tally: &mut Tally,
        case: &Case,
        outcomes: Vec<Outcome>,
        evaluation: Evaluation,
    ) {
        let config = self.config;
        // A finding is known by the answers of the registered implementations alone: one
        // given with --with changes no finding of theirs to new. Asked only of a case that
        // meets a finding first.
        let first = !tally.findings.contains_key(&evaluation.signature);
        let n = self.harness.implementations().len();
        let known_signature = (first && self.registered.len() < n).then(|| {
            let answers: Vec<Outcome> = self
                .harness
                .members()
                .iter()
                .zip(&outcomes)
                .filter(|(m, _)| self.registered.contains(m))
                .map(|(_, o)| o.clone())
                .collect();
            evaluate(config.family, &case.2, &self.registered, &answers).signature
        });
        let first_met = |evaluation: &Evaluation| {
            let signature = known_signature.as_ref().unwrap_or(&evaluation.signature);
            let known_path = findings::vector_path(config.family, signature);
            let has_vector = config
                .known
                .as_ref()
                .is_some_and(|dir| dir.join(&known_path).exists());
            FirstMet {
                new: !has_vector && !self.remembered.contains_key(signature),
                vector: has_vector.then_some(known_path),
                at: self.started.elapsed(),
            }
        };
        let met = tally.record(
            self.harness.members(),
            case,
            outcomes,
            evaluation,
            first_met,
        );
        let finding = met.and_then(|signature| tally.findings.get(&signature));
        if let (Some(dir), Some(finding)) = (&config.out, finding) {
            save_as_found(
                dir,
                config.family,
                finding,
                config.seed,
                self.roster,
                &mut tally.created,
                &mut tally.errors,
            );
        }
    }
}

/// The implementations that could not run, with those taken out while the campaign ran; an
/// error naming the first taken out unless `--allow-missing`.
fn taken_out_of(cases: &Cases<'_>, config: &Config, missing: Missing) -> Result<Missing, String> {
    let mut missing = missing;
    let taken_out = std::mem::take(
        &mut *cases
            .taken_out
            .lock()
            .map_err(|_| "a campaign thread panicked".to_string())?,
    );
    for (name, why) in taken_out {
        if !config.allow_missing {
            return Err(format!(
                "{name} was taken out of the comparison: {why}; fix it, or pass --allow-missing to compare without it"
            ));
        }
        missing.push((name, format!("taken out while the campaign ran: {why}")));
    }
    Ok(missing)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_campaign_s_status_comes_from_its_cases_verdicts() {
        let counts = |pairs: &[(&'static str, u64)]| pairs.iter().copied().collect();
        let status =
            |pairs: &[(&'static str, u64)], interrupted| Status::of(&counts(pairs), interrupted);
        assert_eq!(status(&[("agree", 9), ("policy", 3)], false), Status::Clean);
        assert_eq!(
            status(&[("agree", 9), ("core_diverges", 1)], false),
            Status::CoreDiverges
        );
        // A divergence stands even in a campaign cut short; a case the harness could not judge
        // outranks it, as the campaign's result cannot be trusted.
        assert_eq!(status(&[("core_diverges", 1)], true), Status::CoreDiverges);
        assert_eq!(status(&[("agree", 9)], true), Status::Interrupted);
        assert_eq!(
            status(&[("core_diverges", 1), (UNJUDGED, 1)], false),
            Status::Unjudged
        );
        assert_eq!(status(&[("core_diverges", 0)], false), Status::Clean);
        let codes: Vec<u8> = [
            Status::Clean,
            Status::CoreDiverges,
            Status::Unjudged,
            Status::Interrupted,
        ]
        .map(Status::exit_code)
        .to_vec();
        assert_eq!(codes, [0, 1, 2, 2]);
    }

    #[test]
    fn work_in_order_runs_every_item_once_and_starts_them_in_order() {
        let run = |threads: usize| {
            let started = Mutex::new(Vec::new());
            in_order(threads, (0..500).collect(), |k: usize| {
                if let Ok(mut s) = started.lock() {
                    s.push(k);
                }
            });
            started.into_inner().unwrap_or_default()
        };
        assert_eq!(run(1), (0..500).collect::<Vec<_>>());
        let mut started = run(4);
        started.sort_unstable();
        assert_eq!(started, (0..500).collect::<Vec<_>>());
    }
}
