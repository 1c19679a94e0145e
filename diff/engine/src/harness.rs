//! The implementations of one family under comparison: who answers, in which groups they
//! vote, how a batch is asked of them (in process, as workers, through hosts), what each
//! spends, and the minimizer's questions to them.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use cpu_time::ThreadTime;

use crate::compare::{agreement_signature, evaluate, signature_of, Evaluation, Member};
use crate::family::Family;
use crate::impls::{self, External, Implementation, Together};
use crate::outcome::Outcome;
use crate::shrink::{minimize, FirstKept};

use crate::family::Panel;
use crate::findings::ImplStats;
use crate::table::{Column, FamilyTable};

/// Candidates the minimizer may try per finding. The bound is a count, not a time, so that
/// the same finding minimizes to the same input on every machine.
pub const SHRINK_BUDGET: usize = 2_000;

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
        let chosen = impls::choose(family.name(), family.implementations(), select, with)?;
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
        let external = |k: usize, i: &dyn Implementation| !i.in_process() && asked(k);
        let hosts = self.hosts_of(external);
        let hosted = |k: usize| {
            hosts
                .iter()
                .any(|(_, members)| members.iter().any(|m| m.0 == k))
        };
        let alone = |k: usize, i: &dyn Implementation| external(k, i) && !hosted(k);
        // A worker asked alone, as the minimizer asks them, is waited on from this thread: a
        // thread started for it would cost more than many of the candidates it answers.
        let threads = self
            .impls
            .iter()
            .enumerate()
            .filter(|(k, i)| alone(*k, i.as_ref()))
            .count()
            + hosts.len()
            > 1;
        let (mut per_impl, host_rows) = std::thread::scope(|scope| {
            let running: Vec<_> = self
                .impls
                .iter()
                .enumerate()
                .map(|(k, i)| {
                    let asked = &asked;
                    (threads && alone(k, i.as_ref()))
                        .then(|| scope.spawn(move || self.timed(k, i.as_ref(), inputs, asked)))
                })
                .collect();
            let hosting: Vec<_> = hosts
                .iter()
                .map(|(host, members)| {
                    let (host, members) = (*host, members.as_slice());
                    threads.then(|| scope.spawn(move || self.together(host, members, inputs)))
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
                        catch_unwind(AssertUnwindSafe(|| {
                            self.timed(k, i.as_ref(), inputs, &asked)
                        }))
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
                        None => {
                            catch_unwind(AssertUnwindSafe(|| self.together(*host, members, inputs)))
                        }
                        Some(h) => h.join(),
                    };
                    rows.unwrap_or_else(|_| {
                        vec![vec![Outcome::Crashed("panicked".into()); members.len()]; inputs.len()]
                    })
                })
                .collect();
            (per_impl, host_rows)
        });
        for ((_, members), rows) in hosts.iter().zip(host_rows) {
            spread_rows(members, rows, &mut per_impl);
        }
        by_input(per_impl, inputs.len())
    }

    /// Implementation `k`'s answers to `inputs` when `asked` asks it (unsupported otherwise),
    /// the time it took added to its busy time, and its thread's CPU time when in process.
    fn timed(
        &self,
        k: usize,
        implementation: &dyn Implementation,
        inputs: &[&[u8]],
        asked: &(impl Fn(usize) -> bool + Sync),
    ) -> Vec<Outcome> {
        if !asked(k) {
            return vec![Outcome::Unsupported; inputs.len()];
        }
        let started = Instant::now();
        // A worker's CPU time is its processes'; the thread here only waits on them.
        let thread_started = implementation
            .in_process()
            .then(ThreadTime::try_now)
            .and_then(Result::ok);
        let answers = implementation.run_batch(inputs);
        if let Some(busy) = self.busy.get(k) {
            busy.fetch_add(nanos(started.elapsed()), Ordering::Relaxed);
        }
        if let (Some(cpu), Some(Ok(used))) =
            (self.cpu.get(k), thread_started.map(|t| t.try_elapsed()))
        {
            cpu.fetch_add(nanos(used), Ordering::Relaxed);
        }
        answers
    }

    /// A host's rows for `inputs`, asked for all of its implementations together; the time
    /// it takes is each one's.
    fn together(
        &self,
        host: &dyn Together,
        members: &[(usize, usize)],
        inputs: &[&[u8]],
    ) -> Vec<Vec<Outcome>> {
        let started = Instant::now();
        let rows = host.run_together(inputs);
        let waited = nanos(started.elapsed());
        for &(k, _) in members {
            if let Some(busy) = self.busy.get(k) {
                busy.fetch_add(waited, Ordering::Relaxed);
            }
        }
        rows
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
        let mut staged = Staged {
            harness: self,
            family,
            reference,
            signature,
            disagreement,
            stages: stages.into_iter().map(|s| (s, 0)).collect(),
            kept: None,
        };
        let minimized = minimize(
            input,
            &mut FirstKept(|candidates: &[Vec<u8>]| staged.judge(candidates)),
            SHRINK_BUDGET,
        );
        let outcomes = match staged.kept {
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

/// The minimizer's questions to a harness, a stage at a time ([`Harness::minimize`]).
struct Staged<'a> {
    harness: &'a Harness,
    family: &'static str,
    /// Every implementation's outcome on the input being minimized.
    reference: &'a [Outcome],
    /// The input's signature, which a kept candidate must have.
    signature: &'a str,
    /// Whether that signature is a disagreement, whose stages can screen candidates out.
    disagreement: bool,
    /// Per stage, its implementations and the candidates it refused so far: the workers that
    /// refuse most are asked first from the next call on, which changes the cost and never
    /// the result.
    stages: Vec<(Vec<usize>, usize)>,
    /// The last candidate kept, with every implementation's outcome on it.
    kept: Option<(Vec<u8>, Vec<Outcome>)>,
}

impl Staged<'_> {
    /// A signature leaves unsupported answers out, and a candidate's implementations not yet
    /// asked stand as unsupported: its signature is over those asked alone.
    fn over(&self, outcomes: &[Outcome]) -> String {
        signature_of(self.family, &self.harness.members, outcomes)
    }

    /// Per stage, the input's signature over the implementations asked up to it.
    fn wanted(&self) -> Vec<String> {
        let mut asked = vec![false; self.harness.impls.len()];
        self.stages
            .iter()
            .map(|(stage, _)| {
                for &k in stage {
                    if let Some(a) = asked.get_mut(k) {
                        *a = true;
                    }
                }
                let masked: Vec<Outcome> = self
                    .reference
                    .iter()
                    .zip(&asked)
                    .map(|(o, a)| if *a { o.clone() } else { Outcome::Unsupported })
                    .collect();
                self.over(&masked)
            })
            .collect()
    }

    /// The first of `candidates` that keeps the input's signature, asked a stage at a time.
    fn judge(&mut self, candidates: &[Vec<u8>]) -> Option<usize> {
        let wanted = self.wanted();
        let mut outcomes =
            vec![vec![Outcome::Unsupported; self.harness.impls.len()]; candidates.len()];
        let mut screened: Vec<usize> = (0..candidates.len()).collect();
        self.put(0, &mut screened, candidates, &wanted, &mut outcomes);
        let mut first = None;
        let (mut from, mut size) = (0, 1);
        while first.is_none() && from < screened.len() {
            let mut group: Vec<usize> = screened.iter().skip(from).take(size).copied().collect();
            for s in 1..self.stages.len() {
                self.put(s, &mut group, candidates, &wanted, &mut outcomes);
            }
            first = group.into_iter().find(|&c| {
                matches!((candidates.get(c), outcomes.get(c)), (Some(candidate), Some(o))
                    if evaluate(self.harness.family, candidate, &self.harness.members, o)
                        .signature == self.signature)
            });
            from += size;
            size *= 2;
        }
        if let Some(workers) = self.stages.get_mut(1..) {
            workers.sort_by_key(|(_, refused)| std::cmp::Reverse(*refused));
        }
        if let Some((candidate, answers)) =
            first.and_then(|c| candidates.get(c).zip(outcomes.get(c)))
        {
            self.kept = Some((candidate.clone(), answers.clone()));
        }
        first
    }

    /// Puts stage `s` to the candidates `alive` and keeps those whose signature so far is
    /// the input's.
    fn put(
        &mut self,
        s: usize,
        alive: &mut Vec<usize>,
        candidates: &[Vec<u8>],
        wanted: &[String],
        outcomes: &mut [Vec<Outcome>],
    ) {
        let (Some((stage, _)), Some(wanted)) = (self.stages.get(s), wanted.get(s)) else {
            return;
        };
        if alive.is_empty() {
            return;
        }
        let inputs: Vec<&[u8]> = alive
            .iter()
            .filter_map(|&c| candidates.get(c).map(Vec::as_slice))
            .collect();
        let answers = self.harness.outcomes_of(&inputs, |k| stage.contains(&k));
        for (&c, answer) in alive.iter().zip(answers) {
            for &k in stage {
                if let (Some(slot), Some(o)) = (
                    outcomes.get_mut(c).and_then(|row| row.get_mut(k)),
                    answer.get(k),
                ) {
                    *slot = o.clone();
                }
            }
        }
        if self.disagreement {
            let before = alive.len();
            alive.retain(|&c| outcomes.get(c).is_some_and(|o| self.over(o) == *wanted));
            if let Some((_, refused)) = self.stages.get_mut(s) {
                *refused += before - alive.len();
            }
        }
    }
}

