"""A canonfuzz worker: canonicalizes one JSON text per stdin line with the PyPI library named
on the command line, answering each line with one line of the `canonfuzz canon --jsonl`
protocol: {"ok": "<canonical text>"} or {"error": {"kind", "message", "offset"}}."""

import json
import os
import sys


def load(library):
    if library == "rfc8785":
        import rfc8785

        return rfc8785.dumps
    if library == "jcs":
        import jcs

        return jcs.canonicalize
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
    canon = load(sys.argv[1])
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
            answers.append(dumps(answer(canon, line)))
        if answers:
            sys.stdout.buffer.write("\n".join(answers).encode("utf-8", "replace") + b"\n")
            sys.stdout.buffer.flush()
        if not chunk:
            break


if __name__ == "__main__":
    sys.setrecursionlimit(10000)
    main()
