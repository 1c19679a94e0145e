"""INK from its definitions: audit events' leaf hashes, requests' signature bases and
signatures, the key history entry that verifies a request, bodies' canonical form,
principals, inclusion proofs, checkpoint bodies, the witness's hashes, submissions and
signatures, timestamps, and messages' freshness and replay."""

import json
import re

from common import Unsupported, read_json, verdict

# INK's timestamp grammar: an RFC 3339 date-time with uppercase T and Z, a zone always given,
# no leap second, at most 64 characters. [0-9], not \d, which matches other scripts' digits.
TIMESTAMP = re.compile(
    r"([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\.([0-9]+))?(Z|[+-][0-9]{2}:[0-9]{2})"
)


def days_from_civil(y, m, d):
    """Days from 1970-01-01 to a proleptic Gregorian date, any year 0000-9999."""
    y = y - 1 if m <= 2 else y
    era = y // 400
    yoe = y - era * 400
    doy = (153 * ((m + 9) % 12) + 2) // 5 + d - 1
    return era * 146097 + yoe * 365 + yoe // 4 - yoe // 100 + doy - 719468


def epoch_ms(text):
    """An INK timestamp as whole milliseconds since the epoch, further fraction digits cut."""
    if len(text) > 64:
        raise ValueError("a timestamp is at most 64 characters")
    t = TIMESTAMP.fullmatch(text)
    if not t:
        raise ValueError("not an RFC 3339 date-time")
    y, mo, d, h, mi, s = (int(t.group(i)) for i in range(1, 7))
    leap = y % 4 == 0 and (y % 100 != 0 or y % 400 == 0)
    days = [31, 29 if leap else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
    if not (1 <= mo <= 12 and 1 <= d <= days[mo - 1] and h <= 23 and mi <= 59 and s <= 59):
        raise ValueError("out of range")
    offset = 0
    if t.group(8) != "Z":
        oh, om = int(t.group(8)[1:3]), int(t.group(8)[4:6])
        if oh > 23 or om > 59:
            raise ValueError("the offset is out of range")
        offset = (-1 if t.group(8)[0] == "-" else 1) * (oh * 60 + om)
    millis = int(((t.group(7) or "") + "000")[:3])
    return days_from_civil(y, mo, d) * 86400000 + ((h * 60 + mi - offset) * 60 + s) * 1000 + millis


BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"


def base58(text):
    """base58btc's bytes, leading '1's as zero bytes; None off the alphabet."""
    n = 0
    for c in text:
        if c not in BASE58:
            return None
        n = n * 58 + BASE58.index(c)
    body = n.to_bytes((n.bit_length() + 7) // 8, "big") if n else b""
    return b"\0" * (len(text) - len(text.lstrip("1"))) + body


def principal(agent):
    """An agent id's principal: tulpa: and ink: ids whose body is z + base58btc of the Ed25519
    multicodec (0xed 0x01) and 32 bytes name key:<body>; other ids with an INK prefix are
    escaped as raw:<id>; the rest pass through. 1 to 512 UTF-16 code units."""
    if not 1 <= len(agent.encode("utf-16-le")) // 2 <= 512:
        raise ValueError("an agent id is 1 to 512 UTF-16 code units")
    for prefix in ("tulpa:", "ink:"):
        if agent.startswith(prefix):
            body = agent[len(prefix):]
            key = base58(body[1:]) if body.startswith("z") else None
            if key is not None and len(key) == 34 and key[:2] == b"\xed\x01":
                return "key:" + body
    if agent.startswith(("tulpa:", "ink:", "key:", "raw:")):
        return "raw:" + agent
    return agent


def hash_bytes(h):
    """A hash written as 64 lowercase hex digits, as its bytes."""
    if not isinstance(h, str) or not re.fullmatch("[0-9a-f]{64}", h):
        raise ValueError("not 64 lowercase hex digits")
    return bytes.fromhex(h)


def node_hash(left, right):
    """RFC 9162's interior node hash."""
    import hashlib

    return hashlib.sha256(b"\x01" + left + right).digest()


def inclusion(c):
    """An inclusion proof as INK lists it, its nodes from the root down: RFC 9162 section
    2.1.3.2 over the reversed list, hashes as 64 lowercase hex digits, sizes below 2^53."""
    index, size = c["leafIndex"], c["treeSize"]
    if not all(isinstance(n, int) and not isinstance(n, bool) and 0 <= n < 2**53 for n in (index, size)):
        raise ValueError("a size or index out of range")
    if index >= size:
        raise ValueError("the index is not below the size")
    fn, sn, r = index, size - 1, hash_bytes(c["leafHash"])
    for p in reversed([hash_bytes(h) for h in c["proof"]]):
        if sn == 0:
            raise ValueError("the proof is longer than the path")
        if fn & 1 or fn == sn:
            r = node_hash(p, r)
            while fn & 1 == 0 and fn != 0:
                fn >>= 1
                sn >>= 1
        else:
            r = node_hash(r, p)
        fn >>= 1
        sn >>= 1
    if sn != 0:
        raise ValueError("the proof is shorter than the path")
    if r != hash_bytes(c["rootHash"]):
        raise ValueError("the root differs")
    return "valid"


def signature_bytes(text):
    """An INK-Ed25519 signature's bytes: 86 base64url characters, canonically written."""
    import base64

    if not re.fullmatch("[A-Za-z0-9_-]{86}", text):
        raise ValueError("not 86 base64url characters")
    signature = base64.urlsafe_b64decode(text + "==")
    if base64.urlsafe_b64encode(signature).rstrip(b"=").decode() != text:
        raise ValueError("not the canonical base64url of the signature")
    return signature


def verifies(key, signature, base):
    """Whether a signature verifies over a base under a key, by PyNaCl."""
    from nacl.exceptions import BadSignatureError
    from nacl.signing import VerifyKey

    try:
        VerifyKey(key).verify(base, signature)
    except BadSignatureError:
        return False
    return True


def signed(c, base):
    """A request's INK-Ed25519 signature over its signature base, verified under a key of 64
    lowercase hex digits."""
    if not re.fullmatch("[0-9a-f]{64}", c["publicKeyHex"]):
        raise ValueError("the key is not 64 lowercase hex digits")
    if not verifies(bytes.fromhex(c["publicKeyHex"]), signature_bytes(c["signature"]), base):
        raise ValueError("the signature does not verify")
    return "valid"


def usable(entry, at):
    """Whether a key history entry can verify a message sent at epoch milliseconds `at`: an
    object whose status is exactly active or retired, without revokedAt, whose validFrom and
    validUntil (each absent or an INK timestamp) hold `at`, both bounds inclusive, and whose
    key is 64 lowercase hex digits."""
    if not isinstance(entry, dict) or entry.get("status") not in ("active", "retired"):
        return False
    if "revokedAt" in entry:
        return False
    for name, outside in (("validFrom", lambda t: at < t), ("validUntil", lambda t: at > t)):
        if name not in entry:
            continue
        if not isinstance(entry[name], str):
            return False
        try:
            if outside(epoch_ms(entry[name])):
                return False
        except ValueError:
            return False
    key = entry.get("publicKeyHex")
    return isinstance(key, str) and re.fullmatch("[0-9a-f]{64}", key) is not None


def rotation(c, base):
    """The entry of a request's key history that verifies it, as "<status> <keyId>": of the
    usable entries the hinted one, then the active ones in order, then the retired ones. A
    retired entry fails live authentication unless retired keys are allowed."""
    at = epoch_ms(c["timestamp"])
    entries = [e for e in c["keys"] if usable(e, at)]
    hint = c.get("hintKeyId")
    hinted = [e for e in entries if isinstance(hint, str) and e.get("keyId") == hint][:1]
    order = hinted + [e for e in entries if e["status"] == "active"] + [e for e in entries if e["status"] == "retired"]
    if not order:
        raise ValueError("no entry of the key history is usable")
    signature = signature_bytes(c["signature"])
    found = next((e for e in order if verifies(bytes.fromhex(e["publicKeyHex"]), signature, base)), None)
    if found is None:
        raise ValueError("no usable entry verifies the signature")
    if c.get("liveAuth") is True and found["status"] == "retired" and c.get("liveAuthAllowRetired") is not True:
        raise ValueError("live authentication takes active keys")
    key_id = found.get("keyId")
    return f"{found['status']} {key_id if isinstance(key_id, str) else ''}"


def raw_rotation(i):
    """Seed 003's key rotation over a raw message: the entry rotation() finds for the
    message's UTF-8 bytes with no hint and no live authentication, as RFC 8785 JSON of its
    keyId, keyStatus and whether it is retired (usedRetiredKey)."""
    import rfc8785

    c = {"timestamp": i["messageTimestamp"], "keys": i["keyHistory"], "signature": i["signature"]}
    status, _, key_id = rotation(c, i["message"].encode("utf-8")).partition(" ")
    return rfc8785.dumps({"keyId": key_id, "keyStatus": status, "usedRetiredKey": status == "retired"}).decode("utf-8")


def claimed_leaf(i):
    """Seed 003's witness leaf beside a claimed canonical form: a claim (when it is a string)
    that is not the event's RFC 8785 form is refused; otherwise RFC 8785 JSON of the event's
    canonicalString and leafHash."""
    import rfc8785

    event = i["event"]
    if not isinstance(event, dict):
        raise ValueError("an event is an object")
    canonical = rfc8785.dumps(event).decode("utf-8")
    claimed = i.get("claimedCanonical")
    if isinstance(claimed, str) and claimed != canonical:
        raise ValueError("the claimed canonical form is not RFC 8785's")
    return rfc8785.dumps({"canonicalString": canonical, "leafHash": event_leaf(event)}).decode("utf-8")


def tree_hash(leaves):
    """RFC 9162's Merkle tree hash over leaf hashes: split at the largest power of two below
    their number."""
    import hashlib

    if not leaves:
        return hashlib.sha256(b"").digest()
    if len(leaves) == 1:
        return leaves[0]
    k = 1 << ((len(leaves) - 1).bit_length() - 1)
    return node_hash(tree_hash(leaves[:k]), tree_hash(leaves[k:]))


def witness(c):
    """The witness's decisions (INK seed 003): node and tree hashes; an event's submission,
    refused when its eventId is held or its agentId is not the authenticated sender; and its
    Ed25519 signatures over JCS(checkpoint), over a checkpoint naming SHA-256(JCS(previous)) as
    previousCheckpointHash, and over the line "ink/audit-response" followed by JCS(events)."""
    import hashlib

    import rfc8785

    def signed_by_witness(message):
        if not re.fullmatch("[0-9a-f]{64}", c["witnessPublicKeyHex"]):
            raise ValueError("the witness key is not 64 lowercase hex digits")
        if not verifies(bytes.fromhex(c["witnessPublicKeyHex"]), signature_bytes(c["signature"]), message):
            raise ValueError("the witness's signature does not verify")
        return "valid"

    op = c["op"]
    if op == "node":
        return node_hash(hash_bytes(c["left"]), hash_bytes(c["right"])).hex()
    if op == "root":
        return tree_hash([hash_bytes(h) for h in c["leafHashes"]]).hex()
    if op == "submit":
        if c["event"]["eventId"] in c["existingEventIds"]:
            raise ValueError("the witness holds an event with this id")
        if c["event"]["agentId"] != c["authenticatedSenderDid"]:
            raise ValueError("the event is not the authenticated sender's")
        return "valid"
    if op == "witness-checkpoint":
        return signed_by_witness(rfc8785.dumps(read_json(c["checkpoint"])))
    if op == "chain":
        checkpoint = read_json(c["checkpoint"])
        signed_by_witness(rfc8785.dumps(checkpoint))
        if checkpoint.get("previousCheckpointHash") != hashlib.sha256(rfc8785.dumps(read_json(c["previous"]))).hexdigest():
            raise ValueError("previousCheckpointHash does not name the previous checkpoint")
        return "valid"
    return signed_by_witness(b"ink/audit-response\n" + rfc8785.dumps(read_json(c["events"])))


# The members of a redacted card (INK seed 003): all required, no others allowed.
REDACTED = frozenset(["agentId", "displayName", "supportsInk", "discoveryMode", "visibility", "updatedAt"])

# What each visibility discloses: to anyone, to a caller authenticated or holding a capability.
DISCLOSURES = {
    "full_card": {"disclosure": "full_card", "httpStatus": 200},
    "redacted_card": {"disclosure": "redacted_card", "httpStatus": 200},
    "not_found": {"disclosure": "not_found", "httpStatus": 404},
}


def containment(i):
    """Seed 003's containment: a token without tokenVersion is a legacy token, permitted on
    every transport; a versioned one permits its allowedTransports (the strings of an array;
    nothing if it is not one), by default only ink_http. One more challenge or intent fits while
    fewer than the maximum were sent; only the handshake's initiator and responder may send."""
    op = i["op"]
    if op == "transport":
        token = i["token"]
        if "tokenVersion" in token:
            allowed = token.get("allowedTransports", ["ink_http"])
            allowed = [t for t in allowed if isinstance(t, str)] if isinstance(allowed, list) else []
            if i["requestTransport"] not in allowed:
                raise ValueError("the token does not permit this transport")
    elif op == "challenge_budget":
        if i["challengesSentSoFar"] >= i["maxChallengesPerCorrelation"]:
            raise ValueError("the challenge budget is spent")
    elif op == "sender_rate":
        if i["intentsSentInWindow"] >= i["maxIntentsPerWindow"]:
            raise ValueError("the sender's rate is spent")
    elif i["from"] not in (i["initiator"], i["responder"]):
        raise ValueError("the sender is not in the handshake")
    return "valid"


def discovery(i):
    """Seed 003's discovery gating: public cards go to anyone, network_only ones to an
    authenticated caller and capability_gated ones to a capability's holder (each flag exactly
    true), the redacted card to the rest; private ones are not found. A redacted card has
    exactly its six members."""
    if i["op"] == "redacted":
        if not isinstance(i["card"], dict) or set(i["card"]) != REDACTED:
            raise ValueError("not the six members of a redacted card")
        return "valid"
    visibility = i["visibility"]
    authenticated = i.get("authenticated") is True
    capability = i.get("holdsCapability") is True
    gated = (visibility == "network_only" and authenticated) or (visibility == "capability_gated" and capability)
    if visibility == "public" or gated:
        shown = "full_card"
    elif visibility in ("network_only", "capability_gated"):
        shown = "redacted_card"
    elif visibility == "private":
        shown = "not_found"
    else:
        raise ValueError("not a visibility")
    return json.dumps(DISCLOSURES[shown], sort_keys=True, separators=(",", ":"))


def signature_base(request, body, timestamp):
    """A request's signature base: ink/0.1, its method, path and recipient, its body's JCS
    form and its timestamp, one per line."""
    head = "ink/0.1\n" + "\n".join([request["method"], request["path"], request["recipientDid"]]) + "\n"
    return head.encode() + body + b"\n" + timestamp.encode()


# An Authorization header: the scheme, blanks, 86 base64url characters, optionally blanks and
# keyId=<1-128 of [A-Za-z0-9_:.-]>, trailing blanks allowed; blanks are spaces and tabs only.
AUTHORIZATION = re.compile(r"INK-Ed25519[ \t]+([A-Za-z0-9_-]{86})(?:[ \t]+keyId=([A-Za-z0-9_:.-]{1,128}))?[ \t]*")


def endpoint(i):
    """Seed 003's endpoint check of a request: its Authorization header; a body naming its
    sender (from) and timestamp as strings; the key history the endpoint holds for that sender,
    and only that one; the key rotation rules under live authentication with retired keys
    refused; and a nested payload.actor, when present, naming the sender. Yields the sender."""
    import rfc8785

    header = i.get("authorization")
    match = AUTHORIZATION.fullmatch(header) if isinstance(header, str) else None
    if match is None:
        raise ValueError("not an INK-Ed25519 Authorization header")
    body = i["body"]
    sender, timestamp = body.get("from"), body.get("timestamp")
    if not isinstance(sender, str) or not isinstance(timestamp, str):
        raise ValueError("the body names no sender or timestamp")
    if sender != i["keysOwner"]:
        raise ValueError("no key history is known for the sender")
    if not isinstance(i["keys"], list):
        raise ValueError("the sender's key history is not an array")
    base = signature_base(i, rfc8785.dumps(body), timestamp)
    request = {"timestamp": timestamp, "keys": i["keys"], "signature": match.group(1), "liveAuth": True}
    if match.group(2) is not None:
        request["hintKeyId"] = match.group(2)
    rotation(request, base)
    payload = body.get("payload")
    if isinstance(payload, dict) and "actor" in payload and payload["actor"] != sender:
        raise ValueError("the nested actor is not the sender")
    return json.dumps({"sender": sender}, separators=(",", ":"), ensure_ascii=False)


def event_leaf(event):
    """An audit event's leaf hash: SHA-256(0x00 || JCS(event without agentSignature))."""
    import hashlib

    import rfc8785

    stripped = {name: value for name, value in event.items() if name != "agentSignature"}
    return hashlib.sha256(b"\x00" + rfc8785.dumps(stripped)).hexdigest()


def integer(value, least):
    """An integer-valued JSON number from `least` to 2^53 - 1, whatever its spelling; None
    otherwise."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    if isinstance(value, float) and not value.is_integer():
        return None
    return int(value) if least <= value <= 2**53 - 1 else None


def receipt(i):
    """INK's inclusion receipt: its structure; the witness's signature over the line
    "ink/audit-inclusion/v1" and JCS({eventId, leafIndex, treeSize, rootHash, timestamp});
    its proof, from the root down, from the event's leaf (the event bound to eventId by its id,
    agentSignature left out) or a given leaf hash; and a later checkpoint, which may not hold
    fewer leaves, nor another root for as many."""
    import rfc8785

    r = i["receipt"]
    if not isinstance(r, dict):
        raise ValueError("structure: the receipt is not an object")
    event_id, timestamp, signature = r.get("eventId"), r.get("timestamp"), r.get("serviceSignature")
    if not all(isinstance(s, str) and s for s in (event_id, timestamp, signature)):
        raise ValueError("structure: eventId, timestamp or serviceSignature is not a non-empty string")
    index, size = integer(r.get("leafIndex"), 0), integer(r.get("treeSize"), 1)
    if index is None or size is None or index >= size:
        raise ValueError("structure: leafIndex or treeSize")
    root = hash_bytes(r.get("rootHash"))
    proof = r.get("inclusionProof")
    if not isinstance(proof, list) or len(proof) > 64:
        raise ValueError("structure: inclusionProof")
    for node in proof:
        hash_bytes(node)
    signed = {"eventId": event_id, "leafIndex": index, "treeSize": size, "rootHash": r["rootHash"], "timestamp": timestamp}
    if not re.fullmatch("[0-9a-f]{64}", i["witnessPublicKeyHex"]):
        raise ValueError("the witness key is not 64 lowercase hex digits")
    message = b"ink/audit-inclusion/v1\n" + rfc8785.dumps(signed)
    if not verifies(bytes.fromhex(i["witnessPublicKeyHex"]), signature_bytes(signature), message):
        raise ValueError("signature: the witness's signature does not verify")
    leaf = None
    if "event" in i:
        event = i["event"]
        if not isinstance(event, dict) or event.get("id") != event_id:
            raise ValueError("proof: the event's id is not the receipt's eventId")
        leaf = event_leaf(event)
    elif "eventHash" in i:
        leaf = i["eventHash"]
    if leaf is not None:
        inclusion({"leafIndex": index, "treeSize": size, "leafHash": leaf, "rootHash": r["rootHash"], "proof": proof})
    later_checkpoint(i, size, root)
    return "valid"


def later_checkpoint(i, size, root):
    """A later authenticated checkpoint, when the input gives one, may not hold fewer leaves
    than a tree of `size` with `root`, nor another root for as many."""
    if "laterCheckpoint" not in i:
        return
    later = i["laterCheckpoint"]
    later_size = integer(later.get("treeSize"), 0) if isinstance(later, dict) else None
    if later_size is None:
        raise ValueError("checkpoint: the later checkpoint's treeSize")
    later_root = hash_bytes(later.get("rootHash"))
    if later_size < size or (later_size == size and later_root != root):
        raise ValueError("checkpoint: the log was rewound or forked")


AUDIT_TYPES = ("network.tulpa.audit_query_response", "network.ink.audit_query_response")


def signed_member(document, member, domain, key):
    """Whether `document`'s `member` is a signature by `key` over `domain` and the JCS form
    of the document without that member."""
    import rfc8785

    signature = document.get(member)
    if not isinstance(signature, str):
        raise ValueError(f"no {member}")
    rest = {name: value for name, value in document.items() if name != member}
    if not verifies(key, signature_bytes(signature), domain + rfc8785.dumps(rest)):
        raise ValueError(f"{member} does not verify")


def audit(i):
    """INK's audit-query response: protocol ink/0.1, an audit-query response type, a message
    id, as many proofs as events, an integer tree size, a root hash (an empty tree holds no
    events and has the empty root); the message, requester and pinned witness asked about; the
    witness's signature over the line "ink/audit-query-response/v1" and JCS(response without
    serviceSignature); each event about the message, involving the requester, signed by its
    agent's key over the line "ink/audit-event" and JCS(event without agentSignature), its id
    unique; each proof naming a distinct event and leading from its leaf to the root; and a
    later checkpoint."""
    import hashlib

    r = i["response"]
    if not isinstance(r, dict):
        raise ValueError("structure: the response is not an object")

    def text(document, name):
        value = document.get(name)
        return value if isinstance(value, str) else ""

    if text(r, "protocol") != "ink/0.1" or text(r, "type") not in AUDIT_TYPES or not text(r, "messageId"):
        raise ValueError("structure: protocol, type or messageId")
    events, proofs = r.get("events"), r.get("proofs")
    if not isinstance(events, list) or not isinstance(proofs, list) or len(events) != len(proofs):
        raise ValueError("structure: events and proofs")
    size = integer(r.get("treeSize"), 0)
    if size is None:
        raise ValueError("structure: treeSize")
    root = hash_bytes(r.get("rootHash"))
    if size == 0 and (events or root != hashlib.sha256(b"").digest()):
        raise ValueError("structure: an empty tree holds no events and has the empty root")
    requester = i["expectedRequester"]
    if text(r, "messageId") != i["expectedMessageId"] or text(r, "requester") != requester:
        raise ValueError("binding: not the message or requester asked about")
    if "expectedServiceDid" in i and text(r, "serviceDid") != i["expectedServiceDid"]:
        raise ValueError("binding: not the pinned witness")
    if not re.fullmatch("[0-9a-f]{64}", i["witnessPublicKeyHex"]):
        raise ValueError("the witness key is not 64 lowercase hex digits")
    signed_member(r, "serviceSignature", b"ink/audit-query-response/v1\n", bytes.fromhex(i["witnessPublicKeyHex"]))
    keys = {did: bytes.fromhex(h) for did, h in i["agentKeysHex"].items() if isinstance(h, str) and re.fullmatch("[0-9a-f]{64}", h)}
    leaves = {}
    for event in events:
        if not isinstance(event, dict):
            raise ValueError("event: not an object")
        if text(event, "messageId") != text(r, "messageId"):
            raise ValueError("scope: an event about another message")
        if requester not in (text(event, "agentId"), text(event, "counterpartyId")):
            raise ValueError("scope: an event not involving the requester")
        if text(event, "agentId") not in keys:
            raise ValueError("event: no key for the agent")
        signed_member(event, "agentSignature", b"ink/audit-event\n", keys[text(event, "agentId")])
        if text(event, "id") in leaves:
            raise ValueError("event: two events share an id")
        leaves[text(event, "id")] = event_leaf(event)
    proven = set()
    for proof in proofs:
        named = text(proof, "eventId") if isinstance(proof, dict) else ""
        if named not in leaves or named in proven:
            raise ValueError("proof: names no event, or one already proven")
        proven.add(named)
        index = integer(proof.get("leafIndex"), 0)
        if index is None or index >= size:
            raise ValueError("proof: leafIndex is not below treeSize")
        inclusion({"leafIndex": index, "treeSize": size, "leafHash": leaves[named], "rootHash": r["rootHash"], "proof": proof.get("inclusionProof")})
    later_checkpoint(i, size, root)
    return "valid"


def units(text):
    """A string's length in UTF-16 code units."""
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def bounded(m, key, bound, needed):
    """`key` of m is a string of at most `bound` UTF-16 code units; absent only if not needed."""
    if key not in m:
        if needed:
            raise ValueError(f"{key} is missing")
    elif not isinstance(m[key], str) or units(m[key]) > bound:
        raise ValueError(f"{key} is not a string of at most {bound} UTF-16 code units")


