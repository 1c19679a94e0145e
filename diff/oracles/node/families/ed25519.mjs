// Ed25519: verifiers of {"key","msg","sig"} in hex, answering `valid` or a rejection.
import { createHash, createPublicKey, verify as cryptoVerify } from 'node:crypto';
import { decoder, openssl, rejected } from '../common.mjs';

// An Ed25519 case, or null when the line is not one.
function ed25519Case(bytes) {
  try {
    const c = JSON.parse(decoder.decode(bytes));
    const hex = (h) => (typeof h === 'string' && /^([0-9a-f]{2})*$/.test(h) ? Buffer.from(h, 'hex') : null);
    const [key, msg, sig] = [hex(c.key), hex(c.msg), hex(c.sig)];
    return key && msg && sig ? { key, msg, sig } : null;
  } catch {
    return null;
  }
}

function verifier(check) {
  return async (bytes) => {
    const c = ed25519Case(bytes);
    if (!c) return { unsupported: true };
    try {
      return (await check(c)) ? { ok: 'valid' } : rejected({ message: 'signature does not verify' });
    } catch (e) {
      return rejected(e);
    }
  };
}

export const libraries = {
  crypto: {
    load: async () => verifier(({ key, msg, sig }) =>
      cryptoVerify(null, msg, createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: key.toString('base64url') }, format: 'jwk' }), sig)),
    uses: openssl,
  },
  '@noble/ed25519': {
    load: async () => {
      // noble hashes with the SHA-512 it is given. Its default is WebCrypto's digest, which
      // is asynchronous; node:crypto's is the same OpenSSL function, called synchronously, so
      // a verification takes no turn of the event loop (8% less CPU a verification).
      const ed = await import('@noble/ed25519');
      ed.hashes.sha512 = (message) => createHash('sha512').update(message).digest();
      return verifier(({ key, msg, sig }) => ed.verify(sig, msg, key));
    },
    uses: `its own curve arithmetic; SHA-512 from ${openssl}`,
  },
};
