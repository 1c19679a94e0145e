//! Every implementation at its own pace. The implementations in process (the core among them)
//! answer every case as it is generated and set the campaign's rate; each worker, or host of
//! workers, is a lane that answers at its own pace:
//!
//! - every case on which the answers so far disagree, with each other or with the core, is
//!   escalated to every lane, so each disagreement is judged by the full quorum;
//! - of the rest, a lane with room takes every case, and a lane that has fallen behind takes
//!   what room it has from each batch, one case of each generator category in turn (the
//!   category it starts from moves on with every batch), so that every category reaches it.
//!
//! A case on which the answers so far say the core diverges goes to the front of every lane's
//! queue and holds new cases back until it is judged, so that a core bug is judged as soon as
//! asking everyone would judge it. A lane is never idle while it is owed a case or has one
//! queued; the campaign waits for a lane only then and when it owes more escalated cases than
//! [`OWED_AT_MOST`], and at its end, while the lanes answer what they owe and what is queued
//! for them (a campaign no larger than a lane's queue is so answered whole by every lane). A
//! case is judged once every lane has answered it or passed it by.

use std::collections::{HashMap, VecDeque};
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use crate::compare::{evaluate, Evaluation, Verdict, CORE};
use crate::family::Case;
pub use crate::findings::Pace;
use crate::harness::Harness;
use crate::outcome::Outcome;

/// Cases a lane asks its implementations at once: enough that a worker's round trip is cheap,
/// few enough that a case about the core waits little behind the round in flight.
const ROUND: usize = 256;

/// Escalated cases a lane may owe before new cases wait for it.
pub const OWED_AT_MOST: usize = 32 * ROUND;

/// Sampled cases a lane may hold waiting, per round it has in flight: enough that it never
/// waits for the next batch, few enough that what it answers is recent.
const QUEUED_ROUNDS: usize = 2;

/// Why a campaign whose implementations all run in process is not paced.
pub const ALL_IN_PROCESS: &str = "every implementation runs in process and keeps up";

/// Why a campaign with no independent implementation in process is not paced.
pub const NO_JUDGE: &str =
    "no implementation independent of the core runs in process to tell which cases to escalate";

/// Why a campaign run with `--every-case` is not paced.
pub const ASKED: &str = "--every-case";

/// A case judged once every lane has answered it or passed it by.
pub type Settled = (Case, Vec<Outcome>, Evaluation);

/// Where a case stands with one lane.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Turn {
    /// Not to be asked.
    Passed,
    /// Taken as a sample, waiting its turn.
    Queued,
    /// Escalated, waiting its turn.
    Owed,
    /// Being answered, as a sample (`false`) or escalated (`true`).
    Asked(bool),
    /// Answered.
    Answered,
}

/// A case some lane has still to answer or pass by.
struct Pending {
    case: Case,
    outcomes: Vec<Outcome>,
    evaluation: Evaluation,
    escalated: bool,
    /// Escalated because the answers so far say the core diverges.
    urgent: bool,
    turns: Vec<Turn>,
}

impl Pending {
    fn settled(&self) -> bool {
        self.turns
            .iter()
            .all(|t| matches!(t, Turn::Passed | Turn::Answered))
    }
}

/// One lane's queues and figures.
#[derive(Default)]
struct LaneState {
    /// Escalated cases on which the core's answer is in question, answered first.
    urgent: VecDeque<u64>,
    owed: VecDeque<u64>,
    queued: VecDeque<u64>,
    pace: Pace,
    in_flight: usize,
    since: Option<Instant>,
}

#[derive(Default)]
struct State {
    pending: HashMap<u64, Pending>,
    lanes: Vec<LaneState>,
    closed: bool,
    /// Pending cases on which the answers so far say the core diverges.
    urgent: usize,
}

