//! Proof that a campaign turns red on a wrong core: every family's planted mutants (see
//! [`crate::mutants`]) stand in for the core, in turn, among the family's implementations, on
//! the campaign's own generated cases. Each stand-in's cases are counted by the campaign's own
//! tally, and a mutant counts as found only when its campaign ends as a campaign with a
//! diverging core does — exit status 1 — where the real core's campaign over the same cases
//! ends clean. Its first case that diverges where the real core's does not is then minimized
//! while it stays so. The score is found mutants over planted ones, per family.

use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget};
use serde_json::{json, Value};

use crate::campaign::{Case, FirstMet, Harness, Status, Tally, BATCH};
use crate::compare::{evaluate, Evaluation, Member, Verdict, CORE};
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
    /// How the campaign with the mutant in the core's place ended.
    pub status: Status,
    /// How the campaign with the real core ended, over the same cases.
    pub core_status: Status,
    /// Cases run until the first on which it diverged where the core did not, if one did.
    pub found_after: Option<u64>,
    /// That case, minimized.
    pub minimized: Vec<u8>,
    /// The disagreement signature with the mutant on the minimized case.
    pub signature: String,
}

impl MutantReport {
    /// Its campaign exits 1 where the real core's exits 0, on a case found within its
    /// family's budget and minimized as far as the family's bound asks.
    pub fn passed(&self) -> bool {
        let family = self.mutant.family;
        self.status == Status::CoreDiverges
            && self.core_status == Status::Clean
            && self
                .found_after
                .is_some_and(|n| n <= family.selftest_budget())
            && family
                .minimized_bound()
                .is_none_or(|bound| beyond_shape(&self.minimized) <= bound)
    }
}

/// A minimized input's length without what its shape alone takes: two bytes for each level of
/// its nesting, and all but one digit of a run of more than 308, such as an integer written in
/// full past the double range (none shorter is past it).
pub fn beyond_shape(minimized: &[u8]) -> usize {
    let depth = canonfuzz_props::read::problems::read(minimized).depth;
    let long_digits: usize = minimized
        .split(|b| !b.is_ascii_digit())
        .filter(|run| run.len() > 308)
        .map(|run| run.len() - 1)
        .sum();
    minimized
        .len()
        .saturating_sub(2 * depth)
        .saturating_sub(long_digits)
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
    /// How the campaign with the real core ended over those cases.
    pub core_status: Status,
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

/// One stand-in's answers to a case and their evaluation.
type Judged = (Vec<Outcome>, Evaluation);

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

    /// Per input: the real core's answers and evaluation, then each of `stand_ins`' in the
    /// core's place, the other implementations asked once for all of them.
    fn judge(&self, inputs: &[&[u8]], stand_ins: &[&Mutant]) -> Vec<(Judged, Vec<Judged>)> {
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
            (all, e)
        };
        (0..inputs.len())
            .map(|case| {
                let core = evaluate_with(case, &core[case]);
                let with = planted
                    .iter()
                    .map(|o| evaluate_with(case, &o[case]))
                    .collect();
                (core, with)
            })
            .collect()
    }

    /// Whether `mutant` diverges on `input` where the core does not.
    fn tells_apart(&self, inputs: &[&[u8]], mutant: &Mutant) -> Vec<bool> {
        let diverges = |(_, e): &Judged| e.verdict == Verdict::CoreDiverges;
        self.judge(inputs, &[mutant])
            .into_iter()
            .map(|(core, with)| !diverges(&core) && with.first().is_some_and(diverges))
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
    bar.set_style(crate::campaign::bar_style(
        "{prefix:<8} [{wide_bar}] {human_pos}/{human_len} cases  {rate}  found: {msg}  ETA {eta}",
    ));
    bar.set_prefix(family.name());
    bar
}

fn run_family(family: Family, seed: u64, progress: bool) -> Result<FamilyReport, String> {
    hunt(family, family.mutants(), seed, progress)
}

/// Runs `planted`, mutants of `family`, against the family's implementations: a campaign of
/// the family's self-test budget with each in the core's place, and one with the real core.
pub fn hunt(
    family: Family,
    planted: &'static [Mutant],
    seed: u64,
    progress: bool,
) -> Result<FamilyReport, String> {
    let (bench, missing) = Bench::new(family)?;
    let scanned = scan(&bench, family, planted, seed, progress);
    let core_status = scanned.core.status(false);
    let mutants = planted
        .iter()
        .zip(scanned.first)
        .zip(&scanned.tallies)
        .map(|((mutant, first), tally)| {
            let (found_after, minimized, signature) = found(&bench, mutant, first);
            MutantReport {
                mutant,
                status: tally.status(false),
                core_status,
                found_after,
                minimized,
                signature,
            }
        })
        .collect();
    Ok(FamilyReport {
        family,
        mutants,
        cases: scanned.cases,
        core_status,
        missing,
    })
}

/// What the self-test's cases showed: the real core's tally, each mutant's, and per mutant
/// the first case (counted from one) on which it diverges where the real core does not.
struct Scanned {
    core: Tally,
    tallies: Vec<Tally>,
    first: Vec<Option<(u64, Vec<u8>)>>,
    cases: u64,
}

