//! The verifiable-mcp family's registered differences of the core, each with the predicate that says
//! where its reason holds (read from the case, never from the core's answer).

use super::gen;
use crate::compare::{Excuse, Expect, Policy};

/// The verifiable-mcp family's registered differences.
pub const POLICIES: [Policy; 5] = [
    Policy {
        id: "one-text-arm",
        core: Expect::Rejects("unsigned_member"),
        excuses: Excuse::ANY,
        applies: gen::content_beyond_text_arm,
        reason: "SPEC §6 binds content_digest to item 0's text only and leaves further items, and other members of item 0, \"at the reader's risk\"; the core refuses what no signature covers, where verifiers that follow the letter of §6 accept",
    },
    Policy {
        id: "duplicate-names",
        core: Expect::Rejects("envelope"),
        excuses: Excuse::ANY,
        applies: gen::response_has_duplicate_names,
        reason: "a response whose object names a member twice is not I-JSON (RFC 7493 §2.3): JSON.parse and json.loads keep the last, other readers the first, so a client may read the unsigned one; the core refuses it",
    },
    Policy {
        id: "depth-bound",
        core: Expect::Rejects("envelope"),
        excuses: Excuse::ANY,
        applies: gen::response_nested_past_bound,
        reason: "the core reads a response with its canonicalizer's nesting bound (10,000 levels), so that no response can exhaust its memory; readers without a bound go on",
    },
    Policy {
        id: "key-restrictions",
        core: Expect::Rejects("jws"),
        excuses: Excuse::ANY,
        applies: gen::named_key_restricted,
        reason: "RFC 7517 §4.2-4.4: a key whose `use` is not `sig`, whose `alg` is not an EdDSA name or whose `key_ops` lack `verify` is not for verifying this signature, and one with its private part `d` does not belong in a published key set; the core refuses to verify with it, where verifiers that hand the key to their JOSE library as it is accept",
    },
    Policy {
        id: "exact-numbers",
        core: Expect::RejectsAny,
        excuses: Excuse::ACCEPTING,
        applies: gen::served_number_read_otherwise,
        reason: "a client that reads numbers exactly (Python with Decimal, Go's json.Number, a Rust u64) reads a served number that only rounds to the signed double as a value nobody signed, Python's json reads an integer literal as an exact int and any other number as a float, so 1.2345678901234567e19 and 12345678901234567000 as two values, and a client reads a JSON-RPC id or code as the integer it is written as; the core compares served numbers with the signed ones by exact decimal value and by that reading, and refuses ids and codes not written as integers, where a verifier that compares doubles or decimals alone accepts",
    },
];
