//! Ed25519 signature verification (`canonfuzz_ed25519_v1`): the core's strict policy against
//! the Rust verifiers in process and Node's and Python's as workers, on honest signatures and
//! the points, encodings and scalars where RFC 8032, ZIP-215 and lax decoders part ways.

pub mod difference;
pub mod gen;
pub mod impls;
pub mod import;
pub mod mutants;
pub mod policies;
pub mod table;

use canonfuzz_core::ed25519::{self, policy_accepts, Flag};

use crate::compare::Rules;
use crate::family::{Answer, Category, CheckTest, CorpusTable, Facts, Family, Spec, Vectors};
use crate::impls::Implementation;
use crate::mutants::Mutant;
use crate::outcome::Outcome;
use crate::replay::Replay;
use crate::vector::{from_hex, to_hex, Expectation, Head, Note, Test};
use crate::workers;
use gen::Ed25519Case;

/// The Ed25519 family, as registered.
/// The schema name of Ed25519 verification vector files.
pub const SCHEMA: &str = "canonfuzz_ed25519_v1";

pub const FAMILY: Family = Family::new(&Ed25519);

/// Ed25519 signature verification.
pub struct Ed25519;

/// The family's constant facts.
const FACTS: Facts = Facts {
    name: "ed25519",
    title: "Ed25519 signature verifiers",
    schema: SCHEMA,
    vector_kind: ("Ed25519", "Ed25519Verify"),
    categories: &gen::CATEGORIES,
    fields: &gen::FIELDS,
    reference_reason: "libsodium's answer, the verifier most deployments link",
    shares_with_core: &["curve25519-dalek"],
    sample_percent: 5,
    nightly_weight: 15,
    nightly_rate: 800,
    decisions: &[
        "accepted",
        "bad_length",
        "not_a_point",
        "non_canonical",
        "small_order",
        "mixed_order",
        "s_out_of_range",
        "mismatch",
    ],
};

impl Spec for Ed25519 {
    fn importers(&self) -> &'static [crate::importer::Importer] {
        import::IMPORTERS
    }

    fn facts(&self) -> &'static Facts {
        &FACTS
    }

    fn generate(&self, seed: u64, index: u64) -> (Category, Vec<u8>) {
        gen::case(seed, index)
    }

    fn implementations(&self) -> Vec<Box<dyn Implementation>> {
        vec![
            Box::new(impls::core()),
            Box::new(impls::dalek_verify()),
            Box::new(impls::dalek_verify_strict()),
            Box::new(impls::zebra()),
            Box::new(impls::compact()),
            Box::new(impls::ring()),
            Box::new(workers::node(
                FACTS.name,
                "node-crypto",
                "crypto",
                "openssl",
            )),
            Box::new(workers::node(
                FACTS.name,
                "noble-ed25519",
                "@noble/ed25519",
                "noble",
            )),
            Box::new(workers::python(
                FACTS.name,
                "pynacl",
                "pynacl",
                impls::LIBSODIUM_GROUP,
            )),
        ]
    }

    fn difference(&self, answer: &Answer<'_>) -> Option<crate::bugs::Difference> {
        difference::difference(answer)
    }

    fn rules(&self) -> Rules {
        Rules {
            family: "ed25519",
            policies: &policies::POLICIES,
            reference_group: impls::LIBSODIUM_GROUP,
        }
    }

    fn corpus_table(&self) -> Option<CorpusTable> {
        Some(table::corpus_table)
    }

    fn test_for(&self, head: Head, input: &[u8], _want: &Outcome) -> Option<Test> {
        let case = Ed25519Case::parse(input)?;
        let test = Ed25519Test {
            public_key: Some(to_hex(&case.key)),
            msg: Some(to_hex(&case.msg)),
            sig: Some(to_hex(&case.sig)),
            ..Ed25519Test::from_head(head)
        };
        Test::new(&test).ok()
    }

    /// The edge cases the input shows, by CCTV's flag names.
    fn input_flags(&self, input: &[u8]) -> Vec<(String, Note)> {
        let Some(case) = Ed25519Case::parse(input) else {
            return Vec::new();
        };
        let mut notes = import::policy_notes();
        gen::edge_flags(&case.key, &case.sig)
            .into_iter()
            .filter_map(|flag| notes.remove_entry(flag))
            .collect()
    }

    fn vectors(&self) -> &dyn CheckTest {
        self
    }

    fn replay(&self, test: &Test) -> Option<Replay> {
        let test: Ed25519Test = test.read().ok()?;
        let hex = |field: &Option<String>| from_hex(field.as_deref()?).ok();
        let case = Ed25519Case {
            key: hex(&test.public_key)?,
            msg: hex(&test.msg)?,
            sig: hex(&test.sig)?,
        };
        Some(Replay {
            input: case.encode(),
            result: test.result,
            output: None,
            error_kind: None,
        })
    }

    fn mutants(&self) -> &'static [Mutant] {
        &mutants::MUTANTS
    }
}