def chosen(m, key, allowed):
    """`key` of m is one of the strings allowed."""
    if not isinstance(m.get(key), str) or m[key] not in allowed:
        raise ValueError(f"{key} is not one of {', '.join(allowed)}")


def listed(m, key, needed, count, bound):
    """`key` of m is a list of at most `count` strings of at most `bound` UTF-16 code units."""
    if key not in m:
        if needed:
            raise ValueError(f"{key} is missing")
        return
    items = m[key]
    if not isinstance(items, list) or len(items) > count or any(not isinstance(i, str) or units(i) > bound for i in items):
        raise ValueError(f"{key} is not a list of at most {count} strings of at most {bound}")


def only(m, allowed):
    """m has no member but those allowed."""
    if not set(m) <= set(allowed):
        raise ValueError("an unknown member")


def utc(value):
    """A handshake date-time: an INK timestamp ending in Z."""
    return isinstance(value, str) and value.endswith("Z") and epoch_ms(value) is not None


def handshake(m):
    """INK's handshake message: a challenge, rejection or resolution in the network.tulpa or
    network.ink namespace, protocol ink/0.1, an intentRef and nonce of at most 256 UTF-16 code
    units, a timestamp in UTC; each kind's members as INK lists them; unknown members
    ignored."""
    if not isinstance(m, dict) or not isinstance(m.get("type"), str):
        raise ValueError("not a handshake message")
    kind = next((m["type"][len(p):] for p in ("network.tulpa.", "network.ink.") if m["type"].startswith(p)), None)
    if kind is None or m.get("protocol") != "ink/0.1":
        raise ValueError("not an ink/0.1 handshake message type")
    bounded(m, "intentRef", 256, True)
    bounded(m, "nonce", 256, True)
    if not utc(m.get("timestamp")):
        raise ValueError("timestamp is not a UTC date-time")
    if kind == "challenge":
        chosen(m, "challengeType", ("mutual_connection_proof", "identity_verification", "availability_query", "context_request", "none"))
        listed(m, "fields", False, 32, 256)
        listed(m, "availableWindows", False, 32, 64)
        listed(m, "contextFields", False, 32, 256)
    elif kind == "rejection":
        chosen(m, "reason", ("policy_violation", "trust_threshold", "capacity", "unsupported_intent", "rate_limited", "expired", "handshake_budget_exhausted", "counterparty_cooldown", "sender_rate_limited", "delegation_budget_exhausted", "transport_scope_violation"))
        bounded(m, "detail", 500, False)
        bounded(m, "retryAfter", 64, False)
        if "backoffHint" in m:
            hint = m["backoffHint"]
            if not isinstance(hint, dict):
                raise ValueError("backoffHint is not an object")
            if "retryAfterSeconds" in hint and integer(hint["retryAfterSeconds"], 1) is None:
                raise ValueError("retryAfterSeconds is not a positive safe integer")
            if "cooldownUntil" in hint and not utc(hint["cooldownUntil"]):
                raise ValueError("cooldownUntil is not a UTC date-time")
            if "backoffClass" in hint:
                chosen(hint, "backoffClass", ("sender", "intent_ref", "counterparty"))
    elif kind == "resolution":
        chosen(m, "outcome", ("accepted", "declined", "escalated_to_human", "expired"))
        bounded(m, "counterpartyDid", 512, False)
        if "details" in m:
            if not isinstance(m["details"], dict):
                raise ValueError("details is not an object")
            bounded(m["details"], "scheduledAt", 64, False)
            bounded(m["details"], "duration", 64, False)
    else:
        raise ValueError("not a handshake message type")
    return "valid"


