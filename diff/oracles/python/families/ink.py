"""INK from its definitions: audit events' leaf hashes and requests' signature bases."""

from common import read_json, verdict


def ink(c):
    """INK from its definitions: a leaf is SHA-256(0x00 || JCS(event without agentSignature));
    a signature base is ink/0.1, method, path, recipient, JCS(body) and timestamp, one per line
    (answered as its SHA-256)."""
    import hashlib

    import rfc8785

    if c["op"] == "leaf":
        event = read_json(c["event"])
        if not isinstance(event, dict):
            raise ValueError("an event is an object")
        event.pop("agentSignature", None)
        return hashlib.sha256(b"\x00" + rfc8785.dumps(event)).hexdigest()
    body = rfc8785.dumps(read_json(c["body"]))
    head = "ink/0.1\n" + "\n".join([c["method"], c["path"], c["recipientDid"]]) + "\n"
    return hashlib.sha256(head.encode() + body + b"\n" + c["timestamp"].encode()).hexdigest()


def _hashlib():
    import ssl

    return f"hashlib, {ssl.OPENSSL_VERSION}"


LIBRARIES = {
    "ink": (lambda: verdict(ink, ("op",)), _hashlib),
}
