//! The witness as the judge checks it: checkpoints, RFC 9162 tree and node hashes, signed
//! submissions and chains, event leaves, inclusion receipts and proofs walked from the root
//! down.

use json_syntax::Value;

use super::signatures::{key, signature, verifies};
use super::{profiled, MAX_SAFE};
use crate::judge::json::{self, double, text};
use crate::judge::{hex, must, refused, sha256, Refusal};

/// A C2SP checkpoint body as INK reads it: three lines, each ended by a line feed; the origin
/// non-empty, at most 256 UTF-16 code units, with no White_Space, control or `+`; the size
/// decimal digits without sign or leading zero, below 2^53; the root 64 lowercase hex digits;
/// the body at most 1,024 UTF-16 code units. A body that parses is its canonical form.
pub(super) fn checkpoint(body: &str) -> Result<&str, Refusal> {
    let units = |text: &str| text.encode_utf16().count();
    must(
        units(body) <= 1024,
        "the body is past 1,024 UTF-16 code units",
    )?;
    let content = body
        .strip_suffix('\n')
        .ok_or_else(|| refused("the body does not end with a line feed"))?;
    let lines: Vec<&str> = content.split('\n').collect();
    let [origin, size, root] = lines[..] else {
        return Err(refused("a checkpoint body has three lines"));
    };
    must(
        !origin.is_empty()
            && units(origin) <= 256
            && !origin
                .chars()
                .any(|c| c.is_whitespace() || c.is_control() || c == '+'),
        "the origin",
    )?;
    let digits = !size.is_empty()
        && size.bytes().all(|b| b.is_ascii_digit())
        && (size == "0" || !size.starts_with('0'));
    must(
        digits && size.parse::<u64>().is_ok_and(|n| n < 1 << 53),
        "the tree size",
    )?;
    must(
        root.len() == 64 && root.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')),
        "the root hash",
    )?;
    Ok(body)
}

/// A hash written as 64 lowercase hex digits, as its bytes.
pub(super) fn hash(value: Option<&Value>) -> Result<Vec<u8>, Refusal> {
    match value {
        Some(Value::String(h)) => {
            key(h).ok_or_else(|| refused("a hash is not 64 lowercase hex digits"))
        }
        _ => Err(refused("a hash is not 64 lowercase hex digits")),
    }
}

/// RFC 9162's interior node hash.
pub(super) fn node(left: &[u8], right: &[u8]) -> Vec<u8> {
    sha256(&[&[1][..], left, right].concat())
}

/// RFC 9162's Merkle tree hash over leaf hashes: SHA-256 of nothing for no leaves, the leaf
/// hash for one, else the node over the tree of the largest power of two below their number
/// and the tree of the rest.
pub(super) fn tree_hash(leaves: &[Vec<u8>]) -> Vec<u8> {
    match leaves {
        [] => sha256(&[]),
        [only] => only.clone(),
        _ => {
            let split = 1 << (usize::BITS - 1 - (leaves.len() - 1).leading_zeros());
            let (left, right) = leaves.split_at(split);
            node(&tree_hash(left), &tree_hash(right))
        }
    }
}

/// Whether the witness's key (64 lowercase hex digits) verifies its signature (86 base64url
/// characters) over `message`.
pub(super) fn witness_signed(case: &Value, message: &[u8]) -> Result<Vec<u8>, Refusal> {
    let key = key(text(case, "witnessPublicKeyHex").ok_or(Refusal::Unanswered)?)
        .ok_or_else(|| refused("the witness key is not 64 lowercase hex digits"))?;
    let signature = signature(text(case, "signature").ok_or(Refusal::Unanswered)?)?;
    must(
        verifies(&key, &signature, message),
        "the witness's signature does not verify",
    )?;
    Ok(b"valid".to_vec())
}

/// An event's submission: refused when the witness holds its id, or it is not the
/// authenticated sender's.
pub(super) fn submitted(case: &Value) -> Result<Vec<u8>, Refusal> {
    let field = |name: &str| text(case, name).ok_or(Refusal::Unanswered);
    let event = json::member(case, "event").ok_or(Refusal::Unanswered)?;
    let id = text(event, "eventId").ok_or(Refusal::Unanswered)?;
    let agent = text(event, "agentId").ok_or(Refusal::Unanswered)?;
    let Some(Value::Array(held)) = json::member(case, "existingEventIds") else {
        return Err(Refusal::Unanswered);
    };
    must(
        !held
            .iter()
            .any(|h| matches!(h, Value::String(s) if s == id)),
        "the witness holds an event with this id",
    )?;
    must(
        agent == field("authenticatedSenderDid")?,
        "the event is not the authenticated sender's",
    )?;
    Ok(b"valid".to_vec())
}