def snapshot(s):
    """A profile snapshot: a headline of at most 500 units, skills and interests (at most 50 of
    at most 100), openTo (at most 20 of at most 100), an optional availability with a timezone
    of at most 64 and meeting hours and response SLA of at most 200; nothing else."""
    if not isinstance(s, dict):
        raise ValueError("profileSnapshot is not an object")
    only(s, ("headline", "skills", "interests", "openTo", "availability"))
    bounded(s, "headline", 500, True)
    listed(s, "skills", True, 50, 100)
    listed(s, "interests", True, 50, 100)
    listed(s, "openTo", True, 20, 100)
    if "availability" in s:
        a = s["availability"]
        if not isinstance(a, dict):
            raise ValueError("availability is not an object")
        only(a, ("timezone", "meetingHours", "responseSla"))
        bounded(a, "timezone", 64, True)
        bounded(a, "meetingHours", 200, False)
        bounded(a, "responseSla", 200, False)


def connection(kind, p):
    """INK's connection payloads: a request (method from INK's list, an optional introducer of
    at most 512 units, a context of at most 2,000, a profile snapshot) or a response (a status,
    an optional note of at most 1,000, an optional snapshot); unknown members refused."""
    if not isinstance(p, dict):
        raise ValueError("the payload is not an object")
    if kind == "connection_request":
        only(p, ("method", "introducedBy", "context", "profileSnapshot"))
        chosen(p, "method", ("qr", "intro", "discovery", "import"))
        bounded(p, "introducedBy", 512, False)
        bounded(p, "context", 2000, True)
        snapshot(p.get("profileSnapshot"))
    elif kind == "connection_response":
        only(p, ("status", "profileSnapshot", "note"))
        chosen(p, "status", ("accepted", "declined", "pending"))
        bounded(p, "note", 1000, False)
        if "profileSnapshot" in p:
            snapshot(p["profileSnapshot"])
    else:
        raise ValueError("not a connection payload kind")
    return "valid"


