//! What a campaign returns: its summary, the quorum it ran with, and its status, which the
//! exit code follows.

use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use crate::bugs::{BugKey, Observation};
use crate::compare::{Verdict, UNJUDGED};
use crate::family::Family;
use crate::findings::{Finding, ImplStats};

/// What a campaign did and found.
#[derive(Debug, Clone)]
pub struct Summary {
    /// The family.
    pub family: Family,
    /// The seed.
    pub seed: u64,
    /// Cases run.
    pub cases: u64,
    /// Cases that repeated an earlier one's input, judged from its answers (`repeats`).
    pub repeated: u64,
    /// Wall time running the cases.
    pub elapsed: Duration,
    /// CPU time the implementations spent running the cases, before the minimizing; none
    /// is counted for a `--with` command.
    pub cases_cpu: Duration,
    /// Wall time minimizing and saving the findings.
    pub shrink_elapsed: Duration,
    /// The cores the campaign ran on.
    pub cores: usize,
    /// Per implementation.
    pub impls: Vec<ImplStats>,
    /// Implementations that could not run here, with why.
    pub missing: Vec<(String, String)>,
    /// Every distinct disagreement, by signature.
    pub findings: Vec<Finding>,
    /// Cases per verdict.
    pub verdicts: BTreeMap<&'static str, u64>,
    /// Which independence groups the campaign needed and which voted.
    pub quorum: Quorum,
    /// Whether the user interrupted the campaign before it ran every case.
    pub interrupted: bool,
    /// The cases it was to run (of this shard), when bounded by a count.
    pub planned: Option<u64>,
    /// Per verdict, per independence group (the core's included): the cases in which the group
    /// answered, so a reader sees that the comparison really took place.
    pub voters: BTreeMap<&'static str, BTreeMap<String, u64>>,
    /// Per generator category: its cases, and per independence group the cases in which the
    /// group answered, so a reader sees which kinds of input were compared by whom.
    pub categories: BTreeMap<&'static str, CategoryVotes>,
    /// The mutant planted in the core's place, if one was.
    pub plant: Option<&'static crate::mutants::Mutant>,
    /// The implementations given with `--with`, whose bugs are shown first.
    pub own: Vec<String>,
    /// Each bug's example minimized for the implementation it is shown for, by its key;
    /// a bug not here is shown by its smallest finding.
    pub examples: BTreeMap<BugKey, crate::bugs::Smallest>,
    /// Every answer that differs from the expected one, settled by experiment where a host
    /// parser read the input ([`crate::settle`]); `None` when the campaign was interrupted
    /// first, and the findings' answers stand as they are.
    pub settled: Option<Vec<Observation>>,
    /// Why every implementation answered every case, when the workers did not answer at
    /// their own pace (see [`ImplStats::pace`]).
    pub unpaced: Option<&'static str>,
    /// Cases escalated to the workers and left unjudged, because the campaign stopped (an
    /// interruption, `--fail-fast`) before every worker answered them.
    pub dropped: u64,
}

/// The cases of one generator category and who answered them.
#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct CategoryVotes {
    /// Cases generated in the category.
    pub cases: u64,
    /// Per independence group, the cases it answered.
    pub voters: BTreeMap<String, u64>,
}

/// The independence groups a campaign compares: those it needs (every group of the family's
/// implementations, or of those `--impls` selected) and those that could run.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Quorum {
    /// The groups other than the core's that the campaign needs.
    pub needed: BTreeSet<String>,
    /// The groups other than the core's that could run.
    pub present: BTreeSet<String>,
    /// Whether `--impls` narrowed the campaign.
    pub narrowed: bool,
    /// Whether `--allow-missing` let it run without a needed group.
    pub allow_missing: bool,
}

impl Quorum {
    /// The needed groups that could not run.
    pub fn absent(&self) -> Vec<&str> {
        self.needed
            .difference(&self.present)
            .map(String::as_str)
            .collect()
    }
}

