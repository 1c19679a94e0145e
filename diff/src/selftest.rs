//! Proof that a campaign turns red on a wrong core: every family's planted mutants (see
//! [`crate::mutants`]) stand in for the core, in turn, among the family's implementations, on
//! the campaign's own generated cases. A mutant counts as found only on a case whose verdict
//! is "core diverges" — never policy, never agreement — where the real core's verdict is not;
//! that case is then minimized while it stays so. The score is found mutants over planted
//! ones, per family.

use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde_json::{json, Value};

use crate::campaign::{Harness, BATCH};
use crate::compare::{evaluate, Member, Verdict, CORE};
use crate::family::Family;
use crate::impls::Implementation;
use crate::mutants::Mutant;
use crate::outcome::Outcome;
use crate::shrink::minimize;

/// Candidates the minimizer may try per mutant.
const SHRINK_BUDGET: usize = 2_000;

/// What the self-test found for one mutant.
#[derive(Debug, Clone)]
pub struct MutantReport {
    /// The mutant.
    pub mutant: &'static Mutant,
    /// Cases run until the first on which it diverged, if one did.
    pub found_after: Option<u64>,
    /// That case, minimized.
    pub minimized: Vec<u8>,
    /// The disagreement signature with the mutant on the minimized case.
    pub signature: String,
}

impl MutantReport {
    /// Found within its family's budget, and minimized as far as the family's bound asks.
    pub fn passed(&self) -> bool {
        let family = self.mutant.family;
        self.found_after
            .is_some_and(|n| n <= family.selftest_budget())
            && family
                .minimized_bound()
                .is_none_or(|bound| self.beyond_nesting() <= bound)
    }

    /// The minimized input's length without two bytes for each level of its nesting.
    fn beyond_nesting(&self) -> usize {
        let depth = crate::reading::read(&self.minimized).depth;
        self.minimized.len().saturating_sub(2 * depth)
    }
}

/// What the self-test found for one family.
#[derive(Debug, Clone)]
pub struct FamilyReport {
    /// The family.
    pub family: Family,
    /// One report per mutant.
    pub mutants: Vec<MutantReport>,
    /// Cases generated.
    pub cases: u64,
    /// Implementations that could not run here, with why.
    pub missing: Vec<(String, String)>,
}

impl FamilyReport {
    /// Mutants found within the bounds.
    pub fn found(&self) -> usize {
        self.mutants.iter().filter(|r| r.passed()).count()
    }
}

/// The outcome of a self-test run.
#[derive(Debug, Clone)]
pub struct SelftestRun {
    /// One report per family.
    pub families: Vec<FamilyReport>,
    /// Wall time.
    pub elapsed: Duration,
}

/// The family's implementations other than the core, with the core's answers beside them: the
/// bench every mutant of the family is judged on.
struct Bench {
    family: Family,
    others: Harness,
    core: Box<dyn Implementation>,
    members: Vec<Member>,
}

impl Bench {
    fn new(family: Family) -> Result<(Bench, Vec<(String, String)>), String> {
        let (full, missing) = Harness::new(family, &[])?;
        let mut members: Vec<Member> = full.members().to_vec();
        let mut impls = full.into_implementations();
        let at = impls
            .iter()
            .position(|i| i.name() == CORE)
            .ok_or("the family has no core")?;
        let core = impls.remove(at);
        let core_member = members.remove(at);
        members.insert(0, core_member);
        let others = Harness::with(family, impls);
        let bench = Bench {
            family,
            others,
            core,
            members,
        };
        Ok((bench, missing))
    }

