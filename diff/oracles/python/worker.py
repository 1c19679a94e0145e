"""A canonfuzz worker: answers one input per stdin line with the PyPI library named on the
command line, one JSON answer line per input, in order. It speaks protocol 1: the first line
is {"canonfuzz":1,"family":"<family>"}, from which it loads families/<family>.py and the
library from that family's LIBRARIES; it answers with a greeting and then reads each input as
{"input":"<base64>"}, so that any byte can travel. Answers:
  {"ok": "<text>"}  accepted: the canonical text, `valid`, or the verified payload
  {"error": {"kind", "message", "offset"}}  rejected; kind `rejected` for verifiers, whose
                                            reasons are not compared
  {"unsupported": true}  the line is not an input of the library's family, or one the
                         library cannot take (PyPI jcs: nesting past 500 levels)
JCS libraries read a JSON text per line (the `canonfuzz canon --jsonl` protocol); Ed25519
verifiers {"key","msg","sig"} in hex; JOSE libraries {"jwk","token"}; Merkle trees an
{"op": "root" | "inclusion" | ...} case (RFC 9162 audit paths, hashes in hex); the
verifiable-mcp verifier {"jwks","now","response"}. Adding a library touches its family's file
and the lockfile only; adding a family, its file."""

import base64
import binascii
import importlib
import json
import os
import re
import sys
from json.encoder import encode_basestring


def refuse(why):
    sys.stderr.write(why + "\n")
    sys.exit(2)


def load(family, library):
    """The library's answer function and what it computes with underneath (for the report's
    provenance), from the family's module."""
    if not isinstance(family, str) or not re.fullmatch(r"[a-z0-9_]+", family):
        refuse(f"the first line names no family: {family!r}")
    try:
        module = importlib.import_module(f"families.{family}")
    except ImportError as e:
        refuse(f"no family {family} in this worker: {e}")
    if library not in module.LIBRARIES:
        refuse(f"unknown library {library} of family {family}")
    loaded, uses = module.LIBRARIES[library]
    return loaded(), uses() if uses else None


encode = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


def dumps(answer):
    """The answer as one JSON line; the usual {"ok": text} is written without building an
    encoder for it, as JSONEncoder.encode does on every call."""
    ok = answer.get("ok")
    if type(ok) is str and len(answer) == 1:
        return '{"ok":' + encode_basestring(ok) + "}"
    return encode(answer)


def framing(library):
    """Protocol 1: the first line names the family, whose library is then loaded and greets;
    each later line is {"input":"<base64>"}, so that any byte can travel."""
    respond = None

    def answer(line):
        nonlocal respond
        if respond is None:
            try:
                hello = json.loads(line)
            except ValueError:
                hello = None
            if not isinstance(hello, dict) or hello.get("canonfuzz") != 1:
                refuse('the first line is not the protocol\'s: {"canonfuzz":1,"family":...}')
            respond, uses = load(hello.get("family"), library)
            greeting = {"canonfuzz": 1, "name": library}
            if uses:
                greeting["uses"] = uses
            return greeting
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
    respond = framing(sys.argv[1])
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