/// The cases between the implementations in process and the lanes.
pub struct Board<'h> {
    harness: &'h Harness,
    fast: Vec<usize>,
    lanes: Vec<Vec<usize>>,
    queued_at_most: usize,
    state: Mutex<State>,
    changed: Condvar,
}

impl<'h> Board<'h> {
    /// The board for `harness`, whose lanes each keep up to `rounds` rounds in flight, or why
    /// the campaign asks every implementation every case instead: every implementation runs
    /// in process, and so keeps up; or none but the core's group does, and nothing in process
    /// could tell a case worth escalating.
    pub fn new(harness: &'h Harness, rounds: usize) -> Result<Board<'h>, &'static str> {
        let impls = harness.implementations();
        let fast: Vec<usize> = (0..impls.len())
            .filter(|&k| impls.get(k).is_some_and(|i| i.in_process()))
            .collect();
        let members = harness.members();
        let core_group = members.iter().find(|m| m.name == CORE).map(|m| &m.group);
        let judges = fast
            .iter()
            .filter_map(|&k| members.get(k))
            .any(|m| Some(&m.group) != core_group);
        if !judges {
            return Err(NO_JUDGE);
        }
        let lanes: Vec<Vec<usize>> = harness
            .stages(&[])
            .into_iter()
            .filter(|stage| !stage.iter().all(|k| fast.contains(k)))
            .collect();
        if lanes.is_empty() {
            return Err(ALL_IN_PROCESS);
        }
        let state = State {
            lanes: lanes.iter().map(|_| LaneState::default()).collect(),
            ..State::default()
        };
        Ok(Board {
            harness,
            fast,
            queued_at_most: QUEUED_ROUNDS * rounds.max(1) * ROUND,
            lanes,
            state: Mutex::new(state),
            changed: Condvar::new(),
        })
    }

    /// The lanes: each one's implementations, by index.
    pub fn lanes(&self) -> &[Vec<usize>] {
        &self.lanes
    }

