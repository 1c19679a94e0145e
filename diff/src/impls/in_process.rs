//! Libraries called inside this process, one input at a time: a panic is caught and recorded
//! as that input's crash, so one library's bug costs one answer, not a batch.

use std::panic::{catch_unwind, AssertUnwindSafe};

use super::Implementation;
use crate::outcome::Outcome;

/// A library adapter: its identity and the function that answers one input.
pub struct InProcess {
    /// The name in signatures and vectors.
    pub name: &'static str,
    /// The crate as Cargo.lock names it.
    pub krate: &'static str,
    /// The version pinned in Cargo.lock.
    pub version: &'static str,
    /// The independence group.
    pub group: &'static str,
    /// Answers one input.
    pub answer: fn(&[u8]) -> Outcome,
}

impl Implementation for InProcess {
    fn name(&self) -> &str {
        self.name
    }

    fn version(&self) -> String {
        self.version.to_string()
    }

    fn group(&self) -> &str {
        self.group
    }

    fn run_batch(&self, inputs: &[&[u8]]) -> Vec<Outcome> {
        inputs
            .iter()
            .map(|input| {
                catch_unwind(AssertUnwindSafe(|| (self.answer)(input)))
                    .unwrap_or_else(|_| Outcome::Crashed("panicked".into()))
            })
            .collect()
    }
}

/// A verifier's verdict as an outcome: accepted (with what it returns), or rejected with a
/// kind (third parties' reasons are not compared, so they reject as `other`).
pub fn verdict<E>(result: Result<Vec<u8>, E>, kind: impl Fn(E) -> String) -> Outcome {
    match result {
        Ok(bytes) => Outcome::Ok(bytes),
        Err(e) => Outcome::Rejected(kind(e)),
    }
}

/// The kind every third-party rejection gets.
pub fn other<E>(_: E) -> String {
    "other".to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_costs_one_answer() {
        let imp = InProcess {
            name: "panics-on-empty",
            krate: "none",
            version: "0",
            group: "test",
            answer: |input| {
                assert!(!input.is_empty(), "empty");
                Outcome::Ok(input.to_vec())
            },
        };
        let out = imp.run_batch(&[b"a", b"", b"b"]);
        assert_eq!(out[0], Outcome::Ok(b"a".to_vec()));
        assert!(matches!(out[1], Outcome::Crashed(_)));
        assert_eq!(out[2], Outcome::Ok(b"b".to_vec()));
    }
}
