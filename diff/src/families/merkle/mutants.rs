//! Merkle mutants: a leaf index read one-based, an empty inclusion proof accepted, a root
//! computed by duplicating the odd node out (the construction RFC 9162 replaced), and the
//! empty tree refused as a prefix, as RFC 9162's range has it and the core's `empty-prefix`
//! policy says the core does not.

use canonfuzz_core::ink::merkle;

use crate::families::merkle::gen::MerkleCase;
use crate::mutants::Mutant;
use crate::outcome::{Outcome, VALID};
use crate::vector::to_hex;
use canonfuzz_props::merkle::impls as verifiers;

fn core(input: &[u8]) -> Outcome {
    (verifiers::core().answer)(input)
}

/// The root of a tree whose odd node at each level is paired with itself.
fn duplicated_odd_root(leaves: &[Vec<u8>]) -> Outcome {
    let mut level: Vec<merkle::Hash> = leaves.iter().map(|d| merkle::leaf_hash(d)).collect();
    if level.is_empty() {
        return Outcome::Ok(to_hex(&merkle::empty_root()).into_bytes());
    }
    while level.len() > 1 {
        level = level
            .chunks(2)
            .map(|pair| match pair {
                [left, right] => merkle::node_hash(left, right),
                [odd] => merkle::node_hash(odd, odd),
                _ => merkle::empty_root(),
            })
            .collect();
    }
    Outcome::Ok(
        level
            .first()
            .map(|r| to_hex(r))
            .unwrap_or_default()
            .into_bytes(),
    )
}

/// Every Merkle mutant.
pub const MUTANTS: [Mutant; 4] = [
    Mutant {
        family: super::FAMILY,
        name: "one-based-leaf-index",
        bug: "the inclusion proof's leaf index read as one-based",
        answer: |input| match MerkleCase::parse(input) {
            Some(MerkleCase::Inclusion { index, size, leaf, proof, root }) => match index.checked_sub(1) {
                Some(index) => core(&MerkleCase::Inclusion { index, size, leaf, proof, root }.encode()),
                None => Outcome::Rejected("index".into()),
            },
            _ => core(input),
        },
    },
    Mutant {
        family: super::FAMILY,
        name: "empty-proof-accepted",
        bug: "an inclusion proof with no nodes accepted for any leaf inside the tree",
        answer: |input| match MerkleCase::parse(input) {
            Some(MerkleCase::Inclusion { index, size, ref proof, .. }) if proof.is_empty() && index < size => {
                Outcome::Ok(VALID.to_vec())
            }
            _ => core(input),
        },
    },
    Mutant {
        family: super::FAMILY,
        name: "odd-node-duplicated",
        bug: "the odd node at each level paired with itself, so trees of different sizes share a root",
        answer: |input| match MerkleCase::parse(input) {
            Some(MerkleCase::Root { leaves }) => duplicated_odd_root(&leaves),
            _ => core(input),
        },
    },
    Mutant {
        family: super::FAMILY,
        name: "empty-prefix-refused",
        bug: "a consistency proof from the empty tree refused, as RFC 9162's range 0 < m < n has it: the departure the empty-prefix policy states is no longer shown",
        answer: |input| match MerkleCase::parse(input) {
            Some(MerkleCase::Consistency { first: 0, .. }) => Outcome::Rejected("size".into()),
            _ => core(input),
        },
    },
];
