//! A differential campaign: generate inputs, run every implementation on them in batches across
//! cores, compare, keep one input per disagreement signature (the lowest case index, so the
//! result does not depend on timing or thread count), minimize it, and save it as a vector.

use std::collections::{BTreeMap, BTreeSet};
use std::io::IsTerminal;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use cpu_time::ThreadTime;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::bugs::{BugKey, Observation};
use crate::compare::{
    agree, agreement_signature, evaluate, signature_of, Evaluation, Member, Verdict, UNJUDGED,
};
use crate::family::Category;
use crate::family::Family;
use crate::findings;
use crate::impls::{self, External, Implementation, Together};
use crate::outcome::Outcome;
use crate::repeats::Repeats;
use crate::shrink::{minimize, FirstKept};
use crate::without_vector;

/// Cases per batch: large enough that worker round trips are cheap.
pub const BATCH: u64 = 1024;
/// Candidates the minimizer may try per finding. The bound is a count, not a time, so that
/// the same finding minimizes to the same input on every machine.
pub const SHRINK_BUDGET: usize = 2_000;

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
}

/// Set when the user interrupts a campaign (Ctrl-C): it stops taking cases, minimizes none,
/// and ends with a summary of what it ran; vectors saved as found stay, marked unminimized.
pub static INTERRUPTED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Implementations that could not run here, each with why.
pub type Missing = Vec<(String, String)>;

/// The implementations of one family under comparison.
pub struct Harness {
    family: Family,
    impls: Vec<Box<dyn Implementation>>,
    members: Vec<Member>,
    /// Per implementation, nanoseconds spent answering, over every batch so far.
    busy: Vec<AtomicU64>,
    /// Per in-process implementation, nanoseconds of CPU time its calls took on the threads
    /// that made them.
    cpu: Vec<AtomicU64>,
}

impl Harness {
    /// The selected implementations of `family` that can run here, and those that cannot,
    /// with why.
    pub fn new(
        family: Family,
        select: &[String],
    ) -> Result<(Harness, Vec<(String, String)>), String> {
        Harness::choose(family, select, &[])
    }

    /// [`Harness::new`], with the external implementations `with` beside the selected ones.
    pub fn choose(
        family: Family,
        select: &[String],
        with: &[External],
    ) -> Result<(Harness, Missing), String> {
        let chosen = impls::choose(family.implementations(), select, with)?;
        // Each is started (a worker's runtime prepared and its first process asked which
        // protocol it speaks) beside the others rather than after them.
        let started: Vec<Result<(), String>> = std::thread::scope(|scope| {
            let starting: Vec<_> = chosen
                .iter()
                .map(|imp| scope.spawn(|| imp.available()))
                .collect();
            starting
                .into_iter()
                .map(|s| {
                    s.join()
                        .unwrap_or_else(|_| Err("it panicked while starting".to_string()))
                })
                .collect()
        });
        let mut missing = Vec::new();
        let mut impls = Vec::new();
        for (imp, started) in chosen.into_iter().zip(started) {
            match started {
                Ok(()) => impls.push(imp),
                Err(why) => missing.push((imp.name().to_string(), why)),
            }
        }
        Ok((Harness::with(family, impls), missing))
    }

    /// A harness over the given implementations of `family`.
    pub fn with(family: Family, impls: Vec<Box<dyn Implementation>>) -> Harness {
        let members = canonfuzz_props::impls::members(&impls);
        let busy = impls.iter().map(|_| AtomicU64::new(0)).collect();
        let cpu = impls.iter().map(|_| AtomicU64::new(0)).collect();
        Harness {
            family,
            impls,
            members,
            busy,
            cpu,
        }
    }

    /// The harness with `mutant` in the core's place, under the core's name.
    pub fn planted(self, mutant: &crate::mutants::Mutant) -> Harness {
        let impls = self
            .impls
            .into_iter()
            .map(|imp| -> Box<dyn Implementation> {
                if imp.name() == crate::compare::CORE {
                    Box::new(mutant.implementation())
                } else {
                    imp
                }
            })
            .collect();
        Harness::with(self.family, impls)
    }

