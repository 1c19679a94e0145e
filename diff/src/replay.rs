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

/// A vector test as a campaign input, and what any implementation must answer to it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Replay {
    /// The campaign input.
    pub input: Vec<u8>,
    /// Accept, reject, or either.
    pub result: Expectation,
    /// The output an acceptance must carry, when the test states one.
    pub output: Option<Vec<u8>>,
    /// The error kind a rejection names, when the test states one.
    pub error_kind: Option<String>,
}

impl Replay {
    /// Whether `outcome` is what the test expects. Any rejection passes a rejection test:
    /// third parties' error kinds are only approximated.
    pub fn passes(&self, outcome: &Outcome) -> bool {
        let output_holds = |out: &Vec<u8>| self.output.as_ref().is_none_or(|want| want == out);
        match (self.result, outcome) {
            (Expectation::Valid | Expectation::Acceptable, Outcome::Ok(out)) => output_holds(out),
            (Expectation::Invalid | Expectation::Acceptable, Outcome::Rejected(_)) => true,
            _ => false,
        }
    }
}

/// The replay of a test whose input yields an output or a rejection by its bytes alone.
pub fn output_replay(test: &crate::vector::Test) -> Option<Replay> {
    let test: crate::vector::OutputTest = test.read().ok()?;
    Some(Replay {
        input: test.input_bytes().ok()?,
        result: test.result,
        output: test.expected.map(String::into_bytes),
        error_kind: test.error_kind,
    })
}

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
    /// names in its input.
    pub fn bugs(
        &self,
        family: Family,
        implementation: &str,
        core: &dyn Implementation,
    ) -> Vec<(Bug, Vec<&Miss>)> {
        let mut observations: Vec<Observation> = self
            .misses
            .iter()
            .map(|m| m.observation(implementation))
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

/// The implementation `spec` names: a registered one by name (in `family`, or in the one
/// family that has it), or `NAME[@GROUP]=COMMAND`, a command of `family` (default JCS) that
/// speaks the worker protocol.
pub fn resolve(
    spec: &str,
    family: Option<Family>,
) -> Result<(Family, Box<dyn Implementation>), String> {
    if spec.contains('=') {
        let external = crate::impls::External::parse(spec)?;
        return Ok((
            family.unwrap_or(crate::families::jcs::FAMILY),
            external.implementation(),
        ));
    }
    let searched: Vec<Family> = family.map_or_else(|| Family::all().to_vec(), |f| vec![f]);
    let mut found: Vec<(Family, Box<dyn Implementation>)> = searched
        .iter()
        .flat_map(|f| {
            f.implementations()
                .into_iter()
                .filter(|i| i.name() == spec)
                .map(|i| (*f, i))
        })
        .collect();
    match found.len() {
        1 => Ok(found.remove(0)),
        0 => Err(format!(
            "no implementation is named {spec:?}{}; give one a family lists (canonfuzz diff \
             --family F names them in its summary), or NAME=COMMAND for your own",
            family.map_or(String::new(), |f| format!(" in the {} family", f.name()))
        )),
        _ => Err(format!(
            "{spec:?} names an implementation in the families {}; choose one with --family",
            found
                .iter()
                .map(|(f, _)| f.name())
                .collect::<Vec<_>>()
                .join(", ")
        )),
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
                if !passed {
                    replayed
                        .misses
                        .push(Miss::new(&entry.path, test, replay, &outcome));
                }
            }
        }
    }
    Ok(replayed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::families::{ed25519, jcs, jws};
    use crate::mutants::find;

    fn corpus() -> std::path::PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus")
    }

    #[test]
    fn the_core_passes_every_test_it_is_given_and_a_mutant_does_not() {
        for family in crate::family::Family::all() {
            let core = family.implementations().remove(0);
            let replayed = replay_corpus(*family, core.as_ref(), &corpus()).unwrap();
            let (passed, run) = replayed.total();
            assert!(run > 0, "{family:?} replayed nothing");
            assert_eq!(passed, run, "{family:?}: {:?}", replayed.misses.first());
        }
        let mutant = find(jcs::FAMILY, "utf8-member-order").unwrap();
        let replayed = replay_corpus(jcs::FAMILY, &mutant.implementation(), &corpus()).unwrap();
        assert!(!replayed.misses.is_empty());
        assert!(replayed.categories["ordering"].0 < replayed.categories["ordering"].1);
        // Its misses are one bug: the order RFC 8785 §3.2.3 asks for, broken one way.
        let core = jcs::FAMILY.implementations().remove(0);
        let bugs = replayed.bugs(jcs::FAMILY, "mutant", core.as_ref());
        assert_eq!(bugs.len(), 1, "{bugs:#?}");
        let (bug, misses) = &bugs[0];
        assert_eq!(bug.key.rule, "ordering");
        assert_eq!(misses.len(), replayed.misses.len());
        assert_eq!(bug.cases as usize, misses.len());
    }

    #[test]
    fn a_library_is_not_held_to_what_its_host_parser_lost() {
        // serde_jcs is given serde_json's value, which keeps the last of duplicate names:
        // the duplicate-name tests it misses are serde_json's bug, not its own.
        let (_, library) = resolve("serde_jcs", Some(jcs::FAMILY)).unwrap();
        let replayed = replay_corpus(jcs::FAMILY, library.as_ref(), &corpus()).unwrap();
        let core = jcs::FAMILY.implementations().remove(0);
        let bugs = replayed.bugs(jcs::FAMILY, "serde_jcs", core.as_ref());
        let duplicates = bugs
            .iter()
            .find(|(b, _)| b.key.shape == "accepts a duplicate member name")
            .map(|(b, _)| b)
            .unwrap();
        assert_eq!(duplicates.key.blamed, "serde_json");
        assert!(bugs
            .iter()
            .all(|(b, _)| b.key.blamed != "serde_jcs" || b.key.rule != "I-JSON"));
    }

    #[test]
    fn a_lax_verifier_fails_the_edge_cases_it_accepts() {
        let lax = ed25519::impls::dalek_verify();
        let replayed = replay_corpus(ed25519::FAMILY, &lax, &corpus()).unwrap();
        assert!(replayed.misses.iter().any(|m| m.file.contains("speccheck")));
        let strict = jws::impls::core();
        let replayed = replay_corpus(jws::FAMILY, &strict, &corpus()).unwrap();
        assert!(
            replayed.left_out > 0,
            "the thumbprint tests state no campaign input"
        );
    }
}