canonfuzz_engine::vector_test! {
    /// One Ed25519 verification: a key, a message and a signature, and the verdict.
    pub struct Ed25519Test {
    } then {
        /// The public key, as hex.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub public_key: Option<String>,
        /// The message, as hex.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub msg: Option<String>,
        /// The signature, as hex.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub sig: Option<String>,
    }
}

impl Vectors for Ed25519 {
    type Test = Ed25519Test;

    fn lint(&self, test: &Ed25519Test) -> Vec<String> {
        lint(test)
    }

    fn check(&self, test: &Ed25519Test) -> Result<(), String> {
        check(test)
    }
}

/// Runs one Ed25519 test: the core's verdict must be the test's result.
fn check(test: &Ed25519Test) -> Result<(), String> {
    let field = |v: &Option<String>, name: &str| {
        v.as_deref()
            .ok_or_else(|| format!("missing {name}"))
            .and_then(from_hex)
    };
    let key = field(&test.public_key, "publicKey")?;
    let msg = field(&test.msg, "msg")?;
    let sig = field(&test.sig, "sig")?;
    let verdict = ed25519::verify(&key, &msg, &sig);
    let comment = crate::escape::terminal(&test.comment);
    match (verdict, test.result) {
        (Ok(()), Expectation::Valid | Expectation::Acceptable) => Ok(()),
        (Err(_), Expectation::Invalid | Expectation::Acceptable) => Ok(()),
        (Ok(()), _) => Err(format!(
            "{comment} (flags {:?})\n    expected: rejected\n    got:      accepted",
            test.flags
        )),
        (Err(e), _) => Err(format!(
            "{comment} (flags {:?})\n    expected: accepted\n    got:      rejected: {e}",
            test.flags
        )),
    }
}

/// An Ed25519 test carries key, message and signature as hex; where it has flags and every one
/// is one of the policy's edge cases, its result must be the one the policy derives from them.
fn lint(test: &Ed25519Test) -> Vec<String> {
    let mut problems = Vec::new();
    for (field, value) in [
        ("publicKey", &test.public_key),
        ("msg", &test.msg),
        ("sig", &test.sig),
    ] {
        match value {
            None => problems.push(format!("an Ed25519 test needs `{field}`")),
            Some(hex) if from_hex(hex).is_err() => problems.push(format!("`{field}` is not hex")),
            Some(_) => {}
        }
    }
    let policy_flags: Option<Vec<Flag>> = test.flags.iter().map(|f| Flag::from_name(f)).collect();
    // A test without flags claims no edge case, so the policy derives nothing from it.
    if let Some(flags) = policy_flags.filter(|f| !f.is_empty()) {
        let derived = if policy_accepts(&flags) {
            Expectation::Valid
        } else {
            Expectation::Invalid
        };
        if test.result != derived {
            problems.push(format!(
                "the policy derives {derived:?} from flags {:?}, but the test says {:?}",
                test.flags, test.result
            ));
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;

    fn test(flags: &[&str], result: Expectation) -> Ed25519Test {
        Ed25519Test {
            tc_id: 1,
            flags: flags.iter().map(|f| f.to_string()).collect(),
            result,
            public_key: Some("00".repeat(32)),
            msg: Some(String::new()),
            sig: Some("00".repeat(64)),
            ..Ed25519Test::default()
        }
    }

    #[test]
    fn the_lint_holds_results_to_the_policy_only_where_flags_claim_edge_cases() {
        assert!(lint(&test(&[], Expectation::Invalid)).is_empty());
        assert!(lint(&test(&["low_order_A"], Expectation::Invalid)).is_empty());
        let wrong = lint(&test(&["low_order_A"], Expectation::Valid));
        assert!(wrong[0].contains("the policy derives Invalid"), "{wrong:?}");
        let missing = lint(&Ed25519Test::default());
        assert!(
            missing.iter().any(|m| m.contains("needs `publicKey`")),
            "{missing:?}"
        );
    }
}
