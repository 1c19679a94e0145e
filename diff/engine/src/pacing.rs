//! Every implementation at its own pace, with every verdict fixed by the seed. The
//! implementations in process (the core among them) answer every case as it is generated and
//! set the campaign's rate; each worker, or host of workers, is a lane that answers at its own
//! pace. Which cases the lanes answer is decided from the answers in process alone, so it is a
//! function of the seed, the case index and the family's sampling share, never of the clock:
//!
//! - a case is escalated to every lane unless the answers in process all agree and an
//!   independent voice is among them, one implementation whose group is neither the core's nor
//!   one that shares code with the core ([`crate::family::Facts::shares_with_core`]): a core
//!   bug that copies a library it shares code with agrees with that library, and only another
//!   voice can contradict it;
//! - of the rest, every lane answers the family's share, chosen from each batch one case of
//!   each stratum in turn (a stratum is a generator category and the core's answer class, the
//!   stratum it starts from moving on with every batch), so that rare categories and rare
//!   answers reach the workers in every campaign; a lane of an implementation given with
//!   `--with`, the one under test, answers every case.
//!
//! A case on which the answers so far say the core diverges goes to the front of every lane's
//! queue and holds new cases back until it is judged, so that a core bug is judged as soon as
//! asking everyone would judge it. A lane is never idle while it is owed a case; the campaign
//! waits for a lane when it owes more than [`PENDING_AT_MOST`] cases, so a slow worker sets
//! how long a campaign takes, never what it finds. A case is judged once every lane has
//! answered it or passed it by.

use std::collections::{BTreeMap, HashMap, VecDeque};
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

/// Cases a lane may owe before new cases wait for it.
pub const PENDING_AT_MOST: usize = 32 * ROUND;

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
    /// Waiting its turn: escalated (`true`) or sampled (`false`).
    Owed(bool),
    /// Being answered: escalated (`true`) or sampled (`false`).
    Asked(bool),
    /// Answered.
    Answered,
}

/// A case some lane has still to answer or pass by.
struct Pending {
    case: Case,
    outcomes: Vec<Outcome>,
    evaluation: Evaluation,
    /// Escalated: no lane may leave it unanswered.
    escalated: bool,
    /// Escalated because the answers in process say the core diverges.
    urgent: bool,
    turns: Vec<Turn>,
}

impl Pending {
    fn settled(&self) -> bool {
        self.turns
            .iter()
            .all(|t| matches!(t, Turn::Passed | Turn::Answered))
    }

    fn answered_by_a_lane(&self) -> bool {
        self.turns.contains(&Turn::Answered)
    }
}

/// One lane's queues and figures.
#[derive(Default)]
struct LaneState {
    /// Escalated cases on which the core's answer is in question, answered first.
    urgent: VecDeque<u64>,
    /// Every other case it is to answer, in the order published.
    owed: VecDeque<u64>,
    pace: Pace,
    in_flight: usize,
    since: Option<Instant>,
}

impl LaneState {
    fn pending(&self) -> usize {
        self.urgent.len() + self.owed.len()
    }
}

#[derive(Default)]
struct State {
    pending: HashMap<u64, Pending>,
    lanes: Vec<LaneState>,
    closed: bool,
    /// Pending cases on which the answers in process say the core diverges.
    urgent: usize,
}

/// The cases between the implementations in process and the lanes.
pub struct Board<'h> {
    harness: &'h Harness,
    fast: Vec<usize>,
    /// The implementations in process whose agreement is an independent voice.
    judges: Vec<usize>,
    core: Option<usize>,
    lanes: Vec<Vec<usize>>,
    /// Percent of the cases judged in process alone that every lane answers too.
    share: u32,
    /// Per lane, whether it answers every case: it holds an implementation under test.
    whole: Vec<bool>,
    state: Mutex<State>,
    changed: Condvar,
}