/// Runs the family's self-test budget of cases with the real core and each mutant of
/// `planted` in its place.
fn scan(
    bench: &Bench,
    family: Family,
    planted: &'static [Mutant],
    seed: u64,
    progress: bool,
) -> Scanned {
    let started = Instant::now();
    let fresh = |_: &Evaluation| FirstMet {
        vector: None,
        new: true,
        at: started.elapsed(),
    };
    let width = bench.members.len();
    let mut core_tally = Tally::new(width);
    let mut tallies: Vec<Tally> = planted.iter().map(|_| Tally::new(width)).collect();
    let mut first: Vec<Option<(u64, Vec<u8>)>> = vec![None; planted.len()];
    let stand_ins: Vec<&Mutant> = planted.iter().collect();
    let budget = family.selftest_budget();
    let bar = bar(family, progress);
    let mut start = 0;
    while start < budget {
        let end = (start + BATCH).min(budget);
        let cases: Vec<Case> = (start..end)
            .map(|i| {
                let (category, input) = family.generate(seed, i);
                (i, category, input)
            })
            .collect();
        let refs: Vec<&[u8]> = cases.iter().map(|(_, _, i)| i.as_slice()).collect();
        for (case, (core, with)) in cases.iter().zip(bench.judge(&refs, &stand_ins)) {
            let core_diverges = core.1.verdict == Verdict::CoreDiverges;
            for (m, (outcomes, evaluation)) in with.into_iter().enumerate() {
                if evaluation.verdict == Verdict::CoreDiverges && !core_diverges {
                    if let Some(slot @ None) = first.get_mut(m) {
                        *slot = Some((case.0 + 1, case.2.clone()));
                    }
                }
                if let Some(tally) = tallies.get_mut(m) {
                    tally.record(&bench.members, case, outcomes, evaluation, fresh);
                }
            }
            core_tally.record(&bench.members, case, core.0, core.1, fresh);
        }
        bar.set_position(end);
        bar.set_message(format!(
            "{}/{}",
            first.iter().flatten().count(),
            planted.len()
        ));
        start = end;
    }
    bar.finish_and_clear();
    Scanned {
        core: core_tally,
        tallies,
        first,
        cases: start,
    }
}

/// When a mutant was first told apart from the core (none if never), the input minimized to
/// one that still tells them apart, and that input's signature.
fn found(
    bench: &Bench,
    mutant: &'static Mutant,
    first: Option<(u64, Vec<u8>)>,
) -> (Option<u64>, Vec<u8>, String) {
    let Some((after, input)) = first else {
        return (None, Vec::new(), String::new());
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
        .map(|(_, e)| e.signature)
        .unwrap_or_default();
    (Some(after), minimized, signature)
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
                let who = format!("{} implementation {name}", family.family.name());
                out.push_str(&crate::summary::not_run(&who, "did not run", why, false));
            }
            if !family.missing.is_empty() {
                out.push_str(crate::summary::NOT_RUN_HINT);
            }
            out.push_str(&format!(
                "{}: {} of {} mutants' campaigns of {} cases exit 1\n",
                family.family.name(),
                family.found(),
                family.mutants.len(),
                family.family.selftest_budget()
            ));
            if family.core_status != Status::Clean {
                out.push_str(&format!(
                    "  the real core's campaign over these cases exits {}, so no mutant can be told apart\n",
                    family.core_status.exit_code()
                ));
            }
            out.push_str(&format!(
                "  {:<30} {:<5} {:>4} {:>6} {:>6}  minimized input\n",
                "mutant", "found", "exit", "cases", "bytes"
            ));
            for r in &family.mutants {
                out.push_str(&format!(
                    "  {:<30} {:<5} {:>4} {:>6} {:>6}  {}\n",
                    clip(r.mutant.name, 30),
                    if r.passed() { "yes" } else { "NO" },
                    r.status.exit_code(),
                    r.found_after.map_or("-".to_string(), |n| n.to_string()),
                    r.minimized.len(),
                    clip(&crate::vector::excerpt(&r.minimized), 20)
                ));
            }
            out.push('\n');
        }
        let planted: usize = self.families.iter().map(|f| f.mutants.len()).sum();
        let found: usize = self.families.iter().map(FamilyReport::found).sum();
        out.push_str(&format!(
            "{found} of {planted} mutants' campaigns exit 1 where the core's exits 0 ({:.1}s)\n",
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
                "core_exit_status": f.core_status.exit_code(),
                "found": f.found(),
                "planted": f.mutants.len(),
                "missing": f.missing.iter().map(|(n, w)| json!({"name": n, "reason": w})).collect::<Vec<_>>(),
                "mutants": f.mutants.iter().map(|r| json!({
                    "mutant": r.mutant.name,
                    "bug": r.mutant.bug,
                    "found": r.passed(),
                    "exit_status": r.status.exit_code(),
                    "cases_until_found": r.found_after,
                    "minimized_bytes": r.minimized.len(),
                    "minimized_hex": crate::vector::to_hex(&r.minimized),
                    "signature": r.signature,
                })).collect::<Vec<_>>(),
            })).collect::<Vec<_>>(),
        })
    }
}