def endpoint_url(url):
    """INK's endpoint URL: at most 2,048 bytes, no control, space or backslash, no fragment,
    well-formed percent escapes, https://, then an authority without userinfo or escapes: a
    host of letters, digits, dots and hyphens or a bracketed IPv6 literal of hex digits, colons
    and dots, and an optional port 1 to 65535; then any path and query."""
    if not isinstance(url, str) or not url or len(url.encode("utf-8", "surrogatepass")) > 2048:
        raise ValueError("not an endpoint URL")
    if any(c <= " " or c == "\x7f" for c in url) or "\\" in url or "#" in url:
        raise ValueError("a control, space, backslash or fragment")
    if re.search("%(?![0-9A-Fa-f]{2})", url) or not url.startswith("https://"):
        raise ValueError("a bad escape, or not https")
    authority = re.split("[/?]", url[len("https://"):], maxsplit=1)[0]
    m = re.fullmatch(r"(?:\[([0-9A-Fa-f:.]+)\]|([A-Za-z0-9.-]+))(?::([0-9]+))?", authority)
    if not m or (m.group(3) is not None and not 1 <= int(m.group(3)) <= 65535):
        raise ValueError("not a plain host and port")
    return url


CARD_INTENTS = ("schedule_meeting", "schedule_meeting_response", "intro_request", "intro_response", "opportunity", "opportunity_response", "follow_up", "ask", "ask_response", "connection_request", "connection_response", "context_share", "ping", "retract", "multi_party_sync")
VISIBILITIES = ("public", "network_only", "capability_gated", "private")
TRANSPORTS = ("ink_http", "ink_ws", "extension_api", "voice", "line_phone", "human_review_queue")
KEY_STATUSES = ("active", "retired", "revoked")