    fn lock(&self) -> Option<MutexGuard<'_, State>> {
        self.state.lock().ok()
    }

    /// The answers of the implementations in process to `inputs` (the others' unsupported),
    /// judged over those answers.
    pub fn in_process(&self, inputs: &[&[u8]]) -> Vec<(Vec<Outcome>, Evaluation)> {
        self.harness
            .outcomes_of(inputs, |k| self.fast.contains(&k))
            .into_iter()
            .zip(inputs)
            .map(|(outcomes, input)| {
                let evaluation = self.judge(input, &outcomes);
                (outcomes, evaluation)
            })
            .collect()
    }

    /// A case judged by every answer it has: an escalated one was judged last by the
    /// answers in process.
    fn judged(&self, case: Pending) -> Settled {
        let evaluation = if case.escalated {
            self.judge(&case.case.2, &case.outcomes)
        } else {
            case.evaluation
        };
        (case.case, case.outcomes, evaluation)
    }

    fn judge(&self, input: &[u8], outcomes: &[Outcome]) -> Evaluation {
        evaluate(
            self.harness.family(),
            input,
            self.harness.members(),
            outcomes,
        )
    }

    /// Waits while a lane owes more escalated cases than it may, or a case on which the core
    /// diverges is still to be judged by every lane (the cores are then the lanes'), unless
    /// `stop` says the campaign is stopping.
    pub fn wait_for_room(&self, stop: &dyn Fn() -> bool) {
        let Some(mut state) = self.lock() else { return };
        while !stop()
            && !state.closed
            && (state.urgent > 0
                || state
                    .lanes
                    .iter()
                    .any(|l| l.owed.len() + l.urgent.len() >= OWED_AT_MOST))
        {
            match self.changed.wait_timeout(state, WAKE) {
                Ok((s, _)) => state = s,
                Err(_) => return,
            }
        }
    }

    /// Puts batch number `batch`'s cases, with the answers in process, before the lanes; gives
    /// back the cases no lane is to answer, judged.
    pub fn publish(
        &self,
        batch: u64,
        cases: Vec<Case>,
        judged: Vec<(Vec<Outcome>, Evaluation)>,
    ) -> Vec<Settled> {
        let Some(mut state) = self.lock() else {
            return Vec::new();
        };
        let calm: Vec<(usize, &'static str)> = cases
            .iter()
            .zip(&judged)
            .enumerate()
            .filter(|(_, (_, (_, e)))| e.verdict == Verdict::Agree)
            .map(|(at, (case, _))| (at, case.1.name))
            .collect();
        let sampled: Vec<Vec<bool>> = state
            .lanes
            .iter()
            .map(|lane| {
                let room = self.queued_at_most.saturating_sub(lane.queued.len());
                let mut chosen = vec![false; cases.len()];
                for at in spread(&calm, room, batch) {
                    if let Some(c) = chosen.get_mut(at) {
                        *c = true;
                    }
                }
                chosen
            })
            .collect();
        let mut settled = Vec::new();
        for (at, (case, (outcomes, evaluation))) in cases.into_iter().zip(judged).enumerate() {
            let escalated = evaluation.verdict != Verdict::Agree;
            let turns: Vec<Turn> = sampled
                .iter()
                .map(|chosen| match (escalated, chosen.get(at).copied()) {
                    (true, _) => Turn::Owed,
                    (false, Some(true)) => Turn::Queued,
                    _ => Turn::Passed,
                })
                .collect();
            for (lane, turn) in state.lanes.iter_mut().zip(&turns) {
                match turn {
                    Turn::Owed => lane.owe(case.0, &evaluation),
                    Turn::Queued => lane.queued.push_back(case.0),
                    _ => lane.pace.passed += 1,
                }
            }
            let urgent = escalated && about_the_core(&evaluation);
            let pending = Pending {
                case,
                outcomes,
                evaluation,
                escalated,
                urgent,
                turns,
            };
            state.urgent += usize::from(urgent);
            if pending.settled() {
                settled.push((pending.case, pending.outcomes, pending.evaluation));
            } else {
                state.pending.insert(pending.case.0, pending);
            }
        }
        drop(state);
        self.changed.notify_all();
        settled
    }

    /// Lane `lane`'s next round: the cases it owes first, then those queued for it, with each
    /// one's input; waits for one, and gives `None` once the board is closed and no lane can
    /// owe it anything more, or `stop` says the campaign is stopping.
    pub fn take(&self, lane: usize, stop: &dyn Fn() -> bool) -> Option<Vec<(u64, Vec<u8>)>> {
        let mut state = self.lock()?;
        loop {
            if stop() {
                return None;
            }
            let round = next_round(&mut state, lane);
            if !round.is_empty() {
                if let Some(l) = state.lanes.get_mut(lane) {
                    if l.in_flight == 0 {
                        l.since = Some(Instant::now());
                    }
                    l.in_flight += 1;
                }
                return Some(round);
            }
            // Another lane's round in flight may yet escalate a case to this one.
            let answering = state.lanes.iter().any(|l| l.in_flight > 0);
            if state.closed && !answering {
                return None;
            }
            state = self.changed.wait_timeout(state, WAKE).ok()?.0;
        }
    }

    /// Lane `lane`'s answers to the round it took: each case escalated to every other lane
    /// when its answers now disagree; gives back the cases it settles, judged.
    pub fn answer(&self, lane: usize, round: &[u64], answers: Vec<Vec<Outcome>>) -> Vec<Settled> {
        let Some(mut state) = self.lock() else {
            return Vec::new();
        };
        let own = self.lanes.get(lane).cloned().unwrap_or_default();
        let mut settled = Vec::new();
        let mut pace = Pace::default();
        for (index, row) in round.iter().zip(answers) {
            let Some(mut case) = state.pending.remove(index) else {
                continue;
            };
            for &k in &own {
                if let (Some(slot), Some(answer)) = (case.outcomes.get_mut(k), row.get(k)) {
                    *slot = answer.clone();
                }
            }
            if let Some(turn) = case.turns.get_mut(lane) {
                match *turn {
                    Turn::Asked(true) => pace.escalated += 1,
                    _ => pace.sampled += 1,
                }
                *turn = Turn::Answered;
            }
            if !case.escalated {
                case.evaluation = self.judge(&case.case.2, &case.outcomes);
                if case.evaluation.verdict != Verdict::Agree {
                    escalate(&mut state, &mut case);
                }
            }
            if case.settled() {
                state.urgent = state.urgent.saturating_sub(usize::from(case.urgent));
                settled.push(self.judged(case));
            } else {
                state.pending.insert(case.case.0, case);
            }
        }
        if let Some(l) = state.lanes.get_mut(lane) {
            l.pace.escalated += pace.escalated;
            l.pace.sampled += pace.sampled;
            l.in_flight = l.in_flight.saturating_sub(1);
            if l.in_flight == 0 {
                l.pace.busy += l.since.take().map(|s| s.elapsed()).unwrap_or_default();
            }
        }
        drop(state);
        self.changed.notify_all();
        settled
    }

    /// No more cases come: the lanes answer what they owe and what is queued for them, and
    /// then stop.
    pub fn close(&self) {
        if let Some(mut state) = self.lock() {
            state.closed = true;
        }
        self.changed.notify_all();
    }

    /// What is left when a campaign stops before its lanes are done: each case no lane
    /// owes, judged by the answers it has (a sample not yet taken is passed by), and how many
    /// escalated cases are dropped unjudged, since a disagreement is judged by every lane or
    /// not at all.
    pub fn rest(&self) -> (Vec<Settled>, u64) {
        let Some(mut state) = self.lock() else {
            return (Vec::new(), 0);
        };
        state.urgent = 0;
        let mut dropped = 0;
        let mut rest = Vec::new();
        for (_, case) in state.pending.drain() {
            if case.escalated {
                dropped += 1;
            } else {
                rest.push(self.judged(case));
            }
        }
        rest.sort_by_key(|(case, _, _)| case.0);
        (rest, dropped)
    }

    /// Per implementation, how its lane met the cases; `None` for those in process, which
    /// answer every case.
    pub fn paces(&self) -> Vec<Option<Pace>> {
        let state = self.lock();
        (0..self.harness.implementations().len())
            .map(|k| {
                let lane = self.lanes.iter().position(|l| l.contains(&k))?;
                state.as_ref()?.lanes.get(lane).map(|l| l.pace)
            })
            .collect()
    }
}

