"""What every family's worker module shares: reading a case, answering one, errors, and JSON
read as the harness's readers read it."""

import json


class Unsupported(Exception):
    """The library cannot be asked this question."""


def error(kind, message, offset=0):
    return {"error": {"kind": kind, "message": message, "offset": offset}}


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
