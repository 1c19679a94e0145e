//! From findings to bugs: the unit a person reads. A finding is one signature of answers over
//! every implementation; a bug is one thing one party does wrong — the implementation, or the
//! layer it is driven through, that caused it, the rule it breaks and the shape of the
//! difference — however many findings and vectors show it. The key is computed from the input
//! and the two answers alone, never from the list of implementations compared, so adding an
//! implementation changes no bug of the others.

use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use crate::compare::agree;
use crate::family::{Answer, Family};
use crate::findings::{Finding, ImplStats};
use crate::harness::Harness;
use crate::numbers::Exponents;
use crate::outcome::Outcome;
use crate::shrink::minimize;

pub use crate::difference::{Difference, Severity};

/// What identifies one bug.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct BugKey {
    /// How much it costs.
    pub severity: Severity,
    /// Who is to fix it: the implementation, or the layer it is driven through.
    pub blamed: String,
    /// The rule it breaks.
    pub rule: String,
    /// The shape of the difference.
    pub shape: String,
}

/// One implementation's answer that differs from the expected one, on one input.
#[derive(Debug, Clone)]
pub struct Observation {
    /// The implementation.
    pub implementation: String,
    /// The input.
    pub input: Vec<u8>,
    /// What it should have answered; a rejection of kind `""` stands for any rejection.
    pub expected: Outcome,
    /// What it answered.
    pub actual: Outcome,
    /// The rule to file it under when the family cannot tell one from the answers.
    pub category: String,
    /// The vector holding it, relative to the corpus.
    pub vector: Option<String>,
    /// The cases it stands for.
    pub cases: u64,
    /// Whether the corpus held no record of it.
    pub new: bool,
    /// When the campaign that made it first met its finding: the time since it started, and
    /// the cases it had judged.
    pub first_met: Option<(Duration, u64)>,
}

/// Whether `actual` is what `expected` asks for: equal, or a rejection where any will do.
pub fn meets(expected: &Outcome, actual: &Outcome) -> bool {
    agree(expected, actual)
        || matches!((expected, actual), (Outcome::Rejected(e), Outcome::Rejected(_)) if e.is_empty())
}

/// A crash message with its numbers and addresses blanked, so that the same panic on inputs of
/// other sizes is one bug.
fn crash_shape(message: &str) -> String {
    // What a message quotes (an input, a line answered) is the case's, not the bug's.
    let message = message
        .split('"')
        .next()
        .unwrap_or(message)
        .trim_end_matches([' ', ':']);
    let mut out = String::new();
    let mut digits = false;
    for c in message.chars().take(120) {
        if c.is_ascii_digit() {
            if !digits {
                out.push('N');
            }
            digits = true;
        } else {
            digits = false;
            out.push(c);
        }
    }
    out
}

/// The severity and the family-independent shape of a difference, or `None` when `actual`
/// meets `expected` or drops out of the comparison.
fn classify(expected: &Outcome, actual: &Outcome) -> Option<(Severity, String)> {
    if meets(expected, actual) {
        return None;
    }
    Some(match (expected, actual) {
        (_, Outcome::Unsupported)
        | (Outcome::Unsupported | Outcome::Crashed(_) | Outcome::TimedOut, _) => return None,
        (_, Outcome::Crashed(why)) => (Severity::Crash, format!("crashes: {}", crash_shape(why))),
        (_, Outcome::TimedOut) => (Severity::Crash, "does not answer in time".to_string()),
        (Outcome::Ok(_), Outcome::Ok(_)) => {
            (Severity::WrongBytes, "writes other bytes".to_string())
        }
        (Outcome::Rejected(kind), Outcome::Ok(_)) if kind == "depth_limit" => (
            Severity::AtLimit,
            "accepts nesting past the limit".to_string(),
        ),
        (Outcome::Rejected(kind), Outcome::Ok(_)) if kind.is_empty() => (
            Severity::AcceptsInvalid,
            "accepts what must be refused".to_string(),
        ),
        (Outcome::Rejected(kind), Outcome::Ok(_)) => (
            Severity::AcceptsInvalid,
            format!("accepts what is refused as {kind}"),
        ),
        (Outcome::Ok(_), Outcome::Rejected(kind)) if kind == "depth_limit" => (
            Severity::AtLimit,
            "refuses at its nesting limit".to_string(),
        ),
        (Outcome::Ok(_), Outcome::Rejected(kind)) => (
            Severity::RefusesValid,
            format!("refuses a valid input as {kind}"),
        ),
        (Outcome::Rejected(_), Outcome::Rejected(_)) => (
            Severity::OtherProblem,
            "refuses, naming another problem".to_string(),
        ),
    })
}

