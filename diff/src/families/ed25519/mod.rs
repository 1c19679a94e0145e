//! Ed25519 signature verification (`canonfuzz_ed25519_v1`): the core's strict policy against
//! the Rust verifiers in process and Node's and Python's as workers, on honest signatures and
//! the points, encodings and scalars where RFC 8032, ZIP-215 and lax decoders part ways.

pub mod gen;
pub mod impls;
pub mod mutants;
pub mod policies;

use canonfuzz_core::ed25519::{self, policy_accepts, Flag};

use crate::compare::Rules;
use crate::family::{Category, CorpusTable, Family, Spec};
use crate::impls::{worker, Implementation};
use crate::mutants::Mutant;
use crate::vector::{from_hex, to_hex, Expectation, Note, TestCase};
use gen::Ed25519Case;

/// The Ed25519 family, as registered.
pub const FAMILY: Family = Family::new(&Ed25519);

/// Ed25519 signature verification.
pub struct Ed25519;

impl Spec for Ed25519 {
    fn name(&self) -> &'static str {
        "ed25519"
    }

    fn schema(&self) -> &'static str {
        crate::vector::ED25519_SCHEMA
    }

    fn vector_kind(&self) -> (&'static str, &'static str) {
        ("Ed25519", "Ed25519Verify")
    }

    fn categories(&self) -> &'static [Category] {
        &gen::CATEGORIES
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
            Box::new(worker::node("node-crypto", "crypto", "openssl")),
            Box::new(worker::node("noble-ed25519", "@noble/ed25519", "noble")),
            Box::new(worker::python("pynacl", "pynacl", impls::LIBSODIUM_GROUP)),
        ]
    }

    fn rules(&self) -> Rules {
        Rules {
            family: "ed25519",
            policies: &policies::POLICIES,
            reference_group: impls::LIBSODIUM_GROUP,
        }
    }

    fn reference_reason(&self) -> &'static str {
        "libsodium's answer, the verifier most deployments link"
    }

    fn corpus_table(&self) -> Option<CorpusTable> {
        Some(crate::report::ed25519_corpus_table)
    }

    fn test_for(&self, input: &[u8], _kind: Option<&str>) -> Option<TestCase> {
        let case = Ed25519Case::parse(input)?;
        Some(TestCase {
            public_key: Some(to_hex(&case.key)),
            msg: Some(to_hex(&case.msg)),
            sig: Some(to_hex(&case.sig)),
            ..TestCase::default()
        })
    }

    fn states_output(&self) -> bool {
        false
    }

    /// The edge cases the input shows, by CCTV's flag names.
    fn input_flags(&self, input: &[u8]) -> Vec<(String, Note)> {
        let Some(case) = Ed25519Case::parse(input) else {
            return Vec::new();
        };
        let mut notes = crate::import::ed25519::policy_notes();
        gen::edge_flags(&case.key, &case.sig)
            .into_iter()
            .filter_map(|flag| notes.remove_entry(flag))
            .collect()
    }

    fn lint(&self, test: &TestCase) -> Vec<String> {
        lint(test)
    }

    fn check(&self, test: &TestCase) -> Result<(), String> {
        check(test)
    }

    fn mutants(&self) -> &'static [Mutant] {
        &mutants::MUTANTS
    }
}

/// Runs one Ed25519 test: the core's verdict must be the test's result.
fn check(test: &TestCase) -> Result<(), String> {
    let field = |v: &Option<String>, name: &str| {
        v.as_deref()
            .ok_or_else(|| format!("missing {name}"))
            .and_then(from_hex)
    };
    let key = field(&test.public_key, "publicKey")?;
    let msg = field(&test.msg, "msg")?;
    let sig = field(&test.sig, "sig")?;
    let verdict = ed25519::verify(&key, &msg, &sig);
    let comment = &test.comment;
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

/// An Ed25519 test carries key, message and signature as hex; where every flag is one of the
/// policy's edge cases, its result must be the one the policy derives from them.
fn lint(test: &TestCase) -> Vec<String> {
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
    if let Some(flags) = policy_flags {
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