/// A host asked for all of its implementations, with their indices and places.
type AskedHost<'a> = (&'a dyn Together, Vec<(usize, usize)>);

/// The table of `family` over the corpus, from the implementations selected (empty selects
/// all), with those that could not run; `None` when the family registers no table.
pub fn family_table(
    family: Family,
    impls: &[String],
    corpus: &Path,
) -> Option<Result<(FamilyTable, Missing), String>> {
    let table = family.corpus_table()?;
    Some(Harness::new(family, impls).and_then(|(harness, missing)| {
        let mut made = table(&harness, corpus)?;
        made.implementations = harness
            .implementations()
            .iter()
            .map(|i| Column::of(i.as_ref(), i.driven().unwrap_or_default()))
            .collect();
        Ok((made, missing))
    }))
}

impl Panel for Harness {
    fn members(&self) -> &[Member] {
        Harness::members(self)
    }

    fn outcomes(&self, inputs: &[&[u8]]) -> Vec<Vec<Outcome>> {
        Harness::outcomes(self, inputs)
    }
}

/// A duration in whole nanoseconds, saturating.
fn nanos(d: Duration) -> u64 {
    u64::try_from(d.as_nanos()).unwrap_or(u64::MAX)
}

/// A host's rows, one per input, put into its implementations' columns of `per_impl`.
fn spread_rows(
    members: &[(usize, usize)],
    rows: Vec<Vec<Outcome>>,
    per_impl: &mut [Option<Vec<Outcome>>],
) {
    let mut columns = vec![Vec::with_capacity(rows.len()); members.len()];
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

/// Per-implementation columns of answers turned into per-input rows of `inputs` answers;
/// a column that is missing, or short, reads as no answer.
fn by_input(per_impl: Vec<Option<Vec<Outcome>>>, inputs: usize) -> Vec<Vec<Outcome>> {
    let mut columns: Vec<_> = per_impl
        .into_iter()
        .map(|column| column.unwrap_or_default().into_iter())
        .collect();
    (0..inputs)
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