    /// The family compared.
    pub fn family(&self) -> Family {
        self.family
    }

    /// The implementations, in order.
    pub fn implementations(&self) -> &[Box<dyn Implementation>] {
        &self.impls
    }

    /// Per implementation, the time it spent answering so far: its own work in process, or
    /// its workers' round trips (which overlap across batches in flight).
    pub fn busy(&self) -> Vec<Duration> {
        self.busy
            .iter()
            .map(|b| Duration::from_nanos(b.load(Ordering::Relaxed)))
            .collect()
    }

    /// Per implementation, the CPU time it used so far: an in-process one's on the threads
    /// that called it, a worker's in its own processes and a hosted one's share of its
    /// host's (none for a worker whose processes' time cannot be read).
    pub fn cpu(&self) -> Vec<Option<Duration>> {
        self.impls
            .iter()
            .zip(&self.cpu)
            .map(|(i, cpu)| {
                if i.in_process() {
                    Some(Duration::from_nanos(cpu.load(Ordering::Relaxed)))
                } else {
                    i.cpu()
                }
            })
            .collect()
    }

    /// Name, version and group of every implementation, with no counts yet.
    pub fn roster(&self) -> Vec<ImplStats> {
        self.impls
            .iter()
            .map(|imp| ImplStats {
                name: imp.name().to_string(),
                version: imp.version(),
                group: imp.group().to_string(),
                ..ImplStats::default()
            })
            .collect()
    }

    /// Gives the implementations back.
    pub fn into_implementations(self) -> Vec<Box<dyn Implementation>> {
        self.impls
    }

    /// The names and groups of the implementations, in order.
    pub fn members(&self) -> &[Member] {
        &self.members
    }

    /// Runs every implementation on every input, each worker-process implementation waited on
    /// from a thread of its own so that the processes compute side by side (a lone one from
    /// the calling thread); per input, the outcomes in implementation order.
    pub fn outcomes(&self, inputs: &[&[u8]]) -> Vec<Vec<Outcome>> {
        self.outcomes_of(inputs, |_| true)
    }

