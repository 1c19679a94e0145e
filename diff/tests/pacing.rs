//! Pacing, on a toy family whose workers are planted slow: every disagreement still reaches
//! every worker, every category still reaches each of them, their figures say what they
//! answered and why, and a planted core bug is found at the case it is found at when every
//! implementation answers every case.
//!
//! The family doubles a decimal number. The core, `mirror` and `twin` answer in process;
//! `mirror` shares code with the core and has its own bugs on numbers ending in 7 and in 99;
//! `twin` cannot read a number ending in 99. `tortoise` and `snail` are workers that take a
//! while over every input; `tortoise` has its own bug on numbers ending in 3, which only a
//! worker can see.

use std::collections::BTreeMap;
use std::time::Duration;

use canonfuzz_diff::campaign::{self, Config, Status, Summary};
use canonfuzz_diff::compare::Rules;
use canonfuzz_diff::family::{Category, CheckTest, Facts, Family, Spec, Vectors};
use canonfuzz_diff::impls::in_process::InProcess;
use canonfuzz_diff::impls::Implementation;
use canonfuzz_diff::mutants::Mutant;
use canonfuzz_diff::outcome::Outcome;
use canonfuzz_diff::vector::OutputTest;
use canonfuzz_rng::Rng;

const PLAIN: Category = Category::new("plain", "A number of up to five digits.");
const RARE: Category = Category::new("rare", "A number of nine digits, one case in fifty.");
static CATEGORIES: [Category; 2] = [PLAIN, RARE];

fn number(input: &[u8]) -> Option<u64> {
    std::str::from_utf8(input).ok()?.parse().ok()
}

fn doubled(input: &[u8]) -> Outcome {
    match number(input) {
        Some(n) => Outcome::Ok((2 * n).to_string().into_bytes()),
        None => Outcome::Rejected("number".to_string()),
    }
}

fn ends_in(input: &[u8], digit: u8) -> bool {
    input.last() == Some(&digit)
}

/// Doubles, except that a number ending in 7 comes out one more, and one ending in 99 two
/// more.
fn mirror(input: &[u8]) -> Outcome {
    match (doubled(input), number(input)) {
        (Outcome::Ok(_), Some(n)) if ends_in(input, b'7') => {
            Outcome::Ok((2 * n + 1).to_string().into_bytes())
        }
        (Outcome::Ok(_), Some(n)) if input.ends_with(b"99") => {
            Outcome::Ok((2 * n + 2).to_string().into_bytes())
        }
        (answer, _) => answer,
    }
}

/// Doubles, but cannot read a number ending in 99.
fn twin(input: &[u8]) -> Outcome {
    if input.ends_with(b"99") {
        Outcome::Unsupported
    } else {
        doubled(input)
    }
}

/// A worker planted slow: `delay` over every input.
struct Slow {
    name: &'static str,
    delay: Duration,
    answer: fn(&[u8]) -> Outcome,
}

impl Implementation for Slow {
    fn name(&self) -> &str {
        self.name
    }
    fn version(&self) -> String {
        "1".to_string()
    }
    fn group(&self) -> &str {
        self.name
    }
    fn in_process(&self) -> bool {
        false
    }
    fn run_batch(&self, inputs: &[&[u8]]) -> Vec<Outcome> {
        std::thread::sleep(self.delay * inputs.len() as u32);
        inputs.iter().map(|i| (self.answer)(i)).collect()
    }
}

/// Doubles, except that a number ending in 3 is refused.
fn tortoise(input: &[u8]) -> Outcome {
    if ends_in(input, b'3') {
        Outcome::Rejected("number".to_string())
    } else {
        doubled(input)
    }
}