/// The bug `observation` shows, or `None` when its answer meets the expected one.
pub fn key(family: Family, observation: &Observation) -> Option<BugKey> {
    let (expected, actual) = (&observation.expected, &observation.actual);
    let (severity, generic) = classify(expected, actual)?;
    let answer = Answer {
        implementation: &observation.implementation,
        input: &observation.input,
        expected,
        actual,
    };
    let difference = family
        .difference(&answer)
        .filter(|_| severity != Severity::Crash);
    // A refusal naming another problem is filed under the rule of the problem expected, in
    // the generic words: which problem is named is no rule of the protocols.
    let (rule, shape) = match (severity, difference) {
        (Severity::OtherProblem, Some(d)) => (d.rule, generic),
        (_, Some(d)) => (d.rule, d.shape),
        (_, None) => (observation.category.clone(), generic),
    };
    Some(BugKey {
        severity,
        blamed: family.blame(&answer),
        rule,
        shape,
    })
}

/// One bug and everything that shows it.
#[derive(Debug, Clone)]
pub struct Bug {
    /// What identifies it.
    pub key: BugKey,
    /// The implementations that show it (more than one when a shared layer is blamed).
    pub implementations: BTreeSet<String>,
    /// The cases that showed it.
    pub cases: u64,
    /// The vectors that hold it, relative to the corpus.
    pub vectors: BTreeSet<String>,
    /// Its smallest example.
    pub example: Observation,
    /// Whether every observation of it is new: a bug met again in a new input stays known.
    pub new: bool,
    /// When a campaign first met it: the time since the campaign started, and the cases it
    /// had judged.
    pub first_met: Option<(Duration, u64)>,
    /// The exponents over which its example's number shows it, when bisection found where
    /// it starts.
    pub exponents: Option<Exponents>,
    /// Other behaviours of the same cause: bugs whose examples differed from its own only in
    /// a parameter of one number, from the same exponent on ([`one_per_cause`]).
    pub also: Vec<BugKey>,
}

/// A bug's example minimized for its implementation, with the exponents its number shows it
/// over when they were found.
#[derive(Debug, Clone)]
pub struct Smallest {
    /// The example.
    pub example: Observation,
    /// Where its number shows the bug.
    pub exponents: Option<Exponents>,
}

impl Bug {
    /// The bug with `smallest` as its example.
    pub fn shown_by(&mut self, smallest: Smallest) {
        self.example = smallest.example;
        self.exponents = smallest.exponents;
    }

    /// Its rule and shape, the words `vectors --allow` takes to allow it.
    pub fn allowance(&self) -> String {
        format!("{}: {}", self.key.rule, self.key.shape)
    }

    /// Whether `name` shows this bug or is blamed for it.
    pub fn concerns(&self, name: &str) -> bool {
        self.key.blamed == name || self.implementations.contains(name)
    }

    /// The bug as JSON, for `--summary-json` and `report --json`.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "severity": self.key.severity.name(),
            "blamed": self.key.blamed,
            "implementations": self.implementations,
            "rule": self.key.rule,
            "shape": self.key.shape,
            "cases": self.cases,
            "new": self.new,
            "vectors": self.vectors,
            "first_met_s": self.first_met.map(|(at, _)| at.as_secs_f64()),
            "first_met_cases": self.first_met.map(|(_, cases)| cases),
            "exponents": self.exponents.map(|e| e.words()),
            "also": self.also.iter().map(|k| k.shape.clone()).collect::<Vec<_>>(),
            "example": {
                "implementation": self.example.implementation,
                "input": String::from_utf8_lossy(&self.example.input),
                "input_hex": crate::vector::to_hex(&self.example.input),
                "expected": self.example.expected.to_json(),
                "actual": self.example.actual.to_json(),
            },
        })
    }
}

