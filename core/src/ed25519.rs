//! Ed25519 signature verification (RFC 8032) under one policy, stated as the edge cases it
//! accepts and rejects.
//!
//! RFC 8032 leaves room: implementations differ on small-order and mixed-order points,
//! non-canonical point encodings, scalars `S ≥ L`, and whether the verification equation is
//! multiplied by the cofactor. Signatures verified here gate trust (a JWS over a tool result, a
//! signed request), so the policy is the strict one: every edge case is rejected, and a valid
//! signature is one that every conforming verifier accepts.
//!
//! - `A` and `R` must be canonical encodings of points in the prime-order subgroup: neither
//!   small-order nor mixed-order;
//! - `S` must be below the group order `L`;
//! - the equation is the cofactorless `[S]B = R + [k]A`, `k = SHA-512(R ‖ A ‖ M) mod L` over
//!   the bytes as given. With both points torsion-free, the cofactored equation agrees with it.

use curve25519_dalek::edwards::{CompressedEdwardsY, EdwardsPoint};
use curve25519_dalek::scalar::Scalar;
use sha2::{Digest, Sha512};

/// An edge case a signature, key and message may exhibit. The names are those of the CCTV
/// Ed25519 test vectors, plus `s_out_of_range`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Flag {
    /// `A` is of small order (one of the eight torsion points).
    LowOrderA,
    /// `R` is of small order.
    LowOrderR,
    /// `A` has a small-order component (mixed order).
    LowOrderComponentA,
    /// `R` has a small-order component (mixed order).
    LowOrderComponentR,
    /// The signature verifies only under the cofactored equation.
    LowOrderResidue,
    /// `A` is encoded non-canonically.
    NonCanonicalA,
    /// `R` is encoded non-canonically.
    NonCanonicalR,
    /// `k` was computed over re-encoded (canonical) points rather than the bytes given.
    ReencodedK,
    /// `S` is not below the group order.
    SOutOfRange,
}

impl Flag {
    /// Every flag.
    pub const ALL: [Flag; 9] = [
        Flag::LowOrderA,
        Flag::LowOrderR,
        Flag::LowOrderComponentA,
        Flag::LowOrderComponentR,
        Flag::LowOrderResidue,
        Flag::NonCanonicalA,
        Flag::NonCanonicalR,
        Flag::ReencodedK,
        Flag::SOutOfRange,
    ];

    /// The flag's name in vector files.
    pub fn name(self) -> &'static str {
        match self {
            Flag::LowOrderA => "low_order_A",
            Flag::LowOrderR => "low_order_R",
            Flag::LowOrderComponentA => "low_order_component_A",
            Flag::LowOrderComponentR => "low_order_component_R",
            Flag::LowOrderResidue => "low_order_residue",
            Flag::NonCanonicalA => "non_canonical_A",
            Flag::NonCanonicalR => "non_canonical_R",
            Flag::ReencodedK => "reencoded_k",
            Flag::SOutOfRange => "s_out_of_range",
        }
    }

    /// The flag with this name.
    pub fn from_name(name: &str) -> Option<Flag> {
        Flag::ALL.into_iter().find(|f| f.name() == name)
    }
}

/// The edge cases this verifier accepts: none.
pub const ACCEPTED_FLAGS: [Flag; 0] = [];

/// The verdict the policy gives a signature that verifies under some reading of RFC 8032 and
/// shows these edge cases: accepted only if every flag is one the policy accepts.
pub fn policy_accepts(flags: &[Flag]) -> bool {
    flags.iter().all(|f| ACCEPTED_FLAGS.contains(f))
}

/// Why a signature was not accepted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ed25519Error {
    /// A public key is 32 bytes, a signature 64.
    BadLength {
        /// `public key` or `signature`.
        what: &'static str,
        /// The length given.
        len: usize,
    },
    /// `A` or `R` is not the encoding of a curve point.
    NotAPoint {
        /// `A` or `R`.
        which: &'static str,
    },
    /// `A` or `R` is encoded non-canonically.
    NonCanonical {
        /// `A` or `R`.
        which: &'static str,
    },
    /// `A` or `R` is of small order.
    SmallOrder {
        /// `A` or `R`.
        which: &'static str,
    },
    /// `A` or `R` has a small-order component.
    MixedOrder {
        /// `A` or `R`.
        which: &'static str,
    },
    /// `S` is not below the group order.
    ScalarOutOfRange,
    /// The verification equation does not hold.
    Mismatch,
}