    /// The hosts every one of whose implementations `asked` picks, each with its
    /// implementations' indices and places; a host asked for only some of them is not used,
    /// and those are asked one by one.
    fn hosts_of(&self, asked: impl Fn(usize, &dyn Implementation) -> bool) -> Vec<AskedHost<'_>> {
        let mut hosts: Vec<AskedHost<'_>> = Vec::new();
        for (k, i) in self.impls.iter().enumerate() {
            let Some((host, place)) = i.together().filter(|_| asked(k, i.as_ref())) else {
                continue;
            };
            let same = |h: &&dyn Together| std::ptr::addr_eq(*h as *const _, host as *const _);
            match hosts.iter_mut().find(|(h, _)| same(h)) {
                Some((_, members)) => members.push((k, place)),
                None => hosts.push((host, vec![(k, place)])),
            }
        }
        hosts.retain(|(host, members)| {
            let mut places: Vec<usize> = members.iter().map(|m| m.1).collect();
            places.sort_unstable();
            places.dedup();
            places.len() == members.len() && places.len() == host.width()
        });
        hosts
    }

    /// [`Harness::outcomes`] of the implementations whose index `asked` picks; the others are
    /// recorded as unsupported.
    pub fn outcomes_of(
        &self,
        inputs: &[&[u8]],
        asked: impl Fn(usize) -> bool + Sync,
    ) -> Vec<Vec<Outcome>> {
        let timed = |k: usize, i: &dyn Implementation| {
            if !asked(k) {
                return vec![Outcome::Unsupported; inputs.len()];
            }
            let started = Instant::now();
            // A worker's CPU time is its processes'; the thread here only waits on them.
            let thread_started = i
                .in_process()
                .then(ThreadTime::try_now)
                .and_then(Result::ok);
            let answers = i.run_batch(inputs);
            let nanos = |d: Duration| u64::try_from(d.as_nanos()).unwrap_or(u64::MAX);
            if let Some(busy) = self.busy.get(k) {
                busy.fetch_add(nanos(started.elapsed()), Ordering::Relaxed);
            }
            if let (Some(cpu), Some(Ok(used))) =
                (self.cpu.get(k), thread_started.map(|t| t.try_elapsed()))
            {
                cpu.fetch_add(nanos(used), Ordering::Relaxed);
            }
            answers
        };
        let external = |k: usize, i: &dyn Implementation| !i.in_process() && asked(k);
        let hosts = self.hosts_of(external);
        let hosted = |k: usize| {
            hosts
                .iter()
                .any(|(_, members)| members.iter().any(|m| m.0 == k))
        };
        // A host asked for all of its implementations answers them together, from a thread of
        // its own; the time it takes is each one's.
        let together = |host: &dyn Together, members: &[(usize, usize)]| {
            let started = Instant::now();
            let rows = host.run_together(inputs);
            let waited = u64::try_from(started.elapsed().as_nanos()).unwrap_or(u64::MAX);
            for &(k, _) in members {
                if let Some(busy) = self.busy.get(k) {
                    busy.fetch_add(waited, Ordering::Relaxed);
                }
            }
            rows
        };
        // A worker asked alone, as the minimizer asks them, is waited on from this thread: a
        // thread started for it would cost more than many of the candidates it answers.
        let alone = self
            .impls
            .iter()
            .enumerate()
            .filter(|(k, i)| external(*k, i.as_ref()) && !hosted(*k))
            .count()
            + hosts.len()
            <= 1;
        let (mut per_impl, host_rows) = std::thread::scope(|scope| {
            let running: Vec<_> = self
                .impls
                .iter()
                .enumerate()
                .map(|(k, i)| {
                    (!alone && external(k, i.as_ref()) && !hosted(k))
                        .then(|| scope.spawn(move || timed(k, i.as_ref())))
                })
                .collect();
            let hosting: Vec<_> = hosts
                .iter()
                .map(|(host, members)| {
                    let (host, members) = (*host, members.as_slice());
                    (!alone).then(|| scope.spawn(move || together(host, members)))
                })
                .collect();
            let panicked = || vec![Outcome::Crashed("panicked".into()); inputs.len()];
            let per_impl: Vec<Option<Vec<Outcome>>> = self
                .impls
                .iter()
                .enumerate()
                .zip(running)
                .map(|((k, i), thread)| match thread {
                    None if hosted(k) => None,
                    None => Some(
                        catch_unwind(AssertUnwindSafe(|| timed(k, i.as_ref())))
                            .unwrap_or_else(|_| panicked()),
                    ),
                    Some(h) => Some(h.join().unwrap_or_else(|_| panicked())),
                })
                .collect();
            let host_rows: Vec<Vec<Vec<Outcome>>> = hosts
                .iter()
                .zip(hosting)
                .map(|((host, members), thread)| {
                    let rows = match thread {
                        None => catch_unwind(AssertUnwindSafe(|| together(*host, members))),
                        Some(h) => h.join(),
                    };
                    rows.unwrap_or_else(|_| {
                        vec![vec![Outcome::Crashed("panicked".into()); members.len()]; inputs.len()]
                    })
                })
                .collect();
            (per_impl, host_rows)
        });
        // Each host's rows, one per input, become its implementations' columns.
        for ((_, members), rows) in hosts.iter().zip(host_rows) {
            let mut columns = vec![Vec::with_capacity(inputs.len()); members.len()];
            for mut row in rows {
                for (column, &(_, place)) in columns.iter_mut().zip(members) {
                    column.push(row.get_mut(place).map_or_else(
                        || Outcome::Crashed("no answer".into()),
                        |o| std::mem::replace(o, Outcome::Unsupported),
                    ));
                }
            }
            for (&(k, _), column) in members.iter().zip(columns) {
                if let Some(slot) = per_impl.get_mut(k) {
                    *slot = Some(column);
                }
            }
        }
        let per_impl: Vec<Vec<Outcome>> = per_impl
            .into_iter()
            .map(|column| {
                column.unwrap_or_else(|| vec![Outcome::Crashed("no answer".into()); inputs.len()])
            })
            .collect();
        let mut columns: Vec<_> = per_impl.into_iter().map(Vec::into_iter).collect();
        (0..inputs.len())
            .map(|_| {
                columns
                    .iter_mut()
                    .map(|column| {
                        column
                            .next()
                            .unwrap_or(Outcome::Crashed("no answer".into()))
                    })
                    .collect()
            })
            .collect()
    }

    /// Runs every implementation on every input; per input, the outcomes (in implementation
    /// order) and their evaluation.
    pub fn run(&self, inputs: &[&[u8]]) -> Vec<(Vec<Outcome>, Evaluation)> {
        self.outcomes(inputs)
            .into_iter()
            .zip(inputs)
            .map(|(outcomes, input)| {
                let evaluation = evaluate(self.family, input, &self.members, &outcomes);
                (outcomes, evaluation)
            })
            .collect()
    }

    /// The order in which the minimizer first asks the implementations about a candidate: the
    /// in-process ones together, then each worker alone (a host's implementations together),
    /// those `diverging` from the input's consensus first, since a candidate that loses the
    /// disagreement most often loses it there.
    pub fn stages(&self, diverging: &[String]) -> Vec<Vec<usize>> {
        let local: Vec<usize> = (0..self.impls.len())
            .filter(|&k| self.impls.get(k).is_some_and(|i| i.in_process()))
            .collect();
        // A host's implementations are one stage, answered in one round trip.
        let hosts = self.hosts_of(|k, _| !local.contains(&k));
        let mut workers: Vec<Vec<usize>> = hosts
            .iter()
            .map(|(_, members)| members.iter().map(|m| m.0).collect())
            .collect();
        let alone: Vec<Vec<usize>> = (0..self.impls.len())
            .filter(|k| !local.contains(k) && !workers.iter().any(|w| w.contains(k)))
            .map(|k| vec![k])
            .collect();
        workers.extend(alone);
        workers.sort_by_key(|stage| {
            !stage.iter().any(|&k| {
                self.impls
                    .get(k)
                    .is_some_and(|i| diverging.iter().any(|d| d == i.name()))
            })
        });
        std::iter::once(local)
            .chain(workers)
            .filter(|stage| !stage.is_empty())
            .collect()
    }

    /// Shrinks `input` while its disagreement keeps `signature`. A candidate is put to the
    /// implementations a stage at a time ([`Harness::stages`]) and dropped as soon as the
    /// signature over those asked so far differs from the input's over the same ones: equal
    /// signatures over all give equal signatures over any subset, so a dropped candidate could
    /// not have kept it, and the result is the one asking everyone gives. The first stage
    /// screens every candidate of a chunk; the later ones are put to its survivors in groups
    /// of 1, 2, 4… in order, and the first group holding a kept candidate ends the chunk, since
    /// the minimizer takes the first kept and never reads past it. An agreement's signature
    /// names no answer, so a candidate of one is put to everyone at once.
    ///
    /// `reference` is every implementation's outcome on `input`, as the campaign already has
    /// it. Gives the minimized input with every implementation's outcome on it and their
    /// evaluation: the kept candidate was put to every stage, so its answers are all known and
    /// no implementation is asked again.
    pub fn minimize(
        &self,
        input: &[u8],
        reference: &[Outcome],
        signature: &str,
    ) -> (Vec<u8>, Vec<Outcome>, Evaluation) {
        let family = self.family.rules().family;
        let evaluation = evaluate(self.family, input, &self.members, reference);
        let disagreement = signature != agreement_signature(family);
        let stages = if disagreement {
            self.stages(&evaluation.diverging)
        } else {
            vec![(0..self.impls.len()).collect()]
        };
        // Per stage, the candidates it refused so far: the workers that refuse most are asked
        // first from the next call on, which changes the cost and never the result.
        let mut stages: Vec<(Vec<usize>, usize)> = stages.into_iter().map(|s| (s, 0)).collect();
        // A signature leaves unsupported answers out, and a candidate's implementations not yet
        // asked stand as unsupported: its signature is over those asked alone, and the input's
        // is taken with the same ones masked.
        let over = |outcomes: &[Outcome]| signature_of(family, &self.members, outcomes);
        // The last candidate kept, with every implementation's outcome on it.
        let mut kept: Option<(Vec<u8>, Vec<Outcome>)> = None;
        let judge = |candidates: &[Vec<u8>]| -> Option<usize> {
            let mut asked = vec![false; self.impls.len()];
            let wanted: Vec<String> = stages
                .iter()
                .map(|(stage, _)| {
                    for &k in stage {
                        if let Some(a) = asked.get_mut(k) {
                            *a = true;
                        }
                    }
                    let masked: Vec<Outcome> = reference
                        .iter()
                        .zip(&asked)
                        .map(|(o, a)| if *a { o.clone() } else { Outcome::Unsupported })
                        .collect();
                    over(&masked)
                })
                .collect();
            let mut outcomes = vec![vec![Outcome::Unsupported; self.impls.len()]; candidates.len()];
            // Puts stage `s` to the candidates `alive` and keeps those whose signature so far is
            // the input's.
            let put = |s: usize,
                       alive: &mut Vec<usize>,
                       stages: &mut [(Vec<usize>, usize)],
                       outcomes: &mut [Vec<Outcome>]| {
                let (Some((stage, refused)), Some(wanted)) = (stages.get_mut(s), wanted.get(s))
                else {
                    return;
                };
                if alive.is_empty() {
                    return;
                }
                let inputs: Vec<&[u8]> = alive
                    .iter()
                    .filter_map(|&c| candidates.get(c).map(Vec::as_slice))
                    .collect();
                let answers = self.outcomes_of(&inputs, |k| stage.contains(&k));
                for (&c, answer) in alive.iter().zip(answers) {
                    for &k in stage.iter() {
                        if let (Some(slot), Some(o)) = (
                            outcomes.get_mut(c).and_then(|row| row.get_mut(k)),
                            answer.get(k),
                        ) {
                            *slot = o.clone();
                        }
                    }
                }
                if disagreement {
                    let before = alive.len();
                    alive.retain(|&c| outcomes.get(c).is_some_and(|o| over(o) == *wanted));
                    *refused += before - alive.len();
                }
            };
            let mut screened: Vec<usize> = (0..candidates.len()).collect();
            put(0, &mut screened, &mut stages, &mut outcomes);
            let mut first = None;
            let (mut from, mut size) = (0, 1);
            while first.is_none() && from < screened.len() {
                let mut group: Vec<usize> =
                    screened.iter().skip(from).take(size).copied().collect();
                for s in 1..stages.len() {
                    put(s, &mut group, &mut stages, &mut outcomes);
                }
                first = group.into_iter().find(|&c| {
                    matches!((candidates.get(c), outcomes.get(c)), (Some(candidate), Some(o))
                        if evaluate(self.family, candidate, &self.members, o).signature == signature)
                });
                from += size;
                size *= 2;
            }
            if let Some(workers) = stages.get_mut(1..) {
                workers.sort_by_key(|(_, refused)| std::cmp::Reverse(*refused));
            }
            if let Some((candidate, answers)) =
                first.and_then(|c| candidates.get(c).zip(outcomes.get(c)))
            {
                kept = Some((candidate.clone(), answers.clone()));
            }
            first
        };
        let minimized = minimize(input, &mut FirstKept(judge), SHRINK_BUDGET);
        let outcomes = match kept {
            Some((candidate, answers)) if candidate == minimized => answers,
            None if minimized == input => reference.to_vec(),
            // The minimizer ends on the input or on the last candidate kept; should that ever
            // change, the answers are asked for rather than assumed.
            _ => self
                .outcomes(&[&minimized])
                .into_iter()
                .next()
                .unwrap_or_default(),
        };
        let evaluation = evaluate(self.family, &minimized, &self.members, &outcomes);
        (minimized, outcomes, evaluation)
    }
}

