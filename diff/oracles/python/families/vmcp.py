"""verifiable-mcp: a whole response checked as the specification says
({"jwks","now","response"}), answering the signed payload's canonical text."""

import json

from common import read_json, refuse_constant, verdict

VMCP_META = "org.jardenberg/verifiable-mcp"
VMCP_SKEW = 60
VMCP_MEMBERS = {
    "tool": {"content", "structuredContent", "isError", "_meta", "resultType", "signature", "provenance"},
    "resource": {"contents", "_meta", "resultType", "ttlMs", "cacheScope", "signature", "provenance"},
}


def must(ok, why):
    if not ok:
        raise ValueError(why)


def json_number(text):
    """JSON numbers as RFC 8785 reads them: IEEE-754 doubles (integers beyond 2^53 too)."""
    value = int(text)
    return value if abs(value) < 2**53 else float(value)


def b64url(text):
    must(isinstance(text, str) and all(c.isalnum() or c in "-_" for c in text), "not base64url")
    import base64

    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def exact_json(text):
    """JSON as a client that keeps numbers exactly reads it: integers as int, every other
    number as a Decimal of the digits written."""
    from decimal import Decimal

    return json.loads(text, parse_constant=refuse_constant, parse_float=Decimal)


def exact_equal(a, b):
    """Whether two values read by exact_json are the same, numbers by their exact value."""
    from decimal import Decimal

    pending = [(a, b)]
    while pending:
        x, y = pending.pop()
        number = (int, Decimal)
        if isinstance(x, bool) or isinstance(y, bool) or not (isinstance(x, number) and isinstance(y, number)):
            if type(x) is not type(y):
                return False
            if isinstance(x, dict):
                if x.keys() != y.keys():
                    return False
                pending.extend((x[k], y[k]) for k in x)
            elif isinstance(x, list):
                if len(x) != len(y):
                    return False
                pending.extend(zip(x, y))
            elif x != y:
                return False
        elif Decimal(x) != Decimal(y):
            return False
    return True


def vmcp_served(response):
    """The parts of a response a client reads: kind, envelope holder, served payload, text.
    Numbers are read exactly, and an id or error code, which a client reads as an integer, must
    be written as one."""
    r = exact_json(response)
    must(isinstance(r, dict), "the response is not an object")
    frame = ("jsonrpc", "id", "result", "error")
    framed = any(k in r for k in frame)
    if framed:
        must(r.get("jsonrpc") == "2.0", 'jsonrpc is not "2.0"')
        must("id" in r and (r["id"] is None or isinstance(r["id"], (str, int))) and not isinstance(r["id"], bool), "no usable id")
        must(("result" in r) != ("error" in r), "a response carries exactly one of result and error")
        must(all(k in frame for k in r), "unexpected member beside the JSON-RPC frame")
    if framed and "error" in r:
        e = r["error"]
        must(isinstance(e, dict), "error is not an object")
        must(all(k in ("code", "message", "data") for k in e), "unsigned member in error")
        must(isinstance(e.get("code"), int) and not isinstance(e.get("code"), bool), "error.code is not an integer")
        must(isinstance(e.get("message"), str), "error.message is not a string")
        must(isinstance(e.get("data"), dict), "no error.data")
        seen = dict(e)
        rest = {k: v for k, v in e["data"].items() if k != VMCP_META}
        if rest:
            seen["data"] = rest
        else:
            del seen["data"]
        return "error", e["data"], {"id": r["id"], "error": seen}, None, False
    result = r["result"] if framed else r
    must(isinstance(result, dict), "the result is not an object")
    if "contents" in result:
        must(all(k in VMCP_MEMBERS["resource"] for k in result), "unsigned member in a resource result")
        must(isinstance(result["contents"], list), "contents is not an array")
        first = result["contents"][0] if result["contents"] else None
        text = first.get("text") if isinstance(first, dict) else None
        return "resource", result.get("_meta"), {"contents": result["contents"]}, text, False
    must(all(k in VMCP_MEMBERS["tool"] for k in result), "unsigned member in a tool result")
    if "isError" in result:
        must(isinstance(result["isError"], bool), "isError is not a boolean")
    text = None
    if "content" in result:
        must(isinstance(result["content"], list), "content is not an array")
        if result["content"]:
            first = result["content"][0]
            must(isinstance(first, dict) and first.get("type") == "text" and isinstance(first.get("text"), str), "content[0] is not a text item")
            text = first["text"]
    served = result["structuredContent"] if "structuredContent" in result else VMCP_ABSENT
    return "tool", result.get("_meta"), served, text, result.get("isError") is True


