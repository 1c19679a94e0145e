"""A canonfuzz worker: answers one input per stdin line with the PyPI library named on the
command line, one JSON answer line per input, in order:
  {"ok": "<text>"}  accepted: the canonical text, `valid`, or the verified payload
  {"error": {"kind", "message", "offset"}}  rejected; kind `rejected` for verifiers, whose
                                            reasons are not compared
  {"unsupported": true}  the line is not an input of the library's family
JCS libraries read a JSON text per line (the `canonfuzz canon --jsonl` protocol); Ed25519
verifiers {"key","msg","sig"} in hex; JOSE libraries {"jwk","token"}; Merkle trees an
{"op": "root" | "inclusion" | ...} case (RFC 9162 audit paths, hashes in hex)."""

import json
import os
import sys


def canonicalizer(canon):
    return lambda line: answer(canon, line)


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
    and HMAC-SHA256 keyed with the hex SHA-256 of the credential over challenge || endpoint."""
    import hashlib
    import hmac

    import rfc8785

    if c["op"] == "challenge":
        key = hashlib.sha256(c["credential"].encode()).hexdigest().encode()
        return hmac.new(key, (c["challenge"] + c["endpoint"]).encode(), hashlib.sha256).hexdigest()
    salt = bytes.fromhex(c["salt"])
    if len(salt) != 32:
        raise ValueError("the salt is not 32 bytes")
    if c["op"] == "fingerprint":
        value = json.loads(c["value"], parse_constant=refuse_constant)
    else:
        result = json.loads(c["result"], parse_constant=refuse_constant)
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
        event = json.loads(c["event"], parse_constant=refuse_constant)
        if not isinstance(event, dict):
            raise ValueError("an event is an object")
        event.pop("agentSignature", None)
        return hashlib.sha256(b"\x00" + rfc8785.dumps(event)).hexdigest()
    body = rfc8785.dumps(json.loads(c["body"], parse_constant=refuse_constant))
    head = "ink/0.1\n" + "\n".join([c["method"], c["path"], c["recipientDid"]]) + "\n"
    return hashlib.sha256(head.encode() + body + b"\n" + c["timestamp"].encode()).hexdigest()


class Unsupported(Exception):
    """The library cannot be asked this question."""


def load(library):
    if library == "rfc8785":
        import rfc8785

        return canonicalizer(rfc8785.dumps)
    if library == "jcs":
        import jcs

        return canonicalizer(jcs.canonicalize)
    verifiers = {"pynacl": (pynacl, ("key", "msg", "sig"))}
    for name, check in (("jwcrypto", jwcrypto), ("pyjwt", pyjwt), ("joserfc", joserfc)):
        verifiers[name] = (check, ("jwk", "token"))
    verifiers["pymerkle"] = (pymerkle, ("op",))
    verifiers["ekl"] = (ekl, ("op",))
    verifiers["ink"] = (ink, ("op",))
    if library in verifiers:
        check, fields = verifiers[library]
        return verdict(check, fields)
    sys.stderr.write(f"unknown library {library}\n")
    sys.exit(2)


def refuse_constant(name):
    raise ValueError(f"{name} is not JSON")


def error(kind, message, offset=0):
    return {"error": {"kind": kind, "message": message, "offset": offset}}


def answer(canon, line):
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as e:
        return error("invalid_utf8", str(e), e.start)
    try:
        value = json.loads(text, parse_constant=refuse_constant)
    except json.JSONDecodeError as e:
        return error("syntax", e.msg, e.pos)
    except RecursionError as e:
        return error("depth_limit", str(e))
    except ValueError as e:
        return error("syntax", str(e))
    try:
        out = canon(value)
    except RecursionError as e:
        return error("depth_limit", str(e))
    except Exception as e:  # the library's own refusals, whatever their type
        return error("other", f"{type(e).__name__}: {e}")
    if isinstance(out, bytes):
        out = out.decode("utf-8", "replace")
    return {"ok": out}


dumps = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


def main():
    respond = load(sys.argv[1])
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
