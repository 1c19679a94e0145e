//! The Merkle tree of RFC 9162 §2.1 (RFC 6962's, with its proofs): leaf = SHA-256(0x00 ‖ data),
//! node = SHA-256(0x01 ‖ left ‖ right), the empty tree's root SHA-256(""); inclusion and
//! consistency proofs verified by the algorithms of §2.1.3.2 and §2.1.4.2, every proof node
//! consumed, sizes within the safe-integer range, digests compared in constant time. Nothing
//! recurses on input.

use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

use super::{InkError, MAX_SAFE_INTEGER};

/// A SHA-256 digest.
pub type Hash = [u8; 32];

/// Whether two digests are equal, compared in constant time.
pub fn same(a: &[u8], b: &[u8]) -> bool {
    a.ct_eq(b).into()
}

/// The hash of a leaf holding `data`.
pub fn leaf_hash(data: &[u8]) -> Hash {
    Sha256::new()
        .chain_update([0u8])
        .chain_update(data)
        .finalize()
        .into()
}

/// The hash of an interior node.
pub fn node_hash(left: &Hash, right: &Hash) -> Hash {
    Sha256::new()
        .chain_update([1u8])
        .chain_update(left)
        .chain_update(right)
        .finalize()
        .into()
}

/// The root of the empty tree.
pub fn empty_root() -> Hash {
    Sha256::digest([]).into()
}

/// The root of the tree over these leaf hashes, built bottom-up: each level pairs nodes left
/// to right and carries an odd last node up unchanged, which gives RFC 9162's split at the
/// largest power of two below the size.
pub fn root(leaves: &[Hash]) -> Hash {
    if leaves.is_empty() {
        return empty_root();
    }
    let mut level: Vec<Hash> = leaves.to_vec();
    while level.len() > 1 {
        level = level
            .chunks(2)
            .map(|pair| match pair {
                [l, r] => node_hash(l, r),
                [only] => *only,
                _ => empty_root(),
            })
            .collect();
    }
    level.first().copied().unwrap_or_else(empty_root)
}

/// Reads a hash written as 64 lowercase hex digits.
pub fn parse_hash(text: &str, what: &str) -> Result<Hash, InkError> {
    let bad = || InkError::new("hash", format!("{what} is not 64 lowercase hex digits"));
    if text.len() != 64 {
        return Err(bad());
    }
    let mut out = [0u8; 32];
    for (byte, pair) in out.iter_mut().zip(text.as_bytes().chunks(2)) {
        let digit = |c: u8| match c {
            b'0'..=b'9' => Some(c - b'0'),
            b'a'..=b'f' => Some(c - b'a' + 10),
            _ => None,
        };
        match pair {
            [hi, lo] => *byte = digit(*hi).ok_or_else(bad)? * 16 + digit(*lo).ok_or_else(bad)?,
            _ => return Err(bad()),
        }
    }
    Ok(out)
}

fn check_size(size: u64, what: &str) -> Result<(), InkError> {
    if size > MAX_SAFE_INTEGER {
        return Err(InkError::new(
            "size",
            format!("{what} {size} is past the safe-integer range"),
        ));
    }
    Ok(())
}

fn mismatch(what: &str) -> InkError {
    InkError::new("proof", format!("the proof does not reconstruct {what}"))
}

/// Verifies that `leaf` is at `index` in the tree of `size` leaves with `root` (RFC 9162
/// §2.1.3.2).
pub fn verify_inclusion(
    index: u64,
    size: u64,
    leaf: &Hash,
    proof: &[Hash],
    root: &Hash,
) -> Result<(), InkError> {
    check_size(size, "the tree size")?;
    if index >= size {
        return Err(InkError::new(
            "index",
            format!("leaf index {index} is not below the tree size {size}"),
        ));
    }
    let (mut f_n, mut s_n) = (index, size - 1);
    let mut r = *leaf;
    for p in proof {
        if s_n == 0 {
            return Err(InkError::new(
                "proof",
                "the proof has more nodes than the path",
            ));
        }
        if f_n & 1 == 1 || f_n == s_n {
            r = node_hash(p, &r);
            if f_n & 1 == 0 {
                while f_n & 1 == 0 && f_n != 0 {
                    f_n >>= 1;
                    s_n >>= 1;
                }
            }
        } else {
            r = node_hash(&r, p);
        }
        f_n >>= 1;
        s_n >>= 1;
    }
    if s_n != 0 {
        return Err(InkError::new(
            "proof",
            "the proof has fewer nodes than the path",
        ));
    }
    if same(&r, root) {
        Ok(())
    } else {
        Err(mismatch("the root"))
    }
}

