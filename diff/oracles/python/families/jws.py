"""JWS: compact EdDSA tokens checked against the one JWK of the case ({"jwk","token"}),
answering the payload."""

from common import verdict


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


def _cryptography():
    import cryptography
    from cryptography.hazmat.backends.openssl.backend import backend

    return f"cryptography {cryptography.__version__}, {backend.openssl_version_text()}"


LIBRARIES = {
    name: ((lambda check=check: verdict(check, ("jwk", "token"))), _cryptography)
    for name, check in (("jwcrypto", jwcrypto), ("pyjwt", pyjwt), ("joserfc", joserfc))
}
