//! Ed25519 cases built from scratch where verifiers are known to differ: small-order and
//! mixed-order points, non-canonical encodings, `S` near and above the group order, each with
//! a signature that verifies under at least one reading of RFC 8032 — beside honest signatures
//! and their bit flips.
//!
//! The arithmetic is curve25519-dalek's, used directly; the edge-case analysis here is the
//! harness's own, so the core's policy is judged against it, not against itself.

use std::sync::OnceLock;

use canonfuzz_props::read::for_judgment::{self, Unreadable};
use curve25519_dalek::constants::EIGHT_TORSION;
use curve25519_dalek::edwards::{CompressedEdwardsY, EdwardsPoint};
use curve25519_dalek::scalar::Scalar;
use serde_json::json;
use sha2::{Digest, Sha512};

use canonfuzz_rng::Rng;

use crate::family::{Category, Field};
use crate::vector::{from_hex, to_hex};

/// Honest signatures and their bit flips.
pub const SIGNATURES: Category = Category::new(
    "signatures",
    "An honest Ed25519 signature, or one with a bit flipped.",
);
/// Small-order `A` or `R`.
pub const SMALL_ORDER: Category = Category::new(
    "small_order",
    "A or R is a small-order point; S makes the cofactored equation hold.",
);
/// Points with a small-order component.
pub const MIXED_ORDER: Category = Category::new(
    "mixed_order",
    "A or R has a small-order component; S makes the cofactored equation hold.",
);
/// Non-canonical point encodings.
pub const NON_CANONICAL: Category = Category::new(
    "non_canonical",
    "A or R is a non-canonical encoding of a small-order point.",
);
/// `S` near and above the group order.
pub const SCALAR_RANGE: Category =
    Category::new("scalar_range", "S is at, near or above the group order L.");

/// Every field of an Ed25519 case: the key, message and signature of every category.
pub const FIELDS: [Field; 3] = [
    Field::at("/key", "ed25519::verify", &CATEGORIES),
    Field::at("/msg", "ed25519::verify", &CATEGORIES),
    Field::at("/sig", "ed25519::verify", &CATEGORIES),
];

/// Every category of the family, in report order.
pub const CATEGORIES: [Category; 5] = [
    SIGNATURES,
    SMALL_ORDER,
    MIXED_ORDER,
    NON_CANONICAL,
    SCALAR_RANGE,
];

/// The group order L, little-endian.
const ORDER: [u8; 32] = [
    0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7, 0xa2, 0xde, 0xf9, 0xde, 0x14,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x10,
];

/// The field prime p = 2^255 - 19, little-endian.
const PRIME: [u8; 32] = [
    0xed, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f,
];

/// One Ed25519 verification: public key, message, signature.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ed25519Case {
    /// The public key's bytes (32 when well formed).
    pub key: Vec<u8>,
    /// The message.
    pub msg: Vec<u8>,
    /// The signature's bytes (64 when well formed).
    pub sig: Vec<u8>,
}

impl Ed25519Case {
    /// The case as a campaign input: one JSON line with the three fields in hex.
    pub fn encode(&self) -> Vec<u8> {
        json!({"key": to_hex(&self.key), "msg": to_hex(&self.msg), "sig": to_hex(&self.sig)})
            .to_string()
            .into_bytes()
    }

    /// Reads a campaign input back; `None` when it is not one (a minimizer's candidate may not be).
    pub fn parse(input: &[u8]) -> Option<Ed25519Case> {
        Ed25519Case::read(input).ok().flatten()
    }

    /// Reads a campaign case as a policy judges it: `Ok(None)` for a case without the three
    /// fields in hex, `Err` when the input cannot be read as a case at all.
    pub fn read(input: &[u8]) -> Result<Option<Ed25519Case>, Unreadable> {
        let value = for_judgment::case(input)?;
        let field = |name: &str| from_hex(value.get(name)?.as_str()?).ok();
        Ok((|| {
            Some(Ed25519Case {
                key: field("key")?,
                msg: field("msg")?,
                sig: field("sig")?,
            })
        })())
    }
}