/// The core doubling a number ending in 5 to one less; the core copying `mirror`, which it
/// shares code with, on numbers ending in 99.
static MUTANTS: [Mutant; 2] = [
    Mutant {
        family: FAMILY,
        name: "fives-short",
        bug: "a number ending in 5 is doubled to one less",
        answer: |input| match (doubled(input), number(input)) {
            (Outcome::Ok(_), Some(n)) if ends_in(input, b'5') => {
                Outcome::Ok((2 * n - 1).to_string().into_bytes())
            }
            (answer, _) => answer,
        },
    },
    Mutant {
        family: FAMILY,
        name: "copies-mirror",
        bug: "a number ending in 99 is doubled to two more, as mirror does",
        answer: |input| {
            if input.ends_with(b"99") {
                mirror(input)
            } else {
                doubled(input)
            }
        },
    },
];

/// The family, its workers taking `delay` over every input.
struct Doubling {
    delay: Duration,
}
static DOUBLING: Doubling = Doubling {
    delay: Duration::from_micros(100),
};
const FAMILY: Family = Family::new(&DOUBLING);
/// The same family with workers that take no time of their own.
static QUICK: Doubling = Doubling {
    delay: Duration::ZERO,
};

const FACTS: Facts = Facts {
    name: "doubling",
    title: "doublers",
    schema: "canonfuzz_test_doubling_v1",
    vector_kind: ("doubling", "Doubling"),
    categories: &CATEGORIES,
    fields: &[],
    reference_reason: "the core's answer",
    shares_with_core: &["mirror"],
    sample_percent: 10,
    nightly_weight: 10,
    nightly_rate: 1000,
    decisions: &["accepted", "number"],
};

impl Spec for Doubling {
    fn facts(&self) -> &'static Facts {
        &FACTS
    }

    fn generate(&self, seed: u64, index: u64) -> (Category, Vec<u8>) {
        let mut rng = Rng::for_case(seed, index);
        if rng.chance(2) {
            let n = 100_000_000 + rng.index(900_000_000) as u64;
            (RARE, n.to_string().into_bytes())
        } else {
            (PLAIN, (rng.index(100_000) as u64).to_string().into_bytes())
        }
    }

    fn implementations(&self) -> Vec<Box<dyn Implementation>> {
        let delay = self.delay;
        vec![
            Box::new(InProcess::core(doubled)),
            Box::new(InProcess {
                name: "mirror",
                krate: "mirror",
                version: "1",
                group: "mirror",
                answer: mirror,
            }),
            Box::new(InProcess {
                name: "twin",
                krate: "twin",
                version: "1",
                group: "twin",
                answer: twin,
            }),
            Box::new(Slow {
                name: "tortoise",
                delay,
                answer: tortoise,
            }),
            Box::new(Slow {
                name: "snail",
                delay,
                answer: doubled,
            }),
        ]
    }

    fn rules(&self) -> Rules {
        Rules {
            family: "doubling",
            policies: &[],
            reference_group: "snail",
        }
    }

    fn vectors(&self) -> &dyn CheckTest {
        self
    }

    fn mutants(&self) -> &'static [Mutant] {
        &MUTANTS
    }
}

impl Vectors for Doubling {
    type Test = OutputTest;

    fn lint(&self, _test: &OutputTest) -> Vec<String> {
        Vec::new()
    }

    fn check(&self, _test: &OutputTest) -> Result<(), String> {
        Ok(())
    }
}

/// A campaign of `cases` cases, paced unless `every_case`, with `plant` in the core's place.
fn campaign(cases: u64, every_case: bool, plant: Option<&'static Mutant>) -> Summary {
    campaign::run(&config(cases, every_case, plant)).unwrap()
}

fn config(cases: u64, every_case: bool, plant: Option<&'static Mutant>) -> Config {
    Config {
        family: FAMILY,
        cases: Some(cases),
        duration: None,
        seed: 1,
        jobs: 2,
        impls: Vec::new(),
        with: Vec::new(),
        out: None,
        shard: (0, 1),
        progress: false,
        allow_missing: false,
        known: None,
        plant,
        registry: canonfuzz_diff::families::all(),
        every_case,
        fail_fast: false,
    }
}

/// The cases in which `group` answered, per verdict or category, as the campaign counted them.
fn answered_by(votes: &BTreeMap<String, u64>, group: &str) -> u64 {
    votes.get(group).copied().unwrap_or(0)
}