impl Ed25519Error {
    /// A stable name for the reason, for vectors and differential comparisons.
    pub fn kind(&self) -> &'static str {
        match self {
            Ed25519Error::BadLength { .. } => "bad_length",
            Ed25519Error::NotAPoint { .. } => "not_a_point",
            Ed25519Error::NonCanonical { .. } => "non_canonical",
            Ed25519Error::SmallOrder { .. } => "small_order",
            Ed25519Error::MixedOrder { .. } => "mixed_order",
            Ed25519Error::ScalarOutOfRange => "s_out_of_range",
            Ed25519Error::Mismatch => "mismatch",
        }
    }
}

impl std::fmt::Display for Ed25519Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Ed25519Error::BadLength { what, len } => {
                let want = if *what == "public key" { 32 } else { 64 };
                write!(f, "the {what} is {len} bytes; Ed25519 needs {want}")
            }
            Ed25519Error::NotAPoint { which } => write!(f, "{which} is not a point on the curve"),
            Ed25519Error::NonCanonical { which } => write!(
                f,
                "{which} is a non-canonical point encoding, which this strict verifier refuses"
            ),
            Ed25519Error::SmallOrder { which } => write!(
                f,
                "{which} is a small-order point, which this strict verifier refuses"
            ),
            Ed25519Error::MixedOrder { which } => write!(
                f,
                "{which} has a small-order component, which this strict verifier refuses"
            ),
            Ed25519Error::ScalarOutOfRange => {
                f.write_str("S is not below the group order L (a malleated signature)")
            }
            Ed25519Error::Mismatch => f.write_str("the signature does not verify"),
        }
    }
}

impl std::error::Error for Ed25519Error {}

/// Decodes a point the policy allows: canonical, on the curve, in the prime-order subgroup.
fn strict_point(bytes: [u8; 32], which: &'static str) -> Result<EdwardsPoint, Ed25519Error> {
    let point = decoded_point(bytes, which)?;
    if !in_prime_order_subgroup(&point) {
        return Err(Ed25519Error::MixedOrder { which });
    }
    Ok(point)
}

/// Whether `point` lies in the prime-order subgroup: [L]P is the identity, checked as
/// [L − 1]P = −P. In variable time: a verifier's inputs are public, and the constant-time
/// multiplication takes a quarter longer.
fn in_prime_order_subgroup(point: &EdwardsPoint) -> bool {
    let l_minus_one = -Scalar::ONE;
    EdwardsPoint::vartime_double_scalar_mul_basepoint(&l_minus_one, point, &Scalar::ZERO) == -point
}

/// The field's modulus p = 2^255 − 19, little-endian.
const P: [u8; 32] = field_bytes(0xED);

/// p − 1, the y of the point (0, −1).
const P_MINUS_ONE: [u8; 32] = field_bytes(0xEC);

/// 1, the y of the identity (0, 1).
const ONE: [u8; 32] = {
    let mut one = [0; 32];
    one[0] = 1;
    one
};

/// 2^255 − 256 + `low`, little-endian: p for 0xED.
const fn field_bytes(low: u8) -> [u8; 32] {
    let mut bytes = [0xFF; 32];
    bytes[0] = low;
    bytes[31] = 0x7F;
    bytes
}

/// Whether the encoding of a point that decompressed is the one `compress` gives back: y
/// below p, and no sign bit on an x of zero (y = 1 or p − 1). Read from the bytes, where
/// compressing again would cost a field inversion.
fn is_canonical_encoding(bytes: &[u8; 32]) -> bool {
    let mut y = *bytes;
    let [.., top] = &mut y;
    let sign = *top >> 7 == 1;
    *top &= 0x7F;
    let below_p = y
        .iter()
        .rev()
        .zip(P.iter().rev())
        .find(|(a, b)| a != b)
        .is_some_and(|(a, b)| a < b);
    below_p && !(sign && (y == ONE || y == P_MINUS_ONE))
}