impl<'h> Board<'h> {
    /// The board for `harness`, the lanes of the implementations named in `under_test`
    /// answering every case, or why the campaign asks every implementation every case
    /// instead: every implementation runs in process, and so keeps up; or no implementation in
    /// process is independent of the core, and nothing there could tell a case worth
    /// escalating.
    pub fn new(harness: &'h Harness, under_test: &[String]) -> Result<Board<'h>, &'static str> {
        let impls = harness.implementations();
        let fast: Vec<usize> = (0..impls.len())
            .filter(|&k| impls.get(k).is_some_and(|i| i.in_process()))
            .collect();
        let members = harness.members();
        let core = members.iter().position(|m| m.name == CORE);
        let core_group = core.and_then(|k| members.get(k)).map(|m| m.group.as_str());
        let facts = harness.family().facts();
        let judges: Vec<usize> = fast
            .iter()
            .copied()
            .filter(|&k| {
                members.get(k).is_some_and(|m| {
                    Some(m.group.as_str()) != core_group
                        && !facts.shares_with_core.contains(&m.group.as_str())
                })
            })
            .collect();
        if judges.is_empty() {
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
        let whole = lanes
            .iter()
            .map(|lane| {
                lane.iter()
                    .filter_map(|&k| members.get(k))
                    .any(|m| under_test.contains(&m.name))
            })
            .collect();
        Ok(Board {
            harness,
            fast,
            judges,
            core,
            share: facts.sample_percent.min(100),
            whole,
            lanes,
            state: Mutex::new(state),
            changed: Condvar::new(),
        })
    }

    /// The lanes: each one's implementations, by index.
    pub fn lanes(&self) -> &[Vec<usize>] {
        &self.lanes
    }

    /// The percent of the cases judged in process alone that each lane answers too.
    pub fn share(&self) -> u32 {
        self.share
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

    /// Whether the answers in process settle a case without the lanes: they all agree, and an
    /// independent voice is among them.
    fn calm(&self, outcomes: &[Outcome], evaluation: &Evaluation) -> bool {
        evaluation.verdict == Verdict::Agree
            && self
                .judges
                .iter()
                .any(|&k| outcomes.get(k).is_some_and(Outcome::is_answer))
    }

    /// The stratum a calm case is sampled from: its category and the core's answer class.
    fn stratum(&self, case: &Case, outcomes: &[Outcome]) -> (&'static str, String) {
        let class = match self.core.and_then(|k| outcomes.get(k)) {
            Some(Outcome::Ok(_)) => "accepted".to_string(),
            Some(Outcome::Rejected(kind)) => kind.clone(),
            _ => "unanswered".to_string(),
        };
        (case.1.name, class)
    }

    /// A case judged by every answer it has: one a lane answered is judged again with them.
    fn judged(&self, case: Pending) -> Settled {
        let evaluation = if case.answered_by_a_lane() {
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

    /// Waits while a lane owes more cases than it may, or a case on which the core diverges
    /// is still to be judged by every lane (the cores are then the lanes'), unless `stop` says
    /// the campaign is stopping.
    pub fn wait_for_room(&self, stop: &dyn Fn() -> bool) {
        let Some(mut state) = self.lock() else { return };
        while !stop()
            && !state.closed
            && (state.urgent > 0 || state.lanes.iter().any(|l| l.pending() >= PENDING_AT_MOST))
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
        let escalated: Vec<bool> = judged
            .iter()
            .map(|(outcomes, evaluation)| !self.calm(outcomes, evaluation))
            .collect();
        let calm: Vec<(usize, (&'static str, String))> = cases
            .iter()
            .zip(&judged)
            .enumerate()
            .filter(|(at, _)| escalated.get(*at) == Some(&false))
            .map(|(at, (case, (outcomes, _)))| (at, self.stratum(case, outcomes)))
            .collect();
        let room = (calm.len() * self.share as usize).div_ceil(100);
        let mut sampled = vec![false; cases.len()];
        for at in spread(&calm, room, batch) {
            if let Some(s) = sampled.get_mut(at) {
                *s = true;
            }
        }
        let Some(mut state) = self.lock() else {
            return Vec::new();
        };
        let mut settled = Vec::new();
        for (at, (case, (outcomes, evaluation))) in cases.into_iter().zip(judged).enumerate() {
            let escalated = escalated.get(at).copied().unwrap_or(true);
            let asked = escalated || sampled.get(at).copied().unwrap_or(false);
            let urgent = escalated && about_the_core(&evaluation);
            let turns: Vec<Turn> = self
                .whole
                .iter()
                .map(|&whole| {
                    if asked || whole {
                        Turn::Owed(escalated)
                    } else {
                        Turn::Passed
                    }
                })
                .collect();
            for (lane, turn) in state.lanes.iter_mut().zip(&turns) {
                match turn {
                    Turn::Owed(_) if urgent => lane.urgent.push_back(case.0),
                    Turn::Owed(_) => lane.owed.push_back(case.0),
                    _ => lane.pace.passed += 1,
                }
            }
            let pending = Pending {
                turns,
                case,
                outcomes,
                evaluation,
                escalated,
                urgent,
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

    /// Lane `lane`'s next round: the urgent cases it owes first, then the rest in the order
    /// published, with each one's input; waits for one, and gives `None` once the board is
    /// closed and the lane owes nothing, or `stop` says the campaign is stopping.
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
            if state.closed {
                return None;
            }
            state = self.changed.wait_timeout(state, WAKE).ok()?.0;
        }
    }

    /// Lane `lane`'s answers to the round it took; gives back the cases it settles, judged
    /// with every answer they have.
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

    /// No more cases come: the lanes answer what they owe, and then stop.
    pub fn close(&self) {
        if let Some(mut state) = self.lock() {
            state.closed = true;
        }
        self.changed.notify_all();
    }

    /// What is left when a campaign stops before its lanes are done: each case that was not
    /// escalated, judged by the answers it has (a sample not yet answered is passed by), and
    /// how many escalated cases are dropped unjudged, since a disagreement is judged by every
    /// lane or not at all.
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

/// Takes lane `lane`'s next round from its queues: urgent cases first.
fn next_round(state: &mut State, lane: usize) -> Vec<(u64, Vec<u8>)> {
    let mut round = Vec::new();
    let State { pending, lanes, .. } = state;
    let Some(queues) = lanes.get_mut(lane) else {
        return round;
    };
    for queue in [&mut queues.urgent, &mut queues.owed] {
        while round.len() < ROUND {
            let Some(index) = queue.pop_front() else {
                break;
            };
            let Some(case) = pending.get_mut(&index) else {
                continue;
            };
            if let Some(turn) = case.turns.get_mut(lane) {
                if let Turn::Owed(escalated) = *turn {
                    *turn = Turn::Asked(escalated);
                    round.push((index, case.case.2.clone()));
                }
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

/// The sample of `cases` (each a position and its stratum) the lanes take from batch `batch`
/// with `room` for it: all of them when they fit, else one of each stratum in turn, lowest
/// position first, from the stratum `batch` picks, until the room is full.
pub fn spread<K: Ord + Clone>(cases: &[(usize, K)], room: usize, batch: u64) -> Vec<usize> {
    if cases.len() <= room {
        return cases.iter().map(|(at, _)| *at).collect();
    }
    let mut strata: BTreeMap<K, VecDeque<usize>> = BTreeMap::new();
    for (at, stratum) in cases {
        strata.entry(stratum.clone()).or_default().push_back(*at);
    }
    let mut strata: Vec<VecDeque<usize>> = strata.into_values().collect();
    if !strata.is_empty() {
        let first = (batch % strata.len() as u64) as usize;
        strata.rotate_left(first);
    }
    let mut chosen = Vec::with_capacity(room);
    while chosen.len() < room {
        let before = chosen.len();
        for members in strata.iter_mut() {
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
    fn a_sample_takes_every_stratum_in_turn() {
        let mut cases: Vec<(usize, &'static str)> = (0..100).map(|at| (at, "common")).collect();
        cases.extend((100..105).map(|at| (at, "rare")));
        cases.push((105, "rarest"));
        let chosen = spread(&cases, 9, 0);
        assert_eq!(chosen.len(), 9);
        let of = |stratum: &str| {
            chosen
                .iter()
                .filter(|at| cases.iter().any(|(a, c)| a == *at && *c == stratum))
                .count()
        };
        assert_eq!((of("common"), of("rare"), of("rarest")), (4, 4, 1));
        // Within a stratum, the lowest positions first.
        assert_eq!(chosen, [0, 1, 2, 3, 100, 101, 102, 103, 105]);
    }

    #[test]
    fn the_first_stratum_moves_on_with_each_batch() {
        let cases = [(0, "a"), (1, "b"), (2, "c")];
        let firsts: Vec<Vec<usize>> = (0..3).map(|batch| spread(&cases, 1, batch)).collect();
        assert_eq!(firsts, [vec![0], vec![1], vec![2]]);
    }

    #[test]
    fn a_sample_with_room_for_every_case_takes_every_case() {
        let cases = [(0, "a"), (1, "a"), (2, "b")];
        assert_eq!(spread(&cases, 3, 7), [0, 1, 2]);
        assert_eq!(spread(&cases, 0, 7), Vec::<usize>::new());
    }
}
