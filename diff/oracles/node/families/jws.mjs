// JWS: compact EdDSA tokens checked against the one JWK of the case ({"jwk","token"}),
// answering the payload.
import { decoder, jsonCase, openssl } from '../common.mjs';

export const libraries = {
  jose: {
    load: async () => {
      const jose = await import('jose');
      return jsonCase(async (c) => {
        if (typeof c.token !== 'string' || typeof c.jwk !== 'object' || c.jwk === null) return { unsupported: true };
        const key = await jose.importJWK(c.jwk, typeof c.jwk.alg === 'string' ? c.jwk.alg : 'EdDSA');
        const { payload } = await jose.compactVerify(c.token, key);
        return { ok: decoder.decode(payload) };
      });
    },
    uses: openssl,
  },
};