/// The earlier of two first meetings, by time.
fn earliest(a: Option<(Duration, u64)>, b: Option<(Duration, u64)>) -> Option<(Duration, u64)> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// The bugs `observations` show, most severe first, then by cases.
pub fn group(family: Family, observations: Vec<Observation>) -> Vec<Bug> {
    let mut bugs: BTreeMap<BugKey, Bug> = BTreeMap::new();
    for o in observations {
        let Some(key) = key(family, &o) else {
            continue;
        };
        match bugs.get_mut(&key) {
            Some(bug) => {
                bug.implementations.insert(o.implementation.clone());
                bug.cases += o.cases;
                bug.vectors.extend(o.vector.clone());
                bug.new &= o.new;
                bug.first_met = earliest(bug.first_met, o.first_met);
                let smaller =
                    (o.input.len(), &o.input) < (bug.example.input.len(), &bug.example.input);
                if smaller {
                    bug.example = o;
                }
            }
            None => {
                bugs.insert(
                    key.clone(),
                    Bug {
                        key,
                        implementations: BTreeSet::from([o.implementation.clone()]),
                        cases: o.cases,
                        vectors: o.vector.iter().cloned().collect(),
                        new: o.new,
                        first_met: o.first_met,
                        example: o,
                        exponents: None,
                        also: Vec::new(),
                    },
                );
            }
        }
    }
    let mut bugs: Vec<Bug> = bugs.into_values().collect();
    bugs.sort_by(|a, b| {
        (a.key.severity, std::cmp::Reverse(a.cases))
            .cmp(&(b.key.severity, std::cmp::Reverse(b.cases)))
    });
    bugs
}

/// One bug per cause: a bug whose example has a number shown to break from an exponent on is
/// merged into an earlier (more severe) bug of the same party whose example differs from its
/// own only in that number's parameters (its exponent, its runs of digits) and that breaks
/// from an exponent of the same magnitude — one cause crossing one threshold, whatever the value
/// it then misreads makes of the answer.
pub fn one_per_cause(bugs: Vec<Bug>) -> Vec<Bug> {
    let mut out: Vec<Bug> = Vec::with_capacity(bugs.len());
    for bug in bugs {
        let cause = |b: &Bug| {
            b.exponents.map(|e| {
                (
                    b.key.blamed.clone(),
                    crate::numbers::shape(&b.example.input),
                    e.from.abs(),
                )
            })
        };
        let same = cause(&bug).and_then(|c| out.iter().position(|o| cause(o) == Some(c.clone())));
        match same.and_then(|k| out.get_mut(k)) {
            Some(first) => {
                first.exponents = match (first.exponents, bug.exponents) {
                    (Some(a), Some(b)) => Some(a.union(b)),
                    (a, b) => a.or(b),
                };
                first.also.push(bug.key);
                first.implementations.extend(bug.implementations);
                first.cases += bug.cases;
                first.vectors.extend(bug.vectors);
                first.new &= bug.new;
                first.first_met = earliest(first.first_met, bug.first_met);
            }
            None => out.push(bug),
        }
    }
    out
}

/// `expected`, or where it is a rejection naming no problem (of any kind, as a policy about
/// which of several problems is named allows, or `other`, a kind no implementation mapped),
/// the core's rejection: the problem a bug is then said to be about.
pub fn named_rejection(expected: Outcome, core: Option<&Outcome>) -> Outcome {
    match (&expected, core) {
        (Outcome::Rejected(any), Some(Outcome::Rejected(kind)))
            if any.is_empty() || any == "other" =>
        {
            Outcome::Rejected(kind.clone())
        }
        _ => expected,
    }
}

/// Every implementation's answer in `findings` that differs from the finding's expected one,
/// over `impls` (the outcomes' order). A finding with no expected answer (no consensus) gives
/// only its crashes and hangs, which are bugs whatever the others answer.
pub fn observations(family: Family, findings: &[Finding], impls: &[ImplStats]) -> Vec<Observation> {
    let mut out = Vec::new();
    let core = impls.iter().position(|i| i.name == crate::compare::CORE);
    for f in findings {
        let core = core.and_then(|k| f.outcomes.get(k));
        let expected =
            crate::findings::expected(family, f, impls).map(|(o, _)| named_rejection(o, core));
        for (imp, actual) in impls.iter().zip(&f.outcomes) {
            let failed = matches!(actual, Outcome::Crashed(_) | Outcome::TimedOut);
            let expected = match &expected {
                Some(e) => e.clone(),
                None if failed => Outcome::Rejected(String::new()),
                None => continue,
            };
            out.push(Observation {
                implementation: imp.name.clone(),
                input: f.minimized.clone(),
                expected,
                actual: actual.clone(),
                category: f.category.name.to_string(),
                vector: f.vector.clone(),
                cases: f.count,
                new: f.new,
                first_met: Some(f.first_met),
            });
        }
    }
    out
}

/// Candidates the minimizer may try for one bug's example.
const BUDGET: usize = 2_000;

