"""A canonfuzz worker: answers one input per stdin line with the PyPI library named on the
command line, one JSON answer line per input, in order (in protocol 1, see `framing`, each
input travels as base64):
  {"ok": "<text>"}  accepted: the canonical text, `valid`, or the verified payload
  {"error": {"kind", "message", "offset"}}  rejected; kind `rejected` for verifiers, whose
                                            reasons are not compared
  {"unsupported": true}  the line is not an input of the library's family, or one the
                         library cannot take (PyPI jcs: nesting past 500 levels)
JCS libraries read a JSON text per line (the `canonfuzz canon --jsonl` protocol); Ed25519
verifiers {"key","msg","sig"} in hex; JOSE libraries {"jwk","token"}; Merkle trees an
{"op": "root" | "inclusion" | ...} case (RFC 9162 audit paths, hashes in hex); the
verifiable-mcp verifier {"jwks","now","response"}."""

import base64
import binascii
import json
import os
import re
import sys
from itertools import accumulate
from json.encoder import encode_basestring


def canonicalizer(canon, max_depth=None):
    """An answer function for a JCS library; documents nested deeper than `max_depth` are
    inputs the library cannot take in reasonable time, answered as unsupported."""
    return lambda line: answer(canon, line, max_depth)


# A JSON string token, its escapes included.
STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.S)
# Anything but a bracket.
NOT_BRACKET = re.compile(r"[^\[\]{}]+")
# How a bracket moves the nesting.
NESTING = {"[": 1, "{": 1, "]": -1, "}": -1}


def depth(text):
    """How deep arrays and objects nest in a JSON text that parsed: the most brackets open at
    once outside its strings. Read from the text with the regular-expression engine, which
    takes a thousand levels in a fifth of the time a walk over the parsed value does."""
    brackets = NOT_BRACKET.sub("", STRING.sub("", text))
    return max(accumulate(map(NESTING.__getitem__, brackets)), default=0)


