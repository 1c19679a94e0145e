//! Merkle cases (RFC 9162 §2.1): a random tree's root, and inclusion and consistency proofs
//! built honestly from random trees, then bent — a node flipped, dropped, added or moved, the
//! index or sizes off by one or swapped, the empty tree, sizes past the safe-integer range.
//!
//! The proofs are built here by RFC 9162's PATH and SUBPROOF definitions over the whole tree,
//! not by the core, whose verifier is what the campaign tests.

use sha2::{Digest, Sha256};

use canonfuzz_rng::Rng;

use crate::family::{Category, Field};

/// A SHA-256 digest.
pub type Hash = [u8; 32];

pub use canonfuzz_props::merkle::case::{empty_prefix, size_past_safe_integers, MerkleCase};

/// A tree's root.
pub const MERKLE_ROOT: Category = Category::new("merkle_root", "The root of a random tree.");
/// Inclusion proofs, honest and bent.
pub const MERKLE_INCLUSION: Category = Category::new(
    "merkle_inclusion",
    "An inclusion proof from a random tree, honest or bent.",
);
/// Consistency proofs, honest and bent.
pub const MERKLE_CONSISTENCY: Category = Category::new(
    "merkle_consistency",
    "A consistency proof from a random tree, honest or bent.",
);

/// Every field of a Merkle case, and the categories of the operations that read it.
pub const FIELDS: [Field; 11] = [
    Field::at(
        "/op",
        "the family's adapter: which entry point",
        &CATEGORIES,
    ),
    Field::at("/leaves", "ink::merkle::root", &[MERKLE_ROOT]),
    Field::at(
        "/index",
        "ink::merkle::verify_inclusion",
        &[MERKLE_INCLUSION],
    ),
    Field::at(
        "/size",
        "ink::merkle::verify_inclusion",
        &[MERKLE_INCLUSION],
    ),
    Field::at(
        "/leaf",
        "ink::merkle::verify_inclusion",
        &[MERKLE_INCLUSION],
    ),
    Field::at(
        "/root",
        "ink::merkle::verify_inclusion",
        &[MERKLE_INCLUSION],
    ),
    Field::at(
        "/proof",
        "ink::merkle::verify_inclusion, ink::merkle::verify_consistency",
        &[MERKLE_INCLUSION, MERKLE_CONSISTENCY],
    ),
    Field::at(
        "/first",
        "ink::merkle::verify_consistency",
        &[MERKLE_CONSISTENCY],
    ),
    Field::at(
        "/second",
        "ink::merkle::verify_consistency",
        &[MERKLE_CONSISTENCY],
    ),
    Field::at(
        "/firstRoot",
        "ink::merkle::verify_consistency",
        &[MERKLE_CONSISTENCY],
    ),
    Field::at(
        "/secondRoot",
        "ink::merkle::verify_consistency",
        &[MERKLE_CONSISTENCY],
    ),
];

/// Every category of the family, in report order.
pub const CATEGORIES: [Category; 3] = [MERKLE_ROOT, MERKLE_INCLUSION, MERKLE_CONSISTENCY];

fn leaf_hash(data: &[u8]) -> Hash {
    Sha256::new()
        .chain_update([0])
        .chain_update(data)
        .finalize()
        .into()
}

fn node_hash(l: &Hash, r: &Hash) -> Hash {
    Sha256::new()
        .chain_update([1])
        .chain_update(l)
        .chain_update(r)
        .finalize()
        .into()
}

/// The largest power of two below `n` (n ≥ 2).
fn split(n: usize) -> usize {
    1 << (usize::BITS - 1 - (n - 1).leading_zeros())
}

/// MTH of RFC 9162 §2.1.1, by its definition.
pub fn mth(leaves: &[Hash]) -> Hash {
    match leaves {
        [] => Sha256::digest([]).into(),
        [one] => *one,
        _ => {
            let k = split(leaves.len());
            node_hash(&mth(&leaves[..k]), &mth(&leaves[k..]))
        }
    }
}