/// Decodes a canonical encoding of a curve point not of small order; whether it lies in the
/// prime-order subgroup is left to the caller.
fn decoded_point(bytes: [u8; 32], which: &'static str) -> Result<EdwardsPoint, Ed25519Error> {
    let point = CompressedEdwardsY(bytes)
        .decompress()
        .ok_or(Ed25519Error::NotAPoint { which })?;
    if !is_canonical_encoding(&bytes) {
        return Err(Ed25519Error::NonCanonical { which });
    }
    if point.is_small_order() {
        return Err(Ed25519Error::SmallOrder { which });
    }
    Ok(point)
}

/// A public key that has passed the policy's checks on `A`: a canonical encoding of a point in
/// the prime-order subgroup. Checking it costs a scalar multiplication, so a key that verifies
/// many signatures is checked once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VerifyingKey {
    bytes: [u8; 32],
    point: EdwardsPoint,
}

impl VerifyingKey {
    /// Checks `public_key` under the policy.
    pub fn from_bytes(public_key: &[u8]) -> Result<VerifyingKey, Ed25519Error> {
        let bytes = public_key_bytes(public_key)?;
        let point = strict_point(bytes, "A (the public key)")?;
        Ok(VerifyingKey { bytes, point })
    }

    /// The key's encoding.
    pub fn as_bytes(&self) -> &[u8; 32] {
        &self.bytes
    }

    /// Verifies `signature` over `message`: the answer [`verify`] gives with this key.
    pub fn verify(&self, message: &[u8], signature: &[u8]) -> Result<(), Ed25519Error> {
        let (r_bytes, s_bytes) = signature_halves(signature)?;
        verify_with(self, message, r_bytes, s_bytes)
    }
}

fn public_key_bytes(public_key: &[u8]) -> Result<[u8; 32], Ed25519Error> {
    public_key.try_into().map_err(|_| Ed25519Error::BadLength {
        what: "public key",
        len: public_key.len(),
    })
}

/// Splits a signature into `R` and `S`.
fn signature_halves(signature: &[u8]) -> Result<([u8; 32], [u8; 32]), Ed25519Error> {
    let sig: [u8; 64] = signature.try_into().map_err(|_| Ed25519Error::BadLength {
        what: "signature",
        len: signature.len(),
    })?;
    let (r_half, s_half) = sig.split_at(32);
    let mut r_bytes = [0u8; 32];
    r_bytes.copy_from_slice(r_half);
    let mut s_bytes = [0u8; 32];
    s_bytes.copy_from_slice(s_half);
    Ok((r_bytes, s_bytes))
}

/// Verifies an Ed25519 signature over `message` by `public_key` under the strict policy.
pub fn verify(public_key: &[u8], message: &[u8], signature: &[u8]) -> Result<(), Ed25519Error> {
    let bytes = public_key_bytes(public_key)?;
    let (r_bytes, s_bytes) = signature_halves(signature)?;
    let point = strict_point(bytes, "A (the public key)")?;
    verify_with(&VerifyingKey { bytes, point }, message, r_bytes, s_bytes)
}

