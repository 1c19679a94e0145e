//! A family defined outside the harness runs through every generic part of it: the campaign
//! (generation, comparison, minimizing, saving vectors), the corpus check of those vectors and
//! the self-test's hunt for a planted mutant. The family is a toy (hex text normalized to
//! lowercase, by the core and by two independent decoders written here), so what is shown is
//! that one `Spec` implementation is all a family needs.

use canonfuzz_diff::campaign::{self, Config, Status};
use canonfuzz_diff::compare::{Excuse, Expect, Policy, Rules};
use canonfuzz_diff::family::{Category, CheckTest, Facts, Family, Field, Spec, Vectors};
use canonfuzz_diff::findings::{output_test, stated_kind};
use canonfuzz_diff::impls::in_process::InProcess;
use canonfuzz_diff::impls::Implementation;
use canonfuzz_diff::mutants::Mutant;
use canonfuzz_diff::outcome::Outcome;
use canonfuzz_diff::replay::{output_replay, Replay};
use canonfuzz_diff::selftest::hunt;
use canonfuzz_diff::vector::{Head, OutputTest, Test, VectorFile};
use canonfuzz_diff::vector_check::{check_with_core, lint_output_test};
use canonfuzz_props::read::for_judgment::Unreadable;
use canonfuzz_rng::Rng;

const WELL_FORMED: Category = Category::new("hex_well_formed", "Hex text of random bytes.");
const DAMAGED: Category = Category {
    name: "hex_damaged",
    description: "Hex text with an odd length, a sign or a character that is not hex.",
    malformed: true,
};
static CATEGORIES: [Category; 2] = [WELL_FORMED, DAMAGED];
static FIELDS: [Field; 1] = [Field {
    name: "digits",
    read_by: "the core's normalizer",
    varied_by: &CATEGORIES,
    values: Some(|input| vec![String::from_utf8_lossy(input).into_owned()]),
}];

static HEX: Hex = Hex(&POLICIES);
const FAMILY: Family = Family::new(&HEX);
/// The same family with a policy whose predicate cannot read what it is asked about.
static HEX_UNREAD: Hex = Hex(&UNREADABLE);
const UNREAD: Family = Family::new(&HEX_UNREAD);

/// Every nibble of `text`, or `None` where a character is not a hex digit.
fn nibbles(text: &[u8]) -> Option<Vec<u8>> {
    text.iter()
        .map(|&c| (c as char).to_digit(16).map(|d| d as u8))
        .collect()
}

/// Hex text in lowercase, or the rejection of text that is not an even number of hex digits.
fn core(input: &[u8]) -> Outcome {
    match nibbles(input) {
        Some(n) if n.len() % 2 == 0 => Outcome::Ok(input.to_ascii_lowercase()),
        _ => Outcome::Rejected("hex".to_string()),
    }
}

/// Decodes with `u8::from_str_radix`, which also takes a sign before a digit.
fn radix(input: &[u8]) -> Outcome {
    let pairs: Option<Vec<u8>> = input
        .chunks(2)
        .map(|pair| {
            let text = std::str::from_utf8(pair).ok().filter(|t| t.len() == 2)?;
            u8::from_str_radix(text, 16).ok()
        })
        .collect();
    match pairs {
        Some(bytes) => Outcome::Ok(lowercase_hex(&bytes)),
        None => Outcome::Rejected("other".to_string()),
    }
}

/// Decodes by table, pair by pair; a pair may be a `+` and one digit, as `from_str_radix`
/// reads it.
fn table(input: &[u8]) -> Outcome {
    let digit = |c: u8| (c as char).to_digit(16).map(|d| d as u8);
    let pairs: Option<Vec<u8>> = input
        .chunks(2)
        .map(|pair| match pair {
            [b'+', low] => digit(*low),
            [high, low] => Some(digit(*high)? * 16 + digit(*low)?),
            _ => None,
        })
        .collect();
    match pairs {
        Some(bytes) => Outcome::Ok(lowercase_hex(&bytes)),
        None => Outcome::Rejected("other".to_string()),
    }
}

