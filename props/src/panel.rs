//! Implementations compared in process on one input at a time, as a fuzz target compares them:
//! the core diverges where it departs from the others in a way no registered policy explains.

use crate::impls::Implementation;
use crate::outcome::Outcome;
use crate::verdict::{evaluate_with_quorum, Evaluation, Member, Rules, Verdict};

/// Implementations compared in process on one input at a time, by a family's rules.
pub struct Panel {
    rules: Rules,
    impls: Vec<Box<dyn Implementation>>,
    members: Vec<Member>,
}

impl Panel {
    /// The implementations, the core (named `core`) among them, judged by `rules`.
    pub fn new(rules: Rules, impls: Vec<Box<dyn Implementation>>) -> Panel {
        let members = crate::impls::members(&impls);
        Panel {
            rules,
            impls,
            members,
        }
    }

    /// The verdict on `input`: the core's answer against the others' majority, which stands as
    /// the consensus.
    pub fn evaluate(&self, input: &[u8]) -> Evaluation {
        let outcomes: Vec<_> = self
            .impls
            .iter()
            .map(|i| i.run_batch(&[input]).pop().unwrap_or(Outcome::Unsupported))
            .collect();
        evaluate_with_quorum(&self.rules, input, &self.members, &outcomes, 1)
    }

    /// The signature of `input` when the core diverges from the others on it in a way no
    /// registered policy explains, or a policy's predicate could not read it.
    pub fn diverges(&self, input: &[u8]) -> Result<(), String> {
        let evaluation = self.evaluate(input);
        if matches!(
            evaluation.verdict,
            Verdict::CoreDiverges | Verdict::Unjudged(_)
        ) {
            Err(evaluation.signature)
        } else {
            Ok(())
        }
    }
}
