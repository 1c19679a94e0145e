//! Input generators, one per campaign family: deterministic from the campaign seed and the
//! case index alone (so shards and thread counts never change which input a case gets),
//! structure-aware, and weighted toward where implementations are known to differ. The JCS
//! generator lives here; the Ed25519 and JWS ones in their modules.

pub mod ed25519;
pub mod ekl;
pub mod ink;
pub mod jws;
pub mod merkle;
mod mutate;
mod numbers;
mod strings;
pub mod vmcp;

pub use canonfuzz_props::tricky::{escape, TRICKY};
mod structure;

pub use canonfuzz_rng::Rng;

/// What part of the input space a case explores.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Category {
    /// Number formatting and parsing.
    Numbers,
    /// Member order and names.
    Ordering,
    /// String escapes and Unicode.
    Escapes,
    /// Whitespace, nesting and mixed documents.
    Structure,
    /// Byte-level damage to valid documents: what must be rejected, and how.
    Rejections,
    /// Ed25519: honest signatures and their bit flips.
    Signatures,
    /// Ed25519: small-order `A` or `R`.
    SmallOrder,
    /// Ed25519: points with a small-order component.
    MixedOrder,
    /// Ed25519: non-canonical point encodings.
    NonCanonical,
    /// Ed25519: `S` near and above the group order.
    ScalarRange,
    /// JWS: base64url laxness in the token's segments.
    Base64url,
    /// JWS: header variants.
    Headers,
    /// JWS: key variants.
    Keys,
    /// JWS: signature variants.
    JwsSignatures,
    /// Merkle: a tree's root.
    MerkleRoot,
    /// Merkle: inclusion proofs, honest and bent.
    MerkleInclusion,
    /// Merkle: consistency proofs, honest and bent.
    MerkleConsistency,
    /// verifiable-mcp: genuine responses of every kind.
    VmcpGenuine,
    /// verifiable-mcp: members added, moved, duplicated, nulled; branches mixed; text arms.
    VmcpMembers,
    /// verifiable-mcp: kids missing, unknown or repeated; header variants.
    VmcpKeys,
    /// verifiable-mcp: iat, nbf and exp at the edges of the skew.
    VmcpTimes,
    /// verifiable-mcp: payloads nested deep.
    VmcpDepth,
}

impl Category {
    /// Every category, in report order.
    pub const ALL: [Category; 22] = [
        Category::Numbers,
        Category::Ordering,
        Category::Escapes,
        Category::Structure,
        Category::Rejections,
        Category::Signatures,
        Category::SmallOrder,
        Category::MixedOrder,
        Category::NonCanonical,
        Category::ScalarRange,
        Category::Base64url,
        Category::Headers,
        Category::Keys,
        Category::JwsSignatures,
        Category::MerkleRoot,
        Category::MerkleInclusion,
        Category::MerkleConsistency,
        Category::VmcpGenuine,
        Category::VmcpMembers,
        Category::VmcpKeys,
        Category::VmcpTimes,
        Category::VmcpDepth,
    ];

    /// A stable lowercase name.
    pub fn name(self) -> &'static str {
        match self {
            Category::Numbers => "numbers",
            Category::Ordering => "ordering",
            Category::Escapes => "escapes",
            Category::Structure => "structure",
            Category::Rejections => "rejections",
            Category::Signatures => "signatures",
            Category::SmallOrder => "small_order",
            Category::MixedOrder => "mixed_order",
            Category::NonCanonical => "non_canonical",
            Category::ScalarRange => "scalar_range",
            Category::Base64url => "base64url",
            Category::Headers => "headers",
            Category::Keys => "keys",
            Category::JwsSignatures => "jws_signatures",
            Category::MerkleRoot => "merkle_root",
            Category::MerkleInclusion => "merkle_inclusion",
            Category::MerkleConsistency => "merkle_consistency",
            Category::VmcpGenuine => "vmcp_genuine",
            Category::VmcpMembers => "vmcp_members",
            Category::VmcpKeys => "vmcp_keys",
            Category::VmcpTimes => "vmcp_times",
            Category::VmcpDepth => "vmcp_depth",
        }
    }

    /// What the category's generator explores, for vectors' notes.
    pub fn description(self) -> &'static str {
        match self {
            Category::Numbers => "Found by the number generator.",
            Category::Ordering => "Found by the member-name generator.",
            Category::Escapes => "Found by the string generator.",
            Category::Structure => "Found by the whole-document generator.",
            Category::Rejections => "Found by the byte-level damage generator.",
            Category::Signatures => "An honest Ed25519 signature, or one with a bit flipped.",
            Category::SmallOrder => {
                "A or R is a small-order point; S makes the cofactored equation hold."
            }
            Category::MixedOrder => {
                "A or R has a small-order component; S makes the cofactored equation hold."
            }
            Category::NonCanonical => "A or R is a non-canonical encoding of a small-order point.",
            Category::ScalarRange => "S is at, near or above the group order L.",
            Category::Base64url => "A token segment in a base64url form RFC 7515 does not allow.",
            Category::Headers => {
                "A header variant: duplicates, crit, b64, alg spellings, kid, BOM."
            }
            Category::Keys => "A key variant: x length, crv, kty, alg, use, key_ops, weak keys.",
            Category::JwsSignatures => "A signature variant: S >= L, small-order R, wrong lengths.",
            Category::MerkleRoot => "The root of a random tree.",
            Category::MerkleInclusion => "An inclusion proof from a random tree, honest or bent.",
            Category::MerkleConsistency => {
                "A consistency proof from a random tree, honest or bent."
            }
            Category::VmcpGenuine => "A genuine signed response: tool result, resource, error.",
            Category::VmcpMembers => {
                "A signed response with members added, moved, duplicated or nulled."
            }
            Category::VmcpKeys => "A signed response whose kid or key set is bent.",
            Category::VmcpTimes => "A signed response with iat, nbf or exp near the skew.",
            Category::VmcpDepth => "A signed response whose payload is nested deep.",
        }
    }

    /// The category with this name.
    pub fn from_name(name: &str) -> Option<Category> {
        Category::ALL.into_iter().find(|c| c.name() == name)
    }
}

/// The input for case `index` of a JCS campaign with `seed`.
pub fn jcs_case(seed: u64, index: u64) -> (Category, Vec<u8>) {
    let mut rng = Rng::for_case(seed, index);
    let category = match rng.index(100) {
        0..=34 => Category::Numbers,
        35..=54 => Category::Ordering,
        55..=74 => Category::Escapes,
        75..=87 => Category::Structure,
        _ => Category::Rejections,
    };
    let mut out = Vec::new();
    match category {
        Category::Numbers => numbers::document(&mut rng, &mut out),
        Category::Ordering => strings::object_with_tricky_names(&mut rng, &mut out),
        Category::Escapes => strings::document(&mut rng, &mut out),
        Category::Structure => structure::document(&mut rng, &mut out),
        _ => mutate::damaged(&mut rng, &mut out),
    }
    (category, out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cases_depend_on_seed_and_index_only() {
        assert_eq!(jcs_case(7, 12345), jcs_case(7, 12345));
        assert_ne!(jcs_case(7, 1).1, jcs_case(8, 1).1);
    }

    #[test]
    fn every_category_is_generated() {
        let mut seen = std::collections::BTreeSet::new();
        for i in 0..500 {
            seen.insert(jcs_case(1, i).0);
        }
        assert_eq!(seen.len(), 5);
    }
}