def case(line, fields):
    """The JSON object on the line if it has every field, else None."""
    try:
        value = json.loads(line.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
    if not isinstance(value, dict) or any(f not in value for f in fields):
        return None
    return value


def verdict(check, fields):
    """An answer function around `check(case)`, which returns the accepted text or raises."""

    def run(line):
        c = case(line, fields)
        if c is None:
            return {"unsupported": True}
        try:
            return {"ok": check(c)}
        except Unsupported:
            return {"unsupported": True}
        except Exception as e:  # every library's refusals, whatever their type
            return error("rejected", f"{type(e).__name__}: {e}")

    return run


def pynacl(c):
    from nacl.signing import VerifyKey

    key, msg, sig = (bytes.fromhex(c[f]) for f in ("key", "msg", "sig"))
    VerifyKey(key).verify(msg, sig)
    return "valid"


def jwcrypto(c):
    from jwcrypto import jwk, jws

    token = jws.JWS()
    token.deserialize(c["token"])
    token.verify(jwk.JWK(**c["jwk"]))
    return token.payload.decode("utf-8")


def pyjwt(c):
    import jwt

    key = jwt.PyJWK(c["jwk"], algorithm=c["jwk"].get("alg", "EdDSA"))
    payload = jwt.PyJWS().decode(c["token"], key.key, algorithms=["EdDSA", "Ed25519"])
    return payload.decode("utf-8")


def joserfc(c):
    from joserfc import jws
    from joserfc.jwk import OKPKey

    key = OKPKey.import_key(c["jwk"])
    result = jws.deserialize_compact(c["token"], key, algorithms=["EdDSA", "Ed25519"])
    return result.payload.decode("utf-8")


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


def ekl(c):
    """The adapter profile from its definitions: SHA-256(salt || JCS(value)) with a 32-byte
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


# PyPI jcs serializes recursively in time quadratic in the nesting (0.01 s per document at
# 500 levels, 0.16 s at 2,000), and a minimizer asks thousands of deep documents: deeper ones
# are not asked of it.
QUADRATIC_MAX_DEPTH = 500


class Unsupported(Exception):
    """The library cannot be asked this question."""


def load(library):
    if library == "rfc8785":
        import rfc8785

        return canonicalizer(rfc8785.dumps)
    if library == "jcs":
        import jcs

        return canonicalizer(jcs.canonicalize, max_depth=QUADRATIC_MAX_DEPTH)
    if library == "jsoncanon":
        import jsoncanon

        return canonicalizer(jsoncanon.canonicalize)
    verifiers = {"pynacl": (pynacl, ("key", "msg", "sig"))}
    for name, check in (("jwcrypto", jwcrypto), ("pyjwt", pyjwt), ("joserfc", joserfc)):
        verifiers[name] = (check, ("jwk", "token"))
    verifiers["pymerkle"] = (pymerkle, ("op",))
    verifiers["ekl"] = (ekl, ("op",))
    verifiers["ink"] = (ink, ("op",))
    verifiers["vmcp"] = (vmcp, ("jwks", "now", "response"))
    if library in verifiers:
        check, fields = verifiers[library]
        return verdict(check, fields)
    sys.stderr.write(f"unknown library {library}\n")
    sys.exit(2)


def refuse_constant(name):
    raise ValueError(f"{name} is not JSON")


# json.loads builds a decoder for every call given a keyword: one is built here, once.
DECODER = json.JSONDecoder(parse_constant=refuse_constant)


def read_json(text):
    """json.loads(text, parse_constant=refuse_constant), byte order mark check included."""
    if not isinstance(text, str):
        return json.loads(text, parse_constant=refuse_constant)
    if text.startswith("\ufeff"):
        raise json.JSONDecodeError("Unexpected UTF-8 BOM (decode using utf-8-sig)", text, 0)
    return DECODER.decode(text)


def error(kind, message, offset=0):
    return {"error": {"kind": kind, "message": message, "offset": offset}}


def answer(canon, line, max_depth=None):
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as e:
        return error("invalid_utf8", str(e), e.start)
    try:
        value = read_json(text)
    except json.JSONDecodeError as e:
        return error("syntax", e.msg, e.pos)
    except RecursionError as e:
        return error("depth_limit", str(e))
    except ValueError as e:
        return error("syntax", str(e))
    # Each level takes a bracket and its closer, so a shorter text cannot nest that deep.
    if max_depth is not None and len(text) > 2 * max_depth and depth(text) > max_depth:
        return {"unsupported": True}
    try:
        out = canon(value)
    except RecursionError as e:
        return error("depth_limit", str(e))
    except Exception as e:  # the library's own refusals, whatever their type
        return error("other", f"{type(e).__name__}: {e}")
    if isinstance(out, bytes):
        out = out.decode("utf-8", "replace")
    return {"ok": out}


encode = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


def dumps(answer):
    """The answer as one JSON line; the usual {"ok": text} is written without building an
    encoder for it, as JSONEncoder.encode does on every call."""
    ok = answer.get("ok")
    if type(ok) is str and len(answer) == 1:
        return '{"ok":' + encode_basestring(ok) + "}"
    return encode(answer)


def uses(library):
    """What the library computes with underneath, for the report's provenance."""
    if library in ("jwcrypto", "pyjwt", "joserfc"):
        import cryptography
        from cryptography.hazmat.backends.openssl.backend import backend

        return f"cryptography {cryptography.__version__}, {backend.openssl_version_text()}"
    if library in ("pynacl", "vmcp"):
        import nacl

        return f"the libsodium bundled in PyNaCl {nacl.__version__}"
    if library in ("ekl", "ink"):
        import ssl

        return f"hashlib, {ssl.OPENSSL_VERSION}"
    return None


def framing(respond, library):
    """Protocol 1 when the first line is {"canonfuzz":1}: answer it with a greeting and then
    read each input as {"input":"<base64>"}, so that any byte can travel; otherwise each line
    is an input as it is."""
    framed = None

    def answer(line):
        nonlocal framed
        if framed is None:
            framed = False
            try:
                hello = json.loads(line)
                if isinstance(hello, dict) and hello.get("canonfuzz") == 1:
                    framed = True
                    greeting = {"canonfuzz": 1, "name": library}
                    if uses(library):
                        greeting["uses"] = uses(library)
                    return greeting
            except ValueError:
                pass
        if not framed:
            return respond(line)
        # The harness writes each request as exactly {"input":"<base64>"}: read that shape
        # without a JSON parser, and any other through one.
        if line.startswith(b'{"input":"') and line.endswith(b'"}'):
            try:
                data = binascii.a2b_base64(line[10:-2], strict_mode=True)
            except binascii.Error:
                data = None
            if data is not None:
                return respond(data)
        try:
            data = base64.b64decode(json.loads(line)["input"], validate=True)
        except (ValueError, KeyError, TypeError) as e:
            return {"error": {"kind": "crashed", "message": f"not a protocol 1 request: {e}", "offset": 0}}
        return respond(data)

    return answer


def main():
    respond = framing(load(sys.argv[1]), sys.argv[1])
    pending = b""
    while True:
        chunk = os.read(0, 1 << 16)
        lines = (pending + chunk).split(b"\n")
        pending = lines.pop()
        if not chunk and pending:
            lines.append(pending)
        answers = []
        for line in lines:
            if line.endswith(b"\r"):
                line = line[:-1]
            answers.append(dumps(respond(line)))
        if answers:
            sys.stdout.buffer.write("\n".join(answers).encode("utf-8", "replace") + b"\n")
            sys.stdout.buffer.flush()
        if not chunk:
            break


if __name__ == "__main__":
    sys.setrecursionlimit(10000)
    main()