/// The checks on `R` and `S` and the verification equation, for a key already checked.
fn verify_with(
    key: &VerifyingKey,
    message: &[u8],
    r_bytes: [u8; 32],
    s_bytes: [u8; 32],
) -> Result<(), Ed25519Error> {
    let r = decoded_point(r_bytes, "R")?;
    // R's subgroup check, a full scalar multiplication, is left until an answer depends on
    // it: with A in the prime-order subgroup, [S]B - [k]A is too, so an R equal to it passes
    // the check anyway. A failure that ranks below R's check looks at R first, so every
    // signature gets the error it would get with R checked here.
    let mixed_or = |error: Ed25519Error| {
        if in_prime_order_subgroup(&r) {
            error
        } else {
            Ed25519Error::MixedOrder { which: "R" }
        }
    };
    let Some(s) = Option::<Scalar>::from(Scalar::from_canonical_bytes(s_bytes)) else {
        return Err(mixed_or(Ed25519Error::ScalarOutOfRange));
    };
    let mut hash = [0u8; 64];
    hash.copy_from_slice(
        &Sha512::new()
            .chain_update(r_bytes)
            .chain_update(key.bytes)
            .chain_update(message)
            .finalize(),
    );
    let k = Scalar::from_bytes_mod_order_wide(&hash);
    let r_check = EdwardsPoint::vartime_double_scalar_mul_basepoint(&-k, &key.point, &s);
    // R is the point its canonical bytes encode, so it equals [S]B − [k]A exactly when
    // those bytes are the result's encoding, which is compared without compressing it.
    if r_check == r {
        Ok(())
    } else {
        Err(mixed_or(Ed25519Error::Mismatch))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(s: &str) -> Vec<u8> {
        (0..s.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap_or(0))
            .collect()
    }

    #[test]
    fn the_policy_accepts_no_edge_case() {
        assert!(policy_accepts(&[]));
        for flag in Flag::ALL {
            assert!(!policy_accepts(&[flag]), "{}", flag.name());
            assert_eq!(Flag::from_name(flag.name()), Some(flag));
        }
    }

    #[test]
    fn lengths_are_checked_before_anything_else() {
        assert_eq!(
            verify(&[0; 31], b"", &[0; 64]),
            Err(Ed25519Error::BadLength {
                what: "public key",
                len: 31
            })
        );
        assert_eq!(
            verify(&[0; 32], b"", &[0; 65]),
            Err(Ed25519Error::BadLength {
                what: "signature",
                len: 65
            })
        );
    }

    /// Bytes whose y lies where encodings stop being canonical: at and past p (y = p + 0..=18
    /// wraps to 0..=18), just below it, and the two y of the points whose x is zero; each
    /// with and without the sign bit.
    fn boundary_encodings() -> Vec<[u8; 32]> {
        let mut ys: Vec<[u8; 32]> = (0..=0x12).map(|low| field_bytes(0xED + low)).collect();
        ys.extend((0xE0..0xED).map(field_bytes));
        ys.extend([ONE, P_MINUS_ONE, [0; 32], field_bytes(0xFF)]);
        ys.iter()
            .flat_map(|&y| {
                let mut signed = y;
                signed[31] |= 0x80;
                [y, signed]
            })
            .collect()
    }

    #[test]
    fn canonical_encodings_are_those_compress_gives_back() {
        // The oracle is curve25519-dalek's own re-encoding of the point decoded.
        let mut rng = canonfuzz_rng::Rng::new(0x0ed2_5519);
        let random = (0..20_000).map(|_| {
            let mut bytes = [0u8; 32];
            for chunk in bytes.chunks_mut(8) {
                chunk.copy_from_slice(&rng.next_u64().to_le_bytes());
            }
            bytes
        });
        let mut decoded = 0;
        let mut non_canonical = 0;
        for bytes in boundary_encodings().into_iter().chain(random) {
            let Some(point) = CompressedEdwardsY(bytes).decompress() else {
                continue;
            };
            decoded += 1;
            let expected = point.compress().to_bytes() == bytes;
            non_canonical += usize::from(!expected);
            assert_eq!(is_canonical_encoding(&bytes), expected, "{bytes:02x?}");
        }
        // Both answers were exercised, the boundary's many times.
        assert!(
            decoded > 9_000 && non_canonical >= 10,
            "{decoded} {non_canonical}"
        );
    }

    #[test]
    fn the_subgroup_check_agrees_with_the_constant_time_one() {
        use curve25519_dalek::constants::{ED25519_BASEPOINT_POINT, EIGHT_TORSION};
        let mut rng = canonfuzz_rng::Rng::new(8);
        for _ in 0..40 {
            let prime_order = ED25519_BASEPOINT_POINT * Scalar::from(rng.next_u64());
            for (i, torsion) in EIGHT_TORSION.iter().enumerate() {
                let point = prime_order + torsion;
                assert_eq!(in_prime_order_subgroup(&point), i == 0, "torsion point {i}");
                assert_eq!(in_prime_order_subgroup(&point), point.is_torsion_free());
            }
        }
    }

    #[test]
    fn the_identity_is_a_small_order_key() {
        let mut identity = [0u8; 32];
        identity[0] = 1;
        let sig = hex(
            "0100000000000000000000000000000000000000000000000000000000000000\
                       0000000000000000000000000000000000000000000000000000000000000000",
        );
        assert!(matches!(
            verify(&identity, b"", &sig),
            Err(Ed25519Error::SmallOrder { .. })
        ));
    }
}
