//! The words a bug is filed under: how much it costs its users and, in a family's words, the
//! rule it breaks and the shape of the difference. A family speaks them
//! ([`crate::family::Spec::difference`]); bugs, reports and tables read them.

/// How much a bug costs its users, most first: the order bugs are listed and reported in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// It panicked, died, answered garbage or hung: a bug of its own, shown with its message.
    Crash,
    /// It wrote other bytes for a valid input: every signature over them breaks.
    WrongBytes,
    /// It accepted what the rules refuse.
    AcceptsInvalid,
    /// It refused what the rules accept, not at a stated limit.
    RefusesValid,
    /// It refused at a limit the rules let an implementation set.
    AtLimit,
    /// It refused as it should, naming another problem: which one a document with several
    /// is refused for, or how a message maps to a kind, is no rule of the protocols, so an
    /// implementation's such answers make one bug, whatever the kinds.
    OtherProblem,
}

impl Severity {
    /// A stable name, for JSON output and reports.
    pub fn name(self) -> &'static str {
        match self {
            Severity::Crash => "crash",
            Severity::WrongBytes => "wrong-bytes",
            Severity::AcceptsInvalid => "accepts-invalid",
            Severity::RefusesValid => "refuses-valid",
            Severity::OtherProblem => "other-problem",
            Severity::AtLimit => "at-limit",
        }
    }

    /// Whether it is a bug: a refusal naming another problem is listed, never counted, since
    /// which problem is named is no rule of the protocols.
    pub fn is_bug(self) -> bool {
        self != Severity::OtherProblem
    }

    /// The words a person reads.
    pub fn words(self) -> &'static str {
        match self {
            Severity::Crash => "crashes",
            Severity::WrongBytes => "wrong bytes for a valid input",
            Severity::AcceptsInvalid => "accepts what must be refused",
            Severity::RefusesValid => "refuses what is valid",
            Severity::OtherProblem => "names another problem",
            Severity::AtLimit => "refuses at a stated limit",
        }
    }
}

/// What a family says of a difference between an expected and an actual answer: the rule it
/// breaks and its shape, in words that stay the same for every input showing the same
/// behaviour.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Difference {
    /// The rule, as the family's vectors categorize it (e.g. `numbers`).
    pub rule: String,
    /// The shape (e.g. "pads the exponent with zeros").
    pub shape: String,
}