def card(c):
    """INK's Agent Card: its required members (protocol, ids, handle, display name, endpoint,
    multibase key, capabilities, availability) and, when present, each optional section as
    INK bounds it; unknown top-level members ignored."""

    def need(ok, why):
        if not ok:
            raise ValueError(why)

    def obj(value, what):
        need(isinstance(value, dict), f"{what} is not an object")
        return value

    def flag(m, key, needed):
        need(isinstance(m.get(key), bool) if (needed or key in m) else True, f"{key} is not a boolean")

    def positive(m, key):
        need(key not in m or integer(m[key], 1) is not None, f"{key} is not a positive integer")

    def choices(m, key, needed, count, allowed):
        if key not in m:
            need(not needed, f"{key} is missing")
            return
        items = m[key]
        need(isinstance(items, list) and len(items) <= count and all(isinstance(i, str) and i in allowed for i in items), f"{key}")

    def strict(m, key, needed):
        if key in m or needed:
            need(isinstance(m.get(key), str), f"{key} is not a timestamp")
            epoch_ms(m[key])

    def id_128(value):
        return isinstance(value, str) and 1 <= units(value) <= 128

    def signature_86(value):
        return isinstance(value, str) and re.fullmatch("[A-Za-z0-9_-]{86}", value) is not None

    obj(c, "the card")
    chosen(c, "protocol", ("ink/0.1",))
    bounded(c, "agentId", 512, True)
    bounded(c, "ownerDid", 512, False)
    bounded(c, "ownerHandle", 256, False)
    bounded(c, "atprotoRecordUri", 2048, False)
    bounded(c, "handle", 256, True)
    bounded(c, "displayName", 200, True)
    endpoint_url(c.get("endpoint"))
    if "inboxEndpoint" in c:
        need(endpoint_url(c["inboxEndpoint"]) == c["endpoint"], "inboxEndpoint differs from endpoint")
    bounded(c, "publicKeyMultibase", 128, True)
    need(c["publicKeyMultibase"].startswith("z"), "publicKeyMultibase is not z-multibase")
    if "profileSnapshot" in c:
        snapshot(c["profileSnapshot"])
    caps = obj(c.get("capabilities"), "capabilities")
    choices(caps, "intentsAccepted", True, 32, CARD_INTENTS)
    choices(caps, "intentsSent", True, 32, CARD_INTENTS)
    if "receipts" in caps:
        receipts = obj(caps["receipts"], "receipts")
        flag(receipts, "send", True)
        choices(receipts, "dispositions", True, 16, ("received", "delivered", "acted", "rejected", "expired"))
    flag(caps, "auditExchange", False)
    if "thirdPartyAudit" in caps:
        audit_section = obj(caps["thirdPartyAudit"], "thirdPartyAudit")
        services = audit_section.get("services")
        need(isinstance(services, list) and len(services) <= 16, "services")
        for service in services:
            endpoint_url(obj(service, "a service").get("endpoint"))
            bounded(service, "did", 512, True)
            bounded(service, "publicKey", 256, True)
        chosen(audit_section, "submitPolicy", ("all", "high_value", "none"))
    availability = obj(c.get("availability"), "availability")
    bounded(availability, "timezone", 64, True)
    bounded(availability, "meetingHours", 200, False)
    bounded(availability, "responseSla", 200, False)
    if "keys" in c:
        keys = obj(c["keys"], "keys")
        for role, algorithm in (("signing", "Ed25519"), ("encryption", "X25519")):
            entries = keys.get(role)
            need(isinstance(entries, list) and len(entries) <= 32, f"keys.{role}")
            for entry in entries:
                obj(entry, "a key entry")
                need(isinstance(entry.get("keyId"), str) and entry["keyId"] != "", "keyId")
                chosen(entry, "algorithm", (algorithm,))
                need(isinstance(entry.get("publicKeyMultibase"), str) and entry["publicKeyMultibase"].startswith("z"), "publicKeyMultibase")
                chosen(entry, "status", KEY_STATUSES)
                strict(entry, "validFrom", True)
                strict(entry, "validUntil", False)
                strict(entry, "revokedAt", False)
                need("revokeReason" not in entry or isinstance(entry["revokeReason"], str), "revokeReason")
    bounded(c, "currentSigningKeyId", 128, False)
    bounded(c, "currentEncryptionKeyId", 128, False)
    positive(c, "keySetVersion")
    listed(c, "supportedProtocolVersions", False, 8, 16)
    visibility = c.get("visibility", "public")
    need(isinstance(visibility, str) and visibility in VISIBILITIES, "visibility")
    if "discovery" in c:
        d = obj(c["discovery"], "discovery")
        flag(d, "enabled", True)
        scope = d.get("scope")
        need(isinstance(scope, str) and scope in VISIBILITIES, "the discovery scope is not a visibility")
        need(VISIBILITIES.index(scope) >= VISIBILITIES.index(visibility), "the discovery scope exposes more than the card")
        if "tags" in d:
            tags = d["tags"]
            need(isinstance(tags, list) and len(tags) <= 32 and all(isinstance(t, str) and 1 <= units(t) <= 64 for t in tags), "tags")
        flag(d, "queryable", False)
        strict(d, "updatedAt", False)
    if "governance" in c:
        g = obj(c["governance"], "governance")
        positive(g, "maxAcceptedDelegationDepth")
        if "supportedTransports" in g:
            transports = g["supportedTransports"]
            need(isinstance(transports, list) and all(isinstance(t, str) and t in TRANSPORTS for t in transports), "supportedTransports")
        flag(g, "supportsCapabilityGatedDiscovery", False)
        if "handshakeBudget" in g:
            budget = obj(g["handshakeBudget"], "handshakeBudget")
            positive(budget, "maxChallengesPerCorrelation")
            positive(budget, "maxIntentsPerMinute")
    if "cardSignature" in c:
        s = obj(c["cardSignature"], "cardSignature")
        need(id_128(s.get("keyId")) and signature_86(s.get("signature")), "cardSignature")
    if "rotationChain" in c:
        chain = c["rotationChain"]
        need(isinstance(chain, list) and len(chain) <= 32, "rotationChain")
        for link in chain:
            obj(link, "a rotation link")
            need("keySetVersion" in link, "a link has no keySetVersion")
            positive(link, "keySetVersion")
            signing = link.get("signing")
            need(isinstance(signing, list) and 1 <= len(signing) <= 32, "a link's signing set")
            seen = set()
            for entry in signing:
                obj(entry, "a rotation signing entry")
                key = entry.get("publicKeyMultibase")
                need(id_128(entry.get("keyId")) and isinstance(key, str) and key.startswith("z") and units(key) <= 128, "a signing entry")
                need(entry["keyId"] not in seen, "a repeated keyId")
                seen.add(entry["keyId"])
                chosen(entry, "status", KEY_STATUSES)
            need(id_128(link.get("prevKeyId")) and signature_86(link.get("signature")), "a link's prevKeyId or signature")
    strict(c, "updatedAt", False)
    return "valid"