VMCP_ABSENT = object()


def vmcp(c):
    """verifiable-mcp 0.2.1 from SPEC.md, with PyNaCl for Ed25519 and PyPI rfc8785: the same
    rules the Node verifier states, written apart from it."""
    import hashlib

    import rfc8785
    from nacl.signing import VerifyKey

    must(isinstance(c["response"], str) and isinstance(c["now"], int) and isinstance(c["jwks"], dict), "not a case")
    kind, holder, served, text, is_error = vmcp_served(c["response"])
    envelope = holder.get(VMCP_META) if isinstance(holder, dict) else None
    must(isinstance(envelope, dict) and isinstance(envelope.get("jws"), str), "no envelope")
    keys = c["jwks"].get("keys")
    keys = [k for k in keys if isinstance(k, dict)] if isinstance(keys, list) else []
    kids = [k["kid"] for k in keys if "kid" in k]
    must(len(set(map(json.dumps, kids))) == len(kids), "two keys of the set share a kid")
    parts = envelope["jws"].split(".")
    must(len(parts) == 3, "not a compact JWS")
    header = read_json(b64url(parts[0]).decode("utf-8"))
    must(isinstance(header, dict), "the header is not an object")
    must(header.get("alg") == "EdDSA", "alg is not EdDSA")
    must(header.get("typ") == "verifiable-mcp+jws", "typ is not verifiable-mcp+jws")
    must("crit" not in header, "crit names extensions this verifier does not understand")
    must(isinstance(header.get("kid"), str), "no kid")
    found = [k for k in keys if k.get("kid") == header["kid"]]
    must(len(found) == 1, "no key has this kid")
    key = found[0]
    must(key.get("kty") == "OKP" and key.get("crv") == "Ed25519", "not an Ed25519 key")
    VerifyKey(b64url(key.get("x"))).verify((parts[0] + "." + parts[1]).encode(), b64url(parts[2]))
    wrapper_text = b64url(parts[1]).decode("utf-8")
    wrapper = json.loads(wrapper_text, parse_constant=refuse_constant, parse_int=json_number)
    must(isinstance(wrapper, dict) and rfc8785.dumps(wrapper).decode("utf-8") == wrapper_text, "the wrapper is not a canonical object")

    def is_time(v):
        return isinstance(v, (int, float)) and not isinstance(v, bool) and v >= 0 and float(v).is_integer()

    def label(data):
        return "sha256:" + hashlib.sha256(data).hexdigest()

    must(is_time(wrapper.get("iat")) and isinstance(wrapper.get("provenance"), dict), "no iat or provenance")
    must(not any(k.startswith("content_hash") for k in wrapper), "a v0.1 content_hash key")
    must("payload" in wrapper and isinstance(wrapper.get("payload_digest"), str), "no payload or payload_digest")
    payload = rfc8785.dumps(wrapper["payload"])
    must(label(payload) == wrapper["payload_digest"], "payload_digest differs")
    if kind == "error":
        must("content_digest" not in wrapper, "an error wrapper carries content_digest")
    else:
        must(isinstance(wrapper.get("content_digest"), str) and isinstance(text, str), "no content_digest or text arm")
        must(label(text.encode("utf-8")) == wrapper["content_digest"], "content_digest differs")
    if served is not VMCP_ABSENT:
        signed = exact_json(wrapper_text)["payload"]
        must(exact_equal(served, signed), "the served structure is not the signed payload")
    if kind == "tool":
        signed_error = isinstance(wrapper["payload"], dict) and wrapper["payload"].get("isError") is True
        must(is_error == signed_error, "isError differs")
    for name in ("exp", "nbf"):
        if name in wrapper:
            must(is_time(wrapper[name]), name + " is not a time")
    now = c["now"]
    must(wrapper["iat"] <= now + VMCP_SKEW, "iat is in the future")
    must("nbf" not in wrapper or wrapper["nbf"] <= now + VMCP_SKEW, "nbf is in the future")
    must("exp" not in wrapper or now < wrapper["exp"] + VMCP_SKEW, "exp has passed")
    return payload.decode("utf-8")


def _libsodium():
    import nacl

    return f"the libsodium bundled in PyNaCl {nacl.__version__}"


LIBRARIES = {
    "vmcp": (lambda: verdict(vmcp, ("jwks", "now", "response")), _libsodium),
}
