//! Checks of one vector that a family's corpus check is made of: the shape of a test whose
//! input yields an output, and the core's answer to a test of a family whose vectors hold a
//! campaign input. The corpus runner and the families use them; they know no family.

use crate::family::{Family, Vectors};
use crate::vector::{Expectation, OutputTest};

/// The shape of a test whose input yields an output or a rejection: a valid test states the
/// output, an invalid one at most an error kind, and `inputText` only accompanies `inputHex`.
pub fn lint_output_test(test: &OutputTest) -> Vec<String> {
    let mut problems = Vec::new();
    match (test.result, &test.expected, &test.error_kind) {
        (Expectation::Valid, None, _) => problems.push("a valid test needs `expected`".into()),
        (Expectation::Valid, _, Some(_)) | (Expectation::Invalid, Some(_), _) => {
            problems.push("a test expects either output or an error kind, not both".into())
        }
        _ => {}
    }
    if test.input_text.is_some() && test.input_hex.is_none() {
        problems.push("inputText belongs only beside inputHex".into());
    }
    problems
}

/// The vector tests of a family whose tests are a campaign input and what it yields
/// ([`OutputTest`]), linted by [`lint_output_test`] and run by [`check_with_core`]: what such
/// a family's `Spec::vectors` returns.
pub struct OutputVectors(pub Family);

impl Vectors for OutputVectors {
    type Test = OutputTest;

    fn lint(&self, test: &OutputTest) -> Vec<String> {
        lint_output_test(test)
    }

    fn check(&self, test: &OutputTest) -> Result<(), String> {
        check_with_core(self.0, test)
    }
}

/// Runs one test of a family whose vectors hold a campaign input (Merkle, INK): the core's
/// answer, through the family's campaign adapter, must be the test's expected output, or its
/// rejection the test's error kind.
pub fn check_with_core(family: Family, test: &OutputTest) -> Result<(), String> {
    let input = test.input_bytes()?;
    let core = family
        .implementations()
        .into_iter()
        .next()
        .ok_or_else(|| format!("the {} family has no core adapter", family.name()))?;
    let outcome = core
        .run_batch(&[&input])
        .pop()
        .unwrap_or(crate::outcome::Outcome::Unsupported);
    let comment = crate::escape::terminal(&test.comment);
    let want = test.expected.as_deref().unwrap_or_default();
    match (&outcome, test.result) {
        (crate::outcome::Outcome::Ok(got), Expectation::Valid | Expectation::Acceptable)
            if got == want.as_bytes() =>
        {
            Ok(())
        }
        (
            crate::outcome::Outcome::Rejected(kind),
            Expectation::Invalid | Expectation::Acceptable,
        ) if test.error_kind.as_ref().is_none_or(|k| k == kind) => Ok(()),
        _ => Err(format!(
            "{comment}\n    expected: {}\n    got:      {outcome}",
            match test.result {
                Expectation::Invalid =>
                    format!("error[{}]", test.error_kind.as_deref().unwrap_or("any")),
                _ => want.to_string(),
            }
        )),
    }
}