def decide(c):
    """A decision as ink decide takes it, on its input."""
    if c["decision"] == "seed-containment":
        return containment(c["input"])
    if c["decision"] == "seed-discovery-gating":
        return discovery(c["input"])
    if c["decision"] == "seed-transport-auth" and c["input"]["op"] == "request":
        return endpoint(c["input"])
    if c["decision"] == "inclusion-receipt":
        return receipt(c["input"])
    if c["decision"] == "audit-query-response":
        return audit(c["input"])
    if c["decision"] == "handshake-message":
        return handshake(c["input"].get("message"))
    if c["decision"] == "connection-payload":
        return connection(c["input"]["kind"], c["input"].get("payload"))
    if c["decision"] == "agent-card":
        return card(c["input"].get("card"))
    if c["decision"] == "seed-key-rotation":
        return raw_rotation(c["input"])
    if c["decision"] == "seed-witness" and c["input"].get("op") == "leaf":
        return claimed_leaf(c["input"])
    raise Unsupported(c["decision"])


# Unicode's White_Space code points (PropList.txt); str.isspace takes others besides.
WHITE_SPACE = frozenset(
    chr(c)
    for c in (*range(0x9, 0xE), 0x20, 0x85, 0xA0, 0x1680, *range(0x2000, 0x200B), 0x2028, 0x2029, 0x202F, 0x205F, 0x3000)
)


