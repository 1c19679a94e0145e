//! What an Ed25519 verifier did wrong, in RFC 8032's terms: the edge case of the key or the
//! signature it accepted, read from the input by the strict reading of the core, which names
//! the first problem it meets (a point's encoding, its order, the scalar, the equation).

use canonfuzz_core::ed25519::{verify, Ed25519Error};

use super::gen::Ed25519Case;
use crate::bugs::Difference;
use crate::family::Answer;
use crate::outcome::Outcome;

/// The rule an edge case breaks and the words for accepting it.
fn accepted(why: Ed25519Error) -> (&'static str, String) {
    match why {
        Ed25519Error::BadLength { what, .. } => {
            ("encoding", format!("accepts a {what} of the wrong length"))
        }
        Ed25519Error::NotAPoint { which } => (
            "encoding",
            format!("accepts an {which} that is not a curve point"),
        ),
        Ed25519Error::NonCanonical { which } => (
            "encoding",
            format!("accepts a non-canonical encoding of {which}"),
        ),
        Ed25519Error::SmallOrder { which } => ("order", format!("accepts a small-order {which}")),
        Ed25519Error::MixedOrder { which } => (
            "order",
            format!("accepts an {which} with a small-order component"),
        ),
        Ed25519Error::ScalarOutOfRange => (
            "scalar",
            "accepts S at or above the group order".to_string(),
        ),
        Ed25519Error::Mismatch => (
            "equation",
            "accepts a signature the cofactorless equation refuses".to_string(),
        ),
    }
}

/// The rule and shape of an acceptance the strict reading refuses; `None` for any other
/// difference, filed under the case's category.
pub fn difference(answer: &Answer<'_>) -> Option<Difference> {
    let (Outcome::Rejected(_), Outcome::Ok(_)) = (answer.expected, answer.actual) else {
        return None;
    };
    let case = Ed25519Case::parse(answer.input)?;
    let why = verify(&case.key, &case.msg, &case.sig).err()?;
    let (rule, shape) = accepted(why);
    Some(Difference {
        rule: rule.to_string(),
        shape,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vector::to_hex;

    fn accepting(key: &[u8], sig: &[u8]) -> Option<(String, String)> {
        let input = format!(
            r#"{{"key":"{}","msg":"","sig":"{}"}}"#,
            to_hex(key),
            to_hex(sig)
        );
        difference(&Answer {
            implementation: "lax",
            input: input.as_bytes(),
            expected: &Outcome::Rejected("other".into()),
            actual: &Outcome::Ok(b"valid".to_vec()),
        })
        .map(|d| (d.rule, d.shape))
    }

    #[test]
    fn an_acceptance_is_named_by_the_edge_case_the_strict_reading_refuses() {
        // The identity point, encoded 01 00…00 (RFC 8032 §5.1.3), is of order one; an S of
        // all ones is far above L = 2^252 + 27742317777372353535851937790883648493.
        let mut identity = [0u8; 32];
        identity[0] = 1;
        let honest_r = {
            let mut r = [0u8; 32];
            r[0] = 0x58;
            r[1..].fill(0x66);
            r
        };
        assert_eq!(
            accepting(&identity, &[identity, identity].concat()),
            Some((
                "order".into(),
                "accepts a small-order A (the public key)".into()
            ))
        );
        let base = honest_r;
        let mut s_high = [0xffu8; 32];
        s_high[31] = 0x7f;
        let (rule, _) = accepting(&base, &[base, s_high].concat()).unwrap();
        assert_eq!(rule, "scalar");
        // The identity's y = 1 written as y = 1 + p: a non-canonical encoding.
        let mut non_canonical = [0xffu8; 32];
        non_canonical[0] = 0xee;
        non_canonical[31] = 0x7f;
        assert_eq!(
            accepting(&non_canonical, &[base, [0; 32]].concat()),
            Some((
                "encoding".into(),
                "accepts a non-canonical encoding of A (the public key)".into()
            ))
        );
        // Other differences are left to the case's category.
        assert!(difference(&Answer {
            implementation: "strict",
            input: b"{}",
            expected: &Outcome::Ok(b"valid".to_vec()),
            actual: &Outcome::Rejected("mismatch".into()),
        })
        .is_none());
    }
}