/// The smallest input on which the implementation of `bug`'s example still shows that bug,
/// found with `harness` (of the bug's family), the core's answer standing for the expected
/// one: the example a person fixing that implementation reads, its numbers the shortest
/// literals that show it where the family asks ([`crate::numbers`]). The example as it is when the core's answer
/// to it is not the one expected there (then there is nothing to judge candidates by).
pub fn smallest(harness: &Harness, bug: &Bug) -> Smallest {
    let family = harness.family();
    let names: Vec<&str> = harness.implementations().iter().map(|i| i.name()).collect();
    let unchanged = Smallest {
        example: bug.example.clone(),
        exponents: None,
    };
    let (Some(core), Some(library)) = (
        names.iter().position(|n| *n == crate::compare::CORE),
        names.iter().position(|n| *n == bug.example.implementation),
    ) else {
        return unchanged;
    };
    let ask = |inputs: &[Vec<u8>]| -> Vec<Option<(Observation, BugKey)>> {
        let refs: Vec<&[u8]> = inputs.iter().map(Vec::as_slice).collect();
        harness
            .outcomes_of(&refs, |k| k == core || k == library)
            .into_iter()
            .zip(inputs)
            .map(|(outcomes, input)| {
                let observation = Observation {
                    input: input.clone(),
                    expected: outcomes.get(core)?.clone(),
                    actual: outcomes.get(library)?.clone(),
                    ..bug.example.clone()
                };
                let key = key(family, &observation)?;
                Some((observation, key))
            })
            .collect()
    };
    let original = ask(std::slice::from_ref(&bug.example.input))
        .pop()
        .flatten();
    if original.as_ref().map(|(_, key)| key) != Some(&bug.key) {
        return unchanged;
    }
    // A candidate the library's host parser reads otherwise than the example hides what the
    // library was given behind what that parser dropped: its label is not to be trusted.
    let read_otherwise = |input: &[u8]| {
        family
            .host_reading(&bug.example.implementation, input)
            .is_some()
    };
    let example_read_otherwise = read_otherwise(&bug.example.input);
    let mut judge = |candidates: &[Vec<u8>]| -> Vec<bool> {
        ask(candidates)
            .into_iter()
            .zip(candidates)
            .map(|(seen, candidate)| {
                seen.is_some_and(|(_, key)| key == bug.key)
                    && read_otherwise(candidate) == example_read_otherwise
            })
            .collect()
    };
    // Cut by bytes, then by the parts of its numbers, and cut again where that made room.
    let mut input = minimize(&bug.example.input, &mut judge, BUDGET);
    let mut exponents = None;
    let rounds = if family.numbers_by_parts() { 2 } else { 0 };
    for _ in 0..rounds {
        let (refined, found) =
            crate::numbers::refine(&input, &mut |c| judge(&[c.to_vec()]).contains(&true));
        exponents = found.or(exponents);
        if refined == input {
            break;
        }
        input = minimize(&refined, &mut judge, BUDGET);
    }
    ask(&[input])
        .pop()
        .flatten()
        .filter(|(_, key)| *key == bug.key)
        .map_or(unchanged, |(example, _)| Smallest { example, exponents })
}

/// Characters of context shown before the first difference of two outputs.
const CONTEXT: usize = 10;

/// The expected and the actual answer as a person compares them: two outputs from a little
/// before the character where they first differ, an ellipsis marking a cut, with that
/// character's column in both; anything else in words, and no column.
pub fn parted(expected: &Outcome, actual: &Outcome) -> (String, String, Option<usize>) {
    let words = |o: &Outcome| match o {
        Outcome::Ok(bytes) => crate::vector::readable(bytes),
        Outcome::Rejected(k) if k.is_empty() => "a rejection".to_string(),
        Outcome::Rejected(k) => format!("error {k}"),
        Outcome::Crashed(why) => format!("crashed: {why}"),
        Outcome::TimedOut => "no answer in time".to_string(),
        Outcome::Unsupported => "unsupported".to_string(),
    };
    let (Outcome::Ok(a), Outcome::Ok(b)) = (expected, actual) else {
        return (words(expected), words(actual), None);
    };
    // Back to the start of the character the difference falls in, so both texts are cut on
    // the same character boundary.
    let mut at = first_difference(a, b);
    while at > 0 && a.get(at).is_some_and(|c| (0x80..0xc0).contains(c)) {
        at -= 1;
    }
    let before = crate::vector::readable(a.get(..at).unwrap_or(a))
        .chars()
        .count();
    let skip = before.saturating_sub(CONTEXT);
    let from = |text: &[u8]| {
        let cut: String = crate::vector::readable(text).chars().skip(skip).collect();
        if skip > 0 {
            format!("…{cut}")
        } else {
            cut
        }
    };
    let column = before - skip + usize::from(skip > 0);
    (from(a), from(b), Some(column))
}

/// The byte offset where `a` and `b` first differ.
pub fn first_difference(a: &[u8], b: &[u8]) -> usize {
    a.iter().zip(b).take_while(|(x, y)| x == y).count()
}