/// A host asked for all of its implementations, with their indices and places.
type AskedHost<'a> = (&'a dyn Together, Vec<(usize, usize)>);

/// One disagreement, by signature.
#[derive(Debug, Clone)]
pub struct Finding {
    /// The stable signature.
    pub signature: String,
    /// The category of the generator that found it.
    pub category: Category,
    /// The first case (lowest index) that showed it.
    pub case: u64,
    /// That case's input.
    pub input: Vec<u8>,
    /// The minimized input.
    pub minimized: Vec<u8>,
    /// Every implementation's outcome on the minimized input.
    pub outcomes: Vec<Outcome>,
    /// The comparison on the minimized input.
    pub evaluation: Evaluation,
    /// How many cases showed this signature.
    pub count: u64,
    /// The vector that holds it, relative to the corpus: the one written for it, or the known
    /// corpus's of its signature.
    pub vector: Option<String>,
    /// Whether the known corpus held no vector of its signature when the campaign met it.
    pub new: bool,
    /// Whether `minimized` is the minimizer's result: an interrupted campaign minimizes none,
    /// and a finding that is not new is minimized in its vector already.
    pub is_minimized: bool,
    /// For a finding that is not new, the input its vector in the known corpus holds, when
    /// the family can state it as a campaign input.
    pub known_input: Option<Vec<u8>>,
}

