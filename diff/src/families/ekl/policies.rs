//! ekl's registered differences of the core, each with the predicate that says
//! where its reason holds (read from the case, never from the core's answer).

use super::gen;
use crate::compare::{Excuse, Expect, Policy};

/// ekl's registered differences.
pub const POLICIES: [Policy; 2] = [
    Policy {
        id: "i-json-values",
        core: Expect::Rejects("json"),
        excuses: Excuse::ANY,
        applies: gen::value_refused_by_jcs,
        reason: "a fingerprint is over the JCS form, and the core refuses what RFC 8785 and I-JSON refuse (duplicate names, lone surrogates, numbers beyond the double range, nesting past its bound) — the JCS family's registered policies — where JSON.parse or json.loads reads something and fingerprints it",
    },
    Policy {
        id: "challenge-lowercase-hex",
        core: Expect::Rejects("challenge"),
        excuses: Excuse::ANY,
        applies: gen::challenge_not_lowercase_hex,
        reason: "the proof covers the challenge's text, so the core takes the challenge only as the lowercase hex the endpoint sends; a differently cased challenge would prove something else",
    },
];