/// The edge cases a key and signature show, by the CCTV flag names: small-order, mixed-order
/// and non-canonical `A` and `R`, and `S` not below L. A well-formed honest signature shows none.
pub fn edge_flags(key: &[u8], sig: &[u8]) -> Vec<&'static str> {
    let mut flags = Vec::new();
    let mut point = |bytes: &[u8], which: &str| {
        let Ok(bytes) = <[u8; 32]>::try_from(bytes) else {
            return;
        };
        let Some(p) = CompressedEdwardsY(bytes).decompress() else {
            return;
        };
        let a = which == "A";
        if p.compress().to_bytes() != bytes {
            flags.push(if a {
                "non_canonical_A"
            } else {
                "non_canonical_R"
            });
        }
        if p.is_small_order() {
            flags.push(if a { "low_order_A" } else { "low_order_R" });
        } else if !p.is_torsion_free() {
            flags.push(if a {
                "low_order_component_A"
            } else {
                "low_order_component_R"
            });
        }
    };
    point(key, "A");
    if sig.len() == 64 {
        point(sig.get(..32).unwrap_or_default(), "R");
        if !below(sig.get(32..).unwrap_or_default(), &ORDER) {
            flags.push("s_out_of_range");
        }
    }
    flags
}

/// Whether a campaign input shows any Ed25519 edge case.
pub fn has_edge_case(input: &[u8]) -> Result<bool, Unreadable> {
    Ok(Ed25519Case::read(input)?.is_some_and(|c| !edge_flags(&c.key, &c.sig).is_empty()))
}

/// Whether the little-endian number `n` is below `bound` (both 32 bytes).
fn below(n: &[u8], bound: &[u8; 32]) -> bool {
    for (a, b) in n.iter().rev().zip(bound.iter().rev()) {
        if a != b {
            return a < b;
        }
    }
    false
}

/// `n + m·L` for a little-endian 256-bit `n`, wrapping.
pub(crate) fn add_order(n: [u8; 32], m: u8) -> [u8; 32] {
    let mut out = [0u8; 32];
    let mut carry = 0u16;
    for ((o, a), b) in out.iter_mut().zip(n).zip(ORDER) {
        let sum = u16::from(a) + u16::from(b) * u16::from(m) + carry;
        *o = sum as u8;
        carry = sum >> 8;
    }
    out
}

/// Encodings of small-order points that are not canonical: `y + p` where that still fits in
/// 255 bits, and the sign bit set where `x` is zero.
fn non_canonical_small_order() -> &'static [[u8; 32]] {
    static LIST: OnceLock<Vec<[u8; 32]>> = OnceLock::new();
    LIST.get_or_init(|| {
        let mut list = Vec::new();
        for y in 0u8..19 {
            let mut bytes = PRIME;
            let (low, carry) = bytes[0].overflowing_add(y);
            bytes[0] = low;
            if carry {
                bytes[1] = bytes[1].wrapping_add(1);
            }
            for sign in [0u8, 0x80] {
                let mut b = bytes;
                b[31] |= sign;
                if CompressedEdwardsY(b)
                    .decompress()
                    .is_some_and(|p| p.is_small_order())
                {
                    list.push(b);
                }
            }
        }
        for t in EIGHT_TORSION {
            let mut b = t.compress().to_bytes();
            b[31] ^= 0x80;
            if CompressedEdwardsY(b)
                .decompress()
                .is_some_and(|p| p.compress().to_bytes() != b)
            {
                list.push(b);
            }
        }
        list
    })
}

pub(crate) fn scalar(rng: &mut Rng) -> Scalar {
    let mut wide = [0u8; 64];
    for chunk in wide.chunks_mut(8) {
        chunk.copy_from_slice(&rng.next_u64().to_le_bytes());
    }
    Scalar::from_bytes_mod_order_wide(&wide)
}

fn bytes(rng: &mut Rng, max: usize) -> Vec<u8> {
    let len = rng.index(max + 1);
    (0..len).map(|_| rng.next_u64() as u8).collect()
}

