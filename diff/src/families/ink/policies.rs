//! The INK family's registered differences of the core, each with the predicate that says
//! where its reason holds (read from the case, never from the core's answer).

use super::gen;
use crate::compare::{Excuse, Expect, Policy};

/// The INK family's registered differences.
pub const POLICIES: [Policy; 2] = [
    Policy {
        id: "field-line-breaks",
        core: Expect::Rejects("signature_base"),
        excuses: Excuse::ANY,
        applies: gen::field_has_line_break,
        reason: "a line break in a request field moves a field boundary of the signature base, so two requests could share one; INK refuses it (signature-base, path-with-newline-rejects)",
    },
    Policy {
        id: "ink-json-profile",
        core: Expect::RejectsAny,
        excuses: Excuse::ACCEPTING,
        applies: gen::outside_ink_profile,
        reason: "INK commits only bodies under its JSON profile — RFC 8785 and I-JSON, safe integers only (no fraction, no -0, |n| < 2^53), nesting at most 32 — so both of INK's implementations refuse what a plain JCS library would hash (merkle-leaf and jcs-number in INK's corpus)",
    },
];
