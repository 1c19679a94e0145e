"""JCS: the PyPI canonicalizers, each handed the value json.loads reads, as each library would
be."""

import json
import re
from itertools import accumulate

from common import error, read_json

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


# PyPI jcs serializes recursively in time quadratic in the nesting (0.01 s per document at
# 500 levels, 0.16 s at 2,000), and a minimizer asks thousands of deep documents: deeper ones
# are not asked of it.
QUADRATIC_MAX_DEPTH = 500


def canonicalizer(canon, max_depth=None):
    """An answer function for a JCS library; documents nested deeper than `max_depth` are
    inputs the library cannot take in reasonable time, answered as unsupported."""
    return lambda line: answer(canon, line, max_depth)


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


def _load(module, function, max_depth=None):
    def load():
        return canonicalizer(getattr(__import__(module), function), max_depth)

    return load


# The libraries of the family by the name the harness gives them: how each is loaded, and
# what it computes with (plain Python: nothing to name).
LIBRARIES = {
    "rfc8785": (_load("rfc8785", "dumps"), None),
    "jcs": (_load("jcs", "canonicalize", QUADRATIC_MAX_DEPTH), None),
    "jsoncanon": (_load("jsoncanon", "canonicalize"), None),
}