fn lowercase_hex(bytes: &[u8]) -> Vec<u8> {
    bytes
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect::<String>()
        .into_bytes()
}

/// The core accepting an odd number of digits, as if a leading zero were implied.
static MUTANTS: [Mutant; 1] = [Mutant {
    family: FAMILY,
    name: "odd-length-accepted",
    bug: "an odd number of digits is read as if it had a leading zero",
    answer: |input| match nibbles(input) {
        Some(n) if n.len() % 2 == 1 => {
            Outcome::Ok([b"0", &input.to_ascii_lowercase()[..]].concat())
        }
        _ => core(input),
    },
}];

static POLICIES: [Policy; 1] = [Policy {
    id: "no-sign",
    core: Expect::RejectsAny,
    excuses: Excuse::ACCEPTING,
    applies: |input| Ok(input.contains(&b'+')),
    reason: "hex digits carry no sign; a decoder that takes one reads two texts as one value",
}];

/// The sign policy, with a predicate that fails to read every input that has a sign.
static UNREADABLE: [Policy; 1] = [Policy {
    id: "no-sign",
    core: Expect::RejectsAny,
    excuses: Excuse::ACCEPTING,
    applies: |input| {
        if input.contains(&b'+') {
            Err(Unreadable("a planted reading failure".to_string()))
        } else {
            Ok(false)
        }
    },
    reason: "hex digits carry no sign",
}];

/// The family, with its policies.
struct Hex(&'static [Policy]);

/// The family's constant facts.
const FACTS: Facts = Facts {
    name: "hex",
    title: "hex normalizers",
    schema: "canonfuzz_test_hex_v1",
    vector_kind: ("hex", "HexNormalize"),
    categories: &CATEGORIES,
    fields: &FIELDS,
    reference_reason: "the table decoder's answer",
    shares_with_core: &[],
    sample_percent: 10,
    nightly_weight: 10,
    nightly_rate: 1000,
    decisions: &[],
};

impl Spec for Hex {
    fn facts(&self) -> &'static Facts {
        &FACTS
    }

    fn generate(&self, seed: u64, index: u64) -> (Category, Vec<u8>) {
        let mut rng = Rng::for_case(seed, index);
        let len = rng.index(6) * 2;
        let mut text: Vec<u8> = (0..len)
            .map(|_| rng.pick(b"0123456789abcdefABCDEF"))
            .collect();
        if rng.chance(40) {
            match rng.index(3) {
                0 => text.push(b'7'),
                1 => text.splice(0..0, *b"+1").for_each(drop),
                _ => text.push(rng.pick(b"gz ")),
            }
            (DAMAGED, text)
        } else {
            (WELL_FORMED, text)
        }
    }

    fn implementations(&self) -> Vec<Box<dyn Implementation>> {
        vec![
            Box::new(InProcess::core(core)),
            Box::new(InProcess {
                name: "radix",
                krate: "std",
                version: "1",
                group: "radix",
                answer: radix,
            }),
            Box::new(InProcess {
                name: "table",
                krate: "table",
                version: "1",
                group: "table",
                answer: table,
            }),
        ]
    }

    fn rules(&self) -> Rules {
        Rules {
            family: "hex",
            policies: self.0,
            reference_group: "table",
        }
    }

    fn test_for(&self, head: Head, input: &[u8], want: &Outcome) -> Option<Test> {
        output_test(head, input, want, stated_kind(want))
    }

    fn vectors(&self) -> &dyn CheckTest {
        self
    }

    fn replay(&self, test: &Test) -> Option<Replay> {
        output_replay(test)
    }

    fn mutants(&self) -> &'static [Mutant] {
        &MUTANTS
    }

    fn selftest_budget(&self) -> u64 {
        500
    }
}