/// A checkpoint the witness signed that names SHA-256(JCS(previous)) as
/// `previousCheckpointHash`.
pub(super) fn chained(case: &Value) -> Result<Vec<u8>, Refusal> {
    let field = |name: &str| text(case, name).ok_or(Refusal::Unanswered);
    let document = |name: &str| json::canonical(&profiled(field(name)?)?);
    let checkpoint = profiled(field("checkpoint")?)?;
    witness_signed(case, &json::canonical(&checkpoint)?)?;
    let previous = hex(&sha256(&document("previous")?));
    must(
        text(&checkpoint, "previousCheckpointHash") == Some(previous.as_str()),
        "previousCheckpointHash does not name the previous checkpoint",
    )?;
    Ok(b"valid".to_vec())
}

/// An audit event's leaf hash: SHA-256(0x00 ‖ JCS(event without `agentSignature`)).
pub(super) fn event_leaf(event: Value) -> Result<Vec<u8>, Refusal> {
    let Value::Object(mut members) = event else {
        return Err(refused("an audit event is an object"));
    };
    let _ = members.remove_unique("agentSignature");
    let mut data = vec![0];
    data.extend(json::canonical(&Value::Object(members))?);
    Ok(sha256(&data))
}

/// An integer-valued number from `least` to 2^53 − 1, whatever its spelling.
pub(super) fn integer(value: Option<&Value>, least: u64) -> Option<u64> {
    let Some(Value::Number(n)) = value else {
        return None;
    };
    let n = double(n.as_str()).ok()?;
    (n.fract() == 0.0 && n >= least as f64 && n <= MAX_SAFE).then_some(n as u64)
}

/// INK's inclusion receipt: its structure (a non-empty eventId, timestamp and
/// serviceSignature, an integer leafIndex below an integer treeSize ≥ 1, hashes of 64
/// lowercase hex digits, at most 64 proof nodes); the witness's signature over the line
/// `ink/audit-inclusion/v1` and JCS({eventId, leafIndex, treeSize, rootHash, timestamp}); its
/// proof, from the root down, from the event's leaf (the event bound to eventId by its id) or
/// a given leaf hash; and a later checkpoint, which may not hold fewer leaves, nor another
/// root for as many.
pub(super) fn receipt(input: &Value) -> Result<Vec<u8>, Refusal> {
    let r = json::member(input, "receipt").ok_or(Refusal::Unanswered)?;
    let present = |name: &str| text(r, name).filter(|s| !s.is_empty());
    let (Some(id), Some(timestamp), Some(signed_by)) = (
        present("eventId"),
        present("timestamp"),
        present("serviceSignature"),
    ) else {
        return Err(refused(
            "eventId, timestamp or serviceSignature is not a non-empty string",
        ));
    };
    let (Some(index), Some(size)) = (
        integer(json::member(r, "leafIndex"), 0),
        integer(json::member(r, "treeSize"), 1),
    ) else {
        return Err(refused("leafIndex or treeSize is not an integer in range"));
    };
    must(index < size, "leafIndex is not below treeSize")?;
    let root = hash(json::member(r, "rootHash"))?;
    let Some(Value::Array(proof)) = json::member(r, "inclusionProof") else {
        return Err(refused("inclusionProof is not an array"));
    };
    must(proof.len() <= 64, "inclusionProof has more than 64 nodes")?;
    let proof = proof
        .iter()
        .map(|node| hash(Some(node)))
        .collect::<Result<Vec<_>, _>>()?;
    let string = |s: &str| json::canonical(&Value::String(s.into()));
    let core = format!(
        r#"{{"eventId":{},"leafIndex":{index},"rootHash":"{}","timestamp":{},"treeSize":{size}}}"#,
        String::from_utf8_lossy(&string(id)?),
        hex(&root),
        String::from_utf8_lossy(&string(timestamp)?),
    );
    let message = [&b"ink/audit-inclusion/v1\n"[..], core.as_bytes()].concat();
    let key = key(text(input, "witnessPublicKeyHex").ok_or(Refusal::Unanswered)?)
        .ok_or_else(|| refused("the witness key is not 64 lowercase hex digits"))?;
    must(
        verifies(&key, &signature(signed_by)?, &message),
        "the witness's signature does not verify",
    )?;
    let leaf = match (
        json::member(input, "event"),
        json::member(input, "eventHash"),
    ) {
        (Some(event), _) => {
            must(
                text(event, "id") == Some(id),
                "the event's id is not the receipt's eventId",
            )?;
            Some(event_leaf(event.clone())?)
        }
        (None, Some(given)) => Some(hash(Some(given))?),
        (None, None) => None,
    };
    if let Some(leaf) = leaf {
        must(
            walk(index, size, leaf, &proof)? == root,
            "the proof does not lead to rootHash",
        )?;
    }
    later_checkpoint(input, size, &root)?;
    Ok(b"valid".to_vec())
}

