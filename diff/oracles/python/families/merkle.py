"""Merkle: RFC 9162 roots and audit paths, an {"op": "root" | "inclusion" | ...} case with
hashes in hex."""

from common import Unsupported, verdict


def pymerkle(c):
    """Roots, and RFC 9162 audit paths checked by pymerkle's own path layout: its inclusion
    path is the leaf hash followed by the audit path, bottom up. Consistency proofs have
    another shape in pymerkle, so those cases are unsupported."""
    from pymerkle import InmemoryTree
    from pymerkle.core import _inclusion_path_layout
    from pymerkle.hasher import MerkleHasher
    from pymerkle.proof import InclusionProof

    if c["op"] == "root":
        tree = InmemoryTree(algorithm="sha256")
        for leaf in c["leaves"]:
            tree.append_entry(bytes.fromhex(leaf))
        return tree.get_root().hex()
    if c["op"] != "inclusion":
        raise Unsupported()
    index, size = c["index"], c["size"]
    leaf = MerkleHasher("sha256").hash_buff(bytes.fromhex(c["leaf"]))
    if not 0 <= index < size:
        raise ValueError("index out of range")
    rule, _ = _inclusion_path_layout(index + 1, size)
    path = [leaf] + [bytes.fromhex(h) for h in c["proof"]]
    InclusionProof("sha256", True, size, index + 1, rule, path).verify(leaf, bytes.fromhex(c["root"]))
    return "valid"


LIBRARIES = {
    "pymerkle": (lambda: verdict(pymerkle, ("op",)), None),
}
