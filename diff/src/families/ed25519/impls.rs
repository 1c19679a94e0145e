//! Ed25519 verifiers in process. The core, ed25519-dalek (`verify` and `verify_strict`) and
//! ed25519-zebra share curve25519-dalek's arithmetic; ed25519-compact is a port of libsodium's
//! ref10 code, so it votes with PyNaCl; ring carries BoringSSL's code. Each accepts with
//! `valid` or rejects; only the core's rejections carry a reason.

use crate::families::ed25519::gen::Ed25519Case;
use crate::impls::in_process::{other, verdict, InProcess};
use crate::outcome::{Outcome, VALID};

/// The independence group of verifiers on curve25519-dalek.
pub const DALEK_GROUP: &str = "curve25519-dalek";
/// The group of libsodium and its ports.
pub const LIBSODIUM_GROUP: &str = "libsodium";

fn answer<E>(
    input: &[u8],
    check: fn(&Ed25519Case) -> Result<(), E>,
    kind: fn(E) -> String,
) -> Outcome {
    match Ed25519Case::parse(input) {
        Some(case) => verdict(check(&case).map(|()| VALID.to_vec()), kind),
        None => Outcome::Unsupported,
    }
}

fn arrays(case: &Ed25519Case) -> Result<([u8; 32], [u8; 64]), String> {
    let key = <[u8; 32]>::try_from(case.key.as_slice()).map_err(|e| e.to_string())?;
    let sig = <[u8; 64]>::try_from(case.sig.as_slice()).map_err(|e| e.to_string())?;
    Ok((key, sig))
}

/// The core's strict policy.
pub fn core() -> InProcess {
    InProcess::core(|input| {
        answer(
            input,
            |c| canonfuzz_core::ed25519::verify(&c.key, &c.msg, &c.sig),
            |e| e.kind().to_string(),
        )
    })
}

fn dalek(case: &Ed25519Case, strict: bool) -> Result<(), String> {
    use ed25519_dalek::{Signature, Verifier, VerifyingKey};
    let (key, sig) = arrays(case)?;
    let key = VerifyingKey::from_bytes(&key).map_err(|e| e.to_string())?;
    let sig = Signature::from_bytes(&sig);
    if strict {
        key.verify_strict(&case.msg, &sig)
    } else {
        key.verify(&case.msg, &sig)
    }
    .map_err(|e| e.to_string())
}

/// ed25519-dalek 2's `verify`: RFC 8032's cofactorless equation, no point checks.
pub fn dalek_verify() -> InProcess {
    InProcess {
        name: "ed25519-dalek-verify",
        krate: "ed25519-dalek",
        version: "2.2.0",
        group: DALEK_GROUP,
        answer: |input| answer(input, |c| dalek(c, false), other),
    }
}

/// ed25519-dalek 2's `verify_strict`: also refuses small-order A and R.
pub fn dalek_verify_strict() -> InProcess {
    InProcess {
        name: "ed25519-dalek-verify_strict",
        krate: "ed25519-dalek",
        version: "2.2.0",
        group: DALEK_GROUP,
        answer: |input| answer(input, |c| dalek(c, true), other),
    }
}

/// ed25519-zebra: ZIP-215's cofactored rules.
pub fn zebra() -> InProcess {
    InProcess {
        name: "ed25519-zebra",
        krate: "ed25519-zebra",
        version: "5.0.0",
        group: DALEK_GROUP,
        answer: |input| {
            answer(
                input,
                |c| {
                    let (key, sig) = arrays(c)?;
                    let key =
                        ed25519_zebra::VerificationKey::try_from(key).map_err(|e| e.to_string())?;
                    key.verify(&ed25519_zebra::Signature::from_bytes(&sig), &c.msg)
                        .map_err(|e| e.to_string())
                },
                other,
            )
        },
    }
}

/// ed25519-compact: libsodium's checks, ported to Rust.
pub fn compact() -> InProcess {
    InProcess {
        name: "ed25519-compact",
        krate: "ed25519-compact",
        version: "2.6.1",
        group: LIBSODIUM_GROUP,
        answer: |input| {
            answer(
                input,
                |c| {
                    let key = ed25519_compact::PublicKey::from_slice(&c.key)?;
                    let sig = ed25519_compact::Signature::from_slice(&c.sig)?;
                    key.verify(&c.msg, &sig)
                },
                other,
            )
        },
    }
}

/// ring: BoringSSL's verifier.
pub fn ring() -> InProcess {
    InProcess {
        name: "ring",
        krate: "ring",
        version: "0.17.14",
        group: "boringssl",
        answer: |input| {
            answer(
                input,
                |c| {
                    ring::signature::UnparsedPublicKey::new(&ring::signature::ED25519, &c.key)
                        .verify(&c.msg, &c.sig)
                },
                other,
            )
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::impls::Implementation;

    #[test]
    fn every_verifier_accepts_rfc_8032s_test_1_and_nothing_else() {
        // RFC 8032 §7.1, TEST 1: the empty message.
        let case = Ed25519Case {
            key: crate::vector::from_hex("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a").unwrap(),
            msg: Vec::new(),
            sig: crate::vector::from_hex("e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b").unwrap(),
        };
        let mut wrong = case.clone();
        wrong.msg = b"x".to_vec();
        for imp in [
            core(),
            dalek_verify(),
            dalek_verify_strict(),
            zebra(),
            compact(),
            ring(),
        ] {
            let out = imp.run_batch(&[&case.encode(), &wrong.encode(), b"not a case"]);
            assert_eq!(out[0], Outcome::Ok(VALID.to_vec()), "{}", imp.name);
            assert!(matches!(out[1], Outcome::Rejected(_)), "{}", imp.name);
            assert_eq!(out[2], Outcome::Unsupported, "{}", imp.name);
        }
    }
}
