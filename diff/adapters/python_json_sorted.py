"""A canonfuzz adapter (worker protocol 1) for a JCS candidate: Python's json module with
sorted keys. Replace `canon` with the library to test; the rest is the protocol."""
import base64, json, sys

def canon(data):
    return json.dumps(json.loads(data), sort_keys=True, separators=(",", ":"), ensure_ascii=False)

for line in sys.stdin:
    request = json.loads(line)
    if "canonfuzz" in request:  # the first line: say which protocol, and who this is
        answer = {"canonfuzz": 1, "name": "python-json-sorted", "version": sys.version.split()[0]}
    else:
        try:
            answer = {"ok": canon(base64.b64decode(request["input"]))}
        except Exception as e:  # a rejection; its kind is not known, so "other"
            answer = {"error": {"kind": "other", "message": str(e)}}
    print(json.dumps(answer), flush=True)
