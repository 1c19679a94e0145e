//! Any implementation over the corpus: every vector test its family can state as a campaign
//! input is run through the implementation (registered or given on the command line) and held
//! to the test's expectation, with counts per file and per category and every failure.

use std::collections::BTreeMap;
use std::path::Path;

use crate::bugs::{self, Bug, BugKey, Observation};
use crate::family::Family;
use crate::impls::Implementation;
use crate::manifest::Manifest;
use crate::outcome::Outcome;
use crate::vector::{excerpt, Expectation, Head, VectorFile};

pub use crate::vector::Replay;

/// The categories a test is counted under, keyed by what their rule rests on, with the
/// clause that states it: a library's parser leniency is not blamed on its canonicalization.
pub const CATEGORIES: [(&str, &str); 7] = [
    ("grammar", "RFC 8259: JSON text, UTF-8 (§2, §8.1)"),
    (
        "I-JSON",
        "RFC 7493 §2, by RFC 8785 §3.1: unique names, no lone surrogates, doubles",
    ),
    ("limits", "RFC 8259 §9: nesting an implementation may limit"),
    (
        "numbers",
        "RFC 8785 §3.2.2.3: ECMAScript number serialization",
    ),
    (
        "ordering",
        "RFC 8785 §3.2.3: members sorted by UTF-16 code units",
    ),
    ("escapes", "RFC 8785 §3.2.2.2: string escapes"),
    ("documents", "RFC 8785 §3.2: whole documents"),
];

/// The category a test is counted under: rejections by the error kind they state (or the
/// words of their flags), the rest by the words of their flags.
pub fn category(head: &Head, error_kind: Option<&str>) -> &'static str {
    let has = |words: &[&str]| {
        head.flags
            .iter()
            .any(|f| words.iter().any(|w| f.to_lowercase().contains(w)))
    };
    if head.result == Expectation::Invalid {
        return match error_kind {
            Some("duplicate_key" | "lone_surrogate" | "number_out_of_range") => "I-JSON",
            Some("depth_limit") => "limits",
            Some(_) => "grammar",
            None if has(&["duplicate", "surrogate", "range", "i-json", "ijson"]) => "I-JSON",
            None if has(&["depth", "nesting"]) => "limits",
            None => "grammar",
        };
    }
    if has(&["number", "tie", "appendixb"]) {
        "numbers"
    } else if has(&["order"]) {
        "ordering"
    } else if has(&["escape"]) {
        "escapes"
    } else {
        "documents"
    }
}

/// A test the implementation did not pass.
#[derive(Debug, Clone)]
pub struct Miss {
    /// The file, relative to the corpus.
    pub file: String,
    /// The test.
    pub tc_id: u64,
    /// Its comment.
    pub comment: String,
    /// Its flags.
    pub flags: Vec<String>,
    /// The input, shortened.
    pub input: String,
    /// What the test expects.
    pub expected: String,
    /// What the implementation answered.
    pub got: String,
    /// The test as replayed, whole.
    pub replay: Replay,
    /// The answer, whole.
    pub outcome: Outcome,
    /// The category it is counted under.
    pub category: &'static str,
}

impl Miss {
    /// The miss of `test` in `file`, replayed as `replay`, answered with `outcome`.
    pub fn new(file: &str, test: &Head, replay: &Replay, outcome: &Outcome) -> Miss {
        Miss {
            file: file.to_string(),
            tc_id: test.tc_id,
            comment: test.comment.clone(),
            flags: test.flags.clone(),
            input: excerpt(&replay.input),
            expected: expected(replay),
            got: outcome.to_string(),
            replay: replay.clone(),
            outcome: outcome.clone(),
            category: category(test, replay.error_kind.as_deref()),
        }
    }

    /// The miss as an observation of `implementation`'s bugs: what the test asks of the
    /// answer, as an outcome (a rejection of kind `""` where any will do, an empty output
    /// where any acceptance will), against the answer.
    pub fn observation(&self, implementation: &str) -> Observation {
        let expected = match (self.replay.result, &self.replay.output) {
            (Expectation::Valid, Some(out)) => Outcome::Ok(out.clone()),
            (Expectation::Valid, None) => Outcome::Ok(Vec::new()),
            (Expectation::Invalid, _) => {
                Outcome::Rejected(self.replay.error_kind.clone().unwrap_or_default())
            }
            // Either answer will do: only a crash misses, whatever is written here.
            (Expectation::Acceptable, _) => Outcome::Rejected(String::new()),
        };
        Observation {
            implementation: implementation.to_string(),
            input: self.replay.input.clone(),
            expected,
            actual: self.outcome.clone(),
            category: self.category.to_string(),
            vector: Some(self.file.clone()),
            cases: 1,
            new: false,
            first_met: None,
        }
    }

    /// The miss as JSON, for `report --json`.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "file": self.file,
            "tcId": self.tc_id,
            "flags": self.flags,
            "input": self.input,
            "expected": self.expected,
            "got": self.got,
        })
    }
}

/// Passed and run, for a file or a category.
pub type Counts = (u64, u64);

/// A test that was run, passed or not.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ran {
    /// The file, relative to the corpus.
    pub file: String,
    /// The test.
    pub tc_id: u64,
    /// Its comment.
    pub comment: String,
}

