//! A Merkle question as a campaign input and a fuzz target read it: one JSON line with the
//! tree's data, sizes and hashes in hex, and the predicates the Merkle policies read off it.

use serde_json::{json, Map, Value};

use crate::hex::{from_hex, to_hex};
use crate::read::for_judgment::{self, Unreadable};

/// One Merkle question.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MerkleCase {
    /// The root of the tree over these leaves' data.
    Root {
        /// Each leaf's data.
        leaves: Vec<Vec<u8>>,
    },
    /// Whether `leaf` (its data) is at `index` in the tree of `size` leaves with `root`.
    Inclusion {
        /// The leaf index, from 0.
        index: u64,
        /// The tree size.
        size: u64,
        /// The leaf's data.
        leaf: Vec<u8>,
        /// The audit path.
        proof: Vec<Vec<u8>>,
        /// The claimed root.
        root: Vec<u8>,
    },
    /// Whether the tree of `first` leaves is a prefix of the tree of `second` leaves.
    Consistency {
        /// The earlier size.
        first: u64,
        /// The later size.
        second: u64,
        /// The earlier root.
        first_root: Vec<u8>,
        /// The later root.
        second_root: Vec<u8>,
        /// The consistency proof.
        proof: Vec<Vec<u8>>,
    },
}

fn hexes(list: &[Vec<u8>]) -> Vec<String> {
    list.iter().map(|h| to_hex(h)).collect()
}

impl MerkleCase {
    /// The case as a campaign input: one JSON line, hashes and data in hex.
    pub fn encode(&self) -> Vec<u8> {
        let value = match self {
            MerkleCase::Root { leaves } => json!({"op": "root", "leaves": hexes(leaves)}),
            MerkleCase::Inclusion {
                index,
                size,
                leaf,
                proof,
                root,
            } => json!({"op": "inclusion", "index": index, "size": size, "leaf": to_hex(leaf),
                "proof": hexes(proof), "root": to_hex(root)}),
            MerkleCase::Consistency {
                first,
                second,
                first_root,
                second_root,
                proof,
            } => json!({"op": "consistency", "first": first, "second": second,
                "firstRoot": to_hex(first_root), "secondRoot": to_hex(second_root),
                "proof": hexes(proof)}),
        };
        value.to_string().into_bytes()
    }

    /// Reads a campaign input back; `None` when it is not one.
    pub fn parse(input: &[u8]) -> Option<MerkleCase> {
        MerkleCase::read(input).ok().flatten()
    }

    /// Reads a campaign case as a policy judges it: `Ok(None)` for a case that asks no Merkle
    /// question, `Err` when the input cannot be read as a case at all.
    pub fn read(input: &[u8]) -> Result<Option<MerkleCase>, Unreadable> {
        Ok(MerkleCase::from_members(&for_judgment::case(input)?))
    }

    fn from_members(v: &Map<String, Value>) -> Option<MerkleCase> {
        let hex = |name: &str| from_hex(v.get(name)?.as_str()?).ok();
        let list = |name: &str| -> Option<Vec<Vec<u8>>> {
            v.get(name)?
                .as_array()?
                .iter()
                .map(|h| from_hex(h.as_str()?).ok())
                .collect()
        };
        let num = |name: &str| v.get(name)?.as_u64();
        match v.get("op")?.as_str()? {
            "root" => Some(MerkleCase::Root {
                leaves: list("leaves")?,
            }),
            "inclusion" => Some(MerkleCase::Inclusion {
                index: num("index")?,
                size: num("size")?,
                leaf: hex("leaf")?,
                proof: list("proof")?,
                root: hex("root")?,
            }),
            "consistency" => Some(MerkleCase::Consistency {
                first: num("first")?,
                second: num("second")?,
                first_root: hex("firstRoot")?,
                second_root: hex("secondRoot")?,
                proof: list("proof")?,
            }),
            _ => None,
        }
    }
}

/// The root of the empty tree, MTH({}) = SHA-256 of no bytes (RFC 9162 §2.1.1; the digest is
/// FIPS 180-4's for the empty message).
const EMPTY_ROOT: &str = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

/// Whether a consistency case claims the empty tree as a prefix as INK takes it: a first size
/// of 0 with the empty tree's root, an empty proof, and a later size within INK's bound with a
/// root of 32 bytes.
pub fn empty_prefix(input: &[u8]) -> Result<bool, Unreadable> {
    Ok(match MerkleCase::read(input)? {
        Some(MerkleCase::Consistency {
            first: 0,
            second,
            first_root,
            second_root,
            proof,
        }) => {
            to_hex(&first_root) == EMPTY_ROOT
                && proof.is_empty()
                && second_root.len() == 32
                && second <= MAX_SIZE
        }
        _ => false,
    })
}

/// The largest tree size or index INK takes, 2^53 - 1.
const MAX_SIZE: u64 = (1 << 53) - 1;

/// Whether a case names a size or index past 2^53 - 1.
pub fn size_past_safe_integers(input: &[u8]) -> Result<bool, Unreadable> {
    Ok(match MerkleCase::read(input)? {
        Some(MerkleCase::Inclusion { index, size, .. }) => index > MAX_SIZE || size > MAX_SIZE,
        Some(MerkleCase::Consistency { first, second, .. }) => {
            first > MAX_SIZE || second > MAX_SIZE
        }
        _ => false,
    })
}
