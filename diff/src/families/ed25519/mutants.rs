//! Ed25519 mutants: the strict core with one of its checks left out, so that a small-order or
//! mixed-order point, a non-canonical encoding or `S` ≥ L is accepted where the core refuses.

use curve25519_dalek::Scalar;

use super::impls as verifiers;
use crate::families::ed25519::gen::Ed25519Case;
use crate::mutants::Mutant;
use crate::outcome::Outcome;

fn core(input: &[u8]) -> Outcome {
    (verifiers::core().answer)(input)
}

/// The core's answer, except that where it refuses with one of `kinds`, `lax`'s acceptance
/// stands.
fn lax_where(input: &[u8], kinds: &[&str], lax: fn(&[u8]) -> Outcome) -> Outcome {
    match core(input) {
        Outcome::Rejected(kind) if kinds.contains(&kind.as_str()) => match lax(input) {
            Outcome::Ok(valid) => Outcome::Ok(valid),
            _ => Outcome::Rejected(kind),
        },
        other => other,
    }
}

/// The core's answer with `S` reduced modulo L first.
fn reduced(input: &[u8]) -> Outcome {
    let Some(mut case) = Ed25519Case::parse(input) else {
        return Outcome::Unsupported;
    };
    if let Some(s) = case
        .sig
        .get(32..64)
        .and_then(|s| <[u8; 32]>::try_from(s).ok())
    {
        case.sig.truncate(32);
        case.sig
            .extend_from_slice(Scalar::from_bytes_mod_order(s).as_bytes());
    }
    core(&case.encode())
}

/// Every Ed25519 mutant.
pub const MUTANTS: [Mutant; 3] = [
    Mutant {
        family: super::FAMILY,
        name: "small-order-accepted",
        bug:
            "no small-order or mixed-order check on A and R: RFC 8032's cofactorless equation alone",
        answer: |input| {
            lax_where(
                input,
                &["small_order", "mixed_order"],
                verifiers::dalek_verify().answer,
            )
        },
    },
    Mutant {
        family: super::FAMILY,
        name: "non-canonical-accepted",
        bug: "non-canonical encodings of A and R decoded, not refused (ZIP-215's rules)",
        answer: |input| lax_where(input, &["non_canonical"], verifiers::zebra().answer),
    },
    Mutant {
        family: super::FAMILY,
        name: "s-not-range-checked",
        bug: "S reduced modulo L instead of refused when S >= L",
        answer: |input| lax_where(input, &["s_out_of_range"], reduced),
    },
];
