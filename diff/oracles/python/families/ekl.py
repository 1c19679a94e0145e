"""ekl from its definitions: salted fingerprints of values and tool results,
and endpoint challenge proofs."""

from common import read_json, verdict


def ekl(c):
    """ekl from its definitions: SHA-256(salt || JCS(value)) with a 32-byte
    salt, a result's structuredContent (when present and not null) or else its content array,
    and HMAC-SHA256 keyed with the hex SHA-256 of the credential over challenge || endpoint;
    a proof is verified as 64 hex digits compared in constant time with that MAC."""
    import hashlib
    import hmac
    import re

    import rfc8785

    if c["op"] in ("challenge", "verify"):
        key = hashlib.sha256(c["credential"].encode()).hexdigest().encode()
        mac = hmac.new(key, (c["challenge"] + c["endpoint"]).encode(), hashlib.sha256)
        if c["op"] == "challenge":
            return mac.hexdigest()
        if not re.fullmatch("[0-9a-fA-F]{64}", c["proof"]):
            raise ValueError("the proof is not 64 hex digits")
        if not hmac.compare_digest(bytes.fromhex(c["proof"]), mac.digest()):
            raise ValueError("the proof does not match")
        return "valid"
    salt = bytes.fromhex(c["salt"])
    if len(salt) != 32:
        raise ValueError("the salt is not 32 bytes")
    if c["op"] == "fingerprint":
        value = read_json(c["value"])
    else:
        result = read_json(c["result"])
        if not isinstance(result, dict):
            raise ValueError("a tool result is an object")
        if "structuredContent" not in result and "content" not in result and isinstance(result.get("result"), dict):
            result = result["result"]
        if result.get("structuredContent") is not None:
            value = result["structuredContent"]
        elif isinstance(result.get("content"), list):
            value = result["content"]
        else:
            raise ValueError("no body to fingerprint")
    return hashlib.sha256(salt + rfc8785.dumps(value)).hexdigest()


def _hashlib():
    import ssl

    return f"hashlib, {ssl.OPENSSL_VERSION}"


LIBRARIES = {
    "ekl": (lambda: verdict(ekl, ("op",)), _hashlib),
}
