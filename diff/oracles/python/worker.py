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
verifiable-mcp verifier {"jwks","now","response"}. Each family's libraries are in
families/<family>.py: adding a library touches its family's file and the lockfile only."""

import base64
import binascii
import json
import os
import sys
from json.encoder import encode_basestring

from families import ed25519, ekl, ink, jcs, jws, merkle, vmcp

# Every library of every family, by the name the harness gives it: (load, uses).
REGISTRY = {}
for family in (jcs, ed25519, jws, merkle, ekl, ink, vmcp):
    REGISTRY.update(family.LIBRARIES)


def load(library):
    if library not in REGISTRY:
        sys.stderr.write(f"unknown library {library}\n")
        sys.exit(2)
    return REGISTRY[library][0]()


def uses(library):
    """What the library computes with underneath, for the report's provenance."""
    found = REGISTRY.get(library, (None, None))[1]
    return found() if found else None


encode = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


def dumps(answer):
    """The answer as one JSON line; the usual {"ok": text} is written without building an
    encoder for it, as JSONEncoder.encode does on every call."""
    ok = answer.get("ok")
    if type(ok) is str and len(answer) == 1:
        return '{"ok":' + encode_basestring(ok) + "}"
    return encode(answer)


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