/// Consistency where no walk is due: the same size (the roots must be equal) or the empty
/// tree as the first (its root is the empty tree's); the proof must be empty.
fn verify_without_walk(
    first: u64,
    first_root: &Hash,
    second_root: &Hash,
    proof: &[Hash],
) -> Result<(), InkError> {
    if !proof.is_empty() {
        return Err(InkError::new("proof", "this case takes an empty proof"));
    }
    let expected_first = if first == 0 {
        empty_root()
    } else {
        *second_root
    };
    if same(first_root, &expected_first) {
        Ok(())
    } else {
        Err(mismatch("the first root"))
    }
}

/// Verifies that the tree of `first` leaves with `first_root` is a prefix of the tree of
/// `second` leaves with `second_root` (RFC 9162 §2.1.4.2; the empty tree is a prefix of every
/// tree, with an empty proof).
pub fn verify_consistency(
    first: u64,
    second: u64,
    first_root: &Hash,
    second_root: &Hash,
    proof: &[Hash],
) -> Result<(), InkError> {
    check_size(first, "the first size")?;
    check_size(second, "the second size")?;
    if first > second {
        return Err(InkError::new(
            "size",
            format!("the first size {first} is larger than the second {second}"),
        ));
    }
    if first == second || first == 0 {
        return verify_without_walk(first, first_root, second_root, proof);
    }
    let mut nodes = proof.iter();
    let mut path: Vec<Hash> = Vec::with_capacity(proof.len() + 1);
    if first.is_power_of_two() {
        path.push(*first_root);
    }
    path.extend(nodes.by_ref());
    let mut path = path.into_iter();
    let Some(start) = path.next() else {
        return Err(InkError::new("proof", "the proof is empty"));
    };
    let (mut f_n, mut s_n) = (first - 1, second - 1);
    while f_n & 1 == 1 {
        f_n >>= 1;
        s_n >>= 1;
    }
    let (mut fr, mut sr) = (start, start);
    for c in path {
        if s_n == 0 {
            return Err(InkError::new(
                "proof",
                "the proof has more nodes than the walk",
            ));
        }
        if f_n & 1 == 1 || f_n == s_n {
            fr = node_hash(&c, &fr);
            sr = node_hash(&c, &sr);
            if f_n & 1 == 0 {
                while f_n & 1 == 0 && f_n != 0 {
                    f_n >>= 1;
                    s_n >>= 1;
                }
            }
        } else {
            sr = node_hash(&sr, &c);
        }
        f_n >>= 1;
        s_n >>= 1;
    }
    if s_n != 0 {
        return Err(InkError::new(
            "proof",
            "the proof has fewer nodes than the walk",
        ));
    }
    if !same(&fr, first_root) {
        return Err(mismatch("the first root"));
    }
    if !same(&sr, second_root) {
        return Err(mismatch("the second root"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn leaves(n: u8) -> Vec<Hash> {
        (0..n).map(|i| leaf_hash(&[i])).collect()
    }

    #[test]
    fn every_consistency_proof_built_from_the_tree_verifies() {
        // Proofs built by RFC 9162 §2.1.4.1's SUBPROOF over trees of up to 20 leaves.
        fn subproof(m: usize, leaves: &[Hash], complete: bool, out: &mut Vec<Hash>) {
            let n = leaves.len();
            if m == n {
                if !complete {
                    out.push(root(leaves));
                }
                return;
            }
            // The largest power of two below n.
            let k = 1usize << (usize::BITS - 1 - (n - 1).leading_zeros());
            if m <= k {
                subproof(m, &leaves[..k], complete, out);
                out.push(root(&leaves[k..]));
            } else {
                subproof(m - k, &leaves[k..], false, out);
                out.push(root(&leaves[..k]));
            }
        }
        for n in 1..=20u8 {
            let all = leaves(n);
            for m in 1..=n as usize {
                let mut proof = Vec::new();
                if m < n as usize {
                    subproof(m, &all, true, &mut proof);
                }
                let first = root(&all[..m]);
                let second = root(&all);
                assert_eq!(
                    verify_consistency(m as u64, n as u64, &first, &second, &proof),
                    Ok(()),
                    "{m} -> {n}"
                );
                if let Some(last) = proof.last_mut() {
                    last[0] ^= 1;
                    assert!(
                        verify_consistency(m as u64, n as u64, &first, &second, &proof).is_err()
                    );
                }
            }
        }
    }
}