def checkpoint(body):
    """A C2SP checkpoint body as INK reads it: three lines, each ended by a line feed; the
    origin non-empty, at most 256 UTF-16 code units, with no White_Space, control or '+';
    the size decimal digits without sign or leading zero, below 2^53; the root 64 lowercase
    hex digits; the body at most 1,024 UTF-16 code units. A body that parses is its
    canonical form."""
    import unicodedata

    if units(body) > 1024:
        raise ValueError("the body is past 1,024 UTF-16 code units")
    if not body.endswith("\n"):
        raise ValueError("the body does not end with a line feed")
    lines = body[:-1].split("\n")
    if len(lines) != 3:
        raise ValueError("a checkpoint body has three lines")
    origin, size, root = lines
    odd = any(c in WHITE_SPACE or unicodedata.category(c) == "Cc" or c == "+" for c in origin)
    if not origin or units(origin) > 256 or odd:
        raise ValueError("the origin")
    if not re.fullmatch("0|[1-9][0-9]*", size) or int(size) >= 2**53:
        raise ValueError("the tree size")
    if not re.fullmatch("[0-9a-f]{64}", root):
        raise ValueError("the root hash")
    return body


def replay(c):
    """Freshness and replay: a nonce of 16 to 256 characters, a message at most 300000 ms old
    and at most 30000 ms ahead of the receiver's clock (both bounds inclusive), a nonce not
    seen before."""
    if not 16 <= len(c["nonce"]) <= 256:
        raise ValueError("the nonce is not 16 to 256 characters")
    sent, now = epoch_ms(c["messageTimestamp"]), epoch_ms(c["receiverClock"])
    if now - sent > 300000:
        raise ValueError("stale")
    if sent - now > 30000:
        raise ValueError("future")
    if c["nonce"] in c["previouslySeenNonces"]:
        raise ValueError("replay")
    return "valid"


