//! The cases of a campaign in flight: batches taken in order across threads, run through the
//! harness and the workers' lanes, judged and recorded.

use std::collections::{BTreeMap, BTreeSet};
use std::io::IsTerminal;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use indicatif::ProgressBar;

use crate::compare::{evaluate, Evaluation, Member};
use crate::family::Case;
use crate::family::Family;
use crate::findings;
use crate::findings::{Finding, ImplStats};
use crate::harness::{Harness, Missing};
use crate::outcome::Outcome;
use crate::pacing::Board;
use crate::repeats::Repeats;
use crate::without_vector;

use super::progress::{progress_bar, progress_lines};
use super::tally::{FirstMet, Tally};
use super::{Config, Status, BATCH, INTERRUPTED};

/// Runs `work` on every item on `threads` threads, each item started in the order given.
pub(super) fn in_order<T: Send>(threads: usize, items: Vec<T>, work: impl Fn(T) + Sync) {
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

/// The cases of a campaign as its threads run them: what they share, and the tally they
/// add to.
pub(super) struct Cases<'a> {
    config: &'a Config,
    harness: &'a Harness,
    roster: &'a [ImplStats],
    remembered: &'a BTreeMap<String, without_vector::Remembered>,
    /// The members registered with the family, not given with `--with`.
    registered: Vec<Member>,
    pub(super) started: Instant,
    next_batch: AtomicU64,
    pub(super) repeats: Repeats<(Vec<Outcome>, Evaluation)>,
    pub(super) tally: Mutex<Tally>,
    taken_out: Mutex<Vec<(String, String)>>,
    bar: ProgressBar,
    /// The lanes the workers answer from at their own pace, or why every case is asked of
    /// every implementation together.
    pub(super) board: Result<Board<'a>, &'static str>,
    /// Set by the first case judged a divergence of the core when the campaign fails fast.
    failed: std::sync::atomic::AtomicBool,
    /// Escalated cases left unjudged when the campaign stopped before the lanes answered them.
    pub(super) dropped: AtomicU64,
}

impl<'a> Cases<'a> {
    pub(super) fn new(
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
    pub(super) fn run(&self, jobs: usize) {
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
pub(super) fn taken_out_of(
    cases: &Cases<'_>,
    config: &Config,
    missing: Missing,
) -> Result<Missing, String> {
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

/// Saves a finding's vector the moment its signature is first met, so a campaign cut short
/// loses nothing it found; the minimized input replaces it, and the manifest is rebuilt once,
/// at the end (a campaign killed outright leaves vectors `canonfuzz manifest` then lists).
pub(super) fn save_as_found(
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

/// Whether an implementation was taken out of the comparison and the campaign is to stop for
/// it; each one taken out is recorded once in `taken_out`.
pub(super) fn out_of_comparison(
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

#[cfg(test)]
mod tests {
    use super::*;

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