/// How long a waiting thread sleeps before it looks again whether the campaign is stopping.
const WAKE: Duration = Duration::from_millis(50);

/// Takes lane `lane`'s next round from its queues: owed cases first.
fn next_round(state: &mut State, lane: usize) -> Vec<(u64, Vec<u8>)> {
    let mut round = Vec::new();
    let State { pending, lanes, .. } = state;
    let Some(queues) = lanes.get_mut(lane) else {
        return round;
    };
    for (queue, waiting, escalated) in [
        (&mut queues.urgent, Turn::Owed, true),
        (&mut queues.owed, Turn::Owed, true),
        (&mut queues.queued, Turn::Queued, false),
    ] {
        while round.len() < ROUND {
            let Some(index) = queue.pop_front() else {
                break;
            };
            let Some(case) = pending.get_mut(&index) else {
                continue;
            };
            if let Some(turn) = case.turns.get_mut(lane).filter(|t| **t == waiting) {
                *turn = Turn::Asked(escalated);
                round.push((index, case.case.2.clone()));
            }
        }
    }
    round
}

/// Whether the answers so far say the core diverges, or cannot be judged: such a case is
/// answered first and holds new cases back until it is judged.
fn about_the_core(evaluation: &Evaluation) -> bool {
    matches!(
        evaluation.verdict,
        Verdict::CoreDiverges | Verdict::Unjudged(_)
    )
}