def ink(c):
    """INK from its definitions: a leaf is SHA-256(0x00 || JCS(event without agentSignature));
    a signature base is ink/0.1, method, path, recipient, JCS(body) and timestamp, one per line
    (answered as its SHA-256); a body's canonical form is its JCS; principals, timestamps and
    freshness as above."""
    import hashlib

    import rfc8785

    if c["op"] == "body":
        return rfc8785.dumps(read_json(c["body"])).decode("utf-8")
    if c["op"] == "principal":
        return principal(c["agentId"])
    if c["op"] == "checkpoint":
        return checkpoint(c["checkpoint"])
    if c["op"] == "inclusion":
        return inclusion(c)
    if c["op"] == "timestamp":
        return str(epoch_ms(c["timestamp"]))
    if c["op"] == "replay":
        return replay(c)
    if c["op"] == "decide":
        return decide(c)
    if c["op"] in ("node", "root", "submit", "witness-checkpoint", "chain", "audit-response"):
        return witness(c)
    if c["op"] == "leaf":
        event = read_json(c["event"])
        if not isinstance(event, dict):
            raise ValueError("an event is an object")
        return event_leaf(event)
    body = rfc8785.dumps(read_json(c["body"]))
    base = signature_base(c, body, c["timestamp"])
    if c["op"] == "signed":
        return signed(c, base)
    if c["op"] == "rotation":
        return rotation(c, base)
    return hashlib.sha256(base).hexdigest()


def _hashlib():
    import ssl

    return f"hashlib, {ssl.OPENSSL_VERSION}"


LIBRARIES = {
    "ink": (lambda: verdict(ink, ("op",)), _hashlib),
}
