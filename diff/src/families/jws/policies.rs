//! The JWS family's registered differences of the core, each with the predicate that says
//! where its reason holds (read from the case, never from the core's answer).

use super::gen;
use crate::compare::{Excuse, Expect, Policy};

/// The JWS family's registered differences.
pub const POLICIES: [Policy; 10] = [
    Policy {
        id: "strict-ed25519",
        core: Expect::RejectsAny,
        excuses: Excuse::ACCEPTING,
        applies: gen::signature_has_edge_case,
        reason: "the signature or key shows an Ed25519 edge case (small-order or mixed-order point, non-canonical encoding, S >= L) that the core's strict Ed25519 policy refuses",
    },
    Policy {
        id: "strict-base64url",
        core: Expect::Rejects("base64"),
        excuses: Excuse::ANY,
        applies: gen::lax_base64url,
        reason: "RFC 7515 §2 and §C: base64url without padding, whitespace, other alphabets or non-zero unused bits; a decoder that tolerates these lets one signature stand for many token texts",
    },
    Policy {
        id: "duplicate-header-parameters",
        core: Expect::Rejects("json"),
        excuses: Excuse::ANY,
        applies: gen::header_has_duplicates,
        reason: "RFC 7515 §5.2 step 4: a header with duplicate parameter names must be rejected (or parsed as I-JSON, which forbids them); keeping the last one lets two readers see different algorithms or keys",
    },
    Policy {
        id: "ed25519-alg-name",
        core: Expect::Accepts,
        excuses: Excuse::REJECTING,
        applies: gen::alg_is_ed25519,
        reason: "RFC 9864 registers the fully-specified `Ed25519` algorithm name beside the polymorphic `EdDSA`; the core accepts both for an Ed25519 key, libraries older than the RFC know only `EdDSA`",
    },
    Policy {
        id: "b64-refused",
        core: Expect::Rejects("b64"),
        excuses: Excuse::ANY,
        applies: gen::b64_not_true,
        reason: "RFC 7797: a header with `b64` other than true changes what was signed; verifiers that ignore it read the token one way, those that honour it another, so the core refuses it rather than half-support it",
    },
    Policy {
        id: "crit-refused",
        core: Expect::Rejects("crit"),
        excuses: Excuse::ANY,
        applies: gen::has_crit,
        reason: "RFC 7515 §4.1.11: a recipient must reject a token whose `crit` lists an extension it does not understand, and producers must not send `[]` or names the JWS specification defines; the core understands no extension, so it refuses every `crit`",
    },
    Policy {
        id: "header-bom",
        core: Expect::Rejects("json"),
        excuses: Excuse::ANY,
        applies: gen::header_has_bom,
        reason: "RFC 7515 §5.2 requires the header to be a UTF-8 JSON object, and RFC 8259 §8.1 forbids a byte order mark before JSON text; parsers that skip it accept a header others refuse",
    },
    Policy {
        id: "header-types",
        core: Expect::Rejects("shape"),
        excuses: Excuse::ANY,
        applies: gen::header_parameter_mistyped,
        reason: "RFC 7515 §4.1 defines `alg`, `kid`, `typ` and `cty` as strings and `crit` as an array; a token with another type there (`kid: null`, say) is malformed, not a token without the parameter",
    },
    Policy {
        id: "key-restrictions",
        core: Expect::Rejects("key_mismatch"),
        excuses: Excuse::ANY,
        applies: gen::key_restricted,
        reason: "RFC 7517 §4.2-4.4: a key whose `use` is not `sig`, whose `alg` is not an EdDSA name or whose `key_ops` lack `verify` is not for verifying EdDSA signatures; a key carrying its private part `d` does not belong in a verification key set",
    },
    Policy {
        id: "kid-selects-key",
        core: Expect::Rejects("unknown_key"),
        excuses: Excuse::ANY,
        applies: gen::kid_names_another_key,
        reason: "the core, handed the case's one key pinned, refuses a token whose `kid` names another key (or a key that carries no `kid`): it cannot be the key the token was signed for; the libraries are handed the key directly and never look",
    },
];