/// k = SHA-512(R ‖ A ‖ M) mod L, over the bytes as given.
fn challenge(r: &[u8; 32], a: &[u8; 32], msg: &[u8]) -> Scalar {
    let digest: [u8; 64] = Sha512::new()
        .chain_update(r)
        .chain_update(a)
        .chain_update(msg)
        .finalize()
        .into();
    Scalar::from_bytes_mod_order_wide(&digest)
}

/// A point as the signer builds it: its encoding and, when known, its discrete log to B
/// (small-order points have none that helps, so they count as zero in `S`).
pub(crate) struct Part {
    pub(crate) bytes: [u8; 32],
    log: Scalar,
}

impl Part {
    pub(crate) fn honest(log: Scalar) -> Part {
        Part {
            bytes: EdwardsPoint::mul_base(&log).compress().to_bytes(),
            log,
        }
    }

    fn torsion(rng: &mut Rng) -> EdwardsPoint {
        EIGHT_TORSION[rng.index(8)]
    }

    pub(crate) fn small_order(rng: &mut Rng) -> Part {
        let bytes = if rng.chance(30) {
            rng.pick(non_canonical_small_order())
        } else {
            Part::torsion(rng).compress().to_bytes()
        };
        Part {
            bytes,
            log: Scalar::ZERO,
        }
    }

    fn mixed(rng: &mut Rng, log: Scalar) -> Part {
        let torsion = loop {
            let t = Part::torsion(rng);
            if t != EdwardsPoint::default() {
                break t;
            }
        };
        Part {
            bytes: (EdwardsPoint::mul_base(&log) + torsion)
                .compress()
                .to_bytes(),
            log,
        }
    }
}

/// `S = log(R) + k·log(A)`: the signature every cofactored verifier accepts for these parts,
/// and the cofactorless ones too when the small-order components cancel.
pub(crate) fn sign(a: &Part, r: &Part, msg: &[u8], reencode: bool) -> Vec<u8> {
    let canonical = |b: &[u8; 32]| {
        CompressedEdwardsY(*b)
            .decompress()
            .map_or(*b, |p| p.compress().to_bytes())
    };
    let k = if reencode {
        challenge(&canonical(&r.bytes), &canonical(&a.bytes), msg)
    } else {
        challenge(&r.bytes, &a.bytes, msg)
    };
    let s = r.log + k * a.log;
    let mut sig = r.bytes.to_vec();
    sig.extend_from_slice(s.as_bytes());
    sig
}

