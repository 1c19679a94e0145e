//! Ratios measured in pairs. The core and the others take turns in short slices, and each
//! slice of another is set against the mean of the core's slices on either side of it. On a
//! shared machine a neighbour's load drifts over seconds: timing each implementation alone,
//! one after the other, lets that drift into the ratio, while alternating puts both sides of
//! every ratio under nearly the same load, and a drift that is steady over a round cancels.

use std::time::{Duration, Instant};

use crate::canonicalizers::Contender;

/// A ratio's spread over the rounds: median, quartiles and extremes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Spread {
    /// The median, the figure a target is checked against.
    pub median: f64,
    /// The first and third quartiles.
    pub q1: f64,
    /// See [`Spread::q1`].
    pub q3: f64,
    /// The lowest and highest.
    pub min: f64,
    /// See [`Spread::min`].
    pub max: f64,
}

impl Spread {
    /// The spread of `values`; NaN throughout when there are none.
    pub fn of(values: &[f64]) -> Spread {
        let mut sorted = values.to_vec();
        sorted.sort_by(f64::total_cmp);
        let at = |q: f64| {
            let place = q * sorted.len().saturating_sub(1) as f64;
            let low = place.floor() as usize;
            match (sorted.get(low), sorted.get(place.ceil() as usize)) {
                (Some(a), Some(b)) => a + (b - a) * (place - low as f64),
                _ => f64::NAN,
            }
        };
        Spread {
            median: at(0.5),
            q1: at(0.25),
            q3: at(0.75),
            min: at(0.0),
            max: at(1.0),
        }
    }
}

/// What [`rounds`] measured.
#[derive(Debug)]
pub struct Rounds {
    /// The core's time in each of its slices, one more than the rounds.
    pub core: Vec<f64>,
    /// For each other contender, its time over the core's in each round.
    pub ratios: Vec<Vec<f64>>,
}

/// Runs `rounds` rounds over the core and `others` other contenders, `time(None)` timing a
/// slice of the core and `time(Some(i))` one of the i-th other: the core, then the others in
/// an order that rotates from round to round, then the core again, which also opens the next
/// round.
pub fn rounds<F>(others: usize, rounds: usize, mut time: F) -> Result<Rounds, String>
where
    F: FnMut(Option<usize>) -> Result<f64, String>,
{
    let mut core = vec![time(None)?];
    let mut ratios = vec![Vec::with_capacity(rounds); others];
    for round in 0..rounds {
        let mut times = vec![f64::NAN; others];
        for k in 0..others {
            let i = (round + k) % others;
            if let Some(slot) = times.get_mut(i) {
                *slot = time(Some(i))?;
            }
        }
        let before = core.last().copied().unwrap_or(f64::NAN);
        let after = time(None)?;
        core.push(after);
        for (ratio, t) in ratios.iter_mut().zip(times) {
            ratio.push(t / ((before + after) / 2.0));
        }
    }
    Ok(Rounds { core, ratios })
}

/// The time one run of `contender` over `doc` takes, from as many runs as fill a slice of
/// `length` (at least one).
pub fn slice(contender: &mut Contender, doc: &[u8], length: Duration) -> Result<f64, String> {
    let started = Instant::now();
    let mut runs = 0u32;
    while runs == 0 || started.elapsed() < length {
        if !(contender.run)(doc) {
            return Err(format!("{} refused a benchmark document", contender.name));
        }
        runs += 1;
    }
    Ok(started.elapsed().as_secs_f64() / f64::from(runs))
}

