//! Blame by experiment. An implementation driven through a host parser never sees what that
//! parser dropped: given `{"a":"\ud800","a":0}`, a library behind `JSON.parse` is handed
//! `{"a":0}`, and its acceptance says nothing of lone surrogates. Before a difference is
//! labelled and blamed, the implementation is run on what its host parser hands it
//! ([`crate::family::Spec::host_reading`]) and judged there: if it answers as the rules do,
//! the difference is the parser's departure; if not, the bug is its own, shown on an input
//! its parser reads as the rules do.

use std::collections::BTreeMap;

use crate::bugs::{meets, named_rejection, Observation};
use crate::family::Family;
use crate::harness::Harness;
use crate::outcome::Outcome;

/// Answers of the core and of the implementation named, to each input, in order; `None` when
/// the implementation cannot be asked.
pub type Ask<'a> = dyn Fn(&str, &[&[u8]]) -> Option<Vec<(Outcome, Outcome)>> + 'a;

/// `observations`, each whose implementation's host parser reads its input otherwise settled
/// by running the core and the implementation on what that parser hands it: an implementation
/// that answers as the rules do there shows the parser's departure (its expected answer
/// becomes that departure, which blames the parser); one that does not shows a bug of its own,
/// and the observation becomes that input with both answers to it. Crashes, hangs and
/// observations where the rules accept are left as they are.
pub fn settle(
    family: Family,
    mut observations: Vec<Observation>,
    ask: &Ask<'_>,
) -> Vec<Observation> {
    let mut readings: BTreeMap<String, Vec<(usize, crate::family::HostReading)>> = BTreeMap::new();
    for (i, o) in observations.iter().enumerate() {
        let settles = matches!(o.expected, Outcome::Rejected(_))
            && matches!(o.actual, Outcome::Ok(_) | Outcome::Rejected(_));
        if let Some(reading) = settles
            .then(|| family.host_reading(&o.implementation, &o.input))
            .flatten()
        {
            readings
                .entry(o.implementation.clone())
                .or_default()
                .push((i, reading));
        }
    }
    for (implementation, readings) in readings {
        let inputs: Vec<&[u8]> = readings.iter().map(|(_, r)| r.input.as_slice()).collect();
        let Some(answers) = ask(&implementation, &inputs) else {
            continue;
        };
        for ((i, reading), (core, actual)) in readings.iter().zip(answers) {
            let Some(o) = observations.get_mut(*i) else {
                continue;
            };
            let expected = named_rejection(core.clone(), Some(&core));
            if meets(&expected, &actual) {
                o.expected = reading.departure.clone();
            } else {
                o.input = reading.input.clone();
                o.expected = expected;
                o.actual = actual;
            }
        }
    }
    observations
}

/// [`settle`], asking `harness` (of the observations' family).
pub fn settle_with(harness: &Harness, observations: Vec<Observation>) -> Vec<Observation> {
    let names: Vec<&str> = harness.implementations().iter().map(|i| i.name()).collect();
    let core = names.iter().position(|n| *n == crate::compare::CORE);
    let ask = |implementation: &str, inputs: &[&[u8]]| {
        let core = core?;
        let library = names.iter().position(|n| *n == implementation)?;
        harness
            .outcomes_of(inputs, |k| k == core || k == library)
            .into_iter()
            .map(|outcomes| Some((outcomes.get(core)?.clone(), outcomes.get(library)?.clone())))
            .collect()
    };
    settle(harness.family(), observations, &ask)
}
