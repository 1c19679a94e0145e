//! RFC 8785 canonicalization (`canonfuzz_jcs_v1`): the core's canonicalizer against the Rust
//! crates in process and the Node and Python libraries as workers, on documents aimed at
//! number formatting, UTF-16 member order, string escapes, structure and damage.

pub mod difference;
pub mod drivers;
pub mod fuzz;
pub mod gen;
pub mod import;
pub mod mutants;
pub mod reading;

use canonfuzz_core::jcs::{Canonicalizer, ErrorKind};

use crate::compare::Rules;
use crate::family::{Answer, Category, CheckTest, Facts, Family, HostReading, Spec, Vectors};
use crate::impls::Implementation;
use crate::mutants::Mutant;
use crate::outcome::Outcome;
use crate::vector::{excerpt, output_test, stated_kind, Expectation, Head, OutputTest, Test};
use crate::vector_check::lint_output_test;
use crate::workers;
use canonfuzz_props::jcs::impls::{rust_crates, CoreImpl, JcsAdmitImpl, JsonSyntaxImpl};
use canonfuzz_props::jcs::policies::JCS_RULES;
use canonfuzz_props::jcs::RUST_SERDE_JSON_GROUP;

/// The schema name every JCS vector file carries.
pub const SCHEMA: &str = "canonfuzz_jcs_v1";

/// The JCS family, as registered.
pub const FAMILY: Family = Family::new(&Jcs);

/// RFC 8785 canonicalization.
pub struct Jcs;

/// The family's constant facts.
const FACTS: Facts = Facts {
    name: "jcs",
    title: "RFC 8785 canonicalizers",
    schema: SCHEMA,
    vector_kind: ("JCS", "JcsCanonicalize"),
    categories: &gen::CATEGORIES,
    fields: &gen::FIELDS,
    reference_reason: "RFC 8785 defers to ECMAScript, so V8's answer",
    shares_with_core: &[RUST_SERDE_JSON_GROUP],
    sample_percent: 10,
    nightly_weight: 35,
    nightly_rate: 5000,
    decisions: &[
        "accepted",
        "syntax",
        "invalid_utf8",
        "lone_surrogate",
        "duplicate_key",
        "number_out_of_range",
        "depth_limit",
    ],
};

impl Spec for Jcs {
    fn fuzzing(&self) -> Option<&'static crate::fuzz_target::Fuzzing> {
        Some(&fuzz::FUZZING)
    }

    fn importers(&self) -> &'static [crate::importer::Importer] {
        import::IMPORTERS
    }

    fn facts(&self) -> &'static Facts {
        &FACTS
    }

    fn generate(&self, seed: u64, index: u64) -> (Category, Vec<u8>) {
        gen::case(seed, index)
    }

    fn difference(&self, answer: &Answer<'_>) -> Option<crate::bugs::Difference> {
        difference::difference(answer)
    }

    fn blame(&self, answer: &Answer<'_>) -> String {
        difference::blame(answer)
    }

    fn host_reading(&self, implementation: &str, input: &[u8]) -> Option<HostReading> {
        reading::host_reading(implementation, input)
    }

    fn numbers_by_parts(&self) -> bool {
        true
    }

    fn category_of(&self, _input: &[u8], core: &Outcome) -> Option<Category> {
        Some(match core {
            Outcome::Rejected(_) => gen::REJECTIONS,
            _ => gen::STRUCTURE,
        })
    }

    fn implementations(&self) -> Vec<Box<dyn Implementation>> {
        let mut every: Vec<Box<dyn Implementation>> = vec![Box::new(CoreImpl)];
        every.extend(rust_crates());
        every.push(Box::new(JsonSyntaxImpl));
        every.push(Box::new(JcsAdmitImpl));
        every.push(Box::new(workers::rust(
            FACTS.name,
            "acdp-jcs",
            "acdp-jcs",
            RUST_SERDE_JSON_GROUP,
        )));
        // The npm libraries share one process in a campaign's batches: one runtime's start,
        // warm-up and decoding of each input for four libraries.
        every.extend(workers::hosted_node(
            FACTS.name,
            &[
                ("node-canonicalize", "canonicalize"),
                ("node-json-canonicalize", "json-canonicalize"),
                ("node-json-canon", "json-canon"),
                ("node-truestamp-canonify", "@truestamp/canonify"),
            ],
            "node-v8",
        ));
        every.extend([
            Box::new(workers::python(
                FACTS.name,
                "python-rfc8785",
                "rfc8785",
                "cpython",
            )) as Box<dyn Implementation>,
            Box::new(workers::python(FACTS.name, "python-jcs", "jcs", "cpython")),
            Box::new(workers::python(
                FACTS.name,
                "python-jsoncanon",
                "jsoncanon",
                "cpython",
            )),
        ]);
        every
    }

    fn rules(&self) -> Rules {
        JCS_RULES
    }

    fn test_for(&self, head: Head, input: &[u8], want: &Outcome) -> Option<Test> {
        let kind = stated_kind(want)
            .as_deref()
            .and_then(ErrorKind::from_name)
            .map(|k| k.as_str().to_string());
        output_test(head, input, want, kind)
    }

    fn vectors(&self) -> &dyn CheckTest {
        self
    }

    fn mutants(&self) -> &'static [Mutant] {
        &mutants::MUTANTS
    }

    fn selftest_budget(&self) -> u64 {
        20_000
    }

    /// A JCS bug shows on a few bytes, or on a few bytes nested past the core's depth bound or
    /// around an integer written past the double range.
    fn minimized_bound(&self) -> Option<usize> {
        Some(64)
    }
}

impl Vectors for Jcs {
    type Test = OutputTest;

    fn lint(&self, test: &OutputTest) -> Vec<String> {
        let mut problems = lint_output_test(test);
        if let Some(kind) = &test.error_kind {
            if ErrorKind::from_name(kind).is_none() {
                problems.push(format!("unknown errorKind {kind:?}"));
            }
        }
        problems
    }

    fn check(&self, test: &OutputTest) -> Result<(), String> {
        check(test, &mut Canonicalizer::default())
    }
}

/// Runs one JCS test; the error says what was expected and what the core did.
fn check(test: &OutputTest, canonicalizer: &mut Canonicalizer) -> Result<(), String> {
    let input = test.input_bytes()?;
    let shown = excerpt(&input);
    let comment = crate::escape::terminal(&test.comment);
    match (canonicalizer.canonicalize(&input), test.result) {
        (Ok(out), Expectation::Valid | Expectation::Acceptable) => {
            let want = test.expected.as_deref().unwrap_or_default();
            if out == want.as_bytes() {
                Ok(())
            } else {
                Err(format!(
                    "{comment}\n    input:    {shown}\n    expected: {}\n    got:      {}",
                    excerpt(want.as_bytes()),
                    excerpt(&out)
                ))
            }
        }
        (Ok(out), Expectation::Invalid) => Err(format!(
            "{comment}\n    input:    {shown}\n    expected: error[{}]\n    got:      ok {}",
            test.error_kind.as_deref().unwrap_or("any"),
            excerpt(&out)
        )),
        (Err(e), Expectation::Invalid | Expectation::Acceptable) => match &test.error_kind {
            Some(kind) if kind != e.kind().as_str() => Err(format!(
                "{comment}\n    input:    {shown}\n    expected: error[{kind}]\n    got:      {e}"
            )),
            _ => Ok(()),
        },
        (Err(e), Expectation::Valid) => Err(format!(
            "{comment}\n    input:    {shown}\n    expected: {}\n    got:      {e}",
            excerpt(test.expected.as_deref().unwrap_or_default().as_bytes())
        )),
    }
}