/// The input for case `index` of an Ed25519 campaign with `seed`.
pub fn case(seed: u64, index: u64) -> (Category, Vec<u8>) {
    let mut rng = Rng::for_case(seed, index);
    let category = match rng.index(100) {
        0..=24 => SIGNATURES,
        25..=44 => SMALL_ORDER,
        45..=64 => MIXED_ORDER,
        65..=82 => NON_CANONICAL,
        _ => SCALAR_RANGE,
    };
    let msg = bytes(&mut rng, 12);
    let a_log = scalar(&mut rng);
    let r_log = scalar(&mut rng);
    let reencode = rng.chance(20);
    let case = match category {
        SIGNATURES => {
            let a = Part::honest(a_log);
            let mut c = Ed25519Case {
                key: a.bytes.to_vec(),
                sig: sign(&a, &Part::honest(r_log), &msg, false),
                msg,
            };
            if rng.chance(50) {
                let target = match rng.index(3) {
                    0 => &mut c.key,
                    1 => &mut c.sig,
                    _ => &mut c.msg,
                };
                if target.is_empty() || rng.chance(10) {
                    target.push(rng.next_u64() as u8);
                } else {
                    let i = rng.index(target.len());
                    if let Some(b) = target.get_mut(i) {
                        *b ^= 1 << rng.index(8);
                    }
                }
            }
            c
        }
        SMALL_ORDER | NON_CANONICAL => {
            let (a, r) = match rng.index(3) {
                0 => (Part::small_order(&mut rng), Part::small_order(&mut rng)),
                1 => (Part::small_order(&mut rng), Part::honest(r_log)),
                _ => (Part::honest(a_log), Part::small_order(&mut rng)),
            };
            let (a, r) = if category == NON_CANONICAL {
                let pick = |rng: &mut Rng, part: Part| {
                    if rng.chance(60) {
                        Part {
                            bytes: rng.pick(non_canonical_small_order()),
                            log: Scalar::ZERO,
                        }
                    } else {
                        part
                    }
                };
                let a = pick(&mut rng, a);
                (a, pick(&mut rng, r))
            } else {
                (a, r)
            };
            Ed25519Case {
                key: a.bytes.to_vec(),
                sig: sign(&a, &r, &msg, reencode),
                msg,
            }
        }
        MIXED_ORDER => {
            let mixed_a = rng.chance(70);
            let a = if mixed_a {
                Part::mixed(&mut rng, a_log)
            } else {
                Part::honest(a_log)
            };
            let r = if !mixed_a || rng.chance(50) {
                Part::mixed(&mut rng, r_log)
            } else {
                Part::honest(r_log)
            };
            Ed25519Case {
                key: a.bytes.to_vec(),
                sig: sign(&a, &r, &msg, reencode),
                msg,
            }
        }
        _ => {
            let a = Part::honest(a_log);
            let mut sig = sign(&a, &Part::honest(r_log), &msg, false);
            let mut s = [0u8; 32];
            s.copy_from_slice(sig.get(32..).unwrap_or(&[0; 32]));
            let s = match rng.index(5) {
                0 | 1 => add_order(s, 1 + rng.index(15) as u8),
                2 => ORDER,
                3 => {
                    let mut below_order = ORDER;
                    below_order[0] -= 1;
                    below_order
                }
                _ => {
                    let mut high = s;
                    high[31] |= 0xe0;
                    high
                }
            };
            sig.truncate(32);
            sig.extend_from_slice(&s);
            Ed25519Case {
                key: a.bytes.to_vec(),
                sig,
                msg,
            }
        }
    };
    (category, case.encode())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn honest_signatures_verify_and_show_no_edge_case() {
        for i in 0..200 {
            let mut rng = Rng::for_case(3, i);
            let a = Part::honest(scalar(&mut rng));
            let r = Part::honest(scalar(&mut rng));
            let sig = sign(&a, &r, b"msg", false);
            assert!(edge_flags(&a.bytes, &sig).is_empty());
            let key = ed25519_dalek::VerifyingKey::from_bytes(&a.bytes).unwrap();
            let sig = ed25519_dalek::Signature::from_slice(&sig).unwrap();
            key.verify_strict(b"msg", &sig).unwrap();
        }
    }

    #[test]
    fn the_non_canonical_encodings_are_those_cctv_lists() {
        // CCTV's non-canonical small-order encodings of y = 1 (sign bit set) and y = p + 1.
        let list: Vec<String> = non_canonical_small_order()
            .iter()
            .map(|b| to_hex(b))
            .collect();
        for want in [
            "0100000000000000000000000000000000000000000000000000000000000080",
            "eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
        ] {
            assert!(
                list.iter().any(|h| h == want),
                "{want} missing from {list:?}"
            );
        }
    }

    #[test]
    fn every_category_is_generated_and_shows_its_edge_cases() {
        let mut seen = std::collections::BTreeSet::new();
        for i in 0..2000 {
            let (category, input) = case(1, i);
            let c = Ed25519Case::parse(&input).unwrap();
            assert_eq!(Ed25519Case::parse(&c.encode()), Some(c.clone()));
            seen.insert(category);
            let flags = edge_flags(&c.key, &c.sig);
            let mut just_below = ORDER;
            just_below[0] -= 1;
            let near_order = c.sig.get(32..) == Some(&just_below[..]);
            if category != SIGNATURES && !near_order {
                assert!(
                    !flags.is_empty(),
                    "{category:?} case {i} shows no edge case"
                );
            }
        }
        assert_eq!(seen.len(), 5);
    }
}