/// Marks `case` escalated: every lane that was to pass it by, or was to answer it as a
/// sample, now owes it.
fn escalate(state: &mut State, case: &mut Pending) {
    case.escalated = true;
    case.urgent = about_the_core(&case.evaluation);
    state.urgent += usize::from(case.urgent);
    for (lane, turn) in state.lanes.iter_mut().zip(case.turns.iter_mut()) {
        match *turn {
            Turn::Passed => {
                lane.pace.passed = lane.pace.passed.saturating_sub(1);
                *turn = Turn::Owed;
                lane.owe(case.case.0, &case.evaluation);
            }
            Turn::Queued => {
                *turn = Turn::Owed;
                lane.owe(case.case.0, &case.evaluation);
            }
            _ => {}
        }
    }
}

impl LaneState {
    /// Owes case `index`, judged so far as `evaluation`: first in line when the core's answer
    /// is in question, so that a divergence of the core is judged as soon as it can be.
    fn owe(&mut self, index: u64, evaluation: &Evaluation) {
        if about_the_core(evaluation) {
            self.urgent.push_back(index);
        } else {
            self.owed.push_back(index);
        }
    }
}

/// The sample of `cases` (each a position and its category) a lane with `room` takes from batch
/// `batch`: all of them when they fit, else one of each category in turn, lowest position
/// first, from the category `batch` picks, until the room is full.
pub fn spread(cases: &[(usize, &'static str)], room: usize, batch: u64) -> Vec<usize> {
    if cases.len() <= room {
        return cases.iter().map(|(at, _)| *at).collect();
    }
    let mut categories: Vec<(&str, VecDeque<usize>)> = Vec::new();
    for &(at, category) in cases {
        match categories.iter_mut().find(|(c, _)| *c == category) {
            Some((_, members)) => members.push_back(at),
            None => categories.push((category, VecDeque::from([at]))),
        }
    }
    categories.sort_by_key(|(c, _)| *c);
    if !categories.is_empty() {
        let first = (batch % categories.len() as u64) as usize;
        categories.rotate_left(first);
    }
    let mut chosen = Vec::with_capacity(room);
    while chosen.len() < room {
        let before = chosen.len();
        for (_, members) in categories.iter_mut() {
            if chosen.len() == room {
                break;
            }
            if let Some(at) = members.pop_front() {
                chosen.push(at);
            }
        }
        if chosen.len() == before {
            break;
        }
    }
    chosen.sort_unstable();
    chosen
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sample_takes_every_category_in_turn() {
        let mut cases: Vec<(usize, &'static str)> = (0..100).map(|at| (at, "common")).collect();
        cases.extend((100..105).map(|at| (at, "rare")));
        cases.push((105, "rarest"));
        let chosen = spread(&cases, 9, 0);
        assert_eq!(chosen.len(), 9);
        let of = |category: &str| {
            chosen
                .iter()
                .filter(|at| cases.iter().any(|(a, c)| a == *at && *c == category))
                .count()
        };
        assert_eq!((of("common"), of("rare"), of("rarest")), (4, 4, 1));
        // Within a category, the lowest positions first.
        assert_eq!(chosen, [0, 1, 2, 3, 100, 101, 102, 103, 105]);
    }

    #[test]
    fn the_first_category_moves_on_with_each_batch() {
        let cases = [(0, "a"), (1, "b"), (2, "c")];
        let firsts: Vec<Vec<usize>> = (0..3).map(|batch| spread(&cases, 1, batch)).collect();
        assert_eq!(firsts, [vec![0], vec![1], vec![2]]);
    }

    #[test]
    fn a_lane_with_room_takes_every_case() {
        let cases = [(0, "a"), (1, "a"), (2, "b")];
        assert_eq!(spread(&cases, 3, 7), [0, 1, 2]);
        assert_eq!(spread(&cases, 0, 7), Vec::<usize>::new());
    }
}
