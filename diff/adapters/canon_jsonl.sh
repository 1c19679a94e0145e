#!/bin/sh
# The plain form of the worker protocol: one input per line in, one {"ok":…} or {"error":…}
# per line out, as `canonfuzz canon --jsonl` speaks it. Any command that answers like this
# can be compared as it is (an input holding a line feed is then left out for it):
#   canonfuzz diff --with self="diff/adapters/canon_jsonl.sh"
exec "${CANONFUZZ:-canonfuzz}" canon --jsonl