/// PATH(m, D[n]) of RFC 9162 §2.1.3.1.
pub fn path(m: usize, leaves: &[Hash]) -> Vec<Hash> {
    if leaves.len() <= 1 {
        return Vec::new();
    }
    let k = split(leaves.len());
    let (mut out, sibling) = if m < k {
        (path(m, &leaves[..k]), mth(&leaves[k..]))
    } else {
        (path(m - k, &leaves[k..]), mth(&leaves[..k]))
    };
    out.push(sibling);
    out
}

/// SUBPROOF(m, D[n], b) of RFC 9162 §2.1.4.1.
fn subproof(m: usize, leaves: &[Hash], complete: bool) -> Vec<Hash> {
    let n = leaves.len();
    if m == n {
        return if complete {
            Vec::new()
        } else {
            vec![mth(leaves)]
        };
    }
    let k = split(n);
    let (mut out, sibling) = if m <= k {
        (subproof(m, &leaves[..k], complete), mth(&leaves[k..]))
    } else {
        (subproof(m - k, &leaves[k..], false), mth(&leaves[..k]))
    };
    out.push(sibling);
    out
}

/// A proof bent in one place: a bit flipped, a node dropped, added, swapped, split in two or cut
/// short.
pub fn bend_proof(rng: &mut Rng, proof: &mut Vec<Vec<u8>>) {
    match rng.index(6) {
        0 if !proof.is_empty() => {
            let i = rng.index(proof.len());
            if let Some(byte) = proof.get_mut(i).and_then(|h| h.get_mut(rng.index(32))) {
                *byte ^= 1 << rng.index(8);
            }
        }
        1 if !proof.is_empty() => {
            proof.remove(rng.index(proof.len()));
        }
        2 => {
            let i = rng.index(proof.len() + 1);
            proof.insert(i, leaf_hash(&rng.next_u64().to_le_bytes()).to_vec());
        }
        3 if proof.len() >= 2 => {
            let (a, b) = (rng.index(proof.len()), rng.index(proof.len()));
            proof.swap(a, b);
        }
        4 if !proof.is_empty() => {
            // One node written as two pieces whose bytes join into it.
            let i = rng.index(proof.len());
            let at = 1 + rng.index(31);
            if let Some(tail) = proof.get_mut(i).map(|h| h.split_off(at)) {
                proof.insert(i + 1, tail);
            }
        }
        _ => {
            if let Some(h) = proof.last_mut() {
                h.truncate(31);
            }
        }
    }
}

/// Sizes and indices bent: off by one, swapped, or past the safe-integer range.
pub fn bend_number(rng: &mut Rng, n: u64) -> u64 {
    match rng.index(4) {
        0 => n + 1,
        1 => n.saturating_sub(1),
        2 => (1 << 53) + rng.index(3) as u64,
        _ => 0,
    }
}

/// An inclusion proof as a tree of 1 to 20 random leaves gives it: the leaf index, the tree
/// size, the leaf's hash, the audit path from the leaf up (RFC 9162 §2.1.3.1) and the root,
/// for INK's campaign to list as INK does and to bend.
pub fn inclusion(rng: &mut Rng) -> (u64, u64, Hash, Vec<Vec<u8>>, Hash) {
    let leaf = leaf_hash(&rng.next_u64().to_le_bytes());
    let (index, size, proof, root) = around(rng, leaf);
    (index, size, leaf, proof, root)
}

/// A tree of 1 to 20 leaves holding `leaf` among random others: the leaf's index, the tree
/// size, the audit path from the leaf up and the root.
pub fn around(rng: &mut Rng, leaf: Hash) -> (u64, u64, Vec<Vec<u8>>, Hash) {
    let size = 1 + rng.index(20);
    let m = rng.index(size);
    let leaves: Vec<Hash> = (0..size)
        .map(|i| {
            if i == m {
                leaf
            } else {
                leaf_hash(&[&[i as u8][..], &rng.next_u64().to_le_bytes()].concat())
            }
        })
        .collect();
    let proof = path(m, &leaves).iter().map(|h| h.to_vec()).collect();
    (m as u64, size as u64, proof, mth(&leaves))
}