/// A later authenticated checkpoint, when the input gives one, may not hold fewer leaves than
/// a tree of `size` with `root`, nor another root for as many.
pub(super) fn later_checkpoint(input: &Value, size: u64, root: &[u8]) -> Result<(), Refusal> {
    let Some(later) = json::member(input, "laterCheckpoint") else {
        return Ok(());
    };
    let later_size = integer(json::member(later, "treeSize"), 0)
        .ok_or_else(|| refused("the later checkpoint's treeSize"))?;
    let later_root = hash(json::member(later, "rootHash"))?;
    must(
        later_size > size || (later_size == size && later_root == root),
        "the log was rewound or forked",
    )
}

/// The witness's decisions: a node's or a tree's hash, an event's submission (refused when the
/// witness holds its id, or it is not the authenticated sender's), and its signatures over a
/// checkpoint's JCS form, over a checkpoint that names SHA-256(JCS(previous)) as
/// `previousCheckpointHash`, and over `ink/audit-response\n` ‖ JCS(events). `None` for
/// another op.
pub(super) fn witness(case: &Value, op: &str) -> Option<Result<Vec<u8>, Refusal>> {
    let field = |name: &str| text(case, name).ok_or(Refusal::Unanswered);
    let document = |name: &str| json::canonical(&profiled(field(name)?)?);
    Some(match op {
        "node" => hash(json::member(case, "left"))
            .and_then(|left| Ok(node(&left, &hash(json::member(case, "right"))?)))
            .map(|h| hex(&h).into_bytes()),
        "root" => match json::member(case, "leafHashes") {
            Some(Value::Array(leaves)) => leaves
                .iter()
                .map(|leaf| hash(Some(leaf)))
                .collect::<Result<Vec<_>, _>>()
                .map(|leaves| hex(&tree_hash(&leaves)).into_bytes()),
            _ => Err(Refusal::Unanswered),
        },
        "submit" => submitted(case),
        "witness-checkpoint" => document("checkpoint").and_then(|m| witness_signed(case, &m)),
        "chain" => chained(case),
        "audit-response" => document("events").and_then(|events| {
            witness_signed(case, &[&b"ink/audit-response\n"[..], &events].concat())
        }),
        _ => return None,
    })
}

/// Whether an inclusion proof listed from the root down, as INK lists it, proves its leaf:
/// RFC 9162 §2.1.3.2 over the reversed list, hashes as 64 lowercase hex digits, sizes below
/// 2^53.
pub(super) fn included(case: &Value) -> Result<(), Refusal> {
    let number = |name: &str| match json::member(case, name) {
        Some(Value::Number(n)) => n.as_str().parse::<u64>().ok().filter(|n| *n < 1 << 53),
        _ => None,
    };
    let (Some(index), Some(size)) = (number("leafIndex"), number("treeSize")) else {
        return Err(refused("a size or index out of range"));
    };
    must(index < size, "the index is not below the size")?;
    let Some(Value::Array(nodes)) = json::member(case, "proof") else {
        return Err(Refusal::Unanswered);
    };
    let path = nodes
        .iter()
        .map(|n| hash(Some(n)))
        .collect::<Result<Vec<_>, _>>()?;
    let leaf = hash(json::member(case, "leafHash"))?;
    must(
        walk(index, size, leaf, &path)? == hash(json::member(case, "rootHash"))?,
        "the root differs",
    )
}

/// The root an inclusion proof listed from the root down, as INK lists it, leads to from the
/// leaf at `index` of a tree of `size`: RFC 9162 §2.1.3.2 over the reversed list, every node
/// used.
pub(super) fn walk(
    index: u64,
    size: u64,
    leaf: Vec<u8>,
    top_down: &[Vec<u8>],
) -> Result<Vec<u8>, Refusal> {
    let (mut f, mut s, mut r) = (index, size - 1, leaf);
    for p in top_down.iter().rev() {
        must(s != 0, "the proof is longer than the path")?;
        if f & 1 == 1 || f == s {
            r = node(p, &r);
            while f & 1 == 0 && f != 0 {
                f >>= 1;
                s >>= 1;
            }
        } else {
            r = node(&r, p);
        }
        f >>= 1;
        s >>= 1;
    }
    must(s == 0, "the proof is shorter than the path")?;
    Ok(r)
}
