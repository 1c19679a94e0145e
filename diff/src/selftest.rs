//! Proof that the harness works: it is run with planted mutants of the core standing in for the
//! core, and must tell each one apart from the real core — a case on which the mutant's
//! disagreement signature differs from the core's, which a campaign would save as a new
//! finding — within a bounded number of cases, and minimize that case to a few bytes.

use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::campaign::{Harness, BATCH};
use crate::compare::{evaluate, Member};
use crate::family::Family;
use crate::gen::jcs_case;
use crate::impls::{CoreImpl, Implementation};
use crate::mutants::{MutantImpl, Mutation};
use crate::outcome::Outcome;
use crate::shrink::minimize;

/// Cases within which every mutant must be detected.
pub const MAX_CASES: u64 = 10_000;
/// Largest minimized input accepted as proof.
pub const MAX_MINIMIZED: usize = 64;

/// What the self-test found for one mutant.
#[derive(Debug, Clone)]
pub struct MutantReport {
    /// The mutant.
    pub mutation: Mutation,
    /// Cases run until the first that told it apart, if one did.
    pub detected_after: Option<u64>,
    /// That case, minimized.
    pub minimized: Vec<u8>,
    /// The mutant's signature on the minimized case.
    pub signature: String,
}

impl MutantReport {
    /// Detected within the bound and minimized small enough.
    pub fn passed(&self) -> bool {
        self.detected_after.is_some_and(|n| n <= MAX_CASES) && self.minimized.len() <= MAX_MINIMIZED
    }
}

/// The third-party implementations with the core (or a mutant in its place) in front.
struct Bench {
    others: Harness,
    members: Vec<Member>,
}

impl Bench {
    /// Signatures of the core and of `mutant` on each input.
    fn signatures(&self, mutant: &MutantImpl, inputs: &[&[u8]]) -> Vec<(String, String)> {
        let third = self.others.outcomes(inputs);
        let core = CoreImpl.run_batch(inputs);
        let planted = mutant.run_batch(inputs);
        third
            .into_iter()
            .zip(core.into_iter().zip(planted))
            .zip(inputs)
            .map(|((rest, (c, m)), input)| {
                let with = |first: Outcome| {
                    let mut all = vec![first];
                    all.extend(rest.iter().cloned());
                    evaluate(Family::Jcs, input, &self.members, &all).signature
                };
                (with(c), with(m))
            })
            .collect()
    }
}

/// The outcome of a self-test run.
#[derive(Debug, Clone)]
pub struct SelftestRun {
    /// One report per mutant.
    pub reports: Vec<MutantReport>,
    /// Implementations that could not run here, with why.
    pub missing: Vec<(String, String)>,
    /// Wall time.
    pub elapsed: Duration,
}

/// Runs every mutant against the available third-party implementations.
pub fn run(seed: u64) -> Result<SelftestRun, String> {
    let started = Instant::now();
    let core = CoreImpl;
    let third: Vec<String> = crate::impls::jcs()
        .iter()
        .map(|i| i.name().to_string())
        .filter(|n| n != core.name())
        .collect();
    let (full, missing) = Harness::new(Family::Jcs, &third)?;
    let members: Vec<Member> = full.members().to_vec();
    let others = Harness::with(
        Family::Jcs,
        full.into_implementations()
            .into_iter()
            .filter(|i| i.name() != core.name())
            .collect(),
    );
    let bench = Bench { others, members };
    let reports = Mutation::ALL
        .into_iter()
        .map(|m| hunt(&bench, m, seed))
        .collect();
    Ok(SelftestRun {
        reports,
        missing,
        elapsed: started.elapsed(),
    })
}

/// Runs cases until one tells the mutant apart from the core, then minimizes it.
fn hunt(bench: &Bench, mutation: Mutation, seed: u64) -> MutantReport {
    let mutant = MutantImpl::new(mutation);
    let mut report = MutantReport {
        mutation,
        detected_after: None,
        minimized: Vec::new(),
        signature: String::new(),
    };
    let mut start = 0;
    while start < MAX_CASES {
        let end = (start + BATCH).min(MAX_CASES);
        let inputs: Vec<Vec<u8>> = (start..end).map(|i| jcs_case(seed, i).1).collect();
        let refs: Vec<&[u8]> = inputs.iter().map(Vec::as_slice).collect();
        let signatures = bench.signatures(&mutant, &refs);
        if let Some(i) = signatures.iter().position(|(c, m)| c != m) {
            let target = signatures[i].1.clone();
            let mut judge = |candidates: &[Vec<u8>]| {
                let refs: Vec<&[u8]> = candidates.iter().map(Vec::as_slice).collect();
                bench
                    .signatures(&mutant, &refs)
                    .into_iter()
                    .map(|(c, m)| m == target && c != m)
                    .collect()
            };
            report.detected_after = Some(start + i as u64 + 1);
            report.minimized = minimize(&inputs[i], &mut judge, 4_000);
            report.signature = bench.signatures(&mutant, &[&report.minimized]).remove(0).1;
            break;
        }
        start = end;
    }
    report
}

impl SelftestRun {
    /// Whether every mutant was detected within the bounds.
    pub fn passed(&self) -> bool {
        self.reports.iter().all(MutantReport::passed)
    }

    /// The reports as a table.
    pub fn render(&self) -> String {
        let mut out = String::new();
        for (name, why) in &self.missing {
            out.push_str(&format!("WARNING: {name} did not run: {why}\n"));
        }
        out.push_str(&format!(
            "{:<24} {:<9} {:>7} {:>6}  minimized input\n",
            "mutant", "detected", "cases", "bytes"
        ));
        for r in &self.reports {
            out.push_str(&format!(
                "{:<24} {:<9} {:>7} {:>6}  {}\n",
                r.mutation.name(),
                if r.passed() { "yes" } else { "NO" },
                r.detected_after.map_or("-".to_string(), |n| n.to_string()),
                r.minimized.len(),
                crate::vector::excerpt(&r.minimized)
            ));
        }
        let passed = self.reports.iter().filter(|r| r.passed()).count();
        out.push_str(&format!(
            "\n{passed} of {} mutants detected within {MAX_CASES} cases and minimized to at most {MAX_MINIMIZED} bytes ({:.1}s)\n",
            self.reports.len(),
            self.elapsed.as_secs_f64()
        ));
        out
    }

    /// The reports as JSON.
    pub fn to_json(&self) -> Value {
        json!({
            "missing": self.missing.iter().map(|(n, w)| json!({"name": n, "reason": w})).collect::<Vec<_>>(),
            "mutants": self.reports.iter().map(|r| json!({
                "mutant": r.mutation.name(),
                "detected": r.passed(),
                "cases_until_detection": r.detected_after,
                "minimized_bytes": r.minimized.len(),
                "minimized_hex": crate::vector::to_hex(&r.minimized),
                "signature": r.signature,
            })).collect::<Vec<_>>(),
        })
    }
}