/// The input for case `index` of a Merkle campaign with `seed`.
pub fn case(seed: u64, index: u64) -> (Category, Vec<u8>) {
    let mut rng = Rng::for_case(seed, index);
    let largest = if rng.chance(80) { 20 } else { 70 };
    let size = 1 + rng.index(largest);
    let data: Vec<Vec<u8>> = (0..size)
        .map(|i| {
            let mut d = vec![i as u8];
            d.extend((0..rng.index(6)).map(|_| rng.next_u64() as u8));
            d
        })
        .collect();
    let leaves: Vec<Hash> = data.iter().map(|d| leaf_hash(d)).collect();
    let bent = rng.chance(55);
    let (category, case) = match rng.index(10) {
        0..=1 => (
            MERKLE_ROOT,
            MerkleCase::Root {
                leaves: if rng.chance(10) { Vec::new() } else { data },
            },
        ),
        2..=5 => {
            let m = rng.index(size);
            let mut case = MerkleCase::Inclusion {
                index: m as u64,
                size: size as u64,
                leaf: data.get(m).cloned().unwrap_or_default(),
                proof: path(m, &leaves).iter().map(|h| h.to_vec()).collect(),
                root: mth(&leaves).to_vec(),
            };
            if let (
                true,
                MerkleCase::Inclusion {
                    index,
                    size,
                    proof,
                    leaf,
                    ..
                },
            ) = (bent, &mut case)
            {
                match rng.index(4) {
                    0 => *index = bend_number(&mut rng, *index),
                    1 => *size = bend_number(&mut rng, *size),
                    2 => leaf.push(0),
                    _ => bend_proof(&mut rng, proof),
                }
            }
            (MERKLE_INCLUSION, case)
        }
        _ => {
            let m = if rng.chance(10) {
                0
            } else {
                1 + rng.index(size)
            };
            let proof = if m == 0 {
                Vec::new()
            } else {
                subproof(m, &leaves, true)
            };
            let mut case = MerkleCase::Consistency {
                first: m as u64,
                second: size as u64,
                first_root: mth(&leaves[..m]).to_vec(),
                second_root: mth(&leaves).to_vec(),
                proof: proof.iter().map(|h| h.to_vec()).collect(),
            };
            if let (
                true,
                MerkleCase::Consistency {
                    first,
                    second,
                    first_root,
                    proof,
                    ..
                },
            ) = (bent, &mut case)
            {
                match rng.index(6) {
                    0 => *first = bend_number(&mut rng, *first),
                    1 => *second = bend_number(&mut rng, *second),
                    2 => std::mem::swap(first, second),
                    3 => {
                        if let Some(b) = first_root.first_mut() {
                            *b ^= 1;
                        }
                    }
                    _ => bend_proof(&mut rng, proof),
                }
            }
            (MERKLE_CONSISTENCY, case)
        }
    };
    (category, case.encode())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_op_is_generated_and_round_trips() {
        let mut seen = std::collections::BTreeSet::new();
        for i in 0..500 {
            let (category, input) = case(1, i);
            let c = MerkleCase::parse(&input).unwrap();
            assert_eq!(MerkleCase::parse(&c.encode()), Some(c));
            seen.insert(category);
        }
        assert_eq!(seen.len(), 3);
    }

    #[test]
    fn paths_and_proofs_match_rfc_9162s_worked_example() {
        // RFC 9162 §2.1.5: seven leaves d0..d6; a..f and j are their leaf hashes, g = (a,b),
        // h = (c,d), i = (e,f), k = (g,h), l = (i,j).
        let d: Vec<Hash> = (0..7u8).map(|i| leaf_hash(&[i])).collect();
        let (a, b, c, dd, e, f, j) = (d[0], d[1], d[2], d[3], d[4], d[5], d[6]);
        let (g, h, i) = (node_hash(&a, &b), node_hash(&c, &dd), node_hash(&e, &f));
        let (k, l) = (node_hash(&g, &h), node_hash(&i, &j));
        assert_eq!(mth(&d), node_hash(&k, &l));
        assert_eq!(path(0, &d), vec![b, h, l]);
        assert_eq!(path(3, &d), vec![c, g, l]);
        assert_eq!(path(4, &d), vec![f, j, k]);
        assert_eq!(path(6, &d), vec![i, k]);
        assert_eq!(subproof(3, &d, true), vec![c, dd, g, l]);
        assert_eq!(subproof(4, &d, true), vec![l]);
        assert_eq!(subproof(6, &d, true), vec![i, j, k]);
    }
}