/// For every verdict other than "all agree", each worker answered every case of it.
fn every_disagreement_judged_by_every_worker(summary: &Summary) {
    for (verdict, votes) in &summary.voters {
        if *verdict == "agree" {
            continue;
        }
        for worker in WORKERS {
            assert_eq!(
                answered_by(votes, worker),
                summary.verdicts[verdict],
                "{verdict}: {worker}"
            );
        }
    }
}

const CASES: u64 = 40_000;
const WORKERS: [&str; 2] = ["tortoise", "snail"];

#[test]
fn a_slow_worker_answers_every_disagreement_and_a_sample_of_every_category() {
    let summary = campaign(CASES, false, None);
    assert_eq!(summary.cases, CASES);
    assert_eq!(summary.unpaced, None);
    // The plant is slow: neither worker could answer every case.
    for worker in WORKERS {
        let answered: u64 = summary
            .categories
            .values()
            .map(|c| answered_by(&c.voters, worker))
            .sum();
        assert!(answered < CASES / 2, "{worker}: {answered}");
    }
    // Every case on which the implementations in process disagree (mirror's numbers ending
    // in 7), and every one on which a worker's sample disagreed (tortoise's ending in 3), was
    // judged with both workers' answers.
    let sevens = (0..CASES)
        .filter(|&i| ends_in(&DOUBLING.generate(1, i).1, b'7'))
        .count() as u64;
    let differing = summary.cases - summary.verdicts.get("agree").copied().unwrap_or(0);
    assert!(sevens > 1_000 && differing > sevens, "{sevens} {differing}");
    every_disagreement_judged_by_every_worker(&summary);
    // Every category reached every worker, the rare one included.
    for category in &CATEGORIES {
        let votes = &summary.categories[category.name].voters;
        for worker in WORKERS {
            assert!(answered_by(votes, worker) > 0, "{category:?} {votes:?}");
        }
    }
    assert_eq!(summary.status(), Status::Clean);
}

#[test]
fn a_worker_s_figures_say_what_it_answered_and_why() {
    let summary = campaign(CASES, false, None);
    for stats in &summary.impls {
        match stats.name.as_str() {
            "core" | "mirror" | "twin" => assert_eq!(stats.pace, None, "{stats:?}"),
            worker => {
                let pace = stats.pace.unwrap();
                let counted: u64 = summary
                    .categories
                    .values()
                    .map(|c| answered_by(&c.voters, worker))
                    .sum();
                assert_eq!(pace.answered(), counted, "{worker}");
                assert_eq!(pace.answered() + pace.passed, CASES, "{worker}");
                assert!(pace.escalated > 0 && pace.sampled > 0 && pace.passed > 0);
                // Its agreement is over the cases it answered.
                assert!(stats.answered <= pace.answered(), "{stats:?}");
            }
        }
    }
    let text = canonfuzz_diff::summary::render(
        &summary,
        canonfuzz_diff::summary::Detail::Normal,
        canonfuzz_diff::summary::Paint::for_terminal(false),
        None,
    );
    assert!(text.contains("paced: "), "{text}");
    assert!(text.lines().any(|l| l.starts_with("tortoise ")), "{text}");
    assert!(text.lines().all(|l| l.chars().count() <= 80), "{text}");
}

#[test]
fn every_case_asks_every_worker_every_case() {
    let summary = campaign(4_000, true, None);
    assert_eq!(summary.unpaced, Some("--every-case"));
    for votes in summary.categories.values() {
        for worker in WORKERS {
            assert_eq!(answered_by(&votes.voters, worker), votes.cases);
        }
    }
    assert!(summary.impls.iter().all(|s| s.pace.is_none()));
}