    /// Per input: whether the core diverges, and the evaluation with each of `stand_ins` in
    /// the core's place (its verdict and signature).
    fn judge(&self, inputs: &[&[u8]], stand_ins: &[&Mutant]) -> Vec<(bool, Vec<(bool, String)>)> {
        let third = self.others.outcomes(inputs);
        let core = self.core.run_batch(inputs);
        let planted: Vec<Vec<Outcome>> = stand_ins
            .iter()
            .map(|m| m.implementation().run_batch(inputs))
            .collect();
        let evaluate_with = |case: usize, first: &Outcome| {
            let mut all = vec![first.clone()];
            all.extend(third[case].iter().cloned());
            let e = evaluate(self.family, inputs[case], &self.members, &all);
            (e.verdict == Verdict::CoreDiverges, e.signature)
        };
        (0..inputs.len())
            .map(|case| {
                let (core_diverges, _) = evaluate_with(case, &core[case]);
                let with = planted
                    .iter()
                    .map(|o| evaluate_with(case, &o[case]))
                    .collect();
                (core_diverges, with)
            })
            .collect()
    }

    /// Whether `mutant` diverges on `input` where the core does not.
    fn tells_apart(&self, inputs: &[&[u8]], mutant: &Mutant) -> Vec<bool> {
        self.judge(inputs, &[mutant])
            .into_iter()
            .map(|(core, with)| !core && with.first().is_some_and(|(m, _)| *m))
            .collect()
    }
}

/// Runs every mutant of each of `families` against the family's implementations.
pub fn run(seed: u64, families: &[Family], progress: bool) -> Result<SelftestRun, String> {
    let started = Instant::now();
    let reports = families
        .iter()
        .map(|&family| run_family(family, seed, progress))
        .collect::<Result<_, _>>()?;
    Ok(SelftestRun {
        families: reports,
        elapsed: started.elapsed(),
    })
}

fn bar(family: Family, progress: bool) -> ProgressBar {
    let bar = ProgressBar::new(family.selftest_budget());
    if !progress {
        bar.set_draw_target(ProgressDrawTarget::hidden());
    }
    bar.set_style(
        ProgressStyle::with_template(
            "{prefix:<8} [{wide_bar}] {human_pos}/{human_len} cases  {per_sec}  found: {msg}  ETA {eta}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> "),
    );
    bar.set_prefix(family.name());
    bar
}

fn run_family(family: Family, seed: u64, progress: bool) -> Result<FamilyReport, String> {
    hunt(family, family.mutants(), seed, progress)
}

/// Runs `planted`, mutants of `family`, against the family's implementations.
pub fn hunt(
    family: Family,
    planted: &'static [Mutant],
    seed: u64,
    progress: bool,
) -> Result<FamilyReport, String> {
    let (bench, missing) = Bench::new(family)?;
    let mut found: Vec<Option<(u64, Vec<u8>)>> = vec![None; planted.len()];
    let budget = family.selftest_budget();
    let bar = bar(family, progress);
    let mut start = 0;
    while start < budget && found.iter().any(Option::is_none) {
        let end = (start + BATCH).min(budget);
        let inputs: Vec<Vec<u8>> = (start..end).map(|i| family.generate(seed, i).1).collect();
        let refs: Vec<&[u8]> = inputs.iter().map(Vec::as_slice).collect();
        let hunted: Vec<usize> = (0..planted.len()).filter(|&m| found[m].is_none()).collect();
        let stand_ins: Vec<&Mutant> = hunted.iter().map(|&m| &planted[m]).collect();
        for (case, (core_diverges, with)) in bench.judge(&refs, &stand_ins).into_iter().enumerate()
        {
            for (&m, (diverges, _)) in hunted.iter().zip(with) {
                if diverges && !core_diverges && found[m].is_none() {
                    found[m] = Some((start + case as u64 + 1, inputs[case].clone()));
                }
            }
        }
        bar.set_position(end);
        bar.set_message(format!(
            "{}/{}",
            found.iter().flatten().count(),
            planted.len()
        ));
        start = end;
    }
    bar.finish_and_clear();
    let mutants = planted
        .iter()
        .zip(found)
        .map(|(mutant, found)| {
            let Some((after, input)) = found else {
                return MutantReport {
                    mutant,
                    found_after: None,
                    minimized: Vec::new(),
                    signature: String::new(),
                };
            };
            let mut judge = |candidates: &[Vec<u8>]| {
                let refs: Vec<&[u8]> = candidates.iter().map(Vec::as_slice).collect();
                bench.tells_apart(&refs, mutant)
            };
            let minimized = minimize(&input, &mut judge, SHRINK_BUDGET);
            let signature = bench
                .judge(&[&minimized], &[mutant])
                .into_iter()
                .next()
                .and_then(|(_, with)| with.into_iter().next())
                .map(|(_, s)| s)
                .unwrap_or_default();
            MutantReport {
                mutant,
                found_after: Some(after),
                minimized,
                signature,
            }
        })
        .collect();
    Ok(FamilyReport {
        family,
        mutants,
        cases: start,
        missing,
    })
}