impl Vectors for Hex {
    type Test = OutputTest;

    fn lint(&self, test: &OutputTest) -> Vec<String> {
        lint_output_test(test)
    }

    fn check(&self, test: &OutputTest) -> Result<(), String> {
        check_with_core(FAMILY, test)
    }
}

/// A campaign of 2,000 cases of `family`, saving into `out` if given.
fn campaign_of(family: Family, out: Option<&std::path::Path>) -> campaign::Summary {
    campaign::run(&Config {
        family,
        cases: Some(2_000),
        duration: None,
        seed: 1,
        jobs: 2,
        impls: Vec::new(),
        with: Vec::new(),
        out: out.map(std::path::Path::to_path_buf),
        shard: (0, 1),
        progress: false,
        allow_missing: false,
        known: None,
        plant: None,
        registry: canonfuzz_diff::families::all(),
        every_case: false,
        fail_fast: false,
    })
    .unwrap()
}

#[test]
fn a_family_outside_the_registry_runs_a_whole_campaign() {
    let corpus = tempfile::tempdir().unwrap();
    let summary = campaign_of(FAMILY, Some(corpus.path()));
    assert_eq!(summary.cases, 2_000);
    assert_eq!(
        summary.verdicts.get("core_diverges"),
        None,
        "{:?}",
        summary.verdicts
    );
    // The decoders read a sign the core refuses: the registered policy.
    assert!(
        summary.verdicts.get("policy").is_some_and(|&n| n > 0),
        "{:?}",
        summary.verdicts
    );
    assert!(summary.quorum.absent().is_empty());
    let saved: Vec<_> = std::fs::read_dir(corpus.path().join("hex/findings"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert!(!saved.is_empty());
    for path in &saved {
        let file = VectorFile::read(path).unwrap();
        assert_eq!(file.schema, "canonfuzz_test_hex_v1");
        for test in file.tests() {
            let checked = FAMILY.vectors().check_test(test);
            assert!(
                checked.problems.is_empty(),
                "{}: {:?}",
                path.display(),
                checked.problems
            );
            assert_eq!(checked.passed, Ok(()), "{}", path.display());
        }
    }
}

#[test]
fn a_case_a_predicate_cannot_read_fails_the_campaign_as_the_harness_s_own_fault() {
    // The same cases: where the predicate reads, the sign is a registered policy and the
    // campaign is clean; where it cannot, the cases it was asked about are unjudged, never
    // "does not apply", and the campaign fails with exit status 2.
    let read = campaign_of(FAMILY, None);
    let unread = campaign_of(UNREAD, None);
    assert_eq!(read.status(), Status::Clean);
    let policy = read.verdicts.get("policy").copied().unwrap_or(0);
    assert!(policy > 0, "{:?}", read.verdicts);
    assert_eq!(unread.verdicts.get("unjudged").copied(), Some(policy));
    assert_eq!(unread.verdicts.get("policy"), None);
    assert_eq!(unread.status(), Status::Unjudged);
    assert_eq!(unread.status().exit_code(), 2);
    let why = canonfuzz_diff::summary::harness_failure(&unread).unwrap();
    assert!(
        why.contains("the no-sign predicate could not read case")
            && why.contains("a planted reading failure"),
        "{why}"
    );
    // No finding of it is remembered as a finding: it is the harness's failure.
    assert!(unread
        .findings
        .iter()
        .all(|f| f.vector.is_none() || f.evaluation.verdict.name() != "unjudged"));
}

#[test]
fn the_selftest_finds_a_mutant_of_a_family_outside_the_registry() {
    let report = hunt(FAMILY, &MUTANTS, 1, false).unwrap();
    assert_eq!(report.found(), 1);
    assert!(report.mutants[0].passed(), "{:?}", report.mutants[0]);
    assert_eq!(
        report.mutants[0].minimized.len(),
        1,
        "{:?}",
        report.mutants[0]
    );
}
