//! Merkle verifiers in process: the core's RFC 9162 tree and ct-merkle (an independent RFC 6962
//! implementation). A root answers with its hex; a proof with `valid` or a rejection (only the
//! core's carries a reason).

use canonfuzz_core::ink::merkle;
use ct_merkle::{ConsistencyProof, InclusionProof, RootHash};
use sha2_next::Sha256;

use crate::hex::to_hex;
use crate::impls::in_process::{other, verdict, InProcess};
use crate::merkle::case::MerkleCase;
use crate::outcome::{Outcome, VALID};

fn answer<E>(
    input: &[u8],
    decide: fn(MerkleCase) -> Result<Vec<u8>, E>,
    kind: fn(E) -> String,
) -> Outcome {
    match MerkleCase::parse(input) {
        Some(case) => verdict(decide(case), kind),
        None => Outcome::Unsupported,
    }
}

fn hash(bytes: &[u8], what: &str) -> Result<merkle::Hash, canonfuzz_core::ink::InkError> {
    merkle::parse_hash(&to_hex(bytes), what)
}

fn hashes(list: &[Vec<u8>]) -> Result<Vec<merkle::Hash>, canonfuzz_core::ink::InkError> {
    list.iter().map(|h| hash(h, "a proof node")).collect()
}

/// The core's tree and proof verification.
pub fn core() -> InProcess {
    InProcess::core(|input| {
        answer(
            input,
            |case| match case {
                MerkleCase::Root { leaves } => {
                    let hashes: Vec<merkle::Hash> =
                        leaves.iter().map(|d| merkle::leaf_hash(d)).collect();
                    Ok(to_hex(&merkle::root(&hashes)).into_bytes())
                }
                MerkleCase::Inclusion {
                    index,
                    size,
                    leaf,
                    proof,
                    root,
                } => merkle::verify_inclusion(
                    index,
                    size,
                    &merkle::leaf_hash(&leaf),
                    &hashes(&proof)?,
                    &hash(&root, "the root")?,
                )
                .map(|()| VALID.to_vec()),
                MerkleCase::Consistency {
                    first,
                    second,
                    first_root,
                    second_root,
                    proof,
                } => merkle::verify_consistency(
                    first,
                    second,
                    &hash(&first_root, "the first root")?,
                    &hash(&second_root, "the second root")?,
                    &hashes(&proof)?,
                )
                .map(|()| VALID.to_vec()),
            },
            |e| e.kind.to_string(),
        )
    })
}

/// A proof's nodes as the one byte string ct-merkle reads. The case lists its nodes apart, and
/// joining them would let nodes of other lengths pass where they add up to whole hashes: each
/// must be a SHA-256 digest on its own.
fn proof_bytes(proof: &[Vec<u8>]) -> Result<Vec<u8>, String> {
    match proof.iter().position(|node| node.len() != 32) {
        Some(n) => Err(format!("proof node {n} is not 32 bytes")),
        None => Ok(proof.concat()),
    }
}

fn root_hash(bytes: &[u8], size: u64) -> Result<RootHash<Sha256>, String> {
    let digest = <&[u8; 32]>::try_from(bytes).map_err(|_| "not a 32-byte root".to_string())?;
    Ok(RootHash::new((*digest).into(), size))
}

/// ct-merkle 0.3 (SHA-256 through digest 0.11).
pub fn ct_merkle() -> InProcess {
    InProcess {
        name: "ct-merkle",
        krate: "ct-merkle",
        version: "0.3.0",
        group: "ct-merkle",
        answer: |input| {
            answer(
                input,
                |case| match case {
                    MerkleCase::Root { leaves } => {
                        let mut tree =
                            ct_merkle::mem_backed_tree::MemoryBackedTree::<Sha256, Vec<u8>>::new();
                        for leaf in leaves {
                            tree.push(leaf);
                        }
                        Ok(to_hex(tree.root().as_bytes()).into_bytes())
                    }
                    MerkleCase::Inclusion {
                        index,
                        size,
                        leaf,
                        proof,
                        root,
                    } => {
                        let proof = InclusionProof::<Sha256>::try_from_bytes(proof_bytes(&proof)?)
                            .map_err(|e| format!("{e:?}"))?;
                        root_hash(&root, size)?
                            .verify_inclusion(&leaf, index, &proof)
                            .map(|()| VALID.to_vec())
                            .map_err(|e| format!("{e:?}"))
                    }
                    MerkleCase::Consistency {
                        first,
                        second,
                        first_root,
                        second_root,
                        proof,
                    } => {
                        let proof =
                            ConsistencyProof::<Sha256>::try_from_bytes(proof_bytes(&proof)?)
                                .map_err(|e| format!("{e:?}"))?;
                        root_hash(&second_root, second)?
                            .verify_consistency(&root_hash(&first_root, first)?, &proof)
                            .map(|()| VALID.to_vec())
                            .map_err(|e| format!("{e:?}"))
                    }
                },
                other,
            )
        },
    }
}