/// [`rounds`] of `contenders` over `doc`, the first of them the core, in slices of `length`,
/// after one slice of every contender to warm it up; `round_done` is called once a round,
/// for a progress bar.
pub fn measure(
    contenders: &mut [Contender],
    doc: &[u8],
    count: usize,
    length: Duration,
    mut round_done: impl FnMut(),
) -> Result<Rounds, String> {
    for contender in contenders.iter_mut() {
        slice(contender, doc, length)?;
    }
    let (core, others) = contenders.split_first_mut().ok_or("no contenders")?;
    let last = others.len().checked_sub(1);
    rounds(others.len(), count, |who| {
        let contender = match who {
            None => &mut *core,
            Some(i) => others.get_mut(i).ok_or("no such contender")?,
        };
        let time = slice(contender, doc, length);
        if who.is_some() && who == last {
            round_done();
        }
        time
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A machine whose load rises steadily: every slice takes longer than the one before by
    /// the same step, whoever runs in it.
    fn drifting(costs: Vec<f64>) -> impl FnMut(Option<usize>) -> Result<f64, String> {
        let mut load = 1.0;
        move |who| {
            load += 0.25;
            let cost = who.map_or(Some(&1.0), |i| costs.get(i)).copied();
            cost.map(|c| c * load)
                .ok_or_else(|| "no such contender".to_string())
        }
    }

    #[test]
    fn a_steady_drift_in_load_does_not_move_a_paired_ratio() {
        // Two others three and five times the core's cost. Timed alone, one after the other,
        // the drift would put them at very different ratios; in pairs, the core's slices on
        // either side of one other bracket its load exactly when it runs midway between them.
        let measured = rounds(1, 20, drifting(vec![3.0])).unwrap();
        assert_eq!(measured.core.len(), 21);
        for r in &measured.ratios[0] {
            assert!((r - 3.0).abs() < 1e-9, "{r}");
        }
        let measured = rounds(2, 20, drifting(vec![3.0, 5.0])).unwrap();
        let medians: Vec<f64> = measured
            .ratios
            .iter()
            .map(|r| Spread::of(r).median)
            .collect();
        for (median, cost) in medians.iter().zip([3.0, 5.0]) {
            assert!((median - cost).abs() / cost < 0.1, "{medians:?}");
        }
    }

    #[test]
    fn every_contender_is_timed_once_a_round_and_the_core_between_rounds() {
        let mut seen = Vec::new();
        rounds(3, 2, |who| {
            seen.push(who);
            Ok(1.0)
        })
        .unwrap();
        let (c, o) = (None, Some);
        assert_eq!(seen, vec![c, o(0), o(1), o(2), c, o(1), o(2), o(0), c]);
    }

    #[test]
    fn the_spread_is_read_from_the_sorted_values() {
        let spread = Spread::of(&[5.0, 1.0, 4.0, 2.0, 3.0]);
        assert_eq!(
            spread,
            Spread {
                median: 3.0,
                q1: 2.0,
                q3: 4.0,
                min: 1.0,
                max: 5.0
            }
        );
        assert_eq!(Spread::of(&[1.0, 2.0]).median, 1.5);
        assert!(Spread::of(&[]).median.is_nan());
    }

    /// A contender that counts its runs in `runs` and accepts while `accepts` says so.
    fn counting(
        name: &'static str,
        runs: std::rc::Rc<std::cell::Cell<u32>>,
        accepts: bool,
    ) -> Contender {
        Contender {
            name,
            run: Box::new(move |_| {
                runs.set(runs.get() + 1);
                accepts
            }),
        }
    }

    #[test]
    fn measuring_warms_every_contender_up_and_reports_each_round_once() {
        let counts: Vec<_> = (0..3)
            .map(|_| std::rc::Rc::new(std::cell::Cell::new(0)))
            .collect();
        let mut contenders: Vec<Contender> = ["core", "a", "b"]
            .into_iter()
            .zip(&counts)
            .map(|(name, runs)| counting(name, runs.clone(), true))
            .collect();
        let mut reported = 0;
        // A zero-length slice is one run, so the counts are the slices.
        let measured =
            measure(&mut contenders, b"[]", 4, Duration::ZERO, || reported += 1).unwrap();
        assert_eq!(reported, 4);
        assert_eq!(measured.core.len(), 5);
        assert_eq!(measured.ratios.len(), 2);
        // One warm-up slice each; the core opens and closes every round, the others run once
        // a round.
        let runs: Vec<u32> = counts.iter().map(|c| c.get()).collect();
        assert_eq!(runs, [1 + 5, 1 + 4, 1 + 4]);
    }

    #[test]
    fn a_contender_that_refuses_the_document_is_named() {
        let runs = std::rc::Rc::new(std::cell::Cell::new(0));
        let mut contenders = vec![
            counting("core", runs.clone(), true),
            counting("picky", runs, false),
        ];
        let error = measure(&mut contenders, b"[]", 2, Duration::ZERO, || {}).unwrap_err();
        assert_eq!(error, "picky refused a benchmark document");
    }
}