impl Finding {
    /// Counts one more case showing this finding, and makes it the finding's case when it
    /// comes earlier: the batches finish in no set order, and the lowest case, whichever batch
    /// held it, is the one every run reports, starts minimizing from and saves.
    fn met_again(
        &mut self,
        case: u64,
        category: Category,
        input: &[u8],
        outcomes: &[Outcome],
        evaluation: &Evaluation,
    ) {
        self.count += 1;
        if case < self.case {
            self.case = case;
            self.category = category;
            self.input = input.to_vec();
            self.minimized = input.to_vec();
            self.outcomes = outcomes.to_vec();
            self.evaluation = evaluation.clone();
        }
    }
}

/// The campaign input of the first test of the vector at `path`, when the family can state
/// it as one.
fn vector_input(family: Family, path: &Path) -> Option<Vec<u8>> {
    let file = crate::vector::VectorFile::read(path).ok()?;
    let test = file.tests().next()?;
    family.replay(test).map(|replay| replay.input)
}

/// Per implementation: how often it agreed with the consensus.
#[derive(Debug, Clone, Default)]
pub struct ImplStats {
    /// Name, version and independence group.
    pub name: String,
    /// The pinned version.
    pub version: String,
    /// The independence group.
    pub group: String,
    /// Cases with a consensus that it answered.
    pub answered: u64,
    /// Of those, cases where it agreed with the consensus.
    pub agreed: u64,
    /// Findings in which it diverges.
    pub findings: u64,
    /// Time it spent answering, over the campaign and the minimizing.
    pub busy: Duration,
    /// The CPU time it used: in process, on the threads that called it; a worker, in its own
    /// processes, when their time can be read.
    pub cpu: Option<Duration>,
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
    pub examples: BTreeMap<BugKey, Observation>,
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
        let observations = crate::bugs::observations(self.family, &self.findings, &self.impls);
        let mut bugs = crate::bugs::group(self.family, observations);
        for bug in &mut bugs {
            if let Some(example) = self.examples.get(&bug.key) {
                bug.example = example.clone();
            }
        }
        bugs
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

/// One generated case: its index in the campaign, its category and its input.
pub type Case = (u64, Category, Vec<u8>);

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
                let FirstMet { vector, new } = first_met(&evaluation);
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

/// Each bug of `found`'s example minimized for the implementation it is shown for: the
/// findings were minimized to keep every implementation's answer, a bug's example need only
/// keep its own. None when the campaign was interrupted.
fn smallest_examples(
    harness: &Harness,
    found: &[Finding],
    impls: &[ImplStats],
    config: &Config,
    jobs: usize,
) -> BTreeMap<BugKey, Observation> {
    if INTERRUPTED.load(Ordering::Relaxed) {
        return BTreeMap::new();
    }
    let bugs = crate::bugs::group(
        config.family,
        crate::bugs::observations(config.family, found, impls),
    );
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
    examples.into_inner().unwrap_or_default()
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
    let impls = impl_stats(&harness, &roster, (&tally.answered, &tally.agreed), &found);
    if let Some(dir) = &config.out {
        persist(dir, &mut found, config, &impls, &tally.created)?;
    }
    let examples = smallest_examples(&harness, &found, &impls, config, jobs);
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
        }
    }

    /// Runs every case on `jobs` threads, a batch at a time, until the count, the duration,
    /// an interruption or an implementation taken out stops them.
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
            for worker in workers {
                let _ = worker.join();
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
        let stop = deadline.is_some_and(|d| Instant::now() >= d)
            || INTERRUPTED.load(Ordering::Relaxed)
            || out_of_comparison(self.harness, &self.taken_out, self.config.allow_missing);
        (!stop).then_some((start, end))
    }

    /// Runs the cases `start..end` of this shard and tallies them; false when the tally
    /// can no longer be written.
    fn batch(&self, start: u64, end: u64) -> bool {
        let config = self.config;
        let (shard, shards) = config.shard;
        let cases: Vec<Case> = (start..end)
            .map(|local| {
                let index = local * shards + shard;
                let (category, input) = config.family.generate(config.seed, index);
                (index, category, input)
            })
            .collect();
        let inputs: Vec<&[u8]> = cases.iter().map(|(_, _, i)| i.as_slice()).collect();
        let results = self
            .repeats
            .answer(&inputs, |asked| self.harness.run(asked));
        let Ok(mut tally) = self.tally.lock() else {
            return false;
        };
        for (case, (outcomes, evaluation)) in cases.iter().zip(results) {
            self.record(&mut tally, case, outcomes, evaluation);
        }
        let found = tally.findings.len();
        drop(tally);
        self.bar.inc(end - start);
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

    /// Two categories of a family under test, as any family's generator names its own.
    const STRUCTURE: Category = Category::new("structure", "nesting");
    const NUMBERS: Category = Category::new("numbers", "numbers");

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
    fn a_finding_keeps_its_lowest_case_whichever_batch_comes_first() {
        let evaluation = |input: &str| Evaluation {
            verdict: Verdict::ThirdParties,
            consensus: None,
            diverging: vec![input.to_string()],
            signature: "jcs: same".to_string(),
        };
        let mut finding = Finding {
            signature: "jcs: same".to_string(),
            category: STRUCTURE,
            case: 5_000,
            input: b"[5000]".to_vec(),
            minimized: b"[5000]".to_vec(),
            outcomes: vec![Outcome::Ok(b"[5000]".to_vec())],
            evaluation: evaluation("5000"),
            count: 1,
            vector: None,
            new: true,
            is_minimized: false,
            known_input: None,
        };
        // Batches met in the order 5000, 7000, 3000, 4000: the finding ends at case 3000.
        for case in [7_000u64, 3_000, 4_000] {
            let input = format!("[{case}]");
            let category = if case == 3_000 { NUMBERS } else { STRUCTURE };
            finding.met_again(
                case,
                category,
                input.as_bytes(),
                &[Outcome::Ok(input.clone().into_bytes())],
                &evaluation(&case.to_string()),
            );
        }
        assert_eq!(finding.count, 4);
        assert_eq!(finding.case, 3_000);
        assert_eq!(finding.category.name, NUMBERS.name);
        assert_eq!(finding.input, b"[3000]");
        assert_eq!(finding.minimized, b"[3000]");
        assert_eq!(finding.outcomes, [Outcome::Ok(b"[3000]".to_vec())]);
        assert_eq!(finding.evaluation.diverging, ["3000"]);
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
