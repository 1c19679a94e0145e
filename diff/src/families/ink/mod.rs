//! INK's decisions (`canonfuzz_ink_v1`): leaf hashes, signature bases, bodies' canonical
//! form, principals, inclusion proofs from the root down, checkpoint bodies, requests'
//! signatures alone and under key histories, timestamps, and freshness and replay — the core
//! against INK's Python and Node implementations and a judge in process, on event and request
//! bodies from the JCS generator, request fields that carry the line breaks INK refuses, and
//! timestamps and nonces at the edges of INK's grammar and window.

pub mod audits;
pub mod cards;
pub mod checkpoints;
pub mod compared;
pub mod decided;
pub mod fuzz;
pub mod gen;
pub mod impls;
pub mod judge;
pub mod mutants;
pub mod policies;
pub mod principals;
pub mod published;
pub mod receipts;
pub mod shapes;
pub mod signed;
pub mod times;
pub mod transported;
pub mod witnessed;

use crate::compare::Rules;
use crate::family::{Category, CheckTest, Facts, Family, PublishedFile, Spec};
use crate::impls::Implementation;
use crate::mutants::Mutant;
use crate::vector_check::OutputVectors;
use crate::workers;

/// INK's leaf hashes and signature bases.
pub struct Ink;

/// The schema name of INK campaign finding files (leaf hashes and signature bases).
pub const SCHEMA: &str = "canonfuzz_ink_v1";

/// The family, as registered.
pub const FAMILY: Family = Family::new(&Ink);

/// Its vector tests: a campaign input and what it yields.
static VECTORS: OutputVectors = OutputVectors(FAMILY);

/// The family's constant facts.
const FACTS: Facts = Facts {
    name: "ink",
    title: "INK hashes, bodies, principals, timestamps and freshness",
    schema: SCHEMA,
    vector_kind: ("INK", "InkFinding"),
    categories: &gen::CATEGORIES,
    fields: &gen::FIELDS,
    reference_reason: "V8's answer, as INK's reference implementation runs on it",
    shares_with_core: &[],
    sample_percent: 25,
    nightly_weight: 10,
    nightly_rate: 8000,
    decisions: &[
        "accepted",
        "json",
        "number",
        "not_an_object",
        "too_many_values",
        "too_large",
        "signature_base",
        "signature_format",
        "key",
        "signature",
        "signature_verification_failed",
        "retired_key_for_live_auth",
        "duplicate_event_id",
        "sender_mismatch",
        "chain",
        "canonical_form",
        "transport_scope_violation",
        "handshake_budget_exhausted",
        "sender_rate_limited",
        "visibility",
        "redacted_card",
        "invalid_authorization",
        "invalid_body",
        "unknown_sender",
        "invalid_key_history",
        "structure",
        "binding",
        "scope",
        "event",
        "schema",
        "principal",
        "checkpoint",
        "hash",
        "index",
        "size",
        "proof",
        "timestamp",
        "nonce",
        "stale",
        "future",
        "replay",
    ],
};

impl Spec for Ink {
    fn fuzzing(&self) -> Option<&'static crate::fuzz_target::Fuzzing> {
        Some(&fuzz::FUZZING)
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
            Box::new(judge::JUDGE),
            Box::new(
                workers::python(FACTS.name, "python-ink", "ink", "cpython").pinned_as("rfc8785"),
            ),
            Box::new(
                workers::node(FACTS.name, "node-ink", "ink", "node-v8").pinned_as("canonicalize"),
            ),
        ]
    }

    fn rules(&self) -> Rules {
        Rules {
            family: "ink",
            policies: &policies::POLICIES,
            reference_group: "node-v8",
        }
    }

    fn vectors(&self) -> &dyn CheckTest {
        &VECTORS
    }

    fn mutants(&self) -> &'static [Mutant] {
        &mutants::MUTANTS
    }

    fn published(&self, bytes: &[u8]) -> Option<Box<dyn PublishedFile>> {
        published::InkVectors::parse(bytes)
            .map(|v| Box::new(v) as Box<dyn PublishedFile>)
            .or_else(|| {
                published::InkManifest::parse(bytes).map(|m| Box::new(m) as Box<dyn PublishedFile>)
            })
    }

    fn published_schemas(&self) -> &'static [&'static str] {
        &[published::INK_SCHEMA, published::INK_MANIFEST_SCHEMA]
    }
}
