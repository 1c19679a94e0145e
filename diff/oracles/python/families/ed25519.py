"""Ed25519: verifiers of {"key","msg","sig"} in hex, answering `valid` or a rejection."""

from common import verdict


def pynacl(c):
    from nacl.signing import VerifyKey

    key, msg, sig = (bytes.fromhex(c[f]) for f in ("key", "msg", "sig"))
    VerifyKey(key).verify(msg, sig)
    return "valid"


def _libsodium():
    import nacl

    return f"the libsodium bundled in PyNaCl {nacl.__version__}"


LIBRARIES = {
    "pynacl": (lambda: verdict(pynacl, ("key", "msg", "sig")), _libsodium),
}