/// What an implementation did over the corpus.
#[derive(Debug, Clone, Default)]
pub struct Replayed {
    /// Per file: passed and run.
    pub files: BTreeMap<String, Counts>,
    /// Per category: passed and run.
    pub categories: BTreeMap<&'static str, Counts>,
    /// Tests it could not be given (unsupported) or that no campaign input states.
    pub left_out: u64,
    /// Every test it was run on, in corpus order.
    pub ran: Vec<Ran>,
    /// Every test it did not pass.
    pub misses: Vec<Miss>,
    /// Every rejection test it passed refusing for another problem than the one the test
    /// names: no bug, but listed as a campaign lists it.
    pub renamed: Vec<Miss>,
}

impl Replayed {
    /// Passed and run over every file.
    pub fn total(&self) -> Counts {
        self.files
            .values()
            .fold((0, 0), |(p, r), (fp, fr)| (p + fp, r + fr))
    }

    /// The bugs its misses show, most severe first, `implementation` of `family` named as
    /// the one observed; a test that any rejection passes stands for the problem `core`
    /// names in its input, and a miss on an input its host parser reads otherwise is settled
    /// by running both on what that parser hands it ([`crate::settle`]).
    pub fn bugs(
        &self,
        family: Family,
        implementation: &dyn Implementation,
        core: &dyn Implementation,
    ) -> Vec<(Bug, Vec<&Miss>)> {
        let name = implementation.name();
        let mut observations: Vec<Observation> = self
            .misses
            .iter()
            .chain(&self.renamed)
            .map(|m| m.observation(name))
            .collect();
        let open: Vec<usize> = (0..observations.len())
            .filter(|&i| observations[i].expected == Outcome::Rejected(String::new()))
            .collect();
        for chunk in open.chunks(256) {
            let inputs: Vec<&[u8]> = chunk
                .iter()
                .map(|&i| observations[i].input.as_slice())
                .collect();
            for (&i, answer) in chunk.iter().zip(core.run_batch(&inputs)) {
                let named = bugs::named_rejection(observations[i].expected.clone(), Some(&answer));
                observations[i].expected = named;
            }
        }
        let ask = |_: &str, inputs: &[&[u8]]| {
            Some(
                core.run_batch(inputs)
                    .into_iter()
                    .zip(implementation.run_batch(inputs))
                    .collect(),
            )
        };
        let observations = crate::settle::settle(family, observations, &ask);
        let keys: Vec<Option<BugKey>> = observations.iter().map(|o| bugs::key(family, o)).collect();
        bugs::group(family, observations)
            .into_iter()
            .map(|bug| {
                let misses = self
                    .misses
                    .iter()
                    .zip(&keys)
                    .filter(|(_, k)| k.as_ref() == Some(&bug.key))
                    .map(|(m, _)| m)
                    .collect();
                (bug, misses)
            })
            .collect()
    }
}

/// What `replay` expects, in words or as an excerpt of its output.
pub fn expected(replay: &Replay) -> String {
    match (replay.result, &replay.output) {
        (Expectation::Invalid, _) => "a rejection".to_string(),
        (Expectation::Acceptable, _) => "either".to_string(),
        (Expectation::Valid, Some(out)) => excerpt(out),
        (Expectation::Valid, None) => "an acceptance".to_string(),
    }
}

/// Runs `implementation`, one of `family`, over every test of the family's files in the
/// corpus at `dir`.
pub fn replay_corpus(
    family: Family,
    implementation: &dyn Implementation,
    dir: &Path,
) -> Result<Replayed, String> {
    let manifest = Manifest::read(dir)?;
    let mut replayed = Replayed::default();
    for entry in manifest.files_of(family.schema()) {
        let file = VectorFile::read(&dir.join(&entry.path))?;
        let mut cases = Vec::new();
        for test in file.tests() {
            match family.replay(test) {
                Some(replay) => cases.push((test, replay)),
                None => replayed.left_out += 1,
            }
        }
        for chunk in cases.chunks(256) {
            let inputs: Vec<&[u8]> = chunk.iter().map(|(_, r)| r.input.as_slice()).collect();
            for ((test, replay), outcome) in chunk.iter().zip(implementation.run_batch(&inputs)) {
                if outcome == Outcome::Unsupported {
                    replayed.left_out += 1;
                    continue;
                }
                let passed = replay.passes(&outcome);
                for counts in [
                    replayed.files.entry(entry.path.clone()).or_default(),
                    replayed
                        .categories
                        .entry(category(test, replay.error_kind.as_deref()))
                        .or_default(),
                ] {
                    counts.0 += u64::from(passed);
                    counts.1 += 1;
                }
                replayed.ran.push(Ran {
                    file: entry.path.clone(),
                    tc_id: test.tc_id,
                    comment: test.comment.clone(),
                });
                let miss = || Miss::new(&entry.path, test, replay, &outcome);
                if !passed {
                    replayed.misses.push(miss());
                } else if let (Some(kind), Outcome::Rejected(_)) = (&replay.error_kind, &outcome) {
                    if !bugs::meets(&Outcome::Rejected(kind.clone()), &outcome) {
                        replayed.renamed.push(miss());
                    }
                }
            }
        }
    }
    Ok(replayed)
}
