//! The running count of a campaign's verdicts and votes, and the first case each signature met
//! at, kept as batches settle in any order.

use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use crate::compare::{agree, Evaluation, Member, Verdict};
use crate::family::Case;
use crate::findings::Finding;
use crate::outcome::Outcome;

use super::{CategoryVotes, Status};

/// Every case of a campaign counted as it is judged: its verdict, who voted, its category, each
/// implementation's agreement, and the finding it belongs to. The campaign and the self-test
/// count through this one path, so that the status a campaign ends with is the one the
/// self-test holds each mutant to.
#[derive(Default)]
pub struct Tally {
    /// Every finding, by signature (which carries the verdict).
    pub findings: BTreeMap<String, Finding>,
    /// Signatures whose vector this campaign wrote when it first met them.
    pub(super) created: BTreeSet<String>,
    /// Failures to write vectors, reported at the end.
    pub(super) errors: Vec<String>,
    pub(super) answered: Vec<u64>,
    pub(super) agreed: Vec<u64>,
    /// Cases per verdict.
    pub verdicts: BTreeMap<&'static str, u64>,
    pub(super) voters: BTreeMap<&'static str, BTreeMap<String, u64>>,
    pub(super) categories: BTreeMap<&'static str, CategoryVotes>,
    /// Cases counted.
    pub cases: u64,
}

impl Tally {
    /// An empty tally for `implementations` implementations.
    pub fn new(implementations: usize) -> Tally {
        Tally {
            answered: vec![0; implementations],
            agreed: vec![0; implementations],
            ..Tally::default()
        }
    }

    /// Counts one case judged `evaluation` from `outcomes` (one per member). A case that is
    /// not an agreement joins the finding of its signature; `first_met` makes that finding
    /// when the case is the first of it met, and its signature is then returned.
    pub fn record(
        &mut self,
        members: &[Member],
        case: &Case,
        outcomes: Vec<Outcome>,
        evaluation: Evaluation,
        first_met: impl FnOnce(&Evaluation) -> FirstMet,
    ) -> Option<String> {
        let (index, category, input) = case;
        self.cases += 1;
        *self.verdicts.entry(evaluation.verdict.name()).or_default() += 1;
        let voted: BTreeSet<&str> = members
            .iter()
            .zip(&outcomes)
            .filter(|(_, o)| o.is_answer())
            .map(|(m, _)| m.group.as_str())
            .collect();
        count_votes(
            self.voters.entry(evaluation.verdict.name()).or_default(),
            &voted,
        );
        let class = self.categories.entry(category.name).or_default();
        class.cases += 1;
        count_votes(&mut class.voters, &voted);
        if let Some(consensus) = &evaluation.consensus {
            for (i, o) in outcomes.iter().enumerate() {
                if o.is_answer() {
                    if let (Some(answered), Some(agreed)) =
                        (self.answered.get_mut(i), self.agreed.get_mut(i))
                    {
                        *answered += 1;
                        *agreed += u64::from(agree(o, consensus));
                    }
                }
            }
        }
        if evaluation.verdict == Verdict::Agree {
            return None;
        }
        match self.findings.entry(evaluation.signature.clone()) {
            std::collections::btree_map::Entry::Occupied(mut entry) => {
                entry
                    .get_mut()
                    .met_again(*index, *category, input, &outcomes, &evaluation);
                None
            }
            std::collections::btree_map::Entry::Vacant(entry) => {
                let FirstMet { vector, new, at } = first_met(&evaluation);
                let signature = evaluation.signature.clone();
                entry.insert(Finding {
                    signature: evaluation.signature.clone(),
                    category: *category,
                    case: *index,
                    input: input.clone(),
                    minimized: input.clone(),
                    outcomes,
                    evaluation,
                    count: 1,
                    known_input: None,
                    vector,
                    new,
                    is_minimized: false,
                    first_met: (at, self.cases),
                });
                Some(signature)
            }
        }
    }

    /// What the cases counted so far add up to.
    pub fn status(&self, interrupted: bool) -> Status {
        Status::of(&self.verdicts, interrupted)
    }
}

/// What a campaign knows of a finding when it first meets it.
pub struct FirstMet {
    /// The known corpus's vector of its signature, if it has one.
    pub vector: Option<String>,
    /// Whether the known corpus holds no record of its signature.
    pub new: bool,
    /// How long after the campaign's start it was met.
    pub at: Duration,
}

/// Counts one case for each group that answered it; a group's name is copied only the first
/// time it is counted.
pub(super) fn count_votes(counts: &mut BTreeMap<String, u64>, voted: &BTreeSet<&str>) {
    for group in voted {
        match counts.get_mut(*group) {
            Some(n) => *n += 1,
            None => {
                counts.insert(group.to_string(), 1);
            }
        }
    }
}