#[test]
fn a_planted_core_bug_is_found_at_the_case_every_case_finds_it() {
    let first = |every_case: bool| {
        let summary = campaign(CASES, every_case, Some(&MUTANTS[0]));
        assert_eq!(summary.status(), Status::CoreDiverges);
        summary
            .findings
            .iter()
            .filter(|f| f.evaluation.verdict.name() == "core_diverges")
            .map(|f| f.case)
            .min()
            .unwrap()
    };
    let paced = first(false);
    assert_eq!(paced, first(true));
    // The first number ending in 5 among the cases.
    let expected = (0..CASES)
        .find(|&i| ends_in(&DOUBLING.generate(1, i).1, b'5'))
        .unwrap();
    assert_eq!(paced, expected);
}

#[test]
fn a_core_divergence_holds_new_cases_back_and_stopping_judges_no_disagreement_partly() {
    let summary = campaign::run(&Config {
        fail_fast: true,
        ..config(CASES, false, Some(&MUTANTS[0]))
    })
    .unwrap();
    assert_eq!(summary.status(), Status::CoreDiverges);
    // The cases on which the core diverged held new cases back until every worker had
    // judged them, and the campaign stopped at the first so judged: a few batches of 1,024
    // were run, where without the hold the campaign runs on while the workers judge.
    assert!(summary.cases <= 5 * 1024, "{}", summary.cases);
    every_disagreement_judged_by_every_worker(&summary);
}

/// What a campaign decided, apart from how long it took: every finding (its signature, first
/// case, count and minimized input), the cases per verdict and who voted, and how each worker
/// met the cases.
fn decided(summary: &Summary) -> String {
    let findings: Vec<String> = summary
        .findings
        .iter()
        .map(|f| {
            format!(
                "{} at {} x{}: {:?}",
                f.signature, f.case, f.count, f.minimized
            )
        })
        .collect();
    let paces: Vec<String> = summary
        .impls
        .iter()
        .map(|s| {
            let p = s.pace.unwrap_or_default();
            format!(
                "{} {} {} {} {}/{}",
                s.name, p.escalated, p.sampled, p.passed, s.agreed, s.answered
            )
        })
        .collect();
    format!(
        "{findings:#?}\n{:?}\n{:?}\n{:?}\n{paces:#?}",
        summary.verdicts, summary.voters, summary.categories
    )
}

#[test]
fn two_paced_runs_of_one_seed_decide_alike_whatever_their_pace() {
    // One campaign whose workers are slow and run on one thread, one whose workers take no
    // time of their own: the workers keep another pace against the implementations in
    // process, and the campaigns decide the same.
    let slow = campaign::run(&Config {
        jobs: 1,
        ..config(CASES, false, None)
    })
    .unwrap();
    let quick = campaign::run(&Config {
        family: Family::new(&QUICK),
        ..config(CASES, false, None)
    })
    .unwrap();
    assert_eq!(slow.unpaced, None);
    assert_eq!(decided(&slow), decided(&quick));
    // tortoise's own bug, which only a worker sees, is met in both.
    assert!(quick
        .findings
        .iter()
        .any(|f| f.evaluation.diverging.contains(&"tortoise".to_string())));
}

#[test]
fn a_core_that_copies_a_library_it_shares_code_with_is_judged_by_every_worker() {
    // On numbers ending in 99 the mutant answers as mirror, which shares code with the core,
    // and twin, the one independent voice in process, cannot answer: the answers in process
    // agree, and the case still goes to every worker, so the bug is found where asking
    // everyone finds it.
    let mutant = &MUTANTS[1];
    let first = |every_case: bool| {
        let summary = campaign(CASES, every_case, Some(mutant));
        assert_eq!(summary.status(), Status::CoreDiverges);
        summary
            .findings
            .iter()
            .filter(|f| f.evaluation.verdict.name() == "core_diverges")
            .map(|f| (f.case, f.count))
            .min()
            .unwrap()
    };
    let expected = (0..CASES)
        .find(|&i| DOUBLING.generate(1, i).1.ends_with(b"99"))
        .unwrap();
    let paced = first(false);
    assert_eq!(paced.0, expected);
    assert_eq!(paced, first(true));
}