impl Summary {
    /// Cases per second while the cases ran, before any finding was minimized.
    pub fn cases_per_second(&self) -> f64 {
        self.cases as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }

    /// Cases per second from the first case to the last finding minimized: what a user waits.
    pub fn end_to_end_cases_per_second(&self) -> f64 {
        let waited = self.elapsed + self.shrink_elapsed;
        self.cases as f64 / waited.as_secs_f64().max(1e-9)
    }

    /// The bugs its findings show, most severe first.
    pub fn bugs(&self) -> Vec<crate::bugs::Bug> {
        let observations = self
            .settled
            .clone()
            .unwrap_or_else(|| crate::bugs::observations(self.family, &self.findings, &self.impls));
        let mut bugs = crate::bugs::group(self.family, observations);
        for bug in &mut bugs {
            if let Some(smallest) = self.examples.get(&bug.key) {
                bug.shown_by(smallest.clone());
            }
        }
        crate::bugs::one_per_cause(bugs)
    }

    /// What the campaign's cases add up to, from every case's own verdict.
    pub fn status(&self) -> Status {
        Status::of(&self.verdicts, self.interrupted)
    }
}

/// What a campaign's cases add up to, decided from every case's own verdict (never from its
/// findings, which group cases): the one decision its exit status is made from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Every case ran, and each agreed, differed by registered policy or among third parties.
    Clean,
    /// The core diverged on at least one case.
    CoreDiverges,
    /// The harness could not judge at least one case: a policy's predicate could not read it.
    Unjudged,
    /// The campaign stopped before it ran every case, and nothing it ran diverged.
    Interrupted,
}

impl Status {
    /// The status of a campaign whose cases had these verdicts (counted by name).
    pub fn of(verdicts: &BTreeMap<&'static str, u64>, interrupted: bool) -> Status {
        let any = |verdict: &str| verdicts.get(verdict).is_some_and(|&n| n > 0);
        if any(UNJUDGED) {
            Status::Unjudged
        } else if any(Verdict::CoreDiverges.name()) {
            Status::CoreDiverges
        } else if interrupted {
            Status::Interrupted
        } else {
            Status::Clean
        }
    }

    /// The exit status `canonfuzz diff` ends with: 0 clean, 1 a diverging core, 2 a failure of
    /// the harness or a campaign cut short.
    pub fn exit_code(self) -> u8 {
        match self {
            Status::Clean => 0,
            Status::CoreDiverges => 1,
            Status::Unjudged | Status::Interrupted => 2,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::UNJUDGED;

    #[test]
    fn a_campaign_s_status_comes_from_its_cases_verdicts() {
        let counts = |pairs: &[(&'static str, u64)]| pairs.iter().copied().collect();
        let status =
            |pairs: &[(&'static str, u64)], interrupted| Status::of(&counts(pairs), interrupted);
        assert_eq!(status(&[("agree", 9), ("policy", 3)], false), Status::Clean);
        assert_eq!(
            status(&[("agree", 9), ("core_diverges", 1)], false),
            Status::CoreDiverges
        );
        // A divergence stands even in a campaign cut short; a case the harness could not judge
        // outranks it, as the campaign's result cannot be trusted.
        assert_eq!(status(&[("core_diverges", 1)], true), Status::CoreDiverges);
        assert_eq!(status(&[("agree", 9)], true), Status::Interrupted);
        assert_eq!(
            status(&[("core_diverges", 1), (UNJUDGED, 1)], false),
            Status::Unjudged
        );
        assert_eq!(status(&[("core_diverges", 0)], false), Status::Clean);
        let codes: Vec<u8> = [
            Status::Clean,
            Status::CoreDiverges,
            Status::Unjudged,
            Status::Interrupted,
        ]
        .map(Status::exit_code)
        .to_vec();
        assert_eq!(codes, [0, 1, 2, 2]);
    }
}