/// `text` cut to `width` characters, with `...` where it was cut.
fn clip(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        return text.to_string();
    }
    let kept: String = text.chars().take(width.saturating_sub(3)).collect();
    format!("{kept}...")
}

impl SelftestRun {
    /// Whether every implementation ran and every mutant was found within the bounds.
    pub fn passed(&self) -> bool {
        self.complete()
            && self
                .families
                .iter()
                .all(|f| f.mutants.iter().all(MutantReport::passed))
    }

    /// Whether every implementation of every family ran: without them a mutant's divergence
    /// from a consensus cannot be judged.
    pub fn complete(&self) -> bool {
        self.families.iter().all(|f| f.missing.is_empty())
    }

    /// The reports as tables, one per family, for an 80-column terminal.
    pub fn render(&self) -> String {
        let mut out = String::new();
        for family in &self.families {
            for (name, why) in &family.missing {
                out.push_str(&format!(
                    "WARNING: {} implementation {name} did not run: {why}\n",
                    family.family.name()
                ));
            }
            out.push_str(&format!(
                "{}: {} of {} mutants diverge within {} cases\n",
                family.family.name(),
                family.found(),
                family.mutants.len(),
                family.family.selftest_budget()
            ));
            out.push_str(&format!(
                "  {:<30} {:<5} {:>6} {:>6}  minimized input\n",
                "mutant", "found", "cases", "bytes"
            ));
            for r in &family.mutants {
                out.push_str(&format!(
                    "  {:<30} {:<5} {:>6} {:>6}  {}\n",
                    r.mutant.name,
                    if r.passed() { "yes" } else { "NO" },
                    r.found_after.map_or("-".to_string(), |n| n.to_string()),
                    r.minimized.len(),
                    clip(&crate::vector::excerpt(&r.minimized), 26)
                ));
            }
            out.push('\n');
        }
        let planted: usize = self.families.iter().map(|f| f.mutants.len()).sum();
        let found: usize = self.families.iter().map(FamilyReport::found).sum();
        out.push_str(&format!(
            "{found} of {planted} mutants found as \"core diverges\" ({:.1}s)\n",
            self.elapsed.as_secs_f64()
        ));
        out
    }

    /// The reports as JSON.
    pub fn to_json(&self) -> Value {
        let planted: usize = self.families.iter().map(|f| f.mutants.len()).sum();
        let found: usize = self.families.iter().map(FamilyReport::found).sum();
        json!({
            "passed": self.passed(),
            "found": found,
            "planted": planted,
            "families": self.families.iter().map(|f| json!({
                "family": f.family.name(),
                "case_budget": f.family.selftest_budget(),
                "cases": f.cases,
                "found": f.found(),
                "planted": f.mutants.len(),
                "missing": f.missing.iter().map(|(n, w)| json!({"name": n, "reason": w})).collect::<Vec<_>>(),
                "mutants": f.mutants.iter().map(|r| json!({
                    "mutant": r.mutant.name,
                    "bug": r.mutant.bug,
                    "found": r.passed(),
                    "cases_until_found": r.found_after,
                    "minimized_bytes": r.minimized.len(),
                    "minimized_hex": crate::vector::to_hex(&r.minimized),
                    "signature": r.signature,
                })).collect::<Vec<_>>(),
            })).collect::<Vec<_>>(),
        })
    }
}
